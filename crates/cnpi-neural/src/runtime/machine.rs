//! The heap stack machine of Algorithm 1.
//!
//! `Run(i, i', F)`: an applier row is parsed and its combinator started
//! with a new frame (or its ACT applied); a combinator row (`self`,
//! `_mapself`) starts an activation with the same detector and frame; a
//! built-in row acts on the state stack; the NOP row does nothing. An
//! activation is one task on a heap stack: each core step computes
//! `c = [f_det(e) ≥ β]`, asks the core for `(slot, ret)`, and runs
//! `F[slot]`; an activation whose core said `ret` is popped before that
//! call, so a `linrec` loop runs in constant stack, as in the reference
//! interpreter. Steps, depths, the change counter behind "never
//! finishes" and every error follow the reference interpreter exactly.

use std::borrow::Cow;
use std::sync::OnceLock;

use crate::core::embedding::Extended;
use crate::core::{CoreState, Decision, index};
use crate::memory::{
    ActKind, Builtin, DetectorId, KeyIndex, Memory, Parsed, RowId, RowKind, STACK_TOP, Unit,
};
use crate::viewer::{Recorder, Step};
use cnpi::diagnostic::Diagnostic;
use cnpi::env::internal;
use cnpi::exec::{MAX_TASKS, Outcome, Store, never_finishes, step_bit, too_deep};
use cnpi::program::print::combinator_name;
use cnpi::program::{ActApp, Combinator, CombinatorKind, Slot};
use cnpi::span::Span;

/// The most condition bits an activation may see (the decision table's
/// depth is far below).
const MAX_BITS: usize = 16;

/// A frame: the rows bound to `self, a1, a2, a3`. The built-in slots are
/// bound to the fixed rows of [`Memory::builtin_slot`].
#[derive(Clone, Copy)]
struct Frame {
    slots: [u32; 4],
}

struct Activation {
    kind: CombinatorKind,
    /// The frame's detector (`_mapself` uses its own, and passes this on).
    detector: DetectorId,
    frame: Frame,
    /// The applier whose parse made the frame: names and spans.
    owner: RowId,
    /// The bits seen so far (bit `i` is the `i`-th), what the decision
    /// table reads, and how many (past [`MAX_BITS`], only counted).
    bits: u16,
    len: u8,
    /// The LSTM state, when the network runs rather than its table.
    network: Option<Box<CoreState>>,
    depth: u32,
    /// The change counter when the activation started.
    version: u64,
}

/// The cached fixed parser of a memory: the key tables indexed by their
/// bits, and the parse of every applier row a run has reached (the parse
/// depends only on the row), kept for every later run on any thread.
pub(super) struct Parses {
    index: KeyIndex,
    rows: Vec<OnceLock<Result<Parsed, String>>>,
}

impl Parses {
    pub(super) fn new(memory: &Memory) -> Parses {
        Parses {
            index: memory.key_index(),
            rows: (0..memory.rows.len()).map(|_| OnceLock::new()).collect(),
        }
    }

    fn get<'p>(&'p self, memory: &Memory, row: RowId) -> Result<&'p Parsed, String> {
        let parse = || memory.parse_indexed(row, &self.index);
        match self.rows.get(row) {
            Some(cell) => cell.get_or_init(parse).as_ref().map_err(Clone::clone),
            None => parse().and_then(|_| Err(format!("no row {row}"))),
        }
    }
}

pub(super) struct Machine<'m, 'o, 'r> {
    /// The core, with the memory's own combinators appended, verified.
    core: &'m Extended,
    memory: &'m Memory,
    unit: &'m Unit,
    /// In the cached mode: the parses of the applier rows, kept across runs.
    parses: Option<&'m Parses>,
    store: Store<'o>,
    tasks: Vec<Activation>,
    /// The combinators (by [`index`], below 32) the core was found to
    /// have: [`Extended::require`] asked once per combinator, not per start.
    required: u32,
    /// Where each step is recorded for the trace viewer, if anywhere.
    recorder: Option<&'r mut Recorder>,
}

