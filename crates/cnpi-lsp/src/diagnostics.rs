//! The compiler's diagnostics as LSP diagnostics, and what is published
//! for a document.
//!
//! An LSP diagnostic carries what `cnpic check` prints: the code, the
//! message, the primary label (on a line of its own under the message), the
//! help and the notes; its range is the primary label's span, and every
//! secondary label in the document becomes related information. Labels in
//! the stdlib files are named in the message instead (the client cannot
//! open those texts). A document's diagnostics are published as `cnpic
//! check` prints them: at most fifty, and a line counting the others; each
//! marks at most a hundred places and says so when it marks fewer than the
//! compiler's, so that what one document publishes stays bounded.

use cnpi::diagnostic::{Diagnostic, Severity, shown};
use cnpi::span::{SourceId, Span};
use lsp_server::Notification;
use lsp_types::notification::{Notification as _, PublishDiagnostics};
use lsp_types::{
    DiagnosticRelatedInformation, DiagnosticSeverity, Location, NumberOrString,
    PublishDiagnosticsParams, Range, Uri,
};

use crate::document::Document;
use crate::transport::encode;

/// The most places (secondary labels) one LSP diagnostic marks.
const MAX_RELATED: usize = 100;

/// The longest message of one LSP diagnostic, in bytes.
const MAX_MESSAGE: usize = 16 << 10;

/// `diagnostic` for the document at `uri`: its first [`MAX_RELATED`]
/// places and [`MAX_MESSAGE`] bytes, and a note saying what was left out.
pub fn to_lsp(diagnostic: &Diagnostic, document: &Document, uri: &Uri) -> lsp_types::Diagnostic {
    let range_of = |span: Span| document.index.range(&document.text, span);
    let in_document = |span: &Span| span.source == SourceId::USER;
    let mut message = diagnostic.message.clone();
    let primary = diagnostic.labels.first();
    if let Some(label) = primary.filter(|l| !l.message.is_empty()) {
        message.push('\n');
        message.push_str(&label.message);
    }
    for label in diagnostic.labels.iter().skip(1) {
        if !in_document(&label.span) {
            message.push_str(&format!("\nin the standard library: {}", label.message));
        }
    }
    if let Some(help) = &diagnostic.help {
        message.push_str(&format!("\nhelp: {help}"));
    }
    for note in &diagnostic.notes {
        message.push_str(&format!("\nnote: {note}"));
    }
    let mut places = (diagnostic.labels.iter().skip(1)).filter(|label| in_document(&label.span));
    let related: Vec<DiagnosticRelatedInformation> = (places.by_ref().take(MAX_RELATED))
        .map(|label| DiagnosticRelatedInformation {
            location: Location::new(uri.clone(), range_of(label.span)),
            message: label.message.clone(),
        })
        .collect();
    let others = places.count();
    if others > 0 {
        message.push_str(&format!(
            "\nnote: {others} more places are marked; run `cnpic check` to see them"
        ));
    }
    if message.len() > MAX_MESSAGE {
        let cut = message.floor_char_boundary(MAX_MESSAGE);
        message.truncate(cut);
        message.push_str("…\nnote: the message is cut short; run `cnpic check` to see it whole");
    }
    let range = primary
        .map(|label| label.span)
        .filter(in_document)
        .map_or_else(Range::default, range_of);
    lsp_types::Diagnostic {
        range,
        severity: Some(match diagnostic.severity {
            Severity::Error => DiagnosticSeverity::ERROR,
            Severity::Warning => DiagnosticSeverity::WARNING,
        }),
        code: Some(NumberOrString::String(diagnostic.code.0.to_string())),
        source: Some("cnpic".to_string()),
        message,
        related_information: (!related.is_empty()).then_some(related),
        ..lsp_types::Diagnostic::default()
    }
}

/// What is published for `document`: the diagnostics `cnpic check` would
/// print (at most [`cnpi::diagnostic::SHOWN`], the first errors first), and
/// when some are left out, a last one (information) saying how many, where
/// the first of them is.
pub fn published(document: &Document, uri: &Uri) -> Vec<lsp_types::Diagnostic> {
    let shown = shown(&document.diagnostics);
    let mut published: Vec<lsp_types::Diagnostic> = shown
        .diagnostics
        .iter()
        .map(|d| to_lsp(d, document, uri))
        .collect();
    if let Some(left_out) = shown.left_out() {
        let first = document
            .diagnostics
            .iter()
            .find(|d| !shown.diagnostics.iter().any(|s| std::ptr::eq(*s, *d)));
        let range = first.map_or_else(Range::default, |d| to_lsp(d, document, uri).range);
        published.push(lsp_types::Diagnostic {
            range,
            severity: Some(DiagnosticSeverity::INFORMATION),
            source: Some("cnpic".to_string()),
            message: format!("... and {left_out}: run `cnpic check` to see them"),
            ..lsp_types::Diagnostic::default()
        });
    }
    published
}

/// The notification that publishes `diagnostics` for `uri`.
pub fn publish(uri: Uri, diagnostics: Vec<lsp_types::Diagnostic>) -> String {
    let params = PublishDiagnosticsParams::new(uri, diagnostics, None);
    encode(Notification::new(
        PublishDiagnostics::METHOD.to_string(),
        params,
    ))
}
