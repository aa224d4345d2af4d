//! The command line as users and outside test suites see it: exit codes,
//! `--input` forms, JSON output and the errors that are not about a
//! program's text (unreadable files, usage mistakes).

/// The workspace root: examples, fixtures and the stdlib live there, and
/// commands run from it so that paths in their output read as in the docs.
const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");

use std::process::{Command, Output};

use serde_json::Value;

fn cnpic(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cnpic"))
        .args(args)
        .current_dir(crate::ROOT)
        .output()
        .expect("cnpic runs")
}

fn json(output: &Output) -> Value {
    assert_eq!(output.status.code(), Some(0), "{}", stderr(output));
    serde_json::from_slice(&output.stdout).expect("one JSON object on stdout")
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

#[test]
fn run_prints_one_json_object_per_environment() {
    let array = json(&cnpic(&[
        "run",
        "examples/quicksort.cnpi",
        "--symbolic",
        "--input",
        "[5,3,9,1]",
        "--format",
        "json",
    ]));
    assert_eq!(array["A"], serde_json::json!([1, 3, 5, 9]));
    assert_eq!(array["output"], serde_json::json!([]));
    assert_eq!(array["engine"], "symbolic");
    assert!(array["steps"].as_u64().unwrap() > 0);

    let graph = json(&cnpic(&[
        "run",
        "examples/toposort.cnpi",
        "--input",
        r#"{"graph": [[1], []]}"#,
        "--format",
        "json",
    ]));
    assert_eq!(graph["output"], serde_json::json!([1, 0]));

    let sum = json(&cnpic(&[
        "run",
        "examples/addition.cnpi",
        "--input",
        r#"{"a": "1207", "b": "95"}"#,
        "--format",
        "json",
    ]));
    assert_eq!(sum["sum"], "1302");
}

#[test]
fn input_can_come_from_a_file() {
    let dir = std::env::temp_dir().join(format!("cnpi-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("input.json");
    std::fs::write(&path, "[3, -7, 2]").unwrap();
    let input = format!("@{}", path.display());
    let result = json(&cnpic(&[
        "run",
        "examples/bubblesort.cnpi",
        "--input",
        &input,
        "--format",
        "json",
    ]));
    assert_eq!(result["A"], serde_json::json!([-7, 2, 3]));
    std::fs::remove_dir_all(&dir).unwrap();

    let missing = cnpic(&[
        "run",
        "examples/bubblesort.cnpi",
        "--input",
        "@/no/such/file.json",
    ]);
    assert_eq!(missing.status.code(), Some(1));
    assert!(stderr(&missing).contains("[E0902]"), "{}", stderr(&missing));
}

#[test]
fn text_output_shows_the_array_and_the_steps() {
    let output = cnpic(&["run", "examples/reverse.cnpi", "--input", "[1,2,3]"]);
    assert_eq!(output.status.code(), Some(0));
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(text.contains("[3, 2, 1]"), "{text}");
    assert!(text.contains("steps"), "{text}");
}

#[test]
fn missing_input_runs_on_the_empty_input_and_says_so() {
    let output = cnpic(&["run", "examples/quicksort.cnpi", "--format", "json"]);
    assert_eq!(json(&output)["A"], serde_json::json!([]));
    assert!(stderr(&output).contains("no --input"));
}

#[test]
fn entry_selects_the_definition_to_run() {
    let output = cnpic(&[
        "run",
        "examples/bubblesort.cnpi",
        "--entry",
        "RSHIFT",
        "--input",
        "[2,1]",
        "--format",
        "json",
    ]);
    // RSHIFT alone moves the pointers and leaves the array unsorted.
    let result = json(&output);
    assert_eq!(result["A"], serde_json::json!([2, 1]));
    assert_eq!(result["steps"], 3);
}

#[test]
fn the_step_budget_stops_a_run_with_exit_1() {
    let output = cnpic(&[
        "run",
        "examples/bubblesort.cnpi",
        "--input",
        "[3,2,1]",
        "--max-steps",
        "10",
    ]);
    assert_eq!(output.status.code(), Some(1));
    assert!(stderr(&output).contains("[E0701]"), "{}", stderr(&output));
    assert!(
        stderr(&output).contains("--max-steps"),
        "{}",
        stderr(&output)
    );
    let one = cnpic(&[
        "run",
        "examples/bubblesort.cnpi",
        "--input",
        "[3,2,1]",
        "--max-steps",
        "1",
    ]);
    assert!(stderr(&one).contains("within 1 step\n"), "{}", stderr(&one));
}

#[test]
fn unreadable_source_is_exit_1_with_a_code() {
    for command in ["check", "run"] {
        let output = cnpic(&[command, "no/such/file.cnpi"]);
        assert_eq!(output.status.code(), Some(1));
        assert!(stderr(&output).contains("[E0901]"), "{}", stderr(&output));
    }
}

#[test]
fn usage_errors_are_exit_2() {
    for args in [
        &["run"][..],
        &["frobnicate"],
        &["run", "examples/quicksort.cnpi", "--format", "xml"],
        &["run", "examples/quicksort.cnpi", "--max-steps", "many"],
    ] {
        assert_eq!(cnpic(args).status.code(), Some(2), "{args:?}");
    }
}

#[test]
fn explain_prints_the_long_form_or_fails() {
    let output = cnpic(&["explain", "e0501"]);
    assert_eq!(output.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&output.stdout).starts_with("# E0501"));
    assert_eq!(cnpic(&["explain", "E9999"]).status.code(), Some(1));
}

/// `check` says nothing about the examples, not even those that call
/// themselves in a loop (they run on frames, exactly as written).
#[test]
fn check_is_silent_on_every_example() {
    let dir = std::path::Path::new(crate::ROOT).join("examples");
    let mut paths = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        match std::fs::read_dir(&path) {
            Ok(folder) => paths.extend(folder.map(|e| e.unwrap().path())),
            Err(_) => paths.push(path),
        }
    }
    // `examples/learn/` keeps each sketch's examples (JSON) beside it.
    paths.retain(|path| path.extension().is_some_and(|e| e == "cnpi"));
    for path in paths {
        let output = cnpic(&["check", path.to_str().unwrap()]);
        assert_eq!(output.status.code(), Some(0), "{}", path.display());
        assert_eq!(stderr(&output), "", "{}", path.display());
    }
}

#[test]
fn trace_prints_the_call_tree_on_stderr() {
    let output = cnpic(&[
        "run",
        "examples/reverse.cnpi",
        "--input",
        "[1,2]",
        "--trace",
    ]);
    assert_eq!(output.status.code(), Some(0));
    let trace = stderr(&output);
    assert!(trace.contains("REVERSE linrec c=1 → a1 STEP"), "{trace}");
    assert!(
        trace.contains("  STEP seq c=1 → a1 SWAP(lo, hi)"),
        "{trace}"
    );
}

#[test]
fn both_traces_show_a_procedures_locals_at_its_return() {
    let run = |engine: &[&str]| {
        let input = r#"{"A": [1, 3, 5, 7], "x": 5}"#;
        let file = "examples/ram/binary_search.cnpi";
        let output = cnpic(&[&["run", file, "--input", input, "--trace"], engine].concat());
        assert_eq!(output.status.code(), Some(0));
        stderr(&output)
    };
    let symbolic = run(&["--symbolic"]);
    let line = "SEARCH returns 2 · locals lo = 2, hi = 3, mid = 2";
    assert!(symbolic.contains(line), "{symbolic}");
    // The network does not know the value at the frame's `_return`; the
    // locals are the frame's, under their written names.
    let network = run(&[]);
    let line = "SEARCH returns · locals lo = 2, hi = 3, mid = 2";
    assert!(network.contains(line), "{network}");
    assert!(
        !network.contains("_lo") && !network.contains("_mid"),
        "{network}"
    );
}

#[test]
fn a_parameter_that_hides_a_file_integer_is_traced_as_written() {
    // INSERTION_SORT ends without `return`: both engines still trace its
    // locals where it ends, the symbolic one at the end of its block.
    for engine in [&[][..], &["--symbolic"]] {
        let file = "examples/ram/insertion_sort.cnpi";
        let args = ["run", file, "--input", r#"{"A": [3, 1, 2]}"#, "--trace"];
        let output = cnpic(&[&args[..], engine].concat());
        assert_eq!(output.status.code(), Some(0));
        let trace = stderr(&output);
        assert!(trace.contains("SET(n, n)") || !engine.is_empty(), "{trace}");
        let line = "INSERTION_SORT returns · locals n = 3, j = 3, key = 2, i = 0";
        assert!(trace.contains(line), "{engine:?}: {trace}");
    }
}

#[test]
fn cross_check_compares_normal_programs_three_ways() {
    for (file, input) in [
        ("examples/quicksort_normal.cnpi", "[9, -3, 5, 5, 0, 12, -7]"),
        ("examples/bubblesort_normal.cnpi", "[4, 1, 3, 2]"),
        (
            "examples/normal/addition.cnpi",
            r#"{"a": "9876", "b": "345"}"#,
        ),
    ] {
        let output = cnpic(&[
            "run",
            file,
            "--cross-check",
            "--input",
            input,
            "--format",
            "json",
        ]);
        let result = json(&output);
        assert_eq!(result["engine"], "neural", "{file}");
    }
}

/// The depth-first search's calls in a loop run on frames, in the order
/// written: `--cross-check` finds the network, the combinatory form and
/// the program as written in agreement.
#[test]
fn cross_check_of_calls_in_a_loop_agrees_with_the_program_as_written() {
    let output = cnpic(&[
        "run",
        "examples/normal/dfs_reachable.cnpi",
        "--cross-check",
        "--input",
        r#"{"graph": [[1, 2], [], []]}"#,
        "--format",
        "json",
    ]);
    let shown = stderr(&output);
    let result = json(&output);
    assert_eq!(result["output"], serde_json::json!([0, 1, 2]));
    assert_eq!(shown, "", "{shown}");
}

/// A condition that is always false (W0102) in a normal program: the
/// warning is shown once, and the program runs on the network.
#[test]
fn a_normal_program_with_w0102_runs_on_the_network() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let path = dir.path().join("walk.cnpi");
    let text =
        "env array(i = 0)\n\ndef WALK():\n  while i + 1 <= END:\n    MOVE(i, RIGHT)\n  OUT(i)\n";
    std::fs::write(&path, text).expect("written");
    let path = path.to_str().expect("a UTF-8 path");
    for command in [
        &["run", path, "--input", "[4, 5]", "--format", "json"][..],
        &["combinatorize", path],
    ] {
        let output = cnpic(command);
        let shown = stderr(&output);
        assert_eq!(output.status.code(), Some(0), "{command:?}: {shown}");
        assert_eq!(shown.matches("[W0102]").count(), 1, "{shown}");
    }
    let result = json(&cnpic(&[
        "run", path, "--input", "[4, 5]", "--format", "json",
    ]));
    assert_eq!(
        result["output"],
        serde_json::json!([4]),
        "the loop never runs"
    );
}

/// An error while the combinatory form of a normal program runs points at
/// the user's own line, as the reference interpreter's on the program as
/// written does, not into the generated code.
#[test]
fn runtime_errors_of_normal_programs_point_at_the_users_line() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let path = dir.path().join("walk.cnpi");
    let text = "env array(i = 0, j = 0)\n\ndef WALK():\n  MOVE(j, RIGHT)\n  while i != END:\n    MOVE(i, RIGHT)\n    SWAP(i, j)\n";
    std::fs::write(&path, text).expect("written");
    let path = path.to_str().expect("a UTF-8 path");
    let neural = cnpic(&["run", path, "--input", "[1, 2, 3]"]);
    let symbolic = cnpic(&["run", path, "--input", "[1, 2, 3]", "--symbolic"]);
    assert_eq!(neural.status.code(), Some(1));
    let shown = stderr(&neural);
    assert!(shown.contains(&format!("{path}:7:5")), "{shown}");
    assert!(!shown.contains("combinatorized"), "{shown}");
    assert_eq!(shown, stderr(&symbolic));

    let budget = cnpic(&[
        "run",
        "examples/normal/reverse_loop.cnpi",
        "--input",
        "[1, 2, 3, 4, 5, 6]",
        "--max-steps",
        "5",
    ]);
    // The budget runs out at another point on each engine (core steps
    // against statements); on the network the label is on the loop that
    // was running, the `while` of line 5.
    let shown = stderr(&budget);
    assert!(shown.contains("[E0701]"), "{shown}");
    assert!(shown.contains("reverse_loop.cnpi:5:3"), "{shown}");
    assert!(!shown.contains("combinatorized"), "{shown}");
}

