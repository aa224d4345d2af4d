//! The heap stack machine that runs checked programs exactly.
//!
//! Every call lives on one heap-allocated stack of [`Task`]s, never on the
//! Rust call stack, so recursion depth is bounded only by [`MAX_TASKS`].
//! A combinator activation (Algorithm 1 of the paper) takes one core step
//! per slot it calls: it evaluates its condition, keeps the first bit, and
//! calls the next slot of its behaviour; it is popped before its last slot
//! runs (a tail call), so a `linrec` loop runs in constant stack. Normal
//! programs run as blocks of statements on the same stack.
//!
//! The machine also keeps a `version` counter that every change to the
//! pointers, the environment or the state stack increments. A loop that
//! starts over at the same version has changed nothing, so it would repeat
//! forever: the machine reports it at once instead of running out of steps.

use std::io::Write;

use super::errors;
use super::stack::{StateStack, apply_act};
use super::trace;
use crate::diagnostic::Diagnostic;
use crate::env::{State, eval_error, internal};
use crate::program::print;
use crate::program::{
    Act, ActApp, Applier, Body, BoolExpr, Callee, Combinator, CombinatorKind, Def, DefId, Pointer,
    Program, Slot, Stmt,
};
use crate::span::Span;

mod normal;

/// The most tasks (nested calls) and state stack entries a run may hold.
pub const MAX_TASKS: usize = 10_000_000;

/// A combinator's frame: what its applier passed.
#[derive(Clone, Copy)]
struct Frame<'p> {
    combinator: Combinator,
    detector: Option<&'p BoolExpr>,
    args: &'p [Callee; 3],
}

/// A running combinator, `kind` being the frame's combinator or `_mapself`.
#[derive(Clone, Copy)]
struct Activation<'p> {
    kind: CombinatorKind,
    frame: Frame<'p>,
    /// The definition whose applier made the frame.
    def: DefId,
    /// The condition bit of the first step, which chooses the slots.
    bit: Option<bool>,
    /// The index of the next slot to call.
    next: usize,
    depth: u32,
    /// The machine's version when the activation started.
    version: u64,
}

/// A running block of a normal program.
#[derive(Clone, Copy)]
struct Block<'p> {
    def: DefId,
    stmts: &'p [Stmt],
    next: usize,
    depth: u32,
    /// The machine's version when `def` was entered.
    version: u64,
    /// True when nothing of this call of `def` runs after this block.
    last: bool,
}

/// A running `while` statement (kept small: the stack may hold millions).
#[derive(Clone, Copy)]
struct Loop<'p> {
    def: DefId,
    /// The `Stmt::While` itself.
    stmt: &'p Stmt,
    depth: u32,
    /// The version when `def` was entered, handed to the body.
    version: u64,
    /// The version at the last test that held.
    tested: Option<u64>,
}

