//! The registers an expression reads, in evaluation order.
//!
//! The checker's flow analyses (locals assigned before they are read,
//! registers shared across a recursive call) need every register that an
//! expression, a condition or a place's indices read, with where each is
//! written; this is that walk, once.

use super::{BoolExpr, Cell, Operand, PointerId, PosExpr, PosKind, SymExpr};
use crate::span::Span;

/// Calls `f` on each register `e` reads (arguments of calls inside it
/// included).
pub fn position(e: &PosExpr, f: &mut impl FnMut(PointerId, Span)) {
    match &e.kind {
        PosKind::Pointer(p) => f(*p, e.span),
        PosKind::Observe(_, at) | PosKind::Neg(at) => position(at, f),
        PosKind::Arith(_, a, b) => {
            position(a, f);
            position(b, f);
        }
        PosKind::Read(cell) => self::cell(cell, f),
        PosKind::Call(call) => call.args.iter().for_each(|a| position(a, f)),
        PosKind::Int(_) | PosKind::Last | PosKind::End | PosKind::Resume | PosKind::Hole(_) => {}
    }
}

/// [`position`] for the indices of a place.
pub fn cell(cell: &Cell, f: &mut impl FnMut(PointerId, Span)) {
    cell.at.iter().for_each(|e| position(e, f));
}

/// [`position`] for every side of a condition.
pub fn condition(condition: &BoolExpr, f: &mut impl FnMut(PointerId, Span)) {
    match condition {
        BoolExpr::Compare(_, a, b) => {
            operand(a, f);
            operand(b, f);
        }
        BoolExpr::Test(_, at) => position(at, f),
        BoolExpr::And(a, b) | BoolExpr::Or(a, b) => {
            self::condition(a, f);
            self::condition(b, f);
        }
        BoolExpr::Not(a) => self::condition(a, f),
        BoolExpr::Hole(..) => {}
    }
}

fn operand(operand: &Operand, f: &mut impl FnMut(PointerId, Span)) {
    match operand {
        Operand::Pos(e) => position(e, f),
        Operand::Val(v) => position(&v.at, f),
        Operand::Sym(SymExpr::Observe(_, at, _)) => position(at, f),
        Operand::Int(_) | Operand::End | Operand::Sym(SymExpr::Literal(..)) => {}
    }
}
