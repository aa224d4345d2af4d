//! Arrays as parameters and local arrays (language.md §5.2) on the
//! reference interpreter, from source: passing by reference, matrices,
//! `len` of a parameter and of a local array, one program on several
//! arrays, local arrays made per activation and freed at return, and the
//! checker's errors for them (E0413, E0414); a program that calls
//! itself has a local array per activation.

use super::calls::{codes, run};
use serde_json::json;

#[test]
fn a_callee_writes_the_callers_array() {
    let text = "
env ram()
input A[n]
input B[m]

def FILL(X, v):
  for i = 0 to len(X) - 1:
    X[i] = v

def MAIN():
  FILL(A, 7)
  FILL(B, -1)
";
    let result = run(text, json!({"A": [1, 2, 3], "B": [4, 5]}));
    assert_eq!(result["A"], json!([7, 7, 7]));
    assert_eq!(result["B"], json!([-1, -1]));
}

#[test]
fn matrices_pass_with_their_shape() {
    let text = "
env ram()
input W[r][c]
var t = 0
var cols = 0

def TRACE(M):
  s = 0
  for i = 0 to min(len(M), len(M[0])) - 1:
    s += M[i][i]
  return s

def MAIN():
  t = TRACE(W)
  cols = len(W[0])
";
    let result = run(text, json!({"W": [[1, 2, 3], [4, 5, 6]]}));
    assert_eq!(result["t"], json!(6));
    assert_eq!(result["cols"], json!(3));
}

#[test]
fn an_array_parameter_passes_on_and_recursion_keeps_it() {
    let text = "
env ram()
input A[n]
var total = 0

def SUM(X, lo, hi):
  if lo > hi:
    return 0
  return X[lo] + REST(X, lo, hi)

def REST(Y, lo, hi):
  return SUM(Y, lo + 1, hi)

def MAIN():
  total = SUM(A, 0, n - 1)
";
    let result = run(text, json!({"A": [3, 4, 5, 6]}));
    assert_eq!(result["total"], json!(18));
}

#[test]
fn local_arrays_are_sized_when_they_run_and_never_reported() {
    let text = "
env ram()
input A[n]
var out = 0

def REVERSED_SUM(X, k):
  var T[k + 1] = 2
  for i = 0 to k - 1:
    T[i] = X[k - 1 - i]
  s = 0
  for i = 0 to len(T) - 1:
    s += T[i] * (i + 1)
  return s

def MAIN():
  out = REVERSED_SUM(A, n) + REVERSED_SUM(A, 1)
";
    let result = run(text, json!({"A": [1, 2, 3]}));
    // T = [3, 2, 1, 2]: 3 + 4 + 3 + 8 = 18; then T = [1, 2]: 1 + 4 = 5.
    assert_eq!(result["out"], json!(23));
    let members: Vec<&String> = result.as_object().unwrap().keys().collect();
    assert!(members.iter().all(|m| !m.starts_with('_')), "{members:?}");
}

#[test]
fn a_local_array_passed_down_is_the_same_array() {
    let text = "
env ram()
input k
var total = 0

def SQUARES(L):
  for i = 0 to len(L) - 1:
    L[i] = i * i

def MAIN():
  var L[k]
  SQUARES(L)
  for i = 0 to k - 1:
    total += L[i]
";
    assert_eq!(run(text, json!({"k": 4}))["total"], json!(14));
}

#[test]
fn wrong_kinds_of_arguments_are_e0414() {
    let sum = "
env ram()
input A[n]
input W[r][c]
var total = 0
def SUM(X, k):
  s = 0
  for i = 0 to k - 1:
    s += X[i]
  return s
";
    for call in ["SUM(n, A)", "SUM(A + 1, n)", "SUM(W, n)"] {
        let text = format!("{sum}def MAIN():\n  total = {call}\n");
        assert!(
            codes(&text).contains(&"E0414"),
            "{call}: {:?}",
            codes(&text)
        );
    }
    let text = format!("{sum}def MAIN():\n  total = SUM(A, n)\n");
    assert_eq!(codes(&text), Vec::<&str>::new());
}

