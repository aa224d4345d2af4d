//! Reinforcement learning through the command line: `experiment rl-core`
//! on a tiny seeded configuration (its JSON, its reproducibility) and
//! `run --core` refusing what it cannot use.

use std::process::{Command, Output};

fn cnpic(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cnpic"))
        .args(args)
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
        .output()
        .expect("cnpic runs")
}

fn json(output: &Output) -> serde_json::Value {
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).expect("one JSON object on stdout")
}

#[test]
fn rl_core_reports_rates_and_is_reproducible() {
    let args = [
        "experiment",
        "rl-core",
        "--trials",
        "3",
        "--episodes",
        "120",
        "--seed",
        "5",
        "--cells",
        "6",
        "--threads",
        "2",
        "--format",
        "json",
    ];
    let first = json(&cnpic(&args));
    let success = first["success"].as_f64().expect("a success rate");
    assert!((0.0..=1.0).contains(&success));
    for name in ["seq", "cond", "linrec"] {
        let rate = first["per_combinator"][name]
            .as_f64()
            .expect("a rate per combinator");
        assert!((0.0..=1.0).contains(&rate));
    }
    let runs = first["runs"].as_array().expect("the trials");
    assert_eq!(runs.len(), 3);
    assert_eq!(runs[2]["seed"], 7);
    let again = json(&cnpic(&args));
    assert_eq!(first["runs"], again["runs"]);
    assert_eq!(first["curve"], again["curve"]);
}

#[test]
fn run_refuses_a_core_file_it_cannot_read_or_verify() {
    let missing = cnpic(&[
        "run",
        "examples/bubblesort.cnpi",
        "--core",
        "no/such/core.safetensors",
        "--input",
        "[2,1]",
    ]);
    assert_eq!(missing.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&missing.stderr).contains("E1001"));
    let stage2 = cnpic(&[
        "experiment",
        "rl-stage2",
        "--core",
        "no/such/core.safetensors",
    ]);
    assert_eq!(stage2.status.code(), Some(1));
}
