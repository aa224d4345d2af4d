//! What may fill a hole, as rows of the program memory the sketch is built
//! into: the combinators `seq`, `cond`, `linrec` and those the file
//! defines and applies; the detectors of the conditions written in the
//! file's appliers and listed in the hole itself (none for a combinator
//! that reads no condition); and as each callable argument, `NOP` or a
//! definition that is neither the hole nor reaches it, so the program
//! stays acyclic. A [`Fill`] picks one of each per hole.

use cnpi::program::{Applier, Body, Callee, Combinator, CombinatorKind, DefId, Program};
use cnpi_neural::detector::Condition;
use cnpi_neural::memory::{ActKind, BLIND, DetectorId, Memory, RowId, RowKind, condition_code};

/// A combinator candidate: its row and whether it reads a condition.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CombinatorRow {
    pub row: RowId,
    pub reads_c: bool,
}

/// The candidates of one hole.
#[derive(Clone, Debug)]
pub struct HoleSpace {
    /// The hole's definition and its row.
    pub def: DefId,
    pub row: RowId,
    pub combinators: Vec<CombinatorRow>,
    pub detectors: Vec<DetectorId>,
    /// `NOP` first, then the definitions allowed, in file order.
    pub arguments: Vec<RowId>,
    /// The definition behind each argument (`None` for `NOP`).
    pub argument_defs: Vec<Option<DefId>>,
}

/// One applier for a hole: indices into its [`HoleSpace`] (the detector is
/// ignored for a combinator that reads none).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Choice {
    pub combinator: usize,
    pub detector: usize,
    pub arguments: [usize; 3],
}

/// One choice per hole, in the order of the holes.
pub type Fill = Vec<Choice>;

impl HoleSpace {
    /// The detector row `choice` runs with (`BLIND` for one that reads no
    /// condition).
    pub fn detector(&self, choice: &Choice) -> DetectorId {
        if self.combinators[choice.combinator].reads_c {
            self.detectors[choice.detector]
        } else {
            BLIND
        }
    }

    /// Writes `choice` into the hole's row.
    pub fn write(
        &self,
        memory: &mut Memory,
        choice: &Choice,
    ) -> Result<(), cnpi::diagnostic::Diagnostic> {
        let args = choice.arguments.map(|a| self.arguments[a]);
        let combinator = self.combinators[choice.combinator].row;
        memory.write_applier(self.row, combinator, self.detector(choice), args)
    }

    /// How many distinct definitions `choice` calls (`NOP` is none).
    pub fn distinct(&self, choice: &Choice) -> usize {
        let mut called: Vec<usize> = choice
            .arguments
            .iter()
            .copied()
            .filter(|&a| a != 0)
            .collect();
        called.sort_unstable();
        called.dedup();
        called.len()
    }
}

/// The spaces of every hole of `program` (unit `unit` of `memory`).
pub fn spaces(program: &Program, memory: &Memory, unit: usize) -> Vec<HoleSpace> {
    let rows = def_rows(program, memory, unit);
    let reaches = reaching(program);
    let stdlib = [Combinator::Seq, Combinator::Cond, Combinator::Linrec].map(|c| CombinatorRow {
        row: Memory::fixed(RowKind::Combinator(CombinatorKind::User(c))),
        reads_c: c != Combinator::Seq,
    });
    let defined = (memory.combinators.iter())
        .filter(|d| memory.rows.get(d.row).is_some_and(|r| r.unit == Some(unit)))
        .map(|d| CombinatorRow {
            row: d.row,
            reads_c: d.reads_c,
        });
    let combinators: Vec<CombinatorRow> = stdlib.into_iter().chain(defined).collect();
    // The conditions every hole may use: those of the file's appliers.
    let written: Vec<DetectorId> = program
        .defs
        .iter()
        .filter_map(|def| match &def.body {
            Body::Applier(Applier::Combinator {
                detector: Some(condition),
                ..
            }) => detector_of(memory, &condition_code(condition)),
            _ => None,
        })
        .collect();
    program
        .holes()
        .filter_map(|(def, hole)| {
            let row = rows[def]?;
            let listed =
                (hole.conditions.iter()).filter_map(|c| detector_of(memory, &condition_code(c)));
            let mut detectors: Vec<DetectorId> = written.iter().copied().chain(listed).collect();
            let mut seen = Vec::new();
            detectors.retain(|d| {
                let new = !seen.contains(d);
                seen.push(*d);
                new
            });
            if detectors.is_empty() {
                detectors.push(BLIND);
            }
            let allowed = (0..program.defs.len())
                .filter(|&d| d != def && !reaches[d][def])
                .filter_map(|d| Some((rows[d]?, Some(d))));
            let nop = Memory::fixed(RowKind::Act(ActKind::NOP));
            let (arguments, argument_defs) = std::iter::once((nop, None)).chain(allowed).unzip();
            Some(HoleSpace {
                def,
                row,
                combinators: combinators.clone(),
                detectors,
                arguments,
                argument_defs,
            })
        })
        .collect()
}

