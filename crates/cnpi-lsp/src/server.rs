//! The server's main loop: the protocol's life cycle, the open documents,
//! and where each message goes.
//!
//! Messages are read by [`crate::transport`] on a thread of their own and
//! written by another. A request before `initialize` gets "not
//! initialized", one after `shutdown` "invalid request"; `exit` ends the
//! loop (successfully only after `shutdown`). The document notifications
//! are handled here, in order: each new text is analysed ([`Document`])
//! and its diagnostics published before the next message is looked at, so
//! a request always sees the text sent before it. Requests are routed by
//! type to [`crate::handlers`] ([`RequestDispatcher`]) and answered on
//! worker threads from a snapshot of the documents.

use std::panic::catch_unwind;
use std::sync::Arc;
use std::sync::mpsc::Receiver;

use lsp_server::{ErrorCode, Message, Notification, Request, Response};
use lsp_types::notification::{self as notifications, Notification as _};
use lsp_types::request::{self as requests, Request as _};
use lsp_types::{
    CodeActionProviderCapability, CompletionOptions, HoverProviderCapability, InitializeResult,
    OneOf, ServerCapabilities, ServerInfo, TextDocumentSyncCapability, TextDocumentSyncKind, Uri,
};
use serde_json::Value;

use crate::dispatch::{RequestDispatcher, Workers};
use crate::document::{Document, Snapshot};
use crate::transport::{Incoming, Outbox, encode};
use crate::{diagnostics, handlers};

/// The server's answer to `initialize`.
pub fn capabilities() -> ServerCapabilities {
    ServerCapabilities {
        text_document_sync: Some(TextDocumentSyncCapability::Kind(TextDocumentSyncKind::FULL)),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        definition_provider: Some(OneOf::Left(true)),
        references_provider: Some(OneOf::Left(true)),
        completion_provider: Some(CompletionOptions::default()),
        document_symbol_provider: Some(OneOf::Left(true)),
        document_formatting_provider: Some(OneOf::Left(true)),
        code_action_provider: Some(CodeActionProviderCapability::Simple(true)),
        ..ServerCapabilities::default()
    }
}

#[derive(PartialEq)]
enum Phase {
    Uninitialized,
    Running,
    ShutDown,
}

pub struct Server {
    phase: Phase,
    documents: Snapshot,
    workers: Workers,
    outbox: Outbox,
}

impl Server {
    pub fn new(outbox: Outbox) -> Server {
        Server {
            phase: Phase::Uninitialized,
            documents: Snapshot::default(),
            workers: Workers::new(),
            outbox,
        }
    }

    /// Serves what `incoming` brings until `exit` (`Ok` after `shutdown`)
    /// or the end of the input; waits for the requests under way.
    pub fn run(mut self, incoming: &Receiver<Incoming>) -> Result<(), String> {
        let result = self.serve(incoming);
        self.workers.finish();
        result
    }

    fn serve(&mut self, incoming: &Receiver<Incoming>) -> Result<(), String> {
        for message in incoming {
            match message {
                Incoming::Malformed(answer) => self.send(answer.to_string()),
                Incoming::Message(Message::Request(request)) => self.request(request),
                Incoming::Message(Message::Notification(notification)) => {
                    if notification.method == notifications::Exit::METHOD {
                        return match self.phase {
                            Phase::ShutDown => Ok(()),
                            _ => Err("the client sent `exit` without `shutdown`".into()),
                        };
                    }
                    if self.phase == Phase::Running {
                        self.notify(notification);
                    }
                }
                Incoming::Message(Message::Response(_)) => {}
            }
        }
        Err("the client closed the connection without `shutdown`".into())
    }

    fn send(&self, message: String) {
        // The writer is gone only when the output is closed; the loop then
        // ends at the end of the input.
        let _ = self.outbox.send(message);
    }

    fn fail(&self, request: Request, code: ErrorCode, message: &str) {
        let response = Response::new_err(request.id, code as i32, message.to_string());
        self.send(encode(response));
    }

