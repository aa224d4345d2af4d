//! The compiled form of a memory the machine runs: one [`Op`] per row.
//!
//! What running a row does depends only on the row: its kind (a combinator,
//! a built-in, NOP, an applier) and, for an applier, its parse. A [`Compiled`]
//! holds both in a flat array indexed by the row, made once per program put
//! on the network, so a core step reads one small entry instead of the
//! memory's rows, names and spans. With the exact caches, every applier's
//! parse is the fixed parser's, computed once from the key tables indexed
//! by their bits (Lemma 1: the row `argmax` picks); without them, an
//! applier is parsed by `argmax` over the keys every time it runs. The
//! detectors that read no environment (the blind one, `_mapself`'s) are
//! read from their verified tables directly.

use super::automaton::Automaton;
use super::row::{Act, Op, Probe};
use super::script::Scripts;
use crate::core::{DecisionTable, index};
use crate::detector::{Condition, Detector};
use crate::memory::{ActKind, DetectorId, KeySearch, Memory, Parsed, Readout, RowId, RowKind};
use cnpi::program::{Combinator, CombinatorKind};

/// What [`Compiled::parse`] gives: an ACT the plan holds, or a new op.
pub(super) enum Parse<'p> {
    Kept(&'p Act),
    Made(Op),
}

/// A memory compiled for the machine.
pub(super) struct Compiled {
    ops: Vec<Op>,
    /// Without the exact caches, the key tables laid out for the plain
    /// parser's `argmax`.
    search: Option<KeySearch>,
    /// Without the exact caches, per row, the ACT its parse gave when the
    /// plan was made, compiled, and its arguments' readout: a parse at run
    /// time (which runs every time) that reads the same applies this one
    /// rather than compiling it again.
    acts: Vec<Option<(Act, Readout)>>,
    /// With the exact caches, per detector (else none).
    probes: Vec<Probe>,
    /// Per decision-table row: whether the combinator's decisions depend
    /// on its first bit alone ([`DecisionTable::first_bit_decides`]).
    settled: Vec<bool>,
    /// With the exact caches, every activation's steps, if each has a
    /// script, and their runs between two bits flattened.
    scripts: Option<(Scripts, Automaton)>,
}

impl Compiled {
    /// The plan of `memory` on a core deciding as `table` says; with
    /// `cached`, every applier parsed now.
    pub(super) fn new(memory: &Memory, cached: bool, table: &DecisionTable) -> Compiled {
        let keys = cached.then(|| memory.key_index());
        let ops: Vec<Op> = (memory.rows.iter().enumerate())
            .map(|(row, info)| match info.kind {
                RowKind::Applier => match &keys {
                    Some(keys) => parsed(memory.parse_indexed(row, keys)),
                    None => Op::Parse,
                },
                RowKind::Combinator(kind) => Op::Restart(index(kind) as u32),
                // `self` of a defined combinator is bound to its row.
                RowKind::Defined => (memory.combinators.iter().position(|d| d.row == row))
                    .map_or(Op::Invalid, |k| {
                        Op::Restart(index(CombinatorKind::User(Combinator::Defined(k))) as u32)
                    }),
                RowKind::Builtin(builtin) => Op::Builtin(builtin),
                RowKind::Act(ActKind::NOP) => Op::Nop,
                RowKind::Act(_) => Op::Invalid,
            })
            .collect();
        let probes = match cached {
            true => (memory.detectors.iter())
                .map(|row| probe(&row.detector))
                .collect(),
            false => Vec::new(),
        };
        let search = (!cached).then(|| memory.key_search());
        let acts = match &search {
            Some(search) => (0..memory.rows.len())
                .map(|row| {
                    let (app, readout) = memory.act_readout(row, search)?;
                    Some((Act::new(app), readout))
                })
                .collect(),
            None => Vec::new(),
        };
        let combinators = crate::core::COMBINATORS.len() + memory.combinators.len();
        let settled: Vec<bool> = (0..combinators)
            .map(|k| table.first_bit_decides(k))
            .collect();
        let scripts = cached
            .then(|| Scripts::new(&ops, &probes, table, &settled))
            .flatten()
            .map(|scripts| {
                let automaton = Automaton::new(&scripts, &ops);
                (scripts, automaton)
            });
        Compiled {
            ops,
            search,
            acts,
            probes,
            settled,
            scripts,
        }
    }

    /// Whether the decisions of the combinator at decision-table row
    /// `combinator` depend on its first bit alone, so that a later step's
    /// bit need not be computed where nobody sees it.
    #[inline]
    pub(super) fn settled(&self, combinator: u32) -> bool {
        (self.settled.get(combinator as usize)).is_some_and(|&settled| settled)
    }

    /// The plain parser's parse of applier `row` (by `argmax` over the
    /// keys): the ACT compiled when the plan was made if the parse gives
    /// that ACT (checked as the arguments are read, without building
    /// them: [`Memory::parses_to`]), else the op of the parse.
    pub(super) fn parse(&self, memory: &Memory, row: RowId) -> Parse<'_> {
        if let Some(search) = &self.search
            && let Some(Some((act, readout))) = self.acts.get(row)
            && memory.parses_to(row, search, readout)
        {
            return Parse::Kept(act);
        }
        let parse = match &self.search {
            Some(search) => memory.parse_indexed(row, search),
            None => memory.parse(row),
        };
        Parse::Made(parsed(parse))
    }

    /// With the exact caches, the scripts of every activation, if each has
    /// one, and their automaton.
    pub(super) fn scripts(&self) -> Option<(&Scripts, &Automaton)> {
        (self.scripts.as_ref()).map(|(scripts, automaton)| (scripts, automaton))
    }

    /// How to read detector `id` from its table (in the cached mode).
    #[inline]
    pub(super) fn probe(&self, id: DetectorId) -> &Probe {
        self.probes.get(id).unwrap_or(&Probe::Encode)
    }

    /// What running `row` does.
    #[inline]
    pub(super) fn op(&self, row: RowId) -> &Op {
        self.ops.get(row).unwrap_or(&Op::Invalid)
    }
}

/// The probe of `detector`: the points its encoder gives without reading
/// the environment, read from its table once.
fn probe(detector: &Detector) -> Probe {
    let bit = |point: usize| detector.table().get(point).copied().unwrap_or(false);
    match detector.condition() {
        Condition::Blind if detector.domain() == 1 => Probe::Constant(bit(0)),
        Condition::StackTop if detector.domain() == 2 => Probe::StackTop([bit(0), bit(1)]),
        _ => match detector.fast() {
            Some(fast) => Probe::Fast(Box::new(fast)),
            None => Probe::Encode,
        },
    }
}

/// The op of an applier from its parse.
fn parsed(parse: Result<Parsed, String>) -> Op {
    match parse {
        Ok(Parsed::Combinator {
            kind,
            combinator,
            detector,
            args,
        }) => Op::Start {
            combinator: index(kind) as u32,
            detector: detector as u32,
            frame: [combinator, args[0], args[1], args[2]].map(|r| r as u32),
        },
        Ok(Parsed::Act(app)) => Op::Act(Box::new(Act::new(app))),
        Err(why) => Op::Unparsed(why),
    }
}
