//! The checked program printed back as source text: ACT applications,
//! position expressions and conditions, as a user would write them
//! (`SWAP(P1, P2)`, `_push(pivot + 1, hi)`, `A[j] <= A[hi]`).
//!
//! The checked program keeps spans, not text, so these rebuild the source
//! form from the IR with the pointers' names, with parentheses only where
//! precedence needs them. Traces, the combinatorizer's output and the
//! detector cache's keys all read programs through these functions.

use std::fmt::Write as _;

use super::{
    Act, ActArg, Behaviour, BoolExpr, CallExpr, Cell, Color, Combinator, CombinatorKind, Data,
    DataKind, Defined, Direction, EnvKind, FrameAct, Observation, Operand, Pointer, PosExpr,
    PosKind, Slot, SymExpr,
};
use crate::operators::ArithOp;

/// The `env` line without its keyword: `array(P1 = 0, P2 = LAST)`.
pub fn env_line(env: EnvKind, pointers: &[Pointer]) -> String {
    let inits: Vec<String> = pointers
        .iter()
        .map(|p| format!("{} = {}", p.name, position(&p.init, pointers)))
        .collect();
    format!("{}({})", env.name(), inits.join(", "))
}

/// `SWAP(P1, P2)`, `OUT(OK)`, `NOP`, `_push(lo, pivot - 1)`: the name,
/// then each argument as its type is written.
pub fn act(act: &Act, pointers: &[Pointer]) -> String {
    if matches!(act, Act::Nop | Act::Frame(FrameAct::Return, _)) {
        return act.name().into();
    }
    let args: Vec<String> = act
        .args()
        .iter()
        .map(|arg| match arg {
            ActArg::Pointer(p) => pointer(*p, pointers).into(),
            ActArg::Position(e) => position(e, pointers),
            ActArg::Direction(Direction::Left) => "LEFT".into(),
            ActArg::Direction(Direction::Right) => "RIGHT".into(),
            ActArg::Color(color) => color_name(*color).into(),
            ActArg::Ok => "OK".into(),
            ActArg::Place(cell) => self::cell(cell, pointers),
        })
        .collect();
    format!("{}({})", act.name(), args.join(", "))
}

/// The name of pointer `p`, `?` for one the program does not have.
fn pointer(p: usize, pointers: &[Pointer]) -> &str {
    pointers.get(p).map_or("?", |d| d.name.as_str())
}

/// An observation read at `at`: `A[i]`, `child(v)`.
fn observation(o: &Observation, at: &PosExpr, pointers: &[Pointer]) -> String {
    let at = position(at, pointers);
    if o.indexed {
        format!("{}[{at}]", o.name)
    } else {
        format!("{}({at})", o.name)
    }
}

/// A declaration of data as written: `input A[n]`, `var d[n + 1] = -1`;
/// `None` for a size, which the first input naming it declares.
pub fn data(data: &Data, pointers: &[Pointer]) -> Option<String> {
    let mut out = match data.kind {
        DataKind::Input => format!("input {}", data.name),
        DataKind::Var { .. } => format!("var {}", data.name),
        DataKind::Size => return None,
    };
    for dim in &data.dims {
        out.push('[');
        out.push_str(&position(dim, pointers));
        out.push(']');
    }
    if let DataKind::Var { init } = &data.kind {
        out.push_str(" = ");
        out.push_str(&position(init, pointers));
    }
    Some(out)
}

/// A cell of declared data: `t`, `A[i]`, `D[i][j + 1]`.
pub fn cell(cell: &Cell, pointers: &[Pointer]) -> String {
    let mut out = cell.name.clone();
    for index in &cell.at {
        out.push('[');
        out.push_str(&position(index, pointers));
        out.push(']');
    }
    out
}

/// `FIB(k - 1)`: a call, with its arguments.
pub fn call(call: &CallExpr, pointers: &[Pointer]) -> String {
    let args: Vec<String> = call.args.iter().map(|e| position(e, pointers)).collect();
    format!("{}({})", call.name, args.join(", "))
}

pub fn color_name(color: Color) -> &'static str {
    match color {
        Color::White => "WHITE",
        Color::Grey => "GREY",
        Color::Black => "BLACK",
    }
}

/// A position expression, parenthesized only where precedence needs it.
pub fn position(expr: &PosExpr, pointers: &[Pointer]) -> String {
    let mut out = String::new();
    write_position(expr, pointers, 0, &mut out);
    out
}

