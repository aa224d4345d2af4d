//! The parse tree of a `.cnpi` file.
//!
//! The parser produces these types and nothing else; names are not resolved
//! and kinds are not known yet (`seq`, `MOVE`, `LEFT` and a user definition
//! are all just [`Ident`]s). The checker turns a [`File`] into a typed
//! `program::Program`. Stdlib files use the same tree, with the extra items
//! [`Item::Act`], [`Item::Observe`] and [`Item::Combinator`] that user files
//! may not contain.

pub use crate::operators::{ArithOp, CompareOp};
use crate::span::Span;

/// A name and where it was written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ident {
    pub name: String,
    pub span: Span,
}

/// A whole source file: its items in textual order.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct File {
    pub items: Vec<Item>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Item {
    /// `env KIND(P = INIT, ...)`
    Env(EnvDecl),
    /// `state(lo, hi)`
    State(StateDecl),
    /// `def NAME: APPLIER`, `def NAME: ?` or `def NAME(): BLOCK`
    Def(Def),
    /// Stdlib only: `act NAME` or `act NAME(TYPE, ...)`
    Act(ActDecl),
    /// Stdlib only: `observe NAME[TYPE] -> TYPE` or `observe NAME(TYPE) -> TYPE`
    Observe(ObserveDecl),
    /// Stdlib only: `combinator NAME(PARAMS) [detects COND]: BLOCK`
    Combinator(CombinatorDecl),
    /// `input A[n]`, `var d[n] = -1`: data a `ram` program declares.
    Data(DataDecl),
}

