//! Printing what the library hands back: diagnostics on stderr, the
//! progress of detector training, and the summary of a program memory.

use std::io::IsTerminal;
use std::path::Path;
use std::process::ExitCode;

use cnpi::diagnostic::{Diagnostic, Sources, render, shown};
use cnpi_neural::memory::Memory;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use super::output::{err, outln};

/// Runs `work` with a progress bar of detector training drawn on stderr
/// when it is a terminal, and clears the bar after. Elsewhere no bar is
/// made (a hidden one cost 1.5 % of a one-element run's instructions).
pub fn progress_bar<T>(work: impl FnOnce(&mut dyn FnMut(usize, usize)) -> T) -> T {
    let bar = std::io::stderr().is_terminal().then(|| {
        let bar = ProgressBar::hidden();
        bar.set_style(
            ProgressStyle::with_template("{bar:30} training {pos}/{len}")
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        bar.set_draw_target(ProgressDrawTarget::stderr());
        bar
    });
    let done = work(&mut |done, total| {
        if let Some(bar) = &bar {
            bar.set_length(total as u64);
            bar.set_position(done as u64);
        }
    });
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    done
}

/// Writes diagnostics to stderr, coloured when stderr is a terminal: those
/// `cnpi::diagnostic::shown` picks (at most 50), then a line saying how many
/// were left out. With none, stderr is not even asked whether it is a
/// terminal (a system call each time).
pub fn print_diagnostics(diagnostics: &[Diagnostic], sources: &Sources) {
    if diagnostics.is_empty() {
        return;
    }
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
