//! Applier holes (`def STEP: ?(COND?, ...)`) filled together with holes in
//! normal programs (issue 30, "a sketch may mix applier holes and holes in
//! normal programs").
//!
//! Beside holes in normal programs, an applier hole is one more hole of
//! the enumeration, its candidates written as source text (unlike the
//! holes in normal programs, whose candidates are values): an applier `COMB(COND?; X, Y, Z)` of size 1 plus the number of
//! distinct definitions it calls (so size 1 is `seq(; NOP, NOP, NOP)`).
//! Within a size the order is: the combinators `seq`, `cond`, `linrec`;
//! for `cond` and `linrec` each condition the file's appliers write, then
//! each the hole lists (in order, once each); the arguments `X, Y, Z` in
//! the order of [`arguments`], the last fastest. An argument is `NOP` or
//! an applier of the file that is not a hole and does not call the hole
//! (directly or not), so the appliers stay acyclic. Each candidate is
//! checked once, in the sketch's text with only that hole filled
//! ([`piece`]), and put into the checked sketch as the hole's body.

use cnpi::check;
use cnpi::diagnostic::has_errors;
use cnpi::program::print::condition;
use cnpi::program::{Applier, Body, DefId, Hole, Program};
use cnpi::span::SourceId;
use cnpi::syntax;

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
    let mut conditions: Vec<String> = Vec::new();
    let written = program.defs.iter().filter_map(|d| match &d.body {
        Body::Applier(Applier::Combinator {
            detector: Some(c), ..
        }) => Some(c),
        _ => None,
    });
    for c in written.chain(&hole.conditions) {
        let text = condition(c, &program.pointers);
        if !conditions.contains(&text) {
            conditions.push(text);
        }
    }
    let n = arguments.len();
    let triples: Vec<[usize; 3]> = (0..n * n * n)
        .map(|k| [k / (n * n), k / n % n, k % n])
        .filter(|triple| distinct(triple) == size - 1)
        .collect();
    let mut out = Vec::new();
    let heads = std::iter::once("seq(".to_string()).chain(
        ["cond", "linrec"]
            .iter()
            .flat_map(|comb| conditions.iter().map(move |c| format!("{comb}({c}?"))),
    );
    for head in heads {
        for [a, b, c] in &triples {
            let text = format!(
                "{head}; {}, {}, {})",
                arguments[*a], arguments[*b], arguments[*c]
            );
            out.push(Candidate::unchecked(text));
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
pub fn arguments(program: &Program, def: DefId) -> Vec<String> {
    let reaches = reaching(program);
    let allowed = (program.defs.iter().enumerate())
        .filter(|(d, other)| {
            *d != def && !reaches[*d][def] && matches!(other.body, Body::Applier(_))
        })
        .map(|(_, other)| other.name.clone());
    std::iter::once("NOP".to_string()).chain(allowed).collect()
}

/// The applier `text` checked as the body of the applier hole `def` of
/// `sketch` (the sketch's text, entry `entry`; the hole written at
/// `at`), the other holes left as they are; `None` when it does not check.
pub fn piece(
    sketch: &str,
    entry: &str,
    def: DefId,
    at: std::ops::Range<usize>,
    text: &str,
) -> Option<Piece> {
    let mut filled = sketch.to_string();
    filled.replace_range(at, text);
    let (tree, diagnostics) = syntax::parse(&filled, SourceId::USER);
    if has_errors(&diagnostics) {
        return None;
    }
    let program = check::check(&tree, Some(entry)).0?;
    match program.defs.get(def).map(|d| &d.body) {
        Some(Body::Applier(applier)) => Some(Piece::Applier(Box::new(applier.clone()))),
        _ => None,
    }
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
