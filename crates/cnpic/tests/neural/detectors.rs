//! Detectors: each one's bit equals its condition on random environments
//! (any i64 values, pointers anywhere, errors where the reference errs),
//! from the network and from its verified table; domains are as small as
//! the features allow.

use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use serde_json::json;

use super::{SEED, compile_text};
use cnpi_neural::detector::{Cache, Condition};
use cnpi_neural::memory::Memory;

const ARRAY: &str = "env array(i = 0, j = 1, k = 2)
def A1: cond(A[i] < A[j] and not (A[j] <= A[k]) or A[i] == A[k]?; NOP, NOP, NOP)
def A2: cond(i - j > k * 2 or A[i + 1] != END?; A1, NOP, NOP)
def A3: cond(A[i] == -1 or i == END and j >= LAST?; A2, NOP, NOP)
def A4: cond(not (A[k] > 5) and (A[i] == A[j] or A[j] == A[k])?; A3, NOP, NOP)
def A5: cond(A[j / k] > 0 or k == 0?; A4, NOP, NOP)
def A6: cond(k != 0 and A[j / k] > 0 or A[i] < A[i]?; A5, NOP, NOP)
def A7: cond(A[i] < A[j] and A[i] > A[j] or A[j] >= 9223372036854775807?; A6, NOP, NOP)
";

const GRAPH: &str = "env graph(u = 0, v = 1)
def G1: cond(color(v) == WHITE and has_child(u) or child(v) == END?; NOP, NOP, NOP)
def G2: cond(not has_child(child(u)) or color(child(v)) != BLACK?; G1, NOP, NOP)
";

/// Checks every source detector of a memory built from `text` on random
/// states from `states` and random pointer values.
fn check(text: &str, states: BoxedStrategy<String>, cases: u32) {
    let program = compile_text("detectors.cnpi", text);
    let memory =
        Memory::with_program(&program, "d.cnpi", text, SEED, &Cache::none()).expect("builds");
    let pointer = prop_oneof![-3i64..70, any::<i64>(), Just(i64::MAX), Just(i64::MIN)];
    let pointers = prop::collection::vec(pointer, program.pointers.len());
    let mut runner = TestRunner::new(Config::with_cases(cases));
    let result = runner.run(&(states, pointers), |(input, pointers)| {
        let state = cnpi::env::parse_input(program.env, &input).expect("valid input");
        let world = state.view(&pointers);
        for row in &memory.detectors[2..] {
            let Condition::Source(expr) = row.detector.condition() else {
                panic!("detectors after the built-ins come from the source");
            };
            let expected = expr.eval(&world);
            for cached in [true, false] {
                let bit = row.detector.detect(&world, false, cached);
                prop_assert_eq!(
                    bit,
                    expected,
                    "`{}` at {:?} on {}",
                    row.text,
                    pointers,
                    input
                );
            }
        }
        Ok(())
    });
    if let Err(failure) = result {
        panic!("{failure}");
    }
}

#[test]
fn array_detectors_equal_their_conditions() {
    let value = prop_oneof![-3i64..8, any::<i64>(), Just(i64::MIN), Just(i64::MAX)];
    let arrays = prop::collection::vec(value, 0..12).prop_map(|a| json!(a).to_string());
    check(ARRAY, arrays.boxed(), 2000);
}

#[test]
fn graph_detectors_equal_their_conditions() {
    let graphs = (1usize..6)
        .prop_flat_map(|n| prop::collection::vec(prop::collection::vec(0..n, 0..3), n))
        .prop_map(|g| json!({ "graph": g }).to_string());
    check(GRAPH, graphs.boxed(), 1000);
}