/// An integer as source text. i64::MIN has no literal (its magnitude does
/// not fit in an i64), so it is written as a difference.
pub fn integer(k: i64) -> String {
    if k == i64::MIN {
        format!("({} - 1)", i64::MIN + 1)
    } else {
        k.to_string()
    }
}

/// How tightly an operator binds: sums 1, products 2, negation 3.
fn precedence(op: ArithOp) -> u8 {
    match op {
        ArithOp::Add | ArithOp::Sub => 1,
        ArithOp::Mul | ArithOp::Div | ArithOp::Rem => 2,
    }
}

/// Writes `expr`, in parentheses when it binds less tightly than `outer`.
fn write_position(expr: &PosExpr, pointers: &[Pointer], outer: u8, out: &mut String) {
    match &expr.kind {
        PosKind::Int(k) if *k < 0 && outer >= 3 && *k != i64::MIN => {
            out.push_str(&format!("({k})"))
        }
        PosKind::Int(k) => out.push_str(&integer(*k)),
        PosKind::Pointer(p) => out.push_str(pointer(*p, pointers)),
        PosKind::Last => out.push_str("LAST"),
        PosKind::Resume => out.push_str("_resume"),
        PosKind::End => out.push_str("END"),
        PosKind::Observe(o, at) => out.push_str(&observation(o, at, pointers)),
        PosKind::Read(c) => out.push_str(&cell(c, pointers)),
        PosKind::Call(call) => out.push_str(&self::call(call, pointers)),
        PosKind::Neg(e) => {
            out.push('-');
            write_position(e, pointers, 3, out);
        }
        PosKind::Arith(op, lhs, rhs) => {
            let own = precedence(*op);
            let parens = own < outer;
            if parens {
                out.push('(');
            }
            write_position(lhs, pointers, own, out);
            out.push_str(&format!(" {} ", op.symbol()));
            // Operators associate to the left: a right operand of the same
            // precedence needs parentheses (`a - (b - c)`).
            write_position(rhs, pointers, own + 1, out);
            if parens {
                out.push(')');
            }
        }
    }
}

/// The name of a stdlib combinator; a program's own combinators are named
/// by [`Combinators::name`](super::Combinators::name), which knows them.
pub fn combinator_name(kind: CombinatorKind) -> &'static str {
    match kind {
        CombinatorKind::User(Combinator::Defined(_)) => "a defined combinator",
        CombinatorKind::User(Combinator::Seq) => "seq",
        CombinatorKind::User(Combinator::Cond) => "cond",
        CombinatorKind::User(Combinator::Linrec) => "linrec",
        CombinatorKind::User(Combinator::Treerec) => "treerec",
        CombinatorKind::MapSelf => "_mapself",
    }
}

/// A program's own combinator as source, with its parameters named
/// `a1, a2, a3`: `combinator twice(a1, a2, a3):` and its body.
pub fn defined(defined: &Defined) -> String {
    format!(
        "combinator {}(a1, a2, a3):\n{}",
        defined.name,
        body(&defined.behaviour, defined.reads_c)
    )
}

/// A combinator body in canonical form, four spaces deep: the slot names,
/// one per line, under `if c:` and `else:` when it reads `c`. Two bodies
/// behave the same exactly when their canonical forms are equal.
pub fn body(behaviour: &Behaviour, reads_c: bool) -> String {
    let lines = |slots: &[Slot], indent: &str| -> String {
        slots
            .iter()
            .map(|slot| format!("{indent}{}\n", slot.name()))
            .collect()
    };
    if reads_c {
        format!(
            "    if c:\n{}    else:\n{}",
            lines(&behaviour.when_true, "        "),
            lines(&behaviour.when_false, "        ")
        )
    } else {
        lines(&behaviour.when_true, "    ")
    }
}

/// A condition as it would be written.
pub fn condition(expr: &BoolExpr, pointers: &[Pointer]) -> String {
    let mut out = String::new();
    write_condition(expr, pointers, 0, &mut out);
    out
}

