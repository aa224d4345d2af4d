//! Long ACTs cut into steps, so that every ACT of a normal program fits in
//! an applier row.
//!
//! An ACT applier keeps its arguments in the places of three keys of its
//! program embedding: [`ROOM`] numbers, counted as the codec writes them
//! ([`numbers`]; `cnpi-neural`'s encoder writes exactly these, and its
//! tests compare the two). Where an ACT of a normal program takes more,
//! [`split`] evaluates parts of its positions first, into hidden registers
//! (`_k`, numbered after those lowering adds), with `SET`s before the ACT.
//! Only a prefix of what the ACT evaluates moves, in order, so a run stops
//! at the first error the ACT as written would stop at, with the same code
//! and place: a position is evaluated left to right, operands before their
//! operation and indices before their read, and an ACT checks a place
//! (`A[i]`) after its indices and before what follows. When something
//! after a place moves, the place is checked first by an ACT that changes
//! nothing (`WRITE(A[_1], A[_1])`, or `SWAP(A[_1], A[_1])` for a `SWAP`),
//! which stops with the same E0702 where the place is outside. What moves
//! cannot be END: in a position, a read of END is the error E0706 where it
//! is read, in the `SET` as in the ACT. Hidden registers need an
//! environment with registers (`ram`); elsewhere nothing is split, and
//! memory building reports E1104.

use super::walk::rewrite;
use crate::env::Ability;
use crate::program::hidden::hidden;
use crate::program::{
    Act, ActApp, ActArg, Body, Cell, EnvAct, EnvKind, Pointer, PointerId, PosExpr, PosKind,
    Program, Stmt,
};
use crate::span::Span;

/// The numbers an ACT's arguments may take in an applier row: three keys.
pub const ROOM: usize = 96;

/// Integers whose magnitude is below this take one number (a tag and the
/// value); others take four 16-bit limbs.
const SMALL: i64 = 1 << 24;

/// How many numbers the codec writes for the arguments of `act`.
pub fn numbers(act: &Act) -> usize {
    let count = usize::from(matches!(act, Act::Push(_) | Act::Frame(..)));
    let args = act.args();
    count
        + args
            .iter()
            .map(|arg| match arg {
                ActArg::Pointer(_) | ActArg::Direction(_) | ActArg::Color(_) => 1,
                ActArg::Ok => 0,
                ActArg::Position(e) => position_numbers(e),
                ActArg::Place(cell) => cell_numbers(cell),
            })
            .sum::<usize>()
}

fn position_numbers(e: &PosExpr) -> usize {
    match &e.kind {
        PosKind::Int(k) if (1 - SMALL..SMALL).contains(k) => 2,
        PosKind::Int(_) => 5,
        PosKind::Pointer(_) => 2,
        PosKind::Last | PosKind::Resume | PosKind::End | PosKind::Call(_) | PosKind::Hole(_) => 1,
        PosKind::Observe(_, at) => 2 + position_numbers(at),
        PosKind::Neg(a) => 1 + position_numbers(a),
        PosKind::Arith(_, a, b) => 1 + position_numbers(a) + position_numbers(b),
        PosKind::Read(cell) => 1 + cell_numbers(cell),
    }
}

fn cell_numbers(cell: &Cell) -> usize {
    2 + list_numbers(&cell.at)
}

fn list_numbers(exprs: &[PosExpr]) -> usize {
    exprs.iter().map(position_numbers).sum()
}

/// `program` with every ACT of its normal programs that does not fit in a
/// row cut into steps; `None` when every ACT fits or the environment has
/// no registers.
pub fn split(program: &Program) -> Option<Program> {
    if !crate::env::environment(program.env).has(Ability::Registers) {
        return None;
    }
    let taken = (program.pointers.iter().map(|p| &p.name))
        .chain(program.data.iter().map(|d| &d.name))
        .filter(|name| hidden(name))
        .filter_map(|name| name[1..].parse::<usize>().ok())
        .max();
    let mut splitter = Splitter {
        env: program.env,
        base: program.pointers.len(),
        next: 0,
        most: 0,
        changed: false,
    };
    let mut out = program.clone();
    for def in &mut out.defs {
        if let Body::Normal(body) = &mut def.body {
            splitter.block(body);
        }
    }
    if !splitter.changed {
        return None;
    }
    let first = taken.map_or(1, |k| k + 1);
    for k in 0..splitter.most {
        out.pointers.push(Pointer {
            name: format!("_{}", first + k),
            init: PosExpr::int(0, Span::default()),
            span: Span::default(),
            owner: None,
        });
    }
    Some(out)
}

