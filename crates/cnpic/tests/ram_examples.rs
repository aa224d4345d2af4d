//! Every program of `examples/ram/` (the classic tasks of issue 18 that
//! `examples/clrs/` does not already hold, and the worked examples of
//! `docs/language.md`) on seeded random inputs, on the network, with
//! `--symbolic` and with `--no-cache`, which must agree; and the answer
//! against an oracle written here, not taken from the program: the
//! standard library's sort, a brute-force divisor search, a simulation of
//! the three pegs, a union-find. The CLRS harness runs the programs.

use std::collections::BTreeSet;

use rand::RngExt;
use rand_chacha::ChaCha8Rng;
use serde_json::{Value, json};

/// The workspace root: the examples live there.
const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");

#[path = "clrs/harness.rs"]
#[allow(dead_code)]
mod harness;

use harness::{
    Clrs, SMALL, SMALL_HEAVY, Sweep, int, ints, ints_in, matrix, program_file, relaxed_distances,
    rng,
};

/// The programs this file checks, one test each.
const PROGRAMS: [&str; 22] = [
    "bfs",
    "binary_search",
    "calculator",
    "connected_components",
    "count",
    "derangements",
    "dfs",
    "dijkstra",
    "expression",
    "fib_recursive",
    "fibonacci",
    "gcd",
    "hanoi",
    "insertion_sort",
    "lcs",
    "merge_sort",
    "merge_sort_buffer",
    "n_queens",
    "prefix_sums",
    "quicksort",
    "reverse",
    "union_find",
];

#[test]
fn every_program_of_examples_ram_has_an_oracle() {
    let found: BTreeSet<String> = std::fs::read_dir(format!("{ROOT}/examples/ram"))
        .expect("examples/ram exists")
        .map(|entry| entry.expect("a directory entry").path())
        .filter(|path| path.extension().is_some_and(|e| e == "cnpi"))
        .map(|path| path.file_stem().expect("a name").to_string_lossy().into())
        .collect();
    let tested: BTreeSet<String> = PROGRAMS.iter().map(|&p| p.to_string()).collect();
    assert_eq!(found, tested, "examples/ram and the tests here");
}

fn ram(id: &str) -> Clrs {
    program_file(&format!("examples/ram/{id}.cnpi"))
}

/// Runs `id` on `input(rng, n)` for every size of `sweep`, twice, on the
/// engines the sweep names (which must agree), and hands each output to
/// `check` with its input.
fn sweep(
    id: &str,
    seed: u64,
    sweep: Sweep,
    input: impl Fn(&mut ChaCha8Rng, usize) -> Value,
    check: impl Fn(&Value, &Value),
) {
    let program = ram(id);
    let mut rng = rng(seed);
    for &n in sweep.sizes {
        for _ in 0..2 {
            let x = input(&mut rng, n);
            let output = program.agreed(&x, (sweep.engines)(n));
            check(&x, &output);
        }
    }
}

fn sorted(a: &[i64]) -> Vec<i64> {
    let mut a = a.to_vec();
    a.sort_unstable();
    a
}

#[test]
fn insertion_sort() {
    let input = |rng: &mut ChaCha8Rng, n| json!({ "A": ints_in(rng, n, -20, 20) });
    sweep("insertion_sort", 1801, SMALL, input, |x, out| {
        assert_eq!(ints(out, "A"), sorted(&ints(x, "A")), "{x}");
    });
}

#[test]
fn merge_sort() {
    let input = |rng: &mut ChaCha8Rng, n| json!({ "A": ints_in(rng, n, -20, 20) });
    sweep("merge_sort", 1802, SMALL, input, |x, out| {
        assert_eq!(ints(out, "A"), sorted(&ints(x, "A")), "{x}");
    });
}

#[test]
fn merge_sort_buffer() {
    let input = |rng: &mut ChaCha8Rng, n| json!({ "A": ints_in(rng, n, -20, 20) });
    sweep("merge_sort_buffer", 1830, SMALL, input, |x, out| {
        assert_eq!(ints(out, "A"), sorted(&ints(x, "A")), "{x}");
    });
}

#[test]
fn reverse() {
    let input = |rng: &mut ChaCha8Rng, n| json!({ "A": ints_in(rng, n, -99, 99) });
    sweep("reverse", 1803, SMALL, input, |x, out| {
        let mut a = ints(x, "A");
        a.reverse();
        assert_eq!(ints(out, "A"), a, "{x}");
    });
}

