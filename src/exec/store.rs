//! The store of a running program: everything an engine changes.
//!
//! A [`Store`] holds the environment's state, the pointer values, the
//! `treerec` state stack, the frame stack, the step counter with its budget, the change
//! counter (the `version` behind "never finishes": every change to the
//! pointers, the environment or the state stack increments it), the
//! trace writer and the run's [`Limits`], with the bytes the engine's own
//! growing stores hold, so that one memory limit covers them all. Engines decide *what* runs; the store carries it out the
//! same way for both, so their steps, errors and final states can be
//! compared exactly.

use super::limits::{self, POLL_EVERY};
use super::{FrameStack, Limits, Options, Outcome, StateStack, Trace, errors};
use crate::diagnostic::Diagnostic;
use crate::env::{Cells, CompiledAct, RawRegion, State, View, eval_error, internal};
use crate::program::{Act, ActApp, BoolExpr, EnvKind, FrameAct, Pointer, PosExpr};
use crate::span::Span;

pub struct Store<'o> {
    state: State,
    pointers: Vec<i64>,
    states: StateStack,
    frames: FrameStack,
    /// The `state(...)` pointers, which `_call` sets.
    state_pointers: Option<Vec<usize>>,
    /// A frame ACT's values as [`Self::frame`] evaluates them, kept so
    /// that a frame ACT does not allocate.
    frame_values: Vec<i64>,
    steps: u64,
    max_steps: u64,
    version: u64,
    trace: Option<Trace<'o>>,
    /// The depth of the last trace line, for the line of a return.
    traced_depth: u32,
    limits: Limits<'o>,
    /// The bytes the engine's growing stores hold ([`Self::make_room`]).
    engine: usize,
    /// ACTs applied, to ask [`Limits::interrupt`] every [`POLL_EVERY`].
    acts: u64,
    /// The interrupt was seen where it could not be reported yet.
    stopped: bool,
}

/// The pointers' initial values on `state`, each `init` evaluated in
/// declaration order (an init may read the pointers declared before it).
pub fn initial_pointers(pointers: &[Pointer], state: &State) -> Result<Vec<i64>, Diagnostic> {
    let mut values = Vec::with_capacity(pointers.len());
    for pointer in pointers {
        let value = pointer
            .init
            .eval(&state.view(&values))
            .map_err(eval_error)?;
        values.push(value);
    }
    Ok(values)
}

impl<'o> Store<'o> {
    /// The store at the start of a run of a program in the environment
    /// `env`: the pointers `declared` at their initial positions on `state`,
    /// which must have been read for `env`.
    pub fn new(
        env: EnvKind,
        declared: &[Pointer],
        state: State,
        options: Options<'o>,
    ) -> Result<Self, Diagnostic> {
        if state.kind() != env {
            return Err(internal(format!(
                "the input was read for the {} environment, but the program runs in {}",
                state.kind().name(),
                env.name()
            )));
        }
        let pointers = initial_pointers(declared, &state)?;
        Ok(Store {
            state,
            pointers,
            states: StateStack::default(),
            frames: FrameStack::default(),
            state_pointers: None,
            frame_values: Vec::new(),
            steps: 0,
            max_steps: options.max_steps,
            version: 0,
            trace: options.trace,
            traced_depth: 0,
            limits: options.limits,
            engine: 0,
            acts: 0,
            stopped: false,
        })
    }

    /// The store of a program whose `state(...)` names the pointers
    /// `state`, which `_call` sets.
    pub fn with_state(mut self, state: Option<&[usize]>) -> Self {
        self.state_pointers = state.map(<[usize]>::to_vec);
        self
    }

    /// The finished run.
    pub fn finish(mut self) -> Outcome {
        self.state.finish(&self.pointers);
        Outcome {
            state: self.state,
            steps: self.steps,
        }
    }

