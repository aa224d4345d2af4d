//! String matching: the naive matcher and Knuth-Morris-Pratt against ports
//! of the CLRS reference (`clrs/_src/algorithms/strings.py`; its KMP keeps
//! an `is_reset` mask instead of CLRS's π of lengths, while the program
//! follows the textbook), on texts that hold the pattern (as the CLRS
//! sampler embeds it), texts that may not, periodic patterns over two
//! letters, and patterns longer than the text.

use rand::RngExt;
use serde_json::json;

use crate::harness::{LARGEST, SMALL, Sweep, int, program, rng, string};

/// The reference's `naive_string_matcher`: the first shift, else n.
fn naive(t: &[i64], p: &[i64]) -> usize {
    let (n, m) = (t.len(), p.len());
    let mut s = 0;
    while s + m <= n {
        let (mut i, mut j) = (s, 0);
        loop {
            if t[i] != p[j] {
                break;
            } else if j == m - 1 {
                return s;
            }
            i += 1;
            j += 1;
        }
        s += 1;
    }
    n
}

/// The reference's `kmp_matcher`, its prefix function and its `is_reset`
/// mask as it writes them: the first shift, else n.
fn kmp(t: &[i64], p: &[i64]) -> usize {
    let (n, m) = (t.len(), p.len() as i64);
    let at = |i: i64| p[i as usize];
    let mut pi: Vec<i64> = (0..m).collect();
    let mut is_reset = vec![false; p.len()];
    let (mut k, mut k_reset) = (0i64, true);
    is_reset[0] = true;
    for q in 1..m {
        while !k_reset && at(k + 1) != at(q) {
            if is_reset[k as usize] {
                (k_reset, k) = (true, 0);
            } else {
                k = pi[k as usize];
            }
        }
        if k_reset {
            (k_reset, k) = (false, -1);
        }
        if at(k + 1) == at(q) {
            k += 1;
        }
        if k == -1 {
            (k, k_reset) = (0, true);
            is_reset[q as usize] = true;
        }
        pi[q as usize] = k;
    }
    let (mut q, mut q_reset, mut s) = (0i64, true, 0);
    for (i, &c) in t.iter().enumerate() {
        if i as i64 >= m {
            s += 1;
        }
        while !q_reset && at(q + 1) != c {
            if is_reset[q as usize] {
                (q, q_reset) = (0, true);
            } else {
                q = pi[q as usize];
            }
        }
        if q_reset {
            (q, q_reset) = (-1, false);
        }
        if at(q + 1) == c {
            if q == m - 2 {
                return s;
            }
            q += 1;
        }
        if q == -1 {
            (q_reset, q) = (true, 0);
        }
    }
    n
}

/// Texts and patterns for size n: the CLRS sampler's (a pattern of n / 5
/// letters, at least 1, planted in a text of n letters), the same
/// unplanted, over two letters, and a pattern longer than its text.
fn cases(rng: &mut rand_chacha::ChaCha8Rng, n: usize) -> Vec<(Vec<i64>, Vec<i64>)> {
    let m = (n / 5).max(1);
    let planted = {
        let (mut t, p) = (string(rng, n, 4), string(rng, m, 4));
        let at = rng.random_range(0..=n - m);
        t[at..at + m].copy_from_slice(&p);
        (t, p)
    };
    vec![
        planted,
        (string(rng, n, 4), string(rng, m, 4)),
        (string(rng, n, 2), string(rng, (n / 3).max(1), 2)),
        (string(rng, n, 2), string(rng, n + 1, 2)),
    ]
}

/// Runs matcher `id` on every case of every size of `sweep` against
/// `oracle`, and the oracle against the naive reference (both find the
/// first match).
fn matches(id: &str, seed: u64, oracle: fn(&[i64], &[i64]) -> usize, sweep: Sweep) {
    let program = program(id);
    let mut rng = rng(seed);
    for &n in sweep.sizes {
        for (t, p) in cases(&mut rng, n) {
            let expected = oracle(&t, &p);
            assert_eq!(
                expected,
                naive(&t, &p),
                "the references agree on {t:?} {p:?}"
            );
            let output = program.agreed(&json!({ "T": t, "P": p }), (sweep.engines)(n));
            assert_eq!(
                int(&output, "match"),
                expected as i64,
                "{id} on {t:?} {p:?}"
            );
        }
    }
}

#[test]
fn naive_string_matcher_finds_the_first_match() {
    matches("naive_string_matcher", 41, naive, SMALL);
}

#[test]
fn kmp_matcher_finds_the_first_match() {
    matches("kmp_matcher", 42, kmp, SMALL);
}

#[test]
#[ignore = "minutes; run with: -- --ignored largest"]
fn largest_naive_string_matcher() {
    matches("naive_string_matcher", 141, naive, LARGEST);
}

#[test]
#[ignore = "minutes; run with: -- --ignored largest"]
fn largest_kmp_matcher() {
    matches("kmp_matcher", 142, kmp, LARGEST);
}
