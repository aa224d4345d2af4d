//! Edits the server offers: formatting the document with
//! `cnpi::format` (what `cnpic fmt` writes) and a quick fix for each
//! diagnostic whose help names one (`diagnostics::fix`).

use std::collections::HashMap;

use lsp_types::{
    CodeAction, CodeActionKind, CodeActionOrCommand, Position, Range, TextEdit, Uri, WorkspaceEdit,
};

use crate::diagnostics::{fix, to_lsp};
use crate::document::Document;

/// The edit that formats the whole document; `Ok(None)` when it already is
/// formatted, `Err` (a message) when it has syntax errors.
pub fn formatting(document: &Document) -> Result<Option<Vec<TextEdit>>, String> {
    match cnpi::format::format(&document.text) {
        Ok(formatted) if formatted == document.text => Ok(None),
        Ok(formatted) => {
            let end = document.index.position(&document.text, document.text.len());
            let whole = Range::new(Position::new(0, 0), end);
            Ok(Some(vec![TextEdit::new(whole, formatted)]))
        }
        Err(diagnostics) => {
            let messages: Vec<String> = diagnostics
                .iter()
                .map(|d| format!("[{}] {}", d.code, d.message))
                .collect();
            Err(format!(
                "cannot format a file with errors: {}",
                messages.join("; ")
            ))
        }
    }
}

/// The quick fixes for the diagnostics that overlap `range`.
pub fn code_actions(document: &Document, uri: &Uri, range: Range) -> Vec<CodeActionOrCommand> {
    let mut actions = Vec::new();
    for diagnostic in &document.diagnostics {
        let Some((span, replacement)) = fix(diagnostic) else {
            continue;
        };
        let lsp = to_lsp(diagnostic, document, uri);
        if lsp.range.end < range.start || range.end < lsp.range.start {
            continue;
        }
        let edit = TextEdit::new(
            document.index.range(&document.text, span),
            replacement.clone(),
        );
        let title = if span.start == span.end {
            format!("Insert `{replacement}`")
        } else {
            format!("Replace with `{replacement}`")
        };
        actions.push(CodeActionOrCommand::CodeAction(CodeAction {
            title,
            kind: Some(CodeActionKind::QUICKFIX),
            diagnostics: Some(vec![lsp]),
            edit: Some(WorkspaceEdit::new(HashMap::from([(
                uri.clone(),
                vec![edit],
            )]))),
            is_preferred: Some(true),
            ..CodeAction::default()
        }));
    }
    actions
}
