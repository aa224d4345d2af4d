//! Writing the output file.
//!
//! The output is built from the checked program, not copied from the
//! source, so it is formatted the same way whatever the input looked like:
//! the `env` line, `state(...)`, then the definitions, each converted
//! program after the helpers it uses, each helper after a comment saying
//! which source lines it came from. ACTs, positions and conditions are written by
//! [`crate::program::print`]; conditions get parentheses only
//! where precedence needs them.

use std::fmt::Write as _;

use super::output::{Arg, Node, OutDef};
use crate::program::print::{act, condition, defined, env_line};
use crate::program::{CombinatorKind, Pointer, Program};

/// Lines longer than this put the applier on the next line, indented.
const WIDTH: usize = 100;

/// The whole output file.
pub fn file(program: &Program, source: &str, defs: &[OutDef]) -> String {
    let pointers = &program.pointers;
    let mut out =
        format!("# The combinatory form of {source}, written by `cnpic combinatorize`.\n");
    let _ = writeln!(out, "env {}", env_line(program.env, pointers));
    if let Some(state) = &program.state {
        let names: Vec<&str> = state.iter().map(|p| pointer(pointers, *p)).collect();
        let _ = writeln!(out, "state({})", names.join(", "));
    }
    for combinator in &program.combinators.defined {
        out.push('\n');
        out.push_str(&defined(combinator));
    }
    for def in defs {
        out.push('\n');
        if let Some(comment) = &def.comment {
            let _ = writeln!(out, "# {comment}");
        }
        let body = node(&def.node, program);
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
pub fn node(node: &Node, program: &Program) -> String {
    let pointers = &program.pointers;
    match node {
        Node::Arg(Arg::Def(name)) => format!("seq(; {name}, NOP, NOP)"),
        Node::Arg(other) => arg(other, pointers),
        Node::Comb(comb) => {
            let name = (program.combinators).name(CombinatorKind::User(comb.combinator));
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
