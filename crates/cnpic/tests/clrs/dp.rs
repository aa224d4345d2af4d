//! Dynamic programming (and Kadane's scan): matrix-chain order, LCS and
//! optimal BST against ports of the CLRS reference
//! (`clrs/_src/algorithms/dynamic_programming.py`, `divide_and_conquer.py`),
//! on integer inputs with many ties, so that the reference's tie-breaking
//! (its rounds of relaxation, `>=` against `>`) is exercised.

use serde_json::json;

use crate::harness::{
    LARGEST, LARGEST_CUBIC, SMALL, SMALL_HEAVY, Sweep, int, ints_in, matrix, program, rng, string,
};

/// The reference's `find_maximum_subarray_kadane`: `(best_low, best_high)`.
fn kadane(a: &[i64]) -> (usize, usize) {
    let (mut best_low, mut best_high, mut best_sum) = (0, 0, a[0]);
    let (mut i, mut sum) = (0, a[0]);
    for (j, &x) in a.iter().enumerate().skip(1) {
        if sum + x >= x {
            sum += x;
        } else {
            i = j;
            sum = x;
        }
        if sum > best_sum {
            (best_low, best_high, best_sum) = (i, j, sum);
        }
    }
    (best_low, best_high)
}

/// The reference's `matrix_chain_order`: rounds of relaxation from the
/// previous round's costs until the costs stop changing; `s[1:, 1:]`.
fn matrix_chain_order(p: &[i64]) -> Vec<Vec<i64>> {
    let len = p.len();
    let mut m = vec![vec![0i64; len]; len];
    let mut s = vec![vec![0i64; len]; len];
    let mut msk = vec![vec![false; len]; len];
    for (i, row) in msk.iter_mut().enumerate().skip(1) {
        row[i] = true;
    }
    loop {
        let (prev_m, prev_msk) = (m.clone(), msk.clone());
        for i in 1..len {
            for j in i + 1..len {
                let mut flag = prev_msk[i][j];
                for k in i..j {
                    if prev_msk[i][k] && prev_msk[k + 1][j] {
                        msk[i][j] = true;
                        let q = prev_m[i][k] + prev_m[k + 1][j] + p[i - 1] * p[k] * p[j];
                        if !flag || q < m[i][j] {
                            m[i][j] = q;
                            s[i][j] = k as i64;
                            flag = true;
                        }
                    }
                }
            }
        }
        if prev_m == m {
            break;
        }
    }
    s.iter().skip(1).map(|row| row[1..].to_vec()).collect()
}

/// The reference's `lcs_length`: the arrows `b` (0 diagonal, 1 up,
/// 2 left), relaxed in rounds as it does.
fn lcs_length(x: &[i64], y: &[i64]) -> Vec<Vec<i64>> {
    let (n, m) = (x.len(), y.len());
    let mut b = vec![vec![0i64; m]; n];
    let mut c = vec![vec![0i64; m]; n];
    for i in 0..n {
        if x[i] == y[0] {
            (c[i][0], b[i][0]) = (1, 0);
        } else if i > 0 && c[i - 1][0] == 1 {
            (c[i][0], b[i][0]) = (1, 1);
        } else {
            (c[i][0], b[i][0]) = (0, 1);
        }
    }
    for j in 0..m {
        if x[0] == y[j] {
            (c[0][j], b[0][j]) = (1, 0);
        } else if j > 0 && c[0][j - 1] == 1 {
            (c[0][j], b[0][j]) = (1, 2);
        } else {
            (c[0][j], b[0][j]) = (0, 1);
        }
    }
    loop {
        let prev = c.clone();
        for i in 1..n {
            for j in 1..m {
                if x[i] == y[j] {
                    (c[i][j], b[i][j]) = (prev[i - 1][j - 1] + 1, 0);
                } else if prev[i - 1][j] >= prev[i][j - 1] {
                    (c[i][j], b[i][j]) = (prev[i - 1][j], 1);
                } else {
                    (c[i][j], b[i][j]) = (prev[i][j - 1], 2);
                }
            }
        }
        if prev == c {
            return b;
        }
    }
}

