//! A filling put into the checked sketch without the front end: the
//! sketch is checked once, each hole its own node there ([`Stmt::Hole`],
//! [`BoolExpr::Hole`], [`PosKind::Hole`]), and each candidate of a hole
//! in a normal program is a program value ([`Piece`]: conditions,
//! expressions and statements are grown as values by [`super::grow`],
//! never written as text nor parsed; an applier hole's candidate is
//! checked once in the sketch's text with only its hole filled). A
//! filling is then the sketch's checked bodies with each hole's node
//! replaced by its piece, ready for the reference interpreter; only the
//! answer (and a message's filling) is printed ([`Candidate::text`]).

use std::sync::OnceLock;

use cnpi::program::{
    Act, ActArg, Applier, BoolExpr, Operand, PosExpr, PosKind, Program, Stmt, SymExpr,
};

/// A candidate for one hole, checked.
#[derive(Clone, Debug)]
pub enum Piece {
    Condition(BoolExpr),
    Expression(PosExpr),
    Statement(Stmt),
    /// The body of an applier hole ([`super::appliers`]).
    Applier(Box<Applier>),
}

/// A candidate for one hole: its piece, a program value (set when first
/// asked for only for an applier hole's candidate, which is checked in
/// the sketch's text, `source`; `None`: it does not check there). No text
/// is written for the others: [`Candidate::text`] prints one for the
/// answer and the messages.
#[derive(Debug)]
pub struct Candidate {
    pub piece: OnceLock<Option<Piece>>,
    /// An applier candidate's text, checked on first use.
    source: Option<String>,
    /// The shape of what a statement does (`None`: not known, and the
    /// search compares it with no other statement): two statements of one
    /// shape whose positions (its ACT's, in order: `X[t] = e` writes the
    /// array `X`, its shape, at `t` the value `e`) have the same values on
    /// a state do the same there.
    pub effect: Option<u32>,
}

impl Candidate {
    /// A candidate that is the value `piece`, doing `effect` when it is a
    /// statement whose effect is known.
    pub fn of(piece: Piece, effect: Option<u32>) -> Candidate {
        Candidate {
            piece: OnceLock::from(Some(piece)),
            source: None,
            effect,
        }
    }

    /// An applier candidate written `text`, checked when first asked for.
    pub fn unchecked(text: String) -> Candidate {
        Candidate {
            piece: OnceLock::new(),
            source: Some(text),
            effect: None,
        }
    }

    /// The applier candidate's text (`None` for any other).
    pub fn source(&self) -> Option<&str> {
        self.source.as_deref()
    }

    /// The candidate as source text in `program`: an applier's own text,
    /// any other piece printed.
    pub fn text(&self, program: &Program) -> String {
        match (&self.source, self.piece.get()) {
            (Some(text), _) => text.clone(),
            (None, Some(Some(piece))) => print(piece, program),
            (None, _) => String::new(),
        }
    }
}

/// `piece` as source text in `program` (an applier's is never asked for:
/// [`Candidate::text`] keeps its own).
fn print(piece: &Piece, program: &Program) -> String {
    let pointers = &program.pointers;
    match piece {
        Piece::Condition(c) => cnpi::program::print::condition(c, pointers),
        Piece::Expression(e) => cnpi::program::print::position(e, pointers),
        Piece::Statement(stmt) => statement_text(stmt, program),
        Piece::Applier(_) => String::new(),
    }
}

/// A statement candidate as a normal program writes it: `i = e` for `SET`,
/// `A[i] = e` for `WRITE`, `F()` for a call, any other ACT by its name.
fn statement_text(stmt: &Stmt, program: &Program) -> String {
    let pointers = &program.pointers;
    let position = |e: &PosExpr| cnpi::program::print::position(e, pointers);
    match stmt {
        Stmt::Act(app) => match &app.act {
            Act::Set(p, e) => format!("{} = {}", pointers[*p].name, position(e)),
            Act::Env(env) => match (env.name(), env.args.as_slice()) {
                ("WRITE", [ActArg::Place(cell), ActArg::Position(e)]) => {
                    let place = cnpi::program::print::cell(cell, pointers);
                    format!("{place} = {}", position(e))
                }
                _ => cnpi::program::print::act(&app.act, pointers),
            },
            act => cnpi::program::print::act(act, pointers),
        },
        Stmt::Call(def, _) => format!("{}()", program.defs[*def].name),
        _ => String::new(),
    }
}

/// `act` as a statement (written where its hole is: [`put`]).
pub fn applied(act: Act) -> Stmt {
    Stmt::Act(cnpi::program::ActApp {
        act,
        span: cnpi::span::Span::default(),
    })
}

