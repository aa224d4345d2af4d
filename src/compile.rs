//! The front end in one call: source text to a checked program, and a
//! checked program to what the network runs.
//!
//! [`compile`] registers the user's file and the stdlib files as
//! [`Sources`] (so every diagnostic can be drawn), parses, and checks when
//! parsing succeeded. [`for_the_network`] hands on a file of appliers as it
//! is and combinatorizes a file with normal programs first ([`convert`]:
//! the combinatory program comes back as a checked value, never parsed
//! from its text); a program with holes goes to neither ([`runnable`]).
//! [`printed_agrees`] is the round trip that keeps the printer honest: the
//! printed text, parsed and checked, is the same program. Everything is
//! returned as data, warnings included; nothing here prints.

use crate::check;
use crate::combinatorize::{Combinatorized, Origins, combinatorize, internal};
use crate::diagnostic::{Diagnostic, Sources, codes, has_errors};
use crate::program::{Body, Program};
use crate::span::SourceId;
use crate::stdlib;
use crate::syntax::{self, ast};

/// The result of compiling one file.
pub struct Compilation {
    /// The user's file and the stdlib, for rendering diagnostics.
    pub sources: Sources,
    /// The parse tree, kept even for broken text (error recovery keeps
    /// every item that parsed), for tools that ask what stands where.
    pub tree: ast::File,
    /// Errors and warnings of every phase, in the order they were found.
    pub diagnostics: Vec<Diagnostic>,
    /// The checked program, present exactly when there are no errors.
    pub program: Option<Program>,
}

/// A file that compiled: its checked program, the sources to draw later
/// diagnostics against, and its text.
pub struct Compiled {
    pub program: Program,
    pub sources: Sources,
    pub text: String,
}

/// What the network runs for a file, from [`for_the_network`].
pub struct ForNetwork {
    /// The file itself when all its definitions are appliers, else its
    /// combinatorized form, whose text is the source diagnostics point into.
    pub combinatory: Compiled,
    /// For a file with normal programs: the file as written.
    pub written: Option<Written>,
}

/// A file of normal programs that was combinatorized for the network.
pub struct Written {
    /// The file as written.
    pub compiled: Compiled,
    /// The conversion's warnings, drawn against the file as written.
    pub warnings: Vec<Diagnostic>,
    /// Where each part of the combinatorized text came from: errors of a
    /// run point at the user's lines through [`Origins::to_source`].
    pub origins: Origins,
}

/// The user's file `name` with text `text`, and the stdlib files: what
/// diagnostics about a program are drawn against.
pub fn sources(name: &str, text: &str) -> Sources {
    let mut sources = Sources::new();
    sources.add(SourceId::USER, name, text.to_string());
    for file in stdlib::files() {
        sources.add(file.id, file.name.as_str(), file.text);
    }
    sources
}

/// Parses and checks `text` (shown as `name`), starting from `entry` or the
/// file's unique root definition.
pub fn compile(name: &str, text: &str, entry: Option<&str>) -> Compilation {
    let sources = sources(name, text);
    let (tree, mut diagnostics) = syntax::parse(text, SourceId::USER);
    let mut program = None;
    if !has_errors(&diagnostics) {
        let (checked, found) = check::check(&tree, entry);
        diagnostics.extend(found);
        program = checked;
    }
    Compilation {
        sources,
        tree,
        diagnostics,
        program,
    }
}

/// Converts a compiled file (named `name` in the output's header): the
/// conversion (with its warnings), and the combinatory program compiled,
/// its sources naming the output `NAME (combinatorized)`; or the
/// diagnostics, drawn against the file's sources.
pub fn convert(
    compiled: &Compiled,
    name: &str,
) -> Result<(Combinatorized, Compiled), Vec<Diagnostic>> {
    runnable(&compiled.program)?;
    let converted = combinatorize(&compiled.program, &compiled.text, name)?;
    let combinatory = combinatory(name, converted.program.clone(), converted.text.clone());
    Ok((converted, combinatory))
}

/// The combinatory program `program` with its text `text`, converted from
/// the file `name`, as a compiled file.
fn combinatory(name: &str, program: Program, text: String) -> Compiled {
    Compiled {
        program,
        sources: sources(&output_name(name), &text),
        text,
    }
}

/// How diagnostics name the combinatorized form of the file `name`.
fn output_name(name: &str) -> String {
    format!("{name} (combinatorized)")
}

