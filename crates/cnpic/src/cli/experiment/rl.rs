//! `cnpic experiment rl-core` (Table 4: the core and the basic combinators
//! learned by reinforcement) and `rl-stage2` (a detector and the STEP and
//! SORT appliers learned on the fixed learned core), from crate `cnpi-rl`.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Args, ValueEnum};
use cnpi::diagnostic::{Diagnostic, codes};
use cnpi::program::{Combinator, CombinatorKind};
use cnpi_neural::core::Core;
use cnpi_rl::core_file::core_file;
use cnpi_rl::experiment::parallel;
use cnpi_rl::experiment::{self, Summary};
use cnpi_rl::schedule::{Curriculum, Sampling};
use cnpi_rl::stage1::Settings;
use cnpi_rl::stage2;
use indicatif::{ProgressBar, ProgressStyle};

use super::super::report::{command_line, exit_code, fail};

#[derive(Clone, Copy, ValueEnum)]
enum SamplingArg {
    Uniform,
    Adaptive,
}

#[derive(Clone, Copy, ValueEnum)]
enum CurriculumArg {
    None,
    Mixed,
    Gradual,
}

#[derive(Clone, Copy, ValueEnum)]
enum Format {
    Text,
    Json,
}

#[derive(Args)]
pub struct RlCoreArgs {
    /// How each episode's task is drawn.
    #[arg(long, value_enum, default_value = "adaptive")]
    sampling: SamplingArg,
    /// Which tasks are practised: full only, easy and full, or easy first.
    #[arg(long, value_enum, default_value = "gradual")]
    curriculum: CurriculumArg,
    /// Independent trials (trial i uses seed S + i).
    #[arg(long, value_name = "N", default_value_t = 100,
          value_parser = clap::value_parser!(u32).range(1..=100_000))]
    trials: u32,
    /// The most episodes a trial runs.
    #[arg(long, value_name = "E", default_value_t = 5000,
          value_parser = clap::value_parser!(u32).range(1..=10_000_000))]
    episodes: u32,
    /// The seed of the first trial.
    #[arg(long, value_name = "S", default_value_t = 1)]
    seed: u64,
    /// LSTM cells of the core.
    #[arg(long, value_name = "N", default_value_t = 16,
          value_parser = clap::value_parser!(u32).range(1..=256))]
    cells: u32,
    /// The weight of the entropy bonus in the core's objective (0: the
    /// paper's objective; see docs/reproduction.md).
    #[arg(long, value_name = "B", default_value_t = cnpi_rl::stage1::ENTROPY)]
    entropy: f32,
    /// Use the raw reward, as the paper writes it, instead of the reward
    /// minus the moving average of the task's rewards at the input's length.
    #[arg(long)]
    no_baseline: bool,
    /// Worker threads (default: the number of cores).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1024))]
    threads: Option<u32>,
    /// Text (Table 4's cell) or one JSON object with "success" and
    /// "per_combinator".
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
    /// Write the core of the first trial that learned all three combinators
    /// and passes verification to PATH (a partial core: seq, cond, linrec).
    #[arg(long, value_name = "PATH")]
    save_core: Option<PathBuf>,
}

pub fn rl_core(args: &RlCoreArgs) -> ExitCode {
    let sampling = match args.sampling {
        SamplingArg::Uniform => Sampling::Uniform,
        SamplingArg::Adaptive => Sampling::Adaptive,
    };
    let curriculum = match args.curriculum {
        CurriculumArg::None => Curriculum::None,
        CurriculumArg::Mixed => Curriculum::Mixed,
        CurriculumArg::Gradual => Curriculum::Gradual,
    };
    let mut settings = Settings::new(sampling, curriculum, args.episodes as usize);
    settings.cells = args.cells as usize;
    settings.entropy = args.entropy;
    settings.baseline = !args.no_baseline;
    let threads = threads(args.threads);
    let trials = args.trials as usize;
    let bar = progress(trials);
    let summary = experiment::run(&settings, trials, args.seed, threads, &|done| {
        bar.set_position(done as u64)
    });
    bar.finish_and_clear();
    if let Some(path) = &args.save_core
        && let Err(diagnostic) = save_core(&summary, path)
    {
        return fail(diagnostic);
    }
    match args.format {
        Format::Json => print_json(&summary),
        Format::Text => print_text(&summary),
    }
    exit_code(true)
}

