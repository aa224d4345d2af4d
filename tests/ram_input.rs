//! A fuzz target for the `ram` input reader (`cnpi::env::read_input`).
//!
//! Valid inputs (scalars, arrays and matrices of any i64, matrices with
//! rows and no columns, keys in any order) are read back member for member;
//! their text, mutated (bytes cut, fragments such as a repeated key, a huge
//! or fractional number, a stray bracket put in), is either read or refused
//! with an input error (E06xx), never a panic. Seeded; 10,000 cases each by
//! default, `CNPI_FUZZ_CASES` for more.

use cnpi::compile::compile;
use cnpi::env::{Declarations, read_input};
use cnpi::program::Program;
use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use serde_json::{Value, json};

/// The program whose declarations the inputs are read against.
const SOURCE: &str = "env ram(i = 0)\ninput A[n]\ninput W[r][c]\ninput x\nvar D[n][2] = x\n\n\
                      def MAIN():\n  i = n + r + c\n";

/// What a mutation puts in.
const FRAGMENTS: &[&str] = &[
    "{",
    "}",
    "[",
    "]",
    ",",
    ":",
    "\"",
    "\"x\": 1, ",
    "\"A\": [], ",
    "\"W\"",
    "null",
    "true",
    "1.5",
    "-0",
    "1e400",
    "-1e19",
    "99999999999999999999",
    "\u{feff}",
    "é",
    " ",
    "[[]]",
    "{}",
];

fn program() -> Program {
    compile("ram_input.cnpi", SOURCE, None)
        .program
        .expect("the program compiles")
}

fn runner() -> TestRunner {
    let cases = std::env::var("CNPI_FUZZ_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(10_000);
    let config = Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    };
    TestRunner::new_with_rng(config, TestRng::deterministic_rng(RngAlgorithm::ChaCha))
}

fn int() -> impl Strategy<Value = i64> {
    prop_oneof![-3i64..3, any::<i64>(), Just(i64::MIN), Just(i64::MAX)]
}

/// A valid input: `A`, `W` (rows of equal length, maybe none or empty
/// ones) and `x`, as a JSON object.
fn inputs() -> impl Strategy<Value = Value> {
    let matrix = (0usize..4, 0usize..4).prop_flat_map(|(rows, cols)| {
        prop::collection::vec(prop::collection::vec(int(), cols), rows)
    });
    (prop::collection::vec(int(), 0..6), matrix, int())
        .prop_map(|(a, w, x)| json!({"W": w, "x": x, "A": a}))
}

#[test]
fn valid_inputs_are_read_back_member_for_member() {
    let program = program();
    let layout = Declarations::of(&program);
    runner()
        .run(&inputs(), |input| {
            let state = read_input(&layout, &input.to_string())
                .map_err(|d| TestCaseError::fail(format!("{}: {}", d.code, d.message)))?;
            let out = state.to_json(0, "symbolic");
            let rows = input["W"].as_array().map_or(0, Vec::len);
            let cols = input["W"][0].as_array().map_or(0, Vec::len);
            for member in ["A", "W", "x"] {
                prop_assert_eq!(&out[member], &input[member], "{}", member);
            }
            prop_assert_eq!(&out["n"], &json!(input["A"].as_array().map_or(0, Vec::len)));
            prop_assert_eq!((&out["r"], &out["c"]), (&json!(rows), &json!(cols)));
            let d = out["D"].as_array().expect("D is a matrix");
            prop_assert!(d.iter().all(|row| row == &json!([input["x"], input["x"]])));
            Ok(())
        })
        .expect("every valid input is read as written");
}

#[test]
fn mutated_inputs_are_read_or_refused_never_a_panic() {
    let program = program();
    let layout = Declarations::of(&program);
    let edit = (any::<usize>(), 0..FRAGMENTS.len() + 3);
    let strategy = (inputs(), prop::collection::vec(edit, 1..5));
    runner()
        .run(&strategy, |(input, edits)| {
            let mut text: Vec<char> = input.to_string().chars().collect();
            for (at, what) in edits {
                let at = at % (text.len() + 1);
                match FRAGMENTS.get(what) {
                    Some(fragment) => drop(text.splice(at..at, fragment.chars())),
                    None => drop(text.drain(at..(at + what % 4).min(text.len()))),
                }
            }
            let text: String = text.into_iter().collect();
            if let Err(diagnostic) = read_input(&layout, &text) {
                let code = diagnostic.code.to_string();
                prop_assert!(
                    code.starts_with("E06"),
                    "{code} for {text}: {}",
                    diagnostic.message
                );
            }
            Ok(())
        })
        .expect("every mutated input is read or refused with an input error");
}
