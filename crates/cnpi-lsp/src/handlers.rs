//! One handler per request, routed by [`crate::dispatch`]: each finds its
//! document in the snapshot, asks the feature's module and returns the
//! protocol's type; decoding and encoding happen in the dispatcher.

use lsp_server::ErrorCode;
use lsp_types::{
    CodeActionParams, CodeActionResponse, CompletionParams, CompletionResponse,
    DocumentFormattingParams, DocumentSymbolParams, DocumentSymbolResponse, GotoDefinitionParams,
    GotoDefinitionResponse, Hover, HoverContents, HoverParams, Location, MarkupContent, MarkupKind,
    ReferenceParams, TextDocumentPositionParams, TextEdit, Uri,
};

use crate::dispatch::Answer;
use crate::document::{Document, Snapshot};
use crate::{complete, edit, hover as describe, navigate};

/// The open document `uri`, if it was analysed.
fn document<'a>(snapshot: &'a Snapshot, uri: &Uri) -> Answer<&'a Document> {
    let document = snapshot.get(uri.as_str()).ok_or_else(|| {
        (
            ErrorCode::RequestFailed,
            format!("`{}` is not open (or could not be analysed)", uri.as_str()),
        )
    })?;
    match &document.refused {
        Some(why) => Err((ErrorCode::RequestFailed, why.clone())),
        None => Ok(document),
    }
}

/// The document and the byte offset of the position.
fn at<'a>(
    snapshot: &'a Snapshot,
    at: &TextDocumentPositionParams,
) -> Answer<(&'a Document, usize)> {
    let document = document(snapshot, &at.text_document.uri)?;
    Ok((document, document.index.offset(&document.text, at.position)))
}

fn location(document: &Document, uri: &Uri, span: cnpi::span::Span) -> Location {
    Location::new(uri.clone(), document.index.range(&document.text, span))
}

pub fn hover(snapshot: &Snapshot, params: HoverParams) -> Answer<Option<Hover>> {
    let (document, offset) = at(snapshot, &params.text_document_position_params)?;
    Ok(describe::hover(document, offset).map(|text| Hover {
        contents: HoverContents::Markup(MarkupContent {
            kind: MarkupKind::Markdown,
            value: text,
        }),
        range: None,
    }))
}

pub fn definition(
    snapshot: &Snapshot,
    params: GotoDefinitionParams,
) -> Answer<Option<GotoDefinitionResponse>> {
    let at_cursor = params.text_document_position_params;
    let (document, offset) = at(snapshot, &at_cursor)?;
    let uri = &at_cursor.text_document.uri;
    Ok(navigate::definition(document, offset)
        .map(|span| GotoDefinitionResponse::Scalar(location(document, uri, span))))
}

pub fn references(snapshot: &Snapshot, params: ReferenceParams) -> Answer<Option<Vec<Location>>> {
    let at_cursor = params.text_document_position;
    let (document, offset) = at(snapshot, &at_cursor)?;
    let uri = &at_cursor.text_document.uri;
    let declaration = params.context.include_declaration;
    let spans = navigate::references(document, offset, declaration);
    Ok(Some(
        spans
            .into_iter()
            .map(|span| location(document, uri, span))
            .collect(),
    ))
}

pub fn completion(
    snapshot: &Snapshot,
    params: CompletionParams,
) -> Answer<Option<CompletionResponse>> {
    let (document, offset) = at(snapshot, &params.text_document_position)?;
    Ok(Some(complete::answer(document, offset)))
}

pub fn symbols(
    snapshot: &Snapshot,
    params: DocumentSymbolParams,
) -> Answer<Option<DocumentSymbolResponse>> {
    let document = document(snapshot, &params.text_document.uri)?;
    Ok(Some(DocumentSymbolResponse::Nested(navigate::symbols(
        document,
    ))))
}

pub fn formatting(
    snapshot: &Snapshot,
    params: DocumentFormattingParams,
) -> Answer<Option<Vec<TextEdit>>> {
    let document = document(snapshot, &params.text_document.uri)?;
    edit::formatting(document).map_err(|message| (ErrorCode::RequestFailed, message))
}

pub fn code_actions(
    snapshot: &Snapshot,
    params: CodeActionParams,
) -> Answer<Option<CodeActionResponse>> {
    let uri = &params.text_document.uri;
    let document = document(snapshot, uri)?;
    Ok(Some(edit::code_actions(document, uri, params.range)))
}
