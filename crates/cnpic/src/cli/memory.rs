//! `cnpic memory add MEM.cnpim FILE.cnpi`: extend a program memory;
//! `cnpic memory verify MEM.cnpim`: check it against its stored sources.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Subcommand;
use cnpi::diagnostic::{Diagnostic, codes};
use cnpi::files::{lock, refuse_overwriting};
use cnpi_neural::cnpim;
use cnpi_neural::load::compile_for_network;

use super::output::outln;
use super::report::{
    command_line, exit_code, fail, print_diagnostics, print_summary, progress_bar,
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
    /// Check a program memory against the sources it stores: rebuild every
    /// program from its source and compare every row, key, embedding and
    /// detector bit for bit. Exits with 1 and names the first difference.
    Verify {
        /// The program memory (`.cnpim`).
        memory: PathBuf,
    },
}

pub fn memory(command: &MemoryCommand) -> ExitCode {
    match command {
        MemoryCommand::Add {
            memory,
            file,
            output,
            entry,
        } => add(memory, file, output.as_deref(), entry.as_deref()),
        MemoryCommand::Verify { memory } => verify(memory),
    }
}

fn verify(path: &Path) -> ExitCode {
    let verified = cnpim::read_file(path).and_then(|memory| {
        memory.verify_sources(&path.display().to_string(), &super::detector_cache())?;
        Ok(memory)
    });
    match verified {
        Ok(memory) => {
            outln!(
                "{}: {} programs, {} rows and {} detectors match the sources it stores",
                path.display(),
                memory.units.len(),
                memory.rows.len(),
                memory.detectors.len()
            );
            exit_code(true)
        }
        Err(diagnostic) => fail(diagnostic),
    }
}

fn add(memory: &Path, file: &Path, output: Option<&Path>, entry: Option<&str>) -> ExitCode {
    let target = output.unwrap_or(memory);
    // Without `-o` the memory is rewritten in place, as asked.
    let inputs = match output {
        Some(_) => vec![memory, file],
        None => vec![file],
    };
    if let Err(diagnostic) = refuse_overwriting(&inputs, &[target]) {
        return fail(diagnostic);
    }
    // Held until the new memory is written: a concurrent `memory add` to
    // the same file waits, then reads what this one wrote.
    let _lock = match output {
        Some(_) => None,
        None => match lock(memory) {
            Ok(lock) => Some(lock),
            // Reading it says so, with the usual message.
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => None,
            Err(error) => {
                return fail(Diagnostic::error(
                    codes::E1101,
                    format!("cannot lock `{}`: {error}", memory.display()),
                ));
            }
        },
    };
    let mut loaded = match cnpim::read_file(memory) {
        Ok(loaded) => loaded,
        Err(diagnostic) => return fail(diagnostic),
    };
    let name = file.display().to_string();
    let Some(ready) = compile_for_network(file, entry, &mut print_diagnostics) else {
        return exit_code(false);
    };
    let compiled = &ready.combinatory;
    let (program, text) = (&compiled.program, &compiled.text);
    let cache = super::detector_cache();
    let added =
        progress_bar(|progress| loaded.add_reporting(program, &name, text, &cache, progress));
    let unit = match added {
        Ok(unit) => unit,
        Err(diagnostic) => {
            print_diagnostics(&[diagnostic], &ready.combinatory.sources);
            return exit_code(false);
        }
    };
    match cnpim::write_file(target, &loaded, &command_line()) {
        Ok(()) => {
            print_summary(&loaded, unit, target);
            exit_code(true)
        }
        Err(diagnostic) => fail(diagnostic),
    }
}
