//! Edits the server offers: formatting the document with
//! `cnpi::format` (what `cnpic fmt` writes) and a quick fix for each
//! diagnostic that carries one (`cnpi::diagnostic::Fix`, the edit its help
//! line proposes).

use std::collections::HashMap;

use cnpi::span::{SourceId, Span};
use lsp_types::{
    CodeAction, CodeActionKind, CodeActionOrCommand, Position, Range, TextEdit, Uri, WorkspaceEdit,
};

use crate::diagnostics::to_lsp;
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

/// The quick fixes for the diagnostics whose primary span overlaps `range`.
pub fn code_actions(document: &Document, uri: &Uri, range: Range) -> Vec<CodeActionOrCommand> {
    let start = document.index.offset(&document.text, range.start);
    let end = document.index.offset(&document.text, range.end);
    let overlaps = |span: Span| span.start <= end && start <= span.end;
    let mut actions = Vec::new();
    for diagnostic in &document.diagnostics {
        if !diagnostic.span().is_some_and(overlaps) {
            continue;
        }
        let Some(fix) = diagnostic
            .fix
            .as_ref()
            .filter(|fix| fix.span.source == SourceId::USER)
        else {
            continue;
        };
        let lsp = to_lsp(diagnostic, document, uri);
        let range = document.index.range(&document.text, fix.span);
        let replacement = &fix.replacement;
        let title = if fix.span.start == fix.span.end {
            format!("Insert `{replacement}`")
        } else {
            format!("Replace with `{replacement}`")
        };
        let edit = TextEdit::new(range, replacement.clone());
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
