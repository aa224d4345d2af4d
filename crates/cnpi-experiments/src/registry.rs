//! The one list of the experiments that write result files, and what is
//! done by name with it: [`merge_files`] joins the shards of any of them.
//!
//! A new sweep is added to [`EXPERIMENTS`] and nowhere else; `cnpic
//! experiment merge` reads the list rather than repeating it.

use std::path::{Path, PathBuf};

use cnpi::diagnostic::{Diagnostic, codes};

use crate::cells::Cells;
use crate::continual::Continual;
use crate::full_set::FullSet;
use crate::output::Saved;
use crate::plan::contradiction;
use crate::results::{experiment_of, merge, read_json};
use crate::rl_core::RlCore;
use crate::rl_rnpi::RlRnpi;
use crate::rl_stage2::RlStage2;
use crate::runner::Experiment;
use crate::save;

/// Merges result files of one experiment into a folder.
type Merger = fn(&[PathBuf], &Path) -> Result<Saved, Diagnostic>;

/// Every experiment whose runs write `results.json`, by name.
pub const EXPERIMENTS: &[(&str, Merger)] = &[
    (FullSet::NAME, merge_as::<FullSet>),
    (Cells::NAME, merge_as::<Cells>),
    (Continual::NAME, merge_as::<Continual>),
    (RlCore::NAME, merge_as::<RlCore>),
    (RlRnpi::NAME, merge_as::<RlRnpi>),
    (RlStage2::NAME, merge_as::<RlStage2>),
];

/// Joins the shards in `files` (each a `results.json`) and writes the
/// whole run's rows and summary into `out`. Refuses (E1303) files of
/// different experiments, and (E0904) an `out` that holds one of them.
pub fn merge_files(files: &[PathBuf], out: &Path) -> Result<Saved, Diagnostic> {
    let Some(first) = files.first() else {
        return Err(Diagnostic::error(codes::E1303, "no result files to merge"));
    };
    let inputs: Vec<&Path> = files.iter().map(PathBuf::as_path).collect();
    cnpi::files::refuse_overwriting(&inputs, &[&out.join("results.json")])?;
    let name = experiment_of(first)?;
    for file in files {
        let other = experiment_of(file)?;
        if other != name {
            return Err(Diagnostic::error(
                codes::E1303,
                format!(
                    "`{}` holds results of `{name}`, `{}` of `{other}`: only shards of one run merge",
                    first.display(),
                    file.display()
                ),
            ));
        }
    }
    let Some((_, merger)) = EXPERIMENTS.iter().find(|(known, _)| *known == name) else {
        let known: Vec<&str> = EXPERIMENTS.iter().map(|(known, _)| *known).collect();
        return Err(Diagnostic::error(
            codes::E1302,
            format!(
                "`{}` holds results of `{name}`, which is no experiment of cnpic",
                first.display()
            ),
        )
        .with_help(format!("the experiments are {}", known.join(", "))));
    };
    merger(files, out)
}

fn merge_as<E: Experiment>(files: &[PathBuf], out: &Path) -> Result<Saved, Diagnostic> {
    let parts = files
        .iter()
        .map(|path| read_json::<E::Row>(path))
        .collect::<Result<Vec<_>, _>>()?;
    for (part, path) in parts.iter().zip(files) {
        let damaged = |problem: String| {
            Diagnostic::error(codes::E1302, format!("`{}`: {problem}", path.display()))
                .with_help("the file was edited or damaged; rerun the shard that wrote it")
        };
        let planned = E::planned(&part.config).map_err(&damaged)?;
        if planned.len() != part.trials {
            return Err(damaged(format!(
                "it says the run has {} trials, its settings make {}",
                part.trials,
                planned.len()
            )));
        }
        for record in &part.records {
            E::check(&record.row).map_err(|problem| {
                damaged(format!(
                    "trial {} is not a row `{}` writes: {problem}",
                    record.trial,
                    E::NAME
                ))
            })?;
            let row = serde_json::to_value(&record.row).unwrap_or_default();
            let Some(plan) = planned.get(record.trial) else {
                continue; // `merge` names the trial no shard runs.
            };
            if let Some((name, wanted, found)) = contradiction(&row, plan) {
                return Err(damaged(format!(
                    "trial {}'s row has {name} {found}, but the run's settings give it {name} {wanted}",
                    record.trial
                )));
            }
        }
    }
    save::<E>(&merge(parts)?, out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_is_listed_once() {
        let mut names: Vec<&str> = EXPERIMENTS.iter().map(|(name, _)| *name).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), EXPERIMENTS.len());
    }
}
