//! Hover: a combinator, an ACT, a `def`, a pointer, a combinator the file
//! defines, a diagnostic code, a diagnostic under the cursor.

use crate::support::{Client, fixture};

fn hover(fixture_name: &str, needle: &str) -> String {
    let text = fixture(fixture_name);
    let mut client = Client::with(&text);
    client
        .hover(&text, needle)
        .unwrap_or_else(|| panic!("a hover on `{needle}`"))
}

#[test]
fn a_combinator_shows_its_meaning_and_definition() {
    insta::assert_snapshot!(hover("bubblesort.cnpi", "linrec"));
}

#[test]
fn an_act_shows_its_signatures() {
    insta::assert_snapshot!(hover("bubblesort.cnpi", "MOVE"));
}

#[test]
fn a_def_shows_its_text() {
    let text = fixture("bubblesort.cnpi");
    let mut client = Client::with(&text);
    // On its use in BSTEP.
    let shown = client.hover(&text, "COMPSWAP, RSHIFT").expect("a hover");
    assert_eq!(
        shown,
        "```cnpi\ndef COMPSWAP: cond(A[P1] > A[P2]?; SWAP(P1, P2), NOP, NOP)\n```"
    );
}

#[test]
fn a_pointer_shows_its_declaration() {
    insta::assert_snapshot!(hover("bubblesort.cnpi", "P3]"));
}

#[test]
fn a_combinator_of_the_file_shows_its_member_of_the_family() {
    let text = include_str!("../../../../examples/user_combinator.cnpi");
    let mut client = Client::with(text);
    let shown = client.hover(text, "repeat(i").expect("a hover");
    insta::assert_snapshot!(shown);
}

#[test]
fn a_diagnostic_code_in_a_comment_is_explained() {
    let shown = hover("bubblesort.cnpi", "E0101");
    assert!(shown.starts_with("**E0101: unknown name**"), "{shown}");
}

#[test]
fn a_diagnostic_under_the_cursor_is_explained() {
    let shown = hover("unknown_name.cnpi", "BSTPE");
    insta::assert_snapshot!(shown);
}

#[test]
fn half_typed_text_still_answers() {
    let text = fixture("half_typed.cnpi");
    let mut client = Client::with(&text);
    let shown = client.hover(&text, "STEP, NOP").expect("a hover on STEP");
    assert!(shown.contains("def STEP: seq("), "{shown}");
    // Past the broken line: nothing to say, but an answer.
    assert_eq!(client.hover(&text, "<"), None);
}
