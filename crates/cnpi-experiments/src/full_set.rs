//! `full-set`: one core trained on the abstract traces of the 57
//! combinators of `stdlib/full_set.cnpi`, per seed.
//!
//! A trial trains a model of the given variant and cell count with the fast
//! trainer from its seed, then verifies it exhaustively: the accuracy is the
//! fraction of distinct steps (bit prefixes) whose slot and return flag are
//! both right, and a combinator is learned perfectly when all its steps are.

use std::fmt::Write as _;
use std::time::Instant;

use cnpi::diagnostic::Diagnostic;
use cnpi::program::Behaviour;
use cnpi::stdlib::full_set::full_set;
use cnpi_neural::core::fast::{FastOptions, Variant, train};
use serde::{Deserialize, Serialize};

use crate::output::Output;
use crate::plan::{Planned, field, grid, list};
use crate::results::Results;
use crate::runner::Experiment;
use crate::stats::Spread;
use crate::table::table;

/// How to train one core.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Training {
    pub variant: Variant,
    pub cells: usize,
    pub max_epochs: usize,
    pub learning_rate: f32,
}

impl Training {
    /// The fast trainer's options for this training from `seed`.
    pub fn options(&self, seed: u64) -> FastOptions {
        let mut options = FastOptions::new(self.variant, self.cells, seed, self.max_epochs);
        options.learning_rate = self.learning_rate;
        options
    }
}

/// What one trained core achieved on the full set.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Row {
    pub variant: String,
    pub cells: usize,
    pub seed: u64,
    pub combinators: usize,
    pub accuracy: f64,
    pub perfect: usize,
    pub epochs: usize,
}

impl Row {
    /// Whether the numbers are in range: an accuracy is a fraction, and
    /// no more combinators are perfect than were trained.
    pub fn check(&self) -> Result<(), String> {
        fraction("accuracy", self.accuracy)?;
        if self.perfect > self.combinators {
            return Err(format!(
                "{} of {} combinators learned perfectly",
                self.perfect, self.combinators
            ));
        }
        Ok(())
    }
}

/// `Ok` for a number between 0 and 1, else what is wrong with `name`.
pub fn fraction(name: &str, value: f64) -> Result<(), String> {
    if (0.0..=1.0).contains(&value) {
        return Ok(());
    }
    Err(format!("its {name} is {value}, not between 0 and 1"))
}

/// The full set as named behaviours.
pub fn behaviours() -> Result<Vec<(&'static str, &'static Behaviour)>, Diagnostic> {
    Ok(full_set()?
        .iter()
        .map(|m| (m.name.as_str(), &m.behaviour))
        .collect())
}

/// Trains and verifies one core; also returns its wall time in seconds.
pub fn train_one(set: &[(&str, &Behaviour)], training: &Training, seed: u64) -> (Row, f64) {
    let start = Instant::now();
    let fitted = train(set, &training.options(seed), &mut |_| {});
    let seconds = start.elapsed().as_secs_f64();
    let verification = &fitted.verification;
    let row = Row {
        variant: training.variant.name().to_string(),
        cells: training.cells,
        seed,
        combinators: set.len(),
        accuracy: verification.accuracy(),
        perfect: verification
            .rows
            .iter()
            .filter(|r| r.wrong_steps == 0)
            .count(),
        epochs: fitted.epochs,
    };
    (row, seconds)
}

/// `full-set`: the same training for each of `seeds`.
pub struct FullSet {
    pub set: Vec<(&'static str, &'static Behaviour)>,
    pub training: Training,
    pub seeds: Vec<u64>,
}

impl Experiment for FullSet {
    const NAME: &'static str = "full-set";
    type Trial = u64;
    type Row = Row;

    fn trials(&self) -> Vec<u64> {
        self.seeds.clone()
    }

    fn run(&self, seed: &u64) -> Row {
        train_one(&self.set, &self.training, *seed).0
    }

    fn config(&self) -> serde_json::Value {
        serde_json::json!({ "training": self.training, "seeds": self.seeds })
    }

    fn planned(config: &serde_json::Value) -> Result<Vec<Planned>, String> {
        Ok(grid(&[
            ("variant", vec![field(config, &["training", "variant"])?]),
            ("cells", vec![field(config, &["training", "cells"])?]),
            ("seed", list(config, &["seeds"])?),
        ]))
    }

    fn check(row: &Row) -> Result<(), String> {
        row.check()
    }

    fn summarize(results: &Results<Row>, _out: &mut Output) -> Result<String, Diagnostic> {
        let rows: Vec<Vec<String>> = (results.records.iter())
            .map(|record| {
                let r = &record.row;
                vec![
                    r.variant.to_string(),
                    r.cells.to_string(),
                    r.seed.to_string(),
                    format!("{:.2}%", r.accuracy * 100.0),
                    format!("{}/{}", r.perfect, r.combinators),
                    r.epochs.to_string(),
                    format!("{:.2}", record.seconds),
                ]
            })
            .collect();
        let header = [
            "variant", "cells", "seed", "accuracy", "perfect", "epochs", "seconds",
        ];
        let mut text = table(&header, &rows);
        let accuracies: Vec<f64> = results.rows().map(|r| r.accuracy).collect();
        if accuracies.len() > 1 {
            let _ = writeln!(text, "accuracy over seeds: {} %", Spread::of(&accuracies));
        }
        Ok(text)
    }
}
