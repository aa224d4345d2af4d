//! The code of one line, in canonical form: expressions, appliers, calls
//! and the headers of items and statements.
//!
//! The parse tree keeps no parentheses, so expressions are written with
//! exactly the ones the grammar's precedence needs (`a - (b - c)`,
//! `not (a or b)`); operators get one space on each side, arguments one
//! after each comma, and the Unicode comparison aliases become ASCII.

use crate::operators::Strength::{self, And, Atom, Compare, Not, Or, Sum, Unary};
use crate::syntax::ast::{Applier, Call, DataDecl, Expr, ExprKind, Hole, Ident};

/// An expression as a condition, argument or initial value.
pub fn expr(expr: &Expr) -> String {
    let mut out = String::new();
    write(expr, Or, &mut out);
    out
}

/// An applier: `cond(A[j] <= A[hi]?; SWAP(pivot, j), NOP, NOP)` or an ACT.
/// `?`, or `?(A[P3] != END?, ...)` with the conditions a hole lists.
pub fn hole(hole: &Hole) -> String {
    if hole.conditions.is_empty() {
        return "?".to_string();
    }
    let conditions: Vec<String> = hole.conditions.iter().map(|c| expr(c) + "?").collect();
    format!("?({})", conditions.join(", "))
}

pub fn applier(applier: &Applier) -> String {
    match applier {
        Applier::Combinator {
            combinator,
            detector,
            args,
            ..
        } => {
            let detector = detector.as_ref().map_or(String::new(), |d| expr(d) + "?");
            let args: Vec<String> = args.iter().map(call).collect();
            format!("{}({detector}; {})", combinator.name, args.join(", "))
        }
        Applier::Act(c) => call(c),
    }
}

/// `NOP`, `F()`, `MOVE(P1, RIGHT)`.
pub fn call(call: &Call) -> String {
    match &call.args {
        None => call.name.name.clone(),
        Some(args) => format!("{}({})", call.name.name, list(args)),
    }
}

/// Expressions separated by `, `.
/// A data declaration: `var d[n + 1] = -1`, `input A[n]`.
pub fn data(data: &DataDecl) -> String {
    let mut text = format!("{} {}", data.keyword.name, data.name.name);
    for dim in &data.dims {
        text.push_str(&format!("[{}]", expr(dim)));
    }
    if let Some(init) = &data.init {
        text.push_str(&format!(" = {}", expr(init)));
    }
    text
}

pub fn list(exprs: &[Expr]) -> String {
    exprs.iter().map(expr).collect::<Vec<_>>().join(", ")
}

/// Names separated by `, `.
pub fn names(idents: &[Ident]) -> String {
    idents
        .iter()
        .map(|i| i.name.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

/// Writes `e`, in parentheses when it binds more loosely than `outer`.
fn write(e: &Expr, outer: Strength, out: &mut String) {
    let own = level(&e.kind);
    if own < outer {
        out.push('(');
    }
    match &e.kind {
        ExprKind::Int(value) => out.push_str(&value.to_string()),
        ExprKind::Char(c) => {
            out.push('\'');
            out.push(*c);
            out.push('\'');
        }
        ExprKind::Name(name) => out.push_str(name),
        ExprKind::Error | ExprKind::Hole => out.push('?'),
        ExprKind::Tuple(all) => out.push_str(&list(all)),
        ExprKind::Neg(inner) => {
            out.push('-');
            write(inner, Unary, out);
        }
        // `not (lo < hi)`: the parentheses are not needed, but read better
        // (as in `program::print`).
        ExprKind::Not(inner) => {
            out.push_str("not ");
            let needs = if matches!(inner.kind, ExprKind::Compare(..)) {
                Atom
            } else {
                Not
            };
            write(inner, needs, out);
        }
        ExprKind::Arith(op, a, b) => binary(a, op.symbol(), b, own, out),
        ExprKind::Compare(op, a, b) => {
            // Comparisons do not chain: both sides are sums.
            write(a, Sum, out);
            out.push_str(&format!(" {} ", op.symbol()));
            write(b, Sum, out);
        }
        ExprKind::And(a, b) => binary(a, "and", b, own, out),
        ExprKind::Or(a, b) => binary(a, "or", b, own, out),
        ExprKind::Index(name, index) => {
            out.push_str(&name.name);
            out.push('[');
            write(index, Or, out);
            out.push(']');
        }
        ExprKind::Index2(name, row, column) => {
            out.push_str(&name.name);
            for index in [row, column] {
                out.push('[');
                write(index, Or, out);
                out.push(']');
            }
        }
        ExprKind::Apply(name, args) => {
            out.push_str(&name.name);
            out.push('(');
            out.push_str(&list(args));
            out.push(')');
        }
    }
    if own < outer {
        out.push(')');
    }
}

/// A left-associative operator: the right operand needs parentheses at the
/// operator's own level (`a - (b - c)`).
fn binary(a: &Expr, word: &str, b: &Expr, own: Strength, out: &mut String) {
    write(a, own, out);
    out.push(' ');
    out.push_str(word);
    out.push(' ');
    write(b, own.tighter(), out);
}

fn level(kind: &ExprKind) -> Strength {
    match kind {
        // Only whole (the values of `return`, either side of `=`): never
        // in parentheses.
        ExprKind::Tuple(_) => Atom,
        ExprKind::Or(..) => Or,
        ExprKind::And(..) => And,
        ExprKind::Not(_) => Not,
        ExprKind::Compare(..) => Compare,
        ExprKind::Arith(op, ..) => op.strength(),
        ExprKind::Neg(_) => Unary,
        ExprKind::Int(_)
        | ExprKind::Char(_)
        | ExprKind::Name(_)
        | ExprKind::Index(..)
        | ExprKind::Index2(..)
        | ExprKind::Apply(..)
        | ExprKind::Hole
        | ExprKind::Error => Atom,
    }
}
