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

use crate::core::embedding::Extended;
use crate::core::{CoreStates, Decision, kind_at};
use crate::detector::FastDetector;
use crate::memory::{Builtin, DetectorId, Memory, RowId, STACK_TOP, Unit};
use crate::viewer::{Recorder, Step};
use cnpi::diagnostic::Diagnostic;
use cnpi::env::internal;
use cnpi::exec::{Outcome, Store, never_finishes, step_bit, too_deep};
use cnpi::program::print::combinator_name;
use cnpi::program::{Combinator, CombinatorKind, Slot};
use cnpi::span::Span;

use super::compiled::{Compiled, Parse};
use super::row::{Act, Op, Probe, bound};
use super::script::{MAPSELF, MAX_BITS};

mod jit;
mod scripted;

pub(super) use jit::Jit;
pub use jit::JitMode;

/// A frame: the rows bound to `self, a1, a2, a3`. The built-in slots are
/// bound to the fixed rows of [`Memory::builtin_slot`].
type Frame = [u32; 4];

/// One activation on the heap stack, kept small: it is moved at every step.
#[derive(Clone, Copy)]
struct Activation {
    /// The combinator's row in the decision table ([`crate::core::index`]).
    combinator: u32,
    /// The frame's detector (`_mapself` uses its own, and passes this on).
    detector: u32,
    frame: Frame,
    /// The applier whose parse made the frame: names and spans.
    owner: u32,
    depth: u32,
    /// The bits seen so far (bit `i` is the `i`-th), what the decision
    /// table reads, and how many (past [`MAX_BITS`], only counted).
    bits: u16,
    len: u8,
    /// The change counter when the activation started.
    version: u64,
}

pub(super) struct Machine<'m, 'o, 'r> {
    /// The core, with the memory's own combinators appended, verified.
    core: &'m Extended,
    memory: &'m Memory,
    unit: &'m Unit,
    /// The memory compiled: what each row does.
    plan: &'m Compiled,
    /// The automaton's machine code, once made.
    jit: &'m Jit,
    /// On the exact caches of the networks (else the plain networks).
    cached: bool,
    /// On the caches, with no trace and no recorder: nobody sees the
    /// condition bits of an activation's later steps, so where its first
    /// bit decides them all ([`Compiled::settled`]) they are not computed.
    quiet: bool,
    store: Store<'o>,
    tasks: Vec<Activation>,
    /// Without the caches, the LSTM state of each activation (in step with
    /// `tasks`).
    networks: CoreStates,
    /// The combinators (by their table row, below 32) the core was found to
    /// have: [`Extended::require`] asked once per combinator, not per start.
    required: u32,
    /// Where each step is recorded for the trace viewer, if anywhere.
    recorder: Option<&'r mut Recorder>,
    /// How many edges of the automaton the interpreter has run, and how
    /// often each (where the generated code is to be made from the
    /// edges run most).
    edges_run: u32,
    counts: Vec<u32>,
    /// How often this run entered the generated code, and the steps it
    /// took there (where it takes too few an entry, the run stops
    /// entering it for a while: [`jit::worth`]), and `edges_run` when it
    /// stopped last.
    code_entries: u32,
    code_steps: u64,
    code_off: u32,
}