#[derive(Clone, Copy)]
enum Task<'p> {
    Activation(Activation<'p>),
    Block(Block<'p>),
    While(Loop<'p>),
    /// Puts back the pointers a state call saved.
    Restore,
}

pub(super) struct Machine<'p, 'o> {
    program: &'p Program,
    pub(super) state: State,
    pointers: Vec<i64>,
    tasks: Vec<Task<'p>>,
    states: StateStack,
    /// The pointer values saved by the state calls in progress.
    saved: Vec<i64>,
    /// Reused buffer for the arguments of a state call.
    scratch: Vec<i64>,
    pub(super) steps: u64,
    max_steps: u64,
    version: u64,
    trace: Option<&'o mut dyn Write>,
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

impl<'p, 'o> Machine<'p, 'o> {
    /// A machine at the start of `program`, its pointers at their initial
    /// positions for `state`.
    pub(super) fn new(
        program: &'p Program,
        state: State,
        max_steps: u64,
        trace: Option<&'o mut dyn Write>,
    ) -> Result<Machine<'p, 'o>, Diagnostic> {
        let pointers = initial_pointers(&program.pointers, &state)?;
        Ok(Machine {
            program,
            state,
            pointers,
            tasks: Vec::new(),
            states: StateStack::default(),
            saved: Vec::new(),
            scratch: Vec::new(),
            steps: 0,
            max_steps,
            version: 0,
            trace,
        })
    }

    /// Runs the entry definition to its end.
    pub(super) fn run(&mut self) -> Result<(), Diagnostic> {
        self.enter(self.program.entry, 0)?;
        while let Some(task) = self.tasks.pop() {
            match task {
                Task::Activation(activation) => self.activation_step(activation)?,
                Task::Block(block) => self.block_step(block)?,
                Task::While(looping) => self.while_step(looping)?,
                Task::Restore => self.restore()?,
            }
        }
        Ok(())
    }

    /// A definition of the checked program (its ids index `defs`).
    fn def(&self, id: DefId) -> &'p Def {
        &self.program.defs[id]
    }

    fn push(&mut self, task: Task<'p>, def: DefId) -> Result<(), Diagnostic> {
        if self.tasks.len() >= MAX_TASKS {
            let def = self.def(def);
            return Err(errors::too_deep(MAX_TASKS, &def.name, def.span));
        }
        self.tasks.push(task);
        Ok(())
    }

    /// E0704 when the state stack is full; `span` is the push.
    fn room_for_a_state(&self, span: Span) -> Result<(), Diagnostic> {
        if self.states.len() >= MAX_TASKS {
            return Err(errors::too_many_states(MAX_TASKS, span));
        }
        Ok(())
    }

    fn count_step(&mut self, def: DefId) -> Result<(), Diagnostic> {
        self.steps += 1;
        if self.steps > self.max_steps {
            let def = self.def(def);
            return Err(errors::out_of_steps(self.max_steps, &def.name, def.span));
        }
        Ok(())
    }

    fn eval(&self, condition: &BoolExpr) -> Result<bool, Diagnostic> {
        condition
            .eval(&self.state.view(&self.pointers))
            .map_err(eval_error)
    }

    /// Starts definition `def` at call depth `depth`.
    fn enter(&mut self, def: DefId, depth: u32) -> Result<(), Diagnostic> {
        match &self.def(def).body {
            Body::Applier(Applier::Combinator {
                combinator,
                detector,
                args,
                ..
            }) => {
                let frame = Frame {
                    combinator: *combinator,
                    detector: detector.as_ref(),
                    args,
                };
                let kind = CombinatorKind::User(*combinator);
                self.start(kind, frame, def, depth)
            }
            Body::Applier(Applier::Act(app)) => self.apply(app),
            Body::Normal(stmts) => {
                let block = Block {
                    def,
                    stmts,
                    next: 0,
                    depth,
                    version: self.version,
                    last: true,
                };
                self.push(Task::Block(block), def)
            }
        }
    }

    fn start(
        &mut self,
        kind: CombinatorKind,
        frame: Frame<'p>,
        def: DefId,
        depth: u32,
    ) -> Result<(), Diagnostic> {
        let activation = Activation {
            kind,
            frame,
            def,
            bit: None,
            next: 0,
            depth,
            version: self.version,
        };
        self.push(Task::Activation(activation), def)
    }

    fn apply(&mut self, app: &'p ActApp) -> Result<(), Diagnostic> {
        if let Act::Push(_) = app.act {
            self.room_for_a_state(app.span)?;
        }
        if !matches!(app.act, Act::Nop) {
            self.version += 1;
        }
        apply_act(
            app,
            &mut self.state,
            &mut self.pointers,
            &mut self.states,
            &self.program.pointers,
        )
    }

    /// One core step of a combinator activation.
    fn activation_step(&mut self, mut a: Activation<'p>) -> Result<(), Diagnostic> {
        let c = match (a.kind, a.frame.detector) {
            (CombinatorKind::MapSelf, _) => self.states.top_is_state(),
            (CombinatorKind::User(_), Some(detector)) => self.eval(detector)?,
            (CombinatorKind::User(_), None) => true,
        };
        let bit = *a.bit.get_or_insert(c);
        let slots = self.program.combinators.get(a.kind).slots(bit);
        let Some(&slot) = slots.get(a.next) else {
            return Ok(());
        };
        self.count_step(a.def)?;
        a.next += 1;
        let tail = a.next == slots.len();
        if !tail {
            self.tasks.push(Task::Activation(a));
        }
        if self.trace.is_some() {
            self.trace_slot(&a, c, slot);
        }
        let deeper = a.depth.saturating_add(1);
        match slot {
            Slot::SelfSlot => self.restart(&a, CombinatorKind::User(a.frame.combinator), tail),
            Slot::MapSelf => self.restart(&a, CombinatorKind::MapSelf, tail),
            Slot::A1 => self.call(&a.frame.args[0], deeper),
            Slot::A2 => self.call(&a.frame.args[1], deeper),
            Slot::A3 => self.call(&a.frame.args[2], deeper),
            Slot::PushSentinel => {
                self.room_for_a_state(self.def(a.def).span)?;
                self.version += 1;
                self.states.push_sentinel(&self.pointers);
                Ok(())
            }
            Slot::Pop => {
                self.version += 1;
                if self.states.pop() {
                    Ok(())
                } else {
                    Err(internal("`_pop` found the state stack empty"))
                }
            }
            Slot::LoadState => self.load_state(),
            Slot::Nop => Ok(()),
        }
    }

    /// `self` or `_mapself`: a new activation of `kind` with the same frame.
    fn restart(
        &mut self,
        a: &Activation<'p>,
        kind: CombinatorKind,
        tail: bool,
    ) -> Result<(), Diagnostic> {
        if kind == a.kind && self.version == a.version {
            let what = format!("its `{}`", print::combinator_name(kind));
            let def = self.def(a.def);
            return Err(errors::never_finishes(&def.name, &what, def.span));
        }
        // A loop (a tail call of the same kind) stays at its depth.
        let depth = if tail && kind == a.kind {
            a.depth
        } else {
            a.depth.saturating_add(1)
        };
        self.start(kind, a.frame, a.def, depth)
    }

    fn call(&mut self, callee: &'p Callee, depth: u32) -> Result<(), Diagnostic> {
        match callee {
            Callee::Def(id, _) => self.enter(*id, depth),
            Callee::Act(app) => self.apply(app),
        }
    }

    /// `_load_state`: the top state into the state pointers, or a
    /// sentinel's pointers back.
    fn load_state(&mut self) -> Result<(), Diagnostic> {
        self.version += 1;
        let targets: &[usize] = self.program.state.as_deref().unwrap_or_default();
        if self.states.load(&mut self.pointers, targets) {
            Ok(())
        } else {
            Err(internal("`_load_state` found the state stack empty"))
        }
    }

    fn trace_slot(&mut self, a: &Activation<'p>, c: bool, slot: Slot) {
        let def = self.def(a.def);
        let bound = trace::slot(self.program, &def.name, a.frame.args, slot);
        let line = format!(
            "{} {} c={} → {bound}",
            def.name,
            print::combinator_name(a.kind),
            u8::from(c)
        );
        self.write_trace(a.depth, &line);
    }

    /// Writes one trace line indented by `depth`; tracing stops at the
    /// first write error (a closed pipe, say) rather than failing the run.
    fn write_trace(&mut self, depth: u32, line: &str) {
        if let Some(out) = self.trace.as_mut() {
            let indent = "  ".repeat(depth as usize);
            if writeln!(out, "{indent}{line}").is_err() {
                self.trace = None;
            }
        }
    }
}
