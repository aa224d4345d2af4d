//! `cnpic memory add MEM.cnpim FILE.cnpi`: extend a program memory.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Subcommand;
use cnpi_neural::cnpim;
use cnpi_neural::detector::Cache;

use super::report::{
    command_line, compile_for_network, exit_code, fail, print_diagnostics, print_summary,
};

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
    let mut loaded = match cnpim::read_file(memory) {
        Ok(loaded) => loaded,
        Err(diagnostic) => return fail(diagnostic),
    };
    let name = file.display().to_string();
    let Some(ready) = compile_for_network(file, entry.as_deref()) else {
        return exit_code(false);
    };
    let compiled = &ready.combinatory;
    let unit = match loaded.add(&compiled.program, &name, &compiled.text, &Cache::from_env()) {
        Ok(unit) => unit,
        Err(diagnostic) => {
            print_diagnostics(&[diagnostic], &compiled.sources);
            return exit_code(false);
        }
    };
    let target = output.as_deref().unwrap_or(memory);
    match cnpim::write_file(target, &loaded, &command_line()) {
        Ok(()) => {
            print_summary(&loaded, unit, target);
            exit_code(true)
        }
        Err(diagnostic) => fail(diagnostic),
    }
}
