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
//! later call writes as a side of a comparison, where it may be END). A
//! side of a comparison that reads memory before a later call that may
//! write it is held as a copy where the cell is inside its data, and read
//! again, as END, where it is not (arrays keep their lengths).
//! `and`/`or` with calls on the right become `if`s, a `while` test with
//! calls is evaluated before the loop and again at the end of its body,
//! and a call with arguments that read parameters set before them
//! evaluates them into hidden registers first. A call without arguments
//! that would overwrite what its caller holds runs on a frame of its own
//! (`apart`). The hidden names are not reported
//! (`program::hidden::hidden`).

use super::walk::{calls, target};
use crate::diagnostic::Diagnostic;
use crate::operators::{ArithOp, CompareOp};
use crate::program::calls::{act_positions, calls_in_statement, map_positions};
use crate::program::{
    Act, ActApp, ActArg, Body, BoolExpr, CallExpr, Cell, Data, DataId, DataKind, DefId, Operand,
    Pointer, PointerId, PosExpr, PosKind, Program, Stmt, ValExpr,
};
use crate::span::Span;

/// `program` with no call inside an expression and only bare `return`s
/// (an internal error if the checker let a value through outside `ram`).
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
        held: Vec::new(),
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
    for k in 1..=lowering.temps {
        out.pointers.push(Pointer {
            name: format!("_{k}"),
            init: PosExpr::int(0, Span::default()),
            span: Span::default(),
            owner: None,
        });
    }
    if lowering.returns {
        out.data.push(Data {
            name: "_0".into(),
            span: Span::default(),
            kind: DataKind::Var {
                init: PosExpr::int(0, Span::default()),
            },
            dims: Vec::new(),
        });
    }
    let first = lowering.temps + 1;
    super::apart::apart(&mut out, &lowering.shared, &lowering.uses_temps, first);
    Ok(out)
}

