//! Calls with parameters and results (language.md §5.1) on the network:
//! the network with its caches, the plain networks (`--no-cache`), the
//! combinatory form interpreted and the programs as written
//! (`--symbolic`) end alike (`random_ram::check`) on seeded random inputs,
//! for values returned through expressions, calls nested in arguments and
//! in conditions (with `and`/`or` that short-circuit them), recursion that
//! returns values, mutual recursion, a bare `return` inside a loop and
//! memory changed by the calls whose values are used.

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::random_ram::{Tally, check};

/// Random inputs of `members`: each an array of `0..=most` elements in
/// `-5..=9`, or the integer `0..=most` (a name ending in `#`).
fn inputs(seed: u64, members: &[&str], most: i64) -> Vec<String> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    (0..6)
        .map(|_| {
            let fields: Vec<String> = (members.iter())
                .map(|member| match member.strip_suffix('#') {
                    Some(name) => format!("\"{name}\": {}", rng.random_range(0..=most)),
                    None => {
                        let length = rng.random_range(0..=most);
                        let values: Vec<String> = (0..length)
                            .map(|_| rng.random_range(-5..=9_i64).to_string())
                            .collect();
                        format!("\"{member}\": [{}]", values.join(", "))
                    }
                })
                .collect();
            format!("{{{}}}", fields.join(", "))
        })
        .collect()
}

/// Checks `text` on the inputs and that it ran every time.
fn agrees(text: &str, inputs: &[String]) -> Tally {
    let mut tally = Tally::default();
    check(text, inputs, &mut tally);
    assert_eq!(
        (tally.exact, tally.on_frames, tally.runs),
        (1, 1, inputs.len()),
        "{tally:?}"
    );
    tally
}

#[test]
fn recursion_returns_values_through_expressions() {
    let fib = "
env ram()
input k
var fib = 0

def MAIN():
  fib = FIB(k)

def FIB(m):
  if m < 2:
    return m
  return FIB(m - 1) + FIB(m - 2)
";
    let tally = agrees(fib, &inputs(1, &["k#"], 12));
    assert!(tally.errors.is_empty(), "{tally:?}");
}

#[test]
fn calls_nest_in_arguments() {
    let ackermann = "
env ram()
input a
input b
var result = 0

def MAIN():
  result = ACK(a % 3, b)

def ACK(m, k):
  if m == 0:
    return k + 1
  if k == 0:
    return ACK(m - 1, 1)
  return ACK(m - 1, ACK(m, k - 1))
";
    let tally = agrees(ackermann, &inputs(2, &["a#", "b#"], 4));
    assert!(tally.errors.is_empty(), "{tally:?}");
}

#[test]
fn quicksort_uses_the_pivot_partition_returns() {
    let quicksort = "
env ram(q = 0, x = 0, i = 0, j = 0)
input A[n]

def MAIN():
  QUICKSORT(0, n - 1)

def QUICKSORT(p, r):
  if p < r:
    q = PARTITION(p, r)
    QUICKSORT(p, q - 1)
    QUICKSORT(q + 1, r)

def PARTITION(p, r):
  x = A[r]
  i = p - 1
  j = p
  while j < r:
    if A[j] <= x:
      i = i + 1
      SWAP(A[i], A[j])
    j = j + 1
  SWAP(A[i + 1], A[r])
  return i + 1
";
    agrees(quicksort, &inputs(3, &["A"], 12));
}

#[test]
fn calls_in_conditions_and_memory_they_change() {
    let union_find = "
env ram(k = 0)
input U[m]
input V[m]
var parent[10] = 0
var joins = 0

def MAIN():
  k = 0
  while k < 10:
    parent[k] = k
    k = k + 1
  k = 0
  while k < m and k < n:
    if FIND_SET(U[k] % 10) != FIND_SET(V[k] % 10):
      parent[FIND_SET(U[k] % 10)] = FIND_SET(V[k] % 10)
      joins = joins + 1
    k = k + 1

def FIND_SET(x):
  if parent[x] != x:
    parent[x] = FIND_SET(parent[x])
  return parent[x]
";
    let text = union_find.replace("input V[m]", "input V[n]");
    let tally = agrees(&text, &inputs(4, &["U", "V"], 9));
    assert!(tally.errors.len() <= 1, "{tally:?}");
}

#[test]
fn short_circuits_mutual_recursion_and_returns_in_loops() {
    let misc = "
env ram(i = 0, t = 0)
input A[n]
var s = 0
var c = 0
var firstneg = -1

def MAIN():
  s = SUM(0) * 2 - SUM(1)
  if n > 0 and EVEN(A[0] * A[0]) == 1:
    c = c + 1
  if n == 0 or ODD(A[n - 1] + 5) == 1:
    c = c + 10
  i = 0
  while i < n and POSITIVE(A[i]) == 1:
    i = i + 1
  firstneg = FIRSTNEG()
  SCAN(0)
  t = A[0] + SUM(0)
  OUT(SUM(n - 1) - A[n - 1])

def SUM(from):
  if from >= n:
    return 0
  return A[from] + SUM(from + 1)

def EVEN(v):
  if v == 0:
    return 1
  return ODD(v - 1)

def ODD(v):
  if v == 0:
    return 0
  return EVEN(v - 1)

def POSITIVE(v):
  if v > 0:
    return 1
  return 0

def FIRSTNEG():
  i = 0
  while i < n:
    if A[i] < 0:
      return i
    i = i + 1
  return -1

def SCAN(from):
  i = from
  while i < n:
    if A[i] == A[from] + 1:
      c = c + 100
      return
    i = i + 1
  if from < n:
    SCAN(from + 1)
";
    let tally = agrees(misc, &inputs(5, &["A"], 7));
    // `A[0]` of an empty array is END in arithmetic: the same error on
    // every engine.
    assert!(tally.errors.keys().all(|code| code == "E0706"), "{tally:?}");
}
