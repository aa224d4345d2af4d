//! The wire: LSP's base protocol (`Content-Length` headers, a blank line,
//! then a JSON body) read and written with bounds.
//!
//! The server reads the framing itself rather than through lsp-server's
//! reader, which sizes its buffer from the `Content-Length` before reading a
//! byte (2^64−1 panics, 4·10^9 aborts, 2·10^9 takes 2 GB) and ends the
//! connection on the first message it cannot read. Here a header line is at
//! most [`MAX_HEADER_LINE`] bytes and a body at most [`MAX_MESSAGE`]; a body
//! over the bound is answered at once and skipped without being kept. Every
//! message that cannot be read gets the error response JSON-RPC gives it
//! ([`Incoming::Malformed`]: a parse error, or an invalid request with the
//! request's id when it has one) and the reader goes on. A header block
//! whose length is unusable (negative, not a number, missing) leaves the
//! body's end unknown: the reader then skips lines until one holds a
//! `Content-Length` header and starts again from there.

use std::io::{self, BufRead, Read, Write};
use std::sync::mpsc::SyncSender;

use lsp_server::{ErrorCode, Message};
use serde_json::{Value, json};

/// The largest body read: a document at the bound of
/// [`crate::document::MAX_DOCUMENT`] fits even with every character
/// escaped.
pub const MAX_MESSAGE: u64 = 64 << 20;

/// The longest header line kept; a longer one is read past and dropped.
const MAX_HEADER_LINE: usize = 4096;

/// What the reader hands the server.
#[derive(Debug)]
pub enum Incoming {
    Message(Message),
    /// A message that could not be read, and the error response it gets.
    Malformed(Value),
}

/// What one header block announced.
#[derive(Debug, PartialEq)]
enum Frame {
    Body(Vec<u8>),
    /// A header block with no usable `Content-Length`: why.
    Unusable(String),
    /// A body longer than the bound, of this many bytes, not yet read.
    TooLarge(u64),
}

/// Reads messages from `input` and hands them to `deliver` until the input
/// ends or `deliver` returns `false`.
pub fn read_all(input: impl Read, mut deliver: impl FnMut(Incoming) -> bool) {
    let mut input = io::BufReader::new(input);
    while let Ok(Some(frame)) = read_frame(&mut input, MAX_MESSAGE) {
        let incoming = match frame {
            Frame::Body(body) => classify(&body),
            Frame::Unusable(why) => {
                Incoming::Malformed(error(Value::Null, ErrorCode::ParseError, why))
            }
            Frame::TooLarge(length) => {
                let answer = error(
                    Value::Null,
                    ErrorCode::InvalidRequest,
                    format!(
                        "a message of {length} bytes is over the limit of {MAX_MESSAGE} bytes; it is skipped"
                    ),
                );
                if !deliver(Incoming::Malformed(answer)) {
                    return;
                }
                // Skipped in a bounded buffer; the stream stays in step.
                match io::copy(&mut (&mut input).take(length), &mut io::sink()) {
                    Ok(skipped) if skipped == length => continue,
                    _ => return,
                }
            }
        };
        if !deliver(incoming) {
            return;
        }
    }
}

/// The next header block of `input` and its body; `None` at the end.
fn read_frame(input: &mut impl BufRead, limit: u64) -> io::Result<Option<Frame>> {
    // `None` until a `Content-Length` header; then its value or what is wrong with it.
    let mut length: Option<Result<u64, String>> = None;
    let mut started = false;
    let mut line = Vec::new();
    loop {
        if !read_line(input, &mut line)? {
            return Ok(None);
        }
        let Some(text) = line.strip_suffix(b"\n") else {
            // A line over the bound: not a header.
            length = None;
            started = true;
            continue;
        };
        let text = text.strip_suffix(b"\r").unwrap_or(text);
        if text.is_empty() {
            if !started {
                continue;
            }
            return Ok(Some(match length {
                None => Frame::Unusable("a message without a `Content-Length` header".into()),
                Some(Err(why)) => Frame::Unusable(why),
                Some(Ok(n)) if n > limit => Frame::TooLarge(n),
                Some(Ok(n)) => {
                    let mut body = Vec::new();
                    input.take(n).read_to_end(&mut body)?;
                    if body.len() as u64 != n {
                        return Ok(None);
                    }
                    Frame::Body(body)
                }
            }));
        }
        started = true;
        // A `Content-Length` header starts a block afresh, even after the
        // rest of a body whose length was unusable.
        if let Some(at) = find_content_length(text) {
            let value = String::from_utf8_lossy(&text[at + CONTENT_LENGTH.len()..]);
            let value = value.trim();
            length = Some(
                value
                    .parse::<u64>()
                    .map_err(|_| format!("invalid `Content-Length: {value}`")),
            );
        } else if !is_header(text) {
            length = None;
        }
    }
}

