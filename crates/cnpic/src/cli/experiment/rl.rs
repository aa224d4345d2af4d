//! `cnpic experiment rl-core` (Table 4: the core and the basic combinators
//! learned by reinforcement), `rl-rnpi` (Table 5: the RNPI baseline on the
//! same tasks) and `rl-stage2` (a detector and the STEP and SORT appliers
//! learned on the fixed learned core), sweeps of
//! `cnpi-experiments` on the learners of `cnpi-rl`.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use clap::{Args, ValueEnum};
use cnpi::diagnostic::{Diagnostic, Sources, codes};
use cnpi::program::{Combinator, CombinatorKind};
use cnpi_experiments::rl_core::{RlCore, Row};
use cnpi_experiments::rl_rnpi::RlRnpi;
use cnpi_experiments::rl_stage2::{RlStage2, Summary};
use cnpi_experiments::{Experiment, Results, Saved, run, save};
use cnpi_neural::core::Core;
use cnpi_rl::core_file::core_file;
use cnpi_rl::schedule::{Curriculum, Sampling};
use cnpi_rl::stage1::{Settings, Tasks};
use cnpi_rl::stage2;

use super::super::report::{command_line, exit_code, fail, print_diagnostics};
use super::sweep::{RunArgs, non_negative};

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Format {
    Text,
    Json,
}

/// What `rl-core` and `rl-rnpi` share: the settings, the trials and the
/// objective.
#[derive(Args)]
pub struct RlArgs {
    /// How each episode's task is drawn: uniform or adaptive; a
    /// comma-separated list runs each.
    #[arg(long, value_name = "SAMPLING", value_delimiter = ',', default_value = "adaptive",
          value_parser = parse_enum::<Sampling>)]
    sampling: Vec<Sampling>,
    /// Which tasks are practised: full only (none), easy and full (mixed),
    /// easy first then full (gradual), or easy first then both
    /// (gradual-keep); a comma-separated list runs each.
    #[arg(long, value_name = "CURRICULUM", value_delimiter = ',', default_value = "gradual",
          value_parser = parse_enum::<Curriculum>)]
    curriculum: Vec<Curriculum>,
    /// Independent trials per setting (trial i uses seed S + i).
    #[arg(long, value_name = "N", default_value_t = 100,
          value_parser = clap::value_parser!(u32).range(1..=100_000))]
    trials: u32,
    /// The seed of the first trial.
    #[arg(long, value_name = "S", default_value_t = 1)]
    seed: u64,
    /// LSTM cells of the core.
    #[arg(long, value_name = "N", default_value_t = 16,
          value_parser = clap::value_parser!(u32).range(1..=256))]
    cells: u32,
    /// The weight of the entropy bonus in the core's objective (0: the
    /// paper's objective; see docs/reproduction.md); finite, 0 or more.
    #[arg(long, value_name = "B", default_value_t = cnpi_rl::stage1::ENTROPY,
          value_parser = non_negative)]
    entropy: f32,
    /// Use the raw reward, as the paper writes it, instead of the reward
    /// minus the moving average of the task's rewards at the input's length.
    #[arg(long)]
    no_baseline: bool,
    /// Text (the table beside the paper's) or JSON: one object per setting
    /// with "success" and "per_combinator" (a list for several settings).
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
    #[command(flatten)]
    run: RunArgs,
}

impl RlArgs {
    /// The sweep over every setting named, on `tasks`.
    fn experiment(&self, tasks: Tasks, episodes: usize) -> RlCore {
        let mut settings = Vec::new();
        for &sampling in &self.sampling {
            for &curriculum in &self.curriculum {
                let mut s = Settings::new(sampling, curriculum, episodes);
                s.cells = self.cells as usize;
                s.entropy = self.entropy;
                s.baseline = !self.no_baseline;
                settings.push(s);
            }
        }
        RlCore {
            settings,
            seed: self.seed,
            trials: self.trials as usize,
            tasks,
        }
    }

