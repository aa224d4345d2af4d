//! The command line under hostile conditions: outputs that would overwrite
//! their inputs, writes that fail or are killed half way, closed pipes and
//! full devices, floods of diagnostics, odd inputs and mistaken files.
//! Nothing is lost, nothing panics, nothing floods.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

mod support;
use support::{ROOT, spawn, stderr};

/// The classifier cache the tests share (writes to it are atomic).
fn cache() -> PathBuf {
    std::env::temp_dir().join(format!("cnpi-robustness-cache-{}", std::process::id()))
}

/// `cnpic args` run in `dir`.
fn cnpic_in(dir: &Path, args: &[&str]) -> Output {
    support::command(args)
        .env("CNPI_CACHE_DIR", cache())
        .current_dir(dir)
        .output()
        .expect("cnpic runs")
}

/// A scratch folder holding a copy of `examples/NAME`.
fn scratch_with(name: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join(name);
    std::fs::copy(Path::new(ROOT).join("examples").join(name), &path).expect("example");
    (dir, path)
}

fn assert_refused_e0904(output: &Output) {
    assert_eq!(output.status.code(), Some(1), "{}", stderr(output));
    assert!(stderr(output).contains("E0904"), "{}", stderr(output));
}

#[test]
fn build_and_combinatorize_refuse_to_write_over_their_source() {
    let (dir, source) = scratch_with("bubblesort_normal.cnpi");
    let before = std::fs::read(&source).unwrap();
    std::fs::create_dir(dir.path().join("sub")).unwrap();
    for spelling in [
        "bubblesort_normal.cnpi",
        "./bubblesort_normal.cnpi",
        "sub/../bubblesort_normal.cnpi",
    ] {
        let args = ["build", "bubblesort_normal.cnpi", "-o", spelling];
        assert_refused_e0904(&cnpic_in(dir.path(), &args));
        let args = ["combinatorize", "bubblesort_normal.cnpi", "-o", spelling];
        assert_refused_e0904(&cnpic_in(dir.path(), &args));
    }
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(&source, dir.path().join("link.cnpi")).unwrap();
        let args = ["build", "bubblesort_normal.cnpi", "-o", "link.cnpi"];
        assert_refused_e0904(&cnpic_in(dir.path(), &args));
    }
    assert_eq!(std::fs::read(&source).unwrap(), before);
}

#[test]
fn combinatorize_writes_its_output_whole() {
    let (dir, _) = scratch_with("bubblesort_normal.cnpi");
    let out = dir.path().join("out.cnpi");
    std::fs::write(&out, "old").unwrap();
    let args = ["combinatorize", "bubblesort_normal.cnpi", "-o", "out.cnpi"];
    let output = cnpic_in(dir.path(), &args);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(
        text.contains("\nenv array") || text.starts_with("env array"),
        "{text}"
    );
    let names: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".tmp"))
        .collect();
    assert!(names.is_empty(), "{names:?}");
}

/// A process killed while writing (here by the file-size limit, as a full
/// disk or a kill would stop it) leaves the memory it was extending as it
/// was, byte for byte.
#[cfg(unix)]
#[test]
fn memory_add_killed_half_way_leaves_the_old_memory() {
    let (dir, _) = scratch_with("reverse.cnpi");
    std::fs::copy(
        Path::new(ROOT).join("examples/findmax.cnpi"),
        dir.path().join("findmax.cnpi"),
    )
    .unwrap();
    let built = cnpic_in(dir.path(), &["build", "reverse.cnpi", "-o", "m.cnpim"]);
    assert_eq!(built.status.code(), Some(0), "{}", stderr(&built));
    // Fill the cache first, so that only the memory itself is big.
    let warm = cnpic_in(
        dir.path(),
        &[
            "memory",
            "add",
            "m.cnpim",
            "findmax.cnpi",
            "-o",
            "warm.cnpim",
        ],
    );
    assert_eq!(warm.status.code(), Some(0), "{}", stderr(&warm));
    let before = std::fs::read(dir.path().join("m.cnpim")).unwrap();
    // `ulimit -f` counts 512-byte blocks: the new file is cut off after
    // about the size of the old one, well before its end.
    let blocks = before.len() / 512 + 1;
    let grown = std::fs::metadata(dir.path().join("warm.cnpim"))
        .unwrap()
        .len();
    assert!(grown > (blocks as u64 + 1) * 512, "{grown} bytes");
    let killed = Command::new("sh")
        .arg("-c")
        .arg(format!(
            "ulimit -f {blocks} && exec \"$0\" memory add m.cnpim findmax.cnpi"
        ))
        .arg(env!("CARGO_BIN_EXE_cnpic"))
        .env("CNPI_CACHE_DIR", cache())
        .current_dir(dir.path())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .expect("sh runs");
    assert!(!killed.success());
    assert!(std::fs::read(dir.path().join("m.cnpim")).unwrap() == before);
}

