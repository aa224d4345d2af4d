//! The procedures of language.md §5.2 on the reference interpreter, from
//! source: locals per activation, `for` with `break` and `continue`,
//! `elif`, compound and parallel assignment, truth values, the built-ins,
//! several results, characters; and the checker's errors for them.

use super::calls::{codes, run};
use serde_json::json;

const PARSER: &str = "
env ram()
input S[n]
var pos = 0
var value = 0

def PARSE_EXPR():
  if S[pos] == '(':
    pos += 1
    PARSE_EXPR()
    a = value
    op = S[pos]
    pos += 1
    PARSE_EXPR()
    b = value
    pos += 1
    if op == '+':
      value = a + b
    elif op == '-':
      value = a - b
    else:
      value = a * b
  else:
    value = S[pos] - '0'
    pos += 1
";

#[test]
fn each_activation_keeps_its_locals() {
    let result = run(PARSER, json!({"S": "((2+3)*(4-1))"}));
    assert_eq!(result["value"], json!(15));
    assert_eq!(result["pos"], json!(13));
    // Locals are never reported.
    for local in ["a", "b", "op"] {
        assert_eq!(result.get(local), None, "{result}");
    }
    let result = run(PARSER, json!({"S": "(9-(2*(1+3)))"}));
    assert_eq!(result["value"], json!(1));
}

#[test]
fn for_loops_count_as_clrs_says() {
    let text = "
env ram()
input k
var up = 0
var down = 0
var after = 0
var empty = 0

def MAIN():
  for i = 1 to k:
    up = up * 10 + i
  after = i
  for j = k downto 1:
    down = down * 10 + j
  for e = 5 to 3:
    empty = 1
  empty = empty * 100 + e
";
    let result = run(text, json!({"k": 4}));
    assert_eq!(result["up"], json!(1234));
    assert_eq!(result["down"], json!(4321));
    assert_eq!(result["after"], json!(5));
    assert_eq!(result["empty"], json!(5));
}

#[test]
fn break_and_continue_act_on_the_innermost_loop() {
    let text = "
env ram()
input A[n]
var out = 0
var rounds = 0

def MAIN():
  for i = 0 to n - 1:
    rounds += 1
    if A[i] < 0:
      continue
    if A[i] == 0:
      break
    for j = 0 to 9:
      if j == 2:
        break
      out = out * 10 + A[i]
  out = out * 100 + i
";
    let result = run(text, json!({"A": [1, -5, 2, 0, 7]}));
    // 1 1 (j = 0, 1), skip -5, 2 2, stop at 0 with i = 3.
    assert_eq!(result["out"], json!(112203));
    assert_eq!(result["rounds"], json!(4));
}

#[test]
fn assignments_compound_and_parallel() {
    let text = "
env ram()
input A[n]
var a = 1
var b = 2

def MAIN():
  a, b = b, a
  A[0], A[n - 1] = A[n - 1], A[0]
  A[1] += 10
  A[2] *= a + b
  A[2] -= 1
  A[3] %= 4
  A[3] /= 1
";
    let result = run(text, json!({"A": [1, 2, 3, 7, 5]}));
    assert_eq!(result["a"], json!(2));
    assert_eq!(result["b"], json!(1));
    assert_eq!(result["A"], json!([5, 12, 8, 3, 1]));
}

#[test]
fn truth_values_and_builtins() {
    let text = "
env ram()
input A[n]
var found = false
var big = 0
var small = 0
var span = 0
var size = 0

def MAIN():
  found = A[0] == 3 and not A[1] > 9
  big = max(A[0], A[1], A[2])
  small = min(A[2], A[0]) + abs(A[1] - A[0])
  span = abs(0 - 7) + true
  size = len(A)
  if size:
    size += 100
  while not false:
    break
";
    let result = run(text, json!({"A": [3, 8, 1]}));
    assert_eq!(result["found"], json!(1));
    assert_eq!(result["big"], json!(8));
    assert_eq!(result["small"], json!(1 + 5));
    assert_eq!(result["span"], json!(8));
    assert_eq!(result["size"], json!(103));
}

#[test]
fn several_results() {
    let text = "
env ram()
input x
input y
var q = 0
var r = 0
var s = 0

def DIVMOD(a, b):
  if b == 0:
    return 0, 0
  return a / b, a % b

def MAIN():
  q, r = DIVMOD(x, y)
  s, s = DIVMOD(r, 2)
";
    let result = run(text, json!({"x": 17, "y": 5}));
    assert_eq!(
        (&result["q"], &result["r"], &result["s"]),
        (&json!(3), &json!(2), &json!(0))
    );
}

#[test]
fn calls_run_in_place_around_builtins() {
    // `BUMP()` runs before `min` is computed, and the `t` read is the one
    // before it.
    let text = "
env ram()
var t = 1
var got = 0

def BUMP():
  t = t + 10
  return t

def MAIN():
  got = t + BUMP() * 100 + min(t, 5)
";
    assert_eq!(run(text, json!({}))["got"], json!(1 + 1100 + 5));
}

