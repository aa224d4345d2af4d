//! Verification: the network against the definitions, exhaustively.
//!
//! For each combinator, every sequence of condition bits of length 1 up to
//! its longest execution is fed to the network, and at every step until the
//! definition returns, the chosen slot and the return flag must equal
//! [`traces::expected`]. The network's decisions come from a
//! [`DecisionTable`], which is computed by [`Network::step`](super::Network::step), the path the
//! runtime uses, so a verified core is exact wherever it runs the same code.
//! The result is a [`Verification`]: one row per combinator, printable as
//! the table `cnpic verify-core` shows.

use std::fmt;

use super::network::Decision;
use super::table::{Decider, DecisionTable};
use super::traces::{self, expected};
use cnpi::program::Behaviour;

/// The outcome of verifying a core against a set of definitions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verification {
    pub rows: Vec<VerificationRow>,
}

/// One combinator's result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VerificationRow {
    pub combinator: String,
    /// Bit sequences enumerated: all of length 1 to the longest execution.
    pub sequences: u64,
    /// Sequences along which some step's decision was wrong.
    pub failed_sequences: u64,
    /// Distinct steps compared (one per reachable bit prefix).
    pub steps: u64,
    pub wrong_steps: u64,
    /// The shortest wrong prefix, for the report.
    pub first_mismatch: Option<Mismatch>,
}

/// A step where the network and the definition disagree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mismatch {
    pub bits: Vec<bool>,
    pub expected: Decision,
    /// `None` if the table had no entry (a table shallower than the
    /// definition).
    pub actual: Option<Decision>,
}

impl Verification {
    /// True when every step of every combinator is right.
    pub fn passed(&self) -> bool {
        self.rows.iter().all(|row| row.wrong_steps == 0)
    }

    /// The fraction of steps decided right (1.0 when there are none).
    pub fn accuracy(&self) -> f64 {
        let steps: u64 = self.rows.iter().map(|r| r.steps).sum();
        let wrong: u64 = self.rows.iter().map(|r| r.wrong_steps).sum();
        if steps == 0 {
            1.0
        } else {
            (steps - wrong) as f64 / steps as f64
        }
    }

    /// One line for file metadata and progress messages.
    pub fn summary(&self) -> String {
        let sequences: u64 = self.rows.iter().map(|r| r.sequences).sum();
        let failed: u64 = self.rows.iter().map(|r| r.failed_sequences).sum();
        let verdict = if self.passed() { "passed" } else { "FAILED" };
        format!(
            "{verdict}: {} combinators, {sequences} bit sequences, {failed} wrong",
            self.rows.len()
        )
    }
}

/// Verifies `network` against named behaviours (embedding `i` against
/// `behaviours[i]`).
pub fn verify_network(network: &impl Decider, behaviours: &[(&str, &Behaviour)]) -> Verification {
    let depths: Vec<usize> = behaviours.iter().map(|(_, b)| traces::longest(b)).collect();
    let table = DecisionTable::build(network, &depths);
    let rows = (behaviours.iter().enumerate()).map(|(index, (name, b))| (index, *name, *b));
    verify_rows(&table, rows)
}

/// Verifies rows of `table` (each given as its index in the table, its
/// name and its behaviour).
pub(super) fn verify_rows<'b>(
    table: &DecisionTable,
    rows: impl Iterator<Item = (usize, &'b str, &'b Behaviour)>,
) -> Verification {
    let rows = rows
        .map(|(index, name, behaviour)| verify_row(table, index, name, behaviour))
        .collect();
    Verification { rows }
}

fn verify_row(
    table: &DecisionTable,
    index: usize,
    name: &str,
    behaviour: &Behaviour,
) -> VerificationRow {
    let depth = traces::longest(behaviour);
    let mut row = VerificationRow {
        combinator: name.to_string(),
        sequences: 0,
        failed_sequences: 0,
        steps: 0,
        wrong_steps: 0,
        first_mismatch: None,
    };
    // A sequence fails when its own last step or any earlier step is wrong;
    // `failed[n][code]` records that for the sequences of length `n`.
    // Lengths go up, so the first recorded mismatch is a shortest one.
    let mut failed: Vec<Vec<bool>> = vec![vec![false]];
    for length in 1..=depth {
        let mut level = Vec::with_capacity(1 << length);
        for code in 0..1usize << length {
            let bits: Vec<bool> = (0..length).map(|i| code >> i & 1 == 1).collect();
            let wrong = match expected(behaviour, &bits) {
                None => false,
                Some(want) => {
                    row.steps += 1;
                    let got = table.decision_at(index, &bits);
                    let wrong = got != Some(want);
                    row.wrong_steps += u64::from(wrong);
                    if wrong && row.first_mismatch.is_none() {
                        row.first_mismatch = Some(Mismatch {
                            bits,
                            expected: want,
                            actual: got,
                        });
                    }
                    wrong
                }
            };
            let parent = code & ((1 << (length - 1)) - 1);
            let sequence_failed = wrong || failed[length - 1][parent];
            row.sequences += 1;
            row.failed_sequences += u64::from(sequence_failed);
            level.push(sequence_failed);
        }
        failed.push(level);
    }
    row
}

impl fmt::Display for Verification {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{:<12} {:>10} {:>6}  result",
            "combinator", "sequences", "steps"
        )?;
        for row in &self.rows {
            write!(
                f,
                "{:<12} {:>10} {:>6}  ",
                row.combinator, row.sequences, row.steps
            )?;
            match &row.first_mismatch {
                None => writeln!(f, "ok")?,
                Some(m) => writeln!(
                    f,
                    "FAILED: {} of {} sequences; after bits {} expected {}, got {}",
                    row.failed_sequences,
                    row.sequences,
                    bit_string(&m.bits),
                    describe(m.expected),
                    m.actual.map_or("no decision".to_string(), describe)
                )?,
            }
        }
        Ok(())
    }
}

fn bit_string(bits: &[bool]) -> String {
    bits.iter().map(|&b| if b { '1' } else { '0' }).collect()
}

fn describe(decision: Decision) -> String {
    let ret = if decision.ret { " and return" } else { "" };
    format!("{}{ret}", decision.slot.name())
}
