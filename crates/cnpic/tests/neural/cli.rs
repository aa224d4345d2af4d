//! The command line on the network: `run` defaults to it, `--symbolic`,
//! `--cross-check`, `--no-cache` and `--trace`; `build`, `run FILE.cnpim`
//! and `memory add`; and clear errors for missing or damaged files.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

/// A scratch folder, also used as the classifier cache.
pub(super) fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("cnpi-neural-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

pub(super) fn cnpic(args: &[&str], cache: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cnpic"))
        .args(args)
        .env("CNPI_CACHE_DIR", cache)
        .current_dir(crate::ROOT)
        .output()
        .expect("cnpic runs")
}

pub(super) fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

fn json(output: &Output) -> Value {
    assert_eq!(output.status.code(), Some(0), "{}", stderr(output));
    serde_json::from_slice(&output.stdout).expect("one JSON object")
}

#[test]
fn run_uses_the_network_and_agrees_in_every_mode() {
    let dir = scratch("run");
    let run = |extra: &[&str]| {
        let mut args = vec![
            "run",
            "examples/quicksort.cnpi",
            "--input",
            "[5,3,9,1]",
            "--format",
            "json",
        ];
        args.extend(extra);
        json(&cnpic(&args, &dir))
    };
    let neural = run(&[]);
    assert_eq!(neural["engine"], "neural");
    assert_eq!(neural["A"], serde_json::json!([1, 3, 5, 9]));
    let symbolic = run(&["--symbolic"]);
    assert_eq!(symbolic["engine"], "symbolic");
    assert_eq!(symbolic["steps"], neural["steps"]);
    assert_eq!(run(&["--no-cache"]), neural);
    assert_eq!(run(&["--cross-check"]), neural);
    assert_eq!(run(&["--cross-check", "--no-cache"]), neural);
    let both = cnpic(
        &["run", "examples/quicksort.cnpi", "--symbolic", "--no-cache"],
        &dir,
    );
    assert_eq!(
        both.status.code(),
        Some(2),
        "conflicting flags are a usage error"
    );
    std::fs::remove_dir_all(&dir).expect("removable");
}

#[test]
fn normal_programs_are_combinatorized_for_the_network() {
    let dir = scratch("normal");
    let args = [
        "run",
        "examples/quicksort_normal.cnpi",
        "--input",
        "[5,3,9,1]",
        "--format",
        "json",
        "--cross-check",
    ];
    let result = json(&cnpic(&args, &dir));
    assert_eq!(result["engine"], "neural");
    assert_eq!(result["A"], serde_json::json!([1, 3, 5, 9]));
    let memory = dir.join("q.cnpim");
    let memory = memory.to_str().expect("utf-8 path");
    let built = cnpic(
        &["build", "examples/bubblesort_normal.cnpi", "-o", memory],
        &dir,
    );
    assert_eq!(built.status.code(), Some(0), "{}", stderr(&built));
    let run = cnpic(
        &["run", memory, "--input", "[2,1]", "--format", "json"],
        &dir,
    );
    assert_eq!(json(&run)["A"], serde_json::json!([1, 2]));
    std::fs::remove_dir_all(&dir).expect("removable");
}

#[test]
fn trace_shows_bit_slot_program_and_return_flag() {
    let dir = scratch("trace");
    let output = cnpic(
        &[
            "run",
            "examples/reverse.cnpi",
            "--input",
            "[1,2]",
            "--trace",
        ],
        &dir,
    );
    assert_eq!(output.status.code(), Some(0));
    let trace = stderr(&output);
    assert!(
        trace.contains("REVERSE linrec c=1 → a1 STEP r=0"),
        "{trace}"
    );
    assert!(
        trace.contains("  STEP seq c=1 → a1 SWAP(lo, hi) r=0"),
        "{trace}"
    );
    assert!(
        trace.contains("  STEP seq c=1 → a3 MOVE(hi, LEFT) r=1"),
        "{trace}"
    );
    assert!(trace.contains("REVERSE linrec c=0 → a3 NOP r=1"), "{trace}");
    std::fs::remove_dir_all(&dir).expect("removable");
}

#[test]
fn build_run_and_add_program_memories() {
    let dir = scratch("build");
    let memory = dir.join("sorts.cnpim");
    let memory = memory.to_str().expect("utf-8 path");
    let built = cnpic(&["build", "examples/quicksort.cnpi", "-o", memory], &dir);
    assert_eq!(built.status.code(), Some(0), "{}", stderr(&built));
    let summary = String::from_utf8_lossy(&built.stdout);
    assert!(
        summary.contains("A[j] <= A[hi]") && summary.contains("yes"),
        "{summary}"
    );
    let input = ["--input", "[3,1,2]", "--format", "json"];
    let run = |extra: &[&str]| {
        let mut args = vec!["run", memory];
        args.extend(input);
        args.extend(extra);
        cnpic(&args, &dir)
    };
    let sorted = json(&run(&["--cross-check"]));
    assert_eq!(sorted["A"], serde_json::json!([1, 2, 3]));
    let added = cnpic(&["memory", "add", memory, "examples/reverse.cnpi"], &dir);
    assert_eq!(added.status.code(), Some(0), "{}", stderr(&added));
    assert_eq!(
        json(&run(&[])),
        sorted,
        "the first program is still the default"
    );
    let reversed = json(&run(&["--entry", "REVERSE", "--cross-check"]));
    assert_eq!(reversed["A"], serde_json::json!([2, 1, 3]));
    let unknown = run(&["--entry", "NOPE"]);
    assert_eq!(unknown.status.code(), Some(1));
    assert!(stderr(&unknown).contains("[E1107]"), "{}", stderr(&unknown));
    // An inline ACT argument has a row but is no definition: as with the
    // source, it cannot be an entry.
    let inline = run(&["--entry", "SWAP(pivot, hi)"]);
    assert_eq!(inline.status.code(), Some(1), "{}", stderr(&inline));
    assert!(stderr(&inline).contains("[E1107]"), "{}", stderr(&inline));
    // A program of the same file name would make `PROGRAM:NAME` ambiguous.
    let before = std::fs::read(memory).expect("written");
    let again = cnpic(&["memory", "add", memory, "examples/reverse.cnpi"], &dir);
    assert_eq!(again.status.code(), Some(1), "{}", stderr(&again));
    assert!(stderr(&again).contains("[E1108]"), "{}", stderr(&again));
    assert!(std::fs::read(memory).expect("kept") == before);
    std::fs::remove_dir_all(&dir).expect("removable");
}

/// Two `memory add`s to one file at the same time: the second waits for
/// the first's lock and reads what it wrote, so both programs are there.
/// (Unlocked, one addition was lost in about half of such races.)
#[test]
fn concurrent_additions_to_one_memory_keep_both() {
    let dir = scratch("concurrent");
    let memory = dir.join("m.cnpim");
    let memory = memory.to_str().expect("utf-8 path");
    let built = cnpic(&["build", "examples/reverse.cnpi", "-o", memory], &dir);
    assert_eq!(built.status.code(), Some(0), "{}", stderr(&built));
    // Warm the detector cache so that both additions are quick and overlap.
    let warm_file = dir.join("warm.cnpim");
    for program in ["examples/findmax.cnpi", "examples/bubblesort.cnpi"] {
        let warm_file = warm_file.to_str().expect("utf-8 path");
        let warm = cnpic(&["build", program, "-o", warm_file], &dir);
        assert_eq!(warm.status.code(), Some(0), "{}", stderr(&warm));
    }
    for round in 0..3 {
        let fresh = cnpic(&["build", "examples/reverse.cnpi", "-o", memory], &dir);
        assert_eq!(fresh.status.code(), Some(0), "{}", stderr(&fresh));
        let add = |program: &'static str| {
            let (memory, dir) = (memory.to_string(), dir.clone());
            std::thread::spawn(move || cnpic(&["memory", "add", &memory, program], &dir))
        };
        let both = [
            add("examples/findmax.cnpi"),
            add("examples/bubblesort.cnpi"),
        ];
        for added in both {
            let added = added.join().expect("the thread ran");
            assert_eq!(added.status.code(), Some(0), "{}", stderr(&added));
        }
        for entry in [
            "examples/findmax.cnpi:FINDMAX",
            "examples/bubblesort.cnpi:BUBBLESORT",
        ] {
            let ran = cnpic(&["run", memory, "--entry", entry, "--input", "[2,1]"], &dir);
            assert_eq!(
                ran.status.code(),
                Some(0),
                "round {round}, {entry}: {}",
                stderr(&ran)
            );
        }
    }
    std::fs::remove_dir_all(&dir).expect("removable");
}

