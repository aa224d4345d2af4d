//! cnpi-lsp: a language server for `.cnpi` files, built on the compiler's
//! own front end (the `cnpi` crate, no network), so the editor and `cnpic`
//! never disagree.
//!
//! [`serve`] speaks LSP over an `lsp-server` connection (`cnpic lsp` uses
//! stdio). Documents are synchronised whole; each version is analysed
//! ([`document`]) and its diagnostics published (the same as
//! `cnpic check`'s, [`diagnostics`]). The requests: hover ([`hover`]), go
//! to definition, references and document symbols ([`navigate`]),
//! completion ([`complete`]), formatting and quick fixes ([`edit`]).
//! Positions are UTF-16 as LSP says ([`position`]). A request the server
//! cannot serve (an unknown method, bad parameters, a document it has not
//! been sent) gets an error response; a handler that panics on some text
//! gets an internal-error response, and the server goes on.

mod complete;
mod diagnostics;
mod document;
mod edit;
mod hover;
mod library;
mod navigate;
mod position;

use std::collections::HashMap;
use std::panic::{AssertUnwindSafe, catch_unwind};

use lsp_server::{Connection, ErrorCode, Message, Notification, Request, Response};
use lsp_types::{
    CodeActionProviderCapability, CompletionOptions, DocumentSymbolResponse,
    GotoDefinitionResponse, Hover, HoverContents, HoverProviderCapability, Location, MarkupContent,
    MarkupKind, OneOf, PublishDiagnosticsParams, ServerCapabilities, ServerInfo,
    TextDocumentSyncCapability, TextDocumentSyncKind, Uri,
};
use serde_json::Value;

use document::Document;

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

/// Runs the server on stdin and stdout (`cnpic lsp`) until the client
/// shuts it down; `Err` holds what went wrong with the connection.
pub fn stdio() -> Result<(), String> {
    let (connection, threads) = Connection::stdio();
    let served = serve(&connection);
    drop(connection);
    served?;
    threads.join().map_err(|error| error.to_string())
}

/// Runs the server on `connection` until the client shuts it down (`Ok`)
/// or the connection breaks (`Err`, a message for the user).
pub fn serve(connection: &Connection) -> Result<(), String> {
    let capabilities = serde_json::to_value(capabilities()).map_err(|error| error.to_string())?;
    let info = serde_json::to_value(ServerInfo {
        name: "cnpic lsp".into(),
        version: Some(env!("CARGO_PKG_VERSION").into()),
    })
    .map_err(|error| error.to_string())?;
    let (id, _params) = connection
        .initialize_start()
        .map_err(|error| error.to_string())?;
    let answer = serde_json::json!({ "capabilities": capabilities, "serverInfo": info });
    connection
        .initialize_finish(id, answer)
        .map_err(|error| error.to_string())?;
    let mut server = Server::default();
    for message in &connection.receiver {
        let outgoing = match message {
            Message::Request(request) => {
                if connection
                    .handle_shutdown(&request)
                    .map_err(|error| error.to_string())?
                {
                    return Ok(());
                }
                vec![Message::Response(server.request(request))]
            }
            Message::Notification(notification) => server.notify(notification),
            Message::Response(_) => Vec::new(),
        };
        for message in outgoing {
            connection
                .sender
                .send(message)
                .map_err(|error| error.to_string())?;
        }
    }
    Err("the client closed the connection without `shutdown`".into())
}

/// The open documents.
#[derive(Default)]
struct Server {
    documents: HashMap<Uri, Document>,
}

/// A failed request: an LSP error code and a message.
type Failure = (ErrorCode, String);

impl Server {
    fn request(&mut self, request: Request) -> Response {
        let id = request.id.clone();
        let method = request.method.clone();
        let result = catch_unwind(AssertUnwindSafe(|| self.answer(&method, request.params)))
            .unwrap_or_else(|_| {
                Err((
                    ErrorCode::InternalError,
                    format!("internal error in cnpic lsp while answering `{method}`"),
                ))
            });
        match result {
            Ok(value) => Response::new_ok(id, value),
            Err((code, message)) => Response::new_err(id, code as i32, message),
        }
    }

