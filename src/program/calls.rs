//! Calls with parameters and results (language.md §5.1), found in a
//! checked program.
//!
//! A definition with parameters, a `return`, a call with arguments to it
//! ([`Stmt::ParamCall`]) and a call inside an expression
//! ([`PosKind::Call`]) are the constructs of §5.1. [`calls_in_position`] and
//! its neighbours list the calls an expression or a statement makes, in
//! the order they are evaluated; [`first_use`] finds the first use of any
//! of these constructs (the conversion to combinatory form lowers such
//! programs before it puts them on frames).

use super::{Act, ActArg, BoolExpr, CallExpr, Operand, PosExpr, PosKind, Program, Stmt, SymExpr};
use crate::span::Span;

/// Every call inside `expr`, outermost last (an argument's calls run before
/// the call it is an argument of), left to right.
pub fn calls_in_position<'p>(expr: &'p PosExpr, found: &mut Vec<&'p CallExpr>) {
    match &expr.kind {
        PosKind::Int(_)
        | PosKind::Pointer(_)
        | PosKind::Last
        | PosKind::End
        | PosKind::Resume
        | PosKind::Hole(_) => {}
        PosKind::Observe(_, at) | PosKind::Neg(at) => calls_in_position(at, found),
        PosKind::Arith(_, a, b) => {
            calls_in_position(a, found);
            calls_in_position(b, found);
        }
        PosKind::Read(cell) => cell.at.iter().for_each(|e| calls_in_position(e, found)),
        PosKind::Call(call) => {
            call.args.iter().for_each(|e| calls_in_position(e, found));
            found.push(call);
        }
    }
}

/// Every call a condition may make, left to right. With `certain`, only
/// those it makes whenever it is evaluated: not those on the right of an
/// `and` or an `or`, which short-circuit.
pub fn calls_in_condition<'p>(
    condition: &'p BoolExpr,
    certain: bool,
    found: &mut Vec<&'p CallExpr>,
) {
    match condition {
        BoolExpr::Compare(_, a, b) => {
            calls_in_operand(a, found);
            calls_in_operand(b, found);
        }
        BoolExpr::Test(_, at) => calls_in_position(at, found),
        BoolExpr::And(a, b) | BoolExpr::Or(a, b) => {
            calls_in_condition(a, certain, found);
            if !certain {
                calls_in_condition(b, certain, found);
            }
        }
        BoolExpr::Not(a) => calls_in_condition(a, certain, found),
        BoolExpr::Hole(..) => {}
    }
}

fn calls_in_operand<'p>(operand: &'p Operand, found: &mut Vec<&'p CallExpr>) {
    match operand {
        Operand::Int(_) | Operand::End | Operand::Sym(SymExpr::Literal(..)) => {}
        Operand::Pos(e) | Operand::Sym(SymExpr::Observe(_, e, _)) => calls_in_position(e, found),
        Operand::Val(v) => calls_in_position(&v.at, found),
    }
}

/// The positions an ACT evaluates, in order: a written place's indices
/// before the value written.
pub fn act_positions(act: &Act) -> Vec<&PosExpr> {
    match act {
        Act::Nop | Act::Move(..) => Vec::new(),
        Act::Set(_, e) => vec![e],
        Act::Push(exprs) | Act::Frame(_, exprs) => exprs.iter().collect(),
        Act::Env(act) => act
            .args
            .iter()
            .flat_map(|arg| match arg {
                ActArg::Position(e) => vec![e],
                ActArg::Place(cell) => cell.at.iter().collect(),
                ActArg::Pointer(_) | ActArg::Direction(_) | ActArg::Color(_) | ActArg::Ok => {
                    Vec::new()
                }
            })
            .collect(),
    }
}

/// `act` with each position it evaluates replaced by `f` of it, in the
/// order of [`act_positions`].
pub fn map_positions(act: &Act, f: &mut impl FnMut(&PosExpr) -> PosExpr) -> Act {
    match act {
        Act::Nop | Act::Move(..) => act.clone(),
        Act::Set(p, e) => Act::Set(*p, f(e)),
        Act::Push(exprs) => Act::Push(exprs.iter().map(f).collect()),
        Act::Frame(op, exprs) => Act::Frame(*op, exprs.iter().map(f).collect()),
        Act::Env(env) => {
            let mut env = env.clone();
            for arg in &mut env.args {
                match arg {
                    ActArg::Position(e) => *e = f(e),
                    ActArg::Place(cell) => {
                        for index in &mut cell.at {
                            *index = f(index);
                        }
                    }
                    ActArg::Pointer(_) | ActArg::Direction(_) | ActArg::Color(_) | ActArg::Ok => {}
                }
            }
            Act::Env(env)
        }
    }
}

/// The calls inside the expressions of `stmt` itself (not of the blocks
/// it holds), in evaluation order; with `certain`, only those made
/// whenever the statement runs. A call statement's own call is not
/// included.
pub fn calls_in_statement<'p>(stmt: &'p Stmt, certain: bool, found: &mut Vec<&'p CallExpr>) {
    match stmt {
        Stmt::Act(app) => {
            for e in act_positions(&app.act) {
                calls_in_position(e, found);
            }
        }
        Stmt::StateCall(_, args, _) => args.iter().for_each(|e| calls_in_position(e, found)),
        Stmt::ParamCall(call) => call.args.iter().for_each(|e| calls_in_position(e, found)),
        Stmt::Return {
            value: Some(value), ..
        } => calls_in_position(value, found),
        Stmt::If { condition, .. } | Stmt::While { condition, .. } => {
            calls_in_condition(condition, certain, found);
        }
        Stmt::Call(..) | Stmt::Pass(_) | Stmt::Hole(..) | Stmt::Return { value: None, .. } => {}
    }
}

/// Where `program` first uses a construct of §5.1 (parameters, `return`,
/// a call with arguments to a definition with parameters, a call inside an
/// expression), and which.
pub fn first_use(program: &Program) -> Option<(Span, &'static str)> {
    program.defs.iter().find_map(|def| {
        if !def.params.is_empty() {
            return Some((def.span, "a definition with parameters"));
        }
        match &def.body {
            super::Body::Normal(block) => first_in_block(block),
            _ => None,
        }
    })
}

fn first_in_block(block: &[Stmt]) -> Option<(Span, &'static str)> {
    block.iter().find_map(|stmt| {
        let mut calls = Vec::new();
        calls_in_statement(stmt, false, &mut calls);
        if let Some(call) = calls.first() {
            return Some((call.span, "a call inside an expression"));
        }
        match stmt {
            Stmt::Return { span, .. } => Some((*span, "`return`")),
            Stmt::ParamCall(call) => Some((call.span, "a call with arguments")),
            Stmt::If {
                then, otherwise, ..
            } => first_in_block(then).or_else(|| first_in_block(otherwise)),
            Stmt::While { body, .. } => first_in_block(body),
            _ => None,
        }
    })
}
