//! The decision table: the network's decision after every bit prefix.
//!
//! The core's decision depends only on the combinator and the condition bits
//! seen so far in the activation, and no activation runs longer than its
//! combinator's longest execution. So the network's whole behaviour is a
//! finite table: for each combinator and each prefix of `1..=depth` bits,
//! the decision [`Network::step`] gives after it. The table is computed by
//! running the network (never from the definitions), which makes it both
//! what verification checks and an exact cache for the runtime.

use std::borrow::Cow;

use super::network::{Decision, Network, State};

/// Anything that decides like the core, step by step from a combinator's
/// start: the inference [`Network`], and the fast trainer's models (whose
/// variants feed the combinator differently).
pub trait Decider {
    type State: Clone;
    fn start(&self, combinator: usize) -> Self::State;
    fn step(&self, state: &mut Self::State, bit: bool) -> Decision;
}

impl Decider for Network {
    type State = State;
    fn start(&self, combinator: usize) -> State {
        Network::start(self, combinator)
    }
    fn step(&self, state: &mut State, bit: bool) -> Decision {
        Network::step(self, state, bit)
    }
}

/// For each combinator, the decisions after every bit prefix up to its depth.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DecisionTable {
    /// Per combinator: the decision for the prefix of length `n` with bits
    /// `b` is at `(1 << n) - 2 + code(b)`, where bit `i` of `code(b)` is `b[i]`.
    /// The shipped core's rows are borrowed from the source.
    rows: Vec<Cow<'static, [Decision]>>,
}

/// The index in a row of the prefix of `len` bits coded in `code` (bit
/// `i` is the `i`-th), if it is within `depth`.
fn position(code: usize, len: usize, depth: usize) -> Option<usize> {
    if len == 0 || len > depth {
        return None;
    }
    Some((1 << len) - 2 + (code & ((1 << len) - 1)))
}

impl DecisionTable {
    /// Runs `network` on every prefix: `depths[i]` is the depth of
    /// combinator `i` (its longest execution).
    pub fn build(network: &impl Decider, depths: &[usize]) -> DecisionTable {
        let rows: Vec<Option<(usize, usize)>> =
            depths.iter().copied().enumerate().map(Some).collect();
        DecisionTable::for_embeddings(network, &rows)
    }

    /// Row `i` of the table from `rows[i] = Some((embedding, depth))`; an
    /// empty row (no decisions) for `None`, a combinator the network does
    /// not have.
    pub fn for_embeddings(
        network: &impl Decider,
        rows: &[Option<(usize, usize)>],
    ) -> DecisionTable {
        let rows = rows
            .iter()
            .map(|entry| {
                Cow::Owned(entry.map_or_else(Vec::new, |(index, depth)| row(network, index, depth)))
            })
            .collect();
        DecisionTable { rows }
    }

    /// The table whose row `i` is `rows[i]` (as [`DecisionTable::row`]
    /// gives it back): the shipped core's table, kept in the source.
    pub(super) fn from_rows(rows: &'static [&'static [Decision]]) -> DecisionTable {
        DecisionTable {
            rows: rows.iter().copied().map(Cow::Borrowed).collect(),
        }
    }

    /// This table with the rows of `rows` (as [`Self::for_embeddings`]
    /// makes them on `network`) appended.
    pub fn with_rows(
        &self,
        network: &impl Decider,
        rows: &[Option<(usize, usize)>],
    ) -> DecisionTable {
        let mut table = self.clone();
        table
            .rows
            .extend(DecisionTable::for_embeddings(network, rows).rows);
        table
    }

    /// The decision of combinator `index` after `bits`; `None` when `bits`
    /// is empty or longer than the combinator's depth.
    pub fn decision_at(&self, index: usize, bits: &[bool]) -> Option<Decision> {
        let code =
            (bits.iter().enumerate()).fold(0, |code, (i, &bit)| code | usize::from(bit) << i);
        self.decision_coded(index, code, bits.len())
    }

    /// [`DecisionTable::decision_at`] for the `len` bits coded in `code`
    /// (bit `i` is the `i`-th): one lookup, what the runtime's step loop
    /// asks.
    pub fn decision_coded(&self, index: usize, code: usize, len: usize) -> Option<Decision> {
        let row = self.rows.get(index)?;
        row.get(position(code, len, depth_of(row))?).copied()
    }

    /// The decisions of combinator `index` (none for an index the table
    /// does not have): the prefix of `len` bits coded in `code` is at
    /// `(1 << len) - 2 + code`, and every prefix longer than the
    /// combinator's depth falls past the end.
    #[inline]
    pub fn row(&self, index: usize) -> &[Decision] {
        self.rows.get(index).map_or(&[], |row| row)
    }

    /// The number of bits the table covers for combinator `index`.
    pub fn depth_at(&self, index: usize) -> usize {
        self.rows.get(index).map_or(0, |row| depth_of(row))
    }

    /// Whether the decisions of combinator `index` depend on its first bit
    /// alone: after every prefix the table covers, the decision is the one
    /// after the first bit repeated. Then whoever knows the first bit may
    /// take it for every later one without changing any decision (an
    /// index the table does not have is settled too: it has no decisions).
    pub fn first_bit_decides(&self, index: usize) -> bool {
        let row = self.row(index);
        (2..=depth_of(row)).all(|len| {
            (0..1usize << len).all(|code| {
                let repeated = if code & 1 == 1 { (1 << len) - 1 } else { 0 };
                let at = |code| position(code, len, depth_of(row)).and_then(|i| row.get(i));
                at(code) == at(repeated)
            })
        })
    }
}

