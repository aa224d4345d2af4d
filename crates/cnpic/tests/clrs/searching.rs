//! Searching: minimum, binary search and quickselect against ports of the
//! CLRS reference (`clrs/_src/algorithms/searching.py`), tie-breaking
//! included.

use serde_json::json;

use crate::harness::{LARGEST, SMALL, Sweep, distinct, int, ints_in, program, rng, sorted};

/// The reference's `minimum`: the first index of a smallest element.
fn minimum(a: &[i64]) -> usize {
    let mut min = 0;
    for i in 1..a.len() {
        if a[min] > a[i] {
            min = i;
        }
    }
    min
}

/// The reference's `binary_search`: its `high`.
fn binary_search(a: &[i64], x: i64) -> usize {
    let (mut low, mut high) = (0, a.len() - 1);
    while low < high {
        let mid = (low + high) / 2;
        if x <= a[mid] {
            high = mid;
        } else {
            low = mid + 1;
        }
    }
    high
}

/// The reference's `quickselect` of rank n / 2 with Lomuto's partition,
/// as the index in the input of the element it returns.
fn quickselect(input: &[i64]) -> usize {
    let mut a = input.to_vec();
    let mut pos: Vec<usize> = (0..a.len()).collect();
    let (mut p, mut r, mut i) = (0, a.len() - 1, a.len() / 2);
    loop {
        let x = a[r];
        let mut store = p;
        for j in p..r {
            if a[j] <= x {
                a.swap(store, j);
                pos.swap(store, j);
                store += 1;
            }
        }
        a.swap(store, r);
        pos.swap(store, r);
        let (q, k) = (store, store - p);
        if i == k {
            return pos[q];
        } else if i < k {
            r = q - 1;
        } else {
            i -= k + 1;
            p = q + 1;
        }
    }
}

fn check_minimum(seed: u64, sweep: Sweep) {
    let program = program("minimum");
    let mut rng = rng(seed);
    for &n in sweep.sizes {
        for input in [ints_in(&mut rng, n, -5, 5), distinct(&mut rng, n, 0, 5000)] {
            let output = program.agreed(&json!({ "A": input }), (sweep.engines)(n));
            assert_eq!(int(&output, "min"), minimum(&input) as i64, "{input:?}");
        }
    }
}

fn check_binary_search(seed: u64, sweep: Sweep) {
    let program = program("binary_search");
    let mut rng = rng(seed);
    for &n in sweep.sizes {
        let a = sorted(&mut rng, n, 0, 3 * n as i64);
        // Targets below, inside (present and absent) and above the array.
        let targets = [-1, a[0], a[n / 2], a[n / 2] + 1, a[n - 1], a[n - 1] + 1];
        for x in targets {
            let output = program.agreed(&json!({ "A": a, "x": x }), (sweep.engines)(n));
            assert_eq!(
                int(&output, "index"),
                binary_search(&a, x) as i64,
                "{a:?} {x}"
            );
        }
    }
}

fn check_quickselect(seed: u64, sweep: Sweep) {
    let program = program("quickselect");
    let mut rng = rng(seed);
    for &n in sweep.sizes {
        for _ in 0..2 {
            let input = distinct(&mut rng, n, -5000, 5000);
            let output = program.agreed(&json!({ "A": input }), (sweep.engines)(n));
            let median = int(&output, "median");
            assert_eq!(median, quickselect(&input) as i64, "{input:?}");
            let below = input.iter().filter(|&&v| v < input[median as usize]);
            assert_eq!(below.count(), n / 2, "rank of the median in {input:?}");
        }
    }
}

#[test]
fn minimum_is_the_first_smallest() {
    check_minimum(11, SMALL);
}

#[test]
fn binary_search_finds_the_reference_high() {
    check_binary_search(12, SMALL);
}

#[test]
fn quickselect_finds_the_median_index() {
    check_quickselect(13, SMALL);
}

#[test]
#[ignore = "minutes; run with: -- --ignored largest"]
fn largest_minimum() {
    check_minimum(111, LARGEST);
}

#[test]
#[ignore = "minutes; run with: -- --ignored largest"]
fn largest_binary_search() {
    check_binary_search(112, LARGEST);
}

#[test]
#[ignore = "minutes; run with: -- --ignored largest"]
fn largest_quickselect() {
    check_quickselect(113, LARGEST);
}
