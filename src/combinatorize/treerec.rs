//! Programs that call themselves with state calls become `treerec`.
//!
//! The body, or the block of its one `if c:` (then `c` is the detector;
//! otherwise the detector is `0 == 0`), splits at its state calls:
//! statements before the first call become `pre`, those after the last
//! become `post`, and the part from the first call to the last becomes
//! `divide`, which pushes the calls' states. The stack runs them last
//! pushed first, so `divide` pushes in reverse: first the statements of the
//! part that are not calls, in source order, then the calls' pushes from
//! the last to the first. Moving code before earlier calls is refused when
//! it would change its meaning (E0803, E0804). Calls inside a loop are
//! pushed as the loop runs, so they run in reverse order (W0801).

use super::convert::{Converter, always, contains_state_call, extent, meaningful, span};
use super::emit::{Extent, Piece};
use super::errors;
use super::flow::{DataSet, Flow, positions_reads};
use super::output::Arg;
use super::set::Pointers;
use crate::program::{Act, BoolExpr, Combinator, Stmt};
use crate::span::Span;

/// Where a statement of a divide part runs in the output.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Group {
    /// Before the part's first call: in place.
    Before,
    /// After a call: moved ahead of the pushes.
    Moved,
    /// A call, or a statement holding calls: pushed in reverse.
    Call,
}

/// A statement of a divide part, for the check that moving code keeps its
/// meaning.
struct Element<'s> {
    stmt: &'s Stmt,
    flow: Flow,
    /// Its position in the output.
    placed: usize,
}

impl Converter<'_, '_> {
    pub fn treerec(&mut self, body: &[Stmt]) -> Option<Piece> {
        let stmts = meaningful(body);
        let (detector, block) = match stmts.as_slice() {
            [
                Stmt::If {
                    condition,
                    then,
                    otherwise,
                    ..
                },
            ] if meaningful(otherwise).is_empty() => (condition.clone(), meaningful(then)),
            _ => (always(), stmts.clone()),
        };
        let is_call = |s: &&Stmt| contains_state_call(std::slice::from_ref(*s), self.def);
        let first = block.iter().position(is_call)?;
        let last = block.iter().rposition(is_call)?;
        let (before, rest) = block.split_at(first);
        let (divide_stmts, post) = rest.split_at(last - first + 1);
        let pre = self.block(before.iter().copied());
        let divided = self.divide(divide_stmts, None);
        let post_pieces = self.block(post.iter().copied());
        let (pre, (divide_pieces, written), post_pieces) = (pre?, divided?, post_pieces?);
        self.check_pointers(post, &written, divide_stmts);
        let mut pre = self.emit.seq(pre, "PRE");
        pre.kind = "PRE";
        let mut divide = self.emit.seq(divide_pieces, "DIVIDE");
        divide.kind = "DIVIDE";
        // Named and described after the first call in the source, though
        // it pushes the last call first.
        if let Some(whole) = divide_stmts.iter().map(|s| extent(s)).reduce(Extent::to) {
            divide.extent = whole;
        }
        let mut post = self.emit.seq(post_pieces, "POST");
        post.kind = "POST";
        let extent = stmts
            .iter()
            .map(|s| extent(s))
            .reduce(Extent::to)
            .unwrap_or_default();
        Some(self.emit.comb(
            Combinator::Treerec,
            Some(detector),
            [pre, divide, post],
            extent,
            "TREEREC",
        ))
    }

