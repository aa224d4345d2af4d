//! Completion: the names in scope of a file.
//!
//! The file's `def`s and combinators, the combinators of the core library,
//! the ACTs and observations of the file's environment, its pointers, the
//! data names and sizes of a `ram` program, and the words of its
//! environment (`END`, and `LEFT`, `RIGHT` where an ACT takes a direction;
//! no `WHITE` where nothing is coloured).
//! Half-typed text still completes: the parser's error recovery keeps every
//! item that parsed, and the client filters by what has been typed. A name
//! is offered once (the first meaning found wins), checked in a set, so the
//! list costs time linear in the file.

use std::collections::HashSet;

use cnpi::env;
use cnpi::program::EnvKind;
use lsp_types::{CompletionItem, CompletionItemKind};

use crate::document::Document;
use crate::{data, library};

pub fn completions(document: &Document) -> Vec<CompletionItem> {
    let mut items = Vec::new();
    let mut offered = HashSet::new();
    let mut add = |label: String, kind, detail: String| {
        if offered.insert(label.clone()) {
            items.push(CompletionItem {
                label,
                kind: Some(kind),
                detail: Some(detail),
                ..CompletionItem::default()
            });
        }
    };
    for def in document.defs() {
        let detail = match &def.body {
            cnpi::syntax::ast::DefBody::Applier(a) => cnpi::format::applier(a),
            cnpi::syntax::ast::DefBody::Normal(_) => format!("{}()", def.name.name),
            cnpi::syntax::ast::DefBody::Hole(h) => cnpi::format::hole(h),
        };
        add(def.name.name.clone(), CompletionItemKind::FUNCTION, detail);
    }
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
    for declared in data::declared(document) {
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
    items
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
