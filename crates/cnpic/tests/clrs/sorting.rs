//! Sorting: the output is the input sorted ascending (the four programs
//! sort in place, so `A` must be a sorted permutation of the input), on
//! values with many repeats and on distinct values.

use serde_json::json;

use crate::harness::{LARGEST, SMALL, Sweep, distinct, ints, ints_in, program, rng};

/// Runs sort program `id` on inputs of every size of `sweep`, with
/// repeats and without, and checks `A` against the standard library's sort.
fn sorts(id: &str, seed: u64, sweep: Sweep) {
    let sort = program(id);
    let mut rng = rng(seed);
    for &n in sweep.sizes {
        for input in [
            ints_in(&mut rng, n, -9, 9),
            distinct(&mut rng, n, -1000, 1000),
        ] {
            let output = sort.agreed(&json!({ "A": input }), (sweep.engines)(n));
            let mut expected = input.clone();
            expected.sort_unstable();
            assert_eq!(ints(&output, "A"), expected, "{id} on {input:?}");
        }
    }
}

#[test]
fn insertion_sort() {
    sorts("insertion_sort", 1, SMALL);
}

#[test]
fn bubble_sort() {
    sorts("bubble_sort", 2, SMALL);
}

#[test]
fn heapsort() {
    sorts("heapsort", 3, SMALL);
}

#[test]
fn quicksort() {
    sorts("quicksort", 4, SMALL);
}

#[test]
#[ignore = "minutes; run with: -- --ignored largest"]
fn largest_insertion_sort() {
    sorts("insertion_sort", 101, LARGEST);
}

#[test]
#[ignore = "minutes; run with: -- --ignored largest"]
fn largest_bubble_sort() {
    sorts("bubble_sort", 102, LARGEST);
}

#[test]
#[ignore = "minutes; run with: -- --ignored largest"]
fn largest_heapsort() {
    sorts("heapsort", 103, LARGEST);
}

#[test]
#[ignore = "minutes; run with: -- --ignored largest"]
fn largest_quicksort() {
    sorts("quicksort", 104, LARGEST);
}