    /// W0802 when the children may read pointers other than the state
    /// (they see them as the previous child left them, not as the caller
    /// had them); W0803 when `post` or the caller may read pointers the
    /// divide part changed (the sentinel puts them back before `post`).
    fn check_pointers(&mut self, post: &[&Stmt], written: &Pointers, divide: &[&Stmt]) {
        let effects = self.ctx.effects;
        let name = self.ctx.name(self.def).to_string();
        let def_span = self.ctx.program.defs.get(self.def).map(|d| d.span);
        let outside = effects.summary(self.def).exposed.minus(effects.state());
        if let (false, Some(at)) = (outside.is_empty(), def_span) {
            let names = self.names(&outside);
            let ram = self.ctx.declared_memory();
            self.diagnostics
                .push(errors::sibling_pointers(&name, at, &names, ram));
        }
        let post_flow = post.iter().fold(Flow::default(), |flow, s| {
            flow.then(&effects.stmt(s, Some(self.def)))
        });
        let live = post_flow.live_before(effects.live_at_end(self.def));
        let lost = written.intersection(&live);
        if let (false, Some(first)) = (lost.is_empty(), divide.first()) {
            let names = self.names(&lost);
            let ram = self.ctx.declared_memory();
            self.diagnostics
                .push(errors::undone_changes(&name, span(first), &names, ram));
        }
    }

    /// The pieces of a divide part, in the order they run, and the
    /// pointers it writes. `after` is the latest call before the part.
    fn divide(&mut self, stmts: &[&Stmt], after: Option<Span>) -> Option<(Vec<Piece>, Pointers)> {
        let mut after = after;
        let mut groups: Vec<(Group, Piece, &Stmt)> = Vec::new();
        let mut ok = true;
        for &stmt in stmts {
            let holds_call = contains_state_call(std::slice::from_ref(stmt), self.def);
            let piece = if holds_call {
                self.divide_item(stmt, after)
            } else {
                let outer = std::mem::replace(&mut self.after_call, after);
                let piece = self.stmt(stmt);
                self.after_call = outer;
                piece
            };
            let group = match (holds_call, after) {
                (true, _) => Group::Call,
                (false, None) => Group::Before,
                (false, Some(_)) => Group::Moved,
            };
            if holds_call {
                after = Some(span(stmt));
            }
            match piece {
                Some(piece) => groups.push((group, piece, stmt)),
                None => ok = false,
            }
        }
        if !ok {
            return None;
        }
        // The output order: statements before the first call, moved
        // statements, then the calls from the last to the first.
        let of = |group: Group| {
            let groups = &groups;
            move |i: &usize| groups.get(*i).is_some_and(|(g, _, _)| *g == group)
        };
        let output: Vec<usize> = (0..groups.len())
            .filter(of(Group::Before))
            .chain((0..groups.len()).filter(of(Group::Moved)))
            .chain((0..groups.len()).rev().filter(of(Group::Call)))
            .collect();
        let mut placed = vec![0; groups.len()];
        for (position, &i) in output.iter().enumerate() {
            if let Some(p) = placed.get_mut(i) {
                *p = position;
            }
        }
        let elements: Vec<Element> = groups
            .iter()
            .zip(&placed)
            .map(|((_, _, stmt), placed)| Element {
                stmt,
                flow: self.ctx.effects.stmt(stmt, Some(self.def)),
                placed: *placed,
            })
            .collect();
        self.check_order(&elements)?;
        let mut written = Pointers::default();
        for element in &elements {
            written.union_with(&element.flow.effect.writes);
        }
        let mut pieces: Vec<(usize, Piece)> = placed
            .into_iter()
            .zip(groups)
            .map(|(p, (_, piece, _))| (p, piece))
            .collect();
        pieces.sort_by_key(|(p, _)| *p);
        Some((
            pieces.into_iter().map(|(_, piece)| piece).collect(),
            written,
        ))
    }

    /// E0803 when two statements that change places in the output touch a
    /// pointer one of them writes.
    fn check_order(&mut self, elements: &[Element]) -> Option<()> {
        for (i, early) in elements.iter().enumerate() {
            for late in elements.iter().skip(i + 1) {
                if late.placed > early.placed {
                    continue;
                }
                let (a, b) = (&early.flow.effect, &late.flow.effect);
                let clash = a
                    .writes
                    .intersection(&b.reads)
                    .union(&b.writes.intersection(&a.reads))
                    .union(&a.writes.intersection(&b.writes));
                if let Some(pointer) = clash.iter().next() {
                    let name = self.ctx.pointer(pointer).to_string();
                    let (moved, past) = (span(late.stmt), span(early.stmt));
                    self.diagnostics
                        .push(errors::moved_conflict(moved, past, &name));
                    return None;
                }
            }
        }
        Some(())
    }

