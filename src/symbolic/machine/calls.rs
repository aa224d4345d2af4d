//! Calls with parameters and results on the machine (language.md §5.1).
//!
//! A statement whose expressions call definitions (`q = PARTITION(p, r)`,
//! `return FIB(k - 1) + FIB(k - 2)`) cannot be evaluated in one go: each
//! call runs on the task stack like any other. So the machine evaluates
//! such a statement as far as the first call whose value it lacks, keeping
//! a log of everything read on the way (registers, cells, the values of
//! the calls already made); it then runs that call with an [`Ends::RESUME`]
//! under it, and evaluates the statement again from the log, which
//! replays the reads made before the call exactly as they were, so
//! operands are evaluated once, left to right, whatever the call changed.
//! A call with arguments saves every register, sets the parameters and
//! puts the registers back after (as a state call does); a definition with
//! a `return` runs above an [`Ends::FRAME`], where `return` unwinds to.
//! The logs of all waiting statements live one after the other in one
//! vector, within the run's memory limit.

use std::cell::{Cell, RefCell};

use super::{Block, Ends, Loop, Machine, Task};
use crate::diagnostic::Diagnostic;
use crate::env::{View, eval_error, internal};
use crate::program::calls::{act_positions, map_positions};
use crate::program::{
    Act, ActApp, CallExpr, DataId, DefId, EvalError, Observation, PointerId, PosExpr, PosKind,
    Stmt, World,
};
use crate::span::Span;

/// A statement (or a `while` test) waiting for the value of a call.
#[derive(Clone, Copy)]
pub(super) enum Pending<'p> {
    /// A statement of `block`, which has already moved past it.
    Stmt {
        block: Block<'p>,
        stmt: &'p Stmt,
        /// True when it is the block's last statement.
        tail: bool,
    },
    /// The test of a `while` loop.
    While(Loop<'p>),
}

/// What a pending statement's expressions came to.
enum Values {
    Positions(Vec<i64>),
    Condition(bool),
}

/// A call whose value evaluation needs: the definition, its evaluated
/// arguments, and where it is written.
struct Needed {
    def: DefId,
    args: Vec<i64>,
    span: Span,
}

/// The world as a pending statement reads it: reads already in the log
/// are replayed, new ones are made and logged, and a call without a logged
/// value stops the evaluation (with [`EvalError::Call`]), saying which.
struct Replay<'v, 'l> {
    view: View<'v>,
    /// The logs, this statement's from `start` on.
    log: RefCell<&'l mut Vec<Option<i64>>>,
    start: usize,
    next: Cell<usize>,
    needed: RefCell<Option<Needed>>,
}

impl Replay<'_, '_> {
    /// The next logged read, or `read()` logged.
    fn logged(&self, read: impl FnOnce() -> Option<i64>) -> Option<i64> {
        let at = self.start + self.next.get();
        self.next.set(self.next.get() + 1);
        let mut log = self.log.borrow_mut();
        if let Some(&value) = log.get(at) {
            return value;
        }
        let value = read();
        log.push(value);
        value
    }
}

impl World for Replay<'_, '_> {
    fn len(&self) -> i64 {
        self.view.len()
    }

    fn pointer(&self, pointer: PointerId) -> i64 {
        self.logged(|| Some(self.view.pointer(pointer)))
            .unwrap_or_default()
    }

    fn value(&self, observation: &Observation, at: i64) -> Option<i64> {
        self.view.value(observation, at)
    }

    fn symbol(&self, observation: &Observation, at: i64) -> Option<crate::program::Color> {
        self.view.symbol(observation, at)
    }

    fn test(&self, observation: &Observation, at: i64) -> bool {
        self.view.test(observation, at)
    }

    fn position(&self, observation: &Observation, at: i64) -> i64 {
        self.view.position(observation, at)
    }

    fn cell(&self, data: DataId, at: &[i64]) -> Option<i64> {
        self.logged(|| self.view.cell(data, at))
    }

    fn call(&self, call: &CallExpr, args: &[i64]) -> Result<i64, EvalError> {
        let at = self.start + self.next.get();
        if let Some(&value) = self.log.borrow().get(at) {
            self.next.set(self.next.get() + 1);
            return value.ok_or(EvalError::Call(call.span));
        }
        *self.needed.borrow_mut() = Some(Needed {
            def: call.def,
            args: args.to_vec(),
            span: call.span,
        });
        Err(EvalError::Call(call.span))
    }
}

