//! `continual`: Table 2 of the paper, learning new programs with a fixed
//! core and re-testing the old ones.
//!
//! CNPI-4: the full set is split at random (from the trial's seed) into an
//! old half and a new half; a state0 core is trained on the old half, then
//! fixed, and only embeddings for the new half are learned
//! ([`learn_embeddings`]); the old half is re-tested on the final model.
//! RNPI-4x2: see `rnpi`, at 50 % and 100 % sampling, with the new programs
//! trained to 90 % and to 97 % accuracy (the paper's two rows each).

use std::fmt::Write as _;

use cnpi::diagnostic::Diagnostic;
use cnpi::program::Behaviour;
use cnpi_neural::core::fast::{Variant, learn_embeddings, train, verify};

use crate::full_set::Training;
use crate::rnpi::Measured;
use crate::table::table;
use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

use crate::full_set::fraction;
use crate::output::Output;
use crate::plan::{Planned, grid, list};
use crate::results::Results;
use crate::runner::Experiment;
use crate::stats::Spread;

/// One trial's accuracies (fractions of verified steps).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Row {
    pub model: String,
    /// Percent of each full set sampled (CNPI: 50, its even split).
    pub sampling: u32,
    /// The accuracy the new set is trained to (1.0: verification passes).
    pub target: f64,
    pub seed: u64,
    pub old: usize,
    pub new: usize,
    pub train_old: f64,
    pub train_new: f64,
    pub test_old: f64,
}

impl Row {
    fn new(model: &str, sampling: u32, target: f64, seed: u64, measured: Measured) -> Row {
        Row {
            model: model.to_string(),
            sampling,
            target,
            seed,
            old: measured.old,
            new: measured.new,
            train_old: measured.train_old,
            train_new: measured.train_new,
            test_old: measured.test_old,
        }
    }
}

/// The models' names in the rows.
const CNPI: &str = "CNPI-4";
const RNPI: &str = "RNPI-4x2";
/// CNPI-4 samples half of each set (its even split).
const CNPI_SAMPLING: u32 = 50;
/// The RNPI settings, each run with every seed.
const RNPI_SAMPLING: [u32; 2] = [50, 100];
const RNPI_TARGETS: [f64; 2] = [0.90, 0.97];

/// Which model a trial trains.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Trial {
    Cnpi {
        seed: u64,
    },
    Rnpi {
        sampling: u32,
        target: f64,
        seed: u64,
    },
}

/// The sweep: CNPI-4 and the four RNPI-4x2 settings for each seed.
pub struct Continual {
    pub set: Vec<(&'static str, &'static Behaviour)>,
    pub seeds: Vec<u64>,
    /// Cells, epochs and rate of every training (each model sets its own
    /// variant: state0 for CNPI, input for RNPI).
    pub training: Training,
}

/// One CNPI-4 trial.
pub fn cnpi_trial(set: &[(&str, &Behaviour)], seed: u64, training: &Training) -> Measured {
    let mut order: Vec<usize> = (0..set.len()).collect();
    order.shuffle(&mut ChaCha8Rng::seed_from_u64(seed));
    let (old, new) = order.split_at(set.len() / 2);
    let pick = |indices: &[usize]| -> Vec<(&str, &Behaviour)> {
        let mut sorted = indices.to_vec();
        sorted.sort_unstable();
        sorted.iter().map(|&i| set[i]).collect()
    };
    let (old, new) = (pick(old), pick(new));
    let options = Training {
        variant: Variant::State0,
        ..*training
    }
    .options(seed);
    let core = train(&old, &options, &mut |_| {});
    let learned = learn_embeddings(&core.model, &new, &options, &mut |_| {});
    Measured {
        old: old.len(),
        new: new.len(),
        train_old: core.verification.accuracy(),
        train_new: learned.verification.accuracy(),
        test_old: verify(&learned.model, &old, 0).accuracy(),
    }
}

impl Experiment for Continual {
    const NAME: &'static str = "continual";
    type Trial = Trial;
    type Row = Row;

    fn trials(&self) -> Vec<Trial> {
        let mut trials: Vec<Trial> = self
            .seeds
            .iter()
            .map(|&seed| Trial::Cnpi { seed })
            .collect();
        for sampling in RNPI_SAMPLING {
            for target in RNPI_TARGETS {
                for &seed in &self.seeds {
                    trials.push(Trial::Rnpi {
                        sampling,
                        target,
                        seed,
                    });
                }
            }
        }
        trials
    }

