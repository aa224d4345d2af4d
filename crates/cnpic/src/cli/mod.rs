//! The subcommands of `cnpic` and what they share.
//!
//! [`Cli`] is the clap definition (its doc comments are the `--help` text);
//! each subcommand lives in its own file and returns an exit code: 0 for
//! success, 1 for a diagnosed error in the program or its input. clap itself
//! exits with 2 on usage errors.

mod build;
mod check;
mod combinatorize;
mod experiment;
mod explain;
mod fmt;
mod learn;
mod lsp;
mod memory;
mod output;
mod report;
mod run;
mod sources;
mod train_core;
mod verify_core;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// cnpic: compile and run Combinatory Neural Programmer-Interpreter programs.
///
/// Programs are `.cnpi` files: an `env` line, optional `state(...)`, and
/// definitions written either as combinator appliers
/// (`def BSTEP: linrec(A[P2] != END?; COMPSWAP, RSHIFT, NOP)`) or as normal
/// programs (`def BSTEP():` followed by an indented block).
#[derive(Parser)]
#[command(name = "cnpic", version, about, long_about)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Parse and type-check a program; print diagnostics on stderr.
    ///
    /// Exits with 0 when the file is clean (warnings allowed), 1 on errors.
    Check {
        /// The `.cnpi` file to check.
        file: PathBuf,
        /// The definition to start from (default: the one no other
        /// definition refers to). Reachability warnings are relative to it.
        #[arg(long, value_name = "NAME")]
        entry: Option<String>,
    },
    /// Run a program on an input and print the final environment.
    ///
    /// Runs on the network by default; `--symbolic` runs the exact
    /// reference interpreter instead.
    Run(run::RunArgs),
    /// Turn normal programs into appliers; print the combinatory file.
    ///
    /// Exits with 1, and says why, when a program cannot be converted.
    Combinatorize {
        /// The `.cnpi` file to convert.
        file: PathBuf,
        /// Write the result to OUT instead of stdout.
        #[arg(short, long, value_name = "OUT")]
        output: Option<PathBuf>,
        /// The definition to start from (default: the one no other
        /// definition refers to). The output holds what it reaches.
        #[arg(long, value_name = "NAME")]
        entry: Option<String>,
    },
    /// Compile a program into a program memory (`.cnpim`): keys, applier
    /// embeddings and verified detectors.
    Build(build::BuildArgs),
    /// Work with program-memory files.
    #[command(subcommand)]
    Memory(memory::MemoryCommand),
    /// Train a core (LSTM and combinator embeddings) on the combinators of
    /// `stdlib/core.cnpi` and write it as safetensors.
    ///
    /// Training stops as soon as the core passes verification; the file
    /// records the seed, cells and command line.
    TrainCore(train_core::TrainCoreArgs),
    /// Verify a core exhaustively against `stdlib/core.cnpi` and print the
    /// table; exits with 1 on any mismatch.
    VerifyCore {
        /// The core file (default: the core shipped with cnpi).
        path: Option<PathBuf>,
    },
    /// Run one of the paper's experiments (seeded, reproducible).
    #[command(subcommand)]
    Experiment(experiment::ExperimentCommand),
    /// Print the long explanation of a diagnostic code, e.g. `cnpic explain E0101`.
    Explain {
        /// A code such as E0101 or W0101 (case does not matter).
        code: String,
    },
    /// Lay `.cnpi` files out canonically (comments kept); `--check` only
    /// names the files that would change.
    Fmt(fmt::FmtArgs),
    /// Run the language server on stdin and stdout, for editors.
    Lsp,
    /// Fill the holes of a sketch (`key = ?`, `while ?:`, `def STEP: ?`)
    /// from input/output examples, on the shipped core, and print the
    /// completed program.
    ///
    /// Exits with 1, and prints the best candidate and the examples it
    /// fails, when no filling gives every example's output.
    Learn(learn::LearnArgs),
}

/// The command line, parsed. `cnpic run ...` is first parsed on the `run`
/// subcommand alone, as clap builds every subcommand's arguments (the
/// experiments' too) before parsing: a third of a small run's start-up.
/// The arguments are `run`'s own, so what that parse accepts, the whole
/// parser would give the same values; anything else (an error, `--help`)
/// goes to the whole parser, which reports it as always.
pub fn parse_args() -> Cli {
    parse_run().unwrap_or_else(Cli::parse)
}

/// `cnpic run ...` parsed on the `run` subcommand alone, if that accepts it.
fn parse_run() -> Option<Cli> {
    use clap::{Args, FromArgMatches};
    if std::env::args_os().nth(1)? != "run" {
        return None;
    }
    let run = run::RunArgs::augment_args(clap::Command::new("run"));
    let mut matches = (clap::Command::new("cnpic").subcommand(run))
        .try_get_matches()
        .ok()?;
    let (_, mut run) = matches.remove_subcommand()?;
    let args = run::RunArgs::from_arg_matches_mut(&mut run).ok()?;
    Some(Cli {
        command: Command::Run(args),
    })
}

/// Runs the command; a closed pipe or a failed write on the way ends it
/// with a clear status (see [`output`]).
pub fn execute(cli: Cli) -> ExitCode {
    output::guarded(move || command(cli.command))
}

fn command(command: Command) -> ExitCode {
    match command {
        Command::Check { file, entry } => check::check(&file, entry.as_deref()),
        Command::Run(args) => run::run(&args),
        Command::Combinatorize {
            file,
            output,
            entry,
        } => combinatorize::combinatorize(&file, output.as_deref(), entry.as_deref()),
        Command::Build(args) => build::build(&args),
        Command::Memory(command) => memory::memory(&command),
        Command::TrainCore(args) => train_core::train_core(&args),
        Command::VerifyCore { path } => verify_core::verify_core(path.as_deref()),
        Command::Experiment(command) => experiment::experiment(&command),
        Command::Explain { code } => explain::explain(&code),
        Command::Fmt(args) => fmt::fmt(&args),
        Command::Lsp => lsp::lsp(),
        Command::Learn(args) => learn::learn(&args),
    }
}

/// The detector cache the environment names: the one place cnpic reads
/// `CNPI_CACHE_DIR`, `XDG_CACHE_HOME` and `HOME`, once per command, and
/// hands the library the folder as a value.
fn detector_cache() -> cnpi_neural::detector::Cache {
    cnpi_neural::detector::Cache::located(|name| std::env::var_os(name))
}
