//! Writing the output: the combinatory program as a checked value, and
//! the text it stands for, in one walk.
//!
//! [`file`] lays out the output file (the `env` line, the declared data,
//! `state(...)`, the program's own combinators, then the definitions, each
//! converted program after the helpers it uses, each helper after a
//! comment saying which source lines it came from) and builds, as it
//! writes, the checked [`Program`] that compiling that text gives: the
//! same definitions, ACTs and conditions, every span where the parser puts
//! it (so a program memory built from the value stores the bytes it would
//! store from the text). Nothing is parsed back; `compile::printed_agrees`
//! parses and checks the text and compares, for `cnpic combinatorize` and
//! the round-trip tests. ACTs, positions and conditions are written by
//! [`crate::program::print::Writer`]. Each definition, and each ACT that
//! was a statement of its own, is recorded in [`Origins`] with its source,
//! and each value written with the source span of the value it was
//! converted from.

use std::collections::HashMap;

use super::errors::internal;
use super::origins::Origins;
use super::output::{Arg, Comb, Node, OutDef};
use crate::diagnostic::Diagnostic;
use crate::program::print::Writer;
use crate::program::{
    Act, ActApp, Applier, Body, Callee, Combinator, CombinatorKind, DataKind, Def, DefId, Pointer,
    PosKind, Program,
};
use crate::span::{SourceId, Span};

/// Lines longer than this put the applier on the next line, indented.
const WIDTH: usize = 100;

/// The output file: its text, the checked program it stands for, and
/// where its parts came from.
pub struct Output {
    pub text: String,
    pub program: Program,
    pub origins: Origins,
}

/// The output file of `defs`, converted from `program` (compiled from the
/// file `source`).
pub fn file(program: &Program, source: &str, defs: &[OutDef]) -> Result<Output, Diagnostic> {
    let mut origins = Origins::default();
    let mut w = Writer::new(&program.pointers, SourceId::USER, 0);
    w.push(&format!(
        "# The combinatory form of {source}, written by `cnpic combinatorize`.\nenv "
    ));
    let pointers = w.env_line(program.env);
    w.push("\n");
    let mut data = Vec::new();
    for declared in &program.data {
        match w.data(declared) {
            Some(written) => {
                data.push(written);
                w.push("\n");
            }
            None => data.push(declared.clone()),
        }
    }
    size_spans(&mut data);
    if let Some(state) = &program.state {
        let names: Vec<&str> = state
            .iter()
            .map(|p| pointer(pointers.as_slice(), *p))
            .collect();
        w.push(&format!("state({})\n", names.join(", ")));
    }
    let mut combinators = program.combinators.clone();
    for defined in &mut combinators.defined {
        w.push("\n");
        *defined = w.defined(defined);
    }
    let ids: HashMap<&str, DefId> = (defs.iter().enumerate())
        .map(|(id, def)| (def.name.as_str(), id))
        .collect();
    let mut out = Vec::new();
    for def in defs {
        w.push("\n");
        if let Some(comment) = &def.comment {
            w.push(&format!("# {comment}\n"));
        }
        out.push(definition(&mut w, def, program, &ids, &mut origins)?);
    }
    let entry = root(&out)?;
    let program = Program {
        env: program.env,
        pointers,
        data,
        state: program.state.clone(),
        defs: out,
        combinators,
        entry,
        blanks: Vec::new(),
    };
    Ok(Output {
        text: w.text,
        program,
        origins,
    })
}

/// Gives each size (`n`, declared by the first input whose shape names it)
/// the span of that name in the input's declaration.
fn size_spans(data: &mut [crate::program::Data]) {
    for size in 0..data.len() {
        if data[size].kind != DataKind::Size {
            continue;
        }
        let first = (data.iter())
            .filter(|d| d.kind == DataKind::Input)
            .flat_map(|d| &d.dims)
            .find(|dim| matches!(&dim.kind, PosKind::Read(cell) if cell.data == size));
        if let Some(dim) = first {
            data[size].span = dim.span;
        }
    }
}

/// The one definition no other refers to, which the output runs.
fn root(defs: &[Def]) -> Result<DefId, Diagnostic> {
    let mut referred = vec![false; defs.len()];
    for (from, def) in defs.iter().enumerate() {
        if let Body::Applier(Applier::Combinator { args, .. }) = &def.body {
            for callee in args {
                if let Callee::Def(to, _) = callee
                    && *to != from
                {
                    referred[*to] = true;
                }
            }
        }
    }
    let roots: Vec<DefId> = (0..defs.len()).filter(|&id| !referred[id]).collect();
    match roots.as_slice() {
        [root] => Ok(*root),
        _ => Err(internal(format!(
            "the output has {} definitions no other refers to, not one",
            roots.len()
        ))),
    }
}

