//! `rl-core`: Table 4 of the paper, the core and the basic combinators
//! learned by reinforcement (stage 1, crate `cnpi-rl`), over many seeded
//! trials of each sampling × curriculum setting.
//!
//! A trial is one `cnpi_rl::stage1::trial`; its row says which
//! combinators the greedy core completed, which it passes exhaustive
//! verification for, and after how many episodes. The summary, one line
//! per setting, gives the success rate (all three learned), the rate per
//! combinator and the paper's cell beside it, and writes `table4.csv`, the
//! learning curves `curve.csv` and the plot `curve.png` / `curve.svg`
//! (the fraction of trials that had learned all three after each number
//! of episodes).

use std::fmt::Write as _;

use cnpi::diagnostic::Diagnostic;
use cnpi_rl::schedule::{Curriculum, Sampling};
use cnpi_rl::stage1::{Settings, Tasks, trial};
use serde::{Deserialize, Serialize};

use crate::output::Output;
use crate::plan::{Planned, field, grid, list, seeds};
use crate::plot::Series;
use crate::results::Results;
use crate::runner::Experiment;

/// The sweep: every setting, `trials` seeds each.
pub struct RlCore {
    /// Every setting to run (the same episodes, cells and objective).
    pub settings: Vec<Settings>,
    /// Trial `i` of a setting uses seed `seed + i`.
    pub seed: u64,
    pub trials: usize,
    pub tasks: Tasks,
}

/// What one trial learned.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Row {
    pub sampling: Sampling,
    pub curriculum: Curriculum,
    pub seed: u64,
    /// Completed by the greedy core at the end, per combinator.
    pub seq: bool,
    pub cond: bool,
    pub linrec: bool,
    /// All three combinators learned, and their core passes verification.
    pub verified: bool,
    /// The episode after which all three were learned.
    pub success_at: Option<usize>,
    /// The episode after which the three easy tasks had all been
    /// completed.
    pub easy_at: Option<usize>,
    pub episodes: usize,
}

impl Row {
    /// Whether the row is consistent: learned no later than the episodes
    /// run, verified only if all three were learned.
    pub fn check(&self) -> Result<(), String> {
        for (name, at) in [("success", self.success_at), ("easy stage", self.easy_at)] {
            if at.is_some_and(|at| at > self.episodes) {
                return Err(format!(
                    "its {name} comes after the {} episodes it ran",
                    self.episodes
                ));
            }
        }
        if self.verified && !(self.seq && self.cond && self.linrec) {
            return Err("it verifies a core that did not learn all three".to_string());
        }
        Ok(())
    }
}

impl Experiment for RlCore {
    const NAME: &'static str = "rl-core";
    type Trial = (usize, u64);
    type Row = Row;

    fn trials(&self) -> Vec<(usize, u64)> {
        (0..self.settings.len())
            .flat_map(|s| (0..self.trials as u64).map(move |i| (s, self.seed.wrapping_add(i))))
            .collect()
    }

    fn run(&self, &(setting, seed): &(usize, u64)) -> Row {
        let settings = &self.settings[setting];
        let t = trial(&self.tasks, settings, seed);
        Row {
            sampling: settings.sampling,
            curriculum: settings.curriculum,
            seed,
            seq: t.learned[0],
            cond: t.learned[1],
            linrec: t.learned[2],
            verified: t.success_at.is_some() && t.verified.iter().all(|&v| v),
            success_at: t.success_at,
            easy_at: t
                .easy_at
                .iter()
                .copied()
                .collect::<Option<Vec<_>>>()
                .map(|at| at.into_iter().max().unwrap_or(0)),
            episodes: t.episodes,
        }
    }

    fn config(&self) -> serde_json::Value {
        serde_json::json!({
            "settings": self.settings,
            "seed": self.seed,
            "trials": self.trials,
        })
    }

    fn planned(config: &serde_json::Value) -> Result<Vec<Planned>, String> {
        let seeds = seeds(config)?;
        let mut planned = Vec::new();
        for setting in list(config, &["settings"])? {
            planned.extend(grid(&[
                ("sampling", vec![field(&setting, &["sampling"])?]),
                ("curriculum", vec![field(&setting, &["curriculum"])?]),
                ("seed", seeds.clone()),
            ]));
        }
        Ok(planned)
    }

    fn check(row: &Row) -> Result<(), String> {
        row.check()
    }

    fn summarize(results: &Results<Row>, out: &mut Output) -> Result<String, Diagnostic> {
        let check_every = results
            .config
            .pointer("/settings/0/check_every")
            .and_then(serde_json::Value::as_u64)
            .unwrap_or(50) as usize;
        let cells = summary(results.rows());
        out.csv("table4.csv", &cells)?;
        let curves: Vec<CurvePoint> = cells
            .iter()
            .flat_map(|cell| curve(results.rows(), cell, check_every))
            .collect();
        out.csv("curve.csv", &curves)?;
        let series: Vec<Series> = cells
            .iter()
            .map(|cell| Series {
                label: cell.label(),
                points: curves
                    .iter()
                    .filter(|p| p.setting == cell.label())
                    .map(|p| {
                        let pct = p.success * 100.0;
                        (p.episodes as f64, pct, pct, pct)
                    })
                    .collect(),
            })
            .collect();
        out.plot(
            "curve",
            "Trials that learned seq, cond and linrec by reinforcement",
            "episodes",
            "success (%)",
            &series,
        );
        let mut text = table_4(&cells);
        let episodes: usize = results.rows().map(|r| r.episodes).sum();
        let seconds = results.trial_seconds();
        let _ = writeln!(
            text,
            "{episodes} episodes in {seconds:.1} s of trial time ({:.0} episodes/s per thread)",
            episodes as f64 / seconds.max(1e-9)
        );
        Ok(text)
    }
}

