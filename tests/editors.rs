//! The editor files parse, and the TextMate grammar gives every keyword of
//! the language a scope (editors/vscode).

use serde_json::Value;

fn json(path: &str) -> Value {
    let path = format!("{}/editors/vscode/{path}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).expect("the file exists");
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}"))
}

#[test]
fn vscode_files_are_json_and_agree() {
    let package = json("package.json");
    let grammar = json("syntaxes/cnpi.tmLanguage.json");
    json("language-configuration.json");
    let contributed = &package["contributes"]["grammars"][0];
    assert_eq!(contributed["scopeName"], grammar["scopeName"]);
    assert_eq!(
        package["contributes"]["languages"][0]["extensions"][0],
        ".cnpi"
    );
}

#[test]
fn the_grammar_scopes_every_keyword() {
    let grammar = json("syntaxes/cnpi.tmLanguage.json").to_string();
    for word in [
        "env",
        "state",
        "def",
        "if",
        "else",
        "while",
        "pass",
        "return",
        "and",
        "or",
        "not",
        "seq",
        "cond",
        "linrec",
        "treerec",
        "END",
        "LAST",
        "combinator",
    ] {
        assert!(
            grammar.contains(&format!("({word}|"))
                || grammar.contains(&format!("|{word}|"))
                || grammar.contains(&format!("|{word})")),
            "`{word}` has no scope"
        );
    }
}
