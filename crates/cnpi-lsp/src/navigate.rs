//! Navigation: go to a `def`, find its uses, and list the file's symbols.
//!
//! A `def` (or a `combinator` the file defines) is found by name from any
//! place its name is written; its references are every callee or
//! combinator written with that name, and its own name when the client
//! asks for the declaration too. A local of a `ram` program goes to its
//! first assignment.

#![allow(deprecated)] // `DocumentSymbol::deprecated` must still be written.

use cnpi::span::Span;
use cnpi::syntax::ast;
use lsp_types::{DocumentSymbol, SymbolKind};

use crate::document::{Document, MAX_ITEMS, Role};
use crate::locals;

/// Where the definition named at `offset` is: its name's span.
pub fn definition(document: &Document, offset: usize) -> Option<Span> {
    let name = document.name_at(offset)?;
    if name.role == Role::Word
        && let Some(local) = locals::local(document, offset, document.name_text(name))
    {
        // A local's definition is its first assignment (or parameter).
        return Some(local.span);
    }
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
        .take(MAX_ITEMS)
        .collect()
}

/// The file's definitions as symbols: `def`s, combinators and the `env`;
/// the first [`MAX_ITEMS`] of them, and then a last symbol that counts the
/// others, at the first one left out.
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
    let to_symbol = |item: &ast::Item| match item {
        ast::Item::Def(def) => {
            let detail = match &def.body {
                ast::DefBody::Applier(applier) => cnpi::format::applier(applier),
                ast::DefBody::Normal(_) => "normal program".to_string(),
                ast::DefBody::Hole(hole) => cnpi::format::hole(hole),
            };
            // A block's span reaches the next item: end at its text.
            let end = def.span.start + document.text_of(def.span).len();
            let span = Span::new(def.span.source, def.span.start, end);
            let kind = SymbolKind::FUNCTION;
            Some(symbol(
                &def.name.name,
                Some(detail),
                kind,
                span,
                def.name.span,
            ))
        }
        ast::Item::Combinator(c) => {
            let end = c.span.start + document.text_of(c.span).len();
            let span = Span::new(c.span.source, c.span.start, end);
            let detail = Some("combinator".into());
            Some(symbol(
                &c.name.name,
                detail,
                SymbolKind::OPERATOR,
                span,
                c.name.span,
            ))
        }
        ast::Item::Env(env) => {
            let name = format!("env {}", env.kind.name);
            Some(symbol(
                &name,
                None,
                SymbolKind::NAMESPACE,
                env.span,
                env.kind.span,
            ))
        }
        _ => None,
    };
    let mut listed = (document.tree.items.iter()).filter(|item| {
        matches!(
            item,
            ast::Item::Def(_) | ast::Item::Combinator(_) | ast::Item::Env(_)
        )
    });
    let mut symbols: Vec<DocumentSymbol> = (listed.by_ref().take(MAX_ITEMS))
        .filter_map(to_symbol)
        .collect();
    if let Some(first) = listed.next() {
        let others = 1 + listed.count();
        let span = first.span();
        symbols.push(symbol(
            &format!("… {others} more definitions, not listed"),
            Some(format!("cnpic lsp lists at most {MAX_ITEMS} symbols")),
            SymbolKind::NULL,
            span,
            span,
        ));
    }
    symbols
}
