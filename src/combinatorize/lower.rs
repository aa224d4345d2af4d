//! Calls with parameters and results (language.md §5.1), lowered so that
//! the frames can run them.
//!
//! [`lower`] rewrites every normal program so that no expression holds a
//! call and every `return` is bare: a call inside an expression becomes a
//! call statement before the statement that uses its value, and `return e`
//! writes e to the hidden scalar `_0` before it returns; the caller reads
//! `_0` right after the call. What an expression evaluates before a later
//! call is kept in hidden registers (`_1`, `_2`, ..., shared by all
//! programs): calls with arguments put every register back, so each
//! activation keeps its own. An operand is kept as it is instead where the
//! later calls cannot change it and its evaluation cannot fail (a literal,
//! a register before calls that put registers back, a read of memory no
//! later call writes as a side of a comparison, where it may be END).
//! `and`/`or` with calls on the right become `if`s, a `while` test with
//! calls is evaluated before the loop and again at the end of its body,
//! and a call with arguments that read parameters set before them
//! evaluates them into hidden registers first. The hidden names are not
//! reported (`program::calls::hidden`). What stays refused (E0807): a
//! value held across a call without arguments (which shares the registers)
//! to a program that may hold values itself, and a read of memory compared
//! with the value of a later call that may write memory.

use super::walk::calls;
use crate::diagnostic::{Diagnostic, codes};
use crate::operators::{ArithOp, CompareOp};
use crate::program::calls::{act_positions, calls_in_statement, map_positions};
use crate::program::{
    Act, ActApp, ActArg, Body, BoolExpr, CallExpr, Cell, Data, DataId, DataKind, DefId, Operand,
    Pointer, PointerId, PosExpr, PosKind, Program, Stmt, ValExpr,
};
use crate::span::Span;

/// `program` with no call inside an expression and only bare `return`s,
/// or E0807 where that cannot be done exactly.
pub fn lower(program: &Program) -> Result<Program, Diagnostic> {
    let mut lowering = Lowering {
        program,
        writes: writes_memory(program),
        base: program.pointers.len(),
        temps: 0,
        next: 0,
        result: program.data.len(),
        returns: false,
        uses_temps: vec![false; program.defs.len()],
        shared: Vec::new(),
        def: 0,
        refusal: None,
    };
    let mut out = program.clone();
    for (id, def) in out.defs.iter_mut().enumerate() {
        if let Body::Normal(body) = &def.body {
            lowering.def = id;
            def.body = Body::Normal(lowering.block(body));
        }
    }
    if let Some(refusal) = lowering.refusal.take() {
        return Err(refusal);
    }
    lowering.shared_calls_are_safe(&out)?;
    for k in 1..=lowering.temps {
        out.pointers.push(Pointer {
            name: format!("_{k}"),
            init: int(0, Span::default()),
            span: Span::default(),
        });
    }
    if lowering.returns {
        out.data.push(Data {
            name: "_0".into(),
            span: Span::default(),
            kind: DataKind::Var {
                init: int(0, Span::default()),
            },
            dims: Vec::new(),
        });
    }
    Ok(out)
}

/// For each definition: whether running it may write declared memory
/// (any ACT of the environment but `OUT`, or a call of an applier).
fn writes_memory(program: &Program) -> Vec<bool> {
    let callees = |body: &[Stmt]| -> Vec<DefId> {
        let mut found: Vec<DefId> = (calls(body).into_iter())
            .filter_map(|stmt| match stmt {
                Stmt::Call(id, _) | Stmt::StateCall(id, _, _) => Some(*id),
                Stmt::ParamCall(call) => Some(call.def),
                _ => None,
            })
            .collect();
        every_statement(body, &mut |stmt| {
            let mut inside = Vec::new();
            calls_in_statement(stmt, false, &mut inside);
            found.extend(inside.iter().map(|call| call.def));
        });
        found
    };
    let own: Vec<(bool, Vec<DefId>)> = (program.defs.iter())
        .map(|def| match &def.body {
            Body::Normal(body) => {
                let mut writes = false;
                every_statement(body, &mut |stmt| {
                    writes |= matches!(stmt, Stmt::Act(ActApp { act: Act::Env(env), .. }) if env.name() != "OUT");
                });
                (writes, callees(body))
            }
            _ => (true, Vec::new()),
        })
        .collect();
    let mut writes: Vec<bool> = own.iter().map(|(w, _)| *w).collect();
    let mut changed = true;
    while changed {
        changed = false;
        for (id, (_, callees)) in own.iter().enumerate() {
            if !writes[id] && callees.iter().any(|&c| writes.get(c) == Some(&true)) {
                writes[id] = true;
                changed = true;
            }
        }
    }
    writes
}

