//! The checked program: what the checker hands to the interpreters.
//!
//! Every name is resolved to an index, every expression is typed (position,
//! value, symbol or bool), every ACT application is an [`Act`] (the
//! machine's own, or one its environment [`declared`]), and the combinators carry the slot sequences read from their stdlib
//! definitions. Nothing here can fail to make sense at run time except the
//! runtime errors the environments define (SWAP at END, a zero divisor, ...).

pub mod calls;
pub mod data;
pub mod declared;
pub mod expr;
pub mod flat;
pub mod hidden;
pub mod locals;
pub mod print;
pub mod reach;
pub mod reads;

pub use data::{Data, DataKind};
pub use declared::{ActArg, ActDecl, EnvAct, EnvKind, Observation, ObservationKind, ParamType};
pub use expr::{
    BoolExpr, CallExpr, Cell, EvalError, Indices, Leaf, Operand, PosExpr, PosKind, Relation,
    SymExpr, ValExpr, World, relation,
};

use crate::span::Span;

/// Index of a pointer in [`Program::pointers`].
pub type PointerId = usize;
/// Index of a definition in [`Program::defs`].
pub type DefId = usize;
/// Index of a declared name in [`Program::data`].
pub type DataId = usize;

#[derive(Clone, Debug)]
pub struct Program {
    pub env: EnvKind,
    pub pointers: Vec<Pointer>,
    /// The names a `ram` program declares (`input`, `var`, sizes), in
    /// declaration order; empty in other environments.
    pub data: Vec<Data>,
    /// The pointers a `treerec` state holds, from `state(...)`.
    pub state: Option<Vec<PointerId>>,
    pub defs: Vec<Def>,
    /// The combinators' behaviour, read from `stdlib/core.cnpi`.
    pub combinators: Combinators,
    /// The definition `run` starts from (`--entry` or the unique root).
    pub entry: DefId,
    /// The holes `?` inside normal programs, in textual order. Each stands
    /// in the checked bodies as its own node ([`Stmt::Hole`],
    /// [`BoolExpr::Hole`], [`PosKind::Hole`]), holding its index here, that
    /// no engine runs ([`crate::compile::runnable`]).
    pub blanks: Vec<Blank>,
}

/// A hole inside a normal program (`while ?:`, `i = ?`, a line `?`), for
/// `cnpic learn` to fill.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Blank {
    pub kind: BlankKind,
    /// The `?`.
    pub span: Span,
    /// The normal program it stands in.
    pub def: DefId,
}

/// What may fill a [`Blank`]: its place in the program decides.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BlankKind {
    /// `while ?:`, `if ?:`, an operand of `and`, `or`, `not`.
    Condition,
    /// An integer expression: `i = ?`, `A[?] = key`, `OUT(?)`, `? + 1`.
    Expression,
    /// A whole statement: an assignment, a write, `SWAP`, `OUT` or a call.
    Statement,
}