    /// A statement of a divide part that holds state calls.
    fn divide_item(&mut self, stmt: &Stmt, after: Option<Span>) -> Option<Piece> {
        let extent = extent(stmt);
        match stmt {
            Stmt::StateCall(_, args, span) => {
                let reads = positions_reads(args);
                let env = self.ctx.reads_environment(reads.env, &reads.data);
                if let (true, Some(call)) = (env, after) {
                    self.diagnostics
                        .push(errors::reads_environment(*span, call));
                    return None;
                }
                Some(Piece::arg(Arg::Act(Act::Push(args.clone())), extent))
            }
            Stmt::If {
                condition,
                then,
                otherwise,
                span,
            } => {
                self.condition_after(condition, *span, after)?;
                let then = self.divide(&meaningful(then), after);
                let otherwise = self.divide(&meaningful(otherwise), after);
                let ((then, _), (otherwise, _)) = (then?, otherwise?);
                let [a1, a2] = self.emit.split(then);
                let a3 = self.emit.seq(otherwise, "SEQ");
                let detector = Some(condition.clone());
                Some(
                    self.emit
                        .comb(Combinator::Cond, detector, [a1, a2, a3], extent, "IF"),
                )
            }
            Stmt::While {
                condition,
                body,
                span,
            } => {
                self.calls_in_loop(stmt, *span);
                self.condition_after(condition, *span, after)?;
                let outer = std::mem::replace(&mut self.after_call, after);
                let body = self.block(body);
                self.after_call = outer;
                let [a1, a2] = self.emit.split(body?);
                let a3 = Piece::arg(Arg::Nop, extent);
                let detector = Some(condition.clone());
                Some(
                    self.emit
                        .comb(Combinator::Linrec, detector, [a1, a2, a3], extent, "LOOP"),
                )
            }
            other => self.stmt(other),
        }
    }

    /// W0801 for `stmt`, a loop of the divide part that makes state calls,
    /// when the order of the calls can show: they change the environment
    /// (in `ram`, memory or the tape; registers they change, every state
    /// call puts back), or they read what the loop itself changes (each
    /// call then sees it as the last round left it).
    fn calls_in_loop(&mut self, stmt: &Stmt, at: Span) {
        let effects = self.ctx.effects;
        let calls = &effects.summary(self.def).effect;
        let looped = effects.stmt(stmt, Some(self.def)).effect;
        let name = self.ctx.name(self.def).to_string();
        let at = self.emit.first_line(at);
        let why = if self.ctx.declared_memory() {
            let stale: DataSet = (calls.data_reads)
                .intersection(&looped.data_writes)
                .copied()
                .collect();
            let mut why = Vec::new();
            if calls.env_write {
                let written = self.ctx.memory(&calls.data_writes, calls.unnamed_write);
                why.push(format!(
                    "`{name}` writes {written}, so the order of the calls shows there"
                ));
            }
            if !stale.is_empty() {
                let read = self.ctx.memory(&stale, false);
                why.push(format!(
                    "`{name}` reads {read}, which the loop writes: every call sees it as the last round left it"
                ));
            }
            if why.is_empty() {
                return;
            }
            Some(why.join("; "))
        } else if calls.env_write || (calls.env_read && looped.env_write) {
            None
        } else {
            return;
        };
        self.diagnostics.push(errors::calls_in_loop(&name, at, why));
    }

    /// E0804 when a condition that runs after the call `after` in the
    /// source reads the environment.
    fn condition_after(
        &mut self,
        condition: &BoolExpr,
        at: Span,
        after: Option<Span>,
    ) -> Option<()> {
        let flow = self.ctx.effects.condition(condition);
        let effect = &flow.effect;
        let env = (self.ctx).reads_environment(effect.env_read, &effect.data_reads);
        if let (true, Some(call)) = (env, after) {
            let at = self.emit.first_line(at);
            self.diagnostics.push(errors::reads_environment(at, call));
            return None;
        }
        Some(())
    }
}
