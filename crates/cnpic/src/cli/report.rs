//! Reading source files and printing what the library hands back:
//! diagnostics on stderr, and the summary of a program memory.

use std::io::IsTerminal;
use std::path::Path;
use std::process::ExitCode;

use cnpi::compile::{Compiled, ForNetwork, compile, for_the_network};
use cnpi::diagnostic::{Diagnostic, Sources, codes, render, shown};
use cnpi_neural::describe;
use cnpi_neural::detector::Cache;
use cnpi_neural::memory::Memory;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use super::output::{err, outln};

/// Compiles `path`, prints every diagnostic, and returns the program when
/// there were no errors.
pub fn compile_file(path: &Path, entry: Option<&str>) -> Option<Compiled> {
    let text = match cnpi::read::text(path) {
        Ok(text) => text,
        Err(error) => {
            print_diagnostics(&[unreadable_source(path, &error)], &Sources::new());
            return None;
        }
    };
    let compilation = compile(&path.display().to_string(), &text, entry);
    print_diagnostics(&compilation.diagnostics, &compilation.sources);
    Some(Compiled {
        program: compilation.program?,
        sources: compilation.sources,
        text,
    })
}

/// E0901 for a source file that cannot be read; a file that is not text
/// is named for what it looks like (a program memory, a core file...).
fn unreadable_source(path: &Path, error: &std::io::Error) -> Diagnostic {
    let shown = path.display();
    if error.kind() != std::io::ErrorKind::InvalidData {
        return Diagnostic::error(codes::E0901, format!("cannot read `{shown}`: {error}"));
    }
    let looks_like = cnpi::read::bytes(path)
        .ok()
        .and_then(|bytes| describe(&bytes));
    match looks_like {
        Some(what) => Diagnostic::error(
            codes::E0901,
            format!("`{shown}` is {what}, not a source file"),
        )
        .with_help(format!(
            "this command reads a `.cnpi` source; a program memory runs with `cnpic run {shown}`"
        )),
        None => Diagnostic::error(
            codes::E0901,
            format!("cannot read `{shown}`: it is not UTF-8 text ({error})"),
        )
        .with_help("this command reads a `.cnpi` source file, which is UTF-8 text"),
    }
}

/// Compiles `path` for the network (combinatorizing normal programs),
/// printing every diagnostic and warning on the way.
pub fn compile_for_network(path: &Path, entry: Option<&str>) -> Option<ForNetwork> {
    let compiled = compile_file(path, entry)?;
    match for_the_network(compiled, &path.display().to_string()) {
        Ok(ready) => {
            if let Some(written) = &ready.written {
                print_diagnostics(&written.warnings, &written.compiled.sources);
            }
            Some(ready)
        }
        Err((diagnostics, compiled)) => {
            print_diagnostics(&diagnostics, &compiled.sources);
            None
        }
    }
}

/// A new program memory holding `ready`'s program (named `name`), its
/// detectors trained and verified (through the detector cache); `None`
/// after printing why it cannot be built.
pub fn build_memory(ready: &ForNetwork, name: &str, seed: u64) -> Option<Memory> {
    let cache = Cache::from_env();
    let built = Memory::new(seed, &cache).and_then(|mut memory| {
        add_program(&mut memory, ready, name, &cache)?;
        Ok(memory)
    });
    match built {
        Ok(memory) => Some(memory),
        Err(diagnostic) => {
            print_diagnostics(&[diagnostic], &ready.combinatory.sources);
            None
        }
    }
}

