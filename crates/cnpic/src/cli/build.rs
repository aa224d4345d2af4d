//! `cnpic build FILE -o FILE.cnpim`: compile a program into a new program
//! memory (keys, applier embeddings, trained and verified detectors),
//! combinatorizing normal programs first.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use cnpi::files::refuse_overwriting;
use cnpi_neural::cnpim;
use cnpi_neural::memory::DEFAULT_SEED;

use cnpi_neural::load::{build_memory, compile_for_network};

use super::report::{
    command_line, exit_code, fail, print_diagnostics, print_summary, progress_bar,
};

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
    let output = args
        .output
        .clone()
        .unwrap_or_else(|| args.file.with_extension("cnpim"));
    if let Err(diagnostic) = refuse_overwriting(&[&args.file], &[&output]) {
        return fail(diagnostic);
    }
    let name = args.file.display().to_string();
    let entry = args.entry.as_deref();
    let Some(ready) = compile_for_network(&args.file, entry, &mut print_diagnostics) else {
        return exit_code(false);
    };
    let cache = super::detector_cache();
    let memory =
        match progress_bar(|progress| build_memory(&ready, &name, args.seed, &cache, progress)) {
            Ok(memory) => memory,
            Err(diagnostic) => {
                print_diagnostics(&[diagnostic], &ready.combinatory.sources);
                return exit_code(false);
            }
        };
    match cnpim::write_file(&output, &memory, &command_line()) {
        Ok(()) => {
            print_summary(&memory, 0, &output);
            exit_code(true)
        }
        Err(diagnostic) => fail(diagnostic),
    }
}