const CONTENT_LENGTH: &[u8] = b"content-length:";

fn find_content_length(line: &[u8]) -> Option<usize> {
    line.windows(CONTENT_LENGTH.len())
        .position(|window| window.eq_ignore_ascii_case(CONTENT_LENGTH))
}

/// `Name: value`, as `Content-Type: ...` is.
fn is_header(line: &[u8]) -> bool {
    line.iter().position(|&b| b == b':').is_some_and(|colon| {
        colon > 0
            && line[..colon]
                .iter()
                .all(|b| b.is_ascii_alphanumeric() || *b == b'-')
    })
}

/// Reads one line into `line` (cleared first), keeping at most
/// [`MAX_HEADER_LINE`] bytes of it: a longer line is read to its end and
/// comes back without its `\n`. `false` at the end of the input.
fn read_line(input: &mut impl BufRead, line: &mut Vec<u8>) -> io::Result<bool> {
    line.clear();
    let mut any = false;
    loop {
        let available = input.fill_buf()?;
        if available.is_empty() {
            return Ok(any);
        }
        any = true;
        let (used, done) = match available.iter().position(|&b| b == b'\n') {
            Some(i) => (i + 1, true),
            None => (available.len(), false),
        };
        let room = (MAX_HEADER_LINE + 1).saturating_sub(line.len());
        line.extend_from_slice(&available[..used.min(room)]);
        input.consume(used);
        if done {
            if line.len() > MAX_HEADER_LINE {
                line.pop();
            }
            return Ok(true);
        }
    }
}

/// A body as a message, or the error response it gets.
fn classify(body: &[u8]) -> Incoming {
    let value: Value = match serde_json::from_slice(body) {
        Ok(value) => value,
        Err(problem) => {
            return Incoming::Malformed(error(
                Value::Null,
                ErrorCode::ParseError,
                format!("the message is not JSON (UTF-8): {problem}"),
            ));
        }
    };
    if value.is_array() {
        return Incoming::Malformed(error(
            Value::Null,
            ErrorCode::InvalidRequest,
            "LSP does not allow batches: send one message at a time".into(),
        ));
    }
    let id = value
        .get("id")
        .filter(|id| id.is_number() || id.is_string())
        .cloned();
    let invalid = |why: String| {
        Incoming::Malformed(error(
            id.clone().unwrap_or(Value::Null),
            ErrorCode::InvalidRequest,
            why,
        ))
    };
    let has_id = value.get("id").is_some();
    match serde_json::from_value::<Message>(value) {
        // An `id` the request type could not take made it look like a
        // notification: answer it rather than drop it.
        Ok(Message::Notification(_)) if has_id => {
            invalid("a request's `id` is an integer or a string".into())
        }
        Ok(message) => Incoming::Message(message),
        Err(problem) => invalid(format!(
            "not a JSON-RPC request, response or notification: {problem}"
        )),
    }
}

/// The error response to the request `id` (`null` when unknown).
pub fn error(id: Value, code: ErrorCode, message: String) -> Value {
    json!({
        "jsonrpc": "2.0",
        "id": id,
        "error": { "code": code as i32, "message": message },
    })
}

/// Where messages for the client go, as JSON-RPC text.
pub type Outbox = SyncSender<String>;

/// `message` as JSON-RPC text, serialized once (no intermediate JSON tree).
pub fn encode(message: impl Into<Message>) -> String {
    #[derive(serde::Serialize)]
    struct JsonRpc {
        jsonrpc: &'static str,
        #[serde(flatten)]
        message: Message,
    }
    let message = JsonRpc {
        jsonrpc: "2.0",
        message: message.into(),
    };
    serde_json::to_string(&message).expect("a message of strings, ids and JSON values serializes")
}