#[test]
fn prefix_sums() {
    let input = |rng: &mut ChaCha8Rng, n| json!({ "A": ints_in(rng, n, -99, 99) });
    sweep("prefix_sums", 1804, SMALL, input, |x, out| {
        let sums: Vec<i64> = ints(x, "A")
            .iter()
            .scan(0, |sum, v| {
                *sum += v;
                Some(*sum)
            })
            .collect();
        assert_eq!(ints(out, "A"), sums, "{x}");
    });
}

#[test]
fn count() {
    let input = |rng: &mut ChaCha8Rng, n| json!({ "A": ints_in(rng, n, 0, 4), "x": rng.random_range(-1..=5) });
    sweep("count", 1805, SMALL, input, |x, out| {
        let target = int(x, "x");
        let count = ints(x, "A").iter().filter(|&&v| v == target).count();
        assert_eq!(int(out, "count"), count as i64, "{x}");
    });
}

#[test]
fn binary_search() {
    // Sorted arrays with repeats; targets inside and outside the range.
    let input = |rng: &mut ChaCha8Rng, n: usize| {
        let a = sorted(&ints_in(rng, n, 0, 2 * n as i64));
        json!({ "A": a, "x": rng.random_range(-1..=2 * n as i64 + 1) })
    };
    sweep("binary_search", 1806, SMALL, input, |x, out| {
        let (a, target) = (ints(x, "A"), int(x, "x"));
        match int(out, "at") {
            -1 => assert!(!a.contains(&target), "{x}"),
            at => assert_eq!(a[at as usize], target, "{x}"),
        }
    });
}

/// The largest d dividing both, by trying every candidate (gcd(0, 0) = 0).
fn divisor_search(a: i64, b: i64) -> i64 {
    if a == 0 || b == 0 {
        return a.max(b);
    }
    (1..=a.min(b))
        .rev()
        .find(|d| a % d == 0 && b % d == 0)
        .unwrap_or(1)
}

#[test]
fn gcd() {
    // n bounds the operands; a common factor makes large answers common.
    let input = |rng: &mut ChaCha8Rng, n: usize| {
        let f = rng.random_range(1..=n as i64);
        let (x, y) = (rng.random_range(0..=50), rng.random_range(0..=50));
        json!({ "x": f * x, "y": f * y })
    };
    sweep("gcd", 1807, SMALL, input, |x, out| {
        let expected = divisor_search(int(x, "x"), int(x, "y"));
        assert_eq!(int(out, "gcd"), expected, "{x}");
        // EXTENDED_EUCLID's coefficients, its second and third results.
        let bezout = int(x, "x") * int(out, "s") + int(x, "y") * int(out, "t");
        assert_eq!(bezout, expected, "{x}");
    });
}

/// A random fully parenthesised expression of about `size` operators
/// over one-digit numbers, with its value.
fn expression(rng: &mut ChaCha8Rng, size: usize) -> (String, i64) {
    if size == 0 || rng.random_range(0..4) == 0 {
        let digit = rng.random_range(0..=9);
        return (digit.to_string(), digit);
    }
    let (a, x) = expression(rng, size / 2);
    let (b, y) = expression(rng, size / 2);
    let (op, value) = match rng.random_range(0..3) {
        0 => ('+', x + y),
        1 => ('-', x - y),
        _ => ('*', x * y),
    };
    (format!("({a}{op}{b})"), value)
}

#[test]
fn expression_evaluator() {
    let input = |rng: &mut ChaCha8Rng, n: usize| {
        let (text, value) = expression(rng, n.min(12));
        json!({ "S": text, "expected": value })
    };
    sweep("expression", 1812, SMALL, input, |x, out| {
        assert_eq!(int(out, "value"), int(x, "expected"), "{x}");
        assert_eq!(out.get("a"), None, "locals are not reported: {out}");
    });
}

/// A random arithmetic expression of about `size` operators, written with
/// the parentheses precedence needs and no more, its value and how it
/// binds (1 a sum, 2 a product, 3 a number or a parenthesis); `None` when
/// the value would overflow.
fn arithmetic(rng: &mut ChaCha8Rng, size: usize) -> Option<(String, i64, u8)> {
    if size == 0 || rng.random_range(0..4) == 0 {
        let number = rng.random_range(0..=120);
        return Some((number.to_string(), number, 3));
    }
    let (a, x, left) = arithmetic(rng, size / 2)?;
    let (b, y, right) = arithmetic(rng, size / 2)?;
    let wrap = |text: String, binds: u8, needs: u8| match binds < needs {
        true => format!("({text})"),
        false => text,
    };
    Some(match rng.random_range(0..3) {
        0 => (format!("{a}+{}", wrap(b, right, 2)), x.checked_add(y)?, 1),
        1 => (format!("{a}-{}", wrap(b, right, 2)), x.checked_sub(y)?, 1),
        _ => (
            format!("{}*{}", wrap(a, left, 2), wrap(b, right, 3)),
            x.checked_mul(y)?,
            2,
        ),
    })
}

