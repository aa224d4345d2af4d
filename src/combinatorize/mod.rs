//! The combinatorizer: normal programs to combinatory form (Algorithm 3 of
//! the paper, language.md §5).
//!
//! [`combinatorize`] takes a checked [`Program`] and the text it was
//! compiled from, and hands back an equivalent checked program made only
//! of appliers, with the text of the `.cnpi` file it stands for (which
//! `compile` turns into the same program, without diagnostics) and where
//! each part came from; or the diagnostics that say why it cannot. The
//! phases: `work` decides which definitions the output holds and inlines
//! mutual recursion (before it, `lower` and `apart` take calls with results
//! out of expressions, and `split` cuts ACTs too long for a row into
//! steps); `flow` and `effects` summarize what code reads and
//! writes; `convert` and `treerec` turn each normal program into appliers
//! (`emit` names and groups them); `print` writes the file and builds the
//! program. `docs/combinatorize.md` describes the rules and their
//! guarantees.

mod apart;
mod convert;
mod cut;
mod effects;
mod emit;
mod errors;
mod flow;
mod frames;
mod locals;
mod lower;
mod origins;
mod output;
mod print;
mod set;
mod split;
mod treerec;
mod walk;
mod work;

use crate::diagnostic::{Code, Diagnostic, codes, has_errors};
use crate::program::{Applier, Body, Callee, Program};

pub use errors::internal;
pub use origins::Origins;
pub use split::{ROOM, numbers};

use convert::{Context, Converter, extent};
use effects::Effects;
use emit::{Emitter, Extent, Lines, Names};
use output::{Arg, Comb, Node, OutDef};

/// A converted file.
#[derive(Clone, Debug)]
pub struct Combinatorized {
    /// The combinatory program, checked: what compiling `text` gives.
    pub program: Program,
    /// The `.cnpi` text of the combinatory program, which its spans point
    /// into (`cnpic combinatorize` prints it, a program memory keeps it).
    pub text: String,
    /// Where the output may behave differently from the source (W08xx).
    pub warnings: Vec<Diagnostic>,
    /// Where each part of the text came from in the source.
    pub origins: Origins,
}

/// Converts the normal programs of `program` (compiled from `source`,
/// named `name` in the output's header) into appliers. The output holds
/// the definitions the entry reaches; appliers are kept as they are.
/// Algorithm 3's forms are used where they are exact; where they are not
/// (what would be W0801-W0803 or E0801-E0806), every normal program runs
/// on explicit frames instead (`frames`).
pub fn combinatorize(
    program: &Program,
    source: &str,
    name: &str,
) -> Result<Combinatorized, Vec<Diagnostic>> {
    // Calls with parameters and results run on frames only, lowered first.
    let named;
    let program = match locals::named(program) {
        Some(renamed) => {
            named = renamed;
            &named
        }
        None => program,
    };
    let lowered;
    let with_calls = crate::program::calls::first_use(program).is_some() || locals::kept(program);
    let program = match with_calls {
        true => {
            lowered = lower::lower(program).map_err(|refusal| vec![refusal])?;
            &lowered
        }
        false => program,
    };
    // ACTs too long for a row are cut into steps through hidden registers.
    let split;
    let program = match split::split(program) {
        Some(shorter) => {
            split = shorter;
            &split
        }
        None => program,
    };
    let mut diagnostics = Vec::new();
    let work = work::plan(program, &mut diagnostics);
    let effects = Effects::new(program, &work);
    let ctx = Context {
        program,
        effects: &effects,
    };
    let lines = Lines::new(source);
    let mut out = Vec::new();
    if !has_errors(&diagnostics) && !with_calls {
        out = algorithm3(&ctx, &work, &lines, &mut diagnostics);
    }
    if with_calls || diagnostics.iter().any(|d| inexact(d.code)) {
        if diagnostics.iter().any(|d| d.is_error() && !inexact(d.code)) {
            return Err(diagnostics);
        }
        diagnostics.retain(|d| !inexact(d.code));
        let reached = frames::reached(program);
        out = applier_defs(program, &reached.appliers);
        let mut names = taken_names(program);
        match frames::convert(&ctx, &reached, &lines, &mut names, &mut diagnostics) {
            Some(defs) => out.extend(defs),
            None if !has_errors(&diagnostics) => {
                diagnostics.push(internal("the programs could not be put on frames".into()));
            }
            None => {}
        }
    }
    let mut seen = std::collections::HashSet::new();
    diagnostics.retain(|d| seen.insert((d.code, d.message.clone(), d.span())));
    if has_errors(&diagnostics) {
        return Err(diagnostics);
    }
    let output = print::file(program, name, &out).map_err(|internal| vec![internal])?;
    Ok(Combinatorized {
        program: output.program,
        text: output.text,
        warnings: diagnostics,
        origins: output.origins,
    })
}

