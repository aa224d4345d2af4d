//! `if a: if b: X` (no `else`) converts to one `cond(a and b?; ...)` where
//! every side is plain (no arithmetic, so nothing can fail); a condition
//! with arithmetic, which may fail (`12 / A[i]`), stays inside its `if`.
//! Either way the network, cached and plain, ends as the program as
//! written, errors included (`random_ram::check`).

use super::calls::inputs;
use super::random_ram::{Tally, check};

/// `12 / A[i]` fails where `A[i] == 0`: the outer `if` keeps it from
/// being evaluated there. In `failing`, the inner condition divides by
/// zero where the outer holds (`A[i] == 9`): every engine stops with the
/// same error. In `plain`, the conditions join.
#[test]
fn conditions_join_only_where_nothing_can_fail() {
    let guarded = "
env ram(i = 0)
input A[n]
var seen[n] = 0

def MAIN():
  while i < n:
    if A[i] != 0:
      if 12 / A[i] > 2:
        if A[i] % 2 == 0:
          seen[i] = A[i]
    i = i + 1
";
    let failing = "
env ram(i = 0)
input A[n]
var seen[n] = 0

def MAIN():
  while i < n:
    if A[i] > 4:
      if 12 / (A[i] - 9) < 0:
        seen[i] = 1
    i = i + 1
";
    let plain = "
env ram(i = 0)
input A[n]
var seen[n] = 0

def MAIN():
  while i < n:
    if A[i] > 0:
      if seen[i] == 0 and A[i] < 5:
        seen[i] = A[i]
    i = i + 1
";
    for (text, condition, fails) in [
        (guarded, "cond(A[i] != 0?", false),
        (failing, "cond(A[i] > 4?", true),
        (plain, "cond(A[i] > 0 and seen[i] == 0 and A[i] < 5?", false),
    ] {
        let compiled = cnpi::compile::compile("nested_if.cnpi", text, Some("MAIN"));
        let compiled = cnpi::compile::Compiled {
            program: compiled.program.expect("compiles"),
            sources: compiled.sources,
            text: text.to_string(),
        };
        let (converted, _) = cnpi::compile::convert(&compiled, "nested_if.cnpi").expect("converts");
        assert!(converted.text.contains(condition), "{}", converted.text);
        let mut cases = inputs(5, &["A"], 8);
        cases.extend(["{\"A\": [0, 4, 0]}", "{\"A\": [9, 0, 2]}"].map(String::from));
        let mut tally = Tally::default();
        check(text, &cases, &mut tally);
        assert_eq!((tally.exact, tally.runs), (1, 8), "{tally:?}");
        assert_eq!(tally.errors.is_empty(), !fails, "{tally:?}");
    }
}
