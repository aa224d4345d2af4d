//! The heap stack machine that runs checked programs exactly.
//!
//! Every call lives on one heap-allocated stack of [`Task`]s, never on the
//! Rust call stack, so recursion depth is bounded only by the run's
//! [`exec::Limits`]: at most `max_depth` calls nested (E0704), counted as
//! the network counts them (activations of a combinatory program, calls of
//! a normal one), and at most `max_memory` bytes of tasks, saved registers
//! and pending statements (E0708), every store growing through
//! [`Store::make_room`]. What a call leaves to do when it ends (end its
//! frame, put registers back, resume a waiting statement) is one small
//! task, [`Ends`], and tasks are kept by kind ([`Tasks`]), so a deep
//! recursion costs little per level.
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

use super::{Event, trace};
use crate::diagnostic::Diagnostic;
use crate::env::internal;
use crate::exec::{self, Store};
use crate::program::hidden::register_shown;
use crate::program::locals::Keeps;
use crate::program::{
    ActApp, Applier, Body, BoolExpr, Callee, Combinator, CombinatorKind, Def, DefId, Program, Slot,
    Stmt,
};

mod calls;
mod normal;

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

/// A call whose locals the trace shows where it ends.
#[derive(Clone, Copy)]
struct Traced {
    def: DefId,
    depth: u32,
    /// The place on the task stack of the [`Ends::FRAME`] it ends with.
    frame: usize,
}

/// What is left to do when a call ends, in this order: end its frame
/// (`FRAME`: where `return` unwinds to; ending without `return` gives no
/// value), put back the locals a call without arguments saved
/// (`RESTORE_LOCALS`) or the registers a state call or a call with
/// arguments saved (`RESTORE`), and evaluate again the statement that
/// waited for its
/// value (`RESUME`, the last of `Machine::waiting`). One task holds them
/// all, as the bits of a byte.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Ends(u8);

impl Ends {
    const RESUME: u8 = 1;
    const RESTORE: u8 = 2;
    /// Put back only the locals a call without arguments saved.
    const RESTORE_LOCALS: u8 = 4;
    const FRAME: u8 = 8;

    fn has(self, bit: u8) -> bool {
        self.0 & bit != 0
    }
}

#[derive(Clone, Copy)]
enum Task<'p> {
    Activation(Activation<'p>),
    Block(Block<'p>),
    While(Loop<'p>),
    Ends(Ends),
}

/// What kind of task a place on the stack holds.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Activation,
    Block,
    While,
    Ends,
}

/// The task stack as one stack of kinds and one of each kind's tasks (all
/// last in, first out), so that a task costs what its kind needs: a call's
/// [`Ends`] two bytes, not the room of the largest task. A deep recursion
/// holds mostly those.
#[derive(Default)]
struct Tasks<'p> {
    kinds: Vec<Kind>,
    activations: Vec<Activation<'p>>,
    blocks: Vec<Block<'p>>,
    loops: Vec<Loop<'p>>,
    ends: Vec<Ends>,
}

impl<'p> Tasks<'p> {
    fn top(&self) -> Option<Kind> {
        self.kinds.last().copied()
    }

    /// Pushes `task`, where room was made for it.
    fn push(&mut self, task: Task<'p>) {
        let kind = match task {
            Task::Activation(a) => {
                self.activations.push(a);
                Kind::Activation
            }
            Task::Block(b) => {
                self.blocks.push(b);
                Kind::Block
            }
            Task::While(l) => {
                self.loops.push(l);
                Kind::While
            }
            Task::Ends(e) => {
                self.ends.push(e);
                Kind::Ends
            }
        };
        self.kinds.push(kind);
    }

    fn pop(&mut self) -> Option<Task<'p>> {
        Some(match self.kinds.pop()? {
            Kind::Activation => Task::Activation(self.activations.pop()?),
            Kind::Block => Task::Block(self.blocks.pop()?),
            Kind::While => Task::While(self.loops.pop()?),
            Kind::Ends => Task::Ends(self.ends.pop()?),
        })
    }

    /// The block on top, if the top task is one.
    fn top_block(&mut self) -> Option<&mut Block<'p>> {
        (self.top() == Some(Kind::Block))
            .then(|| self.blocks.last_mut())
            .flatten()
    }

    /// The [`Ends`] on top, if the top task is one.
    fn top_ends(&mut self) -> Option<&mut Ends> {
        (self.top() == Some(Kind::Ends))
            .then(|| self.ends.last_mut())
            .flatten()
    }
}