/// Writes one definition, `def NAME: APPLIER` (the applier on the next
/// line when the line would be too long), recording its origins.
fn definition(
    w: &mut Writer,
    def: &OutDef,
    program: &Program,
    ids: &HashMap<&str, DefId>,
    origins: &mut Origins,
) -> Result<Def, Diagnostic> {
    let start = w.text.len();
    let mut head = format!("def {}: ", def.name);
    let mut body = Applied::write(&def.node, program, Some(ids), start + head.len())?;
    if head.len() + body.writer.text.len() > WIDTH {
        head = format!("def {}:\n  ", def.name);
        body = Applied::write(&def.node, program, Some(ids), start + head.len())?;
    }
    w.push(&head);
    w.push(&body.writer.text);
    let whole = w.since(start);
    origins.record(whole.range(), def.origin);
    let name = Span::new(
        SourceId::USER,
        whole.start + 4,
        whole.start + 4 + def.name.len(),
    );
    if let Some(runs) = def.runs {
        origins.record(name.range(), runs);
    }
    for (output, source) in body.origins {
        origins.record(output.range(), source);
    }
    for (output, source) in body.values {
        origins.pair(output, source);
    }
    w.push("\n");
    Ok(Def {
        name: def.name.clone(),
        span: name,
        params: Vec::new(),
        body: Body::Applier(body.applier),
    })
}

/// An applier written, with what it holds: the output spans of the
/// arguments that have an origin, with that origin, and those of the
/// values of its ACTs and condition, with the source spans of the values
/// they were written from.
struct Applied<'p> {
    writer: Writer<'p>,
    applier: Applier,
    origins: Vec<(Span, Span)>,
    values: Vec<(Span, Span)>,
}

impl<'p> Applied<'p> {
    /// The applier of `node`, written at byte `base` of the output, its
    /// definitions numbered by `ids` (all 0 without).
    fn write(
        node: &Node,
        program: &'p Program,
        ids: Option<&HashMap<&str, DefId>>,
        base: usize,
    ) -> Result<Applied<'p>, Diagnostic> {
        let mut applied = Applied {
            writer: Writer::new(&program.pointers, SourceId::USER, base),
            applier: Applier::Act(ActApp {
                act: Act::Nop,
                span: Span::default(),
            }),
            origins: Vec::new(),
            values: Vec::new(),
        };
        applied.applier = match node {
            Node::Arg(Arg::Def(name)) => {
                // `seq(; NAME, NOP, NOP)`: a definition that only calls another.
                let comb = Comb {
                    combinator: Combinator::Seq,
                    detector: None,
                    args: [Arg::Def(name.clone()), Arg::Nop, Arg::Nop],
                    origins: [None; 3],
                };
                applied.combinator(&comb, program, ids)?
            }
            Node::Arg(Arg::Nop) => Applier::Act(applied.act(&Act::Nop)),
            Node::Arg(Arg::Act(act)) => Applier::Act(applied.act(act)),
            Node::Comb(comb) => applied.combinator(comb, program, ids)?,
        };
        Ok(applied)
    }

    /// `COMB(c?; a1, a2, a3)`.
    fn combinator(
        &mut self,
        comb: &Comb,
        program: &Program,
        ids: Option<&HashMap<&str, DefId>>,
    ) -> Result<Applier, Diagnostic> {
        let start = self.writer.text.len();
        let name = (program.combinators).name(CombinatorKind::User(comb.combinator));
        self.writer.push(name);
        self.writer.push("(");
        let detector = comb.detector.as_ref().map(|detector| {
            let written = self.writer.condition(detector);
            super::origins::condition_pairs(detector, &written, &mut self.values);
            self.writer.push("?");
            written
        });
        self.writer.push("; ");
        let [a1, a2, a3] = &comb.args;
        let [o1, o2, o3] = comb.origins;
        let a1 = self.callee(a1, o1, ids)?;
        self.writer.push(", ");
        let a2 = self.callee(a2, o2, ids)?;
        self.writer.push(", ");
        let a3 = self.callee(a3, o3, ids)?;
        self.writer.push(")");
        Ok(Applier::Combinator {
            combinator: comb.combinator,
            detector,
            args: [a1, a2, a3],
            span: self.writer.since(start),
        })
    }

    /// One argument: `NOP`, an ACT, or a definition by its name.
    fn callee(
        &mut self,
        arg: &Arg,
        origin: Option<Span>,
        ids: Option<&HashMap<&str, DefId>>,
    ) -> Result<Callee, Diagnostic> {
        let start = self.writer.text.len();
        let callee = match arg {
            Arg::Nop => Callee::Act(self.act(&Act::Nop)),
            Arg::Act(act) => Callee::Act(self.act(act)),
            Arg::Def(name) => {
                let span = self.writer.name(name);
                let id = match ids {
                    Some(ids) => ids.get(name.as_str()).copied().ok_or_else(|| {
                        internal(format!(
                            "the output calls `{name}`, which it does not define"
                        ))
                    })?,
                    None => 0,
                };
                Callee::Def(id, span)
            }
        };
        if let Some(origin) = origin {
            self.origins.push((self.writer.since(start), origin));
        }
        Ok(callee)
    }

    /// An ACT, paired value by value with the one it was written from.
    fn act(&mut self, act: &Act) -> ActApp {
        let start = self.writer.text.len();
        let written = self.writer.act(act);
        super::origins::act_pairs(act, &written, &mut self.values);
        ActApp {
            act: written,
            span: self.writer.since(start),
        }
    }
}

fn pointer(pointers: &[Pointer], id: usize) -> &str {
    pointers.get(id).map_or("?", |p| p.name.as_str())
}

/// The applier of a definition as text: `seq(; a, b, NOP)`,
/// `MOVE(P1, RIGHT)` (what identical helpers are recognized by).
pub fn node(node: &Node, program: &Program) -> String {
    // Without numbers for the definitions, writing cannot fail.
    (Applied::write(node, program, None, 0)).map_or_else(|_| String::new(), |a| a.writer.text)
}
