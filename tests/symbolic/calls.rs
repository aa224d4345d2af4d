//! Calls with parameters and results (language.md §5.1) on the reference
//! interpreter, from source: values returned through expressions, registers
//! saved and put back, memory shared, operands evaluated once and left to
//! right, deep recursion on the heap, and the checker's errors.

use cnpi::diagnostic::{Diagnostic, codes};
use cnpi::exec::{Options, Trace};
use cnpi::symbolic;
use serde_json::{Value, json};

/// The diagnostics' codes of compiling `text`.
pub(crate) fn codes(text: &str) -> Vec<&'static str> {
    let compilation = cnpi::compile::compile("calls.cnpi", text, None);
    compilation.diagnostics.iter().map(|d| d.code.0).collect()
}

/// Runs `text` with `--symbolic` on `input`, writing the trace to `trace`
/// if given.
fn try_run(
    text: &str,
    input: Value,
    trace: Option<&mut dyn std::io::Write>,
) -> Result<Value, Diagnostic> {
    let compilation = cnpi::compile::compile("calls.cnpi", text, None);
    assert!(
        compilation.diagnostics.is_empty(),
        "{:?}",
        compilation.diagnostics
    );
    let program = compilation.program.expect("no errors");
    let layout = cnpi::env::Declarations::of(&program);
    let state = cnpi::env::read_input(&layout, &input.to_string()).expect("valid input");
    let options = Options {
        max_steps: 100_000_000,
        trace: trace.map(Trace::to),
        limits: Default::default(),
    };
    symbolic::run(&program, state, options).map(|outcome| outcome.to_json("symbolic"))
}

/// Runs `text` with `--symbolic` on `input`: the JSON of the final state.
pub(crate) fn run(text: &str, input: Value) -> Value {
    try_run(text, input, None).expect("runs without error")
}

const FIB: &str = "
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

#[test]
fn fib_returns_through_an_expression() {
    let (mut a, mut b) = (0, 1);
    for k in 0..16 {
        let result = run(FIB, json!({ "k": k }));
        assert_eq!(result["fib"], json!(a), "F({k})");
        (a, b) = (b, a + b);
    }
    // Worked out by hand: MAIN's assignment, then per FIB(2) its `if` and
    // `return`, and the same for FIB(1) and FIB(0).
    assert_eq!(run(FIB, json!({ "k": 2 }))["steps"], json!(7));
}

#[test]
fn ackermann_nests_a_call_in_an_argument() {
    let text = "
env ram()
input a
input b
var result = 0

def MAIN():
  result = ACK(a, b)

def ACK(m, k):
  if m == 0:
    return k + 1
  if k == 0:
    return ACK(m - 1, 1)
  return ACK(m - 1, ACK(m, k - 1))
";
    let ack = |m: i64, k: i64| run(text, json!({ "a": m, "b": k }))["result"].clone();
    assert_eq!(ack(0, 4), json!(5));
    assert_eq!(ack(1, 3), json!(5));
    assert_eq!(ack(2, 3), json!(9));
    assert_eq!(ack(3, 3), json!(61));
}

const QUICKSORT: &str = "
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

#[test]
fn quicksort_uses_the_pivot_partition_returns() {
    let mut seed: u64 = 27;
    for length in [0, 1, 2, 5, 9, 16] {
        let values: Vec<i64> = (0..length)
            .map(|_| {
                seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                ((seed >> 33) % 20) as i64 - 5
            })
            .collect();
        let result = run(QUICKSORT, json!({ "A": values }));
        let mut sorted = values.clone();
        sorted.sort_unstable();
        assert_eq!(result["A"], json!(sorted), "{values:?}");
        // `p` and `r` are new-name parameters: locals, never reported;
        // the register `q` is put back after each call.
        assert_eq!(result.get("p"), None);
        assert_eq!(result["q"], json!(0));
    }
}

