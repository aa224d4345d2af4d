//! `cnpic run FILE --inputs IN.jsonl [--jobs N] [--shard i/n]`: the plan
//! built once, run on every line of IN.jsonl (one input as `--input` takes
//! it) on `N` threads (`cnpi::plan::Plan::run_many`), one `--format json`
//! object per line on stdout in input order. A line that fails gives
//! `{"error": {"code": ..., "message": ...}}` and the others go on; the exit
//! status is 1 if any failed. `--shard i/n` runs the `i`-th of `n`
//! contiguous blocks of the lines, so the shards' outputs concatenated in
//! order are the unsharded output. A progress bar is drawn on stderr when
//! it is a terminal.

use std::io::IsTerminal;
use std::path::Path;
use std::process::ExitCode;

use cnpi::diagnostic::{Diagnostic, codes};
use cnpi::exec::compare::Run;
use cnpi_experiments::Shard;
use cnpi_neural::load::Plan;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use super::super::output::out;
use super::super::report::{exit_code, fail};

/// Inputs run between two writes of the output: bounds what is held.
const CHUNK: usize = 4096;

/// How the inputs are run.
pub struct Many<'a> {
    pub path: &'a Path,
    pub jobs: usize,
    pub shard: Shard,
    pub max_steps: u64,
}

/// Runs `plan` on every line of the file `many.path` (this shard's), and
/// prints one JSON object per line.
#[inline(never)]
pub fn run(plan: &Plan, many: &Many) -> ExitCode {
    let text = match cnpi::read::text(many.path) {
        Ok(text) => text,
        Err(error) => {
            return fail(Diagnostic::error(
                codes::E0902,
                format!(
                    "cannot read the inputs file `{}`: {error}",
                    many.path.display()
                ),
            ));
        }
    };
    let lines: Vec<&str> = text.lines().collect();
    let lines = &lines[many.shard.block(lines.len())];
    let bar = progress(lines.len());
    let mut failed = false;
    for chunk in lines.chunks(CHUNK) {
        let ran = plan.run_many(chunk, many.max_steps, many.jobs, &|| bar.inc(1));
        let mut printed = String::new();
        for run in ran {
            failed |= run.is_err();
            printed.push_str(&line(&run, plan.engine_name()));
            printed.push('\n');
        }
        out!("{printed}");
    }
    bar.finish_and_clear();
    exit_code(!failed)
}

/// One output line: the run's `--format json` object, or its error.
fn line(run: &Run, engine: &str) -> String {
    match run {
        Ok(outcome) => outcome.state.to_json_text(outcome.steps, engine),
        Err(diagnostic) => serde_json::json!({
            "error": {"code": diagnostic.code.to_string(), "message": diagnostic.message}
        })
        .to_string(),
    }
}

/// A bar of `total` inputs on stderr when it is a terminal, else hidden.
fn progress(total: usize) -> ProgressBar {
    let bar = ProgressBar::hidden();
    bar.set_length(total as u64);
    bar.set_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} inputs, {per_sec}, eta {eta}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    if std::io::stderr().is_terminal() {
        bar.set_draw_target(ProgressDrawTarget::stderr());
    }
    bar
}
