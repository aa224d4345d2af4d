//! The experiments of cnpi: the paper's supervised results (section 4.1)
//! and reinforcement results (section 4.2), re-measured with the project's
//! own trainers, and the machinery to run them as sweeps.
//!
//! - `runner`: an [`Experiment`] is a list of seeded trials; [`run`] runs
//!   those of a [`Shard`] on every core with a progress bar on a terminal;
//! - [`Shard`] (from `cnpi::shard`): one of `n` even parts of a sweep's trials;
//! - `results`: result files (JSON rows) and [`merge`] of shards;
//! - `plan`: what each trial's row must say of its parameters, from a
//!   run's settings (merge holds the rows to it);
//! - `registry`: the one list of experiments, and merging result files by it;
//! - `output`: the files of a run (rows, tables, plots), written as one unit;
//! - `plot`: line charts with spread bars, as PNG and SVG;
//! - the experiments: `full_set` (one core on the 57 combinators), `cells`
//!   (Figure 3), `continual` (Table 2, with the RNPI baseline of `rnpi`)
//!   and `verification_cost` (section 3.3);
//! - the reinforcement experiments of section 4.2, on the learners of
//!   crate `cnpi-rl`: `rl_core` (Table 4), `rl_rnpi` (Table 5) and
//!   `rl_stage2` (the detector and the STEP and SORT appliers).
//!
//! The library prints nothing but the progress bar; the `cnpic experiment`
//! commands print what the summaries return.

pub mod cells;
pub mod continual;
pub mod full_set;
pub mod output;
pub mod plan;
pub mod plot;
pub mod registry;
pub mod results;
pub mod rl_core;
pub mod rl_rnpi;
pub mod rl_stage2;
pub mod rnpi;
pub mod runner;
pub mod stats;
pub mod table;
pub mod verification_cost;

pub use cnpi::shard::Shard;
pub use output::{Output, Saved};
pub use results::{Record, Results, merge, read_json};
pub use runner::{Experiment, run};

use std::path::Path;

use cnpi::diagnostic::Diagnostic;

/// Writes a run's rows (`results.json`, `rows.csv`) into `out`, creating
/// it, and for a whole run its summary too, all as one unit (see
/// [`output`]); returns the text to print and the warnings.
pub fn save<E: Experiment>(results: &Results<E::Row>, out: &Path) -> Result<Saved, Diagnostic> {
    let mut output = Output::new(out);
    output.add("results.json", results::json(results)?);
    output.csv("rows.csv", results.rows())?;
    let text = if results.records.len() < results.trials {
        format!(
            "shard {} of `{}`: {} of {} trials; join the shards with `cnpic experiment merge`\n",
            results.shard,
            results.experiment,
            results.records.len(),
            results.trials,
        )
    } else {
        E::summarize(results, &mut output)?
    };
    let mut saved = output.write()?;
    saved.text.insert_str(0, &text);
    Ok(saved)
}
