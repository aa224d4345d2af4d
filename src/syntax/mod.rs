//! Syntax: source text to parse tree.
//!
//! The logos lexer ([`lexer`]) produces tokens, the layout pass ([`layout`])
//! turns indentation into block tokens, and the lalrpop grammar
//! (`grammar/cnpi.lalrpop`) builds an [`ast::File`]. Syntax errors are
//! recovered from, so one run reports several of them as diagnostics
//! ([`error`] words them); [`parse`] never fails and never panics.

pub mod ast;
mod error;
mod layout;
mod lexer;
pub mod visit;

lalrpop_util::lalrpop_mod!(
    #[allow(clippy::all, clippy::pedantic, unused_qualifications, dead_code)]
    grammar,
    "/cnpi.rs"
);

use crate::diagnostic::Diagnostic;
use crate::span::{SourceId, Span};

pub use layout::MAX_DEPTH;

/// Parses one source file. Spans carry `id`. The tree holds every item and
/// statement that parsed; the diagnostics (sorted by position) say what did
/// not.
pub fn parse(source: &str, id: SourceId) -> (ast::File, Vec<Diagnostic>) {
    let mut diagnostics = Vec::new();
    let tokens = lexer::lex(source, id, &mut diagnostics);
    let tokens = layout::layout(source, id, tokens, &mut diagnostics);
    let mut recovered = Vec::new();
    let result = grammar::FileParser::new().parse(
        id,
        &mut recovered,
        tokens.into_iter().map(Ok::<_, std::convert::Infallible>),
    );
    let file = result.unwrap_or_else(|error| {
        recovered.push(lalrpop_util::ErrorRecovery {
            error,
            dropped_tokens: Vec::new(),
        });
        ast::File::default()
    });
    diagnostics.extend(
        recovered
            .into_iter()
            .filter_map(|recovery| error::syntax_error(recovery.error, id)),
    );
    diagnostics.sort_by_key(|d| d.span().map(|span| span.start));
    (file, diagnostics)
}

/// An expression node spanning `start..end`; used by the grammar's actions.
fn expr(id: SourceId, start: usize, end: usize, kind: ast::ExprKind) -> ast::Expr {
    ast::Expr {
        kind,
        span: Span::new(id, start, end),
    }
}
