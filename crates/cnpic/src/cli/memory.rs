//! `cnpic memory add MEM.cnpim FILE.cnpi`, and the `.cnpim` file handling
//! that `build` and `run` share.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Subcommand;
use cnpi::diagnostic::{Diagnostic, Sources, codes};
use cnpi_neural::cnpim;
use cnpi_neural::detector::Cache;
use cnpi_neural::memory::Memory;

use super::build::for_the_network;
use super::report::{compile_file, exit_code, print_diagnostics};

#[derive(Subcommand)]
pub enum MemoryCommand {
    /// Add a program's appliers and detectors to an existing program
    /// memory (normal programs are combinatorized first). Existing rows,
    /// keys and detectors are never changed.
    Add {
        /// The program memory (`.cnpim`), rewritten unless `-o` is given.
        memory: PathBuf,
        /// The `.cnpi` file to add.
        file: PathBuf,
        /// Where to write the extended memory.
        #[arg(short, long, value_name = "PATH")]
        output: Option<PathBuf>,
        /// The definition the program starts from (default: the one no
        /// other definition refers to).
        #[arg(long, value_name = "NAME")]
        entry: Option<String>,
    },
}

pub fn memory(command: &MemoryCommand) -> ExitCode {
    let MemoryCommand::Add {
        memory,
        file,
        output,
        entry,
    } = command;
    let mut loaded = match read_memory(memory) {
        Ok(loaded) => loaded,
        Err(diagnostic) => return fail(diagnostic),
    };
    let name = file.display().to_string();
    let compiled = compile_file(file, entry.as_deref());
    let Some(compiled) = compiled.and_then(|c| for_the_network(c, &name)) else {
        return exit_code(false);
    };
    let unit = match loaded.add(&compiled.program, &name, &compiled.text, &Cache::from_env()) {
        Ok(unit) => unit,
        Err(diagnostic) => {
            print_diagnostics(&[diagnostic], &compiled.sources);
            return exit_code(false);
        }
    };
    let target = output.as_deref().unwrap_or(memory);
    match write_memory(target, &loaded) {
        Ok(()) => {
            print_summary(&loaded, unit, target);
            exit_code(true)
        }
        Err(diagnostic) => fail(diagnostic),
    }
}

fn fail(diagnostic: Diagnostic) -> ExitCode {
    print_diagnostics(&[diagnostic], &Sources::new());
    exit_code(false)
}

/// True for a path that names a program memory (`.cnpim`).
pub fn is_memory_file(path: &Path) -> bool {
    path.extension().is_some_and(|e| e == "cnpim")
}

/// Reads and checks a `.cnpim` file.
pub fn read_memory(path: &Path) -> Result<Memory, Diagnostic> {
    let bytes = std::fs::read(path).map_err(|error| {
        Diagnostic::error(
            codes::E1101,
            format!(
                "cannot read the program memory `{}`: {error}",
                path.display()
            ),
        )
        .with_help("build one with `cnpic build FILE.cnpi -o FILE.cnpim`")
    })?;
    cnpim::read(&bytes, &path.display().to_string())
}

/// Writes `memory` to `path`, recording the command line.
pub fn write_memory(path: &Path, memory: &Memory) -> Result<(), Diagnostic> {
    let command: Vec<String> = std::env::args().collect();
    let bytes = cnpim::write(memory, &command.join(" "))?;
    std::fs::write(path, bytes).map_err(|error| {
        Diagnostic::error(
            codes::E1101,
            format!(
                "cannot write the program memory `{}`: {error}",
                path.display()
            ),
        )
    })
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
