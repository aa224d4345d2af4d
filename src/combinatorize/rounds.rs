//! Loops whose round is one `if` and one step, as `cond`s four rounds to
//! a `linrec` round.
//!
//! `while c: if e: B` then one ACT `S` (Prim's and Dijkstra's inner loop,
//! EXTRACT-MIN: `S` is `v = v + 1`) takes, as `linrec(c?; IF, S, NOP)`
//! with `IF = cond(e?; B, NOP)`, four core steps a round where `e` fails:
//! the `cond`'s `NOP` is a step no statement asks for. With `S` run by
//! both branches, `IF = cond(e?; B S, S)`, a round is the `cond` and its
//! branch, and the loop's test is a `cond` of its own before each further
//! round: `linrec(c?; IF, R3, NOP)`, `R3 = cond(c?; IF, R2, NOP)`,
//! `R2 = cond(c?; IF, R1, NOP)`, `R1 = cond(c?; IF, NOP, NOP)`. Four
//! rounds then take 13 steps where they took 16 (the last `R`'s `NOP` and
//! the `linrec`'s `self` are the only steps beyond statements), with the
//! same detectors, evaluated in the same order: each round tests `c`,
//! then `e`. Only where `B` is one statement or three: `S` then takes the
//! `NOP` that pads the branch, where otherwise it would lengthen it. When `c` fails inside a `linrec` round, it
//! is tested once more by the `linrec` (a condition reads and changes
//! nothing, and fails or holds alike), which then ends. A round that
//! changes nothing repeats forever unchanged, so the `linrec` still stops
//! it with E0701 at its `while`, a few rounds later.
//!
//! Only in `ram` programs (declared memory): the paper's programs, in the
//! environments of its appendix, keep the shape of its listings
//! (`PARTITION`'s loop is `linrec(j != hi?; IF, MOVE(j, RIGHT), NOP)`).

use super::convert::{Converter, extent, meaningful, nested};
use super::emit::Piece;
use super::output::Arg;
use crate::program::{BoolExpr, Combinator, Stmt};

/// Rounds of the source loop per round of its `linrec`.
const ROUNDS: usize = 4;

impl Converter<'_, '_> {
    /// The `linrec` of `while condition: body` run as `cond` rounds, when
    /// its body is an `if` without `else` and one ACT; `None` when it is
    /// not (or `Some(None)` when converting the body failed).
    pub fn rounds(
        &mut self,
        condition: &BoolExpr,
        body: &[Stmt],
        whole: &Stmt,
    ) -> Option<Option<Piece>> {
        let [
            test @ Stmt::If {
                condition: e,
                then,
                otherwise,
                ..
            },
            step @ Stmt::Act(_),
        ] = meaningful(body)[..]
        else {
            return None;
        };
        if !self.ctx.declared_memory() || self.after_call.is_some() || !otherwise.is_empty() {
            return None;
        }
        let (e, then) = nested(e, then, otherwise);
        // `S` takes the `NOP` the branch pads `cond`'s second argument
        // with (`B, NOP` or `B1, seq(; B2, B3, NOP)`); where there is none,
        // `S` would make the branch longer.
        if ![1, 3].contains(&meaningful(then).len()) {
            return None;
        }
        Some(self.as_rounds(condition, e, then, [test, step], whole))
    }

    fn as_rounds(
        &mut self,
        condition: &BoolExpr,
        e: BoolExpr,
        then: &[Stmt],
        [test, step]: [&Stmt; 2],
        whole: &Stmt,
    ) -> Option<Piece> {
        let (here, loop_extent) = (extent(test).to(extent(step)), extent(whole));
        let (mut branch, a3) = (self.block(then)?, self.stmt(step)?);
        branch.push(a3.clone());
        let [a1, a2] = self.emit.split(branch);
        let round = (self.emit).comb(Combinator::Cond, Some(e), [a1, a2, a3], here, "IF");
        let round = self.emit.arg(round);
        let arg = |arg: Arg| Piece::arg(arg, loop_extent);
        let mut next = arg(Arg::Nop);
        for _ in 1..ROUNDS {
            let args = [arg(round.clone()), next, arg(Arg::Nop)];
            let detector = Some(condition.clone());
            next = (self.emit).comb(Combinator::Cond, detector, args, loop_extent, "ROUND");
        }
        let args = [arg(round), next, arg(Arg::Nop)];
        let detector = Some(condition.clone());
        Some((self.emit).comb(Combinator::Linrec, detector, args, loop_extent, "LOOP"))
    }
}
