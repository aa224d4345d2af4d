//! Diagnostics: what `cnpic check` reports, published on open and on every
//! change, at most fifty at a time, and a document too large to analyse.

use serde_json::{Value, json};

use crate::support::{Client, URI, at, fixture, position_of};

#[test]
fn an_unknown_name_after_a_non_ascii_operator() {
    let text = fixture("unknown_name.cnpi");
    let mut client = Client::start();
    let diagnostics = client.open(&text);
    assert_eq!(diagnostics.len(), 1, "{diagnostics:?}");
    let error = &diagnostics[0];
    assert_eq!(error["code"], "E0101");
    assert_eq!(error["severity"], 1);
    assert_eq!(error["source"], "cnpic");
    assert_eq!(
        error["message"],
        "unknown name `BSTPE`\nnot defined in this file or the `array` environment\nhelp: did you mean `BSTEP`?"
    );
    // `≠` is three bytes but one UTF-16 unit.
    assert_eq!(
        error["range"],
        json!({ "start": position_of(&text, "BSTPE", 0, 0), "end": position_of(&text, "BSTPE", 0, 5) })
    );
    assert_eq!(error["range"]["start"]["character"], 37);
}

#[test]
fn a_fix_clears_them_and_a_close_too() {
    let mut client = Client::start();
    assert_eq!(client.open(&fixture("unknown_name.cnpi")).len(), 1);
    assert_eq!(
        client.change(2, &fixture("bubblesort.cnpi")),
        Vec::<Value>::new()
    );
    assert_eq!(client.change(3, &fixture("unknown_name.cnpi")).len(), 1);
    client.notify(
        "textDocument/didClose",
        json!({ "textDocument": { "uri": URI } }),
    );
    assert_eq!(client.diagnostics(), Vec::<Value>::new());
}

#[test]
fn the_first_definition_is_related_information() {
    let text = fixture("defined_twice.cnpi");
    let mut client = Client::start();
    let diagnostics = client.open(&text);
    let twice = diagnostics
        .iter()
        .find(|d| d["code"] == "E0108")
        .expect("a duplicate definition is reported");
    let related = &twice["relatedInformation"][0];
    assert_eq!(related["location"]["uri"], URI);
    assert_eq!(
        related["location"]["range"]["start"],
        position_of(&text, "STEP", 0, 0)
    );
    assert_eq!(related["message"], "first defined here");
}

#[test]
fn half_typed_text_is_diagnosed_from_cnpic() {
    let diagnostics = Client::start().open(&fixture("half_typed.cnpi"));
    assert!(!diagnostics.is_empty());
    assert!(diagnostics.iter().all(|d| d["source"] == "cnpic"));
}

/// Issue 23: a 10 MB document sent 250,000 diagnostics in one
/// notification. At most fifty are published, as `cnpic check` prints,
/// and one more counts the others, placed where the first of them is.
#[test]
fn at_most_fifty_and_a_count_of_the_others() {
    let text = "def X: cond(A[i] = 0?; NOP, NOP, NOP)\n".repeat(120);
    let diagnostics = Client::start().open(&text);
    assert_eq!(diagnostics.len(), 51);
    assert!(diagnostics[..50].iter().all(|d| d["code"] == "E0001"));
    let count = &diagnostics[50];
    assert_eq!(count["severity"], 3);
    assert_eq!(
        count["message"],
        "... and 70 more not shown (70 errors, 0 warnings): run `cnpic check` to see them"
    );
    assert_eq!(count["range"]["start"]["line"], 50);
}

/// Issue 23: a document over the bound is not analysed; it gets E1501, and
/// requests on it fail with the same words.
#[test]
fn a_document_too_large_is_refused_with_e1501() {
    let text = format!("# {}\n", "x".repeat(cnpi_lsp::MAX_DOCUMENT));
    let mut client = Client::start();
    let diagnostics = client.open(&text);
    assert_eq!(diagnostics.len(), 1, "{diagnostics:?}");
    assert_eq!(diagnostics[0]["code"], "E1501");
    let message = diagnostics[0]["message"].as_str().expect("a message");
    assert!(
        message.contains(&format!("is {} bytes", text.len())),
        "{message}"
    );
    let refused = client.request("textDocument/hover", at(&text, "x"));
    assert_eq!(refused["error"]["code"], -32803, "{refused}");
    // A smaller text is analysed again.
    assert_eq!(
        client.change(2, &fixture("bubblesort.cnpi")),
        Vec::<Value>::new()
    );
}
