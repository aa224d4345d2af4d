//! Locals (language.md §5.2): hover says a name is a local (or a
//! parameter that is one), go-to-definition leads from a use to its first
//! assignment, and completion offers the locals of the program around the
//! cursor, not those of another.

use serde_json::Value;

use crate::support::{Client, at, fixture, position_of};

#[test]
fn the_fixture_is_clean() {
    let text = fixture("procedures.cnpi");
    assert_eq!(Client::start().open(&text), Vec::<Value>::new());
}

#[test]
fn hover_shows_a_local_and_a_parameter() {
    let text = fixture("procedures.cnpi");
    let mut client = Client::with(&text);
    let local = client.hover(&text, "s += A").expect("a hover");
    assert!(local.starts_with("local `s` of `SUM`"), "{local}");
    let param = client.hover(&text, "hi:").expect("a hover");
    assert!(
        param.starts_with("parameter `hi` of `SUM`, a local"),
        "{param}"
    );
    let counter = client.hover(&text, "i]").expect("a hover");
    assert!(counter.starts_with("local `i` of `SUM`"), "{counter}");
}

#[test]
fn definition_of_a_local_is_its_first_assignment() {
    let text = fixture("procedures.cnpi");
    let mut client = Client::with(&text);
    let found = client.result("textDocument/definition", at(&text, "s\n\ndef MAIN"));
    assert_eq!(found["range"]["start"], position_of(&text, "s = 0", 0, 0));
}

#[test]
fn completion_offers_the_locals_in_scope() {
    let text = fixture("procedures.cnpi");
    let mut client = Client::with(&text);
    let labels = |client: &mut Client, needle: &str| -> Vec<String> {
        let items = client.result("textDocument/completion", at(&text, needle));
        (items.as_array().expect("a list").iter())
            .map(|item| item["label"].as_str().unwrap_or_default().to_string())
            .collect()
    };
    let inside = labels(&mut client, "s += A");
    for name in ["s", "i", "lo", "hi", "total", "A"] {
        assert!(inside.contains(&name.to_string()), "{name} in {inside:?}");
    }
    let outside = labels(&mut client, "total = SUM");
    assert!(!outside.contains(&"s".to_string()), "{outside:?}");
}

#[test]
fn hover_shows_an_array_parameter_and_its_kind() {
    let text = fixture("quicksort.cnpi");
    let mut client = Client::with(&text);
    // `A` of PARTITION is its parameter, though the file has an input `A`.
    let array = client.hover(&text, "A[j] <= x").expect("a hover");
    assert!(
        array.starts_with("array parameter `A` of `PARTITION`: the array"),
        "{array}"
    );
    let integer = client.hover(&text, "r - 1:").expect("a hover");
    assert!(
        integer.starts_with("parameter `r` of `PARTITION`, a local"),
        "{integer}"
    );
    let found = client.result("textDocument/definition", at(&text, "A[j] <= x"));
    assert_eq!(
        found["range"]["start"],
        position_of(&text, "A, p, r):\n  x", 0, 0)
    );
}

#[test]
fn a_parameter_named_after_an_input_is_a_local_of_its_program() {
    // CLRS's INSERTION-SORT(A, n) beside `input A[n]`: inside, `n` is the
    // parameter; in MAIN, the input's size.
    let text = "env ram()\ninput A[n]\n\ndef INSERTION_SORT(A, n):\n  for j = 1 to n - 1:\n    \
                A[j] = A[j - 1]\n\ndef MAIN():\n  INSERTION_SORT(A, n)\n";
    let mut client = Client::with(text);
    let inside = client.hover(text, "n - 1").expect("a hover");
    assert!(
        inside.starts_with("parameter `n` of `INSERTION_SORT`, a local"),
        "{inside}"
    );
    let outside = client.hover(text, "n)\n").expect("a hover");
    assert!(!outside.contains("a local"), "{outside}");
}
