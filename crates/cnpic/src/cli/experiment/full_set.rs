//! `cnpic experiment full-set` and `cnpic experiment cells`.

use std::path::Path;
use std::process::ExitCode;

use clap::builder::TypedValueParser as _;
use clap::{Args, ValueEnum};
use cnpi::diagnostic::Sources;
use cnpi_experiments::cells::Cells;
use cnpi_experiments::full_set::{FullSet, behaviours};
use cnpi_experiments::{Experiment, Output, Shard, run, save};
use cnpi_neural::core::fast::Variant;

use super::sweep::{RunArgs, ScheduleArgs, SweepArgs, finish, finish_saved, run_and_save};
use crate::cli::report::print_diagnostics;

#[derive(Clone, Copy, ValueEnum)]
pub enum Embedding {
    /// The embedding is the LSTM's initial state (the shipped design).
    State0,
    /// The embedding is fed as input at every step, as in NPI.
    Input,
    /// An encoder LSTM reads the combinator's text; its last state
    /// initialises the core.
    Seq2seq,
}

impl From<Embedding> for Variant {
    fn from(embedding: Embedding) -> Variant {
        match embedding {
            Embedding::State0 => Variant::State0,
            Embedding::Input => Variant::Input,
            Embedding::Seq2seq => Variant::Seq2seq,
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Text,
    Json,
}

#[derive(Args)]
pub struct FullSetArgs {
    /// LSTM cells (and embedding size).
    #[arg(long, value_name = "N", default_value_t = 16,
          value_parser = clap::value_parser!(u16).range(1..=256).map(usize::from))]
    cells: usize,
    /// How the combinator reaches the core.
    #[arg(long, value_enum, default_value = "state0")]
    embedding: Embedding,
    /// Seed of the initial weights and the trace order.
    #[arg(long, value_name = "S", default_value_t = 1)]
    seed: u64,
    /// Train this many cores, seeds `seed`, `seed + 1`, ...
    #[arg(long, value_name = "N", default_value_t = 1,
          value_parser = clap::value_parser!(u64).range(1..=10_000))]
    seeds: u64,
    #[command(flatten)]
    schedule: ScheduleArgs,
    /// With `--out` or `--shard`, the rows are also written as files, as
    /// the sweeps write them.
    #[command(flatten)]
    run: RunArgs,
    /// `json`: one object per core with `combinators`, `accuracy`,
    /// `perfect`, `seconds` and the settings.
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
}

pub fn full_set(args: &FullSetArgs) -> ExitCode {
    let set = match behaviours() {
        Ok(set) => set,
        Err(diagnostic) => return finish(Err(diagnostic)),
    };
    let experiment = FullSet {
        set,
        training: args.schedule.training(args.embedding.into(), args.cells),
        seeds: (0..args.seeds).map(|i| args.seed.wrapping_add(i)).collect(),
    };
    let results = run(&experiment, args.run.shard, args.run.threads);
    // The files first, so that an array job's shard is saved whatever it
    // prints.
    let saved = if args.run.out.is_some() || args.run.shard != Shard::ALL {
        match save::<FullSet>(&results, &args.run.folder(FullSet::NAME)) {
            Ok(saved) => Some(saved),
            Err(diagnostic) => return finish(Err(diagnostic)),
        }
    } else {
        None
    };
    if args.format == Format::Json {
        if let Some(saved) = &saved {
            print_diagnostics(&saved.warnings, &Sources::new());
        }
        let objects: Vec<serde_json::Value> = results
            .records
            .iter()
            .map(|record| {
                let mut object = serde_json::to_value(&record.row).unwrap_or_default();
                object["seconds"] = serde_json::json!(record.seconds);
                object
            })
            .collect();
        let value = match <[_; 1]>::try_from(objects) {
            Ok([one]) => one,
            Err(many) => serde_json::Value::Array(many),
        };
        println!("{value}");
        return ExitCode::SUCCESS;
    }
    match saved {
        Some(saved) => finish_saved(Ok(saved)),
        None => finish(FullSet::summarize(
            &results,
            &mut Output::new(Path::new(".")),
        )),
    }
}

#[derive(Args)]
pub struct CellsArgs {
    /// Cell counts 1 to this.
    #[arg(long, value_name = "N", default_value_t = 16,
          value_parser = clap::value_parser!(u16).range(1..=256).map(usize::from))]
    max_cells: usize,
    /// The variants to sweep (default: all three).
    #[arg(long, value_enum, value_delimiter = ',')]
    embedding: Vec<Embedding>,
    #[command(flatten)]
    sweep: SweepArgs,
}

pub fn cells(args: &CellsArgs) -> ExitCode {
    let set = match behaviours() {
        Ok(set) => set,
        Err(diagnostic) => return finish(Err(diagnostic)),
    };
    let variants = if args.embedding.is_empty() {
        Variant::ALL.to_vec()
    } else {
        args.embedding.iter().map(|&e| e.into()).collect()
    };
    let experiment = Cells {
        set,
        variants,
        cells: (1..=args.max_cells).collect(),
        seeds: args.sweep.seed_list(),
        max_epochs: args.sweep.schedule.max_epochs,
        learning_rate: args.sweep.schedule.learning_rate,
    };
    run_and_save(&experiment, &args.sweep.run)
}
