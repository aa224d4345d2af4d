//! `cnpic lsp` as an editor sees it: the binary is started as a process and
//! spoken to in JSON-RPC over its stdin and stdout (initialize, didOpen,
//! didChange with an error and its fix, hover, definition, references,
//! completion, symbols, formatting, a quick fix, an unknown request,
//! shutdown, exit).

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::Duration;

use serde_json::{Value, json};

const URI: &str = "file:///tmp/bubble.cnpi";

/// A minimal LSP client over the child's pipes.
struct Client {
    child: Child,
    stdin: ChildStdin,
    incoming: Receiver<Value>,
    /// Notifications received while waiting for something else.
    notifications: Vec<Value>,
    next_id: i64,
}

impl Client {
    fn start() -> Client {
        let mut child = Command::new(env!("CARGO_BIN_EXE_cnpic"))
            .arg("lsp")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("cnpic starts");
        let stdin = child.stdin.take().unwrap();
        let mut stdout = BufReader::new(child.stdout.take().unwrap());
        let (sender, incoming) = channel();
        std::thread::spawn(move || {
            loop {
                let mut length = None;
                loop {
                    let mut line = String::new();
                    if stdout.read_line(&mut line).unwrap_or(0) == 0 {
                        return;
                    }
                    let line = line.trim_end();
                    if line.is_empty() {
                        break;
                    }
                    if let Some(n) = line.strip_prefix("Content-Length: ") {
                        length = n.parse::<usize>().ok();
                    }
                }
                let mut body = vec![0; length.expect("a Content-Length header")];
                stdout.read_exact(&mut body).expect("a whole message");
                let message = serde_json::from_slice(&body).expect("JSON");
                if sender.send(message).is_err() {
                    return;
                }
            }
        });
        Client {
            child,
            stdin,
            incoming,
            notifications: Vec::new(),
            next_id: 0,
        }
    }

    fn send(&mut self, message: Value) {
        let body = message.to_string();
        write!(self.stdin, "Content-Length: {}\r\n\r\n{body}", body.len()).unwrap();
        self.stdin.flush().unwrap();
    }

    fn receive(&mut self) -> Value {
        self.incoming
            .recv_timeout(Duration::from_secs(60))
            .expect("the server answers within a minute")
    }

    fn notify(&mut self, method: &str, params: Value) {
        self.send(json!({ "jsonrpc": "2.0", "method": method, "params": params }));
    }

    /// Sends a request and returns the whole response (result or error).
    fn request(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        self.send(json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }));
        loop {
            let message = self.receive();
            if message["id"] == json!(id) {
                return message;
            }
            self.notifications.push(message);
        }
    }

    fn result(&mut self, method: &str, params: Value) -> Value {
        let response = self.request(method, params);
        assert!(response.get("error").is_none(), "{method}: {response}");
        response["result"].clone()
    }

    /// The next diagnostics published for the document.
    fn diagnostics(&mut self) -> Vec<Value> {
        let position = self
            .notifications
            .iter()
            .position(|m| m["method"] == "textDocument/publishDiagnostics");
        let message = match position {
            Some(i) => self.notifications.remove(i),
            None => loop {
                let message = self.receive();
                if message["method"] == "textDocument/publishDiagnostics" {
                    break message;
                }
            },
        };
        assert_eq!(message["params"]["uri"], URI);
        message["params"]["diagnostics"].as_array().unwrap().clone()
    }
}

fn at(line: u32, character: u32) -> Value {
    json!({ "textDocument": { "uri": URI }, "position": { "line": line, "character": character } })
}

fn change(client: &mut Client, version: i32, text: &str) {
    client.notify(
        "textDocument/didChange",
        json!({
            "textDocument": { "uri": URI, "version": version },
            "contentChanges": [{ "text": text }],
        }),
    );
}

const FIXED: &str = "\
env array(P1 = 0, P2 = 1, P3 = 0)

def COMPSWAP: cond(A[P1] > A[P2]?; SWAP(P1, P2), NOP, NOP)
def RSHIFT:   seq(; MOVE(P1, RIGHT), MOVE(P2, RIGHT), NOP)
def BSTEP:    linrec(A[P2] != END?; COMPSWAP, RSHIFT, NOP)
def LSHIFT:   linrec(A[P1] != END?; MOVE(P1, LEFT), MOVE(P2, LEFT), NOP)
def RESET:    seq(; LSHIFT, MOVE(P3, RIGHT), NOP)
def BUBBLESORT: linrec(A[P3] ≠ END?; BSTEP, RESET, NOP)
";

