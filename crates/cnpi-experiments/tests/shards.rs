//! Sharded-and-merged equals unsharded, number for number, on a tiny
//! seeded `cells` sweep; and the files a run writes read back.

use cnpi_experiments::cells::Cells;
use cnpi_experiments::continual::Continual;
use cnpi_experiments::full_set::{Training, behaviours};
use cnpi_experiments::{Results, Shard, merge, read_json, run, save};
use cnpi_neural::core::fast::Variant;

fn tiny() -> Cells {
    Cells {
        set: behaviours().expect("the full set loads"),
        variants: vec![Variant::State0, Variant::Input, Variant::Seq2seq],
        cells: vec![1, 3],
        seeds: vec![1, 2],
        max_epochs: 2,
        learning_rate: 0.5,
    }
}

fn rows<R: Clone>(results: &Results<R>) -> Vec<R> {
    results.rows().cloned().collect()
}

#[test]
fn sharded_and_merged_equals_unsharded() {
    let experiment = tiny();
    let whole = run(&experiment, Shard::ALL, 2);
    assert_eq!(whole.records.len(), 12);
    let shards: Vec<_> = (0..5)
        .map(|index| run(&experiment, Shard { index, count: 5 }, 1))
        .collect();
    assert!(shards.iter().all(|s| s.records.len() < 12));
    let merged = merge(shards).expect("the shards merge");
    assert_eq!(rows(&merged), rows(&whole));
    assert_eq!(merged.config, whole.config);
    // Different seeds give different numbers: the comparison can fail.
    let first = &whole.records[0].row;
    let second = &whole.records[1].row;
    assert_eq!((first.seed, second.seed), (1, 2));
    assert_ne!(first.accuracy, second.accuracy);
}

#[test]
fn a_run_writes_rows_and_a_summary_that_merge_reads_back() {
    let folder = tempfile::tempdir().expect("a temporary folder");
    let experiment = tiny();
    for index in 0..2 {
        let shard = run(&experiment, Shard { index, count: 2 }, 1);
        let text = save::<Cells>(&shard, &folder.path().join(format!("s{index}")))
            .expect("a shard saves")
            .text;
        assert!(text.contains("cnpic experiment merge"), "{text}");
    }
    let parts = (0..2)
        .map(|i| read_json(&folder.path().join(format!("s{i}/results.json"))))
        .collect::<Result<Vec<_>, _>>()
        .expect("the shards read back");
    let merged = merge(parts).expect("the shards merge");
    let out = folder.path().join("all");
    let saved = save::<Cells>(&merged, &out).expect("the merged run saves");
    assert!(saved.warnings.is_empty(), "{:?}", saved.warnings);
    assert!(saved.text.contains("state0"), "{}", saved.text);
    for file in [
        "results.json",
        "rows.csv",
        "summary.csv",
        "cells.png",
        "cells.svg",
    ] {
        let bytes = std::fs::read(out.join(file)).expect("the file exists");
        assert!(bytes.len() > 100, "{file}");
    }
    let csv = std::fs::read_to_string(out.join("rows.csv")).expect("rows.csv");
    assert_eq!(csv.lines().count(), 13);
}

#[test]
fn continual_trials_cover_cnpi_and_the_four_rnpi_settings() {
    let experiment = Continual {
        set: behaviours().expect("the full set loads"),
        seeds: vec![3],
        training: Training {
            variant: Variant::State0,
            cells: 4,
            max_epochs: 1,
            learning_rate: 0.5,
        },
    };
    let results = run(&experiment, Shard::ALL, 2);
    let models: Vec<(String, u32)> = results
        .rows()
        .map(|r| (r.model.clone(), r.sampling))
        .collect();
    assert_eq!(models.len(), 5);
    assert_eq!(models[0], ("CNPI-4".to_string(), 50));
    let cnpi = &results.records[0].row;
    assert_eq!((cnpi.old, cnpi.new), (28, 29));
    // The core is fixed and the old embeddings are untouched.
    assert_eq!(cnpi.test_old, cnpi.train_old);
    let full = results.rows().filter(|r| r.sampling == 100).count();
    assert_eq!(full, 2);
}
