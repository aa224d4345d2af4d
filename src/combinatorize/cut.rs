//! Cutting one normal program into the numbered blocks of its frames
//! (see `frames`): the straight-line code from one resume point to the
//! next call or return. Code without calls stays as the ordinary rules
//! make it (`cond`, `linrec`, `seq`); an `if` with calls inside is a `cond`
//! whose branches run what follows it themselves where that makes no call;
//! a `while` with calls inside is a `linrec` of its own, whose detector
//! `_resume == H and c` also stops it when a call or a return is due, so
//! that rounds without calls never go through the dispatch.

use std::collections::HashMap;

use super::convert::{Converter, extent, fits};
use super::emit::{Extent, Piece};
use super::output::Arg;
use super::walk::{calls, returns, target};
use crate::operators::CompareOp;
use crate::program::{Act, BoolExpr, Combinator, DefId, FrameAct, Operand, PosExpr, PosKind, Stmt};
use crate::span::Span;

/// Where a piece of code goes when it ends.
#[derive(Clone, Copy)]
pub enum Next {
    /// The frame resumes at this block.
    Goto(i64),
    /// The program returns.
    Return,
    /// The loop whose block is this one goes round again.
    Again(i64),
}

/// Where code runs, which decides how it ends.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Place {
    /// In a block the dispatch runs: a loop to go back to runs here.
    Block,
    /// In the body of the loop of this block, its frame resuming there.
    Body(i64),
    /// Anywhere else: after a loop, which runs both from a block and inside
    /// another loop's body; going to a loop goes through the dispatch.
    Nested,
}

/// The blocks of all converted programs, by number (block k is `blocks[k - 1]`).
pub struct Blocks {
    pub code: Vec<Option<Piece>>,
    /// The block that only returns, once some call needs it.
    pub returns: Option<i64>,
    /// The name of each loop that runs in its own `linrec`, by its block.
    pub loops: HashMap<i64, String>,
    /// How often the dispatch is guessed to find each block, by number
    /// (see [`Blocks::arrive`]).
    pub weights: Vec<u64>,
}

impl Blocks {
    pub fn new_block(&mut self) -> i64 {
        self.code.push(None);
        self.weights.push(1);
        self.code.len() as i64
    }

    /// Counts a way into block `k` through the dispatch (a call into it,
    /// a return to it, a `_goto` to it) from code `depth` loops deep,
    /// guessing each loop runs eight rounds.
    fn arrive(&mut self, k: i64, depth: u32) {
        if let Some(weight) = self.weights.get_mut(k as usize - 1) {
            *weight = weight.saturating_add(8u64.saturating_pow(depth.min(8)));
        }
    }

    fn set(&mut self, k: i64, piece: Piece) {
        if let Some(slot) = self.code.get_mut(k as usize - 1) {
            *slot = Some(piece);
        }
    }
}

/// Code after a call, to be cut into its block later (`Cutter::finish`).
pub struct Later {
    block: i64,
    stmts: Vec<Stmt>,
    next: Next,
    /// How many `while`s hold the call.
    depth: u32,
}

/// Cuts one program into blocks.
pub struct Cutter<'c, 'e> {
    pub conv: Converter<'c, 'e>,
    pub blocks: &'c mut Blocks,
    pub entries: &'c HashMap<DefId, i64>,
    /// How many `while`s hold the code being cut.
    pub depth: u32,
    /// The blocks put off after calls, not yet cut.
    pub later: Vec<Later>,
}

impl Cutter<'_, '_> {
    /// Whether a statement calls a program that runs on frames, or
    /// returns: code that ends its block.
    fn cuts(&self, stmt: &Stmt) -> bool {
        let mut callees = calls(std::slice::from_ref(stmt))
            .into_iter()
            .filter_map(target);
        returns(stmt) || callees.any(|id| self.entries.contains_key(&id))
    }

    /// The frame ACT `op(k)`.
    fn frame(op: FrameAct, k: i64, extent: Extent) -> Piece {
        Piece::arg(
            Arg::Act(Act::Frame(op, vec![PosExpr::int(k, Span::default())])),
            extent,
        )
    }

