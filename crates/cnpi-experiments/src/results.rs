//! Result files: the rows of a run (or of one shard) as JSON and CSV, and
//! [`merge`], which joins shards back into the run they split.
//!
//! A [`Results`] file records the experiment, its configuration, how many
//! trials the whole run has, which shard this is, and one [`Record`] per
//! trial run: its index, its wall time, and its row. Rows hold results only
//! (the seed and parameters of the trial and what it measured); wall times
//! are kept beside them, since they differ from run to run. The files are
//! written by [`crate::output`], as one unit.

use std::path::Path;

use cnpi::diagnostic::{Diagnostic, codes};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use cnpi::shard::Shard;

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

/// Joins shards of one run: same experiment, configuration, trial count
/// and shard count, each shard once, each trial in the shard that owns it
/// with a finite, non-negative wall time, every trial present.
pub fn merge<R>(parts: Vec<Results<R>>) -> Result<Results<R>, Diagnostic> {
    let mut shards = Vec::new();
    for part in &parts {
        shards.push(check_part(part)?);
    }
    let mut parts = parts.into_iter().zip(shards);
    let Some((mut merged, first)) = parts.next() else {
        return Err(refuse("no result files to merge".to_string()));
    };
    for (part, shard) in parts {
        if part.experiment != merged.experiment || part.config != merged.config {
            return Err(refuse(format!(
                "shard {} of `{}` was run with other settings than shard {} of `{}`",
                part.shard, part.experiment, merged.shard, merged.experiment
            ))
            .with_note(differences(&part.config, &merged.config)));
        }
        if part.trials != merged.trials {
            return Err(refuse(format!(
                "shard {} has {} trials in all, another shard {}",
                part.shard, part.trials, merged.trials
            )));
        }
        if shard.count != first.count {
            return Err(refuse(format!(
                "shard {} and shard {} split the run differently",
                part.shard, merged.shard
            ))
            .with_help("merge the shards of one command line: all `i/n` with the same n"));
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

/// The shard a part says it is, once its records are checked against it.
fn check_part<R>(part: &Results<R>) -> Result<Shard, Diagnostic> {
    let damaged = |problem: String| {
        Diagnostic::error(
            codes::E1302,
            format!("a result file of `{}` {problem}", part.experiment),
        )
        .with_help("the file was edited or damaged; rerun the shard that wrote it")
    };
    let shard: Shard = (part.shard.parse())
        .map_err(|_| damaged(format!("names the shard `{}`, which is none", part.shard)))?;
    for record in &part.records {
        if record.trial >= part.trials || !shard.owns(record.trial) {
            return Err(damaged(format!(
                "holds trial {}, which shard {shard} of {} trials does not run",
                record.trial, part.trials
            )));
        }
        if !(record.seconds.is_finite() && record.seconds >= 0.0) {
            return Err(damaged(format!(
                "gives trial {} a wall time of {} s",
                record.trial, record.seconds
            )));
        }
    }
    Ok(shard)
}

/// The settings two configurations differ in, each value cut short: a
/// note of a few lines however long the configurations are.
fn differences(a: &serde_json::Value, b: &serde_json::Value) -> String {
    const SHOWN: usize = 8;
    let empty = serde_json::Map::new();
    let (a, b) = (
        a.as_object().unwrap_or(&empty),
        b.as_object().unwrap_or(&empty),
    );
    let mut keys: Vec<&String> = a.keys().chain(b.keys()).collect();
    keys.sort();
    keys.dedup();
    let differing: Vec<String> = keys
        .into_iter()
        .filter(|key| a.get(*key) != b.get(*key))
        .map(|key| {
            let show = |value: Option<&serde_json::Value>| {
                value.map_or("(none)".to_string(), |v| cut(&v.to_string()))
            };
            format!("`{key}`: {} against {}", show(a.get(key)), show(b.get(key)))
        })
        .collect();
    let mut note = differing
        .iter()
        .take(SHOWN)
        .cloned()
        .collect::<Vec<_>>()
        .join("\n");
    if differing.len() > SHOWN {
        note.push_str(&format!(
            "\n... and {} other settings",
            differing.len() - SHOWN
        ));
    }
    if note.is_empty() {
        note = "the settings are not objects of named values".to_string();
    }
    note
}

/// `text`, or its first 60 characters and how many more there are.
fn cut(text: &str) -> String {
    const KEPT: usize = 60;
    match text.char_indices().nth(KEPT) {
        None => text.to_string(),
        Some((end, _)) => format!(
            "{}... ({} characters in all)",
            &text[..end],
            text.chars().count()
        ),
    }
}

fn refuse(message: String) -> Diagnostic {
    Diagnostic::error(codes::E1303, message)
}

/// Reads a result file written by [`json`] (a regular file of at most
/// [`cnpi::read::MAX_BYTES`]).
pub fn read_json<R: DeserializeOwned>(path: &Path) -> Result<Results<R>, Diagnostic> {
    let text = cnpi::read::text(path).map_err(|error| {
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

/// `results` as pretty JSON, the bytes of a `results.json`.
pub fn json<R: Serialize>(results: &Results<R>) -> Result<Vec<u8>, Diagnostic> {
    let mut text = serde_json::to_string_pretty(results).map_err(|error| {
        Diagnostic::error(
            codes::E1301,
            format!("the results do not serialise: {error}"),
        )
    })?;
    text.push('\n');
    Ok(text.into_bytes())
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
    fn merging_refuses_edited_shards() {
        let code = |parts| merge(parts).err().map(|d: Diagnostic| d.code);
        let mut negative = part("2/2", &[1, 3]);
        negative.records[0].seconds = -1.0;
        assert_eq!(
            code(vec![part("1/2", &[0, 2]), negative]),
            Some(codes::E1302)
        );
        let mut infinite = part("2/2", &[1, 3]);
        infinite.records[1].seconds = f64::INFINITY;
        assert_eq!(
            code(vec![part("1/2", &[0, 2]), infinite]),
            Some(codes::E1302)
        );
        // `0/0` is no shard; a trial in a shard that does not own it.
        assert_eq!(code(vec![part("0/0", &[0, 1, 2, 3])]), Some(codes::E1302));
        assert_eq!(
            code(vec![part("1/2", &[0, 1]), part("2/2", &[2, 3])]),
            Some(codes::E1302)
        );
        // Shards of two different splittings of one run.
        assert_eq!(
            code(vec![
                part("1/2", &[0, 2]),
                part("2/4", &[1]),
                part("4/4", &[3])
            ]),
            Some(codes::E1303)
        );
        // A trial past the run's end.
        assert_eq!(
            code(vec![part("1/1", &[0, 1, 2, 3, 4])]),
            Some(codes::E1302)
        );
    }

    #[test]
    fn the_note_on_other_settings_is_short_however_long_the_settings() {
        let mut long = part("2/2", &[1, 3]);
        let seeds: Vec<u64> = (0..100_000).collect();
        long.config = serde_json::json!({ "seeds": seeds });
        let refused = merge(vec![part("1/2", &[0, 2]), long]).unwrap_err();
        let note = refused.notes.join("\n");
        assert!(note.len() < 300, "{} bytes: {note}", note.len());
        assert!(note.starts_with("`seeds`: [0,1,2,"), "{note}");
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
        std::fs::write(&path, json(&floats).expect("serialises")).expect("writes");
        let back = read_json::<f64>(&path).expect("reads");
        let bits: Vec<u64> = back.rows().map(|v| v.to_bits()).collect();
        let expected: Vec<u64> = values.iter().map(|v| v.to_bits()).collect();
        assert_eq!(bits, expected);
    }

    #[test]
    fn files_round_trip_and_bad_files_are_diagnosed() {
        let folder = tempfile::tempdir().expect("a temporary folder");
        let path = folder.path().join("r.json");
        std::fs::write(&path, json(&part("1/1", &[0, 1, 2, 3])).unwrap()).expect("writes");
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
            read_json::<u32>(&missing).err().map(|d| d.code),
            Some(codes::E1302)
        );
    }
}
