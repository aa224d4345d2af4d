//! Navigation: go to a `def`, find its uses, and list the file's symbols.
//!
//! A `def` (or a `combinator` the file defines) is found by name from any
//! place its name is written; its references are every callee or
//! combinator written with that name, and its own name when the client
//! asks for the declaration too.

#![allow(deprecated)] // `DocumentSymbol::deprecated` must still be written.

use cnpi::span::Span;
use cnpi::syntax::ast;
use lsp_types::{DocumentSymbol, SymbolKind};

use crate::document::{Document, Role};

/// Where the definition named at `offset` is: its name's span.
pub fn definition(document: &Document, offset: usize) -> Option<Span> {
    let name = document.name_at(offset)?;
    if matches!(name.role, Role::Pointer | Role::Word | Role::Hole(_)) {
        return None;
    }
    defined(document, document.name_text(name))
}

/// The span of the name of the `def` or `combinator` called `name`.
fn defined(document: &Document, name: &str) -> Option<Span> {
    document.def(name).map(|def| def.name.span).or_else(|| {
        document
            .combinators()
            .find(|c| c.name.name == name)
            .map(|c| c.name.span)
    })
}

/// Every use of the definition named at `offset` (and its own name when
/// `declaration` is set).
pub fn references(document: &Document, offset: usize, declaration: bool) -> Vec<Span> {
    let Some(name) = document.name_at(offset) else {
        return Vec::new();
    };
    let text = document.name_text(name);
    if matches!(name.role, Role::Pointer | Role::Word | Role::Hole(_))
        || defined(document, text).is_none()
    {
        return Vec::new();
    }
    document
        .names
        .iter()
        .filter(|n| document.name_text(n) == text)
        .filter(|n| match n.role {
            Role::Definition => declaration,
            Role::Callee | Role::Combinator => true,
            Role::Pointer | Role::Word | Role::Hole(_) => false,
        })
        .map(|n| n.span)
        .collect()
}

/// The file's definitions as symbols: `def`s, combinators and the `env`.
pub fn symbols(document: &Document) -> Vec<DocumentSymbol> {
    let symbol = |name: &str, detail: Option<String>, kind, span: Span, selection: Span| {
        let range = document.index.range(&document.text, span);
        DocumentSymbol {
            name: name.to_string(),
            detail,
            kind,
            tags: None,
            deprecated: None,
            range,
            selection_range: document.index.range(&document.text, selection),
            children: None,
        }
    };
    document
        .tree
        .items
        .iter()
        .filter_map(|item| match item {
            ast::Item::Def(def) => {
                let detail = match &def.body {
                    ast::DefBody::Applier(applier) => cnpi::format::applier(applier),
                    ast::DefBody::Normal(_) => "normal program".to_string(),
                    ast::DefBody::Hole(hole) => cnpi::format::hole(hole),
                };
                // A block's span reaches the next item: end at its text.
                let end = def.span.start + document.text_of(def.span).len();
                let span = Span::new(def.span.source, def.span.start, end);
                Some(symbol(
                    &def.name.name,
                    Some(detail),
                    SymbolKind::FUNCTION,
                    span,
                    def.name.span,
                ))
            }
            ast::Item::Combinator(c) => {
                let end = c.span.start + document.text_of(c.span).len();
                let span = Span::new(c.span.source, c.span.start, end);
                Some(symbol(
                    &c.name.name,
                    Some("combinator".into()),
                    SymbolKind::OPERATOR,
                    span,
                    c.name.span,
                ))
            }
            ast::Item::Env(env) => Some(symbol(
                &format!("env {}", env.kind.name),
                None,
                SymbolKind::NAMESPACE,
                env.span,
                env.kind.span,
            )),
            _ => None,
        })
        .collect()
}