#[test]
fn calculator() {
    let input = |rng: &mut ChaCha8Rng, n: usize| loop {
        if let Some((text, value, _)) = arithmetic(rng, n.min(12)) {
            return json!({ "S": text, "expected": value });
        }
    };
    sweep("calculator", 1832, SMALL, input, |x, out| {
        assert_eq!(out["output"], json!([int(x, "expected")]), "{x}");
        let length = x["S"].as_str().map(str::len);
        assert_eq!(out["pos"].as_u64(), length.map(|l| l as u64), "{x}");
        assert_eq!(out.get("a"), None, "locals are not reported: {out}");
    });
}

#[test]
fn fibonacci() {
    // k from 0 to 90 (F(92) is the last below 2^63).
    let input = |rng: &mut ChaCha8Rng, n: usize| json!({ "k": rng.random_range(0..=n.min(90)) });
    sweep("fibonacci", 1808, SMALL, input, |x, out| {
        let k = int(x, "k");
        let (mut a, mut b) = (0i64, 1i64);
        for _ in 0..k {
            (a, b) = (b, a + b);
        }
        assert_eq!(int(out, "fib"), a, "{x}");
    });
}

#[test]
fn fib_recursive() {
    // k up to 12: the recursion makes about 2 F(k + 1) calls.
    let input = |rng: &mut ChaCha8Rng, n: usize| json!({ "k": rng.random_range(0..=n.min(12)) });
    sweep("fib_recursive", 1810, SMALL, input, |x, out| {
        let k = int(x, "k");
        let (mut a, mut b) = (0i64, 1i64);
        for _ in 0..k {
            (a, b) = (b, a + b);
        }
        assert_eq!(int(out, "fib"), a, "{x}");
        // The parameter is a local of FIB: never reported.
        assert_eq!(out.get("m"), None, "{x}");
    });
}

#[test]
fn quicksort() {
    // Few distinct values, so that equal keys meet the pivot.
    let input = |rng: &mut ChaCha8Rng, n: usize| json!({ "A": ints_in(rng, n, -5, 9) });
    sweep("quicksort", 1811, SMALL, input, |x, out| {
        assert_eq!(ints(out, "A"), sorted(&ints(x, "A")), "{x}");
        // Every name but `A` and `n` is a local, never reported.
        let members: Vec<&String> = out.as_object().unwrap().keys().collect();
        assert_eq!(members, ["A", "engine", "n", "output", "steps"], "{x}");
    });
}

#[test]
fn union_find() {
    // About n random edges among n vertices, loops and repeats included.
    let input = |rng: &mut ChaCha8Rng, n: usize| {
        let top = n as i64 - 1;
        json!({ "n": n, "U": ints_in(rng, n, 0, top), "V": ints_in(rng, n, 0, top) })
    };
    sweep("union_find", 1812, SMALL, input, |x, out| {
        let n = int(x, "n") as usize;
        let (u, v) = (ints(x, "U"), ints(x, "V"));
        let mut parent: Vec<usize> = (0..n).collect();
        let mut joins = 0;
        for (&a, &b) in u.iter().zip(&v) {
            let (ra, rb) = (root(&parent, a as usize), root(&parent, b as usize));
            if ra != rb {
                parent[ra] = rb;
                joins += 1;
            }
        }
        assert_eq!(int(out, "joins"), joins, "{x}");
        let roots: Vec<i64> = (0..n).map(|w| root(&parent, w) as i64).collect();
        assert_eq!(ints(out, "root"), roots, "{x}");
        // Path compression: every vertex points at its root in the end.
        assert_eq!(ints(out, "parent"), roots, "{x}");
    });
}

#[test]
fn derangements() {
    // Up to 6 (265 derangements; the search visits every partial one).
    let input = |rng: &mut ChaCha8Rng, n: usize| json!({ "n": rng.random_range(0..=n.min(6)) });
    sweep("derangements", 1831, SMALL, input, |x, out| {
        let n = int(x, "n");
        // D(0) = 1, D(1) = 0, D(k) = (k - 1) (D(k - 1) + D(k - 2)).
        let (mut before, mut now) = (1i64, 0i64);
        for k in 2..=n {
            (before, now) = (now, (k - 1) * (now + before));
        }
        let expected = if n == 0 { 1 } else { now };
        assert_eq!(int(out, "count"), expected, "{x}");
    });
}