impl BlankKind {
    /// What may fill a blank of this kind, for messages and hovers.
    pub fn describe(self) -> &'static str {
        match self {
            BlankKind::Condition => {
                "a condition: a comparison of two terms, or `and`/`or` of two comparisons"
            }
            BlankKind::Expression => {
                "an integer expression: terms combined by `+ - * / %`, up to three operators"
            }
            BlankKind::Statement => "a statement: an assignment, a write, `SWAP`, `OUT` or a call",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pointer {
    pub name: String,
    pub init: PosExpr,
    pub span: Span,
    /// The normal program whose local it is (language.md §5.2): each
    /// activation has its own, and no run reports it. `None` for a
    /// register of the `env` line (or one the conversion adds).
    pub owner: Option<DefId>,
}

impl Pointer {
    /// Whether a run reports the register: not a local, not one of the
    /// conversion's hidden registers.
    pub fn reported(&self) -> bool {
        self.owner.is_none() && !hidden::hidden(&self.name)
    }
}

#[derive(Clone, Debug)]
pub struct Def {
    pub name: String,
    /// The name in the `def` line.
    pub span: Span,
    /// The registers `def F(x, y):` names, in order (each a pointer of
    /// [`Program::pointers`]); empty for appliers and `def F():`.
    pub params: Vec<PointerId>,
    pub body: Body,
}

#[derive(Clone, Debug)]
#[allow(clippy::large_enum_variant)] // built once per definition; boxing buys nothing.
pub enum Body {
    Applier(Applier),
    Normal(Vec<Stmt>),
    /// `def NAME: ?(...)`: an applier left for `cnpic learn` to find. A
    /// program with a hole checks, but no engine runs it.
    Hole(Hole),
}

/// A hole, with the conditions it lists (besides those the file writes).
#[derive(Clone, Debug)]
pub struct Hole {
    pub conditions: Vec<BoolExpr>,
    /// The `?` and its list, in the source.
    pub span: Span,
}

impl Program {
    /// The definitions that are holes, in file order.
    pub fn holes(&self) -> impl Iterator<Item = (DefId, &Hole)> {
        self.defs
            .iter()
            .enumerate()
            .filter_map(|(id, def)| match &def.body {
                Body::Hole(hole) => Some((id, hole)),
                _ => None,
            })
    }
}

#[derive(Clone, Debug)]
#[allow(clippy::large_enum_variant)] // built once per definition; boxing buys nothing.
pub enum Applier {
    /// `COMB(c?; a1, a2, a3)`; `detector` is `None` for `seq`.
    Combinator {
        combinator: Combinator,
        detector: Option<BoolExpr>,
        args: [Callee; 3],
        span: Span,
    },
    /// An applier that applies one ACT.
    Act(ActApp),
}

/// A callable argument or call target.
#[derive(Clone, Debug)]
pub enum Callee {
    /// Another definition (an applier or a normal program).
    Def(DefId, Span),
    /// An ACT (including `NOP` and `_push(...)`).
    Act(ActApp),
}

/// An ACT applied to its arguments, with the source text that named it.
#[derive(Clone, Debug)]
pub struct ActApp {
    pub act: Act,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    Left,
    Right,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Color {
    White,
    Grey,
    Black,
}

/// An ACT applied in a program: one of the machine's, which change only
/// the pointers or the state stack, or one its environment declares.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Act {
    Nop,
    /// `MOVE(p, LEFT)` / `MOVE(p, RIGHT)`: p := p ∓ 1.
    Move(PointerId, Direction),
    /// `SET(p, e)`: p := e.
    Set(PointerId, PosExpr),
    /// `_push(e1, ..., ek)`: push a state onto the state stack.
    Push(Vec<PosExpr>),
    /// An operation on the frame stack of exactly converted normal
    /// programs (`_goto(k)`, `_call(k, e1, ..., ek)`, `_enter(k)`,
    /// `_return`); the positions are its arguments, the resume point first.
    Frame(FrameAct, Vec<PosExpr>),
    /// Any other ACT, applied by the environment.
    Env(EnvAct),
}

/// The operations of the frame stack (`exec::FrameStack`), by which the
/// combinatorizer runs normal programs exactly as written (language.md
/// §5.1): one `linrec` dispatches on the top frame's resume point
/// (`_resume`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FrameAct {
    /// `_goto(k)`: the top frame resumes at k.
    Goto,
    /// `_call(k, e1, ..., ek)`: a state call: push a frame resuming at k
    /// that remembers every pointer, then set the state pointers to the
    /// positions (evaluated before anything changes).
    Call,
    /// `_enter(k)`: a plain call: push a frame resuming at k that shares
    /// the pointers.
    Enter,
    /// `_return`: pop the top frame, putting back the pointers it
    /// remembered.
    Return,
}

impl FrameAct {
    pub const ALL: [FrameAct; 4] = [
        FrameAct::Goto,
        FrameAct::Call,
        FrameAct::Enter,
        FrameAct::Return,
    ];

