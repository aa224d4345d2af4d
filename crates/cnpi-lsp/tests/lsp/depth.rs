//! A document nested about as deep as the language allows (issue 45): the
//! server's main loop analyses it and its workers answer requests that walk
//! its tree, all on the compiler's large stack
//! (`cnpi::operators::STACK_BYTES`), where ordinary threads' 2 MiB
//! overflowed and took the process down.

use serde_json::json;

use crate::support::{Client, URI, at};

/// Conditions `depth` levels deep: nested brackets, a chain of `not`s
/// and a sum of `depth` terms (left-associative, so as deep).
fn deep(depth: usize) -> String {
    let nested = format!("{}P1 < 3{}", "(".repeat(depth), ")".repeat(depth));
    let nots = "not ".repeat(depth);
    let sum = vec!["P1"; depth].join(" + ");
    format!(
        "env array(P1 = 0)\n\
         def A1: cond({nested}?; NOP, NOP, NOP)\n\
         def A2: cond({nots}P1 < 3?; A1, NOP, NOP)\n\
         def MAIN: cond({sum} < 3?; A2, NOP, NOP)\n"
    )
}

#[test]
fn a_hundred_thousand_deep_nesting_is_served() {
    let depth = cnpi::operators::MAX_DEPTH - 10;
    assert!(depth >= 99_990);
    let text = deep(depth);
    let mut client = Client::start();
    let diagnostics = client.open(&text);
    let internal = diagnostics.iter().filter(|d| {
        d["message"]
            .as_str()
            .is_some_and(|m| m.contains("internal"))
    });
    assert_eq!(internal.count(), 0, "{diagnostics:?}");
    let document = json!({ "textDocument": { "uri": URI } });
    let formatting = json!({ "textDocument": { "uri": URI }, "options": { "tabSize": 2, "insertSpaces": true } });
    client.result("textDocument/formatting", formatting);
    client.result("textDocument/documentSymbol", document);
    client.result("textDocument/hover", at(&text, "A1,"));
    client.result("textDocument/definition", at(&text, "A1,"));
    // Still serving, and shut down cleanly.
    assert!(client.hover(&text, "NOP").is_some());
    assert_eq!(client.shut_down(), Ok(()));
}