#[test]
fn domains_have_one_feature_per_distinct_pair() {
    let program = compile_text("detectors.cnpi", ARRAY);
    let memory =
        Memory::with_program(&program, "d.cnpi", ARRAY, SEED, &Cache::none()).expect("builds");
    let domains: Vec<(String, usize)> = memory
        .detectors
        .iter()
        .map(|row| (row.text.clone(), row.detector.domain()))
        .collect();
    let domain = |text: &str| {
        domains
            .iter()
            .find(|(t, _)| t == text)
            .unwrap_or_else(|| panic!("no detector `{text}` in {domains:?}"))
            .1
    };
    assert_eq!(domain("true"), 1);
    assert_eq!(domain("_top != SENTINEL"), 2);
    // (A[i], A[j]), (A[j], A[k]), (A[i], A[k]): three orders.
    assert_eq!(
        domain("A[i] < A[j] and not (A[j] <= A[k]) or A[i] == A[k]"),
        125
    );
    // `A[i + 1] != END` can only be equal or not.
    assert_eq!(domain("i - j > k * 2 or A[i + 1] != END"), 10);
    // `<` and `>` on the same pair share one feature.
    assert_eq!(
        domain("A[i] < A[j] and A[i] > A[j] or A[j] >= 9223372036854775807"),
        25
    );
}

/// The detector memory is keyed by condition: a condition written twice in
/// a program, or again in a program added later, has one detector, and
/// the appliers that test it share its key.
#[test]
fn one_detector_per_distinct_condition() {
    let first = "env array(i = 0, j = 1)
def STEP: seq(; MOVE(i, RIGHT), MOVE(j, RIGHT), NOP)
def INNER: linrec(A[j] != END?; STEP, NOP, NOP)
def OUTER: cond(A[j] != END?; INNER, STEP, NOP)
def MAIN: linrec(A[i] < A[j]?; OUTER, NOP, NOP)
";
    let second = "env array(i = 0, j = 1)
def AGAIN: linrec(A[j] != END?; MOVE(j, RIGHT), NOP, NOP)
def FINAL: cond(A[j] == END?; AGAIN, NOP, NOP)
";
    let program = compile_text("first.cnpi", first);
    let mut memory =
        Memory::with_program(&program, "first.cnpi", first, SEED, &Cache::none()).expect("builds");
    let texts = |memory: &Memory| -> Vec<String> {
        memory.detectors[2..]
            .iter()
            .map(|d| d.text.clone())
            .collect()
    };
    assert_eq!(texts(&memory), ["A[j] != END", "A[i] < A[j]"]);
    let program = compile_text("second.cnpi", second);
    memory
        .add(&program, "second.cnpi", second, &Cache::none())
        .expect("adds");
    assert_eq!(
        texts(&memory),
        ["A[j] != END", "A[i] < A[j]", "A[j] == END"]
    );
    for (name, detector) in [
        ("INNER", 2),
        ("OUTER", 2),
        ("MAIN", 3),
        ("AGAIN", 2),
        ("FINAL", 4),
    ] {
        let row = memory
            .rows
            .iter()
            .position(|r| r.name == name)
            .expect("a row");
        match memory.parse(row) {
            Ok(cnpi_neural::memory::Parsed::Combinator { detector: got, .. }) => {
                assert_eq!(got, detector, "{name}")
            }
            other => panic!("{name}: {other:?}"),
        }
    }
}

/// Building reports its progress through the slow part, detector training
/// (`cnpic build` draws it as a bar on a terminal).
#[test]
fn adding_a_program_reports_detector_progress() {
    let text = "env array(i = 0, j = 1)
def P: cond(A[i] < A[j]?; NOP, NOP, NOP)
def Q: cond(A[j] != END?; P, NOP, NOP)
def R: cond(A[i] < A[j]?; Q, NOP, NOP)
";
    let program = compile_text("progress.cnpi", text);
    let mut memory = Memory::new(SEED, &Cache::none()).expect("a memory");
    let mut calls = Vec::new();
    let mut progress = |done, total| calls.push((done, total));
    memory
        .add_reporting(
            &program,
            "progress.cnpi",
            text,
            &Cache::none(),
            &mut progress,
        )
        .expect("adds");
    assert_eq!(calls, [(0, 2), (1, 2)]);
}