impl<'p> Pending<'p> {
    fn def(&self) -> DefId {
        match self {
            Pending::Stmt { block, .. } => block.def,
            Pending::While(l) => l.def,
        }
    }

    fn depth(&self) -> u32 {
        match self {
            Pending::Stmt { block, .. } => block.depth,
            Pending::While(l) => l.depth,
        }
    }

    /// Evaluates the expressions of the statement in `world`.
    fn evaluate(&self, world: &dyn World) -> Result<Values, EvalError> {
        let stmt = match self {
            Pending::Stmt { stmt, .. } => *stmt,
            Pending::While(l) => l.stmt,
        };
        let positions: Vec<&PosExpr> = match stmt {
            Stmt::If { condition, .. } | Stmt::While { condition, .. } => {
                return condition.eval(world).map(Values::Condition);
            }
            Stmt::Act(app) => act_positions(&app.act),
            Stmt::StateCall(_, args, _) => args.iter().collect(),
            Stmt::ParamCall(call) => call.args.iter().collect(),
            Stmt::Return { value, .. } => value.iter().collect(),
            Stmt::Call(..) | Stmt::Pass(_) => Vec::new(),
        };
        let values = positions.iter().map(|e| e.eval(world));
        values.collect::<Result<_, _>>().map(Values::Positions)
    }
}