    /// `_return`.
    fn ret(extent: Extent) -> Piece {
        Piece::arg(Arg::Act(Act::Frame(FrameAct::Return, Vec::new())), extent)
    }

    /// The steps that end code at `place` going to `next`.
    /// In a block, a block already built runs where it is gone to, without
    /// its `_goto` (every path of a block sets where its frame resumes or
    /// returns) or the dispatch; this nests only blocks built before.
    fn end(&mut self, next: Next, place: Place, extent: Extent) -> Vec<Piece> {
        match next {
            Next::Goto(k) => match self.blocks.code.get(k as usize - 1) {
                Some(Some(block)) if place == Place::Block => vec![block.clone()],
                _ => {
                    self.blocks.arrive(k, self.depth);
                    vec![Self::frame(FrameAct::Goto, k, extent)]
                }
            },
            Next::Return => vec![Self::ret(extent)],
            Next::Again(head) if place == Place::Body(head) => Vec::new(),
            Next::Again(head) => {
                let mut steps = vec![Self::frame(FrameAct::Goto, head, extent)];
                match (place, self.blocks.loops.get(&head)) {
                    (Place::Block, Some(name)) => {
                        steps.push(Piece::arg(Arg::Def(name.clone()), extent))
                    }
                    _ => self.blocks.arrive(head, self.depth),
                }
                steps
            }
        }
    }

    /// What ends code that has just called block `callee` (pushed its
    /// frame, set its parameters): the callee's first block itself when
    /// it is already built (so it cannot hold this call), which is what
    /// the dispatch would run next, the new frame resuming there; else
    /// nothing, and the dispatch finds it. Whatever that block leaves
    /// due, the code around the call goes on as after the dispatch: a
    /// block ends, and a loop goes round only when its frame resumes at it.
    /// It stands where the call does in the source (`here`).
    fn enter(&mut self, callee: i64, here: Extent) -> Option<Piece> {
        match self.blocks.code.get(callee as usize - 1) {
            Some(Some(block)) => Some(Piece {
                extent: here,
                ..block.clone()
            }),
            _ => {
                self.blocks.arrive(callee, self.depth);
                None
            }
        }
    }

    /// The block where code goes on after `stmts` (which end by going to
    /// `next`): `next`'s own block when there are none, else a new block,
    /// cut at once, or, after a call (`now` false), put off until the
    /// block holding the call is built (`finish`): the code after a call
    /// is never run in place of its `_goto`, and cut later it finds more
    /// blocks built, its own program's first block among them, which its
    /// calls then run in place (`enter`).
    fn resume_after(&mut self, stmts: &[Stmt], next: Next, now: bool) -> Option<i64> {
        if stmts.is_empty() {
            return Some(match next {
                Next::Goto(k) | Next::Again(k) => k,
                Next::Return => self.return_block(),
            });
        }
        let k = self.blocks.new_block();
        match now {
            true => self.cut_block(k, stmts, next)?,
            false => self.later.push(Later {
                block: k,
                stmts: stmts.to_vec(),
                next,
                depth: self.depth,
            }),
        }
        Some(k)
    }

    /// Block `k`: `stmts`, then `next`.
    fn cut_block(&mut self, k: i64, stmts: &[Stmt], next: Next) -> Option<()> {
        let code = self.code(stmts, next, Place::Block)?;
        let piece = self.conv.emit.seq(code, "BLOCK");
        self.keep(k, piece);
        Some(())
    }

    /// Cuts the blocks put off after calls, and those they put off.
    pub fn finish(&mut self) -> Option<()> {
        while let Some(later) = self.later.pop() {
            let depth = std::mem::replace(&mut self.depth, later.depth);
            let cut = self.cut_block(later.block, &later.stmts, later.next);
            self.depth = depth;
            cut?;
        }
        Some(())
    }

    /// Block `k` is `piece`, named after this program.
    pub fn keep(&mut self, k: i64, piece: Piece) {
        let extent = piece.extent;
        let arg = self.conv.emit.arg(piece);
        self.blocks.set(k, Piece::arg(arg, extent));
    }