/// The paper's Table 4: success, then seq / cond / linrec, in percent.
pub fn paper(sampling: Sampling, curriculum: Curriculum) -> [u32; 4] {
    match (sampling, curriculum) {
        (Sampling::Uniform, Curriculum::None) => [7, 11, 10, 7],
        (Sampling::Uniform, Curriculum::Mixed) => [17, 33, 28, 17],
        // Both readings of "gradual" answer to the same column.
        (Sampling::Uniform, Curriculum::Gradual | Curriculum::GradualKeep) => [49, 94, 49, 49],
        (Sampling::Adaptive, Curriculum::None) => [31, 74, 41, 31],
        (Sampling::Adaptive, Curriculum::Mixed) => [78, 87, 80, 78],
        (Sampling::Adaptive, Curriculum::Gradual | Curriculum::GradualKeep) => [91, 92, 91, 91],
    }
}

/// One setting of Table 4 (a sampling and a curriculum) with its rates:
/// a row of the paper's table.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Setting {
    pub sampling: Sampling,
    pub curriculum: Curriculum,
    pub trials: usize,
    /// The fraction of trials that learned all three combinators.
    pub success: f64,
    /// The fraction of trials that learned each combinator.
    pub seq: f64,
    pub cond: f64,
    pub linrec: f64,
    /// The fraction of trials that completed all three easy tasks.
    pub easy: f64,
    /// The fraction of successful trials whose core passes verification.
    pub verified: f64,
}

impl Setting {
    /// The cell as `--format json` prints it: the rates as fractions, the
    /// three per combinator under `"per_combinator"`.
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::json!({
            "sampling": self.sampling,
            "curriculum": self.curriculum,
            "trials": self.trials,
            "success": self.success,
            "per_combinator": {"seq": self.seq, "cond": self.cond, "linrec": self.linrec},
            "easy": self.easy,
            "verified": self.verified,
        })
    }

    fn label(&self) -> String {
        format!("{} / {}", name(&self.sampling), name(&self.curriculum))
    }
}

/// A setting's name as the command line writes it.
pub fn name(value: &impl Serialize) -> String {
    serde_json::to_value(value)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default()
}

/// The cells of the rows' settings, in the order they first appear.
pub fn summary<'r>(rows: impl Iterator<Item = &'r Row>) -> Vec<Setting> {
    let mut groups: Vec<(Sampling, Curriculum, Vec<&Row>)> = Vec::new();
    for row in rows {
        match groups
            .iter_mut()
            .find(|(s, c, _)| *s == row.sampling && *c == row.curriculum)
        {
            Some((_, _, members)) => members.push(row),
            None => groups.push((row.sampling, row.curriculum, vec![row])),
        }
    }
    groups
        .into_iter()
        .map(|(sampling, curriculum, members)| {
            let rate = |f: &dyn Fn(&Row) -> bool| {
                fraction(members.iter().filter(|r| f(r)).count(), members.len())
            };
            let successes = members.iter().filter(|r| r.success_at.is_some()).count();
            Setting {
                sampling,
                curriculum,
                trials: members.len(),
                success: rate(&|r| r.success_at.is_some()),
                seq: rate(&|r| r.seq),
                cond: rate(&|r| r.cond),
                linrec: rate(&|r| r.linrec),
                easy: rate(&|r| r.easy_at.is_some()),
                verified: fraction(members.iter().filter(|r| r.verified).count(), successes),
            }
        })
        .collect()
}

fn fraction(count: usize, of: usize) -> f64 {
    if of == 0 {
        0.0
    } else {
        count as f64 / of as f64
    }
}

/// One point of a learning curve.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CurvePoint {
    pub setting: String,
    pub episodes: usize,
    /// The fraction of the setting's trials that had learned all three.
    pub success: f64,
}

/// The learning curve of `cell`: after every `every` episodes up to the
/// longest trial.
fn curve<'r>(rows: impl Iterator<Item = &'r Row>, cell: &Setting, every: usize) -> Vec<CurvePoint> {
    let members: Vec<&Row> = rows
        .filter(|r| r.sampling == cell.sampling && r.curriculum == cell.curriculum)
        .collect();
    let longest = members.iter().map(|r| r.episodes).max().unwrap_or(0);
    (0..=longest / every.max(1))
        .map(|k| k * every.max(1))
        .map(|episodes| CurvePoint {
            setting: cell.label(),
            episodes,
            success: fraction(
                members
                    .iter()
                    .filter(|r| r.success_at.is_some_and(|at| at <= episodes))
                    .count(),
                members.len(),
            ),
        })
        .collect()
}

/// Table 4, ours beside the paper's.
pub fn table_4(cells: &[Setting]) -> String {
    let pct = |x: f64| (x * 100.0).round() as i64;
    let rows: Vec<Vec<String>> = (cells.iter())
        .map(|p| {
            let [success, seq, cond, linrec] = paper(p.sampling, p.curriculum);
            let ours = (pct(p.success), pct(p.seq), pct(p.cond), pct(p.linrec));
            vec![
                p.label(),
                p.trials.to_string(),
                format!("{} ({}/{}/{})", ours.0, ours.1, ours.2, ours.3),
                format!("{success} ({seq}/{cond}/{linrec})"),
                pct(p.easy).to_string(),
                format!("{}%", pct(p.verified)),
            ]
        })
        .collect();
    let header = [
        "setting",
        "trials",
        "ours (seq/cond/lin)",
        "paper (seq/cond/lin)",
        "easy %",
        "verified",
    ];
    crate::table::table(&header, &rows)
}