/// Calls `f` on every statement of `stmts`, nested ones included.
fn every_statement(stmts: &[Stmt], f: &mut impl FnMut(&Stmt)) {
    for stmt in stmts {
        f(stmt);
        match stmt {
            Stmt::If {
                then, otherwise, ..
            } => {
                every_statement(then, f);
                every_statement(otherwise, f);
            }
            Stmt::While { body, .. } => every_statement(body, f),
            _ => {}
        }
    }
}

/// For each position of `act` (in the order of `act_positions`), whether
/// it comes after a place with indices, which the ACT checks before it.
fn after_a_place(act: &Act) -> Vec<bool> {
    let Act::Env(env) = act else {
        return vec![false; act_positions(act).len()];
    };
    let mut placed = false;
    let mut after = Vec::new();
    for arg in &env.args {
        match arg {
            ActArg::Position(_) => after.push(placed),
            ActArg::Place(cell) => {
                after.extend(cell.at.iter().map(|_| placed));
                placed |= !cell.at.is_empty();
            }
            _ => {}
        }
    }
    after
}

fn int(k: i64, span: Span) -> PosExpr {
    PosExpr {
        kind: PosKind::Int(k),
        span,
    }
}

fn register(p: PointerId, span: Span) -> PosExpr {
    PosExpr {
        kind: PosKind::Pointer(p),
        span,
    }
}

/// Where an expression stands, which decides how END and a call's value
/// read there.
#[derive(Clone, Copy, PartialEq)]
enum Place {
    /// In arithmetic, an index or an ACT's argument: END is an error.
    Position,
    /// A whole side of a comparison: a read of memory may be END, and a
    /// position outside the environment compares as END.
    Side,
}

/// The calls a part of a statement made, for deciding what an earlier
/// operand must be kept in.
#[derive(Clone, Copy, Default)]
struct Made {
    /// Some call.
    any: bool,
    /// A call without arguments, which shares the registers.
    shared: bool,
    /// A call that may write declared memory.
    writes: bool,
}

struct Lowering<'p> {
    program: &'p Program,
    writes: Vec<bool>,
    /// The first hidden register's number (`_1`).
    base: PointerId,
    /// How many hidden registers some statement needs.
    temps: usize,
    /// The next free hidden register of the statement being lowered.
    next: usize,
    /// The hidden scalar `_0`'s number.
    result: DataId,
    /// Whether some `return` has a value (and `_0` is declared).
    returns: bool,
    /// For each definition, whether its statements use hidden registers.
    uses_temps: Vec<bool>,
    /// Calls without arguments made by a statement that uses hidden
    /// registers: (caller, callee, the call).
    shared: Vec<(DefId, DefId, Span)>,
    /// The definition being lowered.
    def: DefId,
    refusal: Option<Diagnostic>,
}

