//! Completion: the names in scope, each once.

use std::collections::HashSet;

use serde_json::json;

use crate::support::{Client, URI, fixture};

fn labels(client: &mut Client) -> Vec<String> {
    let params =
        json!({ "textDocument": { "uri": URI }, "position": { "line": 0, "character": 0 } });
    client
        .result("textDocument/completion", params)
        .as_array()
        .expect("a list of items")
        .iter()
        .map(|item| item["label"].as_str().expect("a label").to_string())
        .collect()
}

#[test]
fn defs_acts_combinators_pointers_and_words() {
    let mut client = Client::with(&fixture("bubblesort.cnpi"));
    let labels = labels(&mut client);
    for name in ["BSTEP", "MOVE", "SWAP", "linrec", "treerec", "P3", "END"] {
        assert!(labels.contains(&name.to_string()), "{name} in {labels:?}");
    }
    let unique: HashSet<&String> = labels.iter().collect();
    assert_eq!(unique.len(), labels.len(), "{labels:?}");
}

#[test]
fn half_typed_text_completes_what_parsed() {
    let mut client = Client::with(&fixture("half_typed.cnpi"));
    let labels = labels(&mut client);
    assert!(labels.contains(&"STEP".to_string()), "{labels:?}");
    assert!(labels.contains(&"P2".to_string()), "{labels:?}");
}

#[test]
fn a_file_of_many_definitions_offers_each_once() {
    let text: String = std::iter::once("env array(i = 0)\n".to_string())
        .chain((0..2000).map(|k| format!("def D{k}: seq(; NOP, NOP, NOP)\n")))
        .collect();
    let mut client = Client::with(&text);
    let labels = labels(&mut client);
    assert_eq!(labels.iter().filter(|l| l.starts_with('D')).count(), 2000);
    assert_eq!(labels.iter().filter(|l| *l == "D1999").count(), 1);
}

#[test]
fn words_are_those_of_the_files_environment() {
    let has = |labels: &[String], word: &str| labels.iter().any(|l| l == word);
    let ram = labels(&mut Client::with(&fixture("ram.cnpi")));
    for word in ["END", "NOP", "MOVE", "LEFT", "RIGHT", "WRITE"] {
        assert!(has(&ram, word), "{word} in a ram file: {ram:?}");
    }
    for word in ["WHITE", "GREY", "BLACK", "OK", "LAST", "CLEAR"] {
        assert!(!has(&ram, word), "{word} in a ram file: {ram:?}");
    }
    let array = labels(&mut Client::with(&fixture("bubblesort.cnpi")));
    for word in ["OK", "LAST", "LEFT"] {
        assert!(has(&array, word), "{word} in an array file: {array:?}");
    }
    for word in ["WHITE", "WRITE", "NEXT_CHILD"] {
        assert!(!has(&array, word), "{word} in an array file: {array:?}");
    }
    let graph = labels(&mut Client::with("env graph(v = 0)\n"));
    for word in ["WHITE", "GREY", "BLACK"] {
        assert!(has(&graph, word), "{word} in a graph file: {graph:?}");
    }
}
