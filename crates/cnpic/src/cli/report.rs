//! Reading source files and printing what the library hands back:
//! diagnostics on stderr, and the summary of a program memory.

use std::io::IsTerminal;
use std::path::Path;
use std::process::ExitCode;

use cnpi::compile::{Compiled, ForNetwork, compile, for_the_network};
use cnpi::diagnostic::{Diagnostic, Sources, codes, render};
use cnpi_neural::detector::Cache;
use cnpi_neural::memory::Memory;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// Compiles `path`, prints every diagnostic, and returns the program when
/// there were no errors.
pub fn compile_file(path: &Path, entry: Option<&str>) -> Option<Compiled> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(error) => {
            let diagnostic = Diagnostic::error(
                codes::E0901,
                format!("cannot read `{}`: {error}", path.display()),
            );
            print_diagnostics(&[diagnostic], &Sources::new());
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

/// Compiles `path` for the network (combinatorizing normal programs),
/// printing every diagnostic and warning on the way.
pub fn compile_for_network(path: &Path, entry: Option<&str>) -> Option<ForNetwork> {
    let compiled = compile_file(path, entry)?;
    match for_the_network(compiled, &path.display().to_string()) {
        Ok(ready) => {
            if let Some((written, warnings)) = &ready.written {
                print_diagnostics(warnings, &written.sources);
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

/// Writes diagnostics to stderr, coloured when stderr is a terminal.
pub fn print_diagnostics(diagnostics: &[Diagnostic], sources: &Sources) {
    let color = std::io::stderr().is_terminal();
    for diagnostic in diagnostics {
        eprint!("{}", render(diagnostic, sources, color));
    }
}

/// Prints one diagnostic that is not about a source text; exit status 1.
pub fn fail(diagnostic: Diagnostic) -> ExitCode {
    print_diagnostics(&[diagnostic], &Sources::new());
    exit_code(false)
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
    let count = |n: usize, what: &str| format!("{n} {what}{}", if n == 1 { "" } else { "s" });
    println!(
        "{}: added `{}` ({}, {}); the memory now holds {}, {} and {} (key seed {})",
        path.display(),
        memory.units[unit].name,
        count(rows, "row"),
        count(detectors.len(), "detector"),
        count(memory.units.len(), "program"),
        count(memory.rows.len(), "row"),
        count(memory.detectors.len(), "detector"),
        memory.seed
    );
    let width = detectors
        .iter()
        .map(|d| d.text.len())
        .max()
        .unwrap_or(0)
        .max(9);
    println!("{:<width$}  {:>6}  verified", "condition", "domain");
    for row in detectors {
        println!("{:<width$}  {:>6}  yes", row.text, row.detector.domain());
    }
}
