//! Running an experiment: its trials, independent and seeded, on every
//! core, or one shard of them.
//!
//! An [`Experiment`] lists its trials (each carries its own seed) and runs
//! one at a time; nothing is shared between trials, so a trial gives the
//! same row whichever thread, shard or machine runs it. [`run`] runs the
//! trials a [`Shard`] owns on a rayon pool of all cores, with an indicatif
//! bar on stderr when it is a terminal (and nothing otherwise), and hands
//! back [`Results`] in trial order.

use std::fmt::Debug;

use cnpi::diagnostic::Diagnostic;
use std::time::Instant;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rayon::prelude::*;
use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::output::Output;
use crate::plan::Planned;
use crate::results::{Record, Results};
use cnpi::shard::Shard;

/// An experiment: a list of trials and how to run one.
pub trait Experiment: Sync {
    /// The name `cnpic experiment NAME` uses.
    const NAME: &'static str;
    /// One trial's parameters, its seed included.
    type Trial: Send + Sync;
    /// What one trial measures.
    type Row: Serialize + DeserializeOwned + Clone + Debug + PartialEq + Send;

    /// Every trial, in a fixed order.
    fn trials(&self) -> Vec<Self::Trial>;
    /// Runs one trial.
    fn run(&self, trial: &Self::Trial) -> Self::Row;
    /// The parameters the whole sweep was run with (merge checks that all
    /// shards agree).
    fn config(&self) -> serde_json::Value;
    /// What each trial's row holds of its own parameters (its seed, its
    /// setting), in trial order, worked out from the `config` of a run as
    /// [`Experiment::config`] wrote it; `merge` refuses a row that
    /// contradicts it, and a file whose trial count is not its length.
    fn planned(config: &serde_json::Value) -> Result<Vec<Planned>, String>;
    /// Whether `row` is one this experiment could have written (values in
    /// range); `merge` refuses a file with a row that is not.
    fn check(_row: &Self::Row) -> Result<(), String> {
        Ok(())
    }
    /// Adds the summary files of a whole run (tables, plots) to `out` and
    /// returns the text to print.
    fn summarize(results: &Results<Self::Row>, out: &mut Output) -> Result<String, Diagnostic>;
}

/// A bar on stderr counting `len` `units` of work named `name`, with the
/// time left; indicatif draws it only when stderr is a terminal.
pub fn progress(len: u64, units: &str, name: &str) -> ProgressBar {
    let template = format!(
        "{{bar:30}} {{human_pos}}/{{human_len}} {units}  {{elapsed}} (eta {{eta}})  {{msg}}"
    );
    ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr())
        .with_style(
            ProgressStyle::with_template(&template)
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        )
        .with_message(name.to_string())
}

/// Runs the trials `shard` owns on `threads` threads (0: one per core;
/// [`cnpi::threads::usable`] caps them. Rayon's own choice for 0 was
/// measured to be a single thread on these machines).
pub fn run<E: Experiment>(experiment: &E, shard: Shard, threads: usize) -> Results<E::Row> {
    let trials = experiment.trials();
    let owned: Vec<usize> = (0..trials.len()).filter(|&i| shard.owns(i)).collect();
    let bar = progress(owned.len() as u64, "trials", E::NAME);
    let run_all = || -> Vec<Record<E::Row>> {
        owned
            .par_iter()
            .map(|&trial| {
                let start = Instant::now();
                let row = experiment.run(&trials[trial]);
                bar.inc(1);
                Record {
                    trial,
                    seconds: start.elapsed().as_secs_f64(),
                    row,
                }
            })
            .collect()
    };
    let records = match rayon::ThreadPoolBuilder::new()
        .num_threads(cnpi::threads::usable(threads, owned.len()))
        .build()
    {
        Ok(pool) => pool.install(run_all),
        // Without a pool of our own, rayon's global one does the same work.
        Err(_) => run_all(),
    };
    bar.finish_and_clear();
    Results {
        experiment: E::NAME.to_string(),
        config: experiment.config(),
        trials: trials.len(),
        shard: shard.to_string(),
        records,
    }
}
