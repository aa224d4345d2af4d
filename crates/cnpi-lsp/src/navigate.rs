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
    if matches!(name.role, Role::Pointer | Role::Word) {
        return None;
    }
    defined(document, &name.name)
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
    if matches!(name.role, Role::Pointer | Role::Word) || defined(document, &name.name).is_none() {
        return Vec::new();
    }
    document
        .names
        .iter()
        .filter(|n| n.name == name.name)
        .filter(|n| match n.role {
            Role::Definition => declaration,
            Role::Callee | Role::Combinator => true,
            Role::Pointer | Role::Word => false,
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{complete, hover};

    const EXAMPLE: &str = include_str!("../../../examples/user_combinator.cnpi");

    fn offset(text: &str, needle: &str) -> usize {
        text.find(needle)
            .unwrap_or_else(|| panic!("`{needle}` in the text"))
    }

    #[test]
    fn combinators_the_file_defines_are_navigable() {
        let document = Document::new("user_combinator.cnpi", EXAMPLE.to_string());
        assert!(
            document.diagnostics.is_empty(),
            "{:?}",
            document.diagnostics
        );
        // Definition and references of `both` from its use in STEP.
        let used = offset(EXAMPLE, "both(; OUT");
        let declared = definition(&document, used).expect("found");
        assert_eq!(&EXAMPLE[declared.range()], "both");
        assert_eq!(declared.start, offset(EXAMPLE, "both(first"));
        assert_eq!(references(&document, used, true).len(), 3);
        assert_eq!(references(&document, used, false).len(), 2);
        // Hover shows the definition; completion and symbols list it.
        let text = hover::hover(&document, offset(EXAMPLE, "repeat(i")).expect("a hover");
        assert!(
            text.contains("combinator repeat(step, unused, unused2):"),
            "{text}"
        );
        let labels: Vec<String> = (complete::completions(&document).into_iter())
            .map(|c| c.label)
            .collect();
        assert!(labels.contains(&"repeat".to_string()), "{labels:?}");
        let names: Vec<String> = symbols(&document).into_iter().map(|s| s.name).collect();
        assert!(names.contains(&"both".to_string()), "{names:?}");
    }

    #[test]
    fn a_body_outside_the_family_is_reported_where_it_breaks_the_rule() {
        let text = "env array(i = 0)\ncombinator twice(a1, a2, a3):\n  a1\n  a1\ndef MAIN: twice(; NOP, NOP, NOP)\n";
        let document = Document::new("twice.cnpi", text.to_string());
        let codes: Vec<&str> = document.diagnostics.iter().map(|d| d.code.0).collect();
        assert_eq!(codes, ["E0111"]);
        let span = document.diagnostics[0].span().expect("a span");
        assert_eq!(span.start, offset(text, "a1\ndef"));
    }
}