#[test]
fn a_session_with_the_language_server() {
    let mut client = Client::start();
    let init = client.result(
        "initialize",
        json!({ "processId": null, "rootUri": null, "capabilities": {} }),
    );
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
    client.notify("initialized", json!({}));

    // An unknown name, after a non-ASCII operator on its line: `≠` is three
    // bytes but one UTF-16 unit.
    let broken = FIXED.replace("BSTEP, RESET", "BSTPE, RESET");
    client.notify(
        "textDocument/didOpen",
        json!({ "textDocument": { "uri": URI, "languageId": "cnpi", "version": 1, "text": broken } }),
    );
    let diagnostics = client.diagnostics();
    assert_eq!(diagnostics.len(), 1, "{diagnostics:?}");
    let error = &diagnostics[0];
    assert_eq!(error["code"], "E0101");
    assert_eq!(error["severity"], 1);
    assert!(
        error["message"].as_str().unwrap().contains("BSTPE"),
        "{error}"
    );
    assert!(
        error["message"]
            .as_str()
            .unwrap()
            .contains("help: did you mean `BSTEP`?")
    );
    let column = "def BUBBLESORT: linrec(A[P3] ≠ END?; "
        .encode_utf16()
        .count();
    assert_eq!(
        error["range"],
        json!({ "start": { "line": 7, "character": column }, "end": { "line": 7, "character": column + 5 } })
    );

    // The quick fix the help names.
    let actions = client.result(
        "textDocument/codeAction",
        json!({ "textDocument": { "uri": URI }, "range": error["range"], "context": { "diagnostics": [error] } }),
    );
    let action = &actions[0];
    assert_eq!(action["title"], "Replace with `BSTEP`");
    let edit = &action["edit"]["changes"][URI][0];
    assert_eq!(edit["newText"], "BSTEP");
    assert_eq!(edit["range"], error["range"]);

    // Hover on the diagnostic: the first paragraph of `cnpic explain E0101`.
    let hover = client.result("textDocument/hover", at(7, column as u32 + 1));
    let text = hover["contents"]["value"].as_str().unwrap();
    assert!(text.contains("E0101"), "{text}");

    // The fix: the diagnostics go away.
    change(&mut client, 2, FIXED);
    assert_eq!(client.diagnostics(), Vec::<Value>::new());

    // A definition twice: the first one is related information.
    change(
        &mut client,
        3,
        &format!("{FIXED}def RESET: seq(; NOP, NOP, NOP)\n"),
    );
    let diagnostics = client.diagnostics();
    let twice = diagnostics
        .iter()
        .find(|d| d["message"].as_str().unwrap().contains("defined twice"))
        .expect("a duplicate definition is reported");
    let related = &twice["relatedInformation"][0];
    assert_eq!(related["location"]["range"]["start"]["line"], 6);
    assert_eq!(related["message"], "first defined here");
    change(&mut client, 4, FIXED);
    assert_eq!(client.diagnostics(), Vec::<Value>::new());

    // Hover: a combinator, an ACT, a def.
    let hover = |client: &mut Client, line, character| {
        let result = client.result("textDocument/hover", at(line, character));
        result["contents"]["value"].as_str().unwrap().to_string()
    };
    let linrec = hover(&mut client, 4, 16);
    assert!(linrec.contains("linear (tail) recursion"), "{linrec}");
    assert!(
        linrec.contains("combinator linrec(a1, a2, a3):"),
        "{linrec}"
    );
    let mv = hover(&mut client, 3, 22);
    assert!(mv.contains("act MOVE(pointer, direction)"), "{mv}");
    let compswap = hover(&mut client, 4, 40);
    assert!(
        compswap.contains("def COMPSWAP: cond(A[P1] > A[P2]?; SWAP(P1, P2), NOP, NOP)"),
        "{compswap}"
    );

    // Definition and references of COMPSWAP (used on line 4).
    let definition = client.result("textDocument/definition", at(4, 40));
    assert_eq!(definition["uri"], URI);
    assert_eq!(
        definition["range"],
        json!({ "start": { "line": 2, "character": 4 }, "end": { "line": 2, "character": 12 } })
    );
    let mut params = at(2, 6);
    params["context"] = json!({ "includeDeclaration": true });
    let references = client.result("textDocument/references", params);
    let lines: Vec<&Value> = references
        .as_array()
        .unwrap()
        .iter()
        .map(|r| &r["range"]["start"]["line"])
        .collect();
    assert_eq!(lines, [&json!(2), &json!(4)]);

    // Completion: defs, ACTs, combinators, pointers.
    let completion = client.result("textDocument/completion", at(8, 0));
    let labels: Vec<&str> = completion
        .as_array()
        .unwrap()
        .iter()
        .map(|item| item["label"].as_str().unwrap())
        .collect();
    for name in ["BSTEP", "MOVE", "SWAP", "linrec", "treerec", "P3", "END"] {
        assert!(labels.contains(&name), "{name} in {labels:?}");
    }

    // Document symbols: the env and the six defs.
    let symbols = client.result(
        "textDocument/documentSymbol",
        json!({ "textDocument": { "uri": URI } }),
    );
    assert_eq!(symbols.as_array().unwrap().len(), 7, "{symbols}");

    // Formatting: the whole document, as `cnpic fmt` writes it.
    let edits = client.result(
        "textDocument/formatting",
        json!({ "textDocument": { "uri": URI }, "options": { "tabSize": 2, "insertSpaces": true } }),
    );
    let formatted = edits[0]["newText"].as_str().unwrap();
    assert_eq!(formatted, cnpi::format::format(FIXED).unwrap());
    assert!(formatted.contains("def BUBBLESORT: linrec(A[P3] != END?; BSTEP, RESET, NOP)"));
    assert!(formatted.contains("def COMPSWAP:   cond("));

    // Half-typed text: diagnostics, and the server still answers.
    change(&mut client, 5, &format!("{FIXED}def X: cond(A[P1] <"));
    let diagnostics = client.diagnostics();
    assert!(!diagnostics.is_empty());
    assert!(diagnostics.iter().all(|d| d["source"] == "cnpic"));
    let hover = client.result("textDocument/hover", at(8, 9));
    assert!(hover.is_null() || hover["contents"].is_object());
    let refused = client.request(
        "textDocument/formatting",
        json!({ "textDocument": { "uri": URI }, "options": { "tabSize": 2, "insertSpaces": true } }),
    );
    assert!(
        refused["error"]["message"]
            .as_str()
            .unwrap()
            .contains("errors")
    );

    // A request the server does not serve gets an error, not silence.
    let unknown = client.request("textDocument/rename", at(2, 6));
    assert_eq!(unknown["error"]["code"], -32601);

    assert_eq!(client.result("shutdown", Value::Null), Value::Null);
    client.notify("exit", Value::Null);
    let status = client.child.wait().unwrap();
    assert!(status.success(), "{status}");
}