/// `fmt` names what is wrong with a path that is not a source file: a
/// device, a pipe, a loop of symbolic links (not "no such file").
#[test]
fn fmt_says_why_it_cannot_read_a_path() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let looped = dir.path().join("loop.cnpi");
    std::os::unix::fs::symlink(&looped, &looped).expect("a symbolic link");
    let fifo = dir.path().join("fifo.cnpi");
    let made = Command::new("mkfifo").arg(&fifo).status();
    let mut cases = vec![
        (std::path::PathBuf::from("/dev/null"), "not a regular file"),
        (looped, "symbolic links"),
    ];
    if made.is_ok_and(|status| status.success()) {
        cases.push((fifo, "not a regular file"));
    }
    for (path, why) in cases {
        let output = cnpic(&["fmt", path.to_str().expect("a UTF-8 path")]);
        let shown = stderr(&output);
        assert_eq!(output.status.code(), Some(1), "{shown}");
        assert!(shown.contains("[E0901]") && shown.contains(why), "{shown}");
        assert!(!shown.contains("no such file"), "{shown}");
    }
}

/// `fmt` leaves a read-only file as it is and says why.
#[test]
fn fmt_refuses_read_only_files() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().expect("a temporary folder");
    let path = dir.path().join("messy.cnpi");
    let text = "env array(i=0)\ndef   F:  NOP\n";
    std::fs::write(&path, text).expect("written");
    let read_only = std::fs::Permissions::from_mode(0o444);
    std::fs::set_permissions(&path, read_only).expect("permissions");
    let output = cnpic(&["fmt", path.to_str().expect("a UTF-8 path")]);
    let shown = stderr(&output);
    assert_eq!(output.status.code(), Some(1), "{shown}");
    assert!(shown.contains("read-only"), "{shown}");
    assert_eq!(std::fs::read_to_string(&path).expect("kept"), text);
}