/// Whether a fill keeps the appliers acyclic: with two holes, one may call
/// the other only if that one does not call back (through anything).
pub fn acyclic(program: &Program, spaces: &[HoleSpace], fill: &[Choice]) -> bool {
    let n = program.defs.len();
    let mut edges: Vec<Vec<DefId>> = (0..n).map(|d| callees(program, d)).collect();
    for (space, choice) in spaces.iter().zip(fill) {
        let called = choice
            .arguments
            .iter()
            .filter_map(|&a| space.argument_defs[a]);
        edges[space.def].extend(called);
    }
    !has_cycle(&edges)
}

/// The definitions `def` calls as callable arguments.
fn callees(program: &Program, def: DefId) -> Vec<DefId> {
    match program.defs.get(def).map(|d| &d.body) {
        Some(Body::Applier(Applier::Combinator { args, .. })) => args
            .iter()
            .filter_map(|a| match a {
                Callee::Def(id, _) => Some(*id),
                Callee::Act(_) => None,
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// `reaches[a][b]`: definition `a` calls `b`, directly or not.
pub(crate) fn reaching(program: &Program) -> Vec<Vec<bool>> {
    let n = program.defs.len();
    let mut reaches = vec![vec![false; n]; n];
    for (from, row) in reaches.iter_mut().enumerate() {
        let mut todo = callees(program, from);
        while let Some(d) = todo.pop() {
            if d < n && !row[d] {
                row[d] = true;
                todo.extend(callees(program, d));
            }
        }
    }
    reaches
}

fn has_cycle(edges: &[Vec<DefId>]) -> bool {
    // 0: unseen, 1: on the path, 2: done.
    fn visit(d: DefId, edges: &[Vec<DefId>], mark: &mut [u8]) -> bool {
        match mark[d] {
            1 => return true,
            2 => return false,
            _ => {}
        }
        mark[d] = 1;
        let cycle = edges[d]
            .iter()
            .any(|&e| e < mark.len() && visit(e, edges, mark));
        mark[d] = 2;
        cycle
    }
    let mut mark = vec![0u8; edges.len()];
    (0..edges.len()).any(|d| visit(d, edges, &mut mark))
}

/// The row of each definition of the unit (`None` for a normal program).
fn def_rows(program: &Program, memory: &Memory, unit: usize) -> Vec<Option<RowId>> {
    program
        .defs
        .iter()
        .map(|def| {
            memory.rows.iter().position(|r| {
                r.unit == Some(unit) && r.kind == RowKind::Applier && r.name == def.name
            })
        })
        .collect()
}

/// The detector of the condition with code `code`.
fn detector_of(memory: &Memory, code: &[u32]) -> Option<DetectorId> {
    memory
        .detectors
        .iter()
        .position(|d| match d.detector.condition() {
            Condition::Source(c) => condition_code(c) == code,
            _ => false,
        })
}