fn print_text(summary: &Summary) {
    let s = &summary.settings;
    println!(
        "{:?} sampling, {:?} curriculum: {} trials of up to {} episodes, seeds {}..{}",
        s.sampling,
        s.curriculum,
        summary.trials,
        s.episodes,
        summary.seed,
        summary.seed + summary.trials as u64 - 1
    );
    println!(
        "entropy bonus {}, {}",
        s.entropy,
        if s.baseline {
            "baseline per task and length"
        } else {
            "no baseline"
        }
    );
    println!("success % (seq/cond/linrec): {}", summary.cell());
    println!(
        "easy tasks all completed: {:.0}%; successful cores that pass verify-core: {:.0}%",
        summary.easy * 100.0,
        summary.verified * 100.0
    );
    println!(
        "{} episodes in {:.1} s on {} threads ({:.0} episodes/s)",
        summary.episodes_run, summary.wall_seconds, summary.threads, summary.episodes_per_second
    );
}

/// Writes the first successful, verified trial's core, atomically.
fn save_core(summary: &Summary, path: &Path) -> Result<(), Diagnostic> {
    let Some(trial) = summary.best() else {
        return Err(Diagnostic::error(
            codes::E1005,
            format!(
                "no trial learned all three combinators with a core that passes verification; `{}` was not written",
                path.display()
            ),
        )
        .with_help("run more trials or episodes"));
    };
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
    #[arg(long, value_name = "E", default_value_t = 2000,
          value_parser = clap::value_parser!(u32).range(1..=10_000_000))]
    episodes: u32,
    /// The seed of the first trial.
    #[arg(long, value_name = "S", default_value_t = 1)]
    seed: u64,
    /// Worker threads (default: the number of cores).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1024))]
    threads: Option<u32>,
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
    /// Write the first learned sort program (`.cnpi`) to PATH.
    #[arg(long, value_name = "PATH")]
    save_program: Option<PathBuf>,
}

pub fn rl_stage2(args: &RlStage2Args) -> ExitCode {
    let core = match Core::load(&args.core) {
        Ok(core) => core,
        Err(diagnostic) => return fail(diagnostic),
    };
    for kind in [Combinator::Seq, Combinator::Cond, Combinator::Linrec] {
        if let Err(diagnostic) = core.require(CombinatorKind::User(kind)) {
            return fail(diagnostic);
        }
    }
    let settings = stage2::Settings::new(args.episodes as usize);
    let threads = threads(args.threads);
    let trials = args.trials as usize;
    let bar = progress(trials);
    let start = std::time::Instant::now();
    let runs = parallel(
        trials,
        threads,
        &|done| bar.set_position(done as u64),
        |i| stage2::trial(core.network(), &settings, args.seed.wrapping_add(i as u64)),
    );
    bar.finish_and_clear();
    let summary = stage2::Summary::new(
        &settings,
        args.seed,
        threads,
        runs,
        start.elapsed().as_secs_f64(),
    );
    if let Some(path) = &args.save_program {
        let Some(program) = summary.runs.iter().find_map(|t| t.program.as_ref()) else {
            return fail(Diagnostic::error(
                codes::E1005,
                format!(
                    "no trial learned the sort; `{}` was not written",
                    path.display()
                ),
            ));
        };
        if let Err(error) = cnpi::files::write_atomic(path, program.as_bytes()) {
            return fail(Diagnostic::error(
                codes::E1005,
                format!("cannot write `{}`: {error}", path.display()),
            ));
        }
    }
    match args.format {
        Format::Json => print_json(&summary),
        Format::Text => {
            let pct = |x: f64| (x * 100.0).round() as i64;
            println!(
                "{} trials of up to {} episodes each, seeds {}..{}, core `{}`",
                summary.trials,
                settings.episodes,
                args.seed,
                args.seed + trials as u64 - 1,
                args.core.display()
            );
            println!(
                "detector A[P1] > A[P2]: {}%   STEP: {}%   SORT: {}%",
                pct(summary.detector),
                pct(summary.step),
                pct(summary.sort)
            );
            for (source, count) in &summary.steps_learned {
                println!("  STEP: {source}   ({count} trials)");
            }
            for (source, count) in &summary.sorts_learned {
                println!("  SORT: {source}   ({count} trials)");
            }
            println!("{:.1} s on {threads} threads", summary.wall_seconds);
        }
    }
    exit_code(true)
}

fn threads(requested: Option<u32>) -> usize {
    requested.map_or_else(
        || std::thread::available_parallelism().map_or(1, usize::from),
        |n| n as usize,
    )
}

fn progress(trials: usize) -> ProgressBar {
    ProgressBar::new(trials as u64).with_style(
        ProgressStyle::with_template("{bar:30} trial {pos}/{len}  {elapsed}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    )
}

fn print_json(value: &impl serde::Serialize) {
    match serde_json::to_string_pretty(value) {
        Ok(json) => println!("{json}"),
        Err(error) => eprintln!("error: the summary does not serialise: {error}"),
    }
}