    /// The name programs write.
    pub fn name(self) -> &'static str {
        match self {
            FrameAct::Goto => "_goto",
            FrameAct::Call => "_call",
            FrameAct::Enter => "_enter",
            FrameAct::Return => "_return",
        }
    }
}

/// The user-visible combinators: the four of the stdlib, and those a
/// program defines itself (`Defined(i)` is `Combinators::defined[i]`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Combinator {
    Seq,
    Cond,
    Linrec,
    Treerec,
    Defined(usize),
}

/// A combinator as the machine sees it: the four of [`Combinator`] plus the
/// built-in `_mapself`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CombinatorKind {
    User(Combinator),
    MapSelf,
}

/// A frame slot (the formal callable arguments of a combinator, `self` and
/// the built-ins). Slot order is the order of the frame (K = 9).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Slot {
    SelfSlot,
    A1,
    A2,
    A3,
    PushSentinel,
    MapSelf,
    Pop,
    LoadState,
    Nop,
}

impl Slot {
    pub const ALL: [Slot; 9] = [
        Slot::SelfSlot,
        Slot::A1,
        Slot::A2,
        Slot::A3,
        Slot::PushSentinel,
        Slot::MapSelf,
        Slot::Pop,
        Slot::LoadState,
        Slot::Nop,
    ];

    /// The slot's name as `stdlib/core.cnpi` writes it.
    pub fn name(self) -> &'static str {
        match self {
            Slot::SelfSlot => "self",
            Slot::A1 => "a1",
            Slot::A2 => "a2",
            Slot::A3 => "a3",
            Slot::PushSentinel => "_push_sentinel",
            Slot::MapSelf => "_mapself",
            Slot::Pop => "_pop",
            Slot::LoadState => "_load_state",
            Slot::Nop => "NOP",
        }
    }
}

/// What one combinator does: the slots it calls, one per core step, when
/// its first condition bit is true or false.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Behaviour {
    pub when_true: Vec<Slot>,
    pub when_false: Vec<Slot>,
}

impl Behaviour {
    pub fn slots(&self, bit: bool) -> &[Slot] {
        if bit {
            &self.when_true
        } else {
            &self.when_false
        }
    }
}

/// The behaviours of all five combinators, from `stdlib/core.cnpi`, and of
/// the combinators the program defines.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Combinators {
    pub seq: Behaviour,
    pub cond: Behaviour,
    pub linrec: Behaviour,
    pub treerec: Behaviour,
    pub mapself: Behaviour,
    /// The program's own combinators, in the order of the file (empty in
    /// the stdlib).
    pub defined: Vec<Defined>,
}

/// A combinator defined in a program (`combinator NAME(a1, a2, a3): ...`),
/// accepted by the family rule (`check::family`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Defined {
    pub name: String,
    /// The name in the `combinator` line.
    pub span: Span,
    pub behaviour: Behaviour,
    /// Its body reads `c`: an applier must pass a detector.
    pub reads_c: bool,
}

/// What [`Combinators::get`] gives for a defined combinator the program
/// does not have (a bug in the caller): a body that does nothing.
static NO_BEHAVIOUR: Behaviour = Behaviour {
    when_true: Vec::new(),
    when_false: Vec::new(),
};

impl Combinators {
    pub fn get(&self, kind: CombinatorKind) -> &Behaviour {
        match kind {
            CombinatorKind::User(Combinator::Seq) => &self.seq,
            CombinatorKind::User(Combinator::Cond) => &self.cond,
            CombinatorKind::User(Combinator::Linrec) => &self.linrec,
            CombinatorKind::User(Combinator::Treerec) => &self.treerec,
            CombinatorKind::User(Combinator::Defined(i)) => self
                .defined
                .get(i)
                .map_or(&NO_BEHAVIOUR, |defined| &defined.behaviour),
            CombinatorKind::MapSelf => &self.mapself,
        }
    }

