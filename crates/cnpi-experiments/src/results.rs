//! Result files: the rows of a run (or of one shard) as JSON and CSV, and
//! [`merge`], which joins shards back into the run they split.
//!
//! A [`Results`] file records the experiment, its configuration, how many
//! trials the whole run has, which shard this is, and one [`Record`] per
//! trial run: its index, its wall time, and its row. Rows hold results only
//! (the seed and parameters of the trial and what it measured); wall times
//! are kept beside them, since they differ from run to run. Every file is
//! written atomically, through `cnpi::files`.

use std::path::Path;

use cnpi::diagnostic::{Diagnostic, codes};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

/// The records of a run or a shard.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Results<R> {
    pub experiment: String,
    pub config: serde_json::Value,
    /// Trials in the whole run (all shards).
    pub trials: usize,
    /// `i/n`, or `1/1` for a whole (or merged) run.
    pub shard: String,
    /// In trial order.
    pub records: Vec<Record<R>>,
}

/// One trial's row, its index and wall time.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Record<R> {
    pub trial: usize,
    pub seconds: f64,
    pub row: R,
}

impl<R> Results<R> {
    /// The rows in trial order.
    pub fn rows(&self) -> impl Iterator<Item = &R> {
        self.records.iter().map(|r| &r.row)
    }

    /// The summed wall time of the trials (CPU-seconds across threads).
    pub fn trial_seconds(&self) -> f64 {
        self.records.iter().map(|r| r.seconds).sum()
    }
}

/// Joins shards of one run: same experiment, configuration and trial
/// count, no trial twice, every trial present.
pub fn merge<R>(parts: Vec<Results<R>>) -> Result<Results<R>, Diagnostic> {
    let mut parts = parts.into_iter();
    let Some(mut merged) = parts.next() else {
        return Err(refuse("no result files to merge".to_string()));
    };
    for part in parts {
        if part.experiment != merged.experiment || part.config != merged.config {
            return Err(refuse(format!(
                "shard {} of `{}` was run with other settings than shard {} of `{}`",
                part.shard, part.experiment, merged.shard, merged.experiment
            ))
            .with_note(format!("{}\n{}", part.config, merged.config)));
        }
        if part.trials != merged.trials {
            return Err(refuse(format!(
                "shard {} has {} trials in all, another shard {}",
                part.shard, part.trials, merged.trials
            )));
        }
        merged.records.extend(part.records);
    }
    merged.records.sort_by_key(|r| r.trial);
    for (expected, record) in merged.records.iter().enumerate() {
        if record.trial != expected {
            let what = if record.trial < expected {
                "twice"
            } else {
                "missing"
            };
            let trial = record.trial.min(expected);
            return Err(refuse(format!("trial {trial} is {what} in the shards"))
                .with_help("merge every shard of one run, each once"));
        }
    }
    if merged.records.len() != merged.trials {
        return Err(refuse(format!(
            "the shards hold {} of the {} trials",
            merged.records.len(),
            merged.trials
        ))
        .with_help("merge every shard of one run, each once"));
    }
    merged.shard = "1/1".to_string();
    Ok(merged)
}

fn refuse(message: String) -> Diagnostic {
    Diagnostic::error(codes::E1303, message)
}

/// Reads a result file written by [`write_json`].
pub fn read_json<R: DeserializeOwned>(path: &Path) -> Result<Results<R>, Diagnostic> {
    let text = std::fs::read_to_string(path).map_err(|error| {
        Diagnostic::error(
            codes::E1302,
            format!("cannot read `{}`: {error}", path.display()),
        )
    })?;
    serde_json::from_str(&text).map_err(|error| {
        Diagnostic::error(
            codes::E1302,
            format!("`{}` is not a result file: {error}", path.display()),
        )
    })
}

/// The experiment a result file holds, without reading its rows' types.
pub fn experiment_of(path: &Path) -> Result<String, Diagnostic> {
    let any: Results<serde_json::Value> = read_json(path)?;
    Ok(any.experiment)
}

/// Writes `results` as pretty JSON.
pub fn write_json<R: Serialize>(path: &Path, results: &Results<R>) -> Result<(), Diagnostic> {
    let mut text = serde_json::to_string_pretty(results).map_err(|e| cannot_write(path, e))?;
    text.push('\n');
    write_file(path, text.as_bytes())
}

