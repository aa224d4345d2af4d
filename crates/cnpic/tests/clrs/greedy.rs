//! Greedy algorithms: activity selection and task scheduling against ports
//! of the CLRS reference (`clrs/_src/algorithms/greedy.py`). The reference
//! orders by numpy's unstable argsort, so, as outside suites do, the sort
//! keys (finish times, penalties) are distinct; every other tie (a start
//! equal to a finish, equal deadlines) occurs.

use rand::RngExt;
use serde_json::json;

use crate::harness::{LARGEST, SMALL, Sweep, distinct, ints, program, rng};

/// The indices of `keys` in ascending order of key (the keys are distinct).
fn argsort(keys: &[i64]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..keys.len()).collect();
    order.sort_by_key(|&i| keys[i]);
    order
}

/// The reference's `activity_selector`: 0/1 per activity.
fn activity_selector(s: &[i64], f: &[i64]) -> Vec<i64> {
    let ind = argsort(f);
    let mut selected = vec![0; s.len()];
    selected[ind[0]] = 1;
    let mut k = ind[0];
    for &m in &ind[1..] {
        if s[m] >= f[k] {
            selected[m] = 1;
            k = m;
        }
    }
    selected
}

/// The reference's `task_scheduling`: 0/1 per task.
fn task_scheduling(d: &[i64], w: &[i64]) -> Vec<i64> {
    let negated: Vec<i64> = w.iter().map(|w| -w).collect();
    let ind = argsort(&negated);
    let mut selected = vec![0; d.len()];
    selected[ind[0]] = 1;
    let mut t = 1;
    for &i in &ind[1..] {
        if t < d[i] {
            selected[i] = 1;
            t += 1;
        }
    }
    selected
}

fn check_activity_selector(seed: u64, sweep: Sweep) {
    let program = program("activity_selector");
    let mut rng = rng(seed);
    for &n in sweep.sizes {
        for _ in 0..2 {
            let f = distinct(&mut rng, n, 0, 2 * n as i64);
            let s: Vec<i64> = f.iter().map(|&f| rng.random_range(0..=f)).collect();
            let output = program.agreed(&json!({ "s": s, "f": f }), (sweep.engines)(n));
            assert_eq!(
                ints(&output, "selected"),
                activity_selector(&s, &f),
                "{s:?} {f:?}"
            );
        }
    }
}

fn check_task_scheduling(seed: u64, sweep: Sweep) {
    let program = program("task_scheduling");
    let mut rng = rng(seed);
    for &n in sweep.sizes {
        for _ in 0..2 {
            let d: Vec<i64> = (0..n).map(|_| rng.random_range(1..=n as i64)).collect();
            let w = distinct(&mut rng, n, 0, 1000.max(2 * n as i64));
            let output = program.agreed(&json!({ "d": d, "w": w }), (sweep.engines)(n));
            assert_eq!(
                ints(&output, "selected"),
                task_scheduling(&d, &w),
                "{d:?} {w:?}"
            );
        }
    }
}

#[test]
fn activity_selector_selects_as_the_reference() {
    check_activity_selector(31, SMALL);
}

#[test]
fn task_scheduling_selects_as_the_reference() {
    check_task_scheduling(32, SMALL);
}

#[test]
#[ignore = "minutes; run with: -- --ignored largest"]
fn largest_activity_selector() {
    check_activity_selector(131, LARGEST);
}

#[test]
#[ignore = "minutes; run with: -- --ignored largest"]
fn largest_task_scheduling() {
    check_task_scheduling(132, LARGEST);
}
