//! What every sweep takes (seeds, shard, threads, output folder) and how
//! a run ends: files written, summary printed, diagnostics on stderr.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use cnpi::diagnostic::{Diagnostic, Sources};
use cnpi_experiments::full_set::Training;
use cnpi_experiments::{Experiment, Saved, Shard, run, save};
use cnpi_neural::core::fast::Variant;

use crate::cli::report::{exit_code, print_diagnostics};

#[derive(Args)]
pub struct SweepArgs {
    /// The first seed; trials use `seed`, `seed + 1`, ... (`--seeds` of them).
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,
    /// How many seeds (independent trials) per setting.
    #[arg(long, value_name = "N", default_value_t = 5,
          value_parser = clap::value_parser!(u64).range(1..=10_000))]
    pub seeds: u64,
    #[command(flatten)]
    pub schedule: ScheduleArgs,
    #[command(flatten)]
    pub run: RunArgs,
}

/// Where and how the trials run, and where their files go.
#[derive(Args)]
pub struct RunArgs {
    /// Run only shard `i` of `n` (1-based), for array jobs; join the
    /// shards' `results.json` with `cnpic experiment merge`.
    #[arg(long, value_name = "i/n", default_value = "1/1")]
    pub shard: Shard,
    /// Worker threads (0: one per core).
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub threads: usize,
    /// The folder for `results.json`, `rows.csv` and the summary files
    /// (default `results/EXPERIMENT`).
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
}

/// How every training of an experiment runs: batch-1 SGD at a rate that
/// decays ×0.1 after 10 epochs without progress, as in the paper.
#[derive(Args)]
pub struct ScheduleArgs {
    /// The SGD learning rate (the paper's is 0.5); a finite number above 0.
    #[arg(long, value_name = "R", default_value_t = 0.5, value_parser = positive)]
    pub learning_rate: f32,
    /// Give up on a training after this many epochs.
    #[arg(long, value_name = "E", default_value_t = 1000)]
    pub max_epochs: usize,
}

impl ScheduleArgs {
    /// A training of `cells` cells of `variant` on this schedule.
    pub fn training(&self, variant: Variant, cells: usize) -> Training {
        Training {
            variant,
            cells,
            max_epochs: self.max_epochs,
            learning_rate: self.learning_rate,
        }
    }
}

impl SweepArgs {
    pub fn seed_list(&self) -> Vec<u64> {
        (0..self.seeds).map(|i| self.seed.wrapping_add(i)).collect()
    }
}

/// Runs `experiment` as `args` say, writes its files into `args.out`
/// (default `results/NAME`) and prints the summary.
pub fn run_and_save<E: Experiment>(experiment: &E, args: &RunArgs) -> ExitCode {
    let results = run(experiment, args.shard, args.threads);
    finish_saved(save::<E>(&results, &args.folder(E::NAME)))
}

impl RunArgs {
    /// `--out`, or `results/NAME`.
    pub fn folder(&self, name: &str) -> PathBuf {
        self.out
            .clone()
            .unwrap_or_else(|| PathBuf::from("results").join(name))
    }
}

/// A finite number above 0 (a learning rate): NaN, infinities, 0 and
/// negative rates are usage errors, since they train nothing.
pub fn positive(text: &str) -> Result<f32, String> {
    let value = finite(text)?;
    if value > 0.0 {
        return Ok(value);
    }
    Err(format!("`{text}` is not above 0"))
}

/// A finite number of 0 or more (a weight such as `--entropy`).
pub fn non_negative(text: &str) -> Result<f32, String> {
    let value = finite(text)?;
    if value >= 0.0 {
        return Ok(value);
    }
    Err(format!("`{text}` is below 0"))
}

fn finite(text: &str) -> Result<f32, String> {
    match text.trim().parse::<f32>() {
        Ok(value) if value.is_finite() => Ok(value),
        Ok(_) => Err(format!("`{text}` is not a finite number")),
        Err(_) => Err(format!("`{text}` is not a number")),
    }
}

/// Prints the summary or the diagnostic.
pub fn finish(outcome: Result<String, Diagnostic>) -> ExitCode {
    finish_saved(outcome.map(|text| Saved {
        text,
        warnings: Vec::new(),
    }))
}

/// Prints what a save wrote, with its warnings (a plot that could not be
/// drawn), or the diagnostic that stopped it.
pub fn finish_saved(outcome: Result<Saved, Diagnostic>) -> ExitCode {
    match outcome {
        Ok(saved) => {
            print_diagnostics(&saved.warnings, &Sources::new());
            print!("{}", saved.text);
            exit_code(true)
        }
        Err(diagnostic) => {
            print_diagnostics(&[diagnostic], &Sources::new());
            exit_code(false)
        }
    }
}