/// Adds `ready`'s program (named `name`) to `memory`, with a progress bar
/// of detector training on a terminal; the new program's index.
pub fn add_program(
    memory: &mut Memory,
    ready: &ForNetwork,
    name: &str,
    cache: &Cache,
) -> Result<usize, Diagnostic> {
    let bar = ProgressBar::hidden();
    bar.set_style(
        ProgressStyle::with_template("{bar:30} training {pos}/{len}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    if std::io::stderr().is_terminal() {
        bar.set_draw_target(ProgressDrawTarget::stderr());
    }
    let compiled = &ready.combinatory;
    let added = memory.add_reporting(
        &compiled.program,
        name,
        &compiled.text,
        cache,
        &mut |done, total| {
            bar.set_length(total as u64);
            bar.set_position(done as u64);
        },
    );
    bar.finish_and_clear();
    added
}

/// Writes diagnostics to stderr, coloured when stderr is a terminal: those
/// `cnpi::diagnostic::shown` picks (at most 50), then a line saying how many
/// were left out.
pub fn print_diagnostics(diagnostics: &[Diagnostic], sources: &Sources) {
    let color = std::io::stderr().is_terminal();
    let shown = shown(diagnostics);
    for diagnostic in &shown.diagnostics {
        err!("{}", render(diagnostic, sources, color));
    }
    if let Some(left_out) = shown.left_out() {
        err!("... and {left_out}\n");
    }
}

/// Prints one diagnostic that is not about a source text; exit status 1.
pub fn fail(diagnostic: Diagnostic) -> ExitCode {
    print_diagnostics(&[diagnostic], &Sources::new());
    exit_code(false)
}

/// `n` and `what`, plural unless `n` is 1: "1 row", "3 rows".
fn plural(n: usize, what: &str) -> String {
    format!("{n} {what}{}", if n == 1 { "" } else { "s" })
}

/// 0 for success, 1 for a diagnosed error.
pub fn exit_code(success: bool) -> ExitCode {
    if success {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// The command as typed, with the program called `cnpic`: recorded in the
/// files cnpic writes, so that they say how they were made.
pub fn command_line() -> String {
    let args = std::env::args().skip(1).map(|arg| {
        if arg.is_empty() || arg.contains(char::is_whitespace) {
            format!("'{arg}'")
        } else {
            arg
        }
    });
    std::iter::once("cnpic".to_string())
        .chain(args)
        .collect::<Vec<_>>()
        .join(" ")
}

/// What was added for program `unit`: its rows and detectors, with the
/// size of each detector's verified domain.
pub fn print_summary(memory: &Memory, unit: usize, path: &Path) {
    let rows = memory.rows.iter().filter(|r| r.unit == Some(unit)).count();
    let detectors: Vec<_> = memory
        .detectors
        .iter()
        .filter(|d| d.unit == Some(unit))
        .collect();
    outln!(
        "{}: added `{}` ({}, {}); the memory now holds {}, {} and {} (key seed {})",
        path.display(),
        memory.units[unit].name,
        plural(rows, "row"),
        plural(detectors.len(), "detector"),
        plural(memory.units.len(), "program"),
        plural(memory.rows.len(), "row"),
        plural(memory.detectors.len(), "detector"),
        memory.seed
    );
    // A program without detectors gets no empty table.
    if !detectors.is_empty() {
        let width = detectors
            .iter()
            .map(|d| d.text.len())
            .max()
            .unwrap_or(0)
            .max(9);
        outln!("{:<width$}  {:>6}  verified", "condition", "domain");
        for row in detectors {
            outln!("{:<width$}  {:>6}  yes", row.text, row.detector.domain());
        }
    }
    // The program's own combinators: each learned on the core and verified.
    let defined: Vec<(&str, &str)> = (memory.combinators.iter())
        .filter_map(|d| {
            let row = memory.rows.get(d.row).filter(|r| r.unit == Some(unit))?;
            let member = cnpi::stdlib::full_set::member(&d.behaviour, d.reads_c);
            Some((row.name.as_str(), member.map_or("?", |m| m.name.as_str())))
        })
        .collect();
    if !defined.is_empty() {
        let width = (defined.iter().map(|(name, _)| name.len()))
            .max()
            .unwrap_or(0)
            .max(10);
        outln!("{:<width$}  {:<9}  verified", "combinator", "member");
        for (name, member) in defined {
            outln!("{name:<width$}  {member:<9}  yes");
        }
    }
}