/// What the library makes of `path`: the text `cnpic combinatorize` must print.
fn library_combinatorized(path: &str) -> String {
    let text = std::fs::read_to_string(std::path::Path::new(ROOT).join(path)).expect("exists");
    let program = cnpi::compile::compile(path, &text, None)
        .program
        .expect("the example compiles");
    cnpi::combinatorize::combinatorize(&program, &text, path)
        .expect("the example converts")
        .text
}

#[test]
fn command_prints_or_writes_the_program() {
    let path = "examples/quicksort_normal.cnpi";
    let printed = cnpic(&["combinatorize", path]);
    assert_eq!(printed.status.code(), Some(0));
    assert!(printed.stderr.is_empty());
    let text = String::from_utf8(printed.stdout).expect("UTF-8");
    assert_eq!(text, library_combinatorized(path));

    let out = std::env::temp_dir().join(format!("cnpi-comb-{}.cnpi", std::process::id()));
    let out_arg = out.to_str().expect("a UTF-8 temp path");
    let written = cnpic(&["combinatorize", path, "-o", out_arg]);
    assert_eq!(written.status.code(), Some(0));
    assert!(written.stdout.is_empty());
    assert_eq!(std::fs::read_to_string(&out).expect("written"), text);
    let ran = cnpic(&["run", out_arg, "--input", "[3,1,2]", "--format", "json"]);
    let _ = std::fs::remove_file(&out);
    let result: serde_json::Value = serde_json::from_slice(&ran.stdout).expect("JSON");
    assert_eq!(result["A"], serde_json::json!([1, 2, 3]));

    let unwritable = cnpic(&["combinatorize", path, "-o", "no/such/folder/out.cnpi"]);
    assert_eq!(unwritable.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&unwritable.stderr).contains("[E0903]"));
    let missing = cnpic(&["combinatorize", "no/such/file.cnpi"]);
    assert_eq!(missing.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&missing.stderr).contains("[E0901]"));
}

