//! The output program as data: definitions whose bodies are combinator
//! applications over arguments. [`super::emit`] builds it and
//! [`super::print`] writes it as text.

use crate::program::{Act, BoolExpr, Combinator};
use crate::span::Span;

/// A callable argument of an output applier.
#[derive(Clone, Debug)]
pub enum Arg {
    Nop,
    Act(Act),
    Def(String),
}

/// A combinator applied to a detector and three arguments.
#[derive(Clone, Debug)]
pub struct Comb {
    pub combinator: Combinator,
    pub detector: Option<BoolExpr>,
    pub args: [Arg; 3],
    /// Where each argument came from in the user's source, when it is
    /// code of its own there (an ACT statement).
    pub origins: [Option<Span>; 3],
}

/// An argument, or a combinator application that still needs a name.
#[derive(Clone, Debug)]
pub enum Node {
    Arg(Arg),
    Comb(Box<Comb>),
}

/// One definition of the output.
#[derive(Clone, Debug)]
pub struct OutDef {
    pub name: String,
    /// `from lines 4-7: while j != hi`
    pub comment: Option<String>,
    pub node: Node,
    /// The source it came from: the program's name in its `def` line, or
    /// the first line of the statements a helper holds.
    pub origin: Span,
    /// When the definition is one `while` loop of the source, the whole
    /// loop: what an error about the definition as a whole (E0701, a loop
    /// that starts over with nothing changed) points at, as the reference
    /// interpreter's does.
    pub runs: Option<Span>,
}
