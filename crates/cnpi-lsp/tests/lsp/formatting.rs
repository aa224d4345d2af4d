//! Formatting: the whole document as `cnpic fmt` writes it.

use serde_json::{Value, json};

use crate::support::{Client, URI, fixture};

fn params() -> Value {
    json!({ "textDocument": { "uri": URI }, "options": { "tabSize": 2, "insertSpaces": true } })
}

#[test]
fn the_document_is_laid_out_as_cnpic_fmt_does() {
    let text = fixture("bubblesort.cnpi");
    let mut client = Client::with(&text);
    let edits = client.result("textDocument/formatting", params());
    let formatted = edits[0]["newText"].as_str().expect("a new text");
    assert_eq!(formatted, cnpi::format::format(&text).expect("it formats"));
    assert!(formatted.contains("def BUBBLESORT: linrec(A[P3] != END?; BSTEP, RESET, NOP)"));
    assert_eq!(
        edits[0]["range"]["start"],
        json!({ "line": 0, "character": 0 })
    );
    // Formatted already: no edit.
    client.change(2, formatted);
    assert_eq!(
        client.result("textDocument/formatting", params()),
        Value::Null
    );
}

#[test]
fn a_document_with_syntax_errors_is_refused() {
    let mut client = Client::with(&fixture("half_typed.cnpi"));
    let refused = client.request("textDocument/formatting", params());
    let message = refused["error"]["message"].as_str().expect("an error");
    assert!(
        message.starts_with("cannot format a file with errors"),
        "{message}"
    );
}