#[test]
fn each_activation_of_a_recursive_program_has_its_own_local_array() {
    // Each activation fills its own L with k, recurses, then reads its L
    // back: shared storage would give every level the innermost values.
    let text = "
env ram()
input n
var total = 0
def F(k):
  var L[k + 1] = k
  if k == 0:
    return 0
  below = F(k - 1)
  s = 0
  for i = 0 to len(L) - 1:
    s += L[i]
  return below + s
def MAIN():
  total = F(n)
";
    // Level j adds j * (j + 1): 2 + 6 + 12 + 20 = 40 for k = 4.
    assert_eq!(run(text, json!({"n": 4}))["total"], json!(40));
}

#[test]
fn mutual_recursion_through_a_local_array_passed_down() {
    // EVEN makes its own array and hands it to ODD, which calls EVEN
    // again before writing into it: each level's write lands in its own.
    let text = "
env ram()
input n
var total = 0
def EVEN(k):
  var L[2]
  if k == 0:
    return 0
  r = ODD(L, k - 1)
  return r + L[0] + len(L)
def ODD(X, k):
  if k == 0:
    X[0] = 100
    return 0
  r = EVEN(k - 1)
  X[0] = k
  return r
def MAIN():
  total = EVEN(n)
";
    // k = 4: EVEN(4) gets L[0] = 3 from ODD(3); EVEN(2) gets L[0] = 1;
    // EVEN(0) returns 0. Total 3 + 2 + 1 + 2 = 8.
    assert_eq!(run(text, json!({"n": 4}))["total"], json!(8));
}

#[test]
fn a_recursive_call_takes_its_callers_local_array_and_makes_its_own() {
    // Backtracking as Python writes it: each level copies the caller's
    // `used` into a local array of its own and passes that down. The
    // callee's `used` is the caller's `mine`, and its own `mine` is new.
    let text = "
env ram()
input n
var count = 0
def EXTEND(used, i, n):
  if i == n:
    return 1
  total = 0
  for v = 0 to n - 1:
    if used[v] == 0 and v != i:
      var mine[n] = 0
      for t = 0 to n - 1:
        mine[t] = used[t]
      mine[v] = 1
      total += EXTEND(mine, i + 1, n)
  return total
def MAIN():
  var none[n] = 0
  count = EXTEND(none, 0, n)
";
    // Derangements: 1, 0, 1, 2, 9, 44, 265.
    for (n, derangements) in [(1, 0), (2, 1), (3, 2), (4, 9), (5, 44), (6, 265)] {
        assert_eq!(
            run(text, json!({ "n": n }))["count"],
            json!(derangements),
            "n = {n}"
        );
    }
}

#[test]
fn a_parameter_named_after_a_file_array_is_that_array() {
    // CLRS's GREEDY-ACTIVITY-SELECTOR(s, f) hands its arrays to a helper
    // that indexes them: the entry's own statements never do.
    let text = "
env ram()
input s[n]
input f[n]
var total = 0

def ADD(k):
  total += s[k] + f[k]

def SELECTOR(s, f):
  for k = 0 to n - 1:
    ADD(k)
";
    let result = run(text, json!({"s": [1, 2], "f": [10, 20]}));
    assert_eq!(result["total"], json!(33));
}

#[test]
fn an_array_parameter_named_twice_is_e0406() {
    let text = "
env ram()
input A[n]
var total = 0
def F(A, A):
  total = A[0]
def MAIN():
  F(A, A)
";
    assert_eq!(codes(text), vec!["E0406"]);
}

#[test]
fn a_returned_call_reads_the_local_array_it_is_passed_before_it_goes() {
    // `return MEMO(F, n)`: the call reads F by reference, so F is freed
    // only after it returns (it was freed first, and MEMO wrote outside).
    let text = "
env ram()
input n
var result = 0
def MEMO(F, n):
  if F[n] >= 0:
    return F[n]
  if n <= 1:
    F[n] = n
  else:
    F[n] = MEMO(F, n - 1) + MEMO(F, n - 2)
  return F[n]
def FIB(n):
  var F[n + 1] = -1
  return MEMO(F, n)
def MAIN():
  result = FIB(n)
";
    assert_eq!(
        run(text, json!({"n": 50}))["result"],
        json!(12_586_269_025_i64)
    );
}
