//! The operators of conditions and position expressions, and the language's
//! nesting bound: the vocabulary the parse tree, the checked program and
//! the program-memory codec share. A leaf module, so that no phase reaches
//! into another for them.

/// The deepest nesting of brackets and blocks a source file may have; the
/// checked program's expressions are therefore at most this deep, which
/// bounds every recursive walk over them.
pub const MAX_DEPTH: usize = 100_000;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ArithOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CompareOp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}
