//! `rl-stage2`: stage 2 of the paper's curriculum on a fixed learned core
//! (section 4.2): the `A[P1] > A[P2]` detector, then the STEP and SORT
//! appliers, learned by reinforcement (crate `cnpi-rl`), over many seeded
//! trials.
//!
//! A row is one `cnpi_rl::stage2::trial`: when each piece was learned, the
//! greedy STEP and SORT as source, and the learned sort program when there
//! is one. The summary gives the three rates beside the paper's (STEP 79 %,
//! SORT 62 %), counts the appliers learned, says how many trials a user
//! starting from each seed waits for a learned SORT, and writes
//! `stage2.csv`.

use std::fmt::Write as _;

use cnpi::diagnostic::Diagnostic;
use cnpi_neural::core::Network;
use cnpi_rl::stage2::{Settings, Trial, trial};
use serde::Serialize;

use crate::output::Output;
use crate::plan::{Planned, grid, seeds};
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

    fn planned(config: &serde_json::Value) -> Result<Vec<Planned>, String> {
        Ok(grid(&[("seed", seeds(config)?)]))
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
        let mut rows: Vec<&Trial> = results.rows().collect();
        rows.sort_by_key(|t| t.seed);
        let _ = writeln!(text, "{}", until_first_sort(&rows));
        let _ = writeln!(text, "{:.1} s of trial time", results.trial_seconds());
        Ok(text)
    }
}

/// How many start seeds [`until_first_sort`] reports on.
const USERS: usize = 100;

/// What a user who runs trials from seed `S` on (trial `t` draws from
/// `S + t`, as `cnpic learn` does) sees: for each of the first [`USERS`]
/// trial seeds of the run (`rows`, by seed), how many trials until the
/// first that learns SORT. Consecutive start seeds share their trials, so
/// one run of seeds answers for all of them; a start seed with no success
/// after it in the run is counted apart.
pub fn until_first_sort(rows: &[&Trial]) -> String {
    let contiguous = rows
        .windows(2)
        .all(|w| w[1].seed == w[0].seed.wrapping_add(1));
    if !contiguous {
        return "SORT, trials until the first success: needs one run of consecutive seeds".into();
    }
    let waits: Vec<Option<usize>> = (0..rows.len().min(USERS))
        .map(|start| {
            (rows[start..].iter())
                .position(|t| t.sort_at.is_some())
                .map(|k| k + 1)
        })
        .collect();
    let mut seen: Vec<usize> = waits.iter().flatten().copied().collect();
    seen.sort_unstable();
    let none = waits.len() - seen.len();
    match (seen.first(), seen.last()) {
        (Some(_), Some(most)) => format!(
            "SORT, trials until the first success from each of {} start seeds: median {}, mean {:.1}, most {most}{}",
            waits.len(),
            seen[seen.len() / 2],
            seen.iter().sum::<usize>() as f64 / seen.len() as f64,
            if none == 0 {
                String::new()
            } else {
                format!(" ({none} start seeds see none within this run)")
            }
        ),
        _ => format!(
            "SORT, trials until the first success: none within this run from any of {} start seeds",
            waits.len()
        ),
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

#[cfg(test)]
mod tests {
    use super::*;

    fn row(seed: u64, sort: bool) -> Trial {
        Trial {
            seed,
            detector_at: Some(50),
            step_at: Some(100),
            sort_at: sort.then_some(500),
            step: String::new(),
            sort: String::new(),
            program: None,
        }
    }

    #[test]
    fn a_user_waits_for_the_next_success_among_consecutive_seeds() {
        let rows: Vec<Trial> = [false, false, true, false, true, false]
            .iter()
            .enumerate()
            .map(|(i, &sort)| row(7 + i as u64, sort))
            .collect();
        let refs: Vec<&Trial> = rows.iter().collect();
        // From seeds 7..12: 3, 2, 1, 2, 1, and none after the last.
        let text = until_first_sort(&refs);
        assert!(
            text.contains("from each of 6 start seeds: median 2, mean 1.8, most 3"),
            "{text}"
        );
        assert!(text.contains("(1 start seeds see none"), "{text}");
        let gap: Vec<&Trial> = vec![&rows[0], &rows[2]];
        assert!(until_first_sort(&gap).contains("consecutive"));
    }
}
