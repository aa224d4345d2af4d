//! `if a: if b: X` (no `else`) converts to one `cond(a and b?; ...)` where
//! every side is plain (no arithmetic, so nothing can fail); a condition
//! with arithmetic, which may fail (`12 / A[i]`), stays inside its `if`,
//! and only the plain sides before it in an `and` join the outer one.
//! Either way the network, cached and plain, ends as the program as
//! written, errors included (`random_ram::check`).

use super::calls::inputs;
use super::random_ram::{Tally, check};

/// A loop over `A` that runs `if outer: if inner: seen[i] = value`.
fn program(outer: &str, inner: &str, value: &str) -> String {
    format!(
        "
env ram(i = 0)
input A[n]
var seen[n] = 0

def MAIN():
  while i < n:
    if {outer}:
      if {inner}:
        seen[i] = {value}
    i = i + 1
"
    )
}

/// `12 / A[i]` fails where `A[i] == 0`: the outer `if` keeps it from
/// being evaluated there (`guarded`, with a third `if` inside, which does
/// not join either). Where the inner condition divides by zero where the
/// outer holds (`A[i] == 9`), every engine stops with the same error. Plain
/// conditions join; of `seen[i] == 0 and 12 / A[i] > 2`, `seen[i] == 0`
/// joins the outer condition and the division stays inside.
#[test]
fn conditions_join_only_where_nothing_can_fail() {
    let guarded = program("A[i] != 0", "12 / A[i] > 2", "A[i]").replace(
        "        seen[i] = A[i]",
        "        if A[i] % 2 == 0:\n          seen[i] = A[i]",
    );
    for (text, condition, fails) in [
        (guarded, "cond(A[i] != 0?", false),
        (
            program("A[i] > 4", "12 / (A[i] - 9) < 0", "1"),
            "cond(A[i] > 4?",
            true,
        ),
        (
            program("A[i] > 0", "seen[i] == 0 and A[i] < 5", "A[i]"),
            "cond(A[i] > 0 and seen[i] == 0 and A[i] < 5?",
            false,
        ),
        (
            program("A[i] != 0", "seen[i] == 0 and 12 / A[i] > 2", "A[i]"),
            "cond(A[i] != 0 and seen[i] == 0?",
            false,
        ),
        (
            program("A[i] > 4", "seen[i] == 0 and 12 / (A[i] - 9) < 0", "1"),
            "cond(A[i] > 4 and seen[i] == 0?",
            true,
        ),
    ] {
        let text = text.as_str();
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