/// Puts `piece` where the hole `hole` (its index in
/// [`Program::blanks`]) stands in `program` (which must hold its node, as
/// the checked sketch does); whether it was found.
pub fn put(program: &mut Program, hole: usize, piece: &Piece) -> bool {
    let Some(def) = program.blanks.get(hole).map(|b| b.def) else {
        return false;
    };
    let Some(cnpi::program::Body::Normal(body)) = program.defs.get_mut(def).map(|d| &mut d.body)
    else {
        return false;
    };
    Place { hole, piece }.block(body)
}

/// Where a piece goes: the node of hole `hole`.
struct Place<'a> {
    hole: usize,
    piece: &'a Piece,
}

impl Place<'_> {
    fn block(&self, block: &mut [Stmt]) -> bool {
        block.iter_mut().any(|stmt| self.stmt(stmt))
    }

    fn stmt(&self, stmt: &mut Stmt) -> bool {
        if let (Stmt::Hole(hole, span), Piece::Statement(new)) = (&*stmt, self.piece)
            && *hole == self.hole
        {
            // Written where the `?` is: the search reads the hole's value
            // at the statement starting there.
            let span = *span;
            *stmt = new.clone();
            match stmt {
                Stmt::Act(app) => app.span = span,
                Stmt::Call(_, at) => *at = span,
                _ => {}
            }
            return true;
        }
        match stmt {
            Stmt::Act(app) => self.act(&mut app.act),
            Stmt::Call(..) | Stmt::Pass(_) | Stmt::Hole(..) => false,
            Stmt::StateCall(_, args, _) => args.iter_mut().any(|e| self.pos(e)),
            Stmt::ParamCall(call) => call.args.iter_mut().any(|e| self.pos(e)),
            Stmt::If {
                condition,
                then,
                otherwise,
                ..
            } => self.condition(condition) || self.block(then) || self.block(otherwise),
            Stmt::While {
                condition, body, ..
            } => self.condition(condition) || self.block(body),
            Stmt::Return { value, .. } => value.as_mut().is_some_and(|e| self.pos(e)),
        }
    }

    fn act(&self, act: &mut Act) -> bool {
        match act {
            Act::Nop | Act::Move(..) => false,
            Act::Set(_, e) => self.pos(e),
            Act::Push(args) | Act::Frame(_, args) => args.iter_mut().any(|e| self.pos(e)),
            Act::Env(env) => env.args.iter_mut().any(|arg| match arg {
                ActArg::Position(e) => self.pos(e),
                ActArg::Place(cell) => cell.at.iter_mut().any(|e| self.pos(e)),
                ActArg::Pointer(_) | ActArg::Direction(_) | ActArg::Color(_) | ActArg::Ok => false,
            }),
        }
    }

    fn condition(&self, condition: &mut BoolExpr) -> bool {
        if let (BoolExpr::Hole(hole, _), Piece::Condition(new)) = (&*condition, self.piece)
            && *hole == self.hole
        {
            *condition = new.clone();
            return true;
        }
        match condition {
            BoolExpr::Compare(_, a, b) => self.operand(a) || self.operand(b),
            BoolExpr::Test(_, e) => self.pos(e),
            BoolExpr::And(a, b) | BoolExpr::Or(a, b) => self.condition(a) || self.condition(b),
            BoolExpr::Not(a) => self.condition(a),
            BoolExpr::Hole(..) => false,
        }
    }

    fn operand(&self, operand: &mut Operand) -> bool {
        match operand {
            Operand::Pos(e) => self.pos(e),
            Operand::Val(v) => self.pos(&mut v.at),
            Operand::Sym(SymExpr::Observe(_, e, _)) => self.pos(e),
            Operand::Int(_) | Operand::End | Operand::Sym(SymExpr::Literal(..)) => false,
        }
    }

    fn pos(&self, e: &mut PosExpr) -> bool {
        if let (PosKind::Hole(hole), Piece::Expression(new)) = (&e.kind, self.piece)
            && *hole == self.hole
        {
            *e = new.clone();
            return true;
        }
        match &mut e.kind {
            PosKind::Int(_)
            | PosKind::Pointer(_)
            | PosKind::Last
            | PosKind::End
            | PosKind::Resume
            | PosKind::Hole(_) => false,
            PosKind::Observe(_, a) | PosKind::Neg(a) => self.pos(a),
            PosKind::Arith(_, a, b) => self.pos(a) || self.pos(b),
            PosKind::Read(cell) => cell.at.iter_mut().any(|e| self.pos(e)),
            PosKind::Call(call) => call.args.iter_mut().any(|e| self.pos(e)),
        }
    }
}