/// `--entry` picks the program to convert; the output holds what it reaches.
#[test]
fn command_keeps_what_the_entry_reaches() {
    let output = cnpic(&[
        "combinatorize",
        "examples/quicksort_normal.cnpi",
        "--entry",
        "PARTITION",
    ]);
    assert_eq!(output.status.code(), Some(0));
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(text.contains("def PARTITION:"), "{text}");
    assert!(!text.contains("QUICKSORT"), "{text}");
}

#[test]
fn build_learns_a_programs_own_combinators_once_and_run_reads_them_back() {
    let dir = tempfile::tempdir().expect("temp dir");
    let cache = dir.path().join("cache");
    let memory = dir.path().join("u.cnpim");
    let memory = memory.to_str().expect("a UTF-8 path");
    let run = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_cnpic"))
            .args(args)
            .env("CNPI_CACHE_DIR", &cache)
            .current_dir(crate::ROOT)
            .output()
            .expect("cnpic runs")
    };
    let built = run(&["build", "examples/user_combinator.cnpi", "-o", memory]);
    assert_eq!(built.status.code(), Some(0), "{}", stderr(&built));
    let report = String::from_utf8_lossy(&built.stdout);
    assert!(report.contains("both        seq_12     yes"), "{report}");
    assert!(report.contains("repeat      br_1s_n    yes"), "{report}");
    // Both embeddings are in the cache now, and in the memory.
    let cached = std::fs::read_dir(cache.join("combinators")).expect("cached");
    assert_eq!(cached.count(), 2);
    let input = ["--input", "[5, 8, 1, 9, 4]"];
    let from_memory = run(&[&["run", memory][..], &input].concat());
    let from_source = run(&[&["run", "examples/user_combinator.cnpi"][..], &input].concat());
    assert_eq!(
        from_memory.status.code(),
        Some(0),
        "{}",
        stderr(&from_memory)
    );
    assert_eq!(from_memory.stdout, from_source.stdout);
    assert!(String::from_utf8_lossy(&from_memory.stdout).contains("output [5, 1, 4]"));
}

