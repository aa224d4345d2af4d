//! Writing the output file.
//!
//! The output is built from the checked program, not copied from the
//! source, so it is formatted the same way whatever the input looked like:
//! the `env` line, the declared data, `state(...)`, then the definitions, each converted
//! program after the helpers it uses, each helper after a comment saying
//! which source lines it came from. ACTs, positions and conditions are written by
//! [`crate::program::print`]; conditions get parentheses only
//! where precedence needs them. Each definition and each ACT that was a
//! statement of its own is recorded in [`Origins`] with its source.

use std::fmt::Write as _;
use std::ops::Range;

use super::origins::{Origins, Printed};
use super::output::{Arg, Node, OutDef};
use crate::program::print::{act, condition, data, defined, env_line};
use crate::program::{CombinatorKind, Pointer, Program};
use crate::span::Span;

/// Lines longer than this put the applier on the next line, indented.
const WIDTH: usize = 100;

/// The whole output file, and where its parts came from.
pub fn file(program: &Program, source: &str, defs: &[OutDef]) -> (String, Origins) {
    let mut origins = Origins::default();
    let pointers = &program.pointers;
    let mut out =
        format!("# The combinatory form of {source}, written by `cnpic combinatorize`.\n");
    let _ = writeln!(out, "env {}", env_line(program.env, pointers));
    for line in program.data.iter().filter_map(|d| data(d, pointers)) {
        let _ = writeln!(out, "{line}");
    }
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
        let (body, parts) = node_parts(&def.node, program);
        let start = out.len();
        let head = format!("def {}: ", def.name);
        let head = if head.len() + body.len() > WIDTH {
            format!("def {}:\n  ", def.name)
        } else {
            head
        };
        out.push_str(&head);
        let at = out.len();
        out.push_str(&body);
        origins.record(start..out.len(), def.origin);
        if let Some(runs) = def.runs {
            let name = start + "def ".len();
            origins.record(name..name + def.name.len(), runs);
        }
        for (range, origin) in parts.origins {
            origins.record(at + range.start..at + range.end, origin);
        }
        for (range, printed) in parts.values {
            origins.record_values(at + range.start..at + range.end, printed);
        }
        out.push('\n');
    }
    (out, origins)
}

fn pointer(pointers: &[Pointer], id: usize) -> &str {
    pointers.get(id).map_or("?", |p| p.name.as_str())
}

/// The applier of a definition: `seq(; a, b, NOP)`, `MOVE(P1, RIGHT)`.
pub fn node(node: &Node, program: &Program) -> String {
    node_parts(node, program).0
}

/// What an applier's text holds: the byte ranges of the arguments that
/// have an origin, with that origin, and those of its ACTs and condition,
/// with what they were printed from.
#[derive(Default)]
struct Parts<'n> {
    origins: Vec<(Range<usize>, Span)>,
    values: Vec<(Range<usize>, Printed<'n>)>,
}

/// The applier of a definition, and what its text holds.
fn node_parts<'n>(node: &'n Node, program: &Program) -> (String, Parts<'n>) {
    let pointers = &program.pointers;
    let mut parts = Parts::default();
    let comb = match node {
        Node::Arg(Arg::Def(name)) => return (format!("seq(; {name}, NOP, NOP)"), parts),
        Node::Arg(other) => {
            let text = arg(other, pointers);
            if let Arg::Act(a) = other {
                parts.values.push((0..text.len(), Printed::Act(a)));
            }
            return (text, parts);
        }
        Node::Comb(comb) => comb,
    };
    let name = (program.combinators).name(CombinatorKind::User(comb.combinator));
    let mut text = format!("{name}(");
    if let Some(d) = &comb.detector {
        let start = text.len();
        text.push_str(&condition(d, pointers));
        parts
            .values
            .push((start..text.len(), Printed::Condition(d)));
        text.push('?');
    }
    text.push_str("; ");
    for (i, (a, origin)) in comb.args.iter().zip(comb.origins).enumerate() {
        if i > 0 {
            text.push_str(", ");
        }
        let start = text.len();
        text.push_str(&arg(a, pointers));
        if let Some(origin) = origin {
            parts.origins.push((start..text.len(), origin));
        }
        if let Arg::Act(a) = a {
            parts.values.push((start..text.len(), Printed::Act(a)));
        }
    }
    text.push(')');
    (text, parts)
}

fn arg(arg: &Arg, pointers: &[Pointer]) -> String {
    match arg {
        Arg::Nop => "NOP".into(),
        Arg::Act(a) => act(a, pointers),
        Arg::Def(name) => name.clone(),
    }
}
