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

impl ArithOp {
    /// How the operator is written.
    pub fn symbol(self) -> &'static str {
        match self {
            ArithOp::Add => "+",
            ArithOp::Sub => "-",
            ArithOp::Mul => "*",
            ArithOp::Div => "/",
            ArithOp::Rem => "%",
        }
    }

    /// How its compound assignment is written (`+=`).
    pub fn assign_symbol(self) -> &'static str {
        match self {
            ArithOp::Add => "+=",
            ArithOp::Sub => "-=",
            ArithOp::Mul => "*=",
            ArithOp::Div => "/=",
            ArithOp::Rem => "%=",
        }
    }
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

impl CompareOp {
    /// How the operator is written (ASCII, never the `≠ ≤ ≥` aliases).
    pub fn symbol(self) -> &'static str {
        match self {
            CompareOp::Eq => "==",
            CompareOp::Ne => "!=",
            CompareOp::Lt => "<",
            CompareOp::Le => "<=",
            CompareOp::Gt => ">",
            CompareOp::Ge => ">=",
        }
    }
}