    fn answer(&self, method: &str, params: Value) -> Result<Value, Failure> {
        use lsp_types::request::*;
        match method {
            HoverRequest::METHOD => {
                let params: lsp_types::HoverParams = parse(params)?;
                let at = params.text_document_position_params;
                let (document, offset) = self.at(&at.text_document.uri, at.position)?;
                let hover = hover::hover(document, offset).map(|text| Hover {
                    contents: HoverContents::Markup(MarkupContent {
                        kind: MarkupKind::Markdown,
                        value: text,
                    }),
                    range: None,
                });
                json(hover)
            }
            GotoDefinition::METHOD => {
                let params: lsp_types::GotoDefinitionParams = parse(params)?;
                let at = params.text_document_position_params;
                let uri = at.text_document.uri;
                let (document, offset) = self.at(&uri, at.position)?;
                let location = navigate::definition(document, offset).map(|span| {
                    let range = document.index.range(&document.text, span);
                    GotoDefinitionResponse::Scalar(Location::new(uri.clone(), range))
                });
                json(location)
            }
            References::METHOD => {
                let params: lsp_types::ReferenceParams = parse(params)?;
                let at = params.text_document_position;
                let uri = at.text_document.uri;
                let (document, offset) = self.at(&uri, at.position)?;
                let declaration = params.context.include_declaration;
                let locations: Vec<Location> = navigate::references(document, offset, declaration)
                    .into_iter()
                    .map(|span| {
                        let range = document.index.range(&document.text, span);
                        Location::new(uri.clone(), range)
                    })
                    .collect();
                json(locations)
            }
            Completion::METHOD => {
                let params: lsp_types::CompletionParams = parse(params)?;
                let uri = params.text_document_position.text_document.uri;
                json(complete::completions(self.document(&uri)?))
            }
            DocumentSymbolRequest::METHOD => {
                let params: lsp_types::DocumentSymbolParams = parse(params)?;
                let document = self.document(&params.text_document.uri)?;
                json(DocumentSymbolResponse::Nested(navigate::symbols(document)))
            }
            Formatting::METHOD => {
                let params: lsp_types::DocumentFormattingParams = parse(params)?;
                let document = self.document(&params.text_document.uri)?;
                let edits = edit::formatting(document)
                    .map_err(|message| (ErrorCode::RequestFailed, message))?;
                json(edits)
            }
            CodeActionRequest::METHOD => {
                let params: lsp_types::CodeActionParams = parse(params)?;
                let uri = params.text_document.uri;
                let document = self.document(&uri)?;
                json(edit::code_actions(document, &uri, params.range))
            }
            _ => Err((
                ErrorCode::MethodNotFound,
                format!("cnpic lsp does not serve `{method}`"),
            )),
        }
    }

    /// Handles a notification; returns the messages to send in reply.
    fn notify(&mut self, notification: Notification) -> Vec<Message> {
        use lsp_types::notification::*;
        let uri = match notification.method.as_str() {
            DidOpenTextDocument::METHOD => {
                let Ok(params) = parse::<lsp_types::DidOpenTextDocumentParams>(notification.params)
                else {
                    return Vec::new();
                };
                let item = params.text_document;
                self.open(item.uri.clone(), item.text);
                item.uri
            }
            DidChangeTextDocument::METHOD => {
                let Ok(params) =
                    parse::<lsp_types::DidChangeTextDocumentParams>(notification.params)
                else {
                    return Vec::new();
                };
                // Full synchronisation: the last change holds the whole text.
                let Some(change) = params.content_changes.into_iter().last() else {
                    return Vec::new();
                };
                let uri = params.text_document.uri;
                self.open(uri.clone(), change.text);
                uri
            }
            DidCloseTextDocument::METHOD => {
                let Ok(params) =
                    parse::<lsp_types::DidCloseTextDocumentParams>(notification.params)
                else {
                    return Vec::new();
                };
                let uri = params.text_document.uri;
                self.documents.remove(&uri);
                return vec![publish(uri, Vec::new())];
            }
            _ => return Vec::new(),
        };
        let diagnostics = self.documents.get(&uri).map_or_else(Vec::new, |document| {
            document
                .diagnostics
                .iter()
                .map(|d| diagnostics::to_lsp(d, document, &uri))
                .collect()
        });
        vec![publish(uri, diagnostics)]
    }

    /// Analyses a new text for `uri`. A panic on some text leaves the
    /// document out (its requests then fail) rather than stopping the server.
    fn open(&mut self, uri: Uri, text: String) {
        let name = uri.as_str().to_string();
        match catch_unwind(|| Document::new(&name, text)) {
            Ok(document) => {
                self.documents.insert(uri, document);
            }
            Err(_) => {
                self.documents.remove(&uri);
            }
        }
    }

    fn document(&self, uri: &Uri) -> Result<&Document, Failure> {
        self.documents.get(uri).ok_or_else(|| {
            (
                ErrorCode::RequestFailed,
                format!("`{}` is not open (or could not be analysed)", uri.as_str()),
            )
        })
    }

    /// The document and the byte offset of `position` in it.
    fn at(&self, uri: &Uri, position: lsp_types::Position) -> Result<(&Document, usize), Failure> {
        let document = self.document(uri)?;
        Ok((document, document.index.offset(&document.text, position)))
    }
}

fn publish(uri: Uri, diagnostics: Vec<lsp_types::Diagnostic>) -> Message {
    let params = PublishDiagnosticsParams::new(uri, diagnostics, None);
    use lsp_types::notification::{Notification as _, PublishDiagnostics};
    Message::Notification(Notification::new(
        PublishDiagnostics::METHOD.to_string(),
        params,
    ))
}

fn parse<T: serde::de::DeserializeOwned>(params: Value) -> Result<T, Failure> {
    serde_json::from_value(params).map_err(|error| {
        (
            ErrorCode::InvalidParams,
            format!("invalid parameters: {error}"),
        )
    })
}

fn json(value: impl serde::Serialize) -> Result<Value, Failure> {
    serde_json::to_value(value).map_err(|error| (ErrorCode::InternalError, error.to_string()))
}
