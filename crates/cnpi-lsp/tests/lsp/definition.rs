//! Go to definition: from a use of a `def` (a call inside an expression
//! too) or of a combinator the file defines to its name; nothing for a
//! pointer. Hover on a call shows its parameters.

use serde_json::{Value, json};

use crate::support::{Client, URI, at, fixture, position_of};

fn range_of(text: &str, needle: &str, nth: usize) -> Value {
    json!({
        "start": position_of(text, needle, nth, 0),
        "end": position_of(text, needle, nth, needle.encode_utf16().count()),
    })
}

#[test]
fn a_def_is_found_from_its_use() {
    let text = fixture("bubblesort.cnpi");
    let mut client = Client::with(&text);
    let found = client.result("textDocument/definition", at(&text, "COMPSWAP, RSHIFT"));
    assert_eq!(found["uri"], URI);
    assert_eq!(found["range"], range_of(&text, "COMPSWAP", 0));
}

#[test]
fn a_combinator_of_the_file_is_found_from_its_use() {
    let text = include_str!("../../../../examples/user_combinator.cnpi");
    let mut client = Client::with(text);
    let found = client.result("textDocument/definition", at(text, "both(; OUT"));
    // The first `both` is in the comment; the second is its definition.
    assert_eq!(found["range"], range_of(text, "both", 1));
}

#[test]
fn a_pointer_has_no_definition_to_go_to() {
    let text = fixture("bubblesort.cnpi");
    let mut client = Client::with(&text);
    let found = client.result("textDocument/definition", at(&text, "P3]"));
    assert_eq!(found, Value::Null);
}

/// A `ram` program whose definitions take parameters and return values.
const CALLS: &str = "env ram(q = 0)
input A[n]
def MAIN():
  q = HALF(n)
  OUT(HALF(q) + 1)
def HALF(m):
  return m / 2
";

#[test]
fn a_def_is_found_from_a_call_inside_an_expression() {
    let mut client = Client::with(CALLS);
    let found = client.result("textDocument/definition", at(CALLS, "HALF(q)"));
    assert_eq!(found["range"], range_of(CALLS, "HALF", 2));
}

#[test]
fn hover_on_a_call_shows_the_parameters() {
    let mut client = Client::with(CALLS);
    let shown = client.hover(CALLS, "HALF(n)").expect("a hover");
    assert!(
        shown.starts_with("`HALF(m)` takes 1 argument: `m`; returns a value\n"),
        "{shown}"
    );
    let parameter = client.hover(CALLS, "m / 2").expect("a hover");
    assert!(
        parameter.starts_with("parameter `m` of `HALF`"),
        "{parameter}"
    );
}