/// For each definition: whether running it may write declared memory
/// (any ACT of the environment but `OUT`, or a call of an applier).
fn writes_memory(program: &Program) -> Vec<bool> {
    let callees = |body: &[Stmt]| -> Vec<DefId> {
        let mut found: Vec<DefId> = calls(body).into_iter().filter_map(target).collect();
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
    /// Calls without arguments inside expressions: (caller, callee, the
    /// call), for `apart`.
    shared: Vec<(DefId, DefId, Span)>,
    /// The definition being lowered.
    def: DefId,
    /// The reads of memory held by the statement being lowered
    /// ([`Self::hold`]): each hidden register and the cell it copies.
    held: Vec<(PointerId, Cell)>,
    refusal: Option<Diagnostic>,
}

impl Lowering<'_> {
    /// Lowers a block: each statement starts with every hidden register
    /// free, as values are held only within a statement.
    fn block(&mut self, stmts: &[Stmt]) -> Vec<Stmt> {
        let mut out = Vec::new();
        for stmt in stmts {
            self.next = 0;
            self.held.clear();
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
                        // The checker allows values only in `ram`.
                        None => {
                            let detail = "a `return` with a value outside `ram`".to_string();
                            self.refusal.get_or_insert(super::errors::internal(detail));
                        }
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
            Stmt::Call(..) | Stmt::Pass(_) | Stmt::Hole(..) => out.push(stmt.clone()),
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

    /// Evaluates `e` into a fresh hidden register before what follows
    /// (a `SET` onto `out`), and leaves the register in its place.
    fn hoist(&mut self, e: &mut PosExpr, out: &mut Vec<Stmt>) {
        let t = self.temp();
        let span = e.span;
        let value = std::mem::replace(e, PosExpr::pointer(t, span));
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
                    let e = std::mem::replace(&mut lowered[i], PosExpr::int(0, Span::default()));
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
            PosKind::Int(_) | PosKind::Last | PosKind::End | PosKind::Resume | PosKind::Hole(_) => {
                return e;
            }
            PosKind::Pointer(_) if !after.shared => return e,
            PosKind::Read(cell) if place == Place::Side && cell.data != self.result => {
                let mut cell = (**cell).clone();
                let mut at = at;
                for index in std::mem::take(&mut cell.at) {
                    let len = out.len();
                    let kept = self.keep(index, Place::Position, after, out, at);
                    at += out.len() - len;
                    cell.at.push(kept);
                }
                let read = PosExpr {
                    kind: PosKind::Read(Box::new(cell.clone())),
                    span: e.span,
                };
                if !after.writes {
                    return read;
                }
                if !cell.at.is_empty() {
                    return self.hold(cell, out, at);
                }
                // A scalar always holds a number: copied as any value.
                return self.copy(read, out, at);
            }
            _ => {}
        }
        self.copy(e, out, at)
    }

    /// A hidden register `e` is copied to where `out` is at `at`.
    fn copy(&mut self, e: PosExpr, out: &mut Vec<Stmt>, at: usize) -> PosExpr {
        let t = self.temp();
        let span = e.span;
        let set = ActApp {
            act: Act::Set(t, e),
            span,
        };
        out.insert(at.min(out.len()), Stmt::Act(set));
        PosExpr::pointer(t, span)
    }

    /// A side of a comparison that reads `cell` (its indices kept) before
    /// a later call that may write memory, held where `out` is at `at`:
    /// a hidden register copies the value if the cell is inside its data.
    /// Arrays keep their lengths, so after the call the cell is outside
    /// exactly when it read as END; [`Self::held_comparison`] then reads
    /// it again, as END, and else compares the copy.
    fn hold(&mut self, cell: Cell, out: &mut Vec<Stmt>, at: usize) -> PosExpr {
        let t = self.temp();
        let span = cell.span;
        let read = PosExpr {
            kind: PosKind::Read(Box::new(cell.clone())),
            span,
        };
        let copy = Stmt::If {
            condition: BoolExpr::Compare(CompareOp::Ne, Operand::Pos(read.clone()), Operand::End),
            then: vec![Stmt::Act(ActApp {
                act: Act::Set(t, read),
                span,
            })],
            otherwise: Vec::new(),
            span,
        };
        out.insert(at.min(out.len()), copy);
        self.held.push((t, cell));
        PosExpr::pointer(t, span)
    }

    /// `e` with no call inside: the calls go to `out`, in order.
    fn expr(&mut self, e: &PosExpr, place: Place, out: &mut Vec<Stmt>, made: &mut Made) -> PosExpr {
        let span = e.span;
        let kind = match &e.kind {
            PosKind::Int(_)
            | PosKind::Pointer(_)
            | PosKind::Last
            | PosKind::End
            | PosKind::Resume
            | PosKind::Hole(_) => return e.clone(),
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
                        kind: PosKind::Arith(
                            ArithOp::Add,
                            Box::new(value),
                            Box::new(PosExpr::int(0, span)),
                        ),
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
                self.held_comparison(*op, a, b, out)
            }
            BoolExpr::Test(o, at) => BoolExpr::Test(o, self.expr(at, Place::Position, out, made)),
            BoolExpr::Not(a) => BoolExpr::Not(Box::new(self.condition(a, out, made))),
            BoolExpr::Hole(..) => condition.clone(),
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
                right.push(answer(t, b));
                let (then, otherwise) = match condition {
                    BoolExpr::And(..) => (right, vec![set(t, 0)]),
                    _ => (vec![set(t, 1)], right),
                };
                out.push(Stmt::If {
                    condition: a,
                    then,
                    otherwise,
                    span: Span::default(),
                });
                is_one(t)
            }
        }
    }

    /// `a op b`, or where `a` is a read held across the calls of `b`
    /// ([`Self::hold`]), a hidden register set to its answer: the cell
    /// read again where it is outside its data (END), else the copy,
    /// compared with `b`.
    fn held_comparison(
        &mut self,
        op: CompareOp,
        a: Operand,
        b: Operand,
        out: &mut Vec<Stmt>,
    ) -> BoolExpr {
        let held = match &a {
            Operand::Pos(PosExpr {
                kind: PosKind::Pointer(p),
                ..
            }) => self
                .held
                .iter()
                .find(|(t, _)| t == p)
                .map(|(_, cell)| cell.clone()),
            _ => None,
        };
        let Some(cell) = held else {
            return BoolExpr::Compare(op, a, b);
        };
        let span = cell.span;
        let read = Operand::Pos(PosExpr {
            span,
            kind: PosKind::Read(Box::new(cell)),
        });
        let t = self.temp();
        out.push(Stmt::If {
            condition: BoolExpr::Compare(CompareOp::Eq, read.clone(), Operand::End),
            then: vec![answer(t, BoolExpr::Compare(op, read, b.clone()))],
            otherwise: vec![answer(t, BoolExpr::Compare(op, a, b))],
            span,
        });
        is_one(t)
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
        PosKind::Int(_) | PosKind::Last | PosKind::End | PosKind::Resume | PosKind::Hole(_) => {
            false
        }
        PosKind::Observe(_, a) | PosKind::Neg(a) => reads_any(a, pointers),
        PosKind::Arith(_, a, b) => reads_any(a, pointers) || reads_any(b, pointers),
        PosKind::Read(cell) => cell.at.iter().any(|i| reads_any(i, pointers)),
        PosKind::Call(call) => call.args.iter().any(|a| reads_any(a, pointers)),
    }
}

/// `SET(t, k)`.
fn set(t: PointerId, k: i64) -> Stmt {
    let span = Span::default();
    Stmt::Act(ActApp {
        act: Act::Set(t, PosExpr::int(k, span)),
        span,
    })
}

/// `t` set to 1 if `condition` holds, else to 0.
fn answer(t: PointerId, condition: BoolExpr) -> Stmt {
    Stmt::If {
        condition,
        then: vec![set(t, 1)],
        otherwise: vec![set(t, 0)],
        span: Span::default(),
    }
}

/// `t == 1`.
fn is_one(t: PointerId) -> BoolExpr {
    let at = PosExpr::pointer(t, Span::default());
    BoolExpr::Compare(CompareOp::Eq, Operand::Pos(at), Operand::Int(1))
}

/// `made` and then `more`.
fn join(made: &mut Made, more: Made) {
    made.any |= more.any;
    made.shared |= more.shared;
    made.writes |= more.writes;
}