    fn run(&self, trial: &Trial) -> Row {
        match *trial {
            Trial::Cnpi { seed } => {
                let measured = cnpi_trial(&self.set, seed, &self.training);
                Row::new(CNPI, CNPI_SAMPLING, 1.0, seed, measured)
            }
            Trial::Rnpi {
                sampling,
                target,
                seed,
            } => {
                let measured =
                    crate::rnpi::trial(&self.set, sampling, target, seed, &self.training);
                Row::new(RNPI, sampling, target, seed, measured)
            }
        }
    }

    fn config(&self) -> serde_json::Value {
        serde_json::json!({
            "seeds": self.seeds,
            "cells": self.training.cells,
            "max_epochs": self.training.max_epochs,
            "learning_rate": self.training.learning_rate,
        })
    }

    fn planned(config: &serde_json::Value) -> Result<Vec<Planned>, String> {
        let seeds = list(config, &["seeds"])?;
        let mut planned = grid(&[
            ("model", vec![CNPI.into()]),
            ("sampling", vec![CNPI_SAMPLING.into()]),
            ("target", vec![1.0.into()]),
            ("seed", seeds.clone()),
        ]);
        planned.extend(grid(&[
            ("model", vec![RNPI.into()]),
            ("sampling", RNPI_SAMPLING.map(Into::into).to_vec()),
            ("target", RNPI_TARGETS.map(Into::into).to_vec()),
            ("seed", seeds),
        ]));
        Ok(planned)
    }

    fn check(row: &Row) -> Result<(), String> {
        fraction("target", row.target)?;
        fraction("train old", row.train_old)?;
        fraction("train new", row.train_new)?;
        fraction("test old", row.test_old)?;
        if row.sampling > 100 {
            return Err(format!("it samples {} % of a set", row.sampling));
        }
        Ok(())
    }

    fn summarize(results: &Results<Row>, out: &mut Output) -> Result<String, Diagnostic> {
        let summary = summary(results.rows());
        out.csv("summary.csv", &summary)?;
        let rows: Vec<Vec<String>> = (summary.iter())
            .map(|s| {
                vec![
                    s.model.clone(),
                    format!("{}%", s.sampling),
                    format!("{:.0}%", s.target * 100.0),
                    percent(s.train_old_mean, s.train_old_std),
                    percent(s.train_new_mean, s.train_new_std),
                    percent(s.test_old_mean, s.test_old_std),
                ]
            })
            .collect();
        let header = [
            "model",
            "sampling",
            "target",
            "train old %",
            "train new %",
            "test old %",
        ];
        let mut text = table(&header, &rows);
        let _ = writeln!(
            text,
            "(mean ± standard deviation over {} seeds)",
            summary.first().map_or(0, |s| s.seeds)
        );
        Ok(text)
    }
}

/// One line of Table 2 (fractions; mean and standard deviation over seeds).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Line {
    pub model: String,
    pub sampling: u32,
    pub target: f64,
    pub seeds: usize,
    pub train_old_mean: f64,
    pub train_old_std: f64,
    pub train_new_mean: f64,
    pub train_new_std: f64,
    pub test_old_mean: f64,
    pub test_old_std: f64,
    pub test_old_min: f64,
    pub test_old_max: f64,
}

fn summary<'r>(rows: impl Iterator<Item = &'r Row>) -> Vec<Line> {
    let mut groups: Vec<(&Row, Vec<&Row>)> = Vec::new();
    for row in rows {
        let same =
            |r: &Row| r.model == row.model && r.sampling == row.sampling && r.target == row.target;
        match groups.iter_mut().find(|(first, _)| same(first)) {
            Some((_, members)) => members.push(row),
            None => groups.push((row, vec![row])),
        }
    }
    groups
        .into_iter()
        .map(|(first, members)| {
            let spread =
                |f: fn(&Row) -> f64| Spread::of(&members.iter().map(|r| f(r)).collect::<Vec<_>>());
            let (train_old, train_new, test_old) = (
                spread(|r| r.train_old),
                spread(|r| r.train_new),
                spread(|r| r.test_old),
            );
            Line {
                model: first.model.clone(),
                sampling: first.sampling,
                target: first.target,
                seeds: members.len(),
                train_old_mean: train_old.mean,
                train_old_std: train_old.std,
                train_new_mean: train_new.mean,
                train_new_std: train_new.std,
                test_old_mean: test_old.mean,
                test_old_std: test_old.std,
                test_old_min: test_old.min,
                test_old_max: test_old.max,
            }
        })
        .collect()
}

fn percent(mean: f64, std: f64) -> String {
    format!("{:.1} ± {:.1}", mean * 100.0, std * 100.0)
}