/// `cnpic ARGS` in the workspace root with its standard output given to
/// `stdout` (stderr captured).
fn cnpic_to(args: &[&str], stdout: Stdio) -> Output {
    support::command(args)
        .stdout(stdout)
        .stderr(Stdio::piped())
        .output()
        .expect("cnpic runs")
}

/// Like `cnpic ... | head -c 0`: the reader is gone before cnpic writes.
fn into_closed_pipe(args: &[&str]) -> Output {
    let mut child = spawn(args);
    drop(child.stdout.take());
    child.wait_with_output().expect("cnpic ends")
}

#[test]
fn a_closed_pipe_ends_quietly() {
    for args in [
        &["verify-core"][..],
        &["explain", "E0101"],
        &[
            "run",
            "examples/quicksort.cnpi",
            "--symbolic",
            "--input",
            "[3,1,2]",
        ],
        &["combinatorize", "examples/bubblesort_normal.cnpi"],
    ] {
        let output = into_closed_pipe(args);
        assert_eq!(
            output.status.code(),
            Some(0),
            "{args:?}: {}",
            stderr(&output)
        );
        let message = stderr(&output);
        assert!(
            !message.contains("crashed") && !message.contains("panicked"),
            "{message}"
        );
    }
}

#[cfg(target_os = "linux")]
#[test]
fn a_full_device_is_a_clear_error() {
    for args in [&["explain", "E0101"][..], &["verify-core"]] {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .expect("/dev/full");
        let output = cnpic_to(args, Stdio::from(full));
        assert_eq!(
            output.status.code(),
            Some(1),
            "{args:?}: {}",
            stderr(&output)
        );
        let message = stderr(&output);
        assert!(message.contains("E0905"), "{message}");
        assert!(!message.contains("crashed"), "{message}");
    }
}

/// A memory is recognised by its contents under any name; a command that
/// wants a source says what it was given instead.
#[test]
fn a_memory_without_its_extension_runs_and_is_named_for_what_it_is() {
    let (dir, _) = scratch_with("reverse.cnpi");
    let built = cnpic_in(dir.path(), &["build", "reverse.cnpi", "-o", "m.bin"]);
    assert_eq!(built.status.code(), Some(0), "{}", stderr(&built));
    let run = cnpic_in(
        dir.path(),
        &["run", "m.bin", "--input", "[1,2,3]", "--format", "json"],
    );
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    let json: serde_json::Value = serde_json::from_slice(&run.stdout).expect("JSON");
    assert_eq!(json["engine"], "neural");
    let build = cnpic_in(dir.path(), &["build", "m.bin", "-o", "again.cnpim"]);
    assert_eq!(build.status.code(), Some(1));
    let message = stderr(&build);
    assert!(
        message.contains("E0901") && message.contains("is a program memory"),
        "{message}"
    );
    assert!(!message.contains("stream did not contain"), "{message}");
}

/// A file of `n` copies of `unit` on one definition's line.
fn flood(unit: &str, n: usize) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("flood.cnpi");
    let text = format!(
        "env array(P1 = 0)\ndef A: seq(; {}NOP, NOP, NOP)\n",
        unit.repeat(n)
    );
    std::fs::write(&path, text).unwrap();
    (dir, path)
}

#[test]
fn a_hundred_thousand_bad_brackets_give_a_short_report() {
    for (unit, code) in [("(", "E0006"), (")", "E0007"), ("[(", "E0006")] {
        let (dir, _) = flood(unit, 100_000);
        let output = cnpic_in(dir.path(), &["check", "flood.cnpi"]);
        assert_eq!(output.status.code(), Some(1), "{unit}");
        let message = stderr(&output);
        assert!(message.contains(code), "{unit}: {message}");
        assert!(message.len() < 40_000, "{unit}: {} bytes", message.len());
        let reports = message.matches("] Error").count();
        assert!(reports <= 50, "{unit}: {reports} reports");
        assert!(!message.contains("crashed"), "{message}");
    }
    // Unclosed brackets: one report, at the outermost.
    let (dir, _) = flood("(", 100_000);
    let message = stderr(&cnpic_in(dir.path(), &["check", "flood.cnpi"]));
    assert_eq!(message.matches("[E0006]").count(), 1, "{message}");
    assert!(message.contains("flood.cnpi:2:11"), "{message}");
    // Stray closers: fifty reports and a count of the others.
    let (dir, _) = flood(")", 100_000);
    let message = stderr(&cnpic_in(dir.path(), &["check", "flood.cnpi"]));
    assert_eq!(message.matches("] Error").count(), 50, "{message}");
    assert!(message.contains(" more not shown ("), "{message}");
}

