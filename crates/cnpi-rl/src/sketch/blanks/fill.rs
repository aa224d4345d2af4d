//! A filling put into the checked sketch without the front end: the
//! sketch is checked once, each hole its own node there ([`Stmt::Hole`],
//! [`BoolExpr::Hole`], [`PosKind::Hole`]), and each
//! candidate is checked once ([`Piece`]: conditions and expressions are
//! grown checked, a statement is compiled once in the sketch's text with
//! only its hole filled). A filling is then the sketch's checked bodies
//! with each hole's node replaced by its piece, ready for the reference
//! interpreter: no text is written, parsed or checked per filling.

use std::sync::OnceLock;

use cnpi::check;
use cnpi::diagnostic::has_errors;
use cnpi::program::{
    Act, ActArg, Applier, Blank, BoolExpr, Operand, PosExpr, PosKind, Program, Stmt, SymExpr,
};
use cnpi::span::SourceId;
use cnpi::syntax;

/// A candidate for one hole, checked.
#[derive(Clone, Debug)]
pub enum Piece {
    Condition(BoolExpr),
    Expression(PosExpr),
    Statement(Stmt),
    /// The body of an applier hole ([`super::appliers`]).
    Applier(Box<Applier>),
}

/// A candidate for one hole: its source text (what the answer prints),
/// and the checked piece, set when first asked for (`None`: it does not
/// check there, and a filling with it is compiled from its text).
#[derive(Debug)]
pub struct Candidate {
    pub text: String,
    pub piece: OnceLock<Option<Piece>>,
    /// What a statement does, known without its piece (`None`: not known,
    /// and the search compares it with no other statement).
    pub effect: Option<Effect>,
}

/// What a statement candidate does to the world, as a shape and the
/// positions it evaluates: two statements of one shape whose positions
/// have the same values on a state do the same there (`X[t] = e`: the
/// array `X` is the shape, `t` and `e` the positions).
#[derive(Clone, Debug)]
pub struct Effect {
    pub shape: u32,
    pub args: Vec<PosExpr>,
}

impl Candidate {
    /// A candidate whose piece is known.
    pub fn checked(text: String, piece: Piece) -> Candidate {
        Candidate {
            text,
            piece: OnceLock::from(Some(piece)),
            effect: None,
        }
    }

    /// A candidate whose piece is checked when first asked for, doing
    /// `effect` when it is known.
    pub fn unchecked(text: String, effect: Option<Effect>) -> Candidate {
        Candidate {
            text,
            piece: OnceLock::new(),
            effect,
        }
    }
}

/// The statement `text` checked where the statement hole `blank` stands in
/// `sketch` (the sketch's text, entry `entry`), the other holes left as
/// they are; `None` when it does not check there.
pub fn statement(sketch: &str, entry: &str, blank: &Blank, text: &str) -> Option<Piece> {
    let mut filled = sketch.to_string();
    filled.replace_range(blank.span.range(), text);
    // The front end without `compile`'s sources (which only draw
    // diagnostics, and cost most of the time).
    let (tree, diagnostics) = syntax::parse(&filled, SourceId::USER);
    if has_errors(&diagnostics) {
        return None;
    }
    let program = check::check(&tree, Some(entry)).0?;
    let Some(cnpi::program::Body::Normal(body)) = program.defs.get(blank.def).map(|d| &d.body)
    else {
        return None;
    };
    starting_at(body, blank.span.start).map(|stmt| Piece::Statement(stmt.clone()))
}

/// The first statement of `block` (at any depth) that starts at byte `at`.
fn starting_at(block: &[Stmt], at: usize) -> Option<&Stmt> {
    block.iter().find_map(|stmt| {
        if stmt.span().start == at {
            return Some(stmt);
        }
        match stmt {
            Stmt::If {
                then, otherwise, ..
            } => starting_at(then, at).or_else(|| starting_at(otherwise, at)),
            Stmt::While { body, .. } => starting_at(body, at),
            _ => None,
        }
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
        if let (Stmt::Hole(hole, _), Piece::Statement(new)) = (&*stmt, self.piece)
            && *hole == self.hole
        {
            *stmt = new.clone();
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
