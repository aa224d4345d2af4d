//! What one request may build (issue 29, item 8): a legal document of
//! tens of thousands of definitions gets answers of at most
//! [`cnpi_lsp::MAX_ITEMS`] items, each saying what it left out, and its
//! diagnostics mark a bounded number of places. Before, `documentSymbol`
//! listed every definition (a 29 MB answer for 110k, 1.31 GB to build it)
//! and the E0504 listing every root marked each one.

use serde_json::{Value, json};

use crate::support::{Client, URI, at};
use cnpi_lsp::MAX_ITEMS;

/// `count` definitions, each calling `LEAF` three times: `count` roots.
fn many(count: usize) -> String {
    let mut text = String::from("env array(i = 0)\ndef LEAF: MOVE(i, RIGHT)\n");
    for k in 0..count {
        text.push_str(&format!("def D{k}: seq(; LEAF, LEAF, LEAF)\n"));
    }
    text
}

#[test]
fn answers_about_a_document_of_many_definitions_are_bounded() {
    let count = 3 * MAX_ITEMS;
    let text = many(count);
    let mut client = Client::start();
    let diagnostics = client.open(&text);

    // One E0504 naming the first and last roots, marking those only.
    let e0504: Vec<&Value> = (diagnostics.iter())
        .filter(|d| d["code"] == "E0504")
        .collect();
    assert_eq!(e0504.len(), 1, "{diagnostics:?}");
    let message = e0504[0]["message"].as_str().expect("a message");
    assert!(
        message.contains(&format!("… {} more …", count - 6)),
        "{message}"
    );
    assert!(message.len() < 1000, "{message}");
    let places = e0504[0]["relatedInformation"]
        .as_array()
        .map_or(0, Vec::len);
    assert!(places <= 6, "{places} places marked");

    // The symbols: the env, LEAF and the first definitions, then one that
    // counts the rest.
    let symbols = client.result(
        "textDocument/documentSymbol",
        json!({ "textDocument": { "uri": URI } }),
    );
    let symbols = symbols.as_array().expect("a list");
    assert_eq!(symbols.len(), MAX_ITEMS + 1);
    assert_eq!(symbols[2]["name"], "D0");
    let left_out = count + 2 - MAX_ITEMS;
    assert_eq!(
        symbols[MAX_ITEMS]["name"],
        format!("… {left_out} more definitions, not listed")
    );

    // Completion: the built-in names kept, the list marked incomplete.
    let completion = client.result(
        "textDocument/completion",
        json!({ "textDocument": { "uri": URI }, "position": { "line": 0, "character": 0 } }),
    );
    assert_eq!(completion["isIncomplete"], true, "{completion:.200}");
    let items = completion["items"].as_array().expect("items");
    assert_eq!(items.len(), MAX_ITEMS);
    for name in ["linrec", "MOVE", "LEAF"] {
        assert!(items.iter().any(|i| i["label"] == name), "{name} offered");
    }

    // References of a definition called 3 × count times.
    let mut params = at(&text, "LEAF:");
    params["context"] = json!({ "includeDeclaration": true });
    let references = client.result("textDocument/references", params);
    assert_eq!(references.as_array().expect("a list").len(), MAX_ITEMS);
}

#[test]
fn a_document_of_few_definitions_is_answered_whole() {
    let text = many(10);
    let mut client = Client::with(&text);
    let completion = client.result(
        "textDocument/completion",
        json!({ "textDocument": { "uri": URI }, "position": { "line": 0, "character": 0 } }),
    );
    let items = completion.as_array().expect("a complete list, as an array");
    assert!(items.iter().any(|i| i["label"] == "D9"));
    let mut params = at(&text, "LEAF:");
    params["context"] = json!({ "includeDeclaration": true });
    let references = client.result("textDocument/references", params);
    assert_eq!(references.as_array().expect("a list").len(), 31);
}