impl Lowering<'_> {
    /// Lowers a block: each statement starts with every hidden register
    /// free, as values are held only within a statement.
    fn block(&mut self, stmts: &[Stmt]) -> Vec<Stmt> {
        let mut out = Vec::new();
        for stmt in stmts {
            self.next = 0;
            self.stmt(stmt, &mut out, &mut Made::default());
        }
        out
    }

    /// Lowers one statement onto `out`.
    fn stmt(&mut self, stmt: &Stmt, out: &mut Vec<Stmt>, made: &mut Made) {
        match stmt {
            Stmt::Act(app) => {
                let positions: Vec<PosExpr> =
                    act_positions(&app.act).into_iter().cloned().collect();
                let mut lowered = self.operands(&positions, out, made);
                if made.any {
                    // With calls, the program as written evaluates every
                    // position before the ACT applies, where the ACT checks
                    // a place (`A[i]`) before it evaluates what follows:
                    // arithmetic after a place, which may fail, is
                    // evaluated first, in order.
                    let after = after_a_place(&app.act);
                    for (e, _) in lowered.iter_mut().zip(after).filter(|(_, a)| *a) {
                        if matches!(e.kind, PosKind::Arith(..) | PosKind::Neg(_)) {
                            self.hoist(e, out);
                        }
                    }
                }
                let mut values = lowered.into_iter();
                let act = map_positions(&app.act, &mut |e| {
                    values.next().unwrap_or_else(|| e.clone())
                });
                out.push(Stmt::Act(ActApp {
                    act,
                    span: app.span,
                }));
            }
            Stmt::StateCall(id, args, span) => {
                let args = self.operands(args, out, made);
                out.push(Stmt::StateCall(*id, args, *span));
            }
            Stmt::ParamCall(call) => {
                let call = self.call_args(call, out, made);
                out.push(Stmt::ParamCall(call));
            }
            Stmt::Return { value, span } => {
                if let Some(value) = value {
                    let value = self.expr(value, Place::Position, out, made);
                    self.returns = true;
                    let cell = self.result_cell(*span);
                    let act = crate::env::build_act(
                        self.program.env,
                        "WRITE",
                        vec![ActArg::Place(cell), ActArg::Position(value)],
                    );
                    match act {
                        Some(act) => out.push(Stmt::Act(ActApp { act, span: *span })),
                        None => self.refuse(*span, "`return` with a value outside `ram`"),
                    }
                }
                out.push(Stmt::Return {
                    value: None,
                    span: *span,
                });
            }
            Stmt::If {
                condition,
                then,
                otherwise,
                span,
            } => {
                let condition = self.condition(condition, out, made);
                let (then, otherwise) = (self.block(then), self.block(otherwise));
                out.push(Stmt::If {
                    condition,
                    then,
                    otherwise,
                    span: *span,
                });
            }
            Stmt::While {
                condition,
                body,
                span,
            } => {
                let mut test = Vec::new();
                let condition = self.condition(condition, &mut test, made);
                out.extend(test.iter().cloned());
                let mut body = self.block(body);
                body.extend(test);
                out.push(Stmt::While {
                    condition,
                    body,
                    span: *span,
                });
            }
            Stmt::Call(..) | Stmt::Pass(_) => out.push(stmt.clone()),
        }
    }

    /// `_0`, where a `return` leaves its value.
    fn result_cell(&self, span: Span) -> Cell {
        Cell {
            data: self.result,
            name: "_0".into(),
            at: Vec::new(),
            span,
        }
    }

    fn refuse(&mut self, span: Span, what: &str) {
        if self.refusal.is_none() {
            self.refusal = Some(
                Diagnostic::error(codes::E0807, format!("{what} cannot run on the network"))
                    .with_label(span, "not run on the network")
                    .with_help("run it with `--symbolic`, the exact reference interpreter"),
            );
        }
    }

    /// Evaluates `e` into a fresh hidden register before what follows
    /// (a `SET` onto `out`), and leaves the register in its place.
    fn hoist(&mut self, e: &mut PosExpr, out: &mut Vec<Stmt>) {
        let t = self.temp();
        let span = e.span;
        let value = std::mem::replace(e, register(t, span));
        out.push(Stmt::Act(ActApp {
            act: Act::Set(t, value),
            span,
        }));
    }

    /// A hidden register of the statement being lowered.
    fn temp(&mut self) -> PointerId {
        self.uses_temps[self.def] = true;
        self.next += 1;
        self.temps = self.temps.max(self.next);
        self.base + self.next - 1
    }

    /// Expressions evaluated left to right (positions of an ACT, arguments
    /// of a call, operands): each lowered, and kept in a hidden register
    /// where a later one makes a call that could change it.
    fn operands(
        &mut self,
        exprs: &[PosExpr],
        out: &mut Vec<Stmt>,
        made: &mut Made,
    ) -> Vec<PosExpr> {
        let items: Vec<(Place, &PosExpr)> = exprs.iter().map(|e| (Place::Position, e)).collect();
        self.sequence(&items, out, made)
    }

    /// [`Self::operands`] with a place for each.
    fn sequence(
        &mut self,
        items: &[(Place, &PosExpr)],
        out: &mut Vec<Stmt>,
        made: &mut Made,
    ) -> Vec<PosExpr> {
        let mut lowered = Vec::with_capacity(items.len());
        let mut marks = Vec::with_capacity(items.len());
        let mut mades = Vec::with_capacity(items.len());
        for &(place, e) in items {
            marks.push(out.len());
            let mut here = Made::default();
            lowered.push(self.expr(e, place, out, &mut here));
            join(made, here);
            mades.push(here);
        }
        // Each operand is kept before the statements of those after it;
        // the last first, so that the earlier places to insert at stay.
        let mut after = Made::default();
        for i in (0..items.len()).rev() {
            if let (Some(&next), Some(&more)) = (marks.get(i + 1), mades.get(i + 1)) {
                join(&mut after, more);
                if after.any {
                    let e = std::mem::replace(&mut lowered[i], int(0, Span::default()));
                    lowered[i] = self.keep(e, items[i].0, after, out, next);
                }
            }
        }
        lowered
    }

    /// `e`, evaluated where `out` is at `at`, as it must be read after
    /// the calls `after` made: as it is where they cannot change it and
    /// it cannot fail, else the hidden register it is copied to there.
    fn keep(
        &mut self,
        e: PosExpr,
        place: Place,
        after: Made,
        out: &mut Vec<Stmt>,
        at: usize,
    ) -> PosExpr {
        match &e.kind {
            PosKind::Int(_) | PosKind::Last | PosKind::End | PosKind::Resume => return e,
            PosKind::Pointer(_) if !after.shared => return e,
            PosKind::Read(cell) if place == Place::Side && cell.data != self.result => {
                if after.writes {
                    self.refuse(
                        e.span,
                        "a read of memory compared with the value of a later call that may write memory",
                    );
                    return e;
                }
                let mut cell = (**cell).clone();
                let indices = std::mem::take(&mut cell.at);
                for index in indices {
                    let kept = self.keep(index, Place::Position, after, out, at);
                    cell.at.push(kept);
                }
                return PosExpr {
                    kind: PosKind::Read(Box::new(cell)),
                    span: e.span,
                };
            }
            _ => {}
        }
        let t = self.temp();
        let span = e.span;
        let set = ActApp {
            act: Act::Set(t, e),
            span,
        };
        out.insert(at.min(out.len()), Stmt::Act(set));
        register(t, span)
    }

    /// `e` with no call inside: the calls go to `out`, in order.
    fn expr(&mut self, e: &PosExpr, place: Place, out: &mut Vec<Stmt>, made: &mut Made) -> PosExpr {
        let span = e.span;
        let kind = match &e.kind {
            PosKind::Int(_)
            | PosKind::Pointer(_)
            | PosKind::Last
            | PosKind::End
            | PosKind::Resume => return e.clone(),
            PosKind::Observe(o, at) => {
                PosKind::Observe(o, Box::new(self.expr(at, Place::Position, out, made)))
            }
            PosKind::Neg(a) => PosKind::Neg(Box::new(self.expr(a, Place::Position, out, made))),
            PosKind::Arith(op, a, b) => {
                let items = [(Place::Position, &**a), (Place::Position, &**b)];
                let mut both = self.sequence(&items, out, made).into_iter();
                let (a, b) = (both.next(), both.next());
                match (a, b) {
                    (Some(a), Some(b)) => PosKind::Arith(*op, Box::new(a), Box::new(b)),
                    _ => return e.clone(),
                }
            }
            PosKind::Read(cell) => {
                let at = self.operands(&cell.at, out, made);
                PosKind::Read(Box::new(Cell {
                    at,
                    ..(**cell).clone()
                }))
            }
            PosKind::Call(call) => {
                let call = self.call_args(call, out, made);
                let callee = call.def;
                let shared = (self.program.defs.get(callee)).is_none_or(|d| d.params.is_empty());
                join(
                    made,
                    Made {
                        any: true,
                        shared,
                        writes: self.writes.get(callee) != Some(&false),
                    },
                );
                if shared {
                    self.shared.push((self.def, callee, call.span));
                    out.push(Stmt::Call(callee, call.span));
                } else {
                    out.push(Stmt::ParamCall(call));
                }
                let value = PosExpr {
                    kind: PosKind::Read(Box::new(self.result_cell(span))),
                    span,
                };
                return match place {
                    Place::Position => value,
                    // A call's value compares as a position, a read of
                    // memory as a value: `_0 + 0` is the former.
                    Place::Side => PosExpr {
                        kind: PosKind::Arith(ArithOp::Add, Box::new(value), Box::new(int(0, span))),
                        span,
                    },
                };
            }
        };
        PosExpr { kind, span }
    }

    /// A call with its arguments lowered. The frames set the parameters
    /// one by one after the call saves the registers, so where an
    /// argument reads a parameter set before it, all are evaluated into
    /// hidden registers first.
    fn call_args(&mut self, call: &CallExpr, out: &mut Vec<Stmt>, made: &mut Made) -> CallExpr {
        let mut args = self.operands(&call.args, out, made);
        let params = (self.program.defs.get(call.def)).map_or(&[][..], |d| &d.params[..]);
        let clash = (1..args.len()).any(|j| {
            let set_before = &params[..j.min(params.len())];
            reads_any(&args[j], set_before)
        });
        if clash {
            for arg in &mut args {
                if !matches!(arg.kind, PosKind::Int(_)) {
                    self.hoist(arg, out);
                }
            }
        }
        CallExpr {
            args,
            ..call.clone()
        }
    }

    /// `condition` with no call inside: the calls go to `out`; the right
    /// of an `and` or `or` that makes calls becomes an `if`, whose answer
    /// a hidden register holds.
    fn condition(
        &mut self,
        condition: &BoolExpr,
        out: &mut Vec<Stmt>,
        made: &mut Made,
    ) -> BoolExpr {
        match condition {
            BoolExpr::Compare(op, a, b) => {
                let (pa, pb) = (side(a), side(b));
                let items: Vec<(Place, &PosExpr)> =
                    pa.iter().chain(&pb).map(|(place, e)| (*place, e)).collect();
                let mut lowered = self.sequence(&items, out, made).into_iter();
                let a = rebuilt(a, pa.is_some().then(|| lowered.next()).flatten());
                let b = rebuilt(b, pb.is_some().then(|| lowered.next()).flatten());
                BoolExpr::Compare(*op, a, b)
            }
            BoolExpr::Test(o, at) => BoolExpr::Test(o, self.expr(at, Place::Position, out, made)),
            BoolExpr::Not(a) => BoolExpr::Not(Box::new(self.condition(a, out, made))),
            BoolExpr::And(a, b) | BoolExpr::Or(a, b) => {
                let a = self.condition(a, out, made);
                let mut right = Vec::new();
                let b = self.condition(b, &mut right, made);
                if right.is_empty() {
                    return match condition {
                        BoolExpr::And(..) => BoolExpr::And(Box::new(a), Box::new(b)),
                        _ => BoolExpr::Or(Box::new(a), Box::new(b)),
                    };
                }
                let t = self.temp();
                let span = Span::default();
                let set = |k: i64| {
                    vec![Stmt::Act(ActApp {
                        act: Act::Set(t, int(k, span)),
                        span,
                    })]
                };
                right.push(Stmt::If {
                    condition: b,
                    then: set(1),
                    otherwise: set(0),
                    span,
                });
                let (then, otherwise) = match condition {
                    BoolExpr::And(..) => (right, set(0)),
                    _ => (set(1), right),
                };
                out.push(Stmt::If {
                    condition: a,
                    then,
                    otherwise,
                    span,
                });
                BoolExpr::Compare(
                    CompareOp::Eq,
                    Operand::Pos(register(t, span)),
                    Operand::Int(1),
                )
            }
        }
    }

    /// E0807 where a value is held in a hidden register across a call
    /// without arguments that may run code using hidden registers itself.
    fn shared_calls_are_safe(&mut self, lowered: &Program) -> Result<(), Diagnostic> {
        for (caller, callee, span) in std::mem::take(&mut self.shared) {
            if !self.uses_temps[caller] {
                continue;
            }
            let mut seen = vec![false; lowered.defs.len()];
            let mut todo = vec![callee];
            while let Some(id) = todo.pop() {
                match seen.get_mut(id) {
                    Some(s) if !*s => *s = true,
                    _ => continue,
                }
                if self.uses_temps[id] {
                    self.refuse(
                        span,
                        "a call without arguments, inside an expression that holds values across it, to a program that holds values itself",
                    );
                    break;
                }
                if let Some(Body::Normal(body)) = lowered.defs.get(id).map(|d| &d.body) {
                    todo.extend(calls(body).into_iter().filter_map(|s| match s {
                        Stmt::Call(id, _) => Some(*id),
                        _ => None,
                    }));
                }
            }
        }
        self.refusal.take().map_or(Ok(()), Err)
    }
}

