//! `cnpic lsp` as an editor starts it: a process spoken to in JSON-RPC over
//! its stdin and stdout. The features are tested one file each in
//! `crates/cnpi-lsp/tests/lsp/`; here, one session end to end, and the
//! process's exit when the input is hostile.

use std::io::{BufReader, Read, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use serde_json::{Value, json};

const URI: &str = "file:///tmp/bubble.cnpi";

struct Server {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Server {
    fn start() -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_cnpic"))
            .arg("lsp")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("cnpic starts");
        let stdin = child.stdin.take().expect("piped");
        let stdout = BufReader::new(child.stdout.take().expect("piped"));
        Server {
            child,
            stdin,
            stdout,
        }
    }

    fn send(&mut self, message: Value) {
        cnpi_lsp::write_message(&mut self.stdin, &message.to_string()).expect("writes");
    }

    fn receive(&mut self) -> Value {
        let message = cnpi_lsp::read_message(&mut self.stdout).expect("a whole JSON message");
        message.expect("output ended")
    }

    /// Closes stdin; the exit status and stderr.
    fn finish(mut self) -> (Option<i32>, String) {
        drop(self.stdin);
        let mut stderr = String::new();
        self.child
            .stderr
            .take()
            .expect("piped")
            .read_to_string(&mut stderr)
            .expect("reads");
        (self.child.wait().expect("exits").code(), stderr)
    }
}

#[test]
fn a_session_over_stdio() {
    let mut server = Server::start();
    server.send(json!({ "jsonrpc": "2.0", "id": 1, "method": "initialize", "params": { "capabilities": {} } }));
    assert!(server.receive()["result"]["capabilities"]["hoverProvider"] == true);
    server.send(json!({ "jsonrpc": "2.0", "method": "initialized", "params": {} }));
    let text = "env array(i = 0)\ndef MAIN: linrec(i != END?; STPE, NOP, NOP)\n";
    server.send(
        json!({ "jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {
        "textDocument": { "uri": URI, "languageId": "cnpi", "version": 1, "text": text } } }),
    );
    let published = server.receive();
    assert_eq!(published["method"], "textDocument/publishDiagnostics");
    assert_eq!(published["params"]["diagnostics"][0]["code"], "E0101");
    server.send(
        json!({ "jsonrpc": "2.0", "id": 2, "method": "textDocument/hover", "params": {
        "textDocument": { "uri": URI }, "position": { "line": 1, "character": 11 } } }),
    );
    let hover = server.receive();
    assert_eq!(hover["id"], 2);
    let shown = hover["result"]["contents"]["value"]
        .as_str()
        .expect("a hover");
    assert!(shown.contains("linear (tail) recursion"), "{shown}");
    server.send(json!({ "jsonrpc": "2.0", "id": 3, "method": "shutdown" }));
    assert_eq!(server.receive()["id"], 3);
    server.send(json!({ "jsonrpc": "2.0", "method": "exit" }));
    let (status, stderr) = server.finish();
    assert_eq!(status, Some(0), "{stderr}");
}

/// Issue 23: a `Content-Length` of 2^64−1 made the server panic (exit
/// status 101). It is answered, the rest of the input is that message's
/// body, and the server ends with status 1 when the input does.
#[test]
fn a_huge_content_length_is_answered_and_the_exit_is_clean() {
    let mut server = Server::start();
    server.send(json!({ "jsonrpc": "2.0", "id": 1, "method": "initialize", "params": { "capabilities": {} } }));
    server.receive();
    write!(server.stdin, "Content-Length: 18446744073709551615\r\n\r\n").expect("writes");
    server.stdin.flush().expect("flushes");
    let answer = server.receive();
    assert_eq!(answer["error"]["code"], -32600, "{answer}");
    let (status, stderr) = server.finish();
    assert_eq!(status, Some(1), "{stderr}");
    assert_eq!(
        stderr,
        "error: cnpic lsp: the client closed the connection without `shutdown`\n"
    );
}
