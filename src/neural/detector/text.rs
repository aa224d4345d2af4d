//! The canonical text of a condition: how detectors are named in traces,
//! `.cnpim` metadata and the classifier cache.
//!
//! It is the condition as a user writes it (`A[P1] > A[P2]`,
//! `color(v) == WHITE`), rebuilt from the checked program with the pointers'
//! names, with parentheses only where precedence needs them, so two
//! spellings of one condition share a cache entry.

use crate::program::{BoolExpr, Operand, Pointer, SymExpr, ValueObservation};
use crate::symbolic::trace::{color_name, position};
use crate::syntax::ast::CompareOp;

/// `lo < hi and not has_child(v)`.
pub fn condition_text(condition: &BoolExpr, pointers: &[Pointer]) -> String {
    let mut out = String::new();
    write(condition, pointers, 0, &mut out);
    out
}

/// How tightly a condition binds: `or` 1, `and` 2, `not` 3, leaves 4.
fn precedence(condition: &BoolExpr) -> u8 {
    match condition {
        BoolExpr::Or(..) => 1,
        BoolExpr::And(..) => 2,
        BoolExpr::Not(_) => 3,
        BoolExpr::Compare(..) | BoolExpr::HasChild(_) => 4,
    }
}

fn write(condition: &BoolExpr, pointers: &[Pointer], outer: u8, out: &mut String) {
    let own = precedence(condition);
    let parens = own < outer;
    if parens {
        out.push('(');
    }
    match condition {
        BoolExpr::Or(a, b) | BoolExpr::And(a, b) => {
            write(a, pointers, own, out);
            out.push_str(if own == 1 { " or " } else { " and " });
            // Both associate to the left.
            write(b, pointers, own + 1, out);
        }
        BoolExpr::Not(a) => {
            out.push_str("not ");
            write(a, pointers, own, out);
        }
        BoolExpr::Compare(op, lhs, rhs) => {
            out.push_str(&operand(lhs, pointers));
            out.push_str(match op {
                CompareOp::Eq => " == ",
                CompareOp::Ne => " != ",
                CompareOp::Lt => " < ",
                CompareOp::Le => " <= ",
                CompareOp::Gt => " > ",
                CompareOp::Ge => " >= ",
            });
            out.push_str(&operand(rhs, pointers));
        }
        BoolExpr::HasChild(v) => out.push_str(&format!("has_child({})", position(v, pointers))),
    }
    if parens {
        out.push(')');
    }
}

fn operand(operand: &Operand, pointers: &[Pointer]) -> String {
    match operand {
        Operand::Int(k) => k.to_string(),
        Operand::End => "END".into(),
        Operand::Pos(e) => position(e, pointers),
        Operand::Val(v) => {
            let at = position(&v.at, pointers);
            match v.observation {
                ValueObservation::Array => format!("A[{at}]"),
                ValueObservation::DigitA => format!("a({at})"),
                ValueObservation::DigitB => format!("b({at})"),
                ValueObservation::Carry => format!("carry({at})"),
                ValueObservation::Out => format!("out({at})"),
                ValueObservation::Sum => format!("sum({at})"),
            }
        }
        Operand::Sym(SymExpr::Literal(color, _)) => color_name(*color).into(),
        Operand::Sym(SymExpr::ColorOf(at, _)) => format!("color({})", position(at, pointers)),
    }
}