#[test]
fn find_set_compresses_paths_through_a_write() {
    // Union by linking roots, then FIND_SET on every element: each parent
    // becomes the root.
    let text = "
env ram(k = 0)
input U[m]
input V[m]
input P[n]
var parent[n] = 0
var roots = 0

def MAIN():
  k = 0
  while k < n:
    parent[k] = k
    k = k + 1
  k = 0
  while k < m:
    if FIND_SET(U[k]) != FIND_SET(V[k]):
      parent[FIND_SET(U[k])] = FIND_SET(V[k])
    k = k + 1
  k = 0
  while k < n:
    if FIND_SET(k) == k:
      roots = roots + 1
    k = k + 1

def FIND_SET(x):
  if parent[x] != x:
    parent[x] = FIND_SET(parent[x])
  return parent[x]
";
    let result = run(
        text,
        json!({ "P": [0, 0, 0, 0, 0, 0, 0], "U": [0, 1, 2, 4, 0], "V": [1, 2, 3, 5, 3] }),
    );
    assert_eq!(result["roots"], json!(3));
    let parent: Vec<i64> = serde_json::from_value(result["parent"].clone()).expect("ints");
    // {0, 1, 2, 3}, {4, 5}, {6}: after the last round every parent is a root.
    for (x, &p) in parent.iter().enumerate() {
        assert_eq!(parent[p as usize], p, "parent[{x}] = {p} is a root");
    }
    assert_eq!(parent[0], parent[3]);
    assert_eq!(parent[4], parent[5]);
    assert_eq!(parent[6], 6);
}

#[test]
fn operands_are_evaluated_once_left_to_right() {
    let text = "
env ram()
var t = 1
var calls = 0
var before = 0
var after = 0

def MAIN():
  OUT(NEXT() * 10 + NEXT())
  before = t + BUMP(5)
  after = BUMP(1) + t
  if t > 100 and NEXT() > 0:
    pass
  OUT(calls)

def NEXT():
  calls = calls + 1
  return calls

def BUMP(d):
  t = t + d
  return 0
";
    let result = run(text, json!({}));
    // 1 * 10 + 2; `t` read before BUMP changes it, then after; the
    // right side of a false `and` is not evaluated.
    assert_eq!(result["output"], json!([12, 2]));
    assert_eq!(result["before"], json!(1));
    assert_eq!(result["after"], json!(7));
}

#[test]
fn a_call_saves_every_register_and_shares_memory() {
    let text = "
env ram(i = 5, j = 7)
var seen = 0
var total = 0

def MAIN():
  SET_ALL(1)
  total = i + j

def SET_ALL(v):
  i = v
  j = v
  seen = i + j
";
    let result = run(text, json!({}));
    assert_eq!(result["seen"], json!(2));
    assert_eq!(result["total"], json!(12));
    // A parameter with a new name is a local of SET_ALL: not reported.
    assert_eq!(result.get("v"), None);
}

#[test]
fn a_bare_return_ends_the_call() {
    let text = "
env ram()
input x

def MAIN():
  CLAMP(x)
  OUT(x)

def CLAMP(v):
  while 0 == 0:
    if v > 3:
      OUT(3)
      return
    OUT(v)
    v = v + 1
";
    assert_eq!(
        run(text, json!({ "x": 1 }))["output"],
        json!([1, 2, 3, 3, 1])
    );
}

#[test]
fn deep_recursion_does_not_use_the_rust_stack() {
    let text = "
env ram()
input k
var depth = 0

def MAIN():
  depth = DOWN(k)

def DOWN(m):
  if m == 0:
    return 0
  return DOWN(m - 1) + 1
";
    assert_eq!(run(text, json!({ "k": 100_000 }))["depth"], json!(100_000));
}

#[test]
fn the_checker_diagnoses_calls_that_cannot_work() {
    let missing = "
env ram()
input x
var y = 0
def MAIN():
  y = ABS(x)
def ABS(v):
  if v < 0:
    return 0 - v
";
    assert_eq!(codes(missing), ["E0407"]);
    let while_only = "
env ram()
input x
var y = 0
def MAIN():
  y = F(x)
def F(v):
  while v > 0:
    return v
";
    assert_eq!(codes(while_only), ["E0407"]);
    let both_branches = "
env ram()
input x
var y = 0
def MAIN():
  y = F(x)
def F(v):
  if v > 0:
    return v
  else:
    return 0 - v
";
    assert!(codes(both_branches).is_empty());
    let arity = "
env ram()
input x
def MAIN():
  F(x, x)
  OUT(F())
def F(v):
  return v
";
    assert_eq!(codes(arity), ["E0405", "E0405"]);
    let applier = "
env ram()
var y = 0
def STEP: NOP
def MAIN():
  y = STEP()
";
    assert_eq!(codes(applier), ["E0407"]);
    // A comparison stands as a value (language.md §5.2): 1 or 0.
    let bool_value = "
env ram()
input x
def MAIN():
  OUT(F(x))
def F(v):
  return v > 0
";
    assert_eq!(codes(bool_value), [] as [&str; 0]);
    assert_eq!(run(bool_value, json!({"x": 3}))["output"], json!([1]));
    let endless = "
env ram()
input x
def MAIN():
  OUT(F(x))
def F(v):
  return F(v - 1)
";
    assert_eq!(codes(endless), ["E0505"]);
}