/// Binding strength: `or` 1, `and` 2, `not` 3, comparisons 4; `outer` is
/// what the context needs (5 puts anything in parentheses).
fn write_condition(expr: &BoolExpr, pointers: &[Pointer], outer: u8, out: &mut String) {
    let (own, text) = match expr {
        BoolExpr::Or(a, b) | BoolExpr::And(a, b) => {
            let (own, word) = match expr {
                BoolExpr::Or(..) => (1, "or"),
                _ => (2, "and"),
            };
            let mut text = String::new();
            write_condition(a, pointers, own, &mut text);
            let _ = write!(text, " {word} ");
            write_condition(b, pointers, own + 1, &mut text);
            (own, text)
        }
        // `not (lo >= hi)`: the parentheses are not needed, but read better.
        BoolExpr::Not(a) => {
            let mut text = "not ".to_string();
            let inner = if matches!(**a, BoolExpr::Compare(..)) {
                5
            } else {
                3
            };
            write_condition(a, pointers, inner, &mut text);
            (3, text)
        }
        BoolExpr::Test(o, at) => (4, observation(o, at, pointers)),
        BoolExpr::Compare(op, a, b) => {
            let op = op.symbol();
            let (a, b) = (operand(a, pointers), operand(b, pointers));
            (4, format!("{a} {op} {b}"))
        }
    };
    if own < outer {
        let _ = write!(out, "({text})");
    } else {
        out.push_str(&text);
    }
}

fn operand(operand: &Operand, pointers: &[Pointer]) -> String {
    match operand {
        Operand::Int(k) => integer(*k),
        Operand::End => "END".into(),
        Operand::Pos(e) => position(e, pointers),
        Operand::Val(v) => observation(v.observation, &v.at, pointers),
        Operand::Sym(SymExpr::Literal(color, _)) => color_name(*color).into(),
        Operand::Sym(SymExpr::Observe(o, at, _)) => observation(o, at, pointers),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::program::{ActDecl, ObservationKind, ParamType};
    use crate::span::Span;

    const CHILD: Observation = Observation {
        name: "child",
        indexed: false,
        kind: ObservationKind::Position,
    };

    fn e(kind: PosKind) -> PosExpr {
        PosExpr {
            kind,
            span: Span::default(),
        }
    }

    fn arith(op: ArithOp, a: PosKind, b: PosKind) -> PosKind {
        PosKind::Arith(op, Box::new(e(a)), Box::new(e(b)))
    }

    fn pointers() -> Vec<Pointer> {
        ["lo", "pivot"]
            .map(|name| Pointer {
                name: name.into(),
                init: e(PosKind::Int(0)),
                span: Span::default(),
            })
            .into()
    }

    #[test]
    fn acts_read_as_written() {
        let names = pointers();
        let push = Act::Push(vec![
            e(arith(ArithOp::Add, PosKind::Pointer(1), PosKind::Int(1))),
            e(PosKind::Last),
        ]);
        assert_eq!(act(&push, &names), "_push(pivot + 1, LAST)");
        assert_eq!(
            act(&Act::Move(0, Direction::Left), &names),
            "MOVE(lo, LEFT)"
        );
        const OUT_OK: ActDecl = ActDecl::new("OUT", &[ParamType::Ok]);
        const COLOR: ActDecl = ActDecl::new("COLOR", &[ParamType::Pointer, ParamType::Color]);
        let build = |decl, args| Act::build(decl, args).expect("the arguments fit");
        assert_eq!(act(&build(&OUT_OK, vec![ActArg::Ok]), &names), "OUT(OK)");
        assert_eq!(act(&Act::Nop, &names), "NOP");
        let color = vec![ActArg::Pointer(1), ActArg::Color(Color::Grey)];
        assert_eq!(act(&build(&COLOR, color), &names), "COLOR(pivot, GREY)");
        assert!(Act::build(&COLOR, vec![ActArg::Ok]).is_none());
    }

    #[test]
    fn parentheses_only_where_needed() {
        let names = pointers();
        let sum = arith(ArithOp::Sub, PosKind::Pointer(0), PosKind::Int(1));
        let nested = arith(ArithOp::Sub, PosKind::Pointer(1), sum.clone());
        assert_eq!(position(&e(nested), &names), "pivot - (lo - 1)");
        let product = arith(ArithOp::Mul, sum.clone(), PosKind::Int(2));
        assert_eq!(position(&e(product), &names), "(lo - 1) * 2");
        let left = arith(
            ArithOp::Add,
            sum,
            PosKind::Observe(&CHILD, Box::new(e(PosKind::Pointer(0)))),
        );
        assert_eq!(position(&e(left), &names), "lo - 1 + child(lo)");
        let neg = PosKind::Neg(Box::new(e(PosKind::Int(-2))));
        assert_eq!(position(&e(neg), &names), "-(-2)");
        let min = PosKind::Neg(Box::new(e(PosKind::Int(i64::MIN))));
        assert_eq!(position(&e(min), &names), "-(-9223372036854775807 - 1)");
    }
}
