//! Writing the output file.
//!
//! The output is built from the checked program, not copied from the
//! source, so it is formatted the same way whatever the input looked like:
//! the `env` line, `state(...)`, then the definitions, each converted
//! program after the helpers it uses, each helper after a comment saying
//! which source lines it came from. ACTs and positions are written as the
//! trace writes them (`symbolic::trace`); conditions get parentheses only
//! where precedence needs them.

use std::fmt::Write as _;

use super::emit::{Arg, Node, OutDef};
use crate::program::{BoolExpr, Combinator, Operand, Pointer, Program, SymExpr, ValueObservation};
use crate::symbolic::trace::{act, color_name, integer, position};
use crate::syntax::ast::CompareOp;

/// Lines longer than this put the applier on the next line, indented.
const WIDTH: usize = 100;

/// The whole output file.
pub fn file(program: &Program, source: &str, defs: &[OutDef]) -> String {
    let pointers = &program.pointers;
    let mut out =
        format!("# The combinatory form of {source}, written by `cnpic combinatorize`.\n");
    let inits: Vec<String> = pointers
        .iter()
        .map(|p| format!("{} = {}", p.name, position(&p.init, pointers)))
        .collect();
    let _ = writeln!(out, "env {}({})", program.env.name(), inits.join(", "));
    if let Some(state) = &program.state {
        let names: Vec<&str> = state.iter().map(|p| pointer(pointers, *p)).collect();
        let _ = writeln!(out, "state({})", names.join(", "));
    }
    for def in defs {
        out.push('\n');
        if let Some(comment) = &def.comment {
            let _ = writeln!(out, "# {comment}");
        }
        let body = node(&def.node, pointers);
        let line = format!("def {}: {body}", def.name);
        if line.len() > WIDTH {
            let _ = writeln!(out, "def {}:\n  {body}", def.name);
        } else {
            out.push_str(&line);
            out.push('\n');
        }
    }
    out
}

fn pointer(pointers: &[Pointer], id: usize) -> &str {
    pointers.get(id).map_or("?", |p| p.name.as_str())
}

/// The applier of a definition: `seq(; a, b, NOP)`, `MOVE(P1, RIGHT)`.
pub fn node(node: &Node, pointers: &[Pointer]) -> String {
    match node {
        Node::Arg(Arg::Def(name)) => format!("seq(; {name}, NOP, NOP)"),
        Node::Arg(other) => arg(other, pointers),
        Node::Comb(comb) => {
            let name = match comb.combinator {
                Combinator::Seq => "seq",
                Combinator::Cond => "cond",
                Combinator::Linrec => "linrec",
                Combinator::Treerec => "treerec",
            };
            let detector = comb
                .detector
                .as_ref()
                .map(|d| format!("{}?", condition(d, pointers)))
                .unwrap_or_default();
            let args: Vec<String> = comb.args.iter().map(|a| arg(a, pointers)).collect();
            format!("{name}({detector}; {})", args.join(", "))
        }
    }
}

fn arg(arg: &Arg, pointers: &[Pointer]) -> String {
    match arg {
        Arg::Nop => "NOP".into(),
        Arg::Act(a) => act(a, pointers),
        Arg::Def(name) => name.clone(),
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
        BoolExpr::HasChild(v) => (4, format!("has_child({})", position(v, pointers))),
        BoolExpr::Compare(op, a, b) => {
            let op = match op {
                CompareOp::Eq => "==",
                CompareOp::Ne => "!=",
                CompareOp::Lt => "<",
                CompareOp::Le => "<=",
                CompareOp::Gt => ">",
                CompareOp::Ge => ">=",
            };
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
        Operand::Sym(SymExpr::ColorOf(v, _)) => format!("color({})", position(v, pointers)),
    }
}
