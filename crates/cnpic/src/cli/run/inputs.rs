//! `cnpic run FILE --inputs IN.jsonl [--jobs N] [--shard i/n]`: the plan
//! built once, run on every line of IN.jsonl (one input as `--input` takes
//! it) on `N` threads (`cnpi::plan::Plan::run_many`), one `--format json`
//! object per line on stdout in input order. A line that fails (its JSON,
//! its input, its run, or its bytes, which must be UTF-8) gives
//! `{"error": {"code": ..., "message": ...}}` and the others go on; the exit
//! status is 1 if any failed. `--shard i/n` runs the `i`-th of `n`
//! contiguous blocks of the lines, so the shards' outputs concatenated in
//! order are the unsharded output. A progress bar is drawn on stderr when
//! it is a terminal.

use std::io::IsTerminal;
use std::path::Path;
use std::process::ExitCode;

use cnpi::diagnostic::{Diagnostic, codes};
use cnpi::exec::Limits;
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
    pub limits: Limits<'a>,
}

/// Runs `plan` on every line of the file `many.path` (this shard's), and
/// prints one JSON object per line.
#[inline(never)]
pub fn run(plan: &Plan, many: &Many) -> ExitCode {
    let bytes = match cnpi::read::bytes(many.path) {
        Ok(bytes) => bytes,
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
    let lines = lines(&bytes);
    let lines = &lines[many.shard.block(lines.len())];
    let bar = progress(lines.len());
    let mut failed = false;
    for chunk in lines.chunks(CHUNK) {
        let texts: Vec<&str> = chunk
            .iter()
            .filter_map(|line| line.as_ref().ok().copied())
            .collect();
        let mut ran = plan
            .run_many(&texts, many.max_steps, many.limits, many.jobs, &|| {
                bar.inc(1)
            })
            .into_iter();
        let mut printed = String::new();
        for line in chunk {
            let run = match line {
                Ok(_) => ran
                    .next()
                    .unwrap_or_else(|| Err(cnpi::env::internal("a run went missing"))),
                Err(error) => Err(error.clone()),
            };
            failed |= run.is_err();
            printed.push_str(&output(&run, plan.engine_name()));
            printed.push('\n');
        }
        out!("{printed}");
    }
    bar.finish_and_clear();
    exit_code(!failed)
}

/// The lines of `bytes` as `str::lines` splits text (at `\n`, dropping a
/// `\r` before it and an empty last line), each its text or, when it is
/// not UTF-8, its own E0601.
fn lines(bytes: &[u8]) -> Vec<Result<&str, Diagnostic>> {
    fn line(i: usize, line: &[u8]) -> Result<&str, Diagnostic> {
        std::str::from_utf8(line).map_err(|error| {
            Diagnostic::error(
                codes::E0601,
                format!(
                    "line {} is not UTF-8 text (byte {} is not)",
                    i + 1,
                    error.valid_up_to() + 1
                ),
            )
        })
    }
    if bytes.is_empty() {
        return Vec::new();
    }
    let ended = bytes.ends_with(b"\n");
    let bytes = bytes.strip_suffix(b"\n").unwrap_or(bytes);
    let count = bytes.iter().filter(|&&b| b == b'\n').count() + 1;
    (bytes.split(|&b| b == b'\n').enumerate())
        .map(|(i, text)| {
            // `\r\n` ends a line; a last `\r` without `\n` is text.
            let ends = i + 1 < count || ended;
            let text = if ends {
                text.strip_suffix(b"\r").unwrap_or(text)
            } else {
                text
            };
            line(i, text)
        })
        .collect()
}

/// One output line: the run's `--format json` object, or its error.
fn output(run: &Run, engine: &str) -> String {
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

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::Just;

    /// Issue 47: `printf '[3,1,2]\n\377\376\n[9,8]\n'` is three lines, the
    /// second its own error.
    #[test]
    fn a_line_that_is_not_utf8_is_that_lines_error() {
        let lines = lines(b"[3,1,2]\n\xff\xfe\r\n[9,8]\n");
        assert_eq!(lines.len(), 3);
        assert_eq!(lines[0].as_deref().ok(), Some("[3,1,2]"));
        let error = lines[1].as_ref().expect_err("not UTF-8");
        assert_eq!(error.code, codes::E0601);
        assert_eq!(error.message, "line 2 is not UTF-8 text (byte 1 is not)");
        assert_eq!(lines[2].as_deref().ok(), Some("[9,8]"));
        let same: Vec<&str> = "a\r\n\nb".lines().collect();
        let ours: Vec<&str> = super::lines(b"a\r\n\nb").into_iter().flatten().collect();
        assert_eq!(ours, same);
        assert!(super::lines(b"").is_empty() && super::lines(b"\n").len() == 1);
    }

    proptest::proptest! {
        /// Any bytes: one entry per line `str::lines` would give for the
        /// same bytes made text, each line's text when it is UTF-8 and its
        /// own E0601 naming it when not.
        #[test]
        fn every_line_is_its_text_or_its_own_error(
            bytes in proptest::collection::vec(proptest::prop_oneof![
                Just(b'\n'), Just(b'\r'), Just(0xff_u8), 0x20_u8..0x7f, proptest::num::u8::ANY
            ], 0..200),
        ) {
            let found = lines(&bytes);
            let lossy = String::from_utf8_lossy(&bytes);
            let expected: Vec<&str> = lossy.lines().collect();
            proptest::prop_assert_eq!(found.len(), expected.len());
            for (i, (line, lossy)) in found.iter().zip(&expected).enumerate() {
                match line {
                    Ok(text) => proptest::prop_assert_eq!(text, lossy),
                    Err(error) => {
                        proptest::prop_assert_eq!(error.code, codes::E0601);
                        let named = format!("line {} ", i + 1);
                        proptest::prop_assert!(error.message.starts_with(&named));
                    }
                }
            }
        }
    }
}
