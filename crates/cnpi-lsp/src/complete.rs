//! Completion: the names in scope of a file.
//!
//! The file's `def`s and combinators, the combinators of the core library,
//! the ACTs and observations of the file's environment, its pointers, the
//! data names and sizes of a `ram` program, the locals of the program
//! around the cursor (language.md §5.2), and the words of its
//! environment (`END`, and `LEFT`, `RIGHT` where an ACT takes a direction;
//! no `WHITE` where nothing is coloured).
//! Half-typed text still completes: the parser's error recovery keeps every
//! item that parsed, and the client filters by what has been typed. A name
//! is offered once (the file's own `def` wins, then the first meaning
//! found), checked in a set, so the list costs time linear in the file; an
//! answer lists at most [`MAX_ITEMS`] names.

use std::collections::HashSet;

use cnpi::env;
use cnpi::program::EnvKind;
use lsp_types::{CompletionItem, CompletionItemKind, CompletionList, CompletionResponse};

use crate::document::{Document, MAX_ITEMS};
use crate::{data, library, locals};

/// Every name in scope, once: the file's `def`s win a name they share, but
/// come last in the list.
fn completions(document: &Document, offset: usize) -> Vec<CompletionItem> {
    let mut offered = HashSet::new();
    let item = |label: String, kind, detail: String| CompletionItem {
        label,
        kind: Some(kind),
        detail: Some(detail),
        ..CompletionItem::default()
    };
    let mut own = Vec::new();
    for def in document.defs() {
        let detail = match &def.body {
            cnpi::syntax::ast::DefBody::Applier(a) => cnpi::format::applier(a),
            cnpi::syntax::ast::DefBody::Normal(_) => format!("{}()", def.name.name),
            cnpi::syntax::ast::DefBody::Hole(h) => cnpi::format::hole(h),
        };
        if offered.insert(def.name.name.clone()) {
            own.push(item(
                def.name.name.clone(),
                CompletionItemKind::FUNCTION,
                detail,
            ));
        }
    }
    let mut items = Vec::new();
    let mut add = |label: String, kind, detail: String| {
        if offered.insert(label.clone()) {
            items.push(item(label, kind, detail));
        }
    };
    for combinator in document.combinators() {
        let name = combinator.name.name.clone();
        add(name, CompletionItemKind::OPERATOR, "combinator".into());
    }
    for name in library::combinator_names() {
        let detail = library::combinator(&name).map_or_else(String::new, |e| e.meaning());
        add(name, CompletionItemKind::OPERATOR, detail);
    }
    if let Some(env) = document.env() {
        for (name, act, entry) in library::env_items(&env.kind.name) {
            let kind = if act {
                CompletionItemKind::METHOD
            } else {
                CompletionItemKind::FIELD
            };
            add(name, kind, entry.code);
        }
        for pointer in &env.pointers {
            let detail = format!("pointer = {}", cnpi::format::expression(&pointer.init));
            add(
                pointer.name.name.clone(),
                CompletionItemKind::VARIABLE,
                detail,
            );
        }
    }
    for local in locals::locals_at(document, offset) {
        let detail = locals::describe(&local);
        add(local.name, CompletionItemKind::VARIABLE, detail);
    }
    for declared in data::declared_names(document) {
        let kind = if declared.size {
            CompletionItemKind::CONSTANT
        } else {
            CompletionItemKind::VARIABLE
        };
        add(declared.name.to_string(), kind, declared.description);
    }
    for word in words(document) {
        add(word.into(), CompletionItemKind::CONSTANT, "built-in".into());
    }
    items.extend(own);
    items
}

/// The completion answer: every name in scope, or when there are more than
/// [`MAX_ITEMS`], the first of them (the built-in names, then the file's
/// own) in a list marked incomplete, so that the client asks again as the
/// user types.
pub fn answer(document: &Document, offset: usize) -> CompletionResponse {
    let mut items = completions(document, offset);
    if items.len() <= MAX_ITEMS {
        return CompletionResponse::Array(items);
    }
    items.truncate(MAX_ITEMS);
    CompletionResponse::List(CompletionList {
        is_incomplete: true,
        items,
    })
}

/// The words with a fixed meaning in the file's environment
/// ([`env::Environment::words`]); every environment's in a file without a
/// known one.
fn words(document: &Document) -> Vec<&'static str> {
    let kind = document
        .env()
        .and_then(|env| EnvKind::from_name(&env.kind.name));
    match kind {
        Some(kind) => env::environment(kind).words(),
        None => env::ENVIRONMENTS
            .iter()
            .flat_map(|env| env.words())
            .collect(),
    }
}
