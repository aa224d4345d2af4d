//! The compiler's diagnostics as LSP diagnostics, and the fixes their help
//! lines name.
//!
//! An LSP diagnostic carries what `cnpic check` prints: the code, the
//! message, the primary label (on a line of its own under the message), the
//! help and the notes; its range is the primary label's span, and every
//! secondary label in the document becomes related information. Labels in
//! the stdlib files are named in the message instead (the client cannot
//! open those texts).

use cnpi::diagnostic::{Diagnostic, Severity};
use cnpi::span::{SourceId, Span};
use lsp_types::{
    DiagnosticRelatedInformation, DiagnosticSeverity, Location, NumberOrString, Position, Range,
    Uri,
};

use crate::document::Document;

/// `diagnostic` for the document at `uri`.
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
    let related: Vec<DiagnosticRelatedInformation> = diagnostic
        .labels
        .iter()
        .skip(1)
        .filter(|label| in_document(&label.span))
        .map(|label| DiagnosticRelatedInformation {
            location: Location::new(uri.clone(), range_of(label.span)),
            message: label.message.clone(),
        })
        .collect();
    let range = primary.map(|label| label.span).filter(in_document).map_or(
        Range::new(Position::new(0, 0), Position::new(0, 0)),
        range_of,
    );
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

/// The edit a diagnostic's help line names, if it names one: the text to
/// put in place of a span of the document.
pub fn fix(diagnostic: &Diagnostic) -> Option<(Span, String)> {
    let span = diagnostic
        .span()
        .filter(|span| span.source == SourceId::USER)?;
    let help = diagnostic.help.as_deref()?;
    let quoted = |prefix: &str, suffix: &str| {
        help.strip_prefix(prefix)?
            .strip_suffix(suffix)
            .filter(|word| !word.contains(['`', ' ']))
            .map(str::to_string)
    };
    // "did you mean `BSTEP`?" (E0101 and every other did-you-mean).
    if let Some(name) = quoted("did you mean `", "`?") {
        return Some((span, name));
    }
    // "write `and` to combine conditions" and the like (E0002).
    if let Some((word, _)) = help
        .strip_prefix("write `")
        .and_then(|rest| rest.split_once("` to "))
        .filter(|(word, _)| !word.contains(['`', ' ']))
    {
        return Some((span, word.to_string()));
    }
    // "to compare two things, write `==`" (E0001 on `=`).
    if let Some(operator) = quoted("to compare two things, write `", "`") {
        return Some((span, operator));
    }
    // "add `:` at the end of the line" (E0001 at the end of a line).
    if help == "add `:` at the end of the line" {
        return Some((Span::new(span.source, span.start, span.start), ":".into()));
    }
    None
}
