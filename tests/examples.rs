//! Every program in `examples/` runs correctly on random inputs.
//!
//! Each example is compiled once, then run by the exact interpreter on
//! inputs drawn by proptest, and its result is checked by a property that
//! does not depend on how the program works (the array is sorted, the
//! output is a valid topological order, the sum is the sum ...).

mod common;
mod inputs;

use common::add_decimal;
use inputs::{dags, graphs, values};
use std::collections::HashSet;

use cnpi::exec::Options;
use cnpi::program::Program;
use cnpi::symbolic;
use proptest::prelude::*;
use serde_json::{Value, json};

fn compile(file: &str) -> Program {
    let path = format!("{}/examples/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).expect("example exists");
    let compilation = cnpi::compile::compile(file, &text, None);
    assert!(
        compilation.diagnostics.is_empty(),
        "{file}: {:?}",
        compilation.diagnostics
    );
    compilation.program.expect("no errors")
}

fn run(program: &Program, input: &Value) -> Value {
    let state = cnpi::env::parse_input(program.env, &input.to_string()).expect("valid input");
    let options = Options {
        max_steps: 1_000_000_000,
        trace: None,
        limits: Default::default(),
    };
    symbolic::run(program, state, options)
        .expect("runs without error")
        .to_json("symbolic")
}

fn array(result: &Value) -> Vec<i64> {
    serde_json::from_value(result["A"].clone()).expect("A is an array of integers")
}

fn tape(result: &Value) -> Vec<i64> {
    serde_json::from_value(result["output"].clone()).expect("output holds integers")
}

fn sorted(mut v: Vec<i64>) -> Vec<i64> {
    v.sort();
    v
}

fn check_sorts(file: &str) {
    let program = compile(file);
    proptest!(|(input in values())| {
        let result = run(&program, &json!(input));
        prop_assert_eq!(array(&result), sorted(input));
        prop_assert_eq!(&result["engine"], "symbolic");
    });
}

#[test]
fn bubblesort_sorts() {
    check_sorts("bubblesort.cnpi");
}

#[test]
fn quicksort_sorts() {
    check_sorts("quicksort.cnpi");
}

#[test]
fn insertionsort_sorts() {
    check_sorts("insertionsort.cnpi");
}

#[test]
fn normal_bubblesort_sorts() {
    check_sorts("bubblesort_normal.cnpi");
}

#[test]
fn normal_quicksort_sorts() {
    check_sorts("quicksort_normal.cnpi");
}

#[test]
fn reverse_reverses() {
    let program = compile("reverse.cnpi");
    proptest!(|(input in values())| {
        let result = run(&program, &json!(input));
        let reversed: Vec<i64> = input.iter().rev().copied().collect();
        prop_assert_eq!(array(&result), reversed);
    });
}

#[test]
fn findmax_outputs_the_maximum() {
    let program = compile("findmax.cnpi");
    proptest!(|(input in values())| {
        let result = run(&program, &json!(input));
        let expected: Vec<i64> = input.iter().max().copied().into_iter().collect();
        prop_assert_eq!(tape(&result), expected);
        prop_assert_eq!(array(&result), input);
    });
}

#[test]
fn maxsort_outputs_from_largest_to_smallest_and_clears() {
    let program = compile("maxsort.cnpi");
    let naturals = prop_oneof![0i64..5, 0..=i64::MAX];
    proptest!(|(input in prop::collection::vec(naturals, 0..40))| {
        let result = run(&program, &json!(input));
        let mut largest_first = input.clone();
        largest_first.sort_by(|a, b| b.cmp(a));
        prop_assert_eq!(tape(&result), largest_first);
        prop_assert_eq!(array(&result), vec![-1; input.len()]);
    });
}

/// Reference traversals of a heap-ordered binary tree.
fn heap_order(values: &[i64], node: usize, pre: bool, out: &mut Vec<i64>) {
    if node >= values.len() {
        return;
    }
    if pre {
        out.push(values[node]);
    }
    heap_order(values, 2 * node + 1, pre, out);
    heap_order(values, 2 * node + 2, pre, out);
    if !pre {
        out.push(values[node]);
    }
}

#[test]
fn heap_traversals_match_recursive_ones() {
    let preorder = compile("heap_preorder.cnpi");
    let postorder = compile("heap_postorder.cnpi");
    proptest!(|(input in values())| {
        for (program, pre) in [(&preorder, true), (&postorder, false)] {
            let mut expected = Vec::new();
            heap_order(&input, 0, pre, &mut expected);
            prop_assert_eq!(tape(&run(program, &json!(input))), expected);
        }
    });
}

#[test]
fn toposort_emits_every_vertex_after_its_descendants() {
    let program = compile("toposort.cnpi");
    proptest!(|(graph in dags())| {
        let out = tape(&run(&program, &json!({ "graph": graph })));
        let mut position = vec![usize::MAX; graph.len()];
        for (i, &v) in out.iter().enumerate() {
            let v = usize::try_from(v).expect("a vertex");
            prop_assert_eq!(position[v], usize::MAX, "vertex {} emitted twice", v);
            position[v] = i;
        }
        prop_assert_eq!(out.len(), graph.len());
        for (u, children) in graph.iter().enumerate() {
            for &v in children {
                prop_assert!(position[v] < position[u], "edge {}→{}", u, v);
            }
        }
    });
}

#[test]
fn reachable_emits_exactly_the_vertices_reachable_from_zero() {
    let program = compile("reachable.cnpi");
    proptest!(|(graph in graphs())| {
        let out = tape(&run(&program, &json!({ "graph": graph })));
        let mut seen = HashSet::from([0usize]);
        let mut todo = vec![0usize];
        while let Some(u) = todo.pop() {
            for &v in &graph[u] {
                if seen.insert(v) {
                    todo.push(v);
                }
            }
        }
        let emitted: HashSet<usize> = out.iter().map(|&v| v as usize).collect();
        prop_assert_eq!(emitted.len(), out.len(), "no vertex twice");
        prop_assert_eq!(emitted, seen);
        prop_assert_eq!(out.first().copied(), Some(0));
    });
}

#[test]
fn addition_adds_numbers_of_any_length() {
    let program = compile("addition.cnpi");
    proptest!(|(a in "[0-9]{1,60}", b in "[0-9]{1,60}")| {
        let result = run(&program, &json!({ "a": a, "b": b }));
        let expected = add_decimal(&a, &b);
        prop_assert_eq!(result["sum"].as_str(), Some(expected.as_str()));
    });
    let big = "9".repeat(500);
    let result = run(&program, &json!({ "a": big, "b": "1" }));
    assert_eq!(result["sum"], format!("1{}", "0".repeat(500)));
}
