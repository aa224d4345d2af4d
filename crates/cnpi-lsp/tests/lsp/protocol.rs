//! The protocol itself (issue 23's audit): the life cycle, requests the
//! server does not serve, and hostile input, which gets the error response
//! JSON-RPC gives it while the server keeps serving.

use serde_json::{Value, json};

use crate::support::{Client, fixture};

/// After whatever came before, the server still answers a hover.
fn still_serving(client: &mut Client) {
    let text = fixture("bubblesort.cnpi");
    client.open(&text);
    let shown = client.hover(&text, "linrec").expect("a hover");
    assert!(shown.contains("linear (tail) recursion"), "{shown}");
}

/// The next error response: its code and id.
fn error(client: &mut Client) -> (Value, Value) {
    let answer = client.receive_where(|m| m.get("error").is_some());
    (answer["error"]["code"].clone(), answer["id"].clone())
}

#[test]
fn malformed_messages_get_errors_and_the_server_goes_on() {
    let cases: [(&str, &[u8], i64, Value); 7] = [
        (
            "invalid JSON",
            b"Content-Length: 5\r\n\r\n{abc}",
            -32700,
            Value::Null,
        ),
        (
            "a negative length",
            b"Content-Length: -5\r\n\r\n{\"jsonrpc\": \"2.0\", \"method\": \"x\"}",
            -32700,
            Value::Null,
        ),
        (
            "not UTF-8",
            b"Content-Length: 40\r\n\r\n{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"\xff\xfe\"}\r\n",
            -32700,
            Value::Null,
        ),
        (
            "a method that is not a string",
            b"Content-Length: 37\r\n\r\n{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":5}  ",
            -32600,
            json!(7),
        ),
        (
            "a batch",
            b"Content-Length: 2\r\n\r\n[]",
            -32600,
            Value::Null,
        ),
        (
            "no Content-Length",
            b"Content-Type: x\r\n\r\n",
            -32700,
            Value::Null,
        ),
        (
            "a header line without end",
            &[b'X'; 10_000],
            -32700,
            Value::Null,
        ),
    ];
    for (what, bytes, code, id) in cases {
        let mut client = Client::start();
        client.raw(bytes);
        if what == "a header line without end" {
            client.raw(b"\r\n\r\n");
        }
        assert_eq!(error(&mut client), (json!(code), id), "{what}");
        still_serving(&mut client);
        client.shut_down().unwrap_or_else(|e| panic!("{what}: {e}"));
    }
}

/// lsp-server's reader took the length on trust: 2^64−1 panicked, 4·10^9
/// aborted, 2·10^9 allocated 2 GB before reading a byte.
#[test]
fn a_huge_content_length_is_answered_before_any_body() {
    for length in ["18446744073709551615", "4000000000", "2000000000"] {
        let mut client = Client::start();
        client.raw(format!("Content-Length: {length}\r\n\r\n").as_bytes());
        let answer = client.receive();
        assert_eq!(answer["error"]["code"], -32600, "{length}: {answer}");
        assert_eq!(answer["id"], Value::Null);
        let message = answer["error"]["message"].as_str().expect("a message");
        assert!(message.contains(length), "{message}");
        // Everything after is that message's body; the input ends.
        let ended = client.close();
        assert_eq!(
            ended,
            Err("the client closed the connection without `shutdown`".to_string())
        );
    }
}

#[test]
fn requests_before_initialize_are_refused() {
    let mut client = Client::uninitialized();
    let refused = client.request("textDocument/hover", json!({}));
    assert_eq!(refused["error"]["code"], -32002);
    client.result("initialize", json!({ "capabilities": {} }));
    let again = client.request("initialize", json!({ "capabilities": {} }));
    assert_eq!(again["error"]["code"], -32600);
}

#[test]
fn the_capabilities() {
    let mut client = Client::uninitialized();
    let init = client.result("initialize", json!({ "capabilities": {} }));
    let capabilities = &init["capabilities"];
    for provider in [
        "hoverProvider",
        "definitionProvider",
        "referencesProvider",
        "completionProvider",
        "documentSymbolProvider",
        "documentFormattingProvider",
        "codeActionProvider",
    ] {
        assert!(!capabilities[provider].is_null(), "{provider}: {init}");
    }
    assert_eq!(capabilities["textDocumentSync"], 1);
}

#[test]
fn unknown_methods_bad_parameters_and_unopened_documents() {
    let mut client = Client::start();
    let unknown = client.request("textDocument/rename", json!({}));
    assert_eq!(unknown["error"]["code"], -32601);
    let invalid = client.request("textDocument/hover", json!({ "nonsense": true }));
    assert_eq!(invalid["error"]["code"], -32602);
    let unopened = client.request(
        "textDocument/hover",
        json!({ "textDocument": { "uri": "file:///elsewhere.cnpi" }, "position": { "line": 0, "character": 0 } }),
    );
    assert_eq!(unopened["error"]["code"], -32803);
    still_serving(&mut client);
}

#[test]
fn shutdown_then_exit_ends_well_and_exit_alone_does_not() {
    let mut client = Client::start();
    client.result("shutdown", Value::Null);
    let late = client.request("textDocument/hover", json!({}));
    assert_eq!(late["error"]["code"], -32600);
    client.notify("exit", Value::Null);
    // `shut_down` sends both; here they were sent by hand.
    let mut abrupt = Client::start();
    abrupt.notify("exit", Value::Null);
    assert_eq!(
        abrupt.close(),
        Err("the client sent `exit` without `shutdown`".to_string())
    );
    assert_eq!(Client::start().shut_down(), Ok(()));
}
