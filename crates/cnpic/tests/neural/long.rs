//! ACTs too long for an applier row (E1104 before) cut into steps through
//! hidden registers: every engine ends alike (`random_ram::check`), with
//! the error the ACT as written stops with, on seeded random inputs where
//! indices fall outside their arrays and reads are END.

use cnpi::combinatorize::{ROOM, numbers};
use cnpi::program::{Body, Stmt};

use super::calls::inputs;
use super::random_ram::{Tally, check};

/// `e` wrapped into `0..=n`, the long way the random programs write it.
fn wrap(e: &str) -> String {
    format!("(({e}) % (n + 1) + n + 1) % (n + 1)")
}

/// The most numbers some ACT of `text` as written takes.
fn longest(text: &str) -> usize {
    fn most(stmts: &[Stmt]) -> usize {
        (stmts.iter())
            .map(|stmt| match stmt {
                Stmt::Act(app) => numbers(&app.act),
                Stmt::If {
                    then, otherwise, ..
                } => most(then).max(most(otherwise)),
                Stmt::While { body, .. } => most(body),
                _ => 0,
            })
            .max()
            .unwrap_or(0)
    }
    let program = super::compile_text("long.cnpi", text);
    (program.defs.iter())
        .map(|def| match &def.body {
            Body::Normal(body) => most(body),
            _ => 0,
        })
        .max()
        .unwrap_or(0)
}

/// Checks `text`, whose longest ACT does not fit in a row, on `inputs`.
fn runs(text: &str, inputs: &[String]) -> Tally {
    assert!(longest(text) > ROOM, "an ACT too long to test\n{text}");
    let mut tally = Tally::default();
    check(text, inputs, &mut tally);
    assert_eq!((tally.exact, tally.runs), (1, inputs.len()), "{tally:?}");
    tally
}

/// Writes, swaps, `SET`s and `OUT`s too long, in a loop and a branch,
/// whose places fall outside their arrays and whose values read END: the
/// place of a write is checked before its value is evaluated, as written.
#[test]
fn long_acts_run_in_steps_and_fail_where_written() {
    let (i, j) = (wrap("i"), wrap("j"));
    let value = format!(
        "((t - W[(j % p + p) % p][(k % q + q) % q]) + (B[{j}] * 2 - (t + i + j + k + 7) / 3)) - W[(k % p + p) % p][(i % q + q) % q]"
    );
    let text = format!(
        "
env ram(i = 0, j = 1, k = 2, c = 0)
input A[n]
input W[p][q]
var t = 3
var B[n + 1] = 1

def MAIN():
  while c < 3:
    B[{i}] = {value}
    k = ({value}) % 5
    if B[{j}] + B[{i}] + B[({i} + {j}) % (n + 1)] > 2 * (W[0][0] + W[0][0] + W[0][0]):
      SWAP(B[{i}], B[({j} + {i} + 1) % (n + 1)])
    OUT({value})
    i = i + 1
    j = j + 2
    c = c + 1
  OUT(A[n - 1] + {value})
  B[i + 3] = A[n - 6] + {value}
"
    );
    let mut inputs = inputs(31, &["A"], 7);
    inputs.extend([r#"{"A": []}"#, r#"{"A": [4, -1, 2]}"#].map(String::from));
    for input in &mut inputs {
        input.insert_str(input.len() - 1, r#", "W": [[1, -2], [3, 4]]"#);
    }
    let tally = runs(&text, &inputs);
    // `A[n - 1]` is END where `n == 0`; where `0 < n < 6`, `B[i + 3]` is
    // outside `B`, which the write finds before `A[n - 6]` reads END.
    assert!(tally.errors.contains_key("E0706"), "{tally:?}");
    assert!(tally.errors.contains_key("E0702"), "{tally:?}");
}

/// A long value returned, a long argument to a call with parameters and to
/// a state call, and a long write after a call in its value.
#[test]
fn long_arguments_and_returns_run_in_steps() {
    let (i, x) = (wrap("i"), wrap("x"));
    let sum = format!("A[{i}] + A[{x}] + A[{i}] * 2 + A[{x}] * 3 + A[{i}] - A[{x}]");
    let text = format!(
        "
env ram(i = 0, d = 0, x = 0)
state(d, x)
input A[n]
var s = 0
var B[n + 1] = 0

def MAIN():
  s = F({sum}, 2)
  REC(2, {sum})
  B[{i}] = F(1, i) + {sum}

def F(v, a):
  if a <= 0:
    return v
  return F({sum} + v, a - 1)

def REC():
  if d > 0:
    OUT(x)
    REC(d - 1, {sum})
"
    );
    let tally = runs(&text, &inputs(32, &["A"], 5));
    // An empty `A` is END in arithmetic.
    assert!(tally.errors.contains_key("E0706"), "{tally:?}");
}
