//! `cnpic train-core`: train a core on the stdlib combinators and save it.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use clap::builder::TypedValueParser as _;
use cnpi::diagnostic::{Diagnostic, Sources, codes};
use cnpi::files::write_atomic;
use cnpi_neural::core::train::{TrainOptions, train};
use cnpi_neural::core::{self, DEFAULT_CELLS, Metadata, named, stdlib_combinators};
use indicatif::{ProgressBar, ProgressStyle};

use super::output::{out, outln};
use super::report::{command_line, exit_code, print_diagnostics};

#[derive(Args)]
pub struct TrainCoreArgs {
    /// LSTM cells (the size of the hidden state and of each embedding).
    #[arg(long, value_name = "N", default_value_t = DEFAULT_CELLS,
          value_parser = clap::value_parser!(u16).range(1..=1024).map(usize::from))]
    cells: usize,
    /// Seed of the initial weights and of the trace order.
    #[arg(long, value_name = "S", default_value_t = 1)]
    seed: u64,
    /// Where to write the core (safetensors).
    #[arg(short, long, value_name = "PATH", default_value = "core.safetensors")]
    output: PathBuf,
    /// Stop after this many epochs even if verification still fails.
    #[arg(long, value_name = "E", default_value_t = 1000)]
    epochs: usize,
}

pub fn train_core(args: &TrainCoreArgs) -> ExitCode {
    match run(args) {
        Ok(passed) => exit_code(passed),
        Err(diagnostic) => {
            print_diagnostics(&[diagnostic], &Sources::new());
            exit_code(false)
        }
    }
}

/// Trains, writes the file, prints the verification table; `Ok(false)`
/// when the core was written but fails verification.
fn run(args: &TrainCoreArgs) -> Result<bool, Diagnostic> {
    let behaviours = named(stdlib_combinators()?);
    let bar = ProgressBar::new(args.epochs as u64).with_style(
        ProgressStyle::with_template("{bar:30} epoch {pos}/{len}  {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let options = TrainOptions::new(args.cells, args.seed, args.epochs);
    let trained = train(&behaviours, &options, &mut |report| {
        bar.set_position(report.epoch as u64);
        bar.set_message(format!(
            "accuracy {:.2}%  loss {:.4}  rate {}",
            report.accuracy * 100.0,
            report.loss,
            report.learning_rate
        ));
    })?;
    bar.finish_and_clear();
    let metadata = Metadata {
        combinators: behaviours
            .iter()
            .map(|(name, _)| name.to_string())
            .collect(),
        seed: args.seed,
        epochs: trained.epochs,
        command: command_line(),
        version: env!("CARGO_PKG_VERSION").to_string(),
        verification: trained.verification.summary(),
    };
    let bytes = core::write(&trained.weights, &metadata);
    write_atomic(&args.output, &bytes).map_err(|error| {
        Diagnostic::error(
            codes::E1005,
            format!(
                "cannot write the core file `{}`: {error}",
                args.output.display()
            ),
        )
    })?;
    outln!(
        "trained {} cells for {} epochs (seed {}); wrote `{}`\n",
        args.cells,
        trained.epochs,
        args.seed,
        args.output.display()
    );
    out!("{}", trained.verification);
    if trained.verification.passed() {
        return Ok(true);
    }
    Err(Diagnostic::error(
        codes::E1004,
        format!(
            "the core fails verification after {} epochs; `{}` was written, but cnpic refuses to run it",
            trained.epochs,
            args.output.display()
        ),
    )
    .with_help("train for more epochs (`--epochs`) or with another `--seed`"))
}
