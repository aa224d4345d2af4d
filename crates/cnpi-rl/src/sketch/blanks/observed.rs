//! What a hole may use in an environment without declared memory
//! (`array`, `graph`, `addition`): its observations and ACTs, as its
//! stdlib file declares them ([`cnpi::env::Environment`]), in that order.
//!
//! - Terms, besides the registers and the constants: `LAST`, then for each
//!   position observation `o` and each register `p`: `o(p)`.
//! - Comparisons of size 1, after those of two terms: each register
//!   `== END`, `!= END`; for each value observation `o` the reads `o[t]`,
//!   `o[t + 1]`, `o[t - 1]` of each register `t`, each pair of two reads
//!   (`== != < <= > >=`), each read `== END`, `!= END` and against `0`,
//!   `1`, `2`, `-1`; for each symbol observation its reads `==`, `!=`
//!   `WHITE`, `GREY`, `BLACK`, `END`; for each test observation its
//!   reads and their `not`.
//! - Statements of size s: each ACT but `NOP`, its pointers each register,
//!   its positions the expressions of size s (an ACT without a position
//!   only at size 1), its words in the order the stdlib lists them.
//!
//! A condition's values on the probe states come from the interpreter's
//! own [`BoolExpr::eval`], so pruning reads them as a run does.

use cnpi::env;
use cnpi::operators::{ArithOp, CompareOp};
use cnpi::program::{
    Act, ActArg, BoolExpr, Color, Direction, Observation, ObservationKind, Operand, ParamType,
    PosExpr, PosKind, Program, Stmt, SymExpr, ValExpr,
};
use cnpi::span::Span;

fn pos(kind: PosKind) -> PosExpr {
    PosExpr {
        kind,
        span: Span::default(),
    }
}

fn registers(program: &Program) -> impl Iterator<Item = PosExpr> {
    (0..program.pointers.len()).map(|p| pos(PosKind::Pointer(p)))
}

fn observations(program: &Program, kind: ObservationKind) -> Vec<&'static Observation> {
    (env::environment(program.env).observations.iter())
        .filter(|o| o.kind == kind)
        .collect()
}

/// The terms besides registers and constants, in order.
pub fn terms(program: &Program) -> Vec<PosExpr> {
    let mut terms = vec![pos(PosKind::Last)];
    for o in observations(program, ObservationKind::Position) {
        terms.extend(registers(program).map(|p| pos(PosKind::Observe(o, Box::new(p)))));
    }
    terms
}

/// Where an observation is read: each register, one right of it, one
/// left of it.
fn places(program: &Program) -> Vec<PosExpr> {
    let mut places = Vec::new();
    for p in registers(program) {
        for op in [None, Some(ArithOp::Add), Some(ArithOp::Sub)] {
            places.push(match op {
                None => p.clone(),
                Some(op) => pos(PosKind::Arith(
                    op,
                    Box::new(p.clone()),
                    Box::new(pos(PosKind::Int(1))),
                )),
            });
        }
    }
    places
}

const EQUALITY: [CompareOp; 2] = [CompareOp::Eq, CompareOp::Ne];

/// The comparisons of size 1 besides those of two terms, in order.
pub fn comparisons(program: &Program) -> Vec<BoolExpr> {
    let compare = |op, a: &Operand, b: &Operand| BoolExpr::Compare(op, a.clone(), b.clone());
    let mut out = Vec::new();
    for p in registers(program) {
        out.extend(EQUALITY.map(|op| compare(op, &Operand::Pos(p.clone()), &Operand::End)));
    }
    let places = places(program);
    for o in observations(program, ObservationKind::Value) {
        let reads: Vec<Operand> = (places.iter())
            .map(|at| {
                Operand::Val(ValExpr {
                    observation: o,
                    at: at.clone(),
                    span: Span::default(),
                })
            })
            .collect();
        for a in &reads {
            for b in reads.iter().filter(|b| *b != a) {
                out.extend(CompareOp::ALL.map(|op| compare(op, a, b)));
            }
        }
        for a in &reads {
            out.extend(EQUALITY.map(|op| compare(op, a, &Operand::End)));
            for k in [0, 1, 2, -1] {
                out.extend(CompareOp::ALL.map(|op| compare(op, a, &Operand::Int(k))));
            }
        }
    }
    for o in observations(program, ObservationKind::Symbol) {
        for at in &places {
            let read = Operand::Sym(SymExpr::Observe(o, at.clone(), Span::default()));
            let colours = [Color::White, Color::Grey, Color::Black]
                .map(|c| Operand::Sym(SymExpr::Literal(c, Span::default())));
            for other in colours.iter().chain([&Operand::End]) {
                out.extend(EQUALITY.map(|op| compare(op, &read, other)));
            }
        }
    }
    for o in observations(program, ObservationKind::Test) {
        for at in &places {
            let test = BoolExpr::Test(o, at.clone());
            out.push(test.clone());
            out.push(BoolExpr::Not(Box::new(test)));
        }
    }
    out
}

/// The ACT statements of size `size`, `exprs` the expressions of that
/// size, in order.
pub fn statements(program: &Program, exprs: &[PosExpr], size: usize) -> Vec<Stmt> {
    let mut out = Vec::new();
    for decl in env::environment(program.env).acts {
        let positions = decl.params.contains(&ParamType::Position);
        if decl.params.is_empty() || decl.params.contains(&ParamType::Place) {
            continue;
        }
        if !positions && size != 1 {
            continue;
        }
        let options: Vec<Vec<ActArg>> = (decl.params.iter())
            .map(|param| match param {
                ParamType::Pointer => (0..program.pointers.len()).map(ActArg::Pointer).collect(),
                ParamType::Position => exprs.iter().cloned().map(ActArg::Position).collect(),
                ParamType::Direction => vec![
                    ActArg::Direction(Direction::Left),
                    ActArg::Direction(Direction::Right),
                ],
                ParamType::Color => [Color::White, Color::Grey, Color::Black]
                    .map(ActArg::Color)
                    .to_vec(),
                ParamType::Ok => vec![ActArg::Ok],
                ParamType::Place => Vec::new(),
            })
            .collect();
        let mut args: Vec<Vec<ActArg>> = vec![Vec::new()];
        for option in &options {
            args = (args.iter())
                .flat_map(|before| {
                    option.iter().map(move |arg| {
                        let mut next = before.clone();
                        next.push(arg.clone());
                        next
                    })
                })
                .collect();
        }
        out.extend(
            (args.into_iter())
                .filter_map(|args| Act::build(decl, args))
                .map(super::fill::applied),
        );
    }
    out
}
