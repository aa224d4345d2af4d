//! `rl-stage2`: stage 2 of the paper's curriculum on a fixed learned core
//! (section 4.2): the `A[P1] > A[P2]` detector, then the STEP and SORT
//! appliers, learned by reinforcement (crate `cnpi-rl`), over many seeded
//! trials.
//!
//! A row is one `cnpi_rl::stage2::trial`: when each piece was learned, the
//! greedy STEP and SORT as source, and the learned sort program when there
//! is one. The summary gives the three rates beside the paper's (STEP 79 %,
//! SORT 62 %), counts the appliers learned, and writes `stage2.csv`.

use std::fmt::Write as _;

use cnpi::diagnostic::Diagnostic;
use cnpi_neural::core::Network;
use cnpi_rl::stage2::{Settings, Trial, trial};
use serde::Serialize;

use crate::output::Output;
use crate::results::Results;
use crate::runner::Experiment;

/// The sweep: `trials` seeds on one learned core.
pub struct RlStage2 {
    pub core: Network,
    /// The core file, for the record.
    pub core_path: String,
    pub settings: Settings,
    pub seed: u64,
    pub trials: usize,
}

impl Experiment for RlStage2 {
    const NAME: &'static str = "rl-stage2";
    type Trial = u64;
    type Row = Trial;

    fn trials(&self) -> Vec<u64> {
        (0..self.trials as u64)
            .map(|i| self.seed.wrapping_add(i))
            .collect()
    }

    fn run(&self, &seed: &u64) -> Trial {
        trial(&self.core, &self.settings, seed)
    }

    fn config(&self) -> serde_json::Value {
        serde_json::json!({
            "core": self.core_path,
            "settings": self.settings,
            "seed": self.seed,
            "trials": self.trials,
        })
    }

    fn summarize(results: &Results<Trial>, out: &mut Output) -> Result<String, Diagnostic> {
        let summary = Summary::of(results.rows());
        out.csv("stage2.csv", std::slice::from_ref(&summary.rates))?;
        let pct = |x: f64| (x * 100.0).round() as i64;
        let r = &summary.rates;
        let mut text = String::new();
        let _ = writeln!(
            text,
            "{} trial{}: detector A[P1] > A[P2] {}%, STEP {}% (paper 79%), SORT {}% (paper 62%)",
            r.trials,
            if r.trials == 1 { "" } else { "s" },
            pct(r.detector),
            pct(r.step),
            pct(r.sort)
        );
        for (name, learned) in [("STEP", &summary.steps), ("SORT", &summary.sorts)] {
            for (source, count) in learned.iter().take(SHOWN) {
                let trials = if *count == 1 { "trial" } else { "trials" };
                let _ = writeln!(text, "  {name}: {source}   ({count} {trials})");
            }
            if learned.len() > SHOWN {
                let _ = writeln!(
                    text,
                    "  ... {} other {name} appliers (all in results.json)",
                    learned.len() - SHOWN
                );
            }
        }
        let _ = writeln!(text, "{:.1} s of trial time", results.trial_seconds());
        Ok(text)
    }
}

/// How many of the most frequent learned appliers the summary lists.
const SHOWN: usize = 6;

/// The rates of a run, as fractions of its trials.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Rates {
    pub trials: usize,
    pub detector: f64,
    pub step: f64,
    pub sort: f64,
}

/// The rates, and how often each STEP and SORT was learned (as source,
/// most frequent first).
pub struct Summary {
    pub rates: Rates,
    pub steps: Vec<(String, usize)>,
    pub sorts: Vec<(String, usize)>,
}

impl Summary {
    pub fn of<'r>(rows: impl Iterator<Item = &'r Trial>) -> Summary {
        let rows: Vec<&Trial> = rows.collect();
        let n = rows.len().max(1) as f64;
        let rate = |f: &dyn Fn(&Trial) -> bool| rows.iter().filter(|t| f(t)).count() as f64 / n;
        let tally = |pick: &dyn Fn(&Trial) -> Option<String>| {
            let mut counts: Vec<(String, usize)> = Vec::new();
            for source in rows.iter().filter_map(|t| pick(t)) {
                match counts.iter_mut().find(|(s, _)| *s == source) {
                    Some((_, count)) => *count += 1,
                    None => counts.push((source, 1)),
                }
            }
            counts.sort_by_key(|(_, count)| std::cmp::Reverse(*count));
            counts
        };
        Summary {
            rates: Rates {
                trials: rows.len(),
                detector: rate(&|t| t.detector_at.is_some()),
                step: rate(&|t| t.step_at.is_some()),
                sort: rate(&|t| t.sort_at.is_some()),
            },
            steps: tally(&|t| t.step_at.map(|_| t.step.clone())),
            sorts: tally(&|t| t.sort_at.map(|_| t.sort.clone())),
        }
    }
}