#[test]
fn the_checker_diagnoses_the_procedures() {
    let unassigned =
        "env ram()\ninput A[n]\ndef MAIN():\n  if n > 0:\n    best = A[0]\n  OUT(best)\n";
    assert_eq!(codes(unassigned), ["E0409"]);
    let outside = "env ram()\ndef MAIN():\n  break\n";
    assert_eq!(codes(outside), ["E0410"]);
    let moved = "env ram()\ndef MAIN():\n  for i = 0 to 3:\n    i += 1\n";
    assert_eq!(codes(moved), ["E0411"]);
    let counts = "env ram()\ndef F():\n  return 1, 2\ndef MAIN():\n  a, b, c = F()\n";
    assert_eq!(codes(counts), ["E0412"]);
    let word = "env ram()\ndef MAIN():\n  for i = 0 until 3:\n    pass\n";
    assert_eq!(codes(word), ["E0009"]);
    let shared = "env ram(a = 0)\ninput S[n]\nvar p = 0\ndef P():\n  if p < n:\n    a = S[p]\n    p += 1\n    P()\n    OUT(a)\n";
    assert_eq!(codes(shared), ["W0103"]);
    // The same program with `a` a local: no warning, and each activation
    // prints its own.
    let local = shared.replace("env ram(a = 0)", "env ram()");
    assert_eq!(codes(&local), [] as [&str; 0]);
    let out = run(&local, json!({"S": [1, 2, 3]}));
    assert_eq!(out["output"], json!([3, 2, 1]));
    let unknown = "env ram()\ndef MAIN():\n  OUT(x)\n";
    let compilation = cnpi::compile::compile("u.cnpi", unknown, None);
    let help = compilation.diagnostics[0].help.clone().unwrap_or_default();
    assert!(help.contains("var x = 0"), "{help}");
}

#[test]
fn several_results_used_as_one_value_are_only_e0412() {
    let text = "
env ram()
input k
var total = 0

def MAIN():
  total = F(k)

def F(m):
  return m, m + 1
";
    assert_eq!(codes(text), ["E0412"]);
}

#[test]
fn a_parameter_named_after_a_file_integer_is_a_local_that_hides_it() {
    // CLRS's INSERTION-SORT(A, n) and COUNTING-SORT(A, B, n, k) beside
    // `input A[n]` and `input k`: inside, `n` and `k` are the parameters
    // (here given other values), while `len(A)` is still the file's size.
    let text = "
env ram()
input A[n]
input k
var seen = 0
var sizes = 0

def PREFIX_SORT(A, n):
  for j = 1 to n - 1:
    key = A[j]
    i = j - 1
    while i >= 0 and A[i] > key:
      A[i + 1] = A[i]
      i -= 1
    A[i + 1] = key
  return len(A)

def COUNT_BELOW(A, k):
  c = 0
  for i = 0 to len(A) - 1:
    if A[i] < k:
      c += 1
  return c

def MAIN():
  sizes = PREFIX_SORT(A, 3)
  seen = COUNT_BELOW(A, k + 1)
";
    let result = run(text, json!({"A": [9, 4, 7, 1, 0], "k": 4}));
    assert_eq!(
        result["A"],
        json!([4, 7, 9, 1, 0]),
        "only the first 3 sorted"
    );
    assert_eq!(result["sizes"], json!(5));
    assert_eq!(result["seen"], json!(3), "below k + 1 = 5: 4, 1, 0");
    assert_eq!(result["n"], json!(5));
    assert_eq!(result["k"], json!(4));
}

#[test]
fn a_parameter_named_after_a_definition_is_e0406() {
    let text = "
env ram()
input A[n]
def MAIN():
  SHOW(n)
def SHOW(MAIN):
  OUT(MAIN)
";
    assert_eq!(codes(text)[0], "E0406");
}

#[test]
fn heap_procedures_may_be_called_left_and_right_in_ram() {
    // CLRS 6.1's LEFT(i) and RIGHT(i) hide the directions in their file.
    let text = "
env ram()
input A[n]
def LEFT(i):
  return 2 * i + 1
def RIGHT(i):
  return 2 * i + 2
def MAX_HEAPIFY(A, i, n):
  l = LEFT(i)
  r = RIGHT(i)
  largest = i
  if l < n and A[l] > A[largest]:
    largest = l
  if r < n and A[r] > A[largest]:
    largest = r
  if largest != i:
    A[i], A[largest] = A[largest], A[i]
    MAX_HEAPIFY(A, largest, n)
def HEAPSORT(A, n):
  for i = n / 2 - 1 downto 0:
    MAX_HEAPIFY(A, i, n)
  for i = n - 1 downto 1:
    A[0], A[i] = A[i], A[0]
    MAX_HEAPIFY(A, 0, i)
def MAIN():
  HEAPSORT(A, n)
";
    let result = run(text, json!({"A": [4, 1, 3, 2, 16, 9, 10, 14, 8, 7]}));
    assert_eq!(result["A"], json!([1, 2, 3, 4, 7, 8, 9, 10, 14, 16]));
    let moved = "env ram(i = 3)\ninput A[n]\ndef LEFT(k):\n  return 2 * k + 1\n\
                 def MAIN():\n  MOVE(i, LEFT)\n";
    assert_eq!(
        codes(moved),
        vec!["E0205"],
        "LEFT is no longer a direction there"
    );
}