/// A row of `2^(d+1) - 2` entries covers `d` bits (an empty row none).
fn depth_of(row: &[Decision]) -> usize {
    (row.len() + 2).ilog2() as usize - 1
}

/// Every prefix of one combinator, level by level, branching the states.
fn row<D: Decider>(network: &D, index: usize, depth: usize) -> Vec<Decision> {
    let mut decisions = Vec::with_capacity((1 << (depth + 1)) - 2);
    let mut level: Vec<D::State> = vec![network.start(index)];
    for length in 1..=depth {
        // Index `code` of the new level extends `code mod 2^(length-1)`
        // with the bit `code >> (length-1)`.
        let mut next = Vec::with_capacity(level.len() * 2);
        for bit in [false, true] {
            for parent in &level {
                let mut state = parent.clone();
                decisions.push(network.step(&mut state, bit));
                next.push(state);
            }
        }
        debug_assert_eq!(decisions.len(), (1 << (length + 1)) - 2);
        level = next;
    }
    decisions
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::lstm::Lstm;
    use crate::core::network::{SLOTS, Weights};

    /// A 2-cell network with varied weights, so decisions differ by prefix.
    fn network() -> Network {
        let wave = |len: usize, phase: f32| -> Vec<f32> {
            (0..len)
                .map(|i| (i as f32 * 1.7 + phase).sin() * 2.0)
                .collect()
        };
        Network::new(Weights {
            lstm: Lstm {
                cells: 2,
                inputs: 1,
                w_ih: wave(8, 0.1),
                w_hh: wave(16, 0.2),
                bias: wave(8, 0.3),
            },
            w_end: wave(2, 0.4),
            b_end: wave(1, 0.5),
            w_prog: wave(SLOTS * 2, 0.6),
            b_prog: wave(SLOTS, 0.7),
            emb_h: wave(4, 0.8),
            emb_c: wave(4, 0.9),
        })
    }

    #[test]
    fn the_table_equals_running_the_network_on_every_prefix() {
        let network = network();
        let table = DecisionTable::build(&network, &[3, 4]);
        assert_eq!(table.depth_at(0), 3);
        assert_eq!(table.depth_at(1), 4);
        for index in 0..2 {
            for length in 1..=table.depth_at(index) {
                for code in 0..1u32 << length {
                    let bits: Vec<bool> = (0..length).map(|i| code >> i & 1 == 1).collect();
                    let mut state = network.start(index);
                    let mut last = None;
                    for &bit in &bits {
                        last = Some(network.step(&mut state, bit));
                    }
                    assert_eq!(table.decision_at(index, &bits), last, "{bits:?}");
                    let at = (1 << length) - 2 + code as usize;
                    assert_eq!(table.row(index).get(at).copied(), last, "{bits:?}");
                }
            }
        }
    }

    #[test]
    fn the_shipped_core_decides_by_the_first_bit_alone() {
        let core = crate::core::Core::shipped().expect("the shipped core loads");
        let table = core.decision_table();
        for index in 0..crate::core::COMBINATORS.len() {
            assert!(table.depth_at(index) >= 1);
            assert!(table.first_bit_decides(index), "combinator {index}");
        }
    }

    #[test]
    fn a_decision_that_reads_a_later_bit_is_seen() {
        let slot = |ret| Decision {
            slot: cnpi::program::Slot::A1,
            ret,
        };
        // Two combinators of 4 bits, the first deciding alike everywhere;
        // and one without decisions.
        let mut table = DecisionTable {
            rows: vec![Cow::Owned(vec![slot(false); (1 << 5) - 2]); 2],
        };
        table.rows.push(Cow::Borrowed(&[]));
        // The second after `[true, true, false]` (length 3, code 0b011)
        // otherwise than after `[true, true, true]`.
        table.rows[1].to_mut()[(1 << 3) - 2 + 0b011] = slot(true);
        assert!(table.first_bit_decides(0));
        assert!(!table.first_bit_decides(1));
        assert!(table.first_bit_decides(2), "no decisions at all");
        // After `[false, true]` otherwise than after `[false, false]`.
        table.rows[0].to_mut()[(1 << 2) - 2 + 0b10] = slot(true);
        assert!(!table.first_bit_decides(0));
        // A first bit alone decides whatever it is.
        let mut by_first = table.clone();
        by_first.rows[1] = (1..=4usize)
            .flat_map(|len| (0..1usize << len).map(|code| slot(code & 1 == 1)))
            .collect::<Vec<_>>()
            .into();
        assert!(by_first.first_bit_decides(1));
    }

    #[test]
    fn prefixes_outside_the_table_have_no_decision() {
        let table = DecisionTable::build(&network(), &[2]);
        assert_eq!(table.decision_at(0, &[]), None);
        assert_eq!(table.decision_at(0, &[true, true, true]), None);
        assert_eq!(table.decision_at(1, &[true]), None);
        // Every prefix of 3 bits lies past the end of a 2-bit row.
        assert_eq!(table.row(0).len(), (1 << 3) - 2);
        assert!(table.row(1).is_empty());
    }
}