/// The reference's `optimal_bst`: `root`, (n + 1) x (n + 1).
fn optimal_bst(p: &[i64], q: &[i64]) -> Vec<Vec<i64>> {
    let (n, size) = (p.len(), q.len());
    let mut e = vec![vec![0i64; size]; size];
    let mut w = vec![vec![0i64; size]; size];
    let mut root = vec![vec![0i64; size]; size];
    for i in 0..size {
        (e[i][i], w[i][i]) = (q[i], q[i]);
    }
    for l in 1..=n {
        for i in 0..=n - l {
            let j = i + l;
            e[i][j] = 1_000_000_000;
            w[i][j] = w[i][j - 1] + p[j - 1] + q[j];
            for r in i..j {
                let t = e[i][r] + e[r + 1][j] + w[i][j];
                if t < e[i][j] {
                    e[i][j] = t;
                    root[i][j] = r as i64;
                }
            }
        }
    }
    root
}

fn check_kadane(seed: u64, sweep: Sweep) {
    let program = program("find_maximum_subarray_kadane");
    let mut rng = rng(seed);
    for &n in sweep.sizes {
        for input in [
            ints_in(&mut rng, n, -9, 9),
            ints_in(&mut rng, n, -1000, 1000),
        ] {
            let output = program.agreed(&json!({ "A": input }), (sweep.engines)(n));
            let found = (int(&output, "start") as usize, int(&output, "end") as usize);
            assert_eq!(found, kadane(&input), "{input:?}");
        }
    }
}

fn check_matrix_chain_order(seed: u64, sweep: Sweep) {
    let program = program("matrix_chain_order");
    let mut rng = rng(seed);
    for &n in sweep.sizes {
        for p in [
            ints_in(&mut rng, n + 1, 1, 5),
            ints_in(&mut rng, n + 1, 0, 100),
        ] {
            let output = program.agreed(&json!({ "p": p }), (sweep.engines)(n));
            assert_eq!(matrix(&output, "s"), matrix_chain_order(&p), "{p:?}");
        }
    }
}

fn check_lcs_length(seed: u64, sweep: Sweep) {
    let program = program("lcs_length");
    let mut rng = rng(seed);
    for &n in sweep.sizes {
        let (long, short) = (n, n.div_ceil(2));
        for (a, b) in [(long, short), (short, long)] {
            let (x, y) = (string(&mut rng, a, 4), string(&mut rng, b, 4));
            let output = program.agreed(&json!({ "x": x, "y": y }), (sweep.engines)(n));
            assert_eq!(matrix(&output, "b"), lcs_length(&x, &y), "{x:?} {y:?}");
        }
    }
}

fn check_optimal_bst(seed: u64, sweep: Sweep) {
    let program = program("optimal_bst");
    let mut rng = rng(seed);
    for &n in sweep.sizes {
        for (lo, hi) in [(0, 3), (1, 1000)] {
            let (p, q) = (
                ints_in(&mut rng, n, lo, hi),
                ints_in(&mut rng, n + 1, lo, hi),
            );
            let output = program.agreed(&json!({ "p": p, "q": q }), (sweep.engines)(n));
            assert_eq!(matrix(&output, "root"), optimal_bst(&p, &q), "{p:?} {q:?}");
        }
    }
}

#[test]
fn kadane_finds_the_reference_subarray() {
    check_kadane(21, SMALL);
}

#[test]
fn matrix_chain_order_splits_as_the_reference() {
    check_matrix_chain_order(22, SMALL_HEAVY);
}

#[test]
fn lcs_length_draws_the_reference_arrows() {
    check_lcs_length(23, SMALL);
}

#[test]
fn optimal_bst_roots_as_the_reference() {
    check_optimal_bst(24, SMALL_HEAVY);
}

#[test]
#[ignore = "minutes; run with: -- --ignored largest"]
fn largest_find_maximum_subarray_kadane() {
    check_kadane(121, LARGEST);
}

#[test]
#[ignore = "minutes; run with: -- --ignored largest"]
fn largest_matrix_chain_order() {
    check_matrix_chain_order(122, LARGEST_CUBIC);
}

#[test]
#[ignore = "minutes; run with: -- --ignored largest"]
fn largest_lcs_length() {
    check_lcs_length(123, LARGEST);
}

#[test]
#[ignore = "minutes; run with: -- --ignored largest"]
fn largest_optimal_bst() {
    check_optimal_bst(124, LARGEST_CUBIC);
}