#[test]
fn hanoi() {
    // Up to 7 disks at the sizes CI runs (2^7 - 1 = 127 moves).
    let input = |rng: &mut ChaCha8Rng, n: usize| json!({ "disks": rng.random_range(0..=n.min(7)) });
    sweep("hanoi", 1809, SMALL, input, |x, out| {
        let disks = int(x, "disks");
        let tape = ints(out, "output");
        let mut pegs: [Vec<i64>; 3] = [(1..=disks).rev().collect(), vec![], vec![]];
        for step in tape.chunks(2) {
            let (from, to) = (step[0] as usize, step[1] as usize);
            let disk = pegs[from].pop().expect("a disk on the peg it leaves");
            assert!(
                pegs[to].last().is_none_or(|&top| top > disk),
                "{x}: {tape:?}"
            );
            pegs[to].push(disk);
        }
        assert_eq!(pegs[2].len() as i64, disks, "all on peg 2: {tape:?}");
        // The fewest moves there are; the solution with that many is unique.
        assert_eq!(tape.len() as i64, 2 * ((1 << disks) - 1), "{tape:?}");
        assert_eq!(int(out, "moves"), (1 << disks) - 1);
    });
}

#[test]
fn lcs() {
    let input = |rng: &mut ChaCha8Rng, n: usize| {
        let m = rng.random_range(1..=n);
        json!({ "X": ints_in(rng, m, 0, 3), "Y": ints_in(rng, n, 0, 3) })
    };
    sweep("lcs", 1810, SMALL_HEAVY, input, |x, out| {
        // Row by row: best[j] is the answer for the prefixes read so far
        // and Y[0..j).
        let (a, b) = (ints(x, "X"), ints(x, "Y"));
        let mut best = vec![0; b.len() + 1];
        for &u in &a {
            let mut next = vec![0; b.len() + 1];
            for (j, &v) in b.iter().enumerate() {
                next[j + 1] = if u == v {
                    best[j] + 1
                } else {
                    best[j + 1].max(next[j])
                };
            }
            best = next;
        }
        assert_eq!(int(out, "length"), best[b.len()], "{x}");
        assert_eq!(matrix(out, "C")[a.len()], best, "{x}");
    });
}

#[test]
fn dijkstra() {
    // Weights 0..=5 (zero included), -1 where there is no edge.
    let input = |rng: &mut ChaCha8Rng, n: usize| {
        let w: Vec<Vec<i64>> = (0..n)
            .map(|_| {
                (0..n)
                    .map(|_| {
                        if rng.random_bool(0.3) {
                            rng.random_range(0..=5)
                        } else {
                            -1
                        }
                    })
                    .collect()
            })
            .collect();
        json!({ "W": w, "s": rng.random_range(0..n) })
    };
    sweep("dijkstra", 1811, SMALL_HEAVY, input, |x, out| {
        // Relax every edge until nothing changes (Bellman-Ford).
        let (w, s) = (matrix(x, "W"), int(x, "s") as usize);
        let d = relaxed_distances(&w, s, |w| w >= 0);
        let d: Vec<i64> = d.into_iter().map(|d| d.unwrap_or(-1)).collect();
        assert_eq!(ints(out, "d"), d, "{x}");
    });
}

/// A sparse random directed graph (about `degree` edges per vertex).
fn digraph(rng: &mut ChaCha8Rng, n: usize, degree: f64) -> Vec<Vec<i64>> {
    let p = (degree / n as f64).min(1.0);
    (0..n)
        .map(|_| (0..n).map(|_| i64::from(rng.random_bool(p))).collect())
        .collect()
}

#[test]
fn bfs() {
    let input = |rng: &mut ChaCha8Rng, n: usize| {
        let a = digraph(rng, n, 2.0);
        json!({ "A": a, "s": rng.random_range(0..n) })
    };
    sweep("bfs", 1813, SMALL_HEAVY, input, |x, out| {
        // The textbook's queue, as a VecDeque.
        let (a, s) = (matrix(x, "A"), int(x, "s") as usize);
        let mut d = vec![-1i64; a.len()];
        let mut pi = vec![-1i64; a.len()];
        let mut queue = std::collections::VecDeque::from([s]);
        d[s] = 0;
        while let Some(u) = queue.pop_front() {
            for (v, &edge) in a[u].iter().enumerate() {
                if edge != 0 && d[v] == -1 {
                    (d[v], pi[v]) = (d[u] + 1, u as i64);
                    queue.push_back(v);
                }
            }
        }
        assert_eq!(ints(out, "d"), d, "{x}");
        assert_eq!(ints(out, "pi"), pi, "{x}");
    });
}

