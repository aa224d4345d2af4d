//! The binary on its own, as `cargo install --path crates/cnpic` leaves
//! it: a copy outside the repository, run from a folder with nothing of
//! the repository in it, still has its standard library, the shipped core
//! and the plots' font (all built into it). `.ci/run` runs `cargo install`
//! itself, into a scratch root.

use std::path::Path;
use std::process::{Command, Output};

fn run(binary: &Path, folder: &Path, args: &[&str]) -> Output {
    let output = Command::new(binary)
        .args(args)
        .current_dir(folder)
        .env("CNPI_CACHE_DIR", folder.join("cache"))
        .output()
        .expect("the copied binary runs");
    assert_eq!(
        output.status.code(),
        Some(0),
        "cnpic {}: {}",
        args.join(" "),
        String::from_utf8_lossy(&output.stderr)
    );
    output
}

#[test]
fn a_copy_of_the_binary_runs_from_any_folder() {
    let home = tempfile::tempdir().expect("a temporary folder");
    let binary = home.path().join("bin").join("cnpic");
    std::fs::create_dir_all(binary.parent().unwrap()).unwrap();
    std::fs::copy(env!("CARGO_BIN_EXE_cnpic"), &binary).expect("copied");
    let folder = home.path().join("elsewhere");
    std::fs::create_dir_all(&folder).unwrap();
    // A program that defines a combinator: it needs the stdlib's family
    // and the shipped core to learn its embedding.
    let examples = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples");
    std::fs::copy(
        examples.join("user_combinator.cnpi"),
        folder.join("evens.cnpi"),
    )
    .unwrap();
    let ran = run(
        &binary,
        &folder,
        &["run", "evens.cnpi", "--input", "[5, 8, 1, 9, 4]"],
    );
    assert!(
        String::from_utf8_lossy(&ran.stdout).contains("output [5, 1, 4]"),
        "{}",
        String::from_utf8_lossy(&ran.stdout)
    );
    run(&binary, &folder, &["verify-core"]);
    let drawn = run(
        &binary,
        &folder,
        &[
            "experiment",
            "cells",
            "--max-cells",
            "1",
            "--seeds",
            "1",
            "--max-epochs",
            "1",
            "--out",
            "plots",
        ],
    );
    assert!(folder.join("plots/cells.png").is_file(), "{drawn:?}");
}
