//! Holes (`def STEP: ?`, a sketch for `cnpic learn`): diagnosed as
//! `cnpic check` diagnoses them, described on hover, offered by
//! completion and laid out by formatting.

use serde_json::{Value, json};

use crate::support::{Client, URI, fixture};

#[test]
fn a_sketch_is_clean_as_cnpic_check_says() {
    assert_eq!(
        Client::start().open(&fixture("sketch.cnpi")),
        Vec::<Value>::new()
    );
}

#[test]
fn a_hole_is_shown_on_hover_and_offered_by_completion() {
    let text = fixture("sketch.cnpi");
    let mut client = Client::with(&text);
    let shown = client.hover(&text, "STEP, SHIFT").expect("a hover");
    assert_eq!(shown, "```cnpi\ndef STEP:  ?(A[P1] > A[P2]?)\n```");
    let items = client.result(
        "textDocument/completion",
        json!({ "textDocument": { "uri": URI }, "position": { "line": 0, "character": 0 } }),
    );
    let shift = items
        .as_array()
        .expect("a list")
        .iter()
        .find(|item| item["label"] == "SHIFT")
        .expect("SHIFT offered");
    assert_eq!(shift["detail"], "?");
}

#[test]
fn a_sketch_is_formatted_as_cnpic_fmt_does() {
    let text = fixture("sketch.cnpi");
    let mut client = Client::with(&text);
    let edits = client.result(
        "textDocument/formatting",
        json!({ "textDocument": { "uri": URI }, "options": { "tabSize": 2, "insertSpaces": true } }),
    );
    let expected = cnpi::format::format(&text).expect("a sketch formats");
    if edits.is_null() {
        assert_eq!(expected, text);
    } else {
        assert_eq!(edits[0]["newText"], expected.as_str());
    }
}

#[test]
fn a_half_typed_hole_is_diagnosed_and_the_server_goes_on() {
    let text = fixture("sketch.cnpi").replace("?(A[P1] > A[P2]?)", "?(A[P1] >");
    let mut client = Client::start();
    let diagnostics = client.open(&text);
    assert!(!diagnostics.is_empty());
    assert!(diagnostics.iter().all(|d| d["source"] == "cnpic"));
    let shown = client.hover(&text, "linrec").expect("a hover");
    assert!(shown.contains("linear (tail) recursion"), "{shown}");
}

#[test]
fn a_hole_in_a_normal_program_says_what_may_fill_it() {
    let text =
        "env ram(i = 0)\ninput A[n]\nvar t = 0\n\ndef F():\n  while ?:\n    A[?] = t\n    ?\n";
    let mut client = Client::with(text);
    let hover = |client: &mut Client, needle| client.hover(text, needle).expect("a hover");
    let condition = hover(&mut client, "?:");
    assert!(
        condition.contains("a condition: a comparison"),
        "{condition}"
    );
    let expression = hover(&mut client, "?] = t");
    assert!(expression.contains("an integer expression"), "{expression}");
    let statement = hover(&mut client, "?\n");
    assert!(
        statement.contains("a statement: an assignment"),
        "{statement}"
    );
}
