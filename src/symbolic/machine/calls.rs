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
//! [`Log`], within the run's memory limit, and a waiting statement is
//! parked in 12 bytes ([`Parked`]: its [`Site`], found once per run, its
//! depth and how many reads it logged), so a deep recursion through
//! `return F(m - 1) + 1` costs about what the network's frames do.

use std::cell::{Cell, RefCell};

use super::{Block, Ends, Loop, Machine, Task};
use crate::diagnostic::Diagnostic;
use crate::env::{View, eval_error, internal};
use crate::program::calls::{act_positions, map_positions};
use crate::program::hidden::register_shown;
use crate::program::{
    Act, ActApp, Body, CallExpr, DataId, DefId, EvalError, Observation, PointerId, PosExpr,
    PosKind, Program, Stmt, World,
};
use crate::span::Span;

/// Where a statement that may wait for calls stands in the program,
/// found once per run for every such statement ([`sites`]): what a
/// pending statement needs besides its depth.
#[derive(Clone, Copy)]
pub(super) struct Site<'p> {
    pub(super) stmt: &'p Stmt,
    pub(super) def: DefId,
    /// The statement's block, and where the block goes on after it.
    stmts: &'p [Stmt],
    next: usize,
    /// Its block's [`Block::last`]: true when nothing of the call runs
    /// after the block.
    last: bool,
}

impl<'p> Site<'p> {
    /// True when it is its block's last statement.
    fn tail(&self) -> bool {
        self.next == self.stmts.len()
    }
}

/// A statement (or a `while` test) waiting for the value of a call.
#[derive(Clone, Copy)]
pub(super) enum Pending<'p> {
    /// The statement at `site` (an index of `Machine::sites`), whose block
    /// has already moved past it.
    Stmt { site: u32, depth: u32 },
    /// An `if` test: its branch's block starts at the `version` its
    /// definition was entered at.
    If { site: u32, depth: u32, version: u64 },
    /// The test of a `while` loop.
    While(Loop<'p>),
}

/// A pending statement put aside while the call it needs runs: small, as
/// a deep recursion holds one per level. An `if` also keeps its version
/// (in `Machine::versions`), a `while` its loop (in `Machine::loops`).
#[derive(Clone, Copy)]
pub(super) struct Parked {
    site: u32,
    depth: u32,
    /// How many reads it logged: the top of the [`Log`].
    reads: u32,
}

/// The reads of the waiting statements, one after the other: the values,
/// and where a read gave END (`None`, rare), so a read costs 8 bytes.
#[derive(Default)]
pub(super) struct Log {
    values: Vec<i64>,
    /// The indices of the reads that gave END, ascending.
    ends: Vec<usize>,
}

impl Log {
    pub(super) fn len(&self) -> usize {
        self.values.len()
    }

    fn get(&self, at: usize) -> Option<Option<i64>> {
        let value = *self.values.get(at)?;
        let end = !self.ends.is_empty() && self.ends.binary_search(&at).is_ok();
        Some((!end).then_some(value))
    }

    /// Logs `read`, where room was made for it.
    fn push(&mut self, read: Option<i64>) {
        if read.is_none() {
            self.ends.push(self.values.len());
        }
        self.values.push(read.unwrap_or_default());
    }

    fn truncate(&mut self, len: usize) {
        self.values.truncate(len);
        while self.ends.last().is_some_and(|&end| end >= len) {
            self.ends.pop();
        }
    }
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
    log: RefCell<&'l mut Log>,
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
        if let Some(value) = log.get(at) {
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
        if let Some(value) = self.log.borrow().get(at) {
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

impl Pending<'_> {
    fn depth(&self) -> u32 {
        match self {
            Pending::Stmt { depth, .. } | Pending::If { depth, .. } => *depth,
            Pending::While(l) => l.depth,
        }
    }
}

/// Evaluates the expressions of `stmt` in `world`.
fn evaluate(stmt: &Stmt, world: &dyn World) -> Result<Values, EvalError> {
    let positions: Vec<&PosExpr> = match stmt {
        Stmt::If { condition, .. } | Stmt::While { condition, .. } => {
            return condition.eval(world).map(Values::Condition);
        }
        Stmt::Act(app) => act_positions(&app.act),
        Stmt::StateCall(_, args, _) => args.iter().collect(),
        Stmt::ParamCall(call) => call.args.iter().collect(),
        Stmt::Return { value, .. } => value.iter().collect(),
        Stmt::Call(..) | Stmt::Pass(_) | Stmt::Hole(..) => Vec::new(),
    };
    let values = positions.iter().map(|e| e.eval(world));
    values.collect::<Result<_, _>>().map(Values::Positions)
}

impl<'p> Machine<'p, '_> {
    /// The site of a statement that may wait for calls, if `stmt` is one.
    pub(super) fn site_of(&self, stmt: &Stmt) -> Option<u32> {
        let address = std::ptr::from_ref(stmt) as usize;
        let found = (self.sites)
            .binary_search_by_key(&address, |site| std::ptr::from_ref(site.stmt) as usize);
        found.ok().and_then(|at| u32::try_from(at).ok())
    }

    fn site(&self, site: u32) -> Result<Site<'p>, Diagnostic> {
        let found = self.sites.get(site as usize).copied();
        found.ok_or_else(|| internal("a pending statement without its site"))
    }