impl Item {
    /// Where the item is written.
    pub fn span(&self) -> Span {
        match self {
            Item::Env(d) => d.span,
            Item::State(d) => d.span,
            Item::Def(d) => d.span,
            Item::Act(d) => d.span,
            Item::Observe(d) => d.span,
            Item::Combinator(d) => d.span,
            Item::Data(d) => d.span,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EnvDecl {
    pub kind: Ident,
    pub pointers: Vec<PointerInit>,
    pub span: Span,
}

/// `NAME = INIT` inside the `env` line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PointerInit {
    pub name: Ident,
    pub init: Expr,
}

/// `KEYWORD NAME[DIM]...[= INIT]`: `input x`, `input A[n]`, `input W[n][n]`,
/// `var d[n + 1] = -1`, `var t = 0`. The keyword is any name to the parser
/// (`input` and `var` are not reserved words); the checker reads it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DataDecl {
    pub keyword: Ident,
    pub name: Ident,
    pub dims: Vec<Expr>,
    pub init: Option<Expr>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StateDecl {
    pub pointers: Vec<Ident>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Def {
    pub name: Ident,
    /// `def F(x, y):`'s parameters; empty for `def F():` and appliers.
    pub params: Vec<Ident>,
    pub body: DefBody,
    /// From `def` to the end of the body.
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DefBody {
    /// `def NAME: APPLIER`
    Applier(Applier),
    /// `def NAME(PARAMS): BLOCK`
    Normal(Block),
    /// `def NAME: ?` or `def NAME: ?(COND?, ...)`: a hole `cnpic learn`
    /// fills.
    Hole(Hole),
}

/// A hole: an applier left for `cnpic learn` to find, with the conditions
/// it lists besides those written elsewhere in the file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hole {
    pub conditions: Vec<Expr>,
    /// From `?` to the closing `)`.
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Applier {
    /// `COMB(DETECTOR? ; ARG, ARG, ...)`. The parser accepts any number of
    /// arguments; the checker demands three.
    Combinator {
        combinator: Ident,
        detector: Option<Expr>,
        args: Vec<Call>,
        span: Span,
    },
    /// `ACT` or `ACT(ARGS)`: an applier that applies an ACT.
    Act(Call),
}

/// A name, optionally applied to arguments: `NOP`, `BSTEP`, `MOVE(P1, RIGHT)`,
/// `_push(lo, pivot - 1)`, `F()`. Used for applier arguments and for call
/// statements; the checker decides what the name is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Call {
    pub name: Ident,
    /// `None` for a bare name, `Some(vec![])` for `F()`.
    pub args: Option<Vec<Expr>>,
    pub span: Span,
}

/// The statements of an indented block (or of a same-line simple statement).
pub type Block = Vec<Stmt>;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stmt {
    /// `SWAP(P1, P2)`, `NOP`, `F()`, `F(lo, pivot - 1)`
    Call(Call),
    /// `i = e`, `A[e] = v`, `D[e][f] = v`: a write (`ram`); the target is
    /// a `Name`, `Index` or `Index2` expression. With `op`, a compound
    /// assignment (`i += e`). Several places at once (`a, b = e1, e2`,
    /// `q, r = F(x)`) have a [`ExprKind::Tuple`] target.
    Assign {
        target: Expr,
        op: Option<ArithOp>,
        value: Expr,
        span: Span,
    },
    /// `if c: ... [elif c: ...] [else: ...]`. An `elif` is an `If` alone
    /// in the `otherwise` block of the one before, with `elif` set.
    If {
        condition: Expr,
        then: Block,
        otherwise: Option<Block>,
        elif: bool,
        span: Span,
    },
    /// `for i = a to b:` or `for i = a downto b:` (`word` is `to` or
    /// `downto`; the checker refuses any other).
    For {
        variable: Ident,
        from: Expr,
        word: Ident,
        to: Expr,
        body: Block,
        span: Span,
    },
    /// `break` (leave the innermost loop).
    Break(Span),
    /// `continue` (the innermost loop's next round).
    Continue(Span),
    /// `var L[e]` or `var M[e1][e2]` (with `= e0`) inside a block: an
    /// array of the activation (`ram`).
    LocalArray(DataDecl),
    While {
        condition: Expr,
        body: Block,
        span: Span,
    },
    Pass(Span),
    /// `return e` or a bare `return`: ends the activation, with a value or
    /// without one.
    Return {
        value: Option<Expr>,
        span: Span,
    },
    /// `?` as a whole statement: left for `cnpic learn` to find.
    Hole(Span),
}

impl Stmt {
    /// Where the statement is written.
    pub fn span(&self) -> Span {
        match self {
            Stmt::Call(call) => call.span,
            Stmt::LocalArray(decl) => decl.span,
            Stmt::If { span, .. }
            | Stmt::For { span, .. }
            | Stmt::Break(span)
            | Stmt::Continue(span)
            | Stmt::While { span, .. }
            | Stmt::Assign { span, .. }
            | Stmt::Return { span, .. }
            | Stmt::Pass(span)
            | Stmt::Hole(span) => *span,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExprKind {
    /// An unsigned decimal literal that fits in an i64.
    Int(i64),
    /// A character literal, `'a'`: the integer of its code point.
    Char(char),
    /// Any name: a pointer, `END`, `LAST`, `LEFT`, `WHITE`, `OK`, `c` ...
    Name(String),
    /// `-e`
    Neg(Box<Expr>),
    Arith(ArithOp, Box<Expr>, Box<Expr>),
    Compare(CompareOp, Box<Expr>, Box<Expr>),
    And(Box<Expr>, Box<Expr>),
    Or(Box<Expr>, Box<Expr>),
    Not(Box<Expr>),
    /// `NAME[e]`
    Index(Ident, Box<Expr>),
    /// `NAME[e][f]`: an element of a matrix (`ram`).
    Index2(Ident, Box<Expr>, Box<Expr>),
    /// `NAME(e, ...)` inside an expression: an observation, or a call of
    /// a normal program for its value (`FIB(k - 1)`).
    Apply(Ident, Vec<Expr>),
    /// `e1, e2, ...`: several values (`return a, b`) or places
    /// (`a, b = ...`); only there.
    Tuple(Vec<Expr>),
    /// `?` where a condition or an integer expression goes: left for
    /// `cnpic learn` to find (a hole in a normal program).
    Hole,
    /// Placeholder left by error recovery; never reaches the checker's output.
    Error,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ActDecl {
    pub name: Ident,
    /// Parameter types (`pointer`, `position`, `direction`, `color`) or a
    /// literal word (`OK`); `None` for a bare `act NOP`.
    pub params: Option<Vec<Ident>>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ObserveDecl {
    pub name: Ident,
    /// True for `NAME[TYPE]`, false for `NAME(TYPE, ...)`.
    pub indexed: bool,
    pub params: Vec<Ident>,
    pub result: Ident,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CombinatorDecl {
    pub name: Ident,
    pub params: Vec<Ident>,
    /// A built-in detector (`_mapself`'s `_top != SENTINEL`); `None` when the
    /// combinator uses the detector its applier passes.
    pub detector: Option<Expr>,
    pub body: Block,
    pub span: Span,
}