    /// The block that only returns.
    fn return_block(&mut self) -> i64 {
        if let Some(k) = self.blocks.returns {
            return k;
        }
        let k = self.blocks.new_block();
        self.blocks.set(k, Self::ret(Extent::default()));
        self.blocks.returns = Some(k);
        k
    }

    /// The code at `place` that runs `stmts` and then goes to `next`; code
    /// after a call goes to blocks of its own.
    pub fn code(&mut self, stmts: &[Stmt], next: Next, place: Place) -> Option<Vec<Piece>> {
        let Some(at) = stmts.iter().position(|s| self.cuts(s)) else {
            let mut pieces = self.conv.block(stmts)?;
            let last = stmts.last().map(extent).unwrap_or_default();
            pieces.extend(self.end(next, place, last));
            return Some(pieces);
        };
        let mut pieces = self.conv.block(&stmts[..at])?;
        let (stmt, rest) = (&stmts[at], &stmts[at + 1..]);
        let here = extent(stmt);
        match stmt {
            Stmt::Call(id, _) | Stmt::StateCall(id, _, _) => {
                let after = self.resume_after(rest, next, false)?;
                pieces.push(Self::frame(FrameAct::Goto, after, here));
                let callee = *self.entries.get(id)?;
                self.blocks.arrive(after, self.depth);
                let act = match stmt {
                    Stmt::StateCall(_, args, _) => {
                        let mut positions = vec![PosExpr::int(callee, Span::default())];
                        positions.extend(args.iter().cloned());
                        Act::Frame(FrameAct::Call, positions)
                    }
                    _ => Act::Frame(FrameAct::Enter, vec![PosExpr::int(callee, Span::default())]),
                };
                pieces.push(Piece::arg(Arg::Act(act), here));
                pieces.extend(self.enter(callee, here));
            }
            Stmt::If {
                condition,
                then,
                otherwise,
                ..
            } => {
                pieces.push(self.branches(condition, [then, otherwise], rest, next, place, here)?)
            }
            Stmt::While {
                condition, body, ..
            } if fits(condition) => {
                pieces.extend(self.local_loop(condition, body, rest, next, here)?)
            }
            Stmt::While {
                condition, body, ..
            } => {
                let head = self.blocks.new_block();
                pieces.push(Self::frame(FrameAct::Goto, head, here));
                self.blocks.arrive(head, self.depth);
                self.depth += 1;
                let body = self.code(body, Next::Goto(head), Place::Nested);
                self.depth -= 1;
                let body = body?;
                let after = self.code(rest, next, Place::Nested)?;
                let a1 = self.conv.emit.seq(body, "SEQ");
                let a3 = self.conv.emit.seq(after, "SEQ");
                let nop = Piece::arg(Arg::Nop, here);
                let detector = Some(condition.clone());
                let comb =
                    (self.conv.emit).comb(Combinator::Cond, detector, [a1, nop, a3], here, "LOOP");
                self.keep(head, comb);
            }
            // A call with arguments saves the registers (`_call` with no
            // state to set), then sets the parameters in the new frame:
            // the arguments read what the caller's registers hold, as
            // `lower` made sure.
            Stmt::ParamCall(call) => {
                let after = self.resume_after(rest, next, false)?;
                pieces.push(Self::frame(FrameAct::Goto, after, here));
                let callee = *self.entries.get(&call.def)?;
                self.blocks.arrive(after, self.depth);
                pieces.push(Self::frame(FrameAct::Call, callee, here));
                let params = &self.conv.ctx.program.defs.get(call.def)?.params;
                // `SET(p, p)` changes nothing, whatever came before it.
                let args = params.iter().zip(&call.args);
                for (&param, arg) in args.filter(|(p, a)| a.kind != PosKind::Pointer(**p)) {
                    let act = Act::Set(param, arg.clone());
                    pieces.push(Piece::arg(Arg::Act(act), here));
                }
                pieces.extend(self.enter(callee, here));
            }
            // `lower` left only bare returns; what follows is never run.
            Stmt::Return { .. } => pieces.push(Self::ret(here)),
            Stmt::Act(_) | Stmt::Pass(_) | Stmt::Hole(..) => return None,
        }
        Some(pieces)
    }