    /// The combinator's name as programs write it.
    pub fn name(&self, kind: CombinatorKind) -> &str {
        match kind {
            CombinatorKind::User(Combinator::Defined(i)) => {
                self.defined.get(i).map_or("?", |d| d.name.as_str())
            }
            other => print::combinator_name(other),
        }
    }
}

/// A statement of a normal program.
#[derive(Clone, Debug)]
pub enum Stmt {
    Act(ActApp),
    /// `F()`: shares all pointers with the caller.
    Call(DefId, Span),
    /// `F(e1, ..., ek)`: saves all pointers, sets the state pointers, runs F,
    /// restores all pointers.
    StateCall(DefId, Vec<PosExpr>, Span),
    If {
        condition: BoolExpr,
        then: Vec<Stmt>,
        otherwise: Vec<Stmt>,
        span: Span,
    },
    While {
        condition: BoolExpr,
        body: Vec<Stmt>,
        span: Span,
    },
    Pass(Span),
    /// `F(e1, ..., ek)` to a normal program with k ≥ 1 parameters:
    /// evaluates the arguments left to right, saves every register, sets
    /// the parameters, runs F and puts every register back; a value F
    /// returns is dropped.
    ParamCall(CallExpr),
    /// `return e` / `return`: ends the running call of the definition,
    /// with the value of `e` or without one.
    Return {
        value: Option<PosExpr>,
        span: Span,
    },
    /// A hole `?` standing as a whole statement, for `cnpic learn`: the
    /// index of its [`Blank`] in [`Program::blanks`], and the `?`. No
    /// engine runs it.
    Hole(usize, Span),
}

impl Stmt {
    /// Where the statement is written (an `if` or a `while` from its
    /// keyword to the end of its block).
    pub fn span(&self) -> Span {
        match self {
            Stmt::Act(app) => app.span,
            Stmt::ParamCall(call) => call.span,
            Stmt::Call(_, span) | Stmt::StateCall(_, _, span) | Stmt::Pass(span) => *span,
            Stmt::Hole(_, span) => *span,
            Stmt::If { span, .. } | Stmt::While { span, .. } | Stmt::Return { span, .. } => *span,
        }
    }
}

impl Act {
    /// Builds the ACT `decl` declares from arguments already checked
    /// against it; `None` when they do not fit its parameters. The
    /// machine's ACTs (`NOP`, `MOVE`, `SET`) get their own variants.
    pub fn build(decl: &'static ActDecl, args: Vec<ActArg>) -> Option<Act> {
        if !decl.fits(&args) {
            return None;
        }
        if *decl == declared::NOP {
            return Some(Act::Nop);
        }
        if *decl == declared::MOVE || *decl == declared::SET {
            let mut args = args.into_iter();
            return match (args.next(), args.next()) {
                (Some(ActArg::Pointer(p)), Some(ActArg::Direction(d))) => Some(Act::Move(p, d)),
                (Some(ActArg::Pointer(p)), Some(ActArg::Position(e))) => Some(Act::Set(p, e)),
                _ => None,
            };
        }
        Some(Act::Env(EnvAct { decl, args }))
    }

    /// The ACT's name as written in programs.
    pub fn name(&self) -> &'static str {
        match self {
            Act::Nop => declared::NOP.name,
            Act::Move(..) => declared::MOVE.name,
            Act::Set(..) => declared::SET.name,
            Act::Push(_) => "_push",
            Act::Frame(op, _) => op.name(),
            Act::Env(act) => act.name(),
        }
    }

    /// Its arguments, in order, as the declared types see them (`_push`'s
    /// are positions).
    pub fn args(&self) -> Vec<ActArg> {
        match self {
            Act::Nop => Vec::new(),
            Act::Move(p, d) => vec![ActArg::Pointer(*p), ActArg::Direction(*d)],
            Act::Set(p, e) => vec![ActArg::Pointer(*p), ActArg::Position(e.clone())],
            Act::Push(exprs) | Act::Frame(_, exprs) => {
                exprs.iter().cloned().map(ActArg::Position).collect()
            }
            Act::Env(act) => act.args.clone(),
        }
    }
}