    /// Prints the summary as `--format` says.
    fn print(&self, text: &str, wall: f64, results: &Results<Row>) {
        match self.format {
            Format::Text => println!("{text}wall time {wall:.1} s"),
            Format::Json => {
                let cells = cnpi_experiments::rl_core::summary(results.rows());
                match cells.as_slice() {
                    [one] => print_json(&one.to_json()),
                    many => print_json(&many.iter().map(|c| c.to_json()).collect::<Vec<_>>()),
                }
            }
        }
    }
}

#[derive(Args)]
pub struct RlCoreArgs {
    /// The most episodes a trial runs.
    #[arg(long, value_name = "E", default_value_t = 5000,
          value_parser = clap::value_parser!(u32).range(1..=10_000_000))]
    episodes: u32,
    /// Write the core of the first trial that learned all three combinators
    /// and passes verification to PATH (a partial core: seq, cond, linrec),
    /// atomically; `cnpic verify-core PATH` checks it.
    #[arg(long, value_name = "PATH")]
    save_core: Option<PathBuf>,
    #[command(flatten)]
    rl: RlArgs,
}

#[derive(Args)]
pub struct RlRnpiArgs {
    /// n: the versions of each task, hence 3n programs and 4n callees.
    #[arg(long, value_name = "N", default_value_t = 2,
          value_parser = clap::value_parser!(u32).range(1..=16))]
    tasks: u32,
    /// The most episodes a trial runs (default 10000 · n).
    #[arg(long, value_name = "E",
          value_parser = clap::value_parser!(u32).range(1..=10_000_000))]
    episodes: Option<u32>,
    #[command(flatten)]
    rl: RlArgs,
}

/// Parses a value by its serde name (`uniform`, `gradual`, ...).
fn parse_enum<T: serde::de::DeserializeOwned>(text: &str) -> Result<T, String> {
    serde_json::from_value(serde_json::Value::String(text.to_string()))
        .map_err(|_| format!("`{text}` is not one of the values listed in --help"))
}

pub fn rl_core(args: &RlCoreArgs) -> ExitCode {
    let experiment = args.rl.experiment(Tasks::stage1(), args.episodes as usize);
    let start = Instant::now();
    let results = run(&experiment, args.rl.run.shard, args.rl.run.threads);
    let wall = start.elapsed().as_secs_f64();
    // The rows and the core are both written before either is reported.
    let saved = save::<RlCore>(&results, &args.rl.run.folder(RlCore::NAME));
    let core = (args.save_core.as_ref()).map(|path| save_core(&experiment, &results, path));
    let text = match saved {
        Ok(saved) => shown(saved),
        Err(diagnostic) => return fail(diagnostic),
    };
    if let Some(Err(diagnostic)) = core {
        return fail(diagnostic);
    }
    args.rl.print(&text, wall, &results);
    exit_code(true)
}

pub fn rl_rnpi(args: &RlRnpiArgs) -> ExitCode {
    let versions = args.tasks as usize;
    let episodes = args.episodes.map_or(10_000 * versions, |e| e as usize);
    let experiment = RlRnpi {
        core: args.rl.experiment(Tasks::new(versions), episodes),
    };
    let start = Instant::now();
    let results = run(&experiment, args.rl.run.shard, args.rl.run.threads);
    let wall = start.elapsed().as_secs_f64();
    match save::<RlRnpi>(&results, &args.rl.run.folder(RlRnpi::NAME)) {
        Ok(saved) => args.rl.print(&shown(saved), wall, &results),
        Err(diagnostic) => return fail(diagnostic),
    }
    exit_code(true)
}

/// Writes the core of the first successful, verified trial, atomically.
/// The rows keep no weights: the trial is run again from its seed, which
/// gives the same core.
fn save_core(experiment: &RlCore, results: &Results<Row>, path: &Path) -> Result<(), Diagnostic> {
    let found = results.records.iter().find(|r| r.row.verified);
    let Some(record) = found else {
        return Err(Diagnostic::error(
            codes::E1005,
            format!(
                "no trial learned all three combinators with a core that passes verification; `{}` was not written",
                path.display()
            ),
        )
        .with_help("run more trials or episodes"));
    };
    let (setting, seed) = experiment.trials()[record.trial];
    let trial = cnpi_rl::stage1::trial(&experiment.tasks, &experiment.settings[setting], seed);
    let Some(weights) = &trial.core else {
        return Err(Diagnostic::error(
            codes::E0100,
            "internal error: a trial kept no core",
        ));
    };
    let bytes = core_file(
        weights,
        trial.seed,
        trial.episodes,
        &command_line(),
        "learned by reinforcement: seq, cond, linrec pass",
    );
    cnpi::files::write_atomic(path, &bytes).map_err(|error| {
        Diagnostic::error(
            codes::E1005,
            format!("cannot write the core file `{}`: {error}", path.display()),
        )
    })
}

