//! Applier holes (`def STEP: ?(COND?, ...)`) filled together with holes in
//! normal programs (issue 30, "a sketch may mix applier holes and holes in
//! normal programs").
//!
//! Beside holes in normal programs, an applier hole is one more hole of
//! the enumeration, its candidates program values like theirs (issue 44:
//! nothing is written as text nor parsed per candidate): an applier
//! `COMB(COND?; X, Y, Z)` of size 1 plus the number of distinct
//! definitions it calls (so size 1 is `seq(; NOP, NOP, NOP)`). Within a
//! size the order is: the combinators `seq`, `cond`, `linrec`; for `cond`
//! and `linrec` each condition the file's appliers write, then each the
//! hole lists (in order, once each; two conditions that print alike are
//! one); the arguments `X, Y, Z` in the order of [`arguments`], the last
//! fastest. An argument is `NOP` or an applier of the file that is not a
//! hole and does not call the hole (directly or not), so the appliers stay
//! acyclic; the conditions are checked values of the sketch, so every
//! candidate is an applier the checker would accept, and it is put into
//! the checked sketch as the hole's body. Only the answer is printed
//! ([`Candidate::text`]).

use cnpi::program::print::condition;
use cnpi::program::{
    Act, ActApp, Applier, Body, BoolExpr, Callee, Combinator, DefId, Hole, Program,
};
use cnpi::span::Span;

use super::fill::{Candidate, Piece};
use crate::sketch::space::reaching;

/// The largest size of an applier candidate: three distinct arguments.
pub const MAX_APPLIER_SIZE: usize = 4;

/// The candidates of the applier hole `def` of `program` at `size`, in
/// the order of the module documentation.
pub fn candidates(program: &Program, def: DefId, hole: &Hole, size: usize) -> Vec<Candidate> {
    if !(1..=MAX_APPLIER_SIZE).contains(&size) {
        return Vec::new();
    }
    let arguments = arguments(program, def);
    let mut conditions: Vec<(String, &BoolExpr)> = Vec::new();
    let written = program.defs.iter().filter_map(|d| match &d.body {
        Body::Applier(Applier::Combinator {
            detector: Some(c), ..
        }) => Some(c),
        _ => None,
    });
    for c in written.chain(&hole.conditions) {
        let text = condition(c, &program.pointers);
        if !conditions.iter().any(|(seen, _)| *seen == text) {
            conditions.push((text, c));
        }
    }
    let n = arguments.len();
    let triples: Vec<[usize; 3]> = (0..n * n * n)
        .map(|k| [k / (n * n), k / n % n, k % n])
        .filter(|triple| distinct(triple) == size - 1)
        .collect();
    let heads = std::iter::once((Combinator::Seq, None)).chain(
        [Combinator::Cond, Combinator::Linrec]
            .into_iter()
            .flat_map(|comb| conditions.iter().map(move |(_, c)| (comb, Some(*c)))),
    );
    let mut out = Vec::new();
    for (combinator, detector) in heads {
        for triple in &triples {
            let applier = Applier::Combinator {
                combinator,
                detector: detector.cloned(),
                args: triple.map(|a| arguments[a].clone()),
                span: Span::default(),
            };
            out.push(Candidate::Applier(Box::new(applier)));
        }
    }
    out
}

/// How many distinct definitions a triple of arguments calls (`NOP`, the
/// first argument, is none).
fn distinct(triple: &[usize; 3]) -> usize {
    let mut called: Vec<usize> = triple.iter().copied().filter(|&a| a != 0).collect();
    called.sort_unstable();
    called.dedup();
    called.len()
}

/// What an applier hole `def` may call: `NOP`, then in file order each
/// applier that is not a hole and does not reach `def`.
pub fn arguments(program: &Program, def: DefId) -> Vec<Callee> {
    let reaches = reaching(program);
    let nop = Callee::Act(ActApp {
        act: Act::Nop,
        span: Span::default(),
    });
    let allowed = (program.defs.iter().enumerate())
        .filter(|(d, other)| {
            *d != def && !reaches[*d][def] && matches!(other.body, Body::Applier(_))
        })
        .map(|(d, _)| Callee::Def(d, Span::default()));
    std::iter::once(nop).chain(allowed).collect()
}

/// Puts the applier `piece` into `program` as the body of `def`; whether
/// it is an applier.
pub fn put(program: &mut Program, def: DefId, piece: &Piece) -> bool {
    match (program.defs.get_mut(def), piece) {
        (Some(target), Piece::Applier(applier)) => {
            target.body = Body::Applier(applier.as_ref().clone());
            true
        }
        _ => false,
    }
}
