//! The server's main loop: the protocol's life cycle, the open documents,
//! and where each message goes.
//!
//! Messages are read by [`crate::transport`] on a thread of their own and
//! written by another. A request before `initialize` gets "not
//! initialized", one after `shutdown` "invalid request"; `exit` ends the
//! loop (successfully only after `shutdown`). Every message is routed by
//! its type ([`crate::dispatch`]). The life-cycle requests and the
//! notifications are handled here, in order: each new text is analysed
//! ([`Document`]) and its diagnostics published before the next message is
//! looked at, so a request always sees the text sent before it. The other
//! requests go to [`crate::handlers`] and are answered on worker threads
//! from a snapshot of the documents.

use std::panic::catch_unwind;
use std::sync::Arc;
use std::sync::mpsc::Receiver;

use crate::dispatch::{Answer, Failure, NotificationDispatcher, RequestDispatcher, Workers};
use crate::document::{Document, Snapshot};
use crate::transport::{Incoming, Outbox};
use crate::{diagnostics, handlers};
use lsp_server::{ErrorCode, Message, Notification, Request};
use lsp_types::notification as notifications;
use lsp_types::request as requests;
use lsp_types::{
    CodeActionProviderCapability, CompletionOptions, HoverProviderCapability, InitializeResult,
    OneOf, ServerCapabilities, ServerInfo, TextDocumentSyncCapability, TextDocumentSyncKind, Uri,
};

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

/// The answer to every request after `shutdown`.
const SHUTTING_DOWN: &str = "the server is shutting down";

/// Where the server is in the protocol's life cycle.
#[derive(PartialEq)]
enum Phase {
    Uninitialized,
    Running,
    ShutDown,
}

impl Phase {
    /// Why a request other than `initialize` is refused now, if it is.
    fn refusal(&self) -> Option<Failure> {
        match self {
            Phase::Uninitialized => Some((
                ErrorCode::ServerNotInitialized,
                "the server has not been initialized".into(),
            )),
            Phase::Running => None,
            Phase::ShutDown => Some((ErrorCode::InvalidRequest, SHUTTING_DOWN.into())),
        }
    }

    /// `initialize`: the server's capabilities, once.
    fn initialize(&mut self, _: lsp_types::InitializeParams) -> Answer<InitializeResult> {
        match self {
            Phase::Uninitialized => *self = Phase::Running,
            Phase::Running => {
                let message = "the server is already initialized".into();
                return Err((ErrorCode::InvalidRequest, message));
            }
            Phase::ShutDown => return Err((ErrorCode::InvalidRequest, SHUTTING_DOWN.into())),
        }
        Ok(InitializeResult {
            capabilities: capabilities(),
            server_info: Some(ServerInfo {
                name: "cnpic lsp".into(),
                version: Some(env!("CARGO_PKG_VERSION").into()),
            }),
        })
    }

    /// `shutdown`: every later request is refused, and `exit` succeeds.
    fn shutdown(&mut self, _: ()) -> Answer<()> {
        if let Some(failure) = self.refusal() {
            return Err(failure);
        }
        *self = Phase::ShutDown;
        Ok(())
    }
}

pub struct Server {
    phase: Phase,
    documents: Snapshot,
    workers: Workers,
    outbox: Outbox,
    /// How the loop ends, once `exit` came.
    exit: Option<Result<(), String>>,
}

impl Server {
    /// A server, or why its workers could not start (a message for the
    /// user).
    pub fn new(outbox: Outbox) -> Result<Server, String> {
        Ok(Server {
            phase: Phase::Uninitialized,
            documents: Snapshot::default(),
            workers: Workers::new()?,
            outbox,
            exit: None,
        })
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
                    self.notify(notification);
                    if let Some(exit) = self.exit.take() {
                        return exit;
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

    /// A request: the life cycle's on the main loop, the others (while
    /// running) on a worker.
    fn request(&mut self, request: Request) {
        let mut dispatcher =
            RequestDispatcher::new(request, &self.documents, &self.workers, &self.outbox);
        dispatcher
            .on_sync::<requests::Initialize, _>(&mut self.phase, Phase::initialize)
            .on_sync::<requests::Shutdown, _>(&mut self.phase, Phase::shutdown);
        if let Some(failure) = self.phase.refusal() {
            dispatcher.refuse(failure);
        }
        dispatcher
            .on::<requests::HoverRequest>(handlers::hover)
            .on::<requests::GotoDefinition>(handlers::definition)
            .on::<requests::References>(handlers::references)
            .on::<requests::Completion>(handlers::completion)
            .on::<requests::DocumentSymbolRequest>(handlers::symbols)
            .on::<requests::Formatting>(handlers::formatting)
            .on::<requests::CodeActionRequest>(handlers::code_actions)
            .finish();
    }

    /// A notification: `exit` at any time, the document notifications
    /// while running (before `initialize` and after `shutdown` they are
    /// dropped).
    fn notify(&mut self, notification: Notification) {
        let running = self.phase == Phase::Running;
        let mut dispatcher = NotificationDispatcher::new(notification, self);
        dispatcher.on::<notifications::Exit>(Server::exit);
        if running {
            dispatcher
                .on::<notifications::DidOpenTextDocument>(Server::did_open)
                .on::<notifications::DidChangeTextDocument>(Server::did_change)
                .on::<notifications::DidCloseTextDocument>(Server::did_close);
        }
    }

    fn exit(&mut self, _: ()) {
        self.exit = Some(match self.phase {
            Phase::ShutDown => Ok(()),
            _ => Err("the client sent `exit` without `shutdown`".into()),
        });
    }

    fn did_open(&mut self, params: lsp_types::DidOpenTextDocumentParams) {
        let item = params.text_document;
        self.open(item.uri, item.text);
    }

    fn did_change(&mut self, params: lsp_types::DidChangeTextDocumentParams) {
        // Full synchronisation: the last change holds the whole text.
        if let Some(change) = params.content_changes.into_iter().last() {
            self.open(params.text_document.uri, change.text);
        }
    }

    fn did_close(&mut self, params: lsp_types::DidCloseTextDocumentParams) {
        let uri = params.text_document.uri;
        Arc::make_mut(&mut self.documents).remove(uri.as_str());
        self.send(diagnostics::publish(uri, Vec::new()));
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