impl<'p> Machine<'p, '_> {
    /// Evaluates `pending` with the reads logged from `start` on in
    /// `logs` replayed: carries it out once every value is known, else runs
    /// the next call it needs.
    pub(super) fn pending(&mut self, pending: Pending<'p>, start: usize) -> Result<(), Diagnostic> {
        let span = self.def(pending.def()).span;
        // Room for the reads of most statements; more are counted after.
        self.store.make_room(&mut self.logs, 8, span)?;
        let before = self.logs.capacity();
        let (values, needed) = {
            let world = Replay {
                view: self.store.view(),
                log: RefCell::new(&mut self.logs),
                start,
                next: Cell::new(0),
                needed: RefCell::new(None),
            };
            (pending.evaluate(&world), world.needed.into_inner())
        };
        if self.logs.capacity() != before {
            self.store.grown(
                before * std::mem::size_of::<Option<i64>>(),
                &self.logs,
                span,
            )?;
        }
        match (values, needed) {
            (Ok(values), _) => {
                self.logs.truncate(start);
                self.carry_out(pending, values)
            }
            (Err(EvalError::Call(_)), Some(needed)) => {
                if self.waiting.len() == self.waiting.capacity() {
                    self.store.make_room(&mut self.waiting, 1, span)?;
                }
                self.waiting.push((pending, start));
                self.push_end(Ends::RESUME, pending.def())?;
                self.returned = None;
                let depth = pending.depth().saturating_add(1);
                self.call_with(pending.def(), needed.def, &needed.args, depth, needed.span)
            }
            (Err(error), _) => Err(eval_error(error)),
        }
    }

    /// The call a pending statement waited for has returned: its value
    /// goes into the log, and the statement is evaluated again.
    pub(super) fn resume(&mut self) -> Result<(), Diagnostic> {
        let (pending, start) = self
            .waiting
            .pop()
            .ok_or_else(|| internal("a call returned to no pending statement"))?;
        let value = self.returned.take().ok_or_else(|| {
            internal(format!(
                "`{}` ended without a value where one was needed",
                self.def(pending.def()).name
            ))
        })?;
        let span = self.def(pending.def()).span;
        self.store.make_room(&mut self.logs, 1, span)?;
        self.logs.push(Some(value));
        self.pending(pending, start)
    }

    /// Runs the statement of `pending` with its expressions' `values`.
    fn carry_out(&mut self, pending: Pending<'p>, values: Values) -> Result<(), Diagnostic> {
        let (b, stmt, tail) = match (pending, &values) {
            (Pending::While(l), Values::Condition(c)) => return self.tested(l, *c),
            (Pending::Stmt { block, stmt, tail }, _) => (block, stmt, tail),
            (Pending::While(_), Values::Positions(_)) => {
                return Err(internal("a `while` test gave positions"));
            }
        };
        let deeper = b.depth.saturating_add(1);
        match (stmt, values) {
            (Stmt::If { .. }, Values::Condition(c)) => self.branch(b, stmt, tail, c),
            (Stmt::Act(app), Values::Positions(values)) => {
                let act = resolved(&app.act, &values);
                let app = ActApp {
                    act,
                    span: app.span,
                };
                self.store.apply(&app, &self.program.pointers)
            }
            (Stmt::StateCall(id, _, span), Values::Positions(values)) => {
                let targets: &[PointerId] = self.program.state.as_deref().unwrap_or_default();
                self.with_registers(targets, &values, *span)?;
                self.push_end(Ends::RESTORE, *id)?;
                self.enter(*id, deeper)
            }
            (Stmt::ParamCall(call), Values::Positions(values)) => {
                self.call_with(b.def, call.def, &values, deeper, call.span)
            }
            (Stmt::Return { .. }, Values::Positions(values)) => {
                self.return_from(&b, values.first().copied())
            }
            _ => Err(internal("a statement's values do not fit it")),
        }
    }

    /// Calls `def` (from `caller`) with the arguments `args`: with
    /// parameters, saves every register and sets them first (a `Restore`
    /// task puts them back); without, shares the registers (`F()`) but
    /// the caller's locals ([`Machine::shared_call`]).
    fn call_with(
        &mut self,
        caller: DefId,
        def: DefId,
        args: &[i64],
        depth: u32,
        span: Span,
    ) -> Result<(), Diagnostic> {
        let params = &self.def(def).params;
        if params.is_empty() {
            return self.shared_call(caller, def, depth, span);
        }
        self.with_registers(params, args, span)?;
        if self.store.tracing() {
            let pointers = &self.program.pointers;
            let set: Vec<String> = (params.iter().zip(args))
                .map(|(&p, value)| {
                    let name = pointers.get(p).map_or("?", |p| p.name.as_str());
                    format!("{name} = {value}")
                })
                .collect();
            let line = format!("{}({})", self.def(def).name, set.join(", "));
            self.store.trace(depth, &line);
        }
        self.push_end(Ends::RESTORE, def)?;
        self.enter(def, depth)
    }

    /// A call without arguments from `caller` to `def`: the registers are
    /// shared, but when `def` may run `caller` again, the caller's locals
    /// are saved first and put back when it returns (language.md §5.2).
    pub(super) fn shared_call(
        &mut self,
        caller: DefId,
        def: DefId,
        depth: u32,
        span: Span,
    ) -> Result<(), Diagnostic> {
        if self.keeps.keeps(caller, def) {
            self.with_registers(&[], &[], span)?;
            self.push_end(Ends::RESTORE_LOCALS, def)?;
        }
        self.enter(def, depth)
    }

    /// Saves every register, then sets `targets` to `values` (a call
    /// with arguments, or a state call); `span` is the call.
    pub(super) fn with_registers(
        &mut self,
        targets: &[PointerId],
        values: &[i64],
        span: Span,
    ) -> Result<(), Diagnostic> {
        let width = self.store.pointers().len();
        self.store.make_room(&mut self.saved, width, span)?;
        self.saved.extend_from_slice(self.store.pointers());
        self.store.changed();
        let pointers = self.store.pointers_mut();
        for (&p, &value) in targets.iter().zip(values) {
            pointers[p] = value;
        }
        Ok(())
    }

    /// `return` in block `b`, with `value` or without: ends the running
    /// call of its definition, up to its [`Ends::FRAME`], leaving what
    /// else the call's end does to run next.
    fn return_from(&mut self, b: &Block<'p>, value: Option<i64>) -> Result<(), Diagnostic> {
        if self.store.tracing() {
            let name = &self.def(b.def).name;
            let line = match value {
                Some(value) => format!("{name} returns {value}"),
                None => format!("{name} returns"),
            };
            self.store.trace(b.depth, &line);
        }
        loop {
            match self.tasks.pop() {
                Some(Task::Ends(ends)) if ends.has(Ends::FRAME) => {
                    let rest = Ends(ends.0 & !Ends::FRAME);
                    if rest.0 != 0 {
                        self.tasks.push(Task::Ends(rest));
                    }
                    break;
                }
                Some(Task::Block(_) | Task::While(_)) => {}
                _ => return Err(internal("`return` found no call to end")),
            }
        }
        self.returned = value;
        Ok(())
    }
}

/// `act` with each position it evaluates replaced by its value, in the
/// order of [`act_positions`].
fn resolved(act: &Act, values: &[i64]) -> Act {
    let mut values = values.iter().copied();
    let mut literal = |e: &PosExpr| PosExpr {
        kind: PosKind::Int(values.next().unwrap_or_default()),
        span: e.span,
    };
    map_positions(act, &mut literal)
}