/// CLRS 22.3 with the recursion inside the neighbour loop (on frames): the
/// times and the forest of a recursive DFS written here.
#[test]
fn dfs() {
    let input = |rng: &mut ChaCha8Rng, n: usize| json!({ "A": digraph(rng, n, 1.5) });
    sweep("dfs", 1820, SMALL_HEAVY, input, |x, out| {
        fn visit(a: &[Vec<i64>], u: usize, time: &mut i64, t: &mut [Vec<i64>; 3]) {
            *time += 1;
            t[0][u] = *time;
            for v in 0..a.len() {
                if a[u][v] != 0 && t[0][v] == 0 {
                    t[2][v] = u as i64;
                    visit(a, v, time, t);
                }
            }
            *time += 1;
            t[1][u] = *time;
        }
        let a = matrix(x, "A");
        let n = a.len();
        let mut t = [vec![0; n], vec![0; n], vec![-1; n]];
        let mut time = 0;
        for s in 0..n {
            if t[0][s] == 0 {
                visit(&a, s, &mut time, &mut t);
            }
        }
        let [d, f, pi] = t;
        assert_eq!(
            (ints(out, "d"), ints(out, "f"), ints(out, "pi")),
            (d, f, pi),
            "{x}"
        );
    });
}

/// Backtracking with the recursive call inside the loop over columns and
/// a statement after it: the number of solutions, counted here by brute
/// force over permutations.
#[test]
fn n_queens() {
    let input = |_: &mut ChaCha8Rng, n: usize| json!({ "N": n.min(6) });
    sweep("n_queens", 1821, SMALL, input, |x, out| {
        fn count(n: usize, placed: &mut Vec<usize>) -> i64 {
            if placed.len() == n {
                return 1;
            }
            let row = placed.len();
            let mut total = 0;
            for col in 0..n {
                let free = (placed.iter().enumerate())
                    .all(|(r, &c)| c != col && c.abs_diff(col) != row - r);
                if free {
                    placed.push(col);
                    total += count(n, placed);
                    placed.pop();
                }
            }
            total
        }
        let n = int(x, "N") as usize;
        assert_eq!(int(out, "solutions"), count(n, &mut Vec::new()), "{x}");
    });
}

/// The root of `v` in a union-find forest.
fn root(parent: &[usize], mut v: usize) -> usize {
    while parent[v] != v {
        v = parent[v];
    }
    v
}

/// The component of every vertex, numbered in the order of their smallest
/// vertex, and their number: by union-find.
fn components(a: &[Vec<i64>]) -> (Vec<i64>, i64) {
    let mut parent: Vec<usize> = (0..a.len()).collect();
    for (u, row) in a.iter().enumerate() {
        for (v, &edge) in row.iter().enumerate() {
            if edge != 0 {
                let (ru, rv) = (root(&parent, u), root(&parent, v));
                parent[ru] = rv;
            }
        }
    }
    let mut label = vec![-1i64; a.len()];
    let mut count = 0;
    let comp = (0..a.len())
        .map(|v| {
            let r = root(&parent, v);
            if label[r] == -1 {
                label[r] = count;
                count += 1;
            }
            label[r]
        })
        .collect();
    (comp, count)
}

#[test]
fn connected_components() {
    // Sparse undirected graphs, so that several components are common.
    let input = |rng: &mut ChaCha8Rng, n: usize| {
        let p = (1.5 / n as f64).min(1.0);
        let edges: Vec<(usize, usize)> = (0..n)
            .flat_map(|u| (u + 1..n).map(move |v| (u, v)))
            .filter(|_| rng.random_bool(p))
            .collect();
        let mut a = vec![vec![0; n]; n];
        for (u, v) in edges {
            (a[u][v], a[v][u]) = (1, 1);
        }
        json!({ "A": a })
    };
    sweep(
        "connected_components",
        1812,
        SMALL_HEAVY,
        input,
        |x, out| {
            let (comp, count) = components(&matrix(x, "A"));
            assert_eq!(ints(out, "comp"), comp, "{x}");
            assert_eq!(int(out, "count"), count, "{x}");
        },
    );
}
