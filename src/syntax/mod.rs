//! Syntax: source text to parse tree.
//!
//! The logos lexer produces tokens, the layout pass turns indentation into
//! block tokens, and the lalrpop grammar (`grammar/cnpi.lalrpop`) builds an
//! [`ast::File`]. Syntax errors are recovered from, so one run reports
//! several of them as diagnostics.

pub mod ast;
