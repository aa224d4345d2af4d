//! Find references: every use of a `def`, with or without its declaration.

use serde_json::{Value, json};

use crate::support::{Client, at, fixture};

fn lines(client: &mut Client, text: &str, needle: &str, declaration: bool) -> Vec<u64> {
    let mut params = at(text, needle);
    params["context"] = json!({ "includeDeclaration": declaration });
    let found = client.result("textDocument/references", params);
    found
        .as_array()
        .expect("a list")
        .iter()
        .map(|location| location["range"]["start"]["line"].as_u64().expect("a line"))
        .collect()
}

#[test]
fn the_uses_of_a_def_and_its_declaration() {
    let text = fixture("bubblesort.cnpi");
    let mut client = Client::with(&text);
    assert_eq!(lines(&mut client, &text, "COMPSWAP", true), [3, 5]);
    assert_eq!(lines(&mut client, &text, "COMPSWAP", false), [5]);
    assert_eq!(lines(&mut client, &text, "RESET, NOP", true), [7, 8]);
}

#[test]
fn a_combinator_of_the_file_is_referenced_where_applied() {
    let text = include_str!("../../../../examples/user_combinator.cnpi");
    let mut client = Client::with(text);
    assert_eq!(lines(&mut client, text, "both(; OUT", true), [9, 20, 21]);
}

#[test]
fn a_pointer_has_no_references_listed() {
    let text = fixture("bubblesort.cnpi");
    let mut client = Client::with(&text);
    assert_eq!(lines(&mut client, &text, "P3]", true), Vec::<u64>::new());
    let mut params = at(&text, "P3]");
    params["context"] = json!({ "includeDeclaration": true });
    assert_eq!(
        client.result("textDocument/references", params),
        Value::Array(Vec::new())
    );
}
