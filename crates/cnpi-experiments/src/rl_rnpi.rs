//! `rl-rnpi`: Table 5 of the paper, the RNPI-4×n baseline learning the
//! stage-1 tasks by reinforcement: `n` versions of each task, one program
//! per combinator and version (3n programs, each its own embedding), the
//! core choosing among 4n callees (`cnpi_rl::stage1::Tasks::new`).
//!
//! The trials are those of `rl-core` on the larger task set; the summary
//! reports the rate at which the easy stage and the final stage of the
//! curriculum were completed (every version's easy tasks, then every
//! version's full tasks), beside the paper's RNPI-4x2 (25 % / 0 %) and
//! RNPI-4x3 (0 % / 0 %), and writes `table5.csv`.

use std::fmt::Write as _;

use cnpi::diagnostic::Diagnostic;
use serde::Serialize;

use crate::output::Output;
use crate::plan::Planned;
use crate::results::Results;
use crate::rl_core::{RlCore, Row, name, summary};
use crate::runner::Experiment;

/// The sweep: `rl-core`'s trials on `n` versions of the tasks.
pub struct RlRnpi {
    pub core: RlCore,
}

impl Experiment for RlRnpi {
    const NAME: &'static str = "rl-rnpi";
    type Trial = (usize, u64);
    type Row = Row;

    fn trials(&self) -> Vec<(usize, u64)> {
        self.core.trials()
    }

    fn run(&self, trial: &(usize, u64)) -> Row {
        self.core.run(trial)
    }

    fn config(&self) -> serde_json::Value {
        let mut config = self.core.config();
        config["versions"] = self.core.tasks.versions.into();
        config
    }

    fn planned(config: &serde_json::Value) -> Result<Vec<Planned>, String> {
        RlCore::planned(config)
    }

    fn check(row: &Row) -> Result<(), String> {
        row.check()
    }

    fn summarize(results: &Results<Row>, out: &mut Output) -> Result<String, Diagnostic> {
        let versions = results
            .config
            .get("versions")
            .and_then(serde_json::Value::as_u64)
            .unwrap_or(1) as usize;
        let lines: Vec<Line> = summary(results.rows())
            .into_iter()
            .map(|cell| Line {
                model: format!("RNPI-4x{versions}"),
                sampling: name(&cell.sampling),
                curriculum: name(&cell.curriculum),
                trials: cell.trials,
                easy: cell.easy,
                final_stage: cell.success,
            })
            .collect();
        out.csv("table5.csv", &lines)?;
        let (paper_easy, paper_final) = paper(versions);
        let pct = |x: f64| (x * 100.0).round() as i64;
        let mut text = String::new();
        for line in &lines {
            let _ = writeln!(
                text,
                "{} ({} / {}), {} trials: easy {}% (paper {paper_easy}), final {}% (paper {paper_final})",
                line.model,
                line.sampling,
                line.curriculum,
                line.trials,
                pct(line.easy),
                pct(line.final_stage)
            );
        }
        let _ = writeln!(text, "{:.1} s of trial time", results.trial_seconds());
        Ok(text)
    }
}

/// The paper's Table 5 for RNPI-4×`versions`: easy and final stage, in
/// percent (`?` where the paper has no column).
fn paper(versions: usize) -> (&'static str, &'static str) {
    match versions {
        2 => ("25", "0"),
        3 => ("0", "0"),
        _ => ("?", "?"),
    }
}

/// One line of Table 5.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Line {
    pub model: String,
    pub sampling: String,
    pub curriculum: String,
    pub trials: usize,
    /// The fraction of trials that completed every easy task.
    pub easy: f64,
    /// The fraction of trials that completed every full task.
    #[serde(rename = "final")]
    pub final_stage: f64,
}
