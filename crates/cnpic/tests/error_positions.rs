//! Errors on the network point at the user's line, exactly where
//! `--symbolic` points: a `var` that cannot be set up (E0609, E0705,
//! E0703), arithmetic on END (E0706), a loop that starts over with nothing
//! changed (E0701). A file of normal programs runs on the network in its
//! combinatory form, whose text is not the user's; its positions must
//! never be drawn against the user's file (issue 29: a non-ASCII comment
//! made that a panic, ASCII a label on the wrong line).

use std::path::{Path, PathBuf};
use std::process::Output;

mod support;
use support::stderr;

/// The classifier cache the tests share (writes to it are atomic).
fn cache() -> PathBuf {
    std::env::temp_dir().join(format!("cnpi-error-positions-cache-{}", std::process::id()))
}

/// `cnpic run FILE --input INPUT EXTRA...` in `dir`.
fn run(dir: &Path, input: &str, extra: &[&str]) -> Output {
    let mut args = vec!["run", "p.cnpi", "--input", input];
    args.extend_from_slice(extra);
    support::command(&args)
        .env("CNPI_CACHE_DIR", cache())
        .current_dir(dir)
        .output()
        .expect("cnpic runs")
}

/// The report without its first line (the message, which names the form
/// that ran: `linrec` on the network, `while` as written): where it
/// points, the labels, help and notes.
fn drawn(output: &Output) -> String {
    let text = stderr(output);
    assert_eq!(output.status.code(), Some(1), "{text}");
    assert!(!text.contains("panicked"), "{text}");
    text.lines().skip(1).collect::<Vec<_>>().join("\n")
}

/// A comment of 60 `é` (two bytes each) on the first line: an offset of
/// the combinatory form's text lands inside one in the user's file.
fn wide_comment() -> String {
    format!("# {}\n", "é".repeat(60))
}

/// `program` (after the wide comment) in a scratch folder.
fn scratch(program: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(dir.path().join("p.cnpi"), wide_comment() + program).expect("written");
    dir
}

/// The network's report on `input` is drawn where `--symbolic`'s is, with
/// the code `code`, and names line `line` of the file.
fn points_as_written(program: &str, input: &str, code: &str, line: usize) {
    let dir = scratch(program);
    let symbolic = run(dir.path(), input, &["--symbolic"]);
    let expected = drawn(&symbolic);
    assert!(
        stderr(&symbolic).starts_with(&format!("[{code}]")),
        "{}",
        stderr(&symbolic)
    );
    assert!(expected.contains(&format!("p.cnpi:{line}:")), "{expected}");
    let network = run(dir.path(), input, &[]);
    assert!(
        stderr(&network).starts_with(&format!("[{code}]")),
        "{}",
        stderr(&network)
    );
    assert_eq!(drawn(&network), expected, "{program}");
}

const SETUP: &str = "env ram(i = 0)\ninput k\nvar D[k][k]\n\ndef Z():\n  pass\n";

