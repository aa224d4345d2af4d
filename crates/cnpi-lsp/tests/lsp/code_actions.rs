//! Quick fixes: each diagnostic that carries a fix offers it as a code
//! action, and applying it makes the diagnostic go away.

use serde_json::{Value, json};

use crate::support::{Client, URI, fixture};

/// The byte offset of an LSP position (UTF-16 columns) in `text`.
fn offset(text: &str, position: &Value) -> usize {
    let line = position["line"].as_u64().expect("a line") as usize;
    let column = position["character"].as_u64().expect("a character") as usize;
    let start: usize = text.split_inclusive('\n').take(line).map(str::len).sum();
    let mut units = 0;
    for (i, c) in text[start..].char_indices() {
        if units >= column || c == '\n' {
            return start + i;
        }
        units += c.len_utf16();
    }
    text.len()
}

/// The one quick fix offered for the only diagnostic of `fixture_name`:
/// its title, and the text once it is applied.
fn fix(fixture_name: &str, code: &str) -> (String, String) {
    let text = fixture(fixture_name);
    let mut client = Client::start();
    let diagnostics = client.open(&text);
    let diagnostic = diagnostics
        .iter()
        .find(|d| d["code"] == code)
        .unwrap_or_else(|| panic!("{code} in {diagnostics:?}"))
        .clone();
    let actions = client.result(
        "textDocument/codeAction",
        json!({
            "textDocument": { "uri": URI },
            "range": diagnostic["range"],
            "context": { "diagnostics": [diagnostic] },
        }),
    );
    let actions = actions.as_array().expect("a list");
    assert_eq!(actions.len(), 1, "{actions:?}");
    let action = &actions[0];
    assert_eq!(action["kind"], "quickfix");
    assert_eq!(action["diagnostics"][0]["code"], code);
    let edits = action["edit"]["changes"][URI].as_array().expect("edits");
    assert_eq!(edits.len(), 1);
    let (start, end) = (
        offset(&text, &edits[0]["range"]["start"]),
        offset(&text, &edits[0]["range"]["end"]),
    );
    let new_text = edits[0]["newText"].as_str().expect("a new text");
    let fixed = format!("{}{new_text}{}", &text[..start], &text[end..]);
    // The diagnostic is gone once the fix is applied.
    let after = client.change(2, &fixed);
    assert!(after.iter().all(|d| d["code"] != code), "{after:?}");
    let title = action["title"].as_str().expect("a title").to_string();
    (title, fixed)
}

#[test]
fn did_you_mean_a_definition() {
    let (title, fixed) = fix("unknown_name.cnpi", "E0101");
    assert_eq!(title, "Replace with `BSTEP`");
    assert!(fixed.contains("linrec(A[P3] ≠ END?; BSTEP, RESET, NOP)"));
}

#[test]
fn did_you_mean_an_environment() {
    let (title, fixed) = fix("fix_env.cnpi", "E0103");
    assert_eq!(title, "Replace with `array`");
    assert!(fixed.starts_with("env array(i = 0)"));
}

#[test]
fn and_for_ampersands() {
    let (title, fixed) = fix("fix_and.cnpi", "E0002");
    assert_eq!(title, "Replace with `and`");
    assert!(fixed.contains("i != END and j != END?"));
}

#[test]
fn double_equals_to_compare() {
    let (title, fixed) = fix("fix_compare.cnpi", "E0001");
    assert_eq!(title, "Replace with `==`");
    assert!(fixed.contains("cond(A[i] == 0?"));
}

#[test]
fn a_missing_colon() {
    let (title, fixed) = fix("fix_colon.cnpi", "E0001");
    assert_eq!(title, "Insert `:`");
    assert!(fixed.contains("  while i != END:\n"));
}

#[test]
fn a_definition_passed_without_parentheses() {
    let (title, fixed) = fix("fix_parentheses.cnpi", "E0207");
    assert_eq!(title, "Replace with `STEP`");
    assert!(fixed.contains("linrec(i != END?; STEP, NOP, NOP)"));
}

#[test]
fn no_action_away_from_the_diagnostic_or_without_a_fix() {
    let text = fixture("unknown_name.cnpi");
    let mut client = Client::with(&text);
    let line_0 =
        json!({ "start": { "line": 0, "character": 0 }, "end": { "line": 0, "character": 3 } });
    let actions = client.result(
        "textDocument/codeAction",
        json!({ "textDocument": { "uri": URI }, "range": line_0, "context": { "diagnostics": [] } }),
    );
    assert_eq!(actions, json!([]));
    // E0108 (defined twice) has help but no fix.
    let text = fixture("defined_twice.cnpi");
    let diagnostics = client.change(2, &text);
    let actions = client.result(
        "textDocument/codeAction",
        json!({ "textDocument": { "uri": URI }, "range": diagnostics[0]["range"], "context": { "diagnostics": [] } }),
    );
    assert_eq!(actions, json!([]));
}