impl<'m, 'o, 'r> Machine<'m, 'o, 'r> {
    /// A machine for program `unit` of `memory`; with `parses`, on the exact
    /// caches of the networks (else the plain networks).
    pub(super) fn new(
        core: &'m Extended,
        memory: &'m Memory,
        unit: &'m Unit,
        store: Store<'o>,
        parses: Option<&'m Parses>,
        recorder: Option<&'r mut Recorder>,
    ) -> Machine<'m, 'o, 'r> {
        Machine {
            core,
            memory,
            unit,
            parses,
            store,
            tasks: Vec::new(),
            required: 0,
            recorder,
        }
    }

    /// The finished run; the recorder, if any, sees the world it ends in.
    pub(super) fn finish(mut self, ended: Option<&Diagnostic>) -> Outcome {
        if let Some(recorder) = self.recorder.take() {
            recorder.finish(self.core, &self.store, ended);
        }
        self.store.finish()
    }

    /// Runs the applier `entry` to its end.
    pub(super) fn run(&mut self, entry: RowId) -> Result<(), Diagnostic> {
        self.call_applier(entry, 0)?;
        while let Some(activation) = self.tasks.pop() {
            self.step(activation)?;
        }
        Ok(())
    }

    fn name(&self, row: RowId) -> &'m str {
        row_name(self.memory, row)
    }

    fn kind_name(&self, kind: CombinatorKind) -> &'m str {
        kind_name(self.memory, kind)
    }

    fn span(&self, row: RowId) -> Span {
        row_span(self.memory, row)
    }

    /// Runs applier `row`: parse, then start its combinator with a new
    /// frame, or apply its ACT.
    fn call_applier(&mut self, row: RowId, depth: u32) -> Result<(), Diagnostic> {
        let parsed = self.parse(row)?;
        match &*parsed {
            Parsed::Combinator {
                kind,
                combinator,
                detector,
                args,
            } => {
                let frame = Frame {
                    slots: [*combinator, args[0], args[1], args[2]].map(|r| r as u32),
                };
                self.start(*kind, *detector, frame, row, depth)
            }
            Parsed::Act(app) => self.apply(app),
        }
    }

    /// The fixed parser on `row`: from the cache (filled on first use) in
    /// the cached mode, else by `argmax` over the keys. A row that does not
    /// parse is a damaged memory (files are checked when loaded, so this is
    /// a bug).
    fn parse(&self, row: RowId) -> Result<Cow<'m, Parsed>, Diagnostic> {
        let parsed = match self.parses {
            Some(parses) => parses.get(self.memory, row).map(Cow::Borrowed),
            None => self.memory.parse(row).map(Cow::Owned),
        };
        parsed.map_err(|why| {
            internal(format!(
                "applier `{}` does not parse: {why}",
                self.name(row)
            ))
        })
    }

    fn start(
        &mut self,
        kind: CombinatorKind,
        detector: DetectorId,
        frame: Frame,
        owner: RowId,
        depth: u32,
    ) -> Result<(), Diagnostic> {
        if self.tasks.len() >= MAX_TASKS {
            return Err(too_deep(MAX_TASKS, self.name(owner), self.span(owner)));
        }
        self.require(kind)?;
        let network = (self.parses.is_none()).then(|| Box::new(self.core.start(kind)));
        self.tasks.push(Activation {
            kind,
            detector,
            frame,
            owner,
            bits: 0,
            len: 0,
            network,
            depth,
            version: self.store.version(),
        });
        Ok(())
    }

    /// [`Extended::require`], remembered for the run.
    fn require(&mut self, kind: CombinatorKind) -> Result<(), Diagnostic> {
        let bit = 1u32.checked_shl(index(kind) as u32).unwrap_or(0);
        if self.required & bit == 0 {
            self.core.require(kind)?;
            self.required |= bit;
        }
        Ok(())
    }

    /// One core step of an activation.
    fn step(&mut self, mut a: Activation) -> Result<(), Diagnostic> {
        let detector = match a.kind {
            CombinatorKind::MapSelf => STACK_TOP,
            CombinatorKind::User(_) => a.detector,
        };
        let first = (a.len > 0).then_some(a.bits & 1 == 1);
        let c = self.detect(detector, first)?;
        let decision = self.decide(&mut a, c)?;
        let (memory, owner) = (self.memory, a.owner);
        (self.store).count_step_of(|| (row_name(memory, owner), row_span(memory, owner)))?;
        let target = match decision.slot {
            Slot::SelfSlot => a.frame.slots[0],
            Slot::A1 => a.frame.slots[1],
            Slot::A2 => a.frame.slots[2],
            Slot::A3 => a.frame.slots[3],
            builtin => Memory::builtin_slot(builtin).unwrap_or_default() as u32,
        } as RowId;
        if self.store.tracing() {
            self.trace_step(&a, c, decision, target);
        }
        if let Some(recorder) = self.recorder.as_deref_mut() {
            let step = Step {
                owner: a.owner,
                kind: a.kind,
                kind_name: kind_name(self.memory, a.kind),
                prefix: (usize::from(a.len) <= MAX_BITS).then_some((a.bits, a.len)),
                c,
                detector,
                slot: decision.slot,
                target,
                ret: decision.ret,
                depth: a.depth,
            };
            recorder.step(step, &self.store);
        }
        let kind = self.memory.rows.get(target).map(|r| r.kind);
        match kind {
            Some(RowKind::Combinator(kind)) => self.restart(a, kind, decision.ret),
            // `self` of a defined combinator is bound to its row.
            Some(RowKind::Defined) => {
                let k = (self.memory.combinators.iter().position(|d| d.row == target))
                    .ok_or_else(|| internal(format!("row {target} defines no combinator")))?;
                let kind = CombinatorKind::User(Combinator::Defined(k));
                self.restart(a, kind, decision.ret)
            }
            other => {
                let deeper = a.depth.saturating_add(1);
                let owner = a.owner;
                if !decision.ret {
                    self.tasks.push(a);
                }
                match other {
                    Some(RowKind::Applier) => self.call_applier(target, deeper),
                    Some(RowKind::Builtin(builtin)) => self.builtin(builtin, owner),
                    Some(RowKind::Act(ActKind::NOP)) => Ok(()),
                    _ => Err(internal(format!(
                        "frame slot `{:?}` of `{}` is bound to row {target}, which cannot be run",
                        decision.slot,
                        self.name(owner)
                    ))),
                }
            }
        }
    }

    /// `c` from detector `id`: the classifier's bit (or its table's); at a
    /// step after the activation's first (`first`, its bit), see
    /// [`step_bit`].
    fn detect(&self, id: DetectorId, first: Option<bool>) -> Result<bool, Diagnostic> {
        let row = self
            .memory
            .detectors
            .get(id)
            .ok_or_else(|| internal(format!("the memory has no detector {id}")))?;
        let detected = row.detector.detect(
            &self.store.view(),
            self.store.top_is_state(),
            self.parses.is_some(),
        );
        step_bit(first, detected)
    }

    /// The core's decision after bit `c`.
    fn decide(&self, a: &mut Activation, c: bool) -> Result<Decision, Diagnostic> {
        let n = usize::from(a.len);
        if n < MAX_BITS {
            a.bits |= u16::from(c) << n;
        }
        a.len = a.len.saturating_add(1);
        let decision = match &mut a.network {
            Some(state) => Some(self.core.step(state, c)),
            None if n < MAX_BITS => {
                (self.core.table()).decision_coded(index(a.kind), usize::from(a.bits), n + 1)
            }
            None => None,
        };
        decision.ok_or_else(|| {
            internal(format!(
                "the core made no decision for `{}` after {} steps",
                self.kind_name(a.kind),
                MAX_BITS
            ))
        })
    }

    /// `self` or `_mapself`: a new activation of `kind` with the same
    /// detector and frame.
    fn restart(
        &mut self,
        a: Activation,
        kind: CombinatorKind,
        tail: bool,
    ) -> Result<(), Diagnostic> {
        if kind == a.kind && self.store.version() == a.version {
            let what = format!("its `{}`", self.kind_name(kind));
            let (name, span) = (self.name(a.owner), self.span(a.owner));
            return Err(never_finishes(name, &what, span));
        }
        // A loop (a tail call of the same kind) stays at its depth.
        let depth = if tail && kind == a.kind {
            a.depth
        } else {
            a.depth.saturating_add(1)
        };
        let (detector, frame, owner) = (a.detector, a.frame, a.owner);
        if !tail {
            self.tasks.push(a);
        }
        self.start(kind, detector, frame, owner, depth)
    }

    fn apply(&mut self, app: &ActApp) -> Result<(), Diagnostic> {
        self.store.apply(app, &self.unit.pointers)
    }

    fn builtin(&mut self, builtin: Builtin, owner: RowId) -> Result<(), Diagnostic> {
        match builtin {
            Builtin::PushSentinel => self.store.push_sentinel(self.span(owner)),
            Builtin::Pop => self.store.pop(),
            Builtin::LoadState => {
                let targets = self.unit.state.as_deref().unwrap_or_default();
                self.store.load_state(targets)
            }
        }
    }

    /// `BSTEP linrec c=1 → a1 COMPSWAP r=0`, indented by depth.
    fn trace_step(&mut self, a: &Activation, c: bool, decision: Decision, target: RowId) {
        let owner = self.name(a.owner);
        let bound = match decision.slot {
            Slot::SelfSlot => format!("self {owner}"),
            Slot::A1 => format!("a1 {}", self.name(target)),
            Slot::A2 => format!("a2 {}", self.name(target)),
            Slot::A3 => format!("a3 {}", self.name(target)),
            _ => self.name(target).to_string(),
        };
        let line = format!(
            "{owner} {} c={} → {bound} r={}",
            self.kind_name(a.kind),
            u8::from(c),
            u8::from(decision.ret)
        );
        self.store.trace(a.depth, &line);
    }
}

/// The name of `row` of `memory` (`?` for none).
fn row_name(memory: &Memory, row: RowId) -> &str {
    memory.rows.get(row).map_or("?", |r| r.name.as_str())
}

/// Where `row` of `memory` is written.
fn row_span(memory: &Memory, row: RowId) -> Span {
    memory.rows.get(row).map_or(Span::default(), |r| r.span)
}

/// A combinator's name: a stdlib one's, or its row's for one a program of
/// `memory` defines.
fn kind_name(memory: &Memory, kind: CombinatorKind) -> &str {
    match kind {
        CombinatorKind::User(Combinator::Defined(k)) => {
            let row = memory
                .combinators
                .get(k)
                .and_then(|d| memory.rows.get(d.row));
            row.map_or("?", |row| row.name.as_str())
        }
        other => combinator_name(other),
    }
}
