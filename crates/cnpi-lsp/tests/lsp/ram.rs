//! A `ram` program's data: hover shows a declared name's shape and what a
//! size measures; completion offers the declared names.

use serde_json::{Value, json};

use crate::support::{Client, URI, fixture};

#[test]
fn the_fixture_is_a_clean_ram_program() {
    assert_eq!(
        Client::start().open(&fixture("ram.cnpi")),
        Vec::<Value>::new()
    );
}

#[test]
fn hover_on_a_data_name_shows_its_shape() {
    let text = fixture("ram.cnpi");
    let mut client = Client::with(&text);
    let mut shown = |needle: &str| client.hover(&text, needle).expect("a hover");
    assert_eq!(
        shown("A[j] +"),
        "`A`: an input array of length `n`\n\n```cnpi\ninput A[n]\n```"
    );
    assert!(shown("W[0]").starts_with("`W`: an input matrix of `m` × `m`\n"));
    assert!(
        shown("d[j] =").starts_with(
            "`d`: a scratch array of length `n + 1`, every element starting at `-1`\n"
        )
    );
    assert!(
        shown("D[0]")
            .starts_with("`D`: a scratch matrix of `m` × `m`, every element starting at `0`\n")
    );
    assert!(shown("t = t").starts_with("`t`: a scratch integer, starting at `0`\n"));
    assert!(shown("n:").starts_with("`n`: a size: the length of `A`\n"));
    assert!(shown("m][m]").starts_with("`m`: a size: the number of rows of `W`\n"));
}

#[test]
fn completion_offers_the_declared_names() {
    let mut client = Client::with(&fixture("ram.cnpi"));
    let items = client.result(
        "textDocument/completion",
        json!({ "textDocument": { "uri": URI }, "position": { "line": 0, "character": 0 } }),
    );
    let detail = |label: &str| {
        items
            .as_array()
            .expect("a list")
            .iter()
            .find(|item| item["label"] == label)
            .unwrap_or_else(|| panic!("{label} offered"))["detail"]
            .clone()
    };
    assert_eq!(detail("A"), "an input array of length `n`");
    assert_eq!(detail("n"), "a size: the length of `A`");
    assert_eq!(detail("t"), "a scratch integer, starting at `0`");
    for name in ["W", "d", "D", "m", "j", "i", "WRITE", "MAIN"] {
        assert!(!detail(name).is_null(), "{name}");
    }
}
