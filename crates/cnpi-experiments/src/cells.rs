//! `cells`: Figure 3 of the paper, accuracy on the full set against the
//! number of LSTM cells, for the three variants, over several seeds.
//!
//! Each trial is one `full-set` training. The summary groups the rows by
//! variant and cell count and writes `summary.csv` (mean, standard
//! deviation, minimum and maximum of the accuracy, and how many seeds
//! learned all 57 combinators) and the plot `cells.png` / `cells.svg`;
//! and, read as an existence claim ("a core of 5 cells can learn all
//! 57"), the fraction of seeds whose core learns all 57 per variant and
//! size (`existence.png` / `existence.svg`) with the fewest cells at which
//! one does.

use std::fmt::Write as _;

use cnpi::diagnostic::Diagnostic;
use cnpi::program::Behaviour;
use cnpi_neural::core::fast::Variant;
use serde::Serialize;

use crate::full_set::{Row, Training, train_one};
use crate::output::Output;
use crate::plan::{Planned, grid, list};
use crate::plot::Series;
use crate::results::Results;
use crate::runner::Experiment;
use crate::stats::Spread;
use crate::table::table;

/// The sweep: every variant, every cell count, every seed.
pub struct Cells {
    pub set: Vec<(&'static str, &'static Behaviour)>,
    pub variants: Vec<Variant>,
    pub cells: Vec<usize>,
    pub seeds: Vec<u64>,
    pub max_epochs: usize,
    pub learning_rate: f32,
}

impl Experiment for Cells {
    const NAME: &'static str = "cells";
    type Trial = (Variant, usize, u64);
    type Row = Row;

    fn trials(&self) -> Vec<(Variant, usize, u64)> {
        let mut trials = Vec::new();
        for &variant in &self.variants {
            for &cells in &self.cells {
                for &seed in &self.seeds {
                    trials.push((variant, cells, seed));
                }
            }
        }
        trials
    }

    fn run(&self, &(variant, cells, seed): &(Variant, usize, u64)) -> Row {
        let training = Training {
            variant,
            cells,
            max_epochs: self.max_epochs,
            learning_rate: self.learning_rate,
        };
        train_one(&self.set, &training, seed).0
    }

    fn config(&self) -> serde_json::Value {
        serde_json::json!({
            "variants": self.variants,
            "cells": self.cells,
            "seeds": self.seeds,
            "max_epochs": self.max_epochs,
            "learning_rate": self.learning_rate,
        })
    }

    fn planned(config: &serde_json::Value) -> Result<Vec<Planned>, String> {
        Ok(grid(&[
            ("variant", list(config, &["variants"])?),
            ("cells", list(config, &["cells"])?),
            ("seed", list(config, &["seeds"])?),
        ]))
    }

    fn check(row: &Row) -> Result<(), String> {
        row.check()
    }

    fn summarize(results: &Results<Row>, out: &mut Output) -> Result<String, Diagnostic> {
        let summary = summary(results.rows());
        out.csv("summary.csv", &summary)?;
        let series: Vec<Series> = Variant::ALL
            .iter()
            .map(|variant| Series {
                label: variant.name().to_string(),
                points: summary
                    .iter()
                    .filter(|s| s.variant == variant.name())
                    .map(|s| (s.cells as f64, s.mean * 100.0, s.min * 100.0, s.max * 100.0))
                    .collect(),
            })
            .filter(|s| !s.points.is_empty())
            .collect();
        out.plot(
            "cells",
            "Accuracy on the 57 combinators (mean, min-max over seeds)",
            "LSTM cells",
            "step accuracy (%)",
            &series,
        );
        // Figure 3 as an existence claim: the fraction of seeds whose core
        // learns all 57, per variant and size.
        let existence: Vec<Series> = Variant::ALL
            .iter()
            .map(|variant| Series {
                label: variant.name().to_string(),
                points: (summary.iter())
                    .filter(|s| s.variant == variant.name())
                    .map(|s| {
                        let share = 100.0 * s.perfect_seeds as f64 / s.seeds.max(1) as f64;
                        (s.cells as f64, share, share, share)
                    })
                    .collect(),
            })
            .filter(|s| !s.points.is_empty())
            .collect();
        out.plot(
            "existence",
            "Seeds whose core learns all 57 combinators",
            "LSTM cells",
            "seeds learning all 57 (%)",
            &existence,
        );
        let rows: Vec<Vec<String>> = (summary.iter())
            .map(|s| {
                let spread = Spread {
                    n: s.seeds,
                    mean: s.mean,
                    std: s.std,
                    min: s.min,
                    max: s.max,
                };
                vec![
                    s.variant.clone(),
                    s.cells.to_string(),
                    spread.to_string(),
                    format!("{:.1}", s.min * 100.0),
                    format!("{:.1}", s.max * 100.0),
                    format!("{}/{}", s.perfect_seeds, s.seeds),
                ]
            })
            .collect();
        let header = ["variant", "cells", "accuracy %", "min", "max", "all 57"];
        let mut text = table(&header, &rows);
        for variant in Variant::ALL {
            let fewest = (summary.iter())
                .filter(|s| s.variant == variant.name() && s.perfect_seeds > 0)
                .min_by_key(|s| s.cells);
            let _ = match fewest {
                Some(s) => writeln!(
                    text,
                    "{}: fewest cells at which a core learns all 57: {} ({} of {} seeds)",
                    variant.name(),
                    s.cells,
                    s.perfect_seeds,
                    s.seeds
                ),
                None if summary.iter().any(|s| s.variant == variant.name()) => writeln!(
                    text,
                    "{}: no seed at any size learns all 57",
                    variant.name()
                ),
                None => Ok(()),
            };
        }
        Ok(text)
    }
}

/// One point of Figure 3.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Point {
    pub variant: String,
    pub cells: usize,
    pub seeds: usize,
    pub mean: f64,
    pub std: f64,
    pub min: f64,
    pub max: f64,
    /// Seeds whose core learned every combinator perfectly.
    pub perfect_seeds: usize,
}

/// Groups rows by variant and cells, in the order they first appear.
pub fn summary<'r>(rows: impl Iterator<Item = &'r Row>) -> Vec<Point> {
    let mut groups: Vec<((String, usize), Vec<&Row>)> = Vec::new();
    for row in rows {
        let key = (row.variant.clone(), row.cells);
        match groups.iter_mut().find(|(k, _)| *k == key) {
            Some((_, members)) => members.push(row),
            None => groups.push((key, vec![row])),
        }
    }
    groups
        .into_iter()
        .map(|((variant, cells), members)| {
            let accuracies: Vec<f64> = members.iter().map(|r| r.accuracy).collect();
            let spread = Spread::of(&accuracies);
            Point {
                variant,
                cells,
                seeds: members.len(),
                mean: spread.mean,
                std: spread.std,
                min: spread.min,
                max: spread.max,
                perfect_seeds: members
                    .iter()
                    .filter(|r| r.perfect == r.combinators)
                    .count(),
            }
        })
        .collect()
}