impl<'m, 'o, 'r> Machine<'m, 'o, 'r> {
    /// A machine for program `unit` of `memory` compiled in `plan` (its
    /// automaton's machine code in `jit`); with `cached`, on the exact
    /// caches of the networks (else the plain networks).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn new(
        core: &'m Extended,
        memory: &'m Memory,
        unit: &'m Unit,
        plan: &'m Compiled,
        jit: &'m Jit,
        cached: bool,
        store: Store<'o>,
        recorder: Option<&'r mut Recorder>,
    ) -> Machine<'m, 'o, 'r> {
        Machine {
            core,
            memory,
            unit,
            plan,
            jit,
            cached,
            quiet: cached && !store.tracing() && recorder.is_none(),
            store,
            tasks: Vec::new(),
            networks: core.network().states(),
            required: 0,
            recorder,
            edges_run: 0,
            counts: Vec::new(),
            code_entries: 0,
            code_steps: 0,
            code_off: 0,
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
        if self.quiet
            && let Some((scripts, automaton)) = self.plan.scripts()
            && let Some(first) = scripts.of_row(entry)
        {
            return self.run_scripted(scripts, automaton, first);
        }
        self.call_applier(entry, 0)?;
        while !self.tasks.is_empty() {
            self.step()?;
        }
        Ok(())
    }

    fn name(&self, row: u32) -> &'m str {
        row_name(self.memory, row as RowId)
    }

    fn kind_name(&self, combinator: u32) -> &'m str {
        kind_name(self.memory, kind_at(combinator as usize))
    }

    fn span(&self, row: u32) -> Span {
        row_span(self.memory, row as RowId)
    }

    /// Runs applier `row`: parse, then start its combinator with a new
    /// frame, or apply its ACT.
    fn call_applier(&mut self, row: RowId, depth: u32) -> Result<(), Diagnostic> {
        self.run_applier(row, self.plan.op(row), depth)
    }

    /// [`Self::call_applier`] for the op of `row`, already read.
    #[inline(always)]
    fn run_applier(&mut self, row: RowId, op: &'m Op, depth: u32) -> Result<(), Diagnostic> {
        match op {
            &Op::Start {
                combinator,
                detector,
                frame,
            } => self.start(combinator, detector, frame, row as u32, depth),
            Op::Act(app) => self.apply(app),
            _ => self.parse_applier(row, op, depth),
        }
    }

    /// [`Self::run_applier`] for an applier not parsed in the plan, kept
    /// out of the cached path.
    #[inline(never)]
    fn parse_applier(&mut self, row: RowId, op: &'m Op, depth: u32) -> Result<(), Diagnostic> {
        let plan = self.plan;
        match op {
            Op::Unparsed(why) => Err(self.unparsed(row, why)),
            // The plain parser, by `argmax` over the keys (a row of another
            // kind fails to parse, saying so).
            _ => match plan.parse(self.memory, row) {
                Parse::Kept(act) => self.apply(act),
                Parse::Made(Op::Start {
                    combinator,
                    detector,
                    frame,
                }) => self.start(combinator, detector, frame, row as u32, depth),
                Parse::Made(Op::Act(app)) => self.apply(&app),
                Parse::Made(Op::Unparsed(why)) => Err(self.unparsed(row, &why)),
                Parse::Made(_) => Err(internal(format!("row {row} parses to no applier"))),
            },
        }
    }

    /// An applier that does not parse: a damaged memory (files are checked
    /// when loaded, so this is a bug).
    fn unparsed(&self, row: RowId, why: &str) -> Diagnostic {
        internal(format!(
            "applier `{}` does not parse: {why}",
            self.name(row as u32)
        ))
    }

    #[inline(always)]
    fn start(
        &mut self,
        combinator: u32,
        detector: u32,
        frame: Frame,
        owner: u32,
        depth: u32,
    ) -> Result<(), Diagnostic> {
        if self.tasks.len() >= self.store.limits().max_depth {
            return Err(self.too_deep(owner));
        }
        self.require(combinator)?;
        if !self.cached {
            self.start_network(combinator, owner)?;
        }
        if self.tasks.len() == self.tasks.capacity() {
            let span = self.span(owner);
            self.store.make_room(&mut self.tasks, 1, span)?;
        }
        self.tasks.push(Activation {
            combinator,
            detector,
            frame,
            owner,
            depth,
            bits: 0,
            len: 0,
            version: self.store.version(),
        });
        Ok(())
    }

    /// The LSTM state of a new activation of `combinator` (without the
    /// caches), within the memory limit, kept out of [`Self::start`]'s
    /// cached path.
    #[inline(never)]
    fn start_network(&mut self, combinator: u32, owner: u32) -> Result<(), Diagnostic> {
        let span = self.span(owner);
        let (values, width) = self.networks.storage();
        self.store.make_room(values, width, span)?;
        (self.core).push(kind_at(combinator as usize), &mut self.networks);
        Ok(())
    }

    /// E0704 for a start by `owner` on a full stack.
    #[cold]
    fn too_deep(&self, owner: u32) -> Diagnostic {
        too_deep(
            self.store.limits().max_depth,
            self.name(owner),
            self.span(owner),
        )
    }

    /// [`Extended::require`], remembered for the run.
    #[inline]
    fn require(&mut self, combinator: u32) -> Result<(), Diagnostic> {
        let bit = 1u32.checked_shl(combinator).unwrap_or(0);
        if self.required & bit == 0 {
            self.require_first(combinator, bit)?;
        }
        Ok(())
    }

    /// [`Self::require`] the first time.
    #[cold]
    fn require_first(&mut self, combinator: u32, bit: u32) -> Result<(), Diagnostic> {
        self.core.require(kind_at(combinator as usize))?;
        self.required |= bit;
        Ok(())
    }

    /// One core step of the activation on top of the stack, which stays
    /// there (and is stepped again) unless the core says it returns.
    fn step(&mut self) -> Result<(), Diagnostic> {
        let Some(a) = self.tasks.last() else {
            return Ok(());
        };
        let combinator = a.combinator;
        let detector = if combinator == MAPSELF {
            STACK_TOP
        } else {
            a.detector as DetectorId
        };
        let first = (a.len > 0).then_some(a.bits & 1 == 1);
        let c = match first {
            // A later bit unseen, which changes no decision (and whose
            // detection never fails, see `step_bit`): the first.
            Some(bit) if self.quiet && self.plan.settled(combinator) => bit,
            _ => self.detect(detector, first)?,
        };
        let core = self.core;
        let Some(a) = self.tasks.last_mut() else {
            return Ok(());
        };
        let networks = (!self.cached).then_some(&mut self.networks);
        let decision = decide(core, a, networks, c);
        let (owner, depth, frame, bits, len) = (a.owner, a.depth, a.frame, a.bits, a.len);
        let decision = decision.ok_or_else(|| self.no_decision(combinator))?;
        let memory = self.memory;
        let at = owner as RowId;
        (self.store).count_step_of(|| (row_name(memory, at), row_span(memory, at)))?;
        let target = bound(frame, decision.slot) as RowId;
        if self.store.tracing() {
            self.trace_step(owner, combinator, depth, c, decision, target);
        }
        if let Some(recorder) = self.recorder.as_deref_mut() {
            let kind = kind_at(combinator as usize);
            let step = Step {
                owner: at,
                kind,
                kind_name: kind_name(self.memory, kind),
                prefix: (usize::from(len) <= MAX_BITS).then_some((bits, len)),
                c,
                detector,
                slot: decision.slot,
                target,
                ret: decision.ret,
                depth,
            };
            recorder.step(step, &self.store)?;
        }
        let plan = self.plan;
        let op = plan.op(target);
        if let &Op::Restart(next) = op {
            return self.restart(next, decision.ret);
        }
        if decision.ret {
            self.pop();
        }
        match op {
            Op::Start { .. } | Op::Act(_) | Op::Parse | Op::Unparsed(_) => {
                self.run_applier(target, op, depth.saturating_add(1))
            }
            Op::Builtin(builtin) => self.builtin(*builtin, owner),
            Op::Nop => Ok(()),
            Op::Restart(_) | Op::Invalid => Err(self.unrunnable(decision.slot, owner, target)),
        }
    }

    /// The internal error of an activation of `combinator` past the
    /// decision table.
    #[cold]
    fn no_decision(&self, combinator: u32) -> Diagnostic {
        internal(format!(
            "the core made no decision for `{}` after {} steps",
            self.kind_name(combinator),
            MAX_BITS
        ))
    }

    /// The internal error of `slot` of `owner`'s frame bound to `target`,
    /// which no slot can run.
    #[cold]
    fn unrunnable(&self, slot: Slot, owner: u32, target: RowId) -> Diagnostic {
        internal(format!(
            "frame slot `{slot:?}` of `{}` is bound to row {target}, which cannot be run",
            self.name(owner)
        ))
    }

    /// E0701 for a loop of `combinator` started by `owner` that changed
    /// nothing in a round.
    #[cold]
    fn loops(&self, combinator: u32, owner: u32) -> Diagnostic {
        let what = format!("its `{}`", self.kind_name(combinator));
        never_finishes(self.name(owner), &what, self.span(owner))
    }

    /// Pops the activation on top of the stack (and its LSTM state).
    #[inline]
    fn pop(&mut self) {
        self.tasks.pop();
        if !self.cached {
            self.networks.pop();
        }
    }

    /// `c` from detector `id`: the classifier's bit (or its table's); at a
    /// step after the activation's first (`first`, its bit), see
    /// [`step_bit`].
    #[inline]
    fn detect(&self, id: DetectorId, first: Option<bool>) -> Result<bool, Diagnostic> {
        if self.cached {
            match self.plan.probe(id) {
                &Probe::Constant(bit) => return Ok(bit),
                Probe::StackTop(bits) => return Ok(bits[usize::from(self.store.top_is_state())]),
                Probe::Fast(fast) => {
                    if let Some(bit) = self.fast_bit(fast) {
                        return Ok(bit);
                    }
                }
                Probe::Encode => {}
            }
        }
        self.encode(id, first)
    }

    /// The bit of compiled detector `fast` on the store (`None` where a
    /// feature fails: then the encoder says), `_resume` given where the
    /// detector reads it.
    #[inline(always)]
    fn fast_bit(&self, fast: &FastDetector) -> Option<bool> {
        let cells = self.store.cells();
        fast.bit(match fast.reads_resume() {
            true => cells.with_resume(self.store.frames().resume()),
            false => cells,
        })
    }

    /// [`Self::detect`] through the detector's encoder (and its classifier
    /// without the caches).
    #[inline(never)]
    fn encode(&self, id: DetectorId, first: Option<bool>) -> Result<bool, Diagnostic> {
        let row = self
            .memory
            .detectors
            .get(id)
            .ok_or_else(|| internal(format!("the memory has no detector {id}")))?;
        let detected =
            (row.detector).detect(&self.store.view(), self.store.top_is_state(), self.cached);
        step_bit(first, detected)
    }

    /// `self` or `_mapself` from the activation on top of the stack: a new
    /// activation of `combinator` with the same detector and frame, after
    /// it (`tail`) or above it.
    fn restart(&mut self, combinator: u32, tail: bool) -> Result<(), Diagnostic> {
        let Some(a) = self.tasks.last() else {
            return Ok(());
        };
        let (detector, frame, owner) = (a.detector, a.frame, a.owner);
        if combinator == a.combinator && self.store.version() == a.version {
            return Err(self.loops(combinator, owner));
        }
        // A loop (a tail call of the same kind) stays at its depth.
        let depth = if tail && combinator == a.combinator {
            a.depth
        } else {
            a.depth.saturating_add(1)
        };
        if tail {
            self.pop();
        }
        self.start(combinator, detector, frame, owner, depth)
    }

    fn apply(&mut self, act: &Act) -> Result<(), Diagnostic> {
        if let Some((p, q, k)) = act.affine
            && self.set_affine(p, q, k)
        {
            return Ok(());
        }
        if let Some((p, value)) = &act.set {
            // A `SET` reads `_resume` as 0, as the environment applies it.
            let store = &self.store;
            if let Ok(value) = value.eval(&store.state().view(store.pointers()))
                && self.store.set_pointer(*p, value)
            {
                return Ok(());
            }
        }
        if let Some(compiled) = &act.compiled
            && self.store.apply_compiled(compiled)
        {
            return Ok(());
        }
        self.store.apply(&act.app, &self.unit.declared.registers)
    }

    /// `SET(p, P[q] + k)` (`SET(p, k)` without `q`) from the pointers:
    /// false, changing nothing, where that cannot give the result (an
    /// overflow, a pointer missing), so the ACT as written must be applied.
    #[inline(always)]
    fn set_affine(&mut self, p: usize, q: Option<usize>, k: i64) -> bool {
        let base = match q {
            Some(q) => self.store.pointers().get(q).copied(),
            None => Some(0),
        };
        base.and_then(|base| base.checked_add(k))
            .is_some_and(|value| self.store.set_pointer(p, value))
    }

    fn builtin(&mut self, builtin: Builtin, owner: u32) -> Result<(), Diagnostic> {
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
    fn trace_step(
        &mut self,
        owner: u32,
        combinator: u32,
        depth: u32,
        c: bool,
        decision: Decision,
        target: RowId,
    ) {
        let owner = self.name(owner);
        let target = self.name(target as u32);
        let bound = match decision.slot {
            Slot::SelfSlot => format!("self {owner}"),
            Slot::A1 => format!("a1 {target}"),
            Slot::A2 => format!("a2 {target}"),
            Slot::A3 => format!("a3 {target}"),
            _ => target.to_string(),
        };
        let line = format!(
            "{owner} {} c={} → {bound} r={}",
            self.kind_name(combinator),
            u8::from(c),
            u8::from(decision.ret)
        );
        self.store.trace(depth, &line);
    }
}

/// The core's decision for activation `a` after bit `c`, which joins its
/// bits: from the LSTM when `a` runs it (`networks`, its state on top), else from
/// `core`'s decision table.
#[inline]
fn decide(
    core: &Extended,
    a: &mut Activation,
    networks: Option<&mut CoreStates>,
    c: bool,
) -> Option<Decision> {
    let n = usize::from(a.len);
    if n < MAX_BITS {
        a.bits |= u16::from(c) << n;
    }
    a.len = a.len.saturating_add(1);
    match networks {
        Some(states) => core.step_top(states, c),
        None if n < MAX_BITS => {
            let row = core.table().row(a.combinator as usize);
            row.get((2 << n) - 2 + usize::from(a.bits)).copied()
        }
        None => None,
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
