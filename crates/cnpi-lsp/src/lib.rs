//! cnpi-lsp: a language server for `.cnpi` files, built on the compiler's
//! own front end (the `cnpi` crate, no network), so the editor and `cnpic`
//! never disagree.
//!
//! [`serve`] speaks LSP over any pair of byte streams (`cnpic lsp` uses
//! stdin and stdout, [`stdio`]). The layers, from the wire up:
//! [`transport`] reads and writes the framing, bounded, answering what it
//! cannot read; [`server`] runs the protocol's life cycle and keeps the
//! open documents, synchronised whole, each version analysed ([`document`])
//! and its diagnostics published (as `cnpic check` reports them,
//! [`diagnostics`]); [`dispatch`] routes each request by its type to one
//! handler of [`handlers`], run on a worker thread. The features: hover
//! ([`hover`]), go to definition, references and document symbols
//! ([`navigate`]), completion ([`complete`]), formatting and quick fixes
//! ([`edit`]); a `ram` program's data declarations are described by
//! [`data`]. Positions are UTF-16 as LSP says ([`position`]).
//!
//! To add a request: a handler in [`handlers`] (parameters in, the
//! protocol's result out, a [`dispatch::Failure`] for an error), its line
//! `.on::<lsp_types::request::X>(handlers::x)` in `server.rs`, its
//! capability in [`capabilities`], and a test file under `tests/lsp/`.

mod complete;
mod data;
mod diagnostics;
mod dispatch;
mod document;
mod edit;
mod handlers;
mod hover;
mod library;
mod locals;
mod navigate;
mod position;
mod server;
mod transport;

use std::io::{Read, Write};
use std::sync::mpsc::sync_channel;

pub use document::{MAX_DOCUMENT, MAX_ITEMS};
pub use server::capabilities;
/// The framing for a client: how the tests talk to the server.
pub use transport::{MAX_MESSAGE, read_json as read_message, write as write_message};

/// A thread on the front end's large stack ([`cnpi::operators::STACK_BYTES`]),
/// which a document [`cnpi::operators::MAX_DEPTH`] levels deep needs.
fn spawn_on_large_stack<T: Send + 'static>(
    work: impl FnOnce() -> T + Send + 'static,
) -> Result<std::thread::JoinHandle<T>, String> {
    std::thread::Builder::new()
        .stack_size(cnpi::operators::STACK_BYTES)
        .spawn(work)
        .map_err(|error| format!("cannot start a thread: {error}"))
}

/// Runs the server on stdin and stdout (`cnpic lsp`); see [`serve`].
pub fn stdio() -> Result<(), String> {
    serve(std::io::stdin(), std::io::stdout())
}

/// Runs the server, reading messages from `input` and writing to `output`,
/// until the client sends `exit` after `shutdown` (`Ok`), sends `exit`
/// without it, or closes `input` (`Err`, a message for the user).
pub fn serve(
    input: impl Read + Send + 'static,
    output: impl Write + Send + 'static,
) -> Result<(), String> {
    // Bounded queues: a client that sends faster than the server answers
    // is held back rather than buffered without end.
    let (deliver, incoming) = sync_channel(4);
    std::thread::spawn(move || {
        transport::read_all(input, |message| deliver.send(message).is_ok());
    });
    let (outbox, outgoing) = sync_channel::<String>(64);
    let writer = std::thread::spawn(move || {
        let mut output = output;
        outgoing
            .into_iter()
            .try_for_each(|message| transport::write(&mut output, &message))
    });
    // The main loop analyses every document it is sent: on the large stack.
    let served = spawn_on_large_stack(move || server::Server::new(outbox)?.run(&incoming))?
        .join()
        .unwrap_or_else(|_| Err("the server's main loop failed".to_string()));
    let written = match writer.join() {
        Ok(written) => written.map_err(|error| format!("cannot write to the client: {error}")),
        Err(_) => Err("the writer thread failed".to_string()),
    };
    served.and(written)
}
