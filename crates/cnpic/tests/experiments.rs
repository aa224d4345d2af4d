//! `cnpic experiment` under the audit of issue 23: the files of a shard
//! whatever the output format, rates that train nothing, edited or
//! mismatched shards, inputs that never end, a plot that cannot be
//! written, settings that would run for ever, and temporaries left by a
//! killed run. Each test failed before its fix.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::Duration;

mod support;
use support::{RL_CORE, cnpic, spawn, stderr, text, within};

/// `cnpic args`, killed if it has not finished in ten seconds (a read
/// that blocks would otherwise hang the test suite).
fn cnpic_within_seconds(args: &[&str]) -> Output {
    let hung = format!("`cnpic {}` still runs after 10 s", args.join(" "));
    within(spawn(args), Duration::from_secs(10), &hung)
}

/// A tiny full-set sweep, one shard of `count`, saved into `out`.
fn full_set_shard(index: usize, count: usize, out: &Path, extra: &[&str]) -> Output {
    let shard = format!("{index}/{count}");
    let mut args = vec![
        "experiment",
        "full-set",
        "--cells",
        "2",
        "--max-epochs",
        "2",
        "--seeds",
        "4",
        "--threads",
        "1",
        "--shard",
        &shard,
    ];
    let out = text(out);
    args.extend(["--out", &out]);
    args.extend(extra);
    cnpic(&args)
}

/// Two shards of one tiny run, in `dir/s1` and `dir/s2`.
fn two_shards(dir: &Path) -> [PathBuf; 2] {
    for index in 1..=2 {
        let saved = full_set_shard(index, 2, &dir.join(format!("s{index}")), &[]);
        assert_eq!(saved.status.code(), Some(0), "{}", stderr(&saved));
    }
    [1, 2].map(|i| dir.join(format!("s{i}/results.json")))
}

fn merge(files: &[&Path], out: &Path) -> Output {
    let mut args = vec!["experiment".to_string(), "merge".to_string()];
    args.extend(files.iter().map(|f| text(f)));
    args.extend(["--out".to_string(), text(out)]);
    cnpic(&args.iter().map(String::as_str).collect::<Vec<_>>())
}

/// A change made to a result file by hand.
type Edit = fn(&mut serde_json::Value);

/// Rewrites a shard's `results.json` with `edit` applied.
fn edit(path: &Path, edit: impl FnOnce(&mut serde_json::Value)) {
    let mut value: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    edit(&mut value);
    std::fs::write(path, value.to_string()).unwrap();
}

#[test]
fn full_set_in_json_still_writes_its_shard_for_merge() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("shard");
    let output = full_set_shard(1, 2, &out, &["--format", "json"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let printed: serde_json::Value =
        serde_json::from_slice(&output.stdout).expect("JSON on stdout");
    assert_eq!(printed.as_array().map(Vec::len), Some(2), "{printed}");
    let saved: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("results.json")).unwrap())
            .expect("the shard's rows are saved");
    assert_eq!(saved["shard"], "1/2");
    assert_eq!(saved["records"].as_array().map(Vec::len), Some(2));
}

#[test]
fn rates_that_train_nothing_are_usage_errors() {
    for rate in ["nan", "inf", "-1", "0", "-inf"] {
        let flag = format!("--learning-rate={rate}");
        let output = cnpic(&["experiment", "full-set", &flag]);
        assert_eq!(output.status.code(), Some(2), "--learning-rate {rate}");
        assert!(
            stderr(&output).contains("--learning-rate"),
            "{}",
            stderr(&output)
        );
    }
    for weight in ["nan", "inf", "-0.5"] {
        let flag = format!("--entropy={weight}");
        let output = cnpic(&["experiment", "rl-core", &flag, "--trials", "1"]);
        assert_eq!(output.status.code(), Some(2), "--entropy {weight}");
    }
}