#[test]
fn missing_truncated_and_damaged_memories_exit_1() {
    let dir = scratch("damaged");
    let missing = cnpic(&["run", "no/such/file.cnpim"], &dir);
    assert_eq!(missing.status.code(), Some(1));
    assert!(stderr(&missing).contains("[E1101]"), "{}", stderr(&missing));
    let path = dir.join("q.cnpim");
    let path_text = path.to_str().expect("utf-8 path");
    let built = cnpic(&["build", "examples/quicksort.cnpi", "-o", path_text], &dir);
    assert_eq!(built.status.code(), Some(0));
    let file = std::fs::read(&path).expect("built");
    for bytes in [file[..file.len() / 3].to_vec(), {
        let mut damaged = file.clone();
        damaged[file.len() - 10] ^= 1;
        damaged
    }] {
        std::fs::write(&path, bytes).expect("writable");
        for command in [
            &["run", path_text][..],
            &["memory", "add", path_text, "examples/reverse.cnpi"],
        ] {
            let output = cnpic(command, &dir);
            assert_eq!(output.status.code(), Some(1), "{command:?}");
            assert!(stderr(&output).contains("[E1102]"), "{}", stderr(&output));
            assert!(!stderr(&output).contains("panicked"), "{}", stderr(&output));
        }
    }
    std::fs::remove_dir_all(&dir).expect("removable");
}