pub(super) struct Machine<'p, 'o> {
    program: &'p Program,
    pub(super) store: Store<'o>,
    /// Who is told of each activation and core step, if anyone, and
    /// answers with the bytes it holds.
    observer: Option<&'o mut dyn FnMut(Event<'_>) -> usize>,
    tasks: Tasks<'p>,
    /// The pointer values saved by the state calls in progress.
    saved: Vec<i64>,
    /// Reused buffer for the arguments of a state call.
    scratch: Vec<i64>,
    /// The statements waiting for a call's value (one per `Ends::RESUME`).
    waiting: Vec<calls::Parked>,
    /// The versions of the waiting `if` tests, and the loops of the waiting
    /// `while` tests, in the order of `waiting`.
    versions: Vec<u64>,
    loops: Vec<Loop<'p>>,
    /// The logs of the waiting statements and of the one evaluated, one
    /// after the other (a stack, as the statements are).
    logs: calls::Log,
    /// The value the last `return` gave, until a waiting statement takes it.
    returned: Option<i64>,
    /// Per definition: whether its body has a `return` (it runs above a
    /// `Ends::FRAME`).
    returns: Vec<bool>,
    /// Which calls without arguments keep their caller's locals.
    keeps: Keeps,
    /// Per definition: whether it has locals a trace shows. While
    /// tracing, each call of such a definition runs above an
    /// [`Ends::FRAME`] (its own, or the one its tail call shares), so that
    /// it traces its locals where it ends, with `return` or without.
    shows_locals: Vec<bool>,
    /// While tracing, each such call: its definition, depth and the place
    /// of its frame on the task stack.
    traced: Vec<Traced>,
    /// The statements whose own expressions call definitions, by
    /// address, sorted (a binary search is quicker than hashing here).
    sites: Vec<calls::Site<'p>>,
}

