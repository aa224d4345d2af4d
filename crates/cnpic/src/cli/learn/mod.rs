//! `cnpic learn SKETCH.cnpi --examples EX.json`: fill the sketch's holes
//! from examples (the library is `cnpi_rl::sketch`) and print the
//! completed program, or the best candidate and why it fails.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Args, ValueEnum};
use cnpi::diagnostic::{Diagnostic, codes};
use cnpi::env::Declarations;
use cnpi::files::{refuse_overwriting, write_atomic};
use cnpi_neural::load::compile_file;
use cnpi_rl::sketch::blanks::CHECK_RUNS;
use cnpi_rl::sketch::driver::{self, Request};
use cnpi_rl::sketch::examples;
use cnpi_rl::sketch::learn::Method;

use super::output::{err, out, outln};
use super::report::{command_line, exit_code, fail, print_diagnostics};

#[derive(Args)]
pub struct LearnArgs {
    /// The sketch: a `.cnpi` file with holes `?`: up to six in normal
    /// programs (a condition `while ?:`, an expression `key = ?`, a
    /// statement), or one or two applier holes (`def STEP: ?` or
    /// `def STEP: ?(COND?, ...)`).
    sketch: PathBuf,
    /// The examples: a JSON array of {"input": INPUT, "output": {MEMBER:
    /// VALUE, ...}}, the members those of `cnpic run --format json`.
    #[arg(long, value_name = "EX.json")]
    examples: PathBuf,
    /// Write the completed program to OUT instead of stdout.
    #[arg(short, long, value_name = "OUT")]
    output: Option<PathBuf>,
    /// The seed of the first trial of the gradient (trial t uses seed
    /// S + t).
    #[arg(long, value_name = "S", default_value_t = 1)]
    seed: u64,
    /// The most trials of the gradient (with `--search enumerate`, the
    /// budget is trials × episodes candidates; with holes in normal
    /// programs, trials × episodes fillings run to find the answer).
    #[arg(long, value_name = "N", default_value_t = 100)]
    trials: usize,
    /// The most episodes of one trial.
    #[arg(long, value_name = "E", default_value_t = 2000)]
    episodes: usize,
    /// Worker threads for the trials (0: one per core). The program found
    /// does not depend on it.
    #[arg(long, value_name = "T", default_value_t = 0)]
    threads: usize,
    /// How to search applier holes: every candidate in a fixed order,
    /// fewest distinct definitions first (exact), or the paper's applier
    /// policy gradient. Default: enumeration for one hole, the gradient
    /// for two (each needed less work than the other there on every
    /// sketch measured, docs/reproduction.md). Holes in normal programs
    /// are always searched by enumeration, angelically (docs/language.md,
    /// "Holes").
    #[arg(long, value_enum)]
    search: Option<Search>,
    /// The most core steps of one run of one example.
    #[arg(long, value_name = "N", default_value_t = 100_000)]
    max_steps: u64,
    /// With holes in normal programs: the most fillings run after the
    /// answer (its own budget, not trials × episodes) to check that no
    /// other filling as small as the answer or one larger passes every
    /// example and ends differently; when it runs out first, learn says
    /// the check is incomplete.
    #[arg(long, value_name = "N", default_value_t = CHECK_RUNS)]
    check_runs: usize,
    /// With holes in normal programs: exit 1 (after printing the answer)
    /// when the examples do not pin the holes down, or when the check's
    /// budget (--check-runs) ran out before that was checked.
    #[arg(long)]
    strict: bool,
    /// Output format of the summary (the program is always `.cnpi`).
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Search {
    Gradient,
    Enumerate,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Format {
    Text,
    Json,
}

pub fn learn(args: &LearnArgs) -> ExitCode {
    let outputs = Vec::from_iter(args.output.as_deref());
    if let Err(diagnostic) = refuse_overwriting(&[&args.sketch, &args.examples], &outputs) {
        return fail(diagnostic);
    }
    let Some(compiled) = compile_file(&args.sketch, None, &mut print_diagnostics) else {
        return exit_code(false);
    };
    let layout = Declarations::of(&compiled.program);
    let examples = match read_examples(&args.examples, &layout) {
        Ok(examples) => examples,
        Err(diagnostic) => return fail(diagnostic),
    };
    let request = Request {
        seed: args.seed,
        method: args.search.map(|search| match search {
            Search::Gradient => Method::Gradient,
            Search::Enumerate => Method::Enumerate,
        }),
        trials: args.trials,
        episodes: args.episodes,
        threads: args.threads,
        max_steps: args.max_steps,
        check_runs: args.check_runs,
        made_by: command_line(),
    };
    let name = args.sketch.display().to_string();
    let cache = crate::cli::detector_cache();
    let report = match driver::learn(&name, &compiled, examples, &request, cache, None) {
        Ok(report) => report,
        Err(diagnostics) => {
            print_diagnostics(&diagnostics, &compiled.sources);
            return exit_code(false);
        }
    };
    if let (Some(text), Some(path)) = (&report.program, &args.output)
        && let Err(error) = write_atomic(path, text.as_bytes())
    {
        return fail(Diagnostic::error(
            codes::E0903,
            format!("cannot write `{}`: {error}", path.display()),
        ));
    }
    match args.format {
        Format::Json => outln!("{}", report.json(args.seed)),
        Format::Text => {
            err!("cnpic learn: {}\n", report.headline);
            for (hole, text) in &report.holes {
                err!("  {hole}: {text}\n");
            }
            for warning in &report.warnings {
                err!("warning: {warning}\n");
            }
            if let (Some(text), None) = (&report.program, &args.output) {
                out!("{text}");
            }
        }
    }
    match report.failure {
        Some(failure) => fail(failure),
        None => exit_code(!args.strict || report.warnings.is_empty()),
    }
}

fn read_examples(path: &Path, layout: &Declarations) -> Result<Vec<examples::Example>, Diagnostic> {
    let name = path.display().to_string();
    let text = cnpi::read::text(path).map_err(|error| {
        Diagnostic::error(
            codes::E1401,
            format!("cannot read the examples `{name}`: {error}"),
        )
    })?;
    examples::read(&name, &text, layout)
}