#[test]
fn the_trace_shows_parameters_returned_values_and_locals() {
    let mut trace = Vec::new();
    try_run(FIB, json!({ "k": 2 }), Some(&mut trace)).expect("runs");
    let trace = String::from_utf8(trace).expect("text");
    let lines: Vec<&str> = trace.lines().collect();
    assert_eq!(
        lines,
        [
            "MAIN: WRITE(fib, FIB(k))",
            "  FIB(m = 2)",
            "  FIB: if c=0",
            "  FIB: return FIB(m - 1) + FIB(m - 2)",
            "    FIB(m = 1)",
            "    FIB: if c=1",
            "    FIB: return m",
            "    FIB returns 1 · locals m = 1",
            "    FIB(m = 0)",
            "    FIB: if c=1",
            "    FIB: return m",
            "    FIB returns 0 · locals m = 0",
            "  FIB returns 1 · locals m = 2",
        ]
    );
}

#[test]
fn a_call_that_ends_without_return_traces_its_locals_where_it_ends() {
    let text = "
env ram()
input x
var r = 0

def F(k):
  if k > 0:
    F(k - 1)
  r = r + k

def MAIN():
  F(x)
";
    let mut trace = Vec::new();
    try_run(text, json!({ "x": 1 }), Some(&mut trace)).expect("runs");
    let trace = String::from_utf8(trace).expect("text");
    let ends: Vec<&str> = trace.lines().filter(|l| l.contains("returns")).collect();
    // The inner call ends first, each at its own depth; MAIN, which has no
    // locals, traces no end.
    let expected = ["    F returns · locals k = 0", "  F returns · locals k = 1"];
    assert_eq!(ends, expected, "{trace}");
}

#[test]
fn a_round_that_writes_what_is_there_never_finishes() {
    // `j = 0` and `total = total + 0` write, but change nothing: the loop
    // is stopped at its second test, not after the step budget.
    let text = "
env ram(i = 0, j = 0)
input A[n]
var total = 0

def MAIN():
  while i < n:
    j = 0
    total = total + 0
";
    let error = try_run(text, json!({ "A": [1, 2] }), None).expect_err("never finishes");
    assert_eq!(error.code, codes::E0701);
    assert!(
        error.message.contains("never finishes"),
        "{}",
        error.message
    );
}

#[test]
fn calls_in_a_loop_test_mutual_recursion_and_a_return_inside_a_loop() {
    let text = "
env ram(i = 0, k = 0)
input A[n]
var s = 0

def MAIN():
  while COUNT_BELOW(i) < 3:
    i = i + 1
  s = EVEN(6) * 10 + ODD(7)
  k = FIRST_NEG()
  OUT(i)
  OUT(s)
  OUT(k)

def COUNT_BELOW(x):
  k = 0
  s = 0
  while k < n:
    if A[k] < x:
      s = s + 1
    k = k + 1
  return s

def EVEN(m):
  if m == 0:
    return 1
  return ODD(m - 1)

def ODD(m):
  if m == 0:
    return 0
  return EVEN(m - 1)

def FIRST_NEG():
  k = 0
  while k < n:
    if A[k] < 0:
      return k
    k = k + 1
  return 0 - 1
";
    let result = run(text, json!({ "A": [5, -1, 2, 0, 7] }));
    // Three values below 3 first at i = 3; EVEN(6) = 1, ODD(7) = 1;
    // FIRST_NEG shares the registers (no parameters), so `k` is its index.
    assert_eq!(result["output"], json!([3, 11, 1]));
    assert_eq!(result["k"], json!(1));
}