/// The diagnostics of Algorithm 3 that say its forms would not be exact
/// (or cannot express the program): the programs go on frames instead.
fn inexact(code: Code) -> bool {
    let inexact = [
        codes::E0801,
        codes::E0802,
        codes::E0803,
        codes::E0804,
        codes::E0805,
        codes::E0806,
        codes::W0801,
        codes::W0802,
        codes::W0803,
    ];
    inexact.contains(&code)
}

/// The names the output may not give helpers: definitions and pointers.
fn taken_names(program: &Program) -> Names {
    let mut names = Names::default();
    for taken in program.defs.iter().map(|d| &d.name) {
        names.take(taken);
    }
    for taken in program.pointers.iter().map(|p| &p.name) {
        names.take(taken);
    }
    names
}

/// The appliers `ids` of the input, as output.
fn applier_defs(program: &Program, ids: &[usize]) -> Vec<OutDef> {
    let defs = ids.iter().filter_map(|&id| program.defs.get(id));
    defs.filter_map(|def| match &def.body {
        Body::Applier(applier) => Some(OutDef {
            name: def.name.clone(),
            comment: None,
            node: applier_node(program, applier),
            origin: def.span,
            runs: None,
        }),
        _ => None,
    })
    .collect()
}

/// Algorithm 3: the output definitions of `work` (its appliers as they
/// are, each normal program converted), with what it found.
fn algorithm3(
    ctx: &Context,
    work: &work::Work,
    lines: &Lines,
    diagnostics: &mut Vec<Diagnostic>,
) -> Vec<OutDef> {
    let program = ctx.program;
    let mut names = taken_names(program);
    let mut out = Vec::new();
    for &id in &work.emitted {
        let Some(def) = program.defs.get(id) else {
            continue;
        };
        let (Body::Normal(original), Some(body)) = (&def.body, work.body(id)) else {
            out.extend(applier_defs(program, &[id]));
            continue;
        };
        let last = original.last().map_or(def.span.end, |s| extent(s).end);
        let whole = Extent::new(def.span.start, last);
        let errors_before = diagnostics.iter().filter(|d| d.is_error()).count();
        let converter = Converter {
            ctx,
            emit: Emitter::new(program, lines, &mut names, &def.name),
            def: id,
            diagnostics,
            after_call: None,
        };
        match converter.convert(body, whole) {
            Some(defs) => out.extend(defs),
            None if diagnostics.iter().filter(|d| d.is_error()).count() == errors_before => {
                let detail = format!(
                    "`{}` could not be converted, and no reason was given",
                    def.name
                );
                diagnostics.push(internal(detail));
            }
            None => {}
        }
    }
    out
}

/// An applier of the input, as output.
fn applier_node(program: &Program, applier: &Applier) -> Node {
    let arg = |callee: &Callee| match callee {
        Callee::Def(id, _) => Arg::Def(program.defs.get(*id).map_or("?", |d| &d.name).to_string()),
        Callee::Act(app) => Arg::Act(app.act.clone()),
    };
    match applier {
        Applier::Act(app) => Node::Arg(Arg::Act(app.act.clone())),
        Applier::Combinator {
            combinator,
            detector,
            args,
            ..
        } => Node::Comb(Box::new(Comb {
            combinator: *combinator,
            detector: detector.clone(),
            args: args.each_ref().map(arg),
            origins: args.each_ref().map(|callee| match callee {
                Callee::Act(app) => Some(app.span),
                Callee::Def(..) => None,
            }),
        })),
    }
}
