//! A filling put into the checked sketch without the front end: the
//! sketch is checked once, each hole its own node there ([`Stmt::Hole`],
//! [`BoolExpr::Hole`], [`PosKind::Hole`]), and each candidate of a hole
//! is a program value ([`Candidate`]: conditions, expressions and
//! statements are grown as values by [`super::grow`], appliers built by
//! [`super::appliers`], never written as text nor parsed). A
//! condition or an expression is shared with the grower's lists (`Rc`),
//! and a statement of `ram` is kept as its parts (its target and its
//! expressions, shared the same way) and built only when it is put into
//! the sketch ([`Candidate::piece`]): a statement hole has hundreds of
//! thousands of candidates, of which a search puts a few thousand. A
//! filling is the sketch's checked bodies with each hole's node replaced
//! by its piece, ready for the reference interpreter; only the answer
//! (and a message's filling) is printed ([`Candidate::text`]).

use std::rc::Rc;

use cnpi::operators::CompareOp;
use cnpi::program::{
    Act, ActArg, Applier, BoolExpr, Callee, CombinatorKind, Operand, PosExpr, PosKind, Program,
    Stmt, SymExpr, print,
};
use cnpi::span::Span;

/// A candidate put into the checked sketch: the value a hole's node is
/// replaced by.
#[derive(Clone, Debug)]
pub enum Piece {
    Condition(BoolExpr),
    Expression(PosExpr),
    Statement(Stmt),
    /// The body of an applier hole ([`super::appliers`]).
    Applier(Box<Applier>),
}

/// Where an expression stands in the grower's lists: its size (1 to
/// [`super::grow::MAX_SIZE`]) and its index in that size's list (for a comparison: in
/// the comparisons of that size).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ref {
    pub(super) size: u8,
    pub(super) index: u32,
}

impl Ref {
    pub(super) fn at(size: usize, index: usize) -> Ref {
        Ref {
            size: u8::try_from(size).unwrap_or(u8::MAX),
            index: u32::try_from(index).unwrap_or(u32::MAX),
        }
    }
}

/// How a condition candidate is computed from the lists on a state
/// ([`super::grow::Grower::truth_at`]), as the interpreter evaluates its tree.
#[derive(Clone, Copy, Debug)]
pub enum Cond {
    /// `a op b` of two expressions of the lists.
    Compare(CompareOp, Ref, Ref),
    /// `c and d` (true) or `c or d` (false) of two comparisons of the lists.
    Joined(bool, Ref, Ref),
    /// Any other (an observation's): its tree is evaluated.
    Tree,
}

/// What a statement candidate of `ram` does, kept as its parts (an
/// expression of the grower's lists with its place there).
#[derive(Debug)]
pub enum Does {
    /// `target = e`: `SET` of a register, `WRITE` of a cell (`X[t]`, or a
    /// scalar input or var).
    Assign(Rc<PosExpr>, Rc<PosExpr>, Ref),
    /// `SWAP(X[t], X[u])`, both cells.
    Swap(Rc<PosExpr>, Rc<PosExpr>),
    /// `OUT(e)`.
    Out(Rc<PosExpr>, Ref),
}

/// A position a statement evaluates ([`Does::positions`]).
pub enum Position<'a> {
    /// A cell's index term, evaluated as it is.
    Index(&'a PosExpr),
    /// An expression of the grower's lists.
    Listed(Ref),
    /// None (the statement has fewer).
    Not,
}

/// A candidate for one hole.
#[derive(Debug)]
pub enum Candidate {
    /// A condition, and how it is computed from the grower's lists.
    Condition(Rc<BoolExpr>, Cond),
    /// An expression, and its place in the grower's lists.
    Expression(Rc<PosExpr>, Ref),
    /// A statement of `ram`, built when put, and the shape of its effect:
    /// two statements of one shape whose positions ([`Does::positions`])
    /// have the same values on a state do the same there.
    Statement(Does, u32),
    /// A statement built as it is grown (a call, an ACT of an environment
    /// without declared memory), whose effect is not known: the search
    /// compares it with no other statement.
    Built(Rc<Stmt>),
    /// An applier candidate ([`super::appliers`]), boxed so that every
    /// other candidate stays small.
    Applier(Box<Applier>),
    /// No statement: the second statement of a statement hole left out.
    Empty,
}