    /// An `if` with calls inside, then `rest`, then `next`: a `cond` whose
    /// branches each run `rest` themselves when it makes no call (so that
    /// a path without calls stays where it is), or else go to a block
    /// that runs it.
    fn branches(
        &mut self,
        condition: &BoolExpr,
        [then, otherwise]: [&Vec<Stmt>; 2],
        rest: &[Stmt],
        next: Next,
        place: Place,
        here: Extent,
    ) -> Option<Piece> {
        let [a1, a3] = if rest.iter().any(|s| self.cuts(s)) {
            let join = Next::Goto(self.resume_after(rest, next, true)?);
            [
                self.code(then, join, place)?,
                self.code(otherwise, join, place)?,
            ]
        } else {
            let with_rest =
                |branch: &Vec<Stmt>| -> Vec<Stmt> { branch.iter().chain(rest).cloned().collect() };
            let (then, otherwise) = (with_rest(then), with_rest(otherwise));
            [
                self.code(&then, next, place)?,
                self.code(&otherwise, next, place)?,
            ]
        };
        let [a1, a2] = self.conv.emit.split(a1);
        let a3 = self.conv.emit.seq(a3, "SEQ");
        let detector = Some(condition.clone());
        Some((self.conv.emit).comb(Combinator::Cond, detector, [a1, a2, a3], here, "IF"))
    }

    /// A `while` with calls inside, then `rest`, then `next`, as a loop of
    /// its own that leaves for the dispatch only when a call is due:
    /// `_goto(H)` and `linrec(_resume == H and c?; BODY, EXIT)` (BODY
    /// split over the first two arguments), where H, a new block, is the
    /// loop itself. A path of the body without calls goes round as a plain
    /// `linrec` does; one with a call or a return changes the frame's
    /// resume point, so the next round's detector is false without
    /// evaluating `c`, and `EXIT`, `cond(_resume == H?; AFTER, NOP)` (AFTER
    /// split over the first two arguments), does nothing. Code that goes on
    /// after a call ends with `_goto(H)` and the loop again. A frame
    /// resumes at H only while the loop is what it runs next, so whichever
    /// activation of the loop sees `_resume == H` goes on exactly as the
    /// loop would.
    fn local_loop(
        &mut self,
        condition: &BoolExpr,
        body: &[Stmt],
        rest: &[Stmt],
        next: Next,
        here: Extent,
    ) -> Option<Vec<Piece>> {
        let head = self.blocks.new_block();
        let name = self.conv.emit.reserve("LOOP", here);
        self.blocks.loops.insert(head, name.clone());
        self.depth += 1;
        let body = self.code(body, Next::Again(head), Place::Body(head));
        self.depth -= 1;
        let body = body?;
        let after = self.code(rest, next, Place::Nested)?;
        let [after, then] = self.conv.emit.split(after);
        let done = Some(compare(CompareOp::Eq, head));
        let nop = Piece::arg(Arg::Nop, here);
        let exit = (self.conv.emit).comb(Combinator::Cond, done, [after, then, nop], here, "EXIT");
        let [a1, a2] = self.conv.emit.split(body);
        let detector = BoolExpr::And(
            Box::new(compare(CompareOp::Eq, head)),
            Box::new(condition.clone()),
        );
        let comb = (self.conv.emit).comb(
            Combinator::Linrec,
            Some(detector),
            [a1, a2, exit],
            here,
            "LOOP",
        );
        self.conv.emit.define_piece(name.clone(), comb);
        let run = Piece::arg(Arg::Def(name), here);
        self.blocks.set(head, run.clone());
        Some(vec![Self::frame(FrameAct::Goto, head, here), run])
    }
}

/// `_resume OP k`.
pub fn compare(op: CompareOp, k: i64) -> BoolExpr {
    let resume = PosExpr {
        kind: PosKind::Resume,
        span: Span::default(),
    };
    BoolExpr::Compare(op, Operand::Pos(resume), Operand::Int(k))
}