/// A side of a comparison as an expression to lower, if it has one.
fn side(operand: &Operand) -> Option<(Place, PosExpr)> {
    match operand {
        Operand::Int(_) | Operand::End | Operand::Sym(crate::program::SymExpr::Literal(..)) => None,
        Operand::Pos(e) => Some((Place::Side, e.clone())),
        Operand::Val(v) => Some((Place::Position, v.at.clone())),
        Operand::Sym(crate::program::SymExpr::Observe(_, at, _)) => {
            Some((Place::Position, at.clone()))
        }
    }
}

/// `operand` with its expression replaced by `lowered`.
fn rebuilt(operand: &Operand, lowered: Option<PosExpr>) -> Operand {
    let Some(e) = lowered else {
        return operand.clone();
    };
    match operand {
        Operand::Pos(_) => Operand::Pos(e),
        Operand::Val(v) => Operand::Val(ValExpr { at: e, ..v.clone() }),
        Operand::Sym(crate::program::SymExpr::Observe(o, _, span)) => {
            Operand::Sym(crate::program::SymExpr::Observe(o, e, *span))
        }
        other => other.clone(),
    }
}

/// Whether `e` reads one of `pointers`.
fn reads_any(e: &PosExpr, pointers: &[PointerId]) -> bool {
    match &e.kind {
        PosKind::Pointer(p) => pointers.contains(p),
        PosKind::Int(_) | PosKind::Last | PosKind::End | PosKind::Resume => false,
        PosKind::Observe(_, a) | PosKind::Neg(a) => reads_any(a, pointers),
        PosKind::Arith(_, a, b) => reads_any(a, pointers) || reads_any(b, pointers),
        PosKind::Read(cell) => cell.at.iter().any(|i| reads_any(i, pointers)),
        PosKind::Call(call) => call.args.iter().any(|a| reads_any(a, pointers)),
    }
}

/// `made` and then `more`.
fn join(made: &mut Made, more: Made) {
    made.any |= more.any;
    made.shared |= more.shared;
    made.writes |= more.writes;
}
