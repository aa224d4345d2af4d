//! The core through the command line: `verify-core` on the shipped core and
//! on broken files (missing, truncated, tampered, unverified), `train-core`
//! stopping short, and the regeneration of the shipped core from the seed
//! and command recorded in it.

/// The workspace root: examples, fixtures and the stdlib live there, and
/// commands run from it so that paths in their output read as in the docs.
const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use cnpi_neural::core::{Core, SHIPPED, SHIPPED_NAME};

fn cnpic_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cnpic"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("cnpic runs")
}

fn cnpic(args: &[&str]) -> Output {
    cnpic_in(Path::new(crate::ROOT), args)
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// A fresh directory under cargo's scratch space for this test.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("core-tests")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("the scratch directory can be made");
    dir
}

/// Writes `bytes` to a scratch file and runs `verify-core` on it.
fn verify_bytes(name: &str, bytes: &[u8]) -> Output {
    let path = scratch(name).join("core.safetensors");
    std::fs::write(&path, bytes).expect("the scratch file can be written");
    cnpic(&[
        "verify-core",
        path.to_str().expect("scratch paths are UTF-8"),
    ])
}

/// Exit status 1 and the code in brackets on stderr, no panic.
fn assert_refused(output: &Output, code: &str) {
    let stderr = stderr(output);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains(&format!("[{code}]")),
        "expected {code}:\n{stderr}"
    );
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[test]
fn the_shipped_core_verifies_with_one_row_per_combinator() {
    let output = cnpic(&["verify-core"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let table = stdout(&output);
    for combinator in ["seq", "cond", "linrec", "treerec", "_mapself"] {
        let row = table
            .lines()
            .find(|line| line.starts_with(&format!("{combinator} ")))
            .unwrap_or_else(|| panic!("no row for {combinator} in\n{table}"));
        let columns: Vec<&str> = row.split_whitespace().collect();
        assert_eq!(columns.last(), Some(&"ok"), "{row}");
        if combinator == "treerec" {
            // Every sequence of 1 to 5 bits.
            assert_eq!(columns[1], "62", "{row}");
        }
    }
}

#[test]
fn missing_truncated_and_tampered_files_are_refused() {
    assert_refused(
        &cnpic(&["verify-core", "no/such/core.safetensors"]),
        "E1001",
    );
    for length in [0, 7, 200, SHIPPED.len() / 2, SHIPPED.len() - 1] {
        assert_refused(&verify_bytes("truncated", &SHIPPED[..length]), "E1002");
    }
    let mut tampered = SHIPPED.to_vec();
    let last = tampered.len() - 1;
    tampered[last] ^= 0x01;
    assert_refused(&verify_bytes("tampered", &tampered), "E1003");
    assert_refused(
        &verify_bytes("not-safetensors", b"{\"hello\": 1}\n"),
        "E1002",
    );
}

#[test]
fn a_core_trained_too_briefly_is_written_but_refused() {
    let dir = scratch("untrained");
    let output = cnpic_in(
        &dir,
        &[
            "train-core",
            "--cells",
            "4",
            "--epochs",
            "0",
            "-o",
            "c.safetensors",
        ],
    );
    assert_refused(&output, "E1004");
    assert!(stdout(&output).contains("FAILED"), "{}", stdout(&output));
    let path = dir.join("c.safetensors");
    let verify = cnpic(&[
        "verify-core",
        path.to_str().expect("scratch paths are UTF-8"),
    ]);
    assert_refused(&verify, "E1004");
    assert!(stdout(&verify).contains("FAILED"), "{}", stdout(&verify));
    let refused = Core::load(&path).err().map(|d| d.code.0);
    assert_eq!(refused, Some("E1004"));
}

#[test]
fn train_core_rejects_a_zero_cell_count_as_a_usage_error() {
    let output = cnpic(&["train-core", "--cells", "0", "-o", "/dev/null"]);
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
}

/// Runs the command recorded in the shipped core, from a directory with
/// an empty `stdlib/`, and requires the same file, byte for byte, except
/// for the cnpi version that wrote it.
#[test]
fn the_recorded_command_regenerates_the_shipped_core() {
    let shipped =
        Core::from_bytes_unverified(SHIPPED, SHIPPED_NAME).expect("the shipped core reads");
    let command = &shipped.metadata().command;
    let args: Vec<&str> = command.split(' ').collect();
    assert_eq!(args[0], "cnpic", "{command}");
    assert!(
        args.contains(&"--seed") && args.contains(&SHIPPED_NAME),
        "{command}"
    );
    let dir = scratch("regenerate");
    std::fs::create_dir_all(dir.join("stdlib")).expect("stdlib/ can be made");
    let output = cnpic_in(&dir, &args[1..]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    // `Core::load` verifies: the re-trained core must pass exhaustive
    // verification. Its weights equal the shipped ones byte for byte on the
    // machine that trained it, but gemm picks CPU-specific kernels, so on
    // other hardware only the recorded settings and the verification are
    // required to match.
    let regenerated = Core::load(&dir.join(SHIPPED_NAME)).expect("the regenerated core verifies");
    let (new, old) = (regenerated.metadata(), shipped.metadata());
    assert_eq!(
        (&new.command, new.seed, &new.combinators),
        (&old.command, old.seed, &old.combinators)
    );
    assert_eq!(regenerated.cells(), shipped.cells());
}