    /// The environment and the pointers, as conditions see them.
    #[inline]
    pub fn view(&self) -> View<'_> {
        (self.state.view(&self.pointers)).with_resume(self.frames.resume())
    }

    /// The cells and pointers as a compiled detector reads them.
    #[inline]
    pub fn cells(&self) -> Cells<'_> {
        self.state.cells(&self.pointers)
    }

    /// Evaluates a condition on the current environment.
    pub fn eval(&self, condition: &BoolExpr) -> Result<bool, Diagnostic> {
        condition.eval(&self.view()).map_err(eval_error)
    }

    /// The environment's state as it is now.
    pub fn state(&self) -> &State {
        &self.state
    }

    pub fn pointers(&self) -> &[i64] {
        &self.pointers
    }

    /// The `treerec` state stack.
    pub fn states(&self) -> &StateStack {
        &self.states
    }

    /// The frame stack.
    pub fn frames(&self) -> &FrameStack {
        &self.frames
    }

    /// The pointers, for an engine that sets them itself (a state call of a
    /// normal program); the caller records the change with [`Self::changed`].
    pub fn pointers_mut(&mut self) -> &mut [i64] {
        &mut self.pointers
    }

    /// The change counter: equal at two moments exactly when nothing
    /// changed in between.
    #[inline]
    pub fn version(&self) -> u64 {
        self.version
    }

    /// Sets pointer `p` to `value`, as `SET(p, value)` does (a change only
    /// if it differs); false, changing nothing, for a pointer it lacks.
    #[inline]
    pub fn set_pointer(&mut self, p: usize, value: i64) -> bool {
        let Some(at) = self.pointers.get_mut(p) else {
            return false;
        };
        if std::mem::replace(at, value) != value {
            self.version += 1;
        }
        true
    }

    /// Region `data` for code generated from a program, which reads it
    /// and writes an array's cells as [`Self::apply_compiled`] writes them
    /// (the counter moved on exactly where a value differs).
    pub fn raw_region(&mut self, data: u32) -> RawRegion {
        self.state.raw_region(data)
    }

    /// The pointers and the change counter, for code generated from a
    /// program that sets a pointer as [`Self::set_pointer`] does (the
    /// counter moved on exactly where the value differs).
    pub fn pointers_and_version(&mut self) -> (&mut [i64], &mut u64) {
        (&mut self.pointers, &mut self.version)
    }

    /// Records a change the engine made itself.
    pub fn changed(&mut self) {
        self.version += 1;
    }

    /// Counts one step of the definition `name` (declared at `at`); E0701
    /// once the budget is spent.
    #[inline]
    pub fn count_step(&mut self, name: &str, at: Span) -> Result<(), Diagnostic> {
        self.count_step_of(|| (name, at))
    }

    /// [`Self::count_step`] for a definition named (and placed) by `who`,
    /// asked only for the error.
    #[inline]
    pub fn count_step_of<'n>(
        &mut self,
        who: impl FnOnce() -> (&'n str, Span),
    ) -> Result<(), Diagnostic> {
        self.steps += 1;
        if self.steps > self.max_steps {
            let (name, at) = who();
            return Err(self.out_of_steps(name, at));
        }
        if self.steps.is_multiple_of(POLL_EVERY) {
            return self.poll();
        }
        Ok(())
    }

    /// E0709 once the run was asked to stop.
    #[cold]
    pub fn poll(&self) -> Result<(), Diagnostic> {
        if self.stopped || self.limits.interrupted() {
            return Err(errors::interrupted());
        }
        Ok(())
    }

    /// The run's limits.
    pub fn limits(&self) -> &Limits<'o> {
        &self.limits
    }

    /// The bytes the run's growing stores hold: the engine's and the
    /// store's own stacks.
    pub fn held(&self) -> usize {
        self.engine
            .saturating_add(self.states.bytes())
            .saturating_add(self.frames.bytes())
            .saturating_add(self.state.allocated())
    }

    /// Makes room in `v`, one of the engine's growing stores, for `extra`
    /// more elements, within the memory limit (E0708 at `span` past it);
    /// the engine grows its stores only through this, so the store knows
    /// what they hold.
    #[inline]
    pub fn make_room<T>(
        &mut self,
        v: &mut Vec<T>,
        extra: usize,
        span: Span,
    ) -> Result<(), Diagnostic> {
        if v.len().saturating_add(extra) <= v.capacity() {
            return Ok(());
        }
        let before = limits::bytes(v);
        let others = self.held() - before;
        limits::make_room(v, extra, others, self.limits.max_memory)
            .map_err(|wanted| errors::out_of_memory(self.limits.max_memory, wanted, span))?;
        self.engine += limits::bytes(v) - before;
        Ok(())
    }

    /// Counts the growth of `v`, one of the engine's stores, which held
    /// `before` bytes and grew by itself (by a few elements past what
    /// [`Self::make_room`] made room for); E0708 at `span` if the run now
    /// holds more than its limit.
    pub fn grown<T>(&mut self, before: usize, v: &Vec<T>, span: Span) -> Result<(), Diagnostic> {
        self.engine = (self.engine + limits::bytes(v)).saturating_sub(before);
        let held = self.held();
        if held > self.limits.max_memory {
            return Err(errors::out_of_memory(self.limits.max_memory, held, span));
        }
        Ok(())
    }

    /// E0708 unless the run's stores and `recorded` bytes more (a trace of
    /// the run, kept outside the store) are within the memory limit.
    pub fn within_memory(&self, recorded: usize) -> Result<(), Diagnostic> {
        let held = self.held().saturating_add(recorded);
        if held > self.limits.max_memory {
            return Err(errors::trace_out_of_memory(self.limits.max_memory, held));
        }
        Ok(())
    }

    /// The engine frees `v`, one of its stores grown by [`Self::make_room`].
    pub fn release<T>(&mut self, v: Vec<T>) {
        self.engine = self.engine.saturating_sub(limits::bytes(&v));
    }

    /// The steps the budget has left: an engine may take up to this many
    /// without [`Self::count_step`], then record them with
    /// [`Self::spend`].
    #[inline]
    pub fn steps_left(&self) -> u64 {
        self.max_steps.saturating_sub(self.steps)
    }

    /// Records `steps` steps taken (at most [`Self::steps_left`]).
    #[inline]
    pub fn spend(&mut self, steps: u64) {
        self.steps += steps;
    }

    /// E0701 for a step of the definition `name` (declared at `at`) past
    /// the budget.
    #[cold]
    pub fn out_of_steps(&self, name: &str, at: Span) -> Diagnostic {
        errors::out_of_steps(self.max_steps, name, at)
    }

    /// `_mapself`'s condition: the top of the state stack is a state.
    #[inline]
    pub fn top_is_state(&self) -> bool {
        self.states.top_is_state()
    }

    /// Applies one ACT: `NOP` does nothing, `_push` pushes a state of
    /// evaluated positions, every other ACT goes to the environment.
    /// `declared` names the pointers for error messages.
    pub fn apply(&mut self, app: &ActApp, declared: &[Pointer]) -> Result<(), Diagnostic> {
        self.acts += 1;
        if self.stopped || self.acts.is_multiple_of(POLL_EVERY) {
            self.poll()?;
        }
        match &app.act {
            Act::Nop => Ok(()),
            Act::Push(exprs) => {
                self.room_for_a_state(app.span, exprs.len())?;
                self.version += 1;
                let view = self.state.view(&self.pointers);
                self.states.push_exprs(exprs, &view).map_err(eval_error)
            }
            Act::Frame(op, exprs) => self.frame(*op, exprs, app.span),
            _ => {
                // A round that changes nothing starts the next one as it
                // started: only real changes count.
                let room = self.limits.max_memory.saturating_sub(self.held());
                if (self.state).apply_within(app, &mut self.pointers, declared, room)? {
                    self.version += 1;
                }
                Ok(())
            }
        }
    }

    /// Applies `act`, compiled from an ACT of the environment, as
    /// [`Self::apply`] applies the ACT: true when done; false, changing
    /// nothing, where the ACT as written must be applied instead (for its
    /// error, or in another environment than `ram`).
    #[inline]
    pub fn apply_compiled(&mut self, act: &CompiledAct) -> bool {
        self.acts += 1;
        if self.acts.is_multiple_of(POLL_EVERY) && self.limits.interrupted() {
            // [`Self::apply`], which the engine calls instead, reports it.
            self.stopped = true;
            return false;
        }
        match act.apply(&mut self.state, &self.pointers) {
            Some(changed) => {
                self.version += u64::from(changed);
                true
            }
            None => false,
        }
    }

    /// An operation of the frame stack at `span`; the first of `exprs` is
    /// the resume point, the rest a state call's positions. A `_goto` to
    /// where the top frame already resumes changes nothing.
    fn frame(&mut self, op: FrameAct, exprs: &[PosExpr], span: Span) -> Result<(), Diagnostic> {
        let mut values = std::mem::take(&mut self.frame_values);
        values.clear();
        let view = self.view();
        let evaluated = (exprs.iter()).try_for_each(|e| e.eval(&view).map(|v| values.push(v)));
        let done = evaluated
            .map_err(eval_error)
            .and_then(|()| self.frame_with(op, &values, span));
        self.frame_values = values;
        done
    }

    /// [`Self::frame`] with its expressions' `values`.
    fn frame_with(&mut self, op: FrameAct, values: &[i64], span: Span) -> Result<(), Diagnostic> {
        let (resume, state) = match values.split_first() {
            Some((&resume, state)) => (resume, state),
            None => (0, &[][..]),
        };
        match op {
            FrameAct::Goto if self.frames.resume() == resume && !self.frames.is_empty() => {
                return Ok(());
            }
            FrameAct::Goto => {
                if !self.frames.goto(resume) {
                    return Err(internal("`_goto` found no frame"));
                }
            }
            FrameAct::Enter => {
                self.room_for_a_frame(span, 0)?;
                self.frames.push(resume, &[]);
            }
            FrameAct::Call => {
                self.room_for_a_frame(span, self.pointers.len())?;
                self.frames.push(resume, &self.pointers);
                let targets = self.state_pointers.as_deref().unwrap_or_default();
                for (&p, &value) in targets.iter().zip(state) {
                    if let Some(pointer) = self.pointers.get_mut(p) {
                        *pointer = value;
                    }
                }
            }
            FrameAct::Return => {
                self.trace_return(span);
                if !self.frames.pop(&mut self.pointers) {
                    return Err(internal("`_return` found no frame"));
                }
            }
        }
        self.version += 1;
        Ok(())
    }

    /// E0704 when the frame stack holds as many calls as may nest, E0708
    /// when a frame of `width` values would pass the memory limit. The
    /// first two frames are the converted program's own (the frame
    /// resuming at 0 that stops its loop, and its entry's, which the
    /// program as written does not count as a call), so the limit is met
    /// at the same call as in the reference interpreter.
    fn room_for_a_frame(&mut self, span: Span, width: usize) -> Result<(), Diagnostic> {
        if self.frames.len() >= self.limits.max_depth.saturating_add(2) {
            return Err(errors::too_many_calls(self.limits.max_depth, span));
        }
        let others = self.engine.saturating_add(self.states.bytes());
        let max = self.limits.max_memory;
        (self.frames.make_room(width, others, max))
            .map_err(|wanted| errors::out_of_memory(max, wanted, span))
    }

    /// `_push_sentinel`, for the `treerec` applier at `at`.
    pub fn push_sentinel(&mut self, at: Span) -> Result<(), Diagnostic> {
        self.room_for_a_state(at, self.pointers.len())?;
        self.version += 1;
        self.states.push_sentinel(&self.pointers);
        Ok(())
    }

    /// `_pop`.
    pub fn pop(&mut self) -> Result<(), Diagnostic> {
        self.version += 1;
        if self.states.pop() {
            Ok(())
        } else {
            Err(internal("`_pop` found the state stack empty"))
        }
    }

    /// `_load_state`: the top state into the pointers `targets` (the
    /// `state(...)` pointers), or a sentinel's pointers back.
    pub fn load_state(&mut self, targets: &[usize]) -> Result<(), Diagnostic> {
        self.version += 1;
        if self.states.load(&mut self.pointers, targets) {
            Ok(())
        } else {
            Err(internal("`_load_state` found the state stack empty"))
        }
    }

    /// E0704 when the state stack holds as many entries as calls may
    /// nest, E0708 when an entry of `width` values would pass the memory
    /// limit; `span` is the push.
    fn room_for_a_state(&mut self, span: Span, width: usize) -> Result<(), Diagnostic> {
        if self.states.len() >= self.limits.max_depth {
            return Err(errors::too_many_states(self.limits.max_depth, span));
        }
        let others = self.engine.saturating_add(self.frames.bytes());
        let max = self.limits.max_memory;
        (self.states.make_room(width, others, max))
            .map_err(|wanted| errors::out_of_memory(max, wanted, span))
    }

    /// True when a trace is being written.
    #[inline]
    pub fn tracing(&self) -> bool {
        self.trace.is_some()
    }

    /// Writes one trace line indented by `depth`; tracing stops at the
    /// first write error (a closed pipe, say) rather than failing the run.
    pub fn trace(&mut self, depth: u32, line: &str) {
        if let Some(trace) = self.trace.as_mut() {
            self.traced_depth = depth;
            let indent = "  ".repeat(depth as usize);
            let line = crate::program::hidden::as_written(line);
            if writeln!(trace.out, "{indent}{line}").is_err() {
                self.trace = None;
            }
        }
    }

    /// The trace's line for the `_return` at `span`, under the step that
    /// applies it: what the returning activation left in its locals. The
    /// frame resuming at 0 is the converted program's own, not a call.
    fn trace_return(&mut self, span: Span) {
        let Some(returns) = self.trace.as_ref().and_then(|t| t.returns) else {
            return;
        };
        if self.frames.resume() != 0
            && let Some(line) = returns(span, &self.pointers)
        {
            self.trace(self.traced_depth, &line);
        }
    }
}