impl Does {
    /// The statement, or `None` when the environment has no such ACT.
    pub fn build(&self, program: &Program) -> Option<Stmt> {
        match self {
            Does::Assign(target, e, _) => assign(program, target, (**e).clone()),
            Does::Swap(a, b) => act(program, "SWAP", vec![place(a), place(b)]),
            Does::Out(e, _) => act(program, "OUT", vec![ActArg::Position((**e).clone())]),
        }
    }

    /// The positions the statement evaluates, in its ACT's order (a
    /// cell's indices, then the value written), at most two.
    pub fn positions(&self) -> [Position<'_>; 2] {
        fn at(cell: &PosExpr) -> Position<'_> {
            match &cell.kind {
                PosKind::Read(cell) => cell.at.first().map_or(Position::Not, Position::Index),
                _ => Position::Not,
            }
        }
        match self {
            Does::Assign(target, _, e) => match at(target) {
                Position::Not => [Position::Listed(*e), Position::Not],
                t => [t, Position::Listed(*e)],
            },
            Does::Swap(a, b) => [at(a), at(b)],
            Does::Out(_, e) => [Position::Listed(*e), Position::Not],
        }
    }
}

impl Candidate {
    /// The value put where the hole's node stands in `program` (`None`:
    /// no statement, or a statement the environment cannot build).
    pub fn piece(&self, program: &Program) -> Option<Piece> {
        match self {
            Candidate::Condition(c, _) => Some(Piece::Condition((**c).clone())),
            Candidate::Expression(e, _) => Some(Piece::Expression((**e).clone())),
            Candidate::Statement(does, _) => does.build(program).map(Piece::Statement),
            Candidate::Built(stmt) => Some(Piece::Statement((**stmt).clone())),
            Candidate::Applier(applier) => Some(Piece::Applier(applier.clone())),
            Candidate::Empty => None,
        }
    }

    /// The candidate as source text in `program`.
    pub fn text(&self, program: &Program) -> String {
        let pointers = &program.pointers;
        match self {
            Candidate::Applier(applier) => applier_text(applier, program),
            Candidate::Condition(c, _) => cnpi::program::print::condition(c, pointers),
            Candidate::Expression(e, _) => cnpi::program::print::position(e, pointers),
            Candidate::Statement(does, _) => (does.build(program))
                .map(|stmt| statement_text(&stmt, program))
                .unwrap_or_default(),
            Candidate::Built(stmt) => statement_text(stmt, program),
            Candidate::Empty => String::new(),
        }
    }
}

/// The statement `target = e`: `SET` for a register, `WRITE` for a cell.
pub fn assign(program: &Program, target: &PosExpr, e: PosExpr) -> Option<Stmt> {
    match &target.kind {
        PosKind::Pointer(p) => Some(applied(Act::Set(*p, e))),
        PosKind::Read(cell) => act(
            program,
            "WRITE",
            vec![ActArg::Place((**cell).clone()), ActArg::Position(e)],
        ),
        _ => None,
    }
}

/// The statement applying the environment's ACT `name` to `args`.
pub fn act(program: &Program, name: &str, args: Vec<ActArg>) -> Option<Stmt> {
    cnpi::env::build_act(program.env, name, args).map(applied)
}