impl<'p, 'o> Machine<'p, 'o> {
    /// A machine at the start of `program`, its pointers at their initial
    /// positions for `state`.
    pub(super) fn new(
        program: &'p Program,
        store: Store<'o>,
        observer: Option<&'o mut dyn FnMut(Event<'_>) -> usize>,
    ) -> Machine<'p, 'o> {
        Machine {
            program,
            store,
            observer,
            tasks: Tasks::default(),
            saved: Vec::new(),
            scratch: Vec::new(),
            waiting: Vec::new(),
            versions: Vec::new(),
            loops: Vec::new(),
            logs: calls::Log::default(),
            returned: None,
            returns: program.defs.iter().map(has_return).collect(),
            keeps: Keeps::of(program),
            shows_locals: shows_locals(program),
            traced: Vec::new(),
            sites: calls::sites(program),
        }
    }

    /// Runs the entry definition to its end.
    pub(super) fn run(&mut self) -> Result<(), Diagnostic> {
        self.enter(self.program.entry, 0)?;
        while let Some(kind) = self.tasks.top() {
            // A block steps in place (`block_step`): most steps are
            // statements, and a pop and a push each would copy it out and
            // back.
            if kind == Kind::Block {
                let Some(&block) = self.tasks.blocks.last() else {
                    return Err(internal("a block task without its block"));
                };
                self.block_step(block)?;
                continue;
            }
            match self.tasks.pop() {
                Some(Task::Activation(activation)) => self.activation_step(activation)?,
                Some(Task::While(looping)) => self.while_step(looping)?,
                Some(Task::Ends(ends)) => self.end(ends)?,
                Some(Task::Block(_)) | None => {
                    return Err(internal("a task without its kind's entry"));
                }
            }
        }
        Ok(())
    }

    /// A definition of the checked program (its ids index `defs`).
    fn def(&self, id: DefId) -> &'p Def {
        &self.program.defs[id]
    }

    /// Pushes `task` of `def`, within the memory limit.
    fn push(&mut self, task: Task<'p>, def: DefId) -> Result<(), Diagnostic> {
        let span = self.def(def).span;
        let tasks = &mut self.tasks;
        self.store.make_room(&mut tasks.kinds, 1, span)?;
        match task {
            Task::Activation(_) => self.store.make_room(&mut tasks.activations, 1, span)?,
            Task::Block(_) => self.store.make_room(&mut tasks.blocks, 1, span)?,
            Task::While(_) => self.store.make_room(&mut tasks.loops, 1, span)?,
            Task::Ends(_) => self.store.make_room(&mut tasks.ends, 1, span)?,
        }
        tasks.push(task);
        Ok(())
    }

    /// E0704 unless a call of `def` at `depth` (calls nested, or for a
    /// combinator, activations held) is within the nesting limit.
    fn within_depth(&self, def: DefId, depth: usize) -> Result<(), Diagnostic> {
        let limit = self.store.limits().max_depth;
        if depth > limit {
            let def = self.def(def);
            return Err(exec::too_deep(limit, &def.name, def.span));
        }
        Ok(())
    }

    /// Adds `bit` to what the call about to start leaves to do when it
    /// ends: to the top task if it is an [`Ends`] whose bits all come
    /// after it, else as a new task.
    fn push_end(&mut self, bit: u8, def: DefId) -> Result<(), Diagnostic> {
        if let Some(ends) = self.tasks.top_ends()
            && ends.0 < bit
        {
            ends.0 |= bit;
            return Ok(());
        }
        self.push(Task::Ends(Ends(bit)), def)
    }

    /// A call has ended: what it left to do, in order.
    fn end(&mut self, ends: Ends) -> Result<(), Diagnostic> {
        if ends.has(Ends::FRAME) {
            // It ended without `return`.
            self.returned = None;
            self.trace_frame_end(self.tasks.kinds.len(), None, None);
        }
        if ends.has(Ends::RESTORE_LOCALS) {
            self.restore(true)?;
        }
        if ends.has(Ends::RESTORE) {
            self.restore(false)?;
        }
        if ends.has(Ends::RESUME) {
            self.resume()?;
        }
        Ok(())
    }

    /// Counts a step of a normal program's statement and reports it.
    fn count_statement(&mut self, def: DefId, depth: u32, stmt: &Stmt) -> Result<(), Diagnostic> {
        self.count_step(def)?;
        let Some(observer) = self.observer.as_mut() else {
            return Ok(());
        };
        let view = self.store.view();
        let held = observer(Event::Statement {
            def,
            depth,
            stmt,
            view,
        });
        self.store.within_memory(held)?;
        // An observer may ask the run to stop at once.
        self.store.poll()
    }

    /// Tells the observer, if any, of `event`: what it then holds counts
    /// against the memory limit.
    fn observe(&mut self, event: Event<'_>) -> Result<(), Diagnostic> {
        match self.observer.as_mut() {
            Some(observer) => {
                let held = observer(event);
                self.store.within_memory(held)
            }
            None => Ok(()),
        }
    }

    /// Counts a step of `def`, looked up only for the error.
    fn count_step(&mut self, def: DefId) -> Result<(), Diagnostic> {
        let program = self.program;
        self.store.count_step_of(|| {
            let def = &program.defs[def];
            (&def.name, def.span)
        })
    }

    fn eval(&self, condition: &BoolExpr) -> Result<bool, Diagnostic> {
        self.store.eval(condition)
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
            Body::Hole(_) => Err(internal(format!(
                "the hole `{}` reached the interpreter",
                self.def(def).name
            ))),
            Body::Normal(stmts) => {
                self.within_depth(def, depth as usize)?;
                // A frame on top already ends with this call (a tail call):
                // `return` may unwind to it.
                let framed = self.tasks.top_ends().is_some_and(|e| e.has(Ends::FRAME));
                let traced = self.store.tracing() && self.shows_locals[def];
                if (traced || self.returns[def]) && !framed {
                    self.push_end(Ends::FRAME, def)?;
                }
                if traced {
                    let span = self.def(def).span;
                    self.store.make_room(&mut self.traced, 1, span)?;
                    let frame = self.tasks.kinds.len() - 1;
                    self.traced.push(Traced { def, depth, frame });
                }
                let block = Block {
                    def,
                    stmts,
                    next: 0,
                    depth,
                    version: self.store.version(),
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
        self.within_depth(def, self.tasks.activations.len() + 1)?;
        self.observe(Event::Start { def })?;
        let activation = Activation {
            kind,
            frame,
            def,
            bit: None,
            next: 0,
            depth,
            version: self.store.version(),
        };
        self.push(Task::Activation(activation), def)
    }

    fn apply(&mut self, app: &'p ActApp) -> Result<(), Diagnostic> {
        self.store.apply(app, &self.program.pointers)
    }

    /// One core step of a combinator activation.
    fn activation_step(&mut self, mut a: Activation<'p>) -> Result<(), Diagnostic> {
        // After the first step only the trace and the observer see the
        // bit (the first one chooses the slots): unseen, it is the first.
        let seen = self.store.tracing() || self.observer.is_some();
        let evaluated = match (a.kind, a.frame.detector, a.bit) {
            (_, _, Some(first)) if !seen => Ok(first),
            (CombinatorKind::MapSelf, _, _) => Ok(self.store.top_is_state()),
            (CombinatorKind::User(_), Some(detector), _) => detector.eval(&self.store.view()),
            (CombinatorKind::User(_), None, _) => Ok(true),
        };
        let c = exec::step_bit(a.bit, evaluated)?;
        let bit = *a.bit.get_or_insert(c);
        let slots = self.program.combinators.get(a.kind).slots(bit);
        let Some(&slot) = slots.get(a.next) else {
            return Ok(());
        };
        self.count_step(a.def)?;
        a.next += 1;
        let tail = a.next == slots.len();
        if !tail {
            // Where it was just popped from: no room to make.
            self.tasks.push(Task::Activation(a));
        }
        if self.store.tracing() {
            self.trace_slot(&a, c, slot);
        }
        if let Some(observer) = self.observer.as_mut() {
            // Not `observe`: the event borrows the store.
            let held = observer(Event::Step {
                def: a.def,
                last: tail,
                view: self.store.view(),
                stack_top: self.store.top_is_state(),
                kind: a.kind,
                slot,
                c,
                depth: a.depth,
            });
            self.store.within_memory(held)?;
        }
        let deeper = a.depth.saturating_add(1);
        match slot {
            Slot::SelfSlot => self.restart(&a, CombinatorKind::User(a.frame.combinator), tail),
            Slot::MapSelf => self.restart(&a, CombinatorKind::MapSelf, tail),
            Slot::A1 => self.call(&a.frame.args[0], deeper),
            Slot::A2 => self.call(&a.frame.args[1], deeper),
            Slot::A3 => self.call(&a.frame.args[2], deeper),
            Slot::PushSentinel => self.store.push_sentinel(self.def(a.def).span),
            Slot::Pop => self.store.pop(),
            Slot::LoadState => {
                let targets = self.program.state.as_deref().unwrap_or_default();
                self.store.load_state(targets)
            }
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
        if kind == a.kind && self.store.version() == a.version {
            let what = format!("its `{}`", self.program.combinators.name(kind));
            let def = self.def(a.def);
            return Err(exec::never_finishes(&def.name, &what, def.span));
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

    fn trace_slot(&mut self, a: &Activation<'p>, c: bool, slot: Slot) {
        let def = self.def(a.def);
        let bound = trace::slot(self.program, &def.name, a.frame.args, slot);
        let line = format!(
            "{} {} c={} → {bound}",
            def.name,
            self.program.combinators.name(a.kind),
            u8::from(c)
        );
        self.store.trace(a.depth, &line);
    }
}

/// Whether `def`'s body has a `return` anywhere.
fn has_return(def: &Def) -> bool {
    fn block(stmts: &[Stmt]) -> bool {
        stmts.iter().any(|stmt| match stmt {
            Stmt::Return { .. } => true,
            Stmt::If {
                then, otherwise, ..
            } => block(then) || block(otherwise),
            Stmt::While { body, .. } => block(body),
            _ => false,
        })
    }
    matches!(&def.body, Body::Normal(stmts) if block(stmts))
}

/// Per definition of `program`: whether it owns a register a trace
/// shows among its locals.
fn shows_locals(program: &Program) -> Vec<bool> {
    let mut shows = vec![false; program.defs.len()];
    for pointer in &program.pointers {
        if let Some(def) = pointer.owner
            && register_shown(&pointer.name).is_some()
        {
            shows[def] = true;
        }
    }
    shows
}
