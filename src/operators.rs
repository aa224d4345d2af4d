//! The operators of conditions and position expressions, and the language's
//! nesting bound: the vocabulary the parse tree, the checked program and
//! the program-memory codec share. A leaf module, so that no phase reaches
//! into another for them.

/// The deepest nesting of brackets and blocks a source file may have; the
/// checked program's expressions are therefore at most this deep, which
/// bounds every recursive walk over them.
pub const MAX_DEPTH: usize = 100_000;

/// The stack a thread of the front end runs on, enough to walk a tree
/// [`MAX_DEPTH`] levels deep: `cnpic`'s compiler and the language server's
/// threads (their pages are allocated only when touched).
pub const STACK_BYTES: usize = 1 << 30;

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

    /// How tightly the operator binds: sums, then products.
    pub fn strength(self) -> Strength {
        match self {
            ArithOp::Add | ArithOp::Sub => Strength::Sum,
            ArithOp::Mul | ArithOp::Div | ArithOp::Rem => Strength::Term,
        }
    }
}

/// How tightly an expression binds, loosest first: the grammar's levels,
/// by which the formatter (`format::expr`) and the program printer
/// (`program::print`) both put in exactly the parentheses needed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Strength {
    Or,
    And,
    Not,
    Compare,
    Sum,
    Term,
    Unary,
    Atom,
}

impl Strength {
    /// The next tighter level: what the right operand of a left-associative
    /// operator at this level needs (`a - (b - c)`).
    pub fn tighter(self) -> Strength {
        match self {
            Strength::Or => Strength::And,
            Strength::And => Strength::Not,
            Strength::Not => Strength::Compare,
            Strength::Compare => Strength::Sum,
            Strength::Sum => Strength::Term,
            Strength::Term => Strength::Unary,
            Strength::Unary | Strength::Atom => Strength::Atom,
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
    /// Every comparison, in the order `cnpic learn` tries them.
    pub const ALL: [CompareOp; 6] = [
        CompareOp::Eq,
        CompareOp::Ne,
        CompareOp::Lt,
        CompareOp::Le,
        CompareOp::Gt,
        CompareOp::Ge,
    ];
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