/// An ACT's argument naming the cell `e` reads (a position otherwise).
pub fn place(e: &PosExpr) -> ActArg {
    match &e.kind {
        PosKind::Read(cell) => ActArg::Place((**cell).clone()),
        _ => ActArg::Position(e.clone()),
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
    let place = Place {
        hole,
        piece: Some(piece),
        nested: true,
    };
    place.block(body)
}

/// Whether the node of hole `hole` stands among the own expressions of
/// `stmt` (its condition, its ACT's or call's arguments: not in a
/// statement inside it), where the statement evaluates it.
pub fn holds(stmt: &Stmt, hole: usize) -> bool {
    let place = Place {
        hole,
        piece: None,
        nested: false,
    };
    place.stmt(&mut stmt.clone())
}

/// Puts the statement `second` after the one that fills the statement
/// hole `hole` in `program` (put there first, at the `?`'s span), at the
/// byte after the `?` (where the search reads what it does); whether the
/// first was found.
pub fn put_after(program: &mut Program, hole: usize, second: &Stmt) -> bool {
    fn within(block: &mut Vec<Stmt>, at: Span, second: &Stmt) -> bool {
        if let Some(k) = block.iter().position(|s| s.span() == at) {
            let mut second = second.clone();
            let after = Span::new(at.source, at.end, at.end);
            match &mut second {
                Stmt::Act(app) => app.span = after,
                Stmt::Call(_, span) => *span = after,
                _ => {}
            }
            block.insert(k + 1, second);
            return true;
        }
        block.iter_mut().any(|stmt| match stmt {
            Stmt::If {
                then, otherwise, ..
            } => within(then, at, second) || within(otherwise, at, second),
            Stmt::While { body, .. } => within(body, at, second),
            _ => false,
        })
    }
    let Some(blank) = program.blanks.get(hole) else {
        return false;
    };
    let (def, at) = (blank.def, blank.span);
    match program.defs.get_mut(def).map(|d| &mut d.body) {
        Some(cnpi::program::Body::Normal(body)) => within(body, at, second),
        _ => false,
    }
}

/// Where a piece goes: the node of hole `hole` (`piece` `None`: the node
/// is only looked for), in the statements inside others too or not
/// (`nested`).
struct Place<'a> {
    hole: usize,
    piece: Option<&'a Piece>,
    nested: bool,
}

impl Place<'_> {
    fn block(&self, block: &mut [Stmt]) -> bool {
        block.iter_mut().any(|stmt| self.stmt(stmt))
    }

    fn stmt(&self, stmt: &mut Stmt) -> bool {
        if let Stmt::Hole(hole, span) = &*stmt
            && *hole == self.hole
        {
            let Some(Piece::Statement(new)) = self.piece else {
                return self.piece.is_none();
            };
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
            } => {
                self.condition(condition)
                    || (self.nested && (self.block(then) || self.block(otherwise)))
            }
            Stmt::While {
                condition, body, ..
            } => self.condition(condition) || (self.nested && self.block(body)),
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
        if let BoolExpr::Hole(hole, _) = &*condition
            && *hole == self.hole
        {
            return match self.piece {
                Some(Piece::Condition(new)) => {
                    *condition = new.clone();
                    true
                }
                piece => piece.is_none(),
            };
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
        if let PosKind::Hole(hole) = &e.kind
            && *hole == self.hole
        {
            return match self.piece {
                Some(Piece::Expression(new)) => {
                    *e = new.clone();
                    true
                }
                piece => piece.is_none(),
            };
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

/// An applier candidate as the sketch's text writes it:
/// `COMB(COND?; X, Y, Z)`, `seq(; X, Y, Z)`.
fn applier_text(applier: &Applier, program: &Program) -> String {
    let Applier::Combinator {
        combinator,
        detector,
        args,
        ..
    } = applier
    else {
        return String::new();
    };
    let name = |callee: &Callee| match callee {
        Callee::Def(d, _) => program.defs[*d].name.clone(),
        Callee::Act(app) => print::act(&app.act, &program.pointers),
    };
    let detector = (detector.as_ref()).map_or(String::new(), |c| {
        format!("{}?", print::condition(c, &program.pointers))
    });
    let [a, b, c] = args.each_ref().map(name);
    let comb = print::combinator_name(CombinatorKind::User(*combinator));
    format!("{comb}({detector}; {a}, {b}, {c})")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A statement hole has hundreds of thousands of candidates: each is a
    /// few words, not a program value (the applier's piece is boxed).
    #[test]
    fn a_candidate_is_a_few_words() {
        assert!(std::mem::size_of::<Candidate>() <= 40);
    }
}
