//! Many seeded trials of a stage-1 setting, in parallel, and their summary
//! (one cell of Table 4).
//!
//! Trial `i` of a run with seed `S` uses seed `S + i`, so a run is
//! reproducible whatever the number of threads, and two settings with the
//! same seed start from the same cores. The summary holds the success rate
//! (all three combinators learned), the rate for each combinator, the rate
//! at which the learned cores also pass exhaustive verification, and the
//! success rate after every `check_every` episodes (the learning curve).

use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use serde::{Deserialize, Serialize};

use crate::stage1::{Settings, Tasks, Trial, trial};

/// Rates per combinator, as fractions.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PerCombinator {
    pub seq: f64,
    pub cond: f64,
    pub linrec: f64,
}

impl PerCombinator {
    fn of(trials: &[Trial], pick: impl Fn(&Trial) -> [bool; 3]) -> PerCombinator {
        let rate = |k: usize| fraction(trials.iter().filter(|t| pick(t)[k]).count(), trials.len());
        PerCombinator {
            seq: rate(0),
            cond: rate(1),
            linrec: rate(2),
        }
    }
}

/// The result of a run of trials.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Summary {
    pub settings: Settings,
    pub seed: u64,
    pub trials: usize,
    /// The fraction of trials that learned all three combinators.
    pub success: f64,
    pub per_combinator: PerCombinator,
    /// The fraction of trials whose three easy tasks were all completed.
    pub easy: f64,
    /// The fraction of successful trials whose learned core also passes
    /// exhaustive verification for all three combinators.
    pub verified: f64,
    /// `[episodes, success rate after that many episodes]`.
    pub curve: Vec<(usize, f64)>,
    pub episodes_run: usize,
    pub wall_seconds: f64,
    pub episodes_per_second: f64,
    pub threads: usize,
    /// Every trial, in trial order.
    pub runs: Vec<Trial>,
}

/// Runs `trials` trials on `threads` threads; `progress` is called after
/// each finished trial with the number finished.
pub fn run(
    settings: &Settings,
    trials: usize,
    seed: u64,
    threads: usize,
    progress: &(dyn Fn(usize) + Sync),
) -> Summary {
    let tasks = Tasks::stage1();
    let start = Instant::now();
    let runs = parallel(trials, threads, progress, |i| {
        trial(&tasks, settings, seed.wrapping_add(i as u64))
    });
    let wall_seconds = start.elapsed().as_secs_f64();
    summarize(settings, seed, threads, runs, wall_seconds)
}

/// `work(0..count)` on `threads` threads, results in order; `progress` is
/// called with the number finished after each.
pub fn parallel<T: Send>(
    count: usize,
    threads: usize,
    progress: &(dyn Fn(usize) + Sync),
    work: impl Fn(usize) -> T + Sync,
) -> Vec<T> {
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<T>>> = Mutex::new((0..count).map(|_| None).collect());
    std::thread::scope(|scope| {
        for _ in 0..threads.max(1) {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= count {
                        break;
                    }
                    let result = work(i);
                    results.lock().unwrap_or_else(|e| e.into_inner())[i] = Some(result);
                    progress(done.fetch_add(1, Ordering::Relaxed) + 1);
                }
            });
        }
    });
    results
        .into_inner()
        .unwrap_or_else(|e| e.into_inner())
        .into_iter()
        .flatten()
        .collect()
}

fn summarize(
    settings: &Settings,
    seed: u64,
    threads: usize,
    runs: Vec<Trial>,
    wall_seconds: f64,
) -> Summary {
    let n = runs.len();
    let successes = runs.iter().filter(|t| t.success_at.is_some()).count();
    let verified = runs
        .iter()
        .filter(|t| t.success_at.is_some() && t.verified.iter().all(|&v| v))
        .count();
    let easy = runs
        .iter()
        .filter(|t| t.easy_at.iter().all(Option::is_some))
        .count();
    let curve = (1..=settings.episodes / settings.check_every)
        .map(|k| k * settings.check_every)
        .map(|e| {
            let by_then = runs
                .iter()
                .filter(|t| t.success_at.is_some_and(|s| s <= e))
                .count();
            (e, fraction(by_then, n))
        })
        .collect();
    let episodes_run: usize = runs.iter().map(|t| t.episodes).sum();
    Summary {
        settings: settings.clone(),
        seed,
        trials: n,
        success: fraction(successes, n),
        per_combinator: PerCombinator::of(&runs, |t| t.learned),
        easy: fraction(easy, n),
        verified: fraction(verified, successes),
        curve,
        episodes_run,
        wall_seconds,
        episodes_per_second: episodes_run as f64 / wall_seconds.max(1e-9),
        threads,
        runs,
    }
}

fn fraction(count: usize, of: usize) -> f64 {
    if of == 0 {
        0.0
    } else {
        count as f64 / of as f64
    }
}

impl Summary {
    /// The first trial that learned all three combinators and passes
    /// verification, if any.
    pub fn best(&self) -> Option<&Trial> {
        self.runs
            .iter()
            .find(|t| t.success_at.is_some() && t.verified.iter().all(|&v| v))
    }

    /// Table 4's cell: `success (seq/cond/linrec)` in percent.
    pub fn cell(&self) -> String {
        let pct = |x: f64| (x * 100.0).round() as i64;
        let p = &self.per_combinator;
        format!(
            "{} ({}/{}/{})",
            pct(self.success),
            pct(p.seq),
            pct(p.cond),
            pct(p.linrec)
        )
    }
}
