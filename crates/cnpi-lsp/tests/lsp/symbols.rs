//! Document symbols: the `env` line and the definitions.

use serde_json::json;

use crate::support::{Client, URI, fixture};

#[test]
fn the_env_and_every_def() {
    let mut client = Client::with(&fixture("bubblesort.cnpi"));
    let symbols = client.result(
        "textDocument/documentSymbol",
        json!({ "textDocument": { "uri": URI } }),
    );
    let names: Vec<&str> = symbols
        .as_array()
        .expect("a list")
        .iter()
        .map(|s| s["name"].as_str().expect("a name"))
        .collect();
    assert_eq!(
        names,
        [
            "env array",
            "COMPSWAP",
            "RSHIFT",
            "BSTEP",
            "LSHIFT",
            "RESET",
            "BUBBLESORT"
        ]
    );
}