struct Splitter {
    env: EnvKind,
    /// The first hidden register's number.
    base: PointerId,
    /// The next free hidden register of the ACT being split.
    next: usize,
    /// How many hidden registers some ACT needs.
    most: usize,
    /// Whether some ACT was split.
    changed: bool,
}

impl Splitter {
    fn block(&mut self, stmts: &mut Vec<Stmt>) {
        rewrite(stmts, &mut |mut stmt| {
            self.next = 0;
            let mut before = Vec::new();
            match &mut stmt {
                Stmt::Act(app) if numbers(&app.act) > ROOM => self.act(app, &mut before),
                // `_call(k, e1, ..., ek)` on frames (`_push(e1, ..., ek)`,
                // two numbers shorter, in a `treerec`).
                Stmt::StateCall(_, args, span) if 3 + list_numbers(args) > ROOM => {
                    self.fit(&mut List(args), ROOM - 3, *span, &mut before);
                }
                // One `SET(parameter, argument)` each, after the call.
                Stmt::ParamCall(call) => {
                    let long = (call.args.iter()).rposition(|arg| 1 + position_numbers(arg) > ROOM);
                    for arg in &mut call.args[..long.map_or(0, |last| last + 1)] {
                        if !leaf(arg) {
                            *arg = self.register_of(arg.clone(), call.span, &mut before);
                        }
                    }
                }
                _ => {}
            }
            self.changed |= !before.is_empty();
            before.push(stmt);
            before
        });
    }

    /// Shortens the arguments of `app`, with the steps that evaluate what
    /// moves onto `before`.
    fn act(&mut self, app: &mut ActApp, before: &mut Vec<Stmt>) {
        match &mut app.act {
            Act::Set(_, e) => self.fit(&mut Whole(e), ROOM - 1, app.span, before),
            Act::Env(env) => {
                let mut args = Args {
                    env: self.env,
                    act: env,
                };
                self.fit(&mut args, ROOM, app.span, before);
            }
            _ => {}
        }
    }

    /// Moves a prefix of what `parts` evaluates into hidden registers
    /// (`SET`s onto `before`), part by part, until it takes at most
    /// `budget` numbers: a part goes whole, or the prefix of it that
    /// makes the rest fit. It stops short where a place cannot be checked.
    fn fit(&mut self, parts: &mut dyn Parts, budget: usize, span: Span, before: &mut Vec<Stmt>) {
        let mut checked = 0;
        for k in 0..parts.count() {
            let size = parts.size();
            let Some(part) = parts.part(k).filter(|part| size > budget && !leaf(part)) else {
                continue;
            };
            let own = position_numbers(part);
            for check in parts.checks(k, span).into_iter().skip(checked) {
                let Some(check) = check else {
                    return;
                };
                before.push(check);
                checked += 1;
            }
            let Some(part) = parts.part(k) else {
                return;
            };
            let room = budget.saturating_sub(size - own);
            if smallest(part) <= room {
                return self.fit(&mut Whole(part), room, span, before);
            }
            *part = self.register_of(part.clone(), span, before);
        }
    }

    /// A hidden register holding `e`, evaluated by `SET`s onto `before`.
    fn register_of(&mut self, mut e: PosExpr, span: Span, before: &mut Vec<Stmt>) -> PosExpr {
        self.fit(&mut Whole(&mut e), ROOM - 1, span, before);
        let t = self.base + self.next;
        self.next += 1;
        self.most = self.most.max(self.next);
        let at = e.span;
        before.push(Stmt::Act(ActApp {
            act: Act::Set(t, e),
            span,
        }));
        PosExpr {
            kind: PosKind::Pointer(t),
            span: at,
        }
    }
}

/// Whether evaluating `e` cannot fail (a scalar always holds a number):
/// it need not move before what follows it.
fn leaf(e: &PosExpr) -> bool {
    match &e.kind {
        PosKind::Int(_)
        | PosKind::Pointer(_)
        | PosKind::Last
        | PosKind::End
        | PosKind::Resume
        | PosKind::Hole(_) => true,
        PosKind::Read(cell) => cell.at.is_empty(),
        _ => false,
    }
}

/// The numbers `e` takes once each of its operands that is not a leaf is
/// a register.
fn smallest(e: &PosExpr) -> usize {
    let mut e = e.clone();
    let mut whole = Whole(&mut e);
    for k in 0..whole.count() {
        if let Some(part) = whole.part(k).filter(|part| !leaf(part)) {
            part.kind = PosKind::Pointer(0);
        }
    }
    position_numbers(&e)
}