/// The round trip: `converted`'s text (converted from the file `name`),
/// parsed and checked, is `converted.program`, spans included, with no
/// diagnostic but warnings copied with the user's conditions. `cnpic
/// combinatorize` checks it before printing; the tests check it on every
/// example and on random programs. E0899 when not.
pub fn printed_agrees(converted: &Combinatorized, name: &str) -> Result<(), Diagnostic> {
    let check = compile(&output_name(name), &converted.text, None);
    let Some(program) = check
        .program
        .filter(|_| only_copied_warnings(converted, &check.diagnostics))
    else {
        let found: Vec<String> = (check.diagnostics.iter())
            .map(|d| format!("{} {}", d.code, d.message))
            .collect();
        return Err(internal(format!(
            "the output does not compile cleanly: {}",
            found.join("; ")
        )));
    };
    let (parsed, built) = (format!("{program:#?}"), format!("{:#?}", converted.program));
    match parsed.lines().zip(built.lines()).position(|(a, b)| a != b) {
        None if parsed.len() == built.len() => Ok(()),
        at => {
            let line = at.unwrap_or(parsed.lines().count().min(built.lines().count()));
            let show = |text: &str| {
                text.lines()
                    .skip(line.saturating_sub(8))
                    .take(12)
                    .collect::<Vec<_>>()
                    .join("\n")
            };
            Err(internal(format!(
                "the output parses to another program than the one built, from line {line} of its dump:\nparsed:\n{}\nbuilt:\n{}",
                show(&parsed),
                show(&built)
            )))
        }
    }
}

/// E1404 at the first hole of `program`: a program with holes checks, but
/// no engine runs it until `cnpic learn` has filled them.
pub fn runnable(program: &Program) -> Result<(), Vec<Diagnostic>> {
    if let Some(blank) = program.blanks.first() {
        let name = program.defs.get(blank.def).map_or("?", |d| d.name.as_str());
        let others = match program.blanks.len() {
            1 => String::new(),
            n => format!(" (and {} more)", n - 1),
        };
        return Err(vec![
            Diagnostic::error(
                codes::E1404,
                format!("`{name}` holds a hole{others}: a program with holes cannot run"),
            )
            .with_label(blank.span, "to be learned from examples")
            .with_help(
                "fill the holes with `cnpic learn FILE --examples EXAMPLES.json`, then run what it prints",
            ),
        ]);
    }
    let Some((id, hole)) = program.holes().next() else {
        return Ok(());
    };
    let name = &program.defs[id].name;
    let count = program.holes().count();
    let others = match count {
        1 => String::new(),
        n => format!(" (and {} more)", n - 1),
    };
    Err(vec![
        Diagnostic::error(
            codes::E1404,
            format!("`{name}` is a hole{others}: a program with holes cannot run"),
        )
        .with_label(hole.span, "to be learned from examples")
        .with_help(
            "fill the holes with `cnpic learn FILE --examples EXAMPLES.json`, then run what it prints",
        ),
    ])
}

/// True when `output` (the diagnostics of the converted file, compiled)
/// holds no error and only warnings copied with the user's conditions:
/// the conversion copies conditions as values, so one that is always
/// false (W0102) is always false in both, and the user has seen it
/// already. Each must stand on output that `converted.origins` maps to the
/// user's file. Compared by code and span, never by message.
fn only_copied_warnings(converted: &Combinatorized, output: &[Diagnostic]) -> bool {
    !has_errors(output)
        && output.iter().all(|warning| {
            warning.code == codes::W0102
                && (warning.span()).is_some_and(|span| converted.origins.locate(span).is_some())
        })
}

/// What the conversion of `compiled`'s normal programs reports, for
/// `cnpic check` to show before anything runs: its warnings, or the errors
/// `run` would stop with. Nothing for a file of appliers, or with holes
/// (those check, and `run` says they must be learned first).
pub fn conversion_diagnostics(compiled: &Compiled, name: &str) -> Vec<Diagnostic> {
    let normal = (compiled.program.defs.iter()).any(|def| matches!(def.body, Body::Normal(_)));
    if !normal || runnable(&compiled.program).is_err() {
        return Vec::new();
    }
    match convert(compiled, name) {
        Ok((converted, _)) => converted.warnings,
        Err(diagnostics) => diagnostics,
    }
}

/// What the network runs for `compiled` (named `name`): the file itself
/// when all its definitions are appliers, else its combinatorized form
/// (normal programs are combinatorized first, language contract §5). On
/// failure, the diagnostics and the file they point into.
pub fn for_the_network(
    compiled: Compiled,
    name: &str,
) -> Result<ForNetwork, (Vec<Diagnostic>, Box<Compiled>)> {
    if let Err(diagnostics) = runnable(&compiled.program) {
        return Err((diagnostics, Box::new(compiled)));
    }
    let normal = compiled
        .program
        .defs
        .iter()
        .any(|def| matches!(def.body, Body::Normal(_)));
    if !normal {
        return Ok(ForNetwork {
            combinatory: compiled,
            written: None,
        });
    }
    // As `convert`, with the conversion's program and text moved, not copied.
    match combinatorize(&compiled.program, &compiled.text, name) {
        Ok(converted) => Ok(ForNetwork {
            combinatory: combinatory(name, converted.program, converted.text),
            written: Some(Written {
                compiled,
                warnings: converted.warnings,
                origins: converted.origins,
            }),
        }),
        Err(diagnostics) => Err((diagnostics, Box::new(compiled))),
    }
}