#[test]
fn merge_refuses_rows_no_run_writes() {
    let dir = tempfile::tempdir().unwrap();
    let [first, second] = two_shards(dir.path());
    let out = dir.path().join("merged");
    let merged = merge(&[&first, &second], &out);
    assert_eq!(merged.status.code(), Some(0), "{}", stderr(&merged));
    let edits: [(&str, Edit); 8] = [
        ("seed 999", |v| v["records"][0]["row"]["seed"] = 999.into()),
        ("0 cells", |v| v["records"][0]["row"]["cells"] = 0.into()),
        ("variant input", |v| {
            v["records"][0]["row"]["variant"] = "input".into()
        }),
        ("5 trials of 4 seeds", |v| v["trials"] = 5.into()),
        ("accuracy 500 %", |v| {
            v["records"][0]["row"]["accuracy"] = 5.0.into()
        }),
        ("1000 of 57 perfect", |v| {
            v["records"][0]["row"]["perfect"] = 1000.into()
        }),
        ("negative seconds", |v| {
            v["records"][0]["seconds"] = (-3.0).into()
        }),
        ("shard 0/0", |v| v["shard"] = "0/0".into()),
    ];
    for (what, change) in edits {
        let copy = dir.path().join("edited.json");
        std::fs::copy(&second, &copy).unwrap();
        edit(&copy, change);
        let refused = merge(&[&first, &copy], &dir.path().join("never"));
        assert_eq!(refused.status.code(), Some(1), "{what}");
        assert!(
            stderr(&refused).contains("[E1302]"),
            "{what}: {}",
            stderr(&refused)
        );
    }
    assert!(!dir.path().join("never").exists());
}

#[test]
fn merge_refuses_other_experiments_and_other_splits_by_name() {
    let dir = tempfile::tempdir().unwrap();
    let [first, second] = two_shards(dir.path());
    let other = dir.path().join("other.json");
    std::fs::copy(&second, &other).unwrap();
    edit(&other, |v| v["experiment"] = "rl-core".into());
    // Read as rl-core's rows, the full-set shard was "missing field".
    let refused = merge(&[&other, &first], &dir.path().join("never"));
    assert_eq!(refused.status.code(), Some(1));
    let message = stderr(&refused);
    assert!(message.contains("[E1303]"), "{message}");
    assert!(
        message.contains("of `full-set`") && message.contains("of `rl-core`"),
        "{message}"
    );
    assert!(!message.contains("missing field"), "{message}");
    // A shard of a split in three beside one of a split in two.
    let third = full_set_shard(2, 3, &dir.path().join("t2"), &[]);
    assert_eq!(third.status.code(), Some(0), "{}", stderr(&third));
    let mixed = merge(
        &[&first, &dir.path().join("t2/results.json")],
        &dir.path().join("never"),
    );
    assert_eq!(mixed.status.code(), Some(1));
    assert!(stderr(&mixed).contains("[E1303]"), "{}", stderr(&mixed));
}

#[test]
fn merge_into_a_shards_own_folder_is_refused_and_the_shard_kept() {
    let dir = tempfile::tempdir().unwrap();
    let [first, second] = two_shards(dir.path());
    let before = std::fs::read(&first).unwrap();
    let refused = merge(&[&first, &second], &dir.path().join("s1"));
    assert_eq!(refused.status.code(), Some(1));
    assert!(stderr(&refused).contains("[E0904]"), "{}", stderr(&refused));
    assert_eq!(std::fs::read(&first).unwrap(), before);
}

#[cfg(unix)]
fn fifo(dir: &Path) -> PathBuf {
    let path = dir.join("fifo");
    let made = Command::new("mkfifo")
        .arg(&path)
        .status()
        .expect("mkfifo runs");
    assert!(made.success());
    path
}

#[cfg(unix)]
#[test]
fn merge_and_input_refuse_endless_files_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let out = text(&dir.path().join("out"));
    let zero = cnpic_within_seconds(&["experiment", "merge", "/dev/zero", "--out", &out]);
    assert_eq!(zero.status.code(), Some(1));
    assert!(
        stderr(&zero).contains("not a regular file"),
        "{}",
        stderr(&zero)
    );
    let fifo = fifo(dir.path());
    let piped = cnpic_within_seconds(&["experiment", "merge", &text(&fifo), "--out", &out]);
    assert_eq!(piped.status.code(), Some(1));
    assert!(
        stderr(&piped).contains("a FIFO, not a regular file"),
        "{}",
        stderr(&piped)
    );
    let input = format!("@{}", text(&fifo));
    let run = cnpic_within_seconds(&[
        "run",
        "examples/quicksort.cnpi",
        "--symbolic",
        "--input",
        &input,
    ]);
    assert_eq!(run.status.code(), Some(1));
    assert!(stderr(&run).contains("[E0902]"), "{}", stderr(&run));
    let source = cnpic_within_seconds(&["check", &text(&fifo)]);
    assert_eq!(source.status.code(), Some(1), "{}", stderr(&source));
}