/// What [`Splitter::fit`] shortens: parts evaluated in order, and the
/// places checked between them.
trait Parts {
    fn size(&self) -> usize;
    fn count(&self) -> usize;
    fn part(&mut self, k: usize) -> Option<&mut PosExpr>;
    /// The ACTs that check the places located before part `k`, in order
    /// (`None` where the environment has no such ACT).
    fn checks(&self, k: usize, span: Span) -> Vec<Option<Stmt>>;
}

/// The operands of one expression, which it evaluates before itself.
struct Whole<'e>(&'e mut PosExpr);

impl Parts for Whole<'_> {
    fn size(&self) -> usize {
        position_numbers(self.0)
    }

    fn count(&self) -> usize {
        match &self.0.kind {
            PosKind::Observe(..) | PosKind::Neg(_) => 1,
            PosKind::Arith(..) => 2,
            PosKind::Read(cell) => cell.at.len(),
            _ => 0,
        }
    }

    fn part(&mut self, k: usize) -> Option<&mut PosExpr> {
        match &mut self.0.kind {
            PosKind::Observe(_, a) | PosKind::Neg(a) if k == 0 => Some(a),
            PosKind::Arith(_, a, _) if k == 0 => Some(a),
            PosKind::Arith(_, _, b) if k == 1 => Some(b),
            PosKind::Read(cell) => cell.at.get_mut(k),
            _ => None,
        }
    }

    fn checks(&self, _: usize, _: Span) -> Vec<Option<Stmt>> {
        Vec::new()
    }
}

/// Positions evaluated one after the other (a state call's arguments).
struct List<'a>(&'a mut Vec<PosExpr>);

impl Parts for List<'_> {
    fn size(&self) -> usize {
        list_numbers(self.0)
    }

    fn count(&self) -> usize {
        self.0.len()
    }

    fn part(&mut self, k: usize) -> Option<&mut PosExpr> {
        self.0.get_mut(k)
    }

    fn checks(&self, _: usize, _: Span) -> Vec<Option<Stmt>> {
        Vec::new()
    }
}

/// The positions of an ACT of the environment, with its places.
struct Args<'a> {
    env: EnvKind,
    act: &'a mut EnvAct,
}

impl Parts for Args<'_> {
    fn size(&self) -> usize {
        numbers(&Act::Env(self.act.clone()))
    }

    fn count(&self) -> usize {
        (self.act.args.iter())
            .map(|arg| match arg {
                ActArg::Position(_) => 1,
                ActArg::Place(cell) => cell.at.len(),
                _ => 0,
            })
            .sum()
    }

    fn part(&mut self, k: usize) -> Option<&mut PosExpr> {
        let mut positions = (self.act.args.iter_mut()).flat_map(|arg| match arg {
            ActArg::Position(e) => std::slice::from_mut(e).iter_mut(),
            ActArg::Place(cell) => cell.at.iter_mut(),
            _ => [].iter_mut(),
        });
        positions.nth(k)
    }

    fn checks(&self, k: usize, span: Span) -> Vec<Option<Stmt>> {
        let name = self.act.name();
        let mut seen = 0;
        let mut checks = Vec::new();
        for arg in &self.act.args {
            match arg {
                ActArg::Position(_) => seen += 1,
                ActArg::Place(cell) if !cell.at.is_empty() => {
                    seen += cell.at.len();
                    if seen <= k {
                        checks.push(self.check(name, cell, span));
                    }
                }
                _ => {}
            }
        }
        checks
    }
}

impl Args<'_> {
    /// An ACT named `name` that locates `cell` as `name` does and changes
    /// nothing: `SWAP(cell, cell)`, else `WRITE(cell, cell)`.
    fn check(&self, name: &str, cell: &Cell, span: Span) -> Option<Stmt> {
        let place = ActArg::Place(cell.clone());
        let (name, args) = match name {
            "SWAP" => ("SWAP", vec![place.clone(), place]),
            _ => {
                let read = PosExpr {
                    kind: PosKind::Read(Box::new(cell.clone())),
                    span: cell.span,
                };
                ("WRITE", vec![place, ActArg::Position(read)])
            }
        };
        let act = crate::env::build_act(self.env, name, args)?;
        Some(Stmt::Act(ActApp { act, span }))
    }
}