fn run_array(input: &str) -> Output {
    cnpic_to(
        &[
            "run",
            "examples/quicksort.cnpi",
            "--symbolic",
            "--input",
            input,
            "--format",
            "json",
        ],
        Stdio::piped(),
    )
}

#[test]
fn input_numbers_are_quoted_as_written() {
    for literal in ["-9223372036854775809", "99999999999999999999"] {
        let output = run_array(&format!("[1, {literal}]"));
        assert_eq!(output.status.code(), Some(1));
        let message = stderr(&output);
        assert!(message.contains("E0604"), "{message}");
        assert!(
            message.contains(&format!("element 1 is {literal},")),
            "{message}"
        );
    }
    let output = run_array("[3, -0, 2]");
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).expect("JSON");
    assert_eq!(json["A"], serde_json::json!([0, 2, 3]));
}

#[test]
fn integers_of_any_length_are_out_of_range_not_non_integers() {
    for digits in [309, 400, 5000] {
        let literal = format!("-{}", "9".repeat(digits));
        let output = run_array(&format!("[1, {literal}]"));
        assert_eq!(output.status.code(), Some(1));
        let message = stderr(&output);
        assert!(message.contains("E0604"), "{digits}: {message}");
        assert!(message.contains("element 1 is -9999"), "{message}");
    }
    for fraction in ["1e400", "1.5e400"] {
        let message = stderr(&run_array(&format!("[{fraction}]")));
        assert!(message.contains("E0603"), "{fraction}: {message}");
    }
}

/// `cnpic run --symbolic` of a `ram` program reading `input W[n][m]` and
/// `input x`, with `--input input`, in JSON.
fn run_ram(input: &str) -> Output {
    let dir = tempfile::tempdir().expect("temp dir");
    let program = dir.path().join("w.cnpi");
    std::fs::write(
        &program,
        "env ram(i = 0)\ninput W[n][m]\ninput x\n\ndef MAIN():\n  i = n + m + x\n",
    )
    .unwrap();
    let program = program.to_str().unwrap();
    let args = ["run", program, "--symbolic", "--format", "json"];
    cnpic_to(&[&args[..], &["--input", input]].concat(), Stdio::piped())
}