/// The next message of `input` as JSON, for the client's side (tools and
/// tests that talk to a server), read as bounded as the server reads:
/// `None` at the end of the input; an error for a frame that is not a JSON
/// message of at most [`MAX_MESSAGE`] bytes.
pub fn read_json(input: &mut impl BufRead) -> io::Result<Option<Value>> {
    let invalid = |why: String| io::Error::new(io::ErrorKind::InvalidData, why);
    match read_frame(input, MAX_MESSAGE)? {
        None => Ok(None),
        Some(Frame::Body(body)) => serde_json::from_slice(&body)
            .map(Some)
            .map_err(|e| invalid(format!("a body that is not JSON: {e}"))),
        Some(Frame::Unusable(why)) => Err(invalid(why)),
        Some(Frame::TooLarge(length)) => Err(invalid(format!("a body of {length} bytes"))),
    }
}

/// Writes `message` with its header and flushes.
pub fn write(output: &mut impl Write, message: &str) -> io::Result<()> {
    write!(output, "Content-Length: {}\r\n\r\n{message}", message.len())?;
    output.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frames(input: &[u8], limit: u64) -> Vec<Frame> {
        let mut input = io::Cursor::new(input);
        let mut found = Vec::new();
        while let Some(frame) = read_frame(&mut input, limit).expect("reading memory") {
            if let Frame::TooLarge(n) = frame {
                io::copy(&mut (&mut input).take(n), &mut io::sink()).expect("skip");
            }
            found.push(frame);
        }
        found
    }

    fn body(text: &str) -> Frame {
        Frame::Body(text.as_bytes().to_vec())
    }

    #[test]
    fn well_formed_messages_are_read_one_by_one() {
        let input = b"Content-Length: 2\r\n\r\n{}Content-Type: x\r\ncontent-length: 3\r\n\r\n[1]";
        assert_eq!(frames(input, 100), [body("{}"), body("[1]")]);
    }

    #[test]
    fn a_body_over_the_bound_is_skipped_and_reading_goes_on() {
        let input = b"Content-Length: 20\r\n\r\n01234567890123456789Content-Length: 2\r\n\r\n{}";
        assert_eq!(frames(input, 10), [Frame::TooLarge(20), body("{}")]);
        // The length is not believed before the bytes come.
        let huge = b"Content-Length: 18446744073709551615\r\n\r\n";
        assert_eq!(frames(huge, 10), [Frame::TooLarge(u64::MAX)]);
    }

    #[test]
    fn an_unusable_length_is_reported_and_the_next_header_found() {
        let input =
            b"Content-Length: -5\r\n\r\n{\"id\": 1}Content-Length: 2\r\n\r\n{}junk\r\n\r\nContent-Length: 1\r\n\r\n1";
        let found = frames(input, 100);
        assert_eq!(
            found,
            [
                Frame::Unusable("invalid `Content-Length: -5`".into()),
                body("{}"),
                Frame::Unusable("a message without a `Content-Length` header".into()),
                body("1"),
            ]
        );
        let long = [b"X-Long: ".as_slice(), &[b'a'; 10_000], b"\r\n\r\n"].concat();
        assert_eq!(
            frames(&long, 100),
            [Frame::Unusable(
                "a message without a `Content-Length` header".into()
            )]
        );
    }

    #[test]
    fn bodies_that_are_not_messages_get_error_responses() {
        let code = |body: &[u8]| match classify(body) {
            Incoming::Malformed(answer) => (answer["error"]["code"].clone(), answer["id"].clone()),
            Incoming::Message(message) => panic!("{message:?} read from {body:?}"),
        };
        assert_eq!(code(b"{abc}"), (json!(-32700), Value::Null));
        assert_eq!(code(b"\"\xff\""), (json!(-32700), Value::Null));
        assert_eq!(code(b"[]"), (json!(-32600), Value::Null));
        assert_eq!(
            code(br#"{"id": 7, "method": 5}"#),
            (json!(-32600), json!(7))
        );
        assert_eq!(
            code(br#"{"id": 1.5, "method": "x"}"#),
            (json!(-32600), json!(1.5))
        );
        assert!(matches!(
            classify(br#"{"jsonrpc": "2.0", "id": 1, "method": "shutdown"}"#),
            Incoming::Message(Message::Request(_))
        ));
    }
}