#[cfg(unix)]
#[test]
fn a_fifo_planted_in_the_cache_is_passed_over() {
    let dir = tempfile::tempdir().unwrap();
    let cache = dir.path().join("cache");
    let build = |out: &str| {
        let child = support::command(&["build", "examples/bubblesort.cnpi", "-o"])
            .arg(dir.path().join(out))
            .env("CNPI_CACHE_DIR", &cache)
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("cnpic starts");
        within(
            child,
            Duration::from_secs(60),
            "the build blocked on the cache",
        )
    };
    assert_eq!(build("first.cnpim").status.code(), Some(0));
    // Every cached file becomes a FIFO of the same name.
    let mut planted = 0;
    for entry in walk(&cache) {
        std::fs::remove_file(&entry).unwrap();
        assert!(
            Command::new("mkfifo")
                .arg(&entry)
                .status()
                .unwrap()
                .success()
        );
        planted += 1;
    }
    assert!(planted > 0, "the first build cached nothing");
    let second = build("second.cnpim");
    assert_eq!(second.status.code(), Some(0), "{}", stderr(&second));
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            files.extend(walk(&path));
        } else {
            files.push(path);
        }
    }
    files
}

#[test]
fn a_plot_that_cannot_be_written_keeps_the_rows_and_the_saved_core() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("run");
    // A folder where the plot should go.
    std::fs::create_dir_all(out.join("curve.png")).unwrap();
    let core = dir.path().join("core.safetensors");
    let output = cnpic(
        &[
            &RL_CORE[..],
            &["--out", &text(&out), "--save-core", &text(&core)],
        ]
        .concat(),
    );
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(stderr(&output).contains("W1301"), "{}", stderr(&output));
    assert!(core.is_file(), "the core was not saved");
    for name in [
        "results.json",
        "rows.csv",
        "table4.csv",
        "curve.csv",
        "curve.svg",
    ] {
        assert!(out.join(name).is_file(), "{name} is missing");
    }
}

#[test]
fn verification_cost_refuses_what_it_could_never_finish() {
    let output = cnpic_within_seconds(&[
        "experiment",
        "verification-cost",
        "examples/bubblesort.cnpi",
        "--max-length",
        "12",
        "--values",
        "100",
    ]);
    assert_eq!(output.status.code(), Some(1));
    assert!(stderr(&output).contains("[E1305]"), "{}", stderr(&output));
    assert!(
        stderr(&output).contains("1.0e24 arrays"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn verification_cost_says_up_front_how_many_arrays_it_runs() {
    let output = cnpic_within_seconds(&[
        "experiment",
        "verification-cost",
        "examples/bubblesort.cnpi",
        "--max-length",
        "2",
        "--values",
        "2",
        "--samples",
        "10",
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    // 1 + 2 + 4 arrays of length 0 to 2, then 10 random ones.
    let estimate =
        "running 17 arrays (every array of length up to 2 with values 0..2, then 10 random ones)";
    assert!(stderr(&output).starts_with(estimate), "{}", stderr(&output));
    assert!(String::from_utf8_lossy(&output.stdout).contains("(17 inputs run)"));
}

#[test]
fn a_killed_runs_temporaries_are_cleaned_by_the_next_run() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("shard");
    std::fs::create_dir_all(&out).unwrap();
    // What `kill -9` during a write leaves: our temporaries, unlocked, and
    // older than a live writer's (a fresh one may be another writer's).
    let left = [".results.json.Ab12Cd.tmp", ".rows.csv.x9Y8z7.tmp"];
    let long_ago = std::time::SystemTime::now() - std::time::Duration::from_secs(60);
    for name in left {
        std::fs::write(out.join(name), "half a file").unwrap();
        let file = std::fs::File::options()
            .write(true)
            .open(out.join(name))
            .unwrap();
        file.set_modified(long_ago).unwrap();
    }
    let output = full_set_shard(1, 2, &out, &[]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    for name in left {
        assert!(!out.join(name).exists(), "{name} is still there");
    }
}