#[test]
fn a_matrix_with_rows_and_no_columns_keeps_its_rows() {
    let output = run_ram(r#"{"W": [[], [], []], "x": 4}"#);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).expect("JSON");
    assert_eq!(json["W"], serde_json::json!([[], [], []]));
    assert_eq!(
        (&json["n"], &json["m"], &json["i"]),
        (&3.into(), &0.into(), &7.into())
    );
}

#[test]
fn a_key_written_twice_is_refused_by_name() {
    for input in [
        r#"{"W": [[1]], "x": 4, "x": 5}"#,
        r#" {"x": 4, "W": [], "x": {"x": 1, "x": 2}}"#,
    ] {
        let output = run_ram(input);
        assert_eq!(output.status.code(), Some(1), "{input}");
        let message = stderr(&output);
        assert!(message.contains("E0602"), "{message}");
        assert!(message.contains("the field `x` twice"), "{message}");
    }
    // Inside a member, an object is the wrong shape whatever its keys.
    let message = stderr(&run_ram(r#"{"W": [], "x": {"k": 1, "k": 2}}"#));
    assert!(message.contains("E0603"), "{message}");
    let output = run_ram(r#"{"W": [[1, 2]], "x": 4}"#);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
}

#[test]
fn an_input_file_may_start_with_a_byte_order_mark() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("input.json");
    std::fs::write(&path, "\u{feff}[5, 3, 9, 1]").unwrap();
    let output = run_array(&format!("@{}", path.display()));
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).expect("JSON");
    assert_eq!(json["A"], serde_json::json!([1, 3, 5, 9]));
}

#[test]
fn calls_that_never_stop_are_found_by_check() {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(
        dir.path().join("cycle.cnpi"),
        "env array(i = 0)\ndef F():\n  G()\ndef G():\n  F()\n",
    )
    .unwrap();
    let output = cnpic_in(dir.path(), &["check", "cycle.cnpi"]);
    assert_eq!(output.status.code(), Some(1));
    let message = stderr(&output);
    assert!(
        message.contains("[E0505]") && message.contains("F → G → F"),
        "{message}"
    );
}

/// The reverse sketch of `examples/learn` in `dir`: `s.cnpi`, `ex.json`.
fn learn_files(dir: &Path) {
    let learn = Path::new(ROOT).join("examples/learn");
    std::fs::copy(learn.join("reverse.cnpi"), dir.join("s.cnpi")).unwrap();
    std::fs::copy(learn.join("reverse.json"), dir.join("ex.json")).unwrap();
}

/// Issue 29: `--html`, `learn -o`, `memory add -o` and the rest never write
/// over any of their inputs (the program, the `@` input, the memory, the
/// core, the examples), however the path is spelled, and even when the
/// input is wrong.
#[test]
fn no_output_is_written_over_any_input() {
    let (dir, source) = scratch_with("reverse.cnpi");
    let path = |name: &str| dir.path().join(name);
    std::fs::write(path("in.json"), "[3, 1, 2]").unwrap();
    std::fs::write(path("core.safetensors"), "not a core").unwrap();
    learn_files(dir.path());
    let built = cnpic_in(dir.path(), &["build", "reverse.cnpi", "-o", "m.cnpim"]);
    assert_eq!(built.status.code(), Some(0), "{}", stderr(&built));
    #[cfg(unix)]
    std::os::unix::fs::symlink(&source, path("link.html")).unwrap();
    std::fs::hard_link(path("in.json"), path("hard.html")).unwrap();
    let kept: Vec<(PathBuf, Vec<u8>)> = [
        "reverse.cnpi",
        "in.json",
        "core.safetensors",
        "ex.json",
        "m.cnpim",
    ]
    .iter()
    .map(|name| (path(name), std::fs::read(path(name)).unwrap()))
    .collect();
    fn run<'a>(program: &'a str, input: &'a str, html: &'a str) -> Vec<&'a str> {
        vec!["run", program, "--input", input, "--html", html]
    }
    let mut refused = vec![
        run("reverse.cnpi", "[3,1,2]", "reverse.cnpi"),
        run("reverse.cnpi", "[3,1,", "./reverse.cnpi"),
        run("reverse.cnpi", "@in.json", "in.json"),
        run("reverse.cnpi", "@in.json", "hard.html"),
        run("m.cnpim", "[1]", "m.cnpim"),
        vec![
            "run",
            "reverse.cnpi",
            "--core",
            "core.safetensors",
            "--html",
            "core.safetensors",
        ],
        vec!["learn", "s.cnpi", "--examples", "ex.json", "-o", "ex.json"],
        vec![
            "memory",
            "add",
            "m.cnpim",
            "reverse.cnpi",
            "-o",
            "reverse.cnpi",
        ],
        vec![
            "memory",
            "add",
            "m.cnpim",
            "reverse.cnpi",
            "-o",
            "./m.cnpim",
        ],
    ];
    if cfg!(unix) {
        refused.push(run("reverse.cnpi", "[3,1,2]", "link.html"));
    }
    for args in &refused {
        assert_refused_e0904(&cnpic_in(dir.path(), args));
    }
    for (path, bytes) in kept {
        assert_eq!(std::fs::read(&path).unwrap(), bytes, "{}", path.display());
    }
}

/// Issue 29: a FIFO in the place of any file a command reads or writes is
/// refused at once (nothing blocks in `open`), and so are endless devices.
#[cfg(unix)]
#[test]
fn fifos_and_devices_never_block_a_command() {
    let (dir, _) = scratch_with("reverse.cnpi");
    for fifo in ["ff", "ff.cnpi", "ff.cnpim"] {
        let made = Command::new("mkfifo").arg(dir.path().join(fifo)).status();
        if !made.is_ok_and(|status| status.success()) {
            return;
        }
    }
    let built = cnpic_in(dir.path(), &["build", "reverse.cnpi", "-o", "q.cnpim"]);
    assert_eq!(built.status.code(), Some(0), "{}", stderr(&built));
    learn_files(dir.path());
    let cases: [&[&str]; 9] = [
        &["build", "ff.cnpi"],
        &["build", "reverse.cnpi", "-o", "ff.cnpim"],
        &["memory", "add", "ff.cnpim", "reverse.cnpi"],
        &["memory", "add", "q.cnpim", "ff.cnpi"],
        &["memory", "add", "q.cnpim", "reverse.cnpi", "-o", "ff"],
        &["combinatorize", "reverse.cnpi", "-o", "ff"],
        &["learn", "s.cnpi", "--examples", "ff"],
        &["learn", "s.cnpi", "--examples", "ex.json", "-o", "ff"],
        &["learn", "s.cnpi", "--examples", "/dev/zero"],
    ];
    for args in cases {
        let child = support::command(args)
            .env("CNPI_CACHE_DIR", cache())
            .current_dir(dir.path())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("cnpic starts");
        let hung = format!("`cnpic {}` blocked", args.join(" "));
        let output = support::within(child, std::time::Duration::from_secs(60), &hung);
        assert_eq!(
            output.status.code(),
            Some(1),
            "{args:?}: {}",
            stderr(&output)
        );
        let message = stderr(&output);
        assert!(
            message.contains("not a regular file") || message.contains("E1108"),
            "{args:?}: {message}"
        );
    }
}