    /// The definition and the statement of `pending`.
    fn statement(&self, pending: &Pending<'p>) -> Result<(DefId, &'p Stmt), Diagnostic> {
        match pending {
            Pending::Stmt { site, .. } | Pending::If { site, .. } => {
                let site = self.site(*site)?;
                Ok((site.def, site.stmt))
            }
            Pending::While(l) => Ok((l.def, l.stmt)),
        }
    }

    /// Evaluates `pending` with the reads logged from `start` on in
    /// `logs` replayed: carries it out once every value is known, else runs
    /// the next call it needs.
    pub(super) fn pending(&mut self, pending: Pending<'p>, start: usize) -> Result<(), Diagnostic> {
        let (def, stmt) = self.statement(&pending)?;
        let span = self.def(def).span;
        // Room for the reads of most statements; more are counted after.
        self.store.make_room(&mut self.logs.values, 8, span)?;
        self.store.make_room(&mut self.logs.ends, 1, span)?;
        let before = (self.logs.values.capacity(), self.logs.ends.capacity());
        let (values, needed) = {
            let world = Replay {
                view: self.store.view(),
                log: RefCell::new(&mut self.logs),
                start,
                next: Cell::new(0),
                needed: RefCell::new(None),
            };
            (evaluate(stmt, &world), world.needed.into_inner())
        };
        let logs = &self.logs;
        if logs.values.capacity() != before.0 {
            let bytes = before.0 * std::mem::size_of::<i64>();
            self.store.grown(bytes, &logs.values, span)?;
        }
        if logs.ends.capacity() != before.1 {
            let bytes = before.1 * std::mem::size_of::<usize>();
            self.store.grown(bytes, &logs.ends, span)?;
        }
        match (values, needed) {
            (Ok(values), _) => {
                self.logs.truncate(start);
                self.carry_out(pending, values)
            }
            (Err(EvalError::Call(_)), Some(needed)) => {
                self.park(pending, start, span)?;
                self.push_end(Ends::RESUME, def)?;
                self.returned = None;
                let depth = pending.depth().saturating_add(1);
                self.call_with(def, needed.def, &needed.args, depth, needed.span)
            }
            (Err(error), _) => Err(eval_error(error)),
        }
    }

    /// Puts `pending`, whose reads start at `start` in the log, aside while
    /// the call it needs runs.
    fn park(&mut self, pending: Pending<'p>, start: usize, span: Span) -> Result<(), Diagnostic> {
        let reads = u32::try_from(self.logs.len() - start)
            .map_err(|_| internal("a statement read more than 2^32 values"))?;
        let site = match pending {
            Pending::Stmt { site, .. } => site,
            Pending::If { site, version, .. } => {
                self.store.make_room(&mut self.versions, 1, span)?;
                self.versions.push(version);
                site
            }
            Pending::While(l) => {
                self.store.make_room(&mut self.loops, 1, span)?;
                self.loops.push(l);
                (self.site_of(l.stmt))
                    .ok_or_else(|| internal("a `while` test waits without its site"))?
            }
        };
        let depth = pending.depth();
        self.store.make_room(&mut self.waiting, 1, span)?;
        self.waiting.push(Parked { site, depth, reads });
        Ok(())
    }

    /// The pending statement parked last, taken back, with where its reads
    /// start in the log.
    fn unpark(&mut self) -> Result<(Pending<'p>, usize), Diagnostic> {
        let parked = (self.waiting.pop())
            .ok_or_else(|| internal("a call returned to no pending statement"))?;
        let start = (self.logs.len())
            .checked_sub(parked.reads as usize)
            .ok_or_else(|| internal("a pending statement's reads are gone"))?;
        let Parked { site, depth, .. } = parked;
        let pending = match self.site(site)?.stmt {
            Stmt::While { .. } => {
                let l = self.loops.pop();
                Pending::While(l.ok_or_else(|| internal("a `while` test parked without its loop"))?)
            }
            Stmt::If { .. } => {
                let version = self.versions.pop();
                let version =
                    version.ok_or_else(|| internal("an `if` parked without its version"))?;
                Pending::If {
                    site,
                    depth,
                    version,
                }
            }
            _ => Pending::Stmt { site, depth },
        };
        Ok((pending, start))
    }

    /// The call a pending statement waited for has returned: its value
    /// goes into the log, and the statement is evaluated again.
    pub(super) fn resume(&mut self) -> Result<(), Diagnostic> {
        let (pending, start) = self.unpark()?;
        let (def, _) = self.statement(&pending)?;
        let value = self.returned.take().ok_or_else(|| {
            internal(format!(
                "`{}` ended without a value where one was needed",
                self.def(def).name
            ))
        })?;
        let span = self.def(def).span;
        self.store.make_room(&mut self.logs.values, 1, span)?;
        self.logs.push(Some(value));
        self.pending(pending, start)
    }

