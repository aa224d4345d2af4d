//! A small LSP client for the tests: it runs `cnpi_lsp::serve` on a thread,
//! talks to it through pipes in the protocol's framing, and finds positions
//! in fixtures by the text written there.

use std::io::{BufReader, Write};
use std::sync::mpsc::{Receiver, channel};
use std::thread::JoinHandle;
use std::time::Duration;

use serde_json::{Value, json};

pub const URI: &str = "file:///fixture.cnpi";

/// The text of `tests/fixtures/NAME`.
pub fn fixture(name: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The LSP position (UTF-16) of the start of the `nth` (from 0) occurrence
/// of `needle` in `text`, moved `plus` characters on.
pub fn position_of(text: &str, needle: &str, nth: usize, plus: usize) -> Value {
    let offset = text
        .match_indices(needle)
        .nth(nth)
        .unwrap_or_else(|| panic!("`{needle}` occurs {} times or more", nth + 1))
        .0;
    let before = &text[..offset];
    let line = before.matches('\n').count();
    let start = before.rfind('\n').map_or(0, |i| i + 1);
    let character = text[start..offset].encode_utf16().count() + plus;
    json!({ "line": line, "character": character })
}

/// `{ textDocument, position }` at the first `needle`.
pub fn at(text: &str, needle: &str) -> Value {
    json!({ "textDocument": { "uri": URI }, "position": position_of(text, needle, 0, 0) })
}

pub struct Client {
    to_server: std::io::PipeWriter,
    incoming: Receiver<Value>,
    /// Messages received while waiting for another.
    pending: Vec<Value>,
    next_id: i64,
    server: JoinHandle<Result<(), String>>,
}

impl Client {
    /// A server that has not been initialized.
    pub fn uninitialized() -> Client {
        let (server_input, to_server) = std::io::pipe().expect("a pipe");
        let (from_server, server_output) = std::io::pipe().expect("a pipe");
        let server = std::thread::spawn(move || cnpi_lsp::serve(server_input, server_output));
        let (sender, incoming) = channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(from_server);
            while let Ok(Some(message)) = cnpi_lsp::read_message(&mut reader) {
                if sender.send(message).is_err() {
                    return;
                }
            }
        });
        Client {
            to_server,
            incoming,
            pending: Vec::new(),
            next_id: 0,
            server,
        }
    }

    /// An initialized server.
    pub fn start() -> Client {
        let mut client = Client::uninitialized();
        let init = client.result(
            "initialize",
            json!({ "processId": null, "rootUri": null, "capabilities": {} }),
        );
        assert_eq!(init["serverInfo"]["name"], "cnpic lsp");
        client.notify("initialized", json!({}));
        client
    }

    /// An initialized server with the document `URI` open holding `text`.
    pub fn with(text: &str) -> Client {
        let mut client = Client::start();
        client.open(text);
        client
    }

    pub fn raw(&mut self, bytes: &[u8]) {
        self.to_server.write_all(bytes).expect("the server reads");
        self.to_server.flush().expect("the server reads");
    }

    pub fn send(&mut self, message: Value) {
        cnpi_lsp::write_message(&mut self.to_server, &message.to_string())
            .expect("the server reads");
    }

    pub fn notify(&mut self, method: &str, params: Value) {
        self.send(json!({ "jsonrpc": "2.0", "method": method, "params": params }));
    }

    /// The next message from the server.
    pub fn receive(&mut self) -> Value {
        if !self.pending.is_empty() {
            return self.pending.remove(0);
        }
        self.incoming
            .recv_timeout(Duration::from_secs(60))
            .expect("the server answers within a minute")
    }

    /// The next message `wanted` accepts; the others are kept for later.
    pub fn receive_where(&mut self, wanted: impl Fn(&Value) -> bool) -> Value {
        if let Some(i) = self.pending.iter().position(&wanted) {
            return self.pending.remove(i);
        }
        loop {
            let message = self
                .incoming
                .recv_timeout(Duration::from_secs(60))
                .expect("the server answers within a minute");
            if wanted(&message) {
                return message;
            }
            self.pending.push(message);
        }
    }

    /// Sends a request; the whole response (result or error).
    pub fn request(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = json!(self.next_id);
        self.send(json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }));
        self.receive_where(|m| m["id"] == id && m.get("method").is_none())
    }

    /// Sends a request that must succeed; its result.
    pub fn result(&mut self, method: &str, params: Value) -> Value {
        let response = self.request(method, params);
        assert!(response.get("error").is_none(), "{method}: {response}");
        response["result"].clone()
    }

    /// The diagnostics of the next `publishDiagnostics`.
    pub fn diagnostics(&mut self) -> Vec<Value> {
        let message = self.receive_where(|m| m["method"] == "textDocument/publishDiagnostics");
        assert_eq!(message["params"]["uri"], URI);
        message["params"]["diagnostics"]
            .as_array()
            .expect("a list")
            .clone()
    }

    /// Opens `URI` with `text`; its diagnostics.
    pub fn open(&mut self, text: &str) -> Vec<Value> {
        self.notify(
            "textDocument/didOpen",
            json!({ "textDocument": { "uri": URI, "languageId": "cnpi", "version": 1, "text": text } }),
        );
        self.diagnostics()
    }

    /// Replaces the text of `URI`; its diagnostics.
    pub fn change(&mut self, version: i32, text: &str) -> Vec<Value> {
        self.notify(
            "textDocument/didChange",
            json!({
                "textDocument": { "uri": URI, "version": version },
                "contentChanges": [{ "text": text }],
            }),
        );
        self.diagnostics()
    }

    /// The markdown of the hover at the first `needle` of `text`, if any.
    pub fn hover(&mut self, text: &str, needle: &str) -> Option<String> {
        let result = self.result("textDocument/hover", at(text, needle));
        result["contents"]["value"].as_str().map(str::to_string)
    }

    /// Closes the input; what `serve` returned.
    pub fn close(self) -> Result<(), String> {
        drop(self.to_server);
        self.server.join().expect("the server does not panic")
    }

    /// `shutdown` then `exit`; what `serve` returned.
    pub fn shut_down(mut self) -> Result<(), String> {
        assert_eq!(self.result("shutdown", Value::Null), Value::Null);
        self.notify("exit", Value::Null);
        self.server.join().expect("the server does not panic")
    }
}