#[derive(Args)]
pub struct RlStage2Args {
    /// The learned core (from `rl-core --save-core`); verified when loaded.
    #[arg(long, value_name = "PATH")]
    core: PathBuf,
    /// Independent trials (trial i uses seed S + i).
    #[arg(long, value_name = "N", default_value_t = 100,
          value_parser = clap::value_parser!(u32).range(1..=100_000))]
    trials: u32,
    /// The most episodes for each of the detector, STEP and SORT.
    #[arg(long, value_name = "E", default_value_t = 10_000,
          value_parser = clap::value_parser!(u32).range(1..=10_000_000))]
    episodes: u32,
    /// The seed of the first trial.
    #[arg(long, value_name = "S", default_value_t = 1)]
    seed: u64,
    /// Text or JSON (the rates, as fractions).
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
    /// Write the first learned sort program (`.cnpi`) to PATH, atomically.
    #[arg(long, value_name = "PATH")]
    save_program: Option<PathBuf>,
    #[command(flatten)]
    run: RunArgs,
}

pub fn rl_stage2(args: &RlStage2Args) -> ExitCode {
    let program = Vec::from_iter(args.save_program.as_deref());
    if let Err(diagnostic) = cnpi::files::refuse_overwriting(&[&args.core], &program) {
        return fail(diagnostic);
    }
    let core = match Core::load(&args.core) {
        Ok(core) => core,
        Err(diagnostic) => return fail(diagnostic),
    };
    for kind in [Combinator::Seq, Combinator::Cond, Combinator::Linrec] {
        if let Err(diagnostic) = core.require(CombinatorKind::User(kind)) {
            return fail(diagnostic);
        }
    }
    let experiment = RlStage2 {
        core: core.network().clone(),
        core_path: args.core.display().to_string(),
        settings: stage2::Settings::new(args.episodes as usize),
        seed: args.seed,
        trials: args.trials as usize,
    };
    let start = Instant::now();
    let results = run(&experiment, args.run.shard, args.run.threads);
    let wall = start.elapsed().as_secs_f64();
    let text = match save::<RlStage2>(&results, &args.run.folder(RlStage2::NAME)) {
        Ok(saved) => shown(saved),
        Err(diagnostic) => return fail(diagnostic),
    };
    if let Some(path) = &args.save_program {
        let Some(program) = results.rows().find_map(|t| t.program.as_ref()) else {
            return fail(
                Diagnostic::error(
                    codes::E1005,
                    format!(
                        "no trial learned the sort; `{}` was not written",
                        path.display()
                    ),
                )
                .with_help("run more trials or episodes"),
            );
        };
        let program = format!(
            "# Made by: {}\n# on the core `{}`.\n{program}",
            command_line(),
            args.core.display()
        );
        if let Err(error) = cnpi::files::write_atomic(path, program.as_bytes()) {
            return fail(Diagnostic::error(
                codes::E1005,
                format!("cannot write `{}`: {error}", path.display()),
            ));
        }
    }
    match args.format {
        Format::Text => println!("{text}wall time {wall:.1} s"),
        Format::Json => print_json(&Summary::of(results.rows()).rates),
    }
    exit_code(true)
}

/// Shows a save's warnings on stderr; the text to print.
fn shown(saved: Saved) -> String {
    print_diagnostics(&saved.warnings, &Sources::new());
    saved.text
}

fn print_json(value: &impl serde::Serialize) {
    match serde_json::to_string_pretty(value) {
        Ok(json) => println!("{json}"),
        Err(error) => eprintln!("error: the summary does not serialise: {error}"),
    }
}