/// Writes rows as CSV, one column per field.
pub fn write_csv<'r, R: Serialize + 'r>(
    path: &Path,
    rows: impl IntoIterator<Item = &'r R>,
) -> Result<(), Diagnostic> {
    let mut writer = csv::Writer::from_writer(Vec::new());
    for row in rows {
        writer.serialize(row).map_err(|e| cannot_write(path, e))?;
    }
    let bytes = writer.into_inner().map_err(|e| cannot_write(path, e))?;
    write_file(path, &bytes)
}

/// Writes `bytes` to `path` atomically (see [`cnpi::files::write_atomic`]).
pub fn write_file(path: &Path, bytes: &[u8]) -> Result<(), Diagnostic> {
    cnpi::files::write_atomic(path, bytes).map_err(|e| cannot_write(path, e))
}

fn cannot_write(path: &Path, error: impl std::fmt::Display) -> Diagnostic {
    Diagnostic::error(
        codes::E1301,
        format!("cannot write `{}`: {error}", path.display()),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn part(shard: &str, trials: &[usize]) -> Results<u32> {
        Results {
            experiment: "x".to_string(),
            config: serde_json::json!({"seeds": 2}),
            trials: 4,
            shard: shard.to_string(),
            records: trials
                .iter()
                .map(|&trial| Record {
                    trial,
                    seconds: 0.5,
                    row: trial as u32 * 10,
                })
                .collect(),
        }
    }

    #[test]
    fn merging_sorts_and_refuses_gaps_duplicates_and_other_settings() {
        let merged = merge(vec![part("2/2", &[1, 3]), part("1/2", &[0, 2])]).expect("merges");
        assert_eq!(merged.rows().copied().collect::<Vec<_>>(), [0, 10, 20, 30]);
        let code = |parts| merge(parts).err().map(|d: Diagnostic| d.code);
        assert_eq!(code(vec![part("1/2", &[0, 2])]), Some(codes::E1303));
        assert_eq!(
            code(vec![part("1/2", &[0, 2]), part("1/2", &[0, 2])]),
            Some(codes::E1303)
        );
        let mut other = part("2/2", &[1, 3]);
        other.config = serde_json::json!({"seeds": 3});
        assert_eq!(code(vec![part("1/2", &[0, 2]), other]), Some(codes::E1303));
    }

    #[test]
    fn floats_survive_a_file_bit_for_bit() {
        // Parsed without serde_json's `float_roundtrip`, this accuracy came
        // back one unit in the last place off, and a merged sweep differed
        // from the unsharded one.
        let folder = tempfile::tempdir().expect("a temporary folder");
        let path = folder.path().join("r.json");
        let values = [0.9031007751937985_f64, 0.1 + 0.2, 1.0 / 3.0, 5e-324];
        let floats = Results {
            experiment: "x".to_string(),
            config: serde_json::json!({}),
            trials: values.len(),
            shard: "1/1".to_string(),
            records: (values.iter().enumerate())
                .map(|(trial, &row)| Record {
                    trial,
                    seconds: row,
                    row,
                })
                .collect(),
        };
        write_json(&path, &floats).expect("writes");
        let back = read_json::<f64>(&path).expect("reads");
        let bits: Vec<u64> = back.rows().map(|v| v.to_bits()).collect();
        let expected: Vec<u64> = values.iter().map(|v| v.to_bits()).collect();
        assert_eq!(bits, expected);
    }

    #[test]
    fn files_round_trip_and_bad_files_are_diagnosed() {
        let folder = tempfile::tempdir().expect("a temporary folder");
        let path = folder.path().join("r.json");
        write_json(&path, &part("1/1", &[0, 1, 2, 3])).expect("writes");
        assert_eq!(
            read_json::<u32>(&path).expect("reads"),
            part("1/1", &[0, 1, 2, 3])
        );
        assert_eq!(experiment_of(&path).expect("reads"), "x");
        std::fs::write(&path, "{").expect("writes");
        assert_eq!(
            read_json::<u32>(&path).err().map(|d| d.code),
            Some(codes::E1302)
        );
        let missing = folder.path().join("none/r.json");
        assert_eq!(
            write_json(&missing, &part("1/1", &[]))
                .err()
                .map(|d| d.code),
            Some(codes::E1301)
        );
    }
}