    fn request(&mut self, request: Request) {
        let method = request.method.as_str();
        match (&self.phase, method) {
            (Phase::Uninitialized, requests::Initialize::METHOD) => {
                self.phase = Phase::Running;
                let result = InitializeResult {
                    capabilities: capabilities(),
                    server_info: Some(ServerInfo {
                        name: "cnpic lsp".into(),
                        version: Some(env!("CARGO_PKG_VERSION").into()),
                    }),
                };
                self.send(encode(Response::new_ok(request.id, result)));
            }
            (Phase::Uninitialized, _) => self.fail(
                request,
                ErrorCode::ServerNotInitialized,
                "the server has not been initialized",
            ),
            (Phase::ShutDown, _) => self.fail(
                request,
                ErrorCode::InvalidRequest,
                "the server is shutting down",
            ),
            (Phase::Running, requests::Initialize::METHOD) => self.fail(
                request,
                ErrorCode::InvalidRequest,
                "the server is already initialized",
            ),
            (Phase::Running, requests::Shutdown::METHOD) => {
                self.phase = Phase::ShutDown;
                self.send(encode(Response::new_ok(request.id, ())));
            }
            (Phase::Running, _) => {
                RequestDispatcher::new(request, &self.documents, &self.workers, &self.outbox)
                    .on::<requests::HoverRequest>(handlers::hover)
                    .on::<requests::GotoDefinition>(handlers::definition)
                    .on::<requests::References>(handlers::references)
                    .on::<requests::Completion>(handlers::completion)
                    .on::<requests::DocumentSymbolRequest>(handlers::symbols)
                    .on::<requests::Formatting>(handlers::formatting)
                    .on::<requests::CodeActionRequest>(handlers::code_actions)
                    .finish();
            }
        }
    }

    /// A document notification: the document's new text is analysed and
    /// its diagnostics published. Parameters that do not decode are
    /// dropped (a notification has no answer).
    fn notify(&mut self, notification: Notification) {
        fn decode<T: serde::de::DeserializeOwned>(params: Value) -> Option<T> {
            serde_json::from_value(params).ok()
        }
        match notification.method.as_str() {
            notifications::DidOpenTextDocument::METHOD => {
                let Some(params) =
                    decode::<lsp_types::DidOpenTextDocumentParams>(notification.params)
                else {
                    return;
                };
                let item = params.text_document;
                self.open(item.uri, item.text);
            }
            notifications::DidChangeTextDocument::METHOD => {
                let Some(params) =
                    decode::<lsp_types::DidChangeTextDocumentParams>(notification.params)
                else {
                    return;
                };
                // Full synchronisation: the last change holds the whole text.
                if let Some(change) = params.content_changes.into_iter().last() {
                    self.open(params.text_document.uri, change.text);
                }
            }
            notifications::DidCloseTextDocument::METHOD => {
                let Some(params) =
                    decode::<lsp_types::DidCloseTextDocumentParams>(notification.params)
                else {
                    return;
                };
                let uri = params.text_document.uri;
                Arc::make_mut(&mut self.documents).remove(uri.as_str());
                self.send(diagnostics::publish(uri, Vec::new()));
            }
            _ => {}
        }
    }

    /// Analyses `text` as the document `uri` and publishes its diagnostics.
    /// A panic on some text leaves the document out (its requests then
    /// fail) rather than stopping the server.
    fn open(&mut self, uri: Uri, text: String) {
        let name = uri.as_str().to_string();
        let documents = Arc::make_mut(&mut self.documents);
        let published = match catch_unwind(|| Document::new(&name, text)) {
            Ok(document) => {
                let published = diagnostics::published(&document, &uri);
                documents.insert(name, Arc::new(document));
                published
            }
            Err(_) => {
                documents.remove(&name);
                Vec::new()
            }
        };
        self.send(diagnostics::publish(uri, published));
    }
}
