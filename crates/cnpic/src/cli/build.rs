//! `cnpic build FILE -o FILE.cnpim`: compile a program into a new program
//! memory (keys, applier embeddings, trained and verified detectors),
//! combinatorizing normal programs first.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use cnpi::diagnostic::Sources;
use cnpi::program::Body;
use cnpi_neural::detector::Cache;
use cnpi_neural::memory::{DEFAULT_SEED, Memory};

use super::combinatorize::convert_checked;
use super::memory::{print_summary, write_memory};
use super::report::{Compiled, compile_file, exit_code, print_diagnostics};

#[derive(Args)]
pub struct BuildArgs {
    /// The `.cnpi` file to compile.
    file: PathBuf,
    /// Where to write the program memory (default: FILE with the extension
    /// `.cnpim`).
    #[arg(short, long, value_name = "PATH")]
    output: Option<PathBuf>,
    /// The definition the program starts from (default: the one no other
    /// definition refers to).
    #[arg(long, value_name = "NAME")]
    entry: Option<String>,
    /// Seed of the keys and of detector training.
    #[arg(long, value_name = "S", default_value_t = DEFAULT_SEED)]
    seed: u64,
}

pub fn build(args: &BuildArgs) -> ExitCode {
    let name = args.file.display().to_string();
    let compiled = compile_file(&args.file, args.entry.as_deref());
    let Some(compiled) = compiled.and_then(|c| for_the_network(c, &name)) else {
        return exit_code(false);
    };
    let cache = Cache::from_env();
    let built = Memory::with_program(&compiled.program, &name, &compiled.text, args.seed, &cache);
    let memory = match built {
        Ok(memory) => memory,
        Err(diagnostic) => {
            print_diagnostics(&[diagnostic], &compiled.sources);
            return exit_code(false);
        }
    };
    let output = args
        .output
        .clone()
        .unwrap_or_else(|| args.file.with_extension("cnpim"));
    match write_memory(&output, &memory) {
        Ok(()) => {
            print_summary(&memory, 0, &output);
            exit_code(true)
        }
        Err(diagnostic) => {
            print_diagnostics(&[diagnostic], &Sources::new());
            exit_code(false)
        }
    }
}

/// What the network runs for a file compiled as `compiled` and named
/// `name`: the file itself when all its definitions are appliers, else its
/// combinatorized form (language.md §5), whose text is then the source that
/// diagnostics point into. `None` after printing why it cannot be had.
pub fn for_the_network(compiled: Compiled, name: &str) -> Option<Compiled> {
    let normal = compiled
        .program
        .defs
        .iter()
        .any(|def| matches!(def.body, Body::Normal(_)));
    if !normal {
        return Some(compiled);
    }
    match convert_checked(&compiled, name) {
        Ok((converted, check)) => Some(Compiled {
            program: check.program?,
            sources: check.sources,
            text: converted.text,
        }),
        Err(diagnostics) => {
            print_diagnostics(&diagnostics, &compiled.sources);
            None
        }
    }
}