    /// Runs the statement of `pending` with its expressions' `values`.
    fn carry_out(&mut self, pending: Pending<'p>, values: Values) -> Result<(), Diagnostic> {
        let (site, depth) = match (pending, &values) {
            (Pending::While(l), Values::Condition(c)) => return self.tested(l, *c),
            (
                Pending::If {
                    site,
                    depth,
                    version,
                },
                Values::Condition(c),
            ) => {
                let site = self.site(site)?;
                let block = Block {
                    def: site.def,
                    stmts: site.stmts,
                    next: site.next,
                    depth,
                    version,
                    last: site.last,
                };
                return self.branch(block, site.stmt, site.tail(), *c);
            }
            (Pending::Stmt { site, depth }, _) => (self.site(site)?, depth),
            _ => return Err(internal("a test's values do not fit it")),
        };
        let deeper = depth.saturating_add(1);
        match (site.stmt, values) {
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
                self.call_with(site.def, call.def, &values, deeper, call.span)
            }
            (Stmt::Return { .. }, Values::Positions(values)) => {
                self.return_from(site.def, depth, values.first().copied())
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

    /// Traces the end of a call of `def` at `depth`, with `value` or
    /// without, and the call's locals.
    pub(super) fn trace_return(&mut self, def: DefId, depth: u32, value: Option<i64>) {
        let name = &self.def(def).name;
        let mut line = match value {
            Some(value) => format!("{name} returns {value}"),
            None => format!("{name} returns"),
        };
        let pointers = &self.program.pointers;
        let locals: Vec<String> = (pointers.iter().zip(self.store.pointers()))
            .filter(|(p, _)| p.owner == Some(def))
            .filter_map(|(p, value)| {
                register_shown(&p.name).map(|shown| format!("{shown} = {value}"))
            })
            .collect();
        if !locals.is_empty() {
            line = format!("{line} · locals {}", locals.join(", "));
        }
        self.store.trace(depth, &line);
    }

    /// The frame at `frame` on the task stack has ended, with `value` or
    /// without: traces the locals of each traced call that ended with it
    /// (a call and the tail calls that shared its frame), but `returned`,
    /// the call whose `return` ended it, traced already.
    pub(super) fn trace_frame_end(
        &mut self,
        frame: usize,
        returned: Option<(DefId, u32)>,
        value: Option<i64>,
    ) {
        while let Some(&call) = self.traced.last()
            && call.frame >= frame
        {
            self.traced.pop();
            if returned != Some((call.def, call.depth)) {
                self.trace_return(call.def, call.depth, value);
            }
        }
    }

    /// `return` in `def` at `depth`, with `value` or without: ends the running
    /// call of its definition, up to its [`Ends::FRAME`], leaving what
    /// else the call's end does to run next.
    fn return_from(
        &mut self,
        def: DefId,
        depth: u32,
        value: Option<i64>,
    ) -> Result<(), Diagnostic> {
        if self.store.tracing() {
            self.trace_return(def, depth, value);
        }
        loop {
            match self.tasks.pop() {
                Some(Task::Ends(ends)) if ends.has(Ends::FRAME) => {
                    let frame = self.tasks.kinds.len();
                    self.trace_frame_end(frame, Some((def, depth)), value);
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

/// The sites of the statements of `program` whose own expressions call
/// definitions, and of its calls with arguments and `return`s: those the
/// machine evaluates as pending statements; sorted by address.
pub(super) fn sites(program: &Program) -> Vec<Site<'_>> {
    fn block<'p>(def: DefId, stmts: &'p [Stmt], last: bool, found: &mut Vec<Site<'p>>) {
        for (at, stmt) in stmts.iter().enumerate() {
            let mut calls = Vec::new();
            crate::program::calls::calls_in_statement(stmt, false, &mut calls);
            if !calls.is_empty() || matches!(stmt, Stmt::ParamCall(_) | Stmt::Return { .. }) {
                let next = at + 1;
                found.push(Site {
                    stmt,
                    def,
                    stmts,
                    next,
                    last,
                });
            }
            let tail = at + 1 == stmts.len();
            match stmt {
                Stmt::If {
                    then, otherwise, ..
                } => {
                    block(def, then, last && tail, found);
                    block(def, otherwise, last && tail, found);
                }
                Stmt::While { body, .. } => block(def, body, false, found),
                _ => {}
            }
        }
    }
    let mut found = Vec::new();
    for (def, d) in program.defs.iter().enumerate() {
        if let Body::Normal(stmts) = &d.body {
            block(def, stmts, true, &mut found);
        }
    }
    found.sort_unstable_by_key(|site| std::ptr::from_ref(site.stmt) as usize);
    found
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
