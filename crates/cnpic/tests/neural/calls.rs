//! Calls with parameters and results (language.md §5.1) on the network:
//! the network with its caches, the plain networks (`--no-cache`), the
//! combinatory form interpreted and the programs as written
//! (`--symbolic`) end alike (`random_ram::check`) on seeded random inputs,
//! for calls nested in arguments and in conditions (with `and`/`or` that
//! short-circuit them), recursion that returns values, mutual recursion, a
//! bare `return` inside a loop and memory changed by the calls whose values
//! are used.

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::random_ram::{Tally, check};

/// Random inputs of `members`: each an array of `0..=most` elements in
/// `-5..=9`, or the integer `0..=most` (a name ending in `#`).
pub(super) fn inputs(seed: u64, members: &[&str], most: i64) -> Vec<String> {
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

/// Recursion returning values, calls nested in arguments and an `else`
/// around them: powers by repeated squaring. (FIB, quicksort with
/// PARTITION and union-find are `examples/ram`, tested against oracles.)
#[test]
fn calls_nest_in_arguments() {
    let power = "
env ram()
input a
input b
var result = 0

def MAIN():
  result = POWER(a % 4, MAX(b, POWER(1, b) - 1))

def POWER(x, e):
  if e == 0:
    return 1
  if e % 2 == 0:
    return SQUARE(POWER(x, e / 2))
  else:
    return x * POWER(x, e - 1)

def SQUARE(y):
  return y * y

def MAX(x, y):
  if x > y:
    return x
  return y
";
    let tally = agrees(power, &inputs(2, &["a#", "b#"], 12));
    assert!(tally.errors.is_empty(), "{tally:?}");
}

/// Calls in a `while` test and in a condition, changing the memory the
/// loop and the rest of the condition read.
#[test]
fn calls_in_conditions_and_memory_they_change() {
    let take = "
env ram(i = 0)
input A[n]
var used = 0
var sum = 0

def MAIN():
  while i < n and TAKE(i) > 0:
    sum = sum + A[i]
    i = i + 1
  if TAKE(0) + TAKE(n - 1) != used:
    OUT(used)
  OUT(sum)

def TAKE(k):
  if k < 0 or k >= n:
    return 0
  used = used + 1
  A[k] = A[k] - 1
  return A[k] + 1
";
    let tally = agrees(take, &inputs(4, &["A"], 9));
    assert!(tally.errors.is_empty(), "{tally:?}");
}

#[test]
fn short_circuits_mutual_recursion_and_returns_in_loops() {
    let misc = "
env ram(i = 0, t = 0)
input A[n]
var s = 0
var c = 0
var last = -1

def MAIN():
  s = SUM(0) * 2 - SUM(1)
  if n > 0 and FEMALE(A[0] * A[0] % 9) > 3:
    c = c + 1
  if n == 0 or MALE((A[n - 1] + 5) % 9) < 3:
    c = c + 10
  i = 0
  while i < n and POSITIVE(A[i]) == 1:
    i = i + 1
  last = LAST_OF(A[0])
  SCAN(0)
  t = A[0] + SUM(0)
  OUT(SUM(n - 1) - A[n - 1])

def SUM(from):
  if from >= n:
    return 0
  return A[from] + SUM(from + 1)

def FEMALE(v):
  if v == 0:
    return 1
  return v - MALE(FEMALE(v - 1))

def MALE(v):
  if v == 0:
    return 0
  return v - FEMALE(MALE(v - 1))

def POSITIVE(v):
  if v > 0:
    return 1
  return 0

def LAST_OF(v):
  i = n - 1
  while i > 0:
    if A[i] == v:
      return i
    i = i - 1
  return 0

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

/// Found by the random `ram` sweep (seed 28): with a call in a write's
/// value, the program as written evaluates the value before the write
/// checks its place, so arithmetic on END in the value (E0706) comes
/// before the write outside the array (E0702). The network's `WRITE`
/// checks its place first; the conversion now evaluates the value into
/// a hidden register before it.
#[test]
fn a_value_after_a_call_fails_before_its_write() {
    let text = "
env ram(i = 0, c = 0)
input A[n]
var M[3][n + 1] = 0

def MAIN():
  A[c + 1] = F(0) - (M[2][i + 1] + 2)

def F(a):
  return 1
";
    let inputs = [r#"{"A": []}"#, r#"{"A": [5]}"#, r#"{"A": [1, 2]}"#].map(String::from);
    let tally = agrees(text, &inputs);
    // `{"A": []}`: E0706 before E0702; `{"A": [5]}`: the write is outside.
    assert_eq!(tally.errors.get("E0706"), Some(&1), "{tally:?}");
    assert_eq!(tally.errors.get("E0702"), Some(&1), "{tally:?}");
}

/// The two shapes once refused with E0807, on the network: memory read as
/// a side of a comparison (maybe END) before a call that writes it, and
/// values held across a call without arguments (which shares the
/// registers) to a program that holds values itself, recursion included.
#[test]
fn values_held_across_calls_that_change_them() {
    let bump = "
env ram()
input A[n]
var bigger = 0

def MAIN():
  if A[0] < BUMP(0) and A[n - 1] >= BUMP(n - 1):
    bigger = 1
  if A[n] == BUMP(0):
    bigger = bigger + 10

def BUMP(i):
  if i < 0:
    return 0
  A[i] = A[i] + 1
  return A[i]
";
    let tally = agrees(bump, &inputs(6, &["A"], 4));
    // `A[0] = ...` with `A` empty: E0702, as written.
    assert!(tally.errors.keys().all(|code| code == "E0702"), "{tally:?}");
    let count = "
env ram(i = 0, x = 0)
input A[n]
var s = 0

def MAIN():
  s = A[i] + COUNT() * 2 + i
  OUT(s + x)

def COUNT():
  if i >= n:
    return 0
  i = i + 1
  x = x + 1
  return A[i - 1] + COUNT()
";
    let tally = agrees(count, &inputs(7, &["A"], 5));
    assert!(tally.errors.keys().all(|code| code == "E0706"), "{tally:?}");
}