/// Issue 29 item 1, as reported: the default engine, and every way of
/// running that draws the error.
#[test]
fn a_var_that_cannot_be_set_up_is_drawn_against_the_users_line() {
    points_as_written(SETUP, r#"{"k": 100000}"#, "E0609", 4);
    let dir = scratch(SETUP);
    let expected = drawn(&run(dir.path(), r#"{"k": 100000}"#, &["--symbolic"]));
    let page = dir.path().join("page.html");
    let page = page.to_str().expect("a UTF-8 path");
    for extra in [
        &["--cross-check"][..],
        &["--no-cache"],
        &["--html", page],
        &["--format", "json"],
    ] {
        let output = run(dir.path(), r#"{"k": 100000}"#, extra);
        assert_eq!(drawn(&output), expected, "{extra:?}");
    }
}

#[test]
fn every_var_setup_failure_points_where_symbolic_does() {
    let negative = "env ram(i = 0)\ninput k\nvar D[k - 10]\n\ndef Z():\n  pass\n";
    points_as_written(negative, r#"{"k": 5}"#, "E0609", 4);
    let divide = "env ram(i = 0)\ninput k\nvar t = 10 / k\n\ndef Z():\n  pass\n";
    points_as_written(divide, r#"{"k": 0}"#, "E0705", 4);
    let overflow = "env ram(i = 0)\ninput k\nvar D[k * k]\n\ndef Z():\n  pass\n";
    points_as_written(overflow, r#"{"k": 4611686018427387904}"#, "E0703", 4);
    // The sieve of the issue, with a negative bound.
    let sieve = "env ram(i = 2, j = 0)\ninput N\nvar prime[N + 1] = 1\nvar count = 0\n\n\
                 def SIEVE():\n  while i <= N:\n    if prime[i] == 1:\n      count = count + 1\n      \
                 j = i * i\n      while j <= N:\n        prime[j] = 0\n        j = j + i\n    \
                 i = i + 1\n";
    points_as_written(sieve, r#"{"N": -5}"#, "E0609", 4);
}

#[test]
fn arithmetic_on_end_points_at_the_read() {
    let program = "env ram(i = 0)\ninput A[n]\nvar x = 0\n\ndef F():\n  i = n\n  x = A[i] + 1\n";
    points_as_written(program, r#"{"A": [1, 2]}"#, "E0706", 8);
    // In a condition, and inside a loop's helper.
    let program = "env ram(i = 0)\ninput A[n]\nvar x = 0\n\ndef F():\n  while i < n + 1:\n    \
                   if A[i] * 2 > 0:\n      x = x + 1\n    i = i + 1\n";
    points_as_written(program, r#"{"A": [1, 2]}"#, "E0706", 8);
}

#[test]
fn a_loop_that_changes_nothing_is_labelled_at_the_loop() {
    let program = "env ram(i = 0, j = 0)\ninput A[n]\n\ndef F():\n  while i < n:\n    j = 0\n";
    points_as_written(program, r#"{"A": [1, 2]}"#, "E0701", 6);
    let inner = "env ram(i = 0, j = 0)\ninput A[n]\nvar total = 0\n\ndef F():\n  i = 1\n  \
                 while i < n:\n    total = total + 0\n  j = 1\n";
    points_as_written(inner, r#"{"A": [1, 2]}"#, "E0701", 8);
}

/// A program on explicit frames (a recursive call inside a loop): its
/// blocks are helpers of the dispatch, and their errors point at the
/// user's lines too.
#[test]
fn errors_on_frames_point_where_symbolic_does() {
    let dfs = "env ram(s = 0, u = 0, v = 0)\nstate(u)\ninput A[n][n]\nvar color[n] = 0\n\
               var x = 0\n\ndef DFS():\n  while s < n:\n    if color[s] == 0:\n      VISIT(s)\n    \
               s = s + 1\n\ndef VISIT():\n  color[u] = 1\n  v = 0\n  while v < n:\n    \
               if A[u][v] != 0 and color[v] == 0:\n      VISIT(v)\n    v = v + 1\n  \
               x = 10 / (u - 1)\n  x = A[u][v] + 1\n";
    let graph = r#"{"A": [[0, 1, 1], [0, 0, 0], [0, 1, 0]]}"#;
    points_as_written(dfs, graph, "E0705", 21);
    let read = dfs.replace("10 / (u - 1)", "10 / (u + 1)");
    points_as_written(&read, graph, "E0706", 22);
}

/// The ASCII case of the issue: the label was on a comment.
#[test]
fn an_example_labels_its_declaration() {
    let output = support::command(&[
        "run",
        "examples/ram/fibonacci.cnpi",
        "--input",
        r#"{"k": -5}"#,
    ])
    .env("CNPI_CACHE_DIR", cache())
    .output()
    .expect("cnpic runs");
    let text = drawn(&output);
    assert!(text.contains("var F[k + 2]"), "{text}");
}