/// `--inputs`: one output line per input line, in order, equal to `--input`
/// run one at a time; a bad line is an error object and exit 1; the shards
/// concatenated in order are the whole output, whatever `--jobs`.
#[test]
fn inputs_run_every_line_in_order_and_shards_concatenate_to_the_whole() {
    let dir = std::env::temp_dir().join(format!("cnpi-inputs-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    let mut lines: Vec<String> = (0..40)
        .map(|n| {
            format!(
                "{:?}",
                (0..n % 7).map(|i| (i * 37 + n) % 11).collect::<Vec<_>>()
            )
        })
        .collect();
    lines.insert(13, "[1, true]".into());
    let path = dir.join("in.jsonl");
    std::fs::write(&path, lines.join("\n") + "\n").expect("writes");
    let path = path.display().to_string();
    let many = |extra: &[&str]| {
        let mut args = vec!["run", "examples/quicksort.cnpi", "--inputs", &path];
        args.extend(extra);
        let output = cnpic(&args);
        let printed = String::from_utf8(output.stdout.clone()).expect("UTF-8");
        let failed = printed.contains("\"error\"");
        assert_eq!(
            output.status.code(),
            Some(i32::from(failed)),
            "{}",
            stderr(&output)
        );
        printed
    };
    let whole = many(&["--jobs", "2"]);
    assert!(whole.contains("\"error\""));
    let got: Vec<Value> = whole
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON"))
        .collect();
    assert_eq!(got.len(), lines.len());
    for (line, got) in lines.iter().zip(&got) {
        if line == "[1, true]" {
            assert_eq!(got["error"]["code"], "E0603", "{got}");
            continue;
        }
        let one = cnpic(&[
            "run",
            "examples/quicksort.cnpi",
            "--input",
            line,
            "--format",
            "json",
        ]);
        assert_eq!(&json(&one), got, "{line}");
    }
    assert_eq!(many(&["--jobs", "1"]), whole);
    let shards: String = (1..=3)
        .map(|i| many(&["--shard", &format!("{i}/3")]))
        .collect();
    assert_eq!(shards, whole);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Programs whose calls return values (hidden registers `_0`, `_1`, ...
/// added by the conversion) through the command line's run plan, on every
/// engine: the CLRS harness runs the runtime directly, and missed a plan
/// that read the input without the conversion's registers (E0799 "a cell
/// of undeclared data" on the network, also with `--no-cache`).
#[test]
fn calls_with_results_run_through_the_plan_on_every_engine() {
    let cases = [
        (
            "examples/clrs/quicksort.cnpi",
            r#"{"A":[5,3,9,1,7]}"#,
            "A",
            "[1,3,5,7,9]",
        ),
        (
            "examples/clrs/quickselect.cnpi",
            r#"{"A":[5,3,9,1,7]}"#,
            "median",
            "0",
        ),
        (
            "examples/ram/fib_recursive.cnpi",
            r#"{"k":10}"#,
            "fib",
            "55",
        ),
    ];
    for (file, input, member, expected) in cases {
        for engine in [
            None,
            Some("--no-cache"),
            Some("--cross-check"),
            Some("--symbolic"),
        ] {
            let mut args = vec!["run", file, "--input", input, "--format", "json"];
            args.extend(engine);
            let value = json(&cnpic(&args));
            let expected: Value = serde_json::from_str(expected).expect("a JSON value");
            assert_eq!(value[member], expected, "{file} {engine:?}: {value}");
        }
    }
}
