//! Normal programs to appliers: statements, loops and tail recursion.
//!
//! A program without recursion becomes one applier per compound
//! statement: `if` becomes `cond`, `while` becomes `linrec`, a run of
//! statements becomes `seq`. A program that calls itself with a plain call
//! as its last step (`if c: ...; F()`) is a loop too, and becomes
//! `linrec`. A program that calls itself with state calls becomes a
//! `treerec` (see `treerec`). The shapes that cannot be converted get
//! E0801 (a plain recursive call that is not the last step) or E0805.

use std::borrow::Cow;

use super::effects::Effects;
use super::emit::{Emitter, Extent, Piece};
use super::errors;
use super::flow::{DataSet, positions_reads};
use super::output::{Arg, OutDef};
use super::set::Pointers;
use super::walk::calls;
use crate::diagnostic::Diagnostic;
use crate::env::Ability;
use crate::operators::CompareOp;
use crate::program::{
    Act, BoolExpr, Combinator, DataId, DataKind, DefId, Operand, PosExpr, PosKind, Program, Stmt,
};
use crate::span::Span;

/// What every conversion reads.
pub struct Context<'a> {
    pub program: &'a Program,
    pub effects: &'a Effects<'a>,
}

impl Context<'_> {
    pub fn name(&self, id: DefId) -> &str {
        self.program.defs.get(id).map_or("?", |d| d.name.as_str())
    }

    pub fn pointer(&self, id: usize) -> &str {
        self.program
            .pointers
            .get(id)
            .map_or("?", |p| p.name.as_str())
    }

    /// Whether the program's environment has declared memory
    /// ([`Ability::DeclaredMemory`], as `ram`): its pointers are registers,
    /// and the rest of what it changes is variables, arrays, matrices and
    /// the output tape.
    pub fn declared_memory(&self) -> bool {
        crate::env::environment(self.program.env).has(Ability::DeclaredMemory)
    }

    /// Whether code that reads `data` and, if `env`, observes the
    /// environment otherwise, reads something the code it is moved past
    /// may change: a size (`n`) is a constant, every other name memory.
    pub fn reads_environment(&self, env: bool, data: &DataSet) -> bool {
        let constant =
            |id: &DataId| (self.program.data.get(*id)).is_some_and(|d| d.kind == DataKind::Size);
        env || !data.iter().all(constant)
    }

    /// `ram` memory, for messages: "`color[…]`, `time` and the output
    /// tape" (an array shows its brackets, a variable its name alone).
    pub fn memory(&self, data: &DataSet, tape: bool) -> String {
        let mut parts: Vec<String> = data
            .iter()
            .map(|&id| match self.program.data.get(id) {
                Some(d) => format!("`{}{}`", d.name, "[…]".repeat(d.dims.len())),
                None => "`?`".to_string(),
            })
            .collect();
        if tape {
            parts.push("the output tape".to_string());
        }
        and_list(parts)
    }
}

/// "a", "a and b", "a, b and c".
fn and_list(mut parts: Vec<String>) -> String {
    match parts.pop() {
        None => String::new(),
        Some(last) if parts.is_empty() => last,
        Some(last) => format!("{} and {last}", parts.join(", ")),
    }
}

/// Converts one normal program (its working body) into its helpers and
/// itself, or reports why it cannot.
pub struct Converter<'c, 'e> {
    pub ctx: &'c Context<'c>,
    pub emit: Emitter<'e>,
    pub def: DefId,
    pub diagnostics: &'c mut Vec<Diagnostic>,
    /// Set while converting code that runs after a recursive call in the
    /// source but before the calls' children in the `treerec`: the span of
    /// that call. Such code may only move pointers (E0803) and may not
    /// read the environment (E0804).
    pub after_call: Option<Span>,
}

impl Converter<'_, '_> {
    /// The output definitions of the program: helpers, then itself.
    pub fn convert(mut self, body: &[Stmt], extent: Extent) -> Option<Vec<OutDef>> {
        let def = self.def;
        let name = self.ctx.name(def).to_string();
        let mut plain = Vec::new();
        self_calls(body, def, true, &mut plain);
        let top = if contains_state_call(body, def) {
            for (call, _) in &plain {
                self.diagnostics
                    .push(errors::plain_with_state(&name, *call));
            }
            if !plain.is_empty() {
                return None;
            }
            self.treerec(body)
        } else if !plain.is_empty() {
            let non_tail: Vec<Span> = plain
                .iter()
                .filter(|(_, tail)| !tail)
                .map(|(call, _)| *call)
                .collect();
            for call in &non_tail {
                self.diagnostics.push(errors::non_tail(&name, *call));
            }
            if !non_tail.is_empty() {
                return None;
            }
            self.tail_recursion(body)
        } else {
            let pieces = self.block(body)?;
            Some(self.emit.seq(pieces, "SEQ"))
        }?;
        let comment = self.emit.comment(extent);
        let mut defs = self.emit.helpers;
        let origin = self.ctx.program.defs.get(self.def).map(|d| d.span);
        defs.push(OutDef {
            name,
            comment: Some(comment),
            runs: top.runs(),
            node: top.node,
            origin: origin.unwrap_or_default(),
        });
        Some(defs)
    }

    /// Every statement of a block, converted; all are tried, so that one
    /// run reports every problem.
    pub fn block<'s>(&mut self, stmts: impl IntoIterator<Item = &'s Stmt>) -> Option<Vec<Piece>> {
        let pieces: Vec<Option<Piece>> = stmts.into_iter().map(|s| self.stmt(s)).collect();
        pieces.into_iter().collect()
    }

    pub fn stmt(&mut self, stmt: &Stmt) -> Option<Piece> {
        let extent = extent(stmt);
        if let Some(call) = self.after_call {
            self.check_movable(stmt, call)?;
        }
        Some(match stmt {
            Stmt::Act(app) if matches!(app.act, Act::Nop) => Piece::arg(Arg::Nop, extent),
            Stmt::Act(app) => Piece::arg(Arg::Act(app.act.clone()), extent),
            // `combinatorize` refuses these before converting.
            Stmt::Pass(_) | Stmt::Hole(..) | Stmt::ParamCall(_) | Stmt::Return { .. } => {
                Piece::arg(Arg::Nop, extent)
            }
            Stmt::Call(id, _) => Piece::arg(Arg::Def(self.ctx.name(*id).to_string()), extent),
            // Only the divide part of a `treerec` holds the program's own
            // state calls: each pushes its state.
            Stmt::StateCall(id, args, _) if *id == self.def => {
                Piece::arg(Arg::Act(Act::Push(args.clone())), extent)
            }
            Stmt::StateCall(id, args, span) => return self.state_call(stmt, *id, args, *span),
            Stmt::If {
                condition,
                then,
                otherwise,
                ..
            } => {
                let (condition, then) = nested(condition, then, otherwise);
                let (then, otherwise) = (self.block(then.iter()), self.block(otherwise));
                let [a1, a2] = self.emit.split(then?);
                let a3 = self.emit.seq(otherwise?, "SEQ");
                let detector = Some(condition);
                self.emit
                    .comb(Combinator::Cond, detector, [a1, a2, a3], extent, "IF")
            }
            Stmt::While {
                condition, body, ..
            } => {
                let body = self.block(body)?;
                let [a1, a2] = self.emit.split(body);
                let a3 = Piece::arg(Arg::Nop, extent);
                let detector = Some(condition.clone());
                self.emit
                    .comb(Combinator::Linrec, detector, [a1, a2, a3], extent, "LOOP")
            }
        })
    }

    /// Code that runs before the children of an earlier recursive call
    /// (`call`) in the output, though after them in the source: it may
    /// move pointers, and nothing it reads may depend on the environment.
    fn check_movable(&mut self, stmt: &Stmt, call: Span) -> Option<()> {
        let effects = self.ctx.effects;
        let flow = match stmt {
            Stmt::If { condition, .. } | Stmt::While { condition, .. } => {
                effects.condition(condition)
            }
            Stmt::StateCall(id, args, _) if *id == self.def => {
                let reads = positions_reads(args);
                let env = self.ctx.reads_environment(reads.env, &reads.data);
                return self.refuse_env(env, span(stmt), call);
            }
            other => effects.stmt(other, Some(self.def)),
        };
        let at = self.emit.first_line(span(stmt));
        let leaf = matches!(stmt, Stmt::Call(..) | Stmt::StateCall(..));
        if flow.effect.env_write || leaf {
            let effect = &flow.effect;
            let changes = effect.env_write.then(|| match self.ctx.declared_memory() {
                true => self.ctx.memory(&effect.data_writes, effect.unnamed_write),
                false => "the environment".to_string(),
            });
            let diagnostic = errors::moved_statement(at, call, changes.as_deref());
            self.diagnostics.push(diagnostic);
            return None;
        }
        let effect = &flow.effect;
        let env = (self.ctx).reads_environment(effect.env_read, &effect.data_reads);
        self.refuse_env(env, at, call)
    }

    /// E0804 when code moved before the children of `call` reads the
    /// environment.
    fn refuse_env(&mut self, env: bool, span: Span, call: Span) -> Option<()> {
        if env {
            self.diagnostics.push(errors::reads_environment(span, call));
            return None;
        }
        Some(())
    }

    /// `G(e1, ..., ek)` to another program: a `treerec` that pushes no
    /// state, whose divide part sets the state pointers and calls G. Its
    /// sentinel remembers every pointer before the `SET`s and puts them all
    /// back after G returns, as the source's state call does.
    fn state_call(
        &mut self,
        stmt: &Stmt,
        id: DefId,
        args: &[PosExpr],
        span: Span,
    ) -> Option<Piece> {
        let state = self.ctx.program.state.as_deref().unwrap_or_default();
        let mut pending: Vec<(usize, &PosExpr, Pointers)> = state
            .iter()
            .zip(args)
            .filter(|(p, e)| e.kind != PosKind::Pointer(**p))
            .map(|(p, e)| (*p, e, positions_reads(std::slice::from_ref(e)).pointers))
            .collect();
        let extent = extent(stmt);
        let mut pieces = Vec::new();
        // A parallel assignment: set a pointer once no other pending
        // position reads it.
        while !pending.is_empty() {
            let unread = |p: usize, i: usize| {
                pending
                    .iter()
                    .enumerate()
                    .all(|(j, (_, _, reads))| i == j || !reads.contains(p))
            };
            let Some(i) =
                (0..pending.len()).find(|&i| pending.get(i).is_some_and(|t| unread(t.0, i)))
            else {
                let name = self.ctx.name(id);
                self.diagnostics
                    .push(errors::circular_state_arguments(name, span));
                return None;
            };
            let (pointer, position, _) = pending.remove(i);
            let set = Act::Set(pointer, position.clone());
            pieces.push(Piece::arg(Arg::Act(set), extent));
        }
        pieces.push(Piece::arg(Arg::Def(self.ctx.name(id).to_string()), extent));
        let enter = self.emit.seq(pieces, "ENTER");
        let nop = || Piece::arg(Arg::Nop, extent);
        Some(self.emit.comb(
            Combinator::Treerec,
            Some(always()),
            [nop(), enter, nop()],
            extent,
            "CALL",
        ))
    }

    /// Pointer names, for messages: "`lo`, `hi`"; in `ram`, "the register
    /// `t`", "the registers `t` and `u`".
    pub fn names(&self, set: &Pointers) -> String {
        let names: Vec<String> = set
            .iter()
            .map(|p| format!("`{}`", self.ctx.pointer(p)))
            .collect();
        match (self.ctx.declared_memory(), names.len()) {
            (false, _) => names.join(", "),
            (true, 1) => format!("the register {}", and_list(names)),
            (true, _) => format!("the registers {}", and_list(names)),
        }
    }

    /// `PRE; if c: BODY; F() else: BASE` (the call may also end `else`):
    /// `seq(; PRE, linrec(c?; BODY + PRE, BASE), NOP)`, without the `seq`
    /// when PRE is empty.
    fn tail_recursion(&mut self, body: &[Stmt]) -> Option<Piece> {
        let def = self.def;
        let name = self.ctx.name(def).to_string();
        let stmts = meaningful(body);
        let (if_stmt, pre) = stmts.split_last()?;
        let Stmt::If {
            condition,
            then,
            otherwise,
            ..
        } = if_stmt
        else {
            self.diagnostics.push(errors::unconditional(
                &name,
                self.emit.first_line(span(if_stmt)),
            ));
            return None;
        };
        let ends = |block: &[Stmt]| matches!(meaningful(block).last(), Some(Stmt::Call(id, _)) if *id == def);
        let (detector, recursive, base) = match (ends(then), ends(otherwise)) {
            (true, false) => (condition.clone(), then, otherwise),
            (false, true) => (BoolExpr::Not(Box::new(condition.clone())), otherwise, then),
            (true, true) => {
                self.diagnostics.push(errors::no_way_out(
                    &name,
                    self.emit.first_line(span(if_stmt)),
                ));
                return None;
            }
            (false, false) => {
                self.diagnostics.push(errors::nested_tail_call(
                    &name,
                    self.emit.first_line(span(if_stmt)),
                ));
                return None;
            }
        };
        let mut in_base = Vec::new();
        self_calls(base, def, false, &mut in_base);
        if let Some((call, _)) = in_base.first() {
            self.diagnostics
                .push(errors::nested_tail_call(&name, *call));
            return None;
        }
        let recursive = meaningful(recursive);
        let (_, body) = recursive.split_last()?;
        let pre_pieces = self.block(pre.iter().copied());
        let body_pieces = self.block(body.iter().copied());
        let base = self.block(base);
        let (pre_pieces, mut body_pieces, base) = (pre_pieces?, body_pieces?, base?);
        let pre = self.emit.seq(pre_pieces, "SEQ");
        let pre_extent = pre.extent;
        let pre = self.emit.arg(pre);
        body_pieces.push(Piece::arg(pre.clone(), pre_extent));
        let [a1, a2] = self.emit.split(body_pieces);
        let a3 = self.emit.seq(base, "SEQ");
        let rec = self.emit.comb(
            Combinator::Linrec,
            Some(detector),
            [a1, a2, a3],
            extent(if_stmt),
            "REC",
        );
        Some(self.emit.seq(vec![Piece::arg(pre, pre_extent), rec], "SEQ"))
    }
}

/// `0 == 0`: the detector of a `treerec` whose body is not one `if`, and
/// of the `treerec` that makes a state call to another program.
pub fn always() -> BoolExpr {
    BoolExpr::Compare(CompareOp::Eq, Operand::Int(0), Operand::Int(0))
}

/// Whether a block makes a state call to `def`, at any depth.
pub fn contains_state_call(stmts: &[Stmt], def: DefId) -> bool {
    calls(stmts)
        .into_iter()
        .any(|s| matches!(s, Stmt::StateCall(id, _, _) if *id == def))
}

/// The statements that do something (`pass` and `NOP` do not).
pub fn meaningful(stmts: &[Stmt]) -> Vec<&Stmt> {
    stmts
        .iter()
        .filter(|s| !matches!(s, Stmt::Pass(_)))
        .filter(|s| !matches!(s, Stmt::Act(app) if matches!(app.act, Act::Nop)))
        .collect()
}

/// The condition and block an `if` converts with. `if a: if b: X`,
/// neither with an `else`, is `if a and b: X`: `and` evaluates `b` only
/// where `a` holds (on the network too), so both evaluate the same sides
/// in the same order and stop with the same error, and one `cond` takes
/// one core step where two took three (the outer one's `NOP` after the
/// inner one). Joined while the condition [`fits`] a detector and its
/// sides are plain ([`plain_sides`]). Where `b` is `b1 and b2` and only
/// `b1` is plain, `b1` moves out: `if a and b1: if b2: X`, the same
/// sides in the same order again, and one core step where `a` holds and
/// `b1` fails where three were.
fn nested<'s>(
    condition: &BoolExpr,
    then: &'s [Stmt],
    otherwise: &[Stmt],
) -> (BoolExpr, Cow<'s, [Stmt]>) {
    let (mut condition, mut then) = (condition.clone(), then);
    while otherwise.is_empty() {
        let [
            Stmt::If {
                condition: inner,
                then: body,
                otherwise: none,
                span,
            },
        ] = then
        else {
            break;
        };
        if !none.is_empty() {
            break;
        }
        let joined = and(condition.clone(), inner.clone());
        if fits(&joined) && plain_sides(&joined) {
            (condition, then) = (joined, body);
            continue;
        }
        let conjuncts = conjuncts(inner);
        let plain = conjuncts.iter().take_while(|c| plain_sides(c)).count();
        if plain == 0 || plain == conjuncts.len() {
            break;
        }
        let joined = and(condition.clone(), all(&conjuncts[..plain]));
        if !fits(&joined) || !plain_sides(&joined) {
            break;
        }
        let rest = Stmt::If {
            condition: all(&conjuncts[plain..]),
            then: body.clone(),
            otherwise: Vec::new(),
            span: *span,
        };
        return (joined, Cow::Owned(vec![rest]));
    }
    (condition, Cow::Borrowed(then))
}

/// The sides of `condition`'s `and`s, left to right (`a and b and c` is
/// `a`, `b`, `c`; any other condition is itself).
fn conjuncts(condition: &BoolExpr) -> Vec<&BoolExpr> {
    match condition {
        BoolExpr::And(a, b) => {
            let mut all = conjuncts(a);
            all.push(b);
            all
        }
        other => vec![other],
    }
}

/// `conjuncts` (at least one) joined by `and`, as a parser reads them.
fn all(conjuncts: &[&BoolExpr]) -> BoolExpr {
    let (first, rest) = conjuncts.split_first().expect("at least one condition");
    (rest.iter()).fold((*first).clone(), |a, b| {
        BoolExpr::And(Box::new(a), Box::new((*b).clone()))
    })
}

/// Whether every comparison of `condition` relates sides read with no
/// arithmetic: an integer, a pointer, or a cell at pointers (`n`, `A[i]`,
/// `A[u][v]`). The network's detector of such a condition computes only
/// the comparisons its bit still needs, so `a and b` costs no more than
/// `a` where `a` fails; a side with arithmetic (Dijkstra's `d[u] +
/// A[u][v] < d[v]`) makes it compute every comparison at each activation,
/// which cost more than the step a join saves (`dijkstra` n = 1,024:
/// 1,825,944,469 -> 2,273,937,616 instructions).
fn plain_sides(condition: &BoolExpr) -> bool {
    let pointer = |e: &PosExpr| matches!(e.kind, PosKind::Pointer(_));
    let plain = |side: &Operand| match side {
        Operand::Int(_) => true,
        Operand::Pos(e) => match &e.kind {
            PosKind::Int(_) | PosKind::Pointer(_) => true,
            PosKind::Read(cell) => cell.at.iter().all(pointer),
            _ => false,
        },
        _ => false,
    };
    match condition {
        BoolExpr::And(a, b) | BoolExpr::Or(a, b) => plain_sides(a) && plain_sides(b),
        BoolExpr::Not(a) => plain_sides(a),
        BoolExpr::Compare(_, lhs, rhs) => plain(lhs) && plain(rhs),
        BoolExpr::Test(..) | BoolExpr::Hole(..) => false,
    }
}

/// `a and b`, with `b`'s own `and`s continued on the left, as a parser
/// reads `a and b1 and b2` (`and` is associative, and evaluates its sides
/// left to right either way).
fn and(a: BoolExpr, b: BoolExpr) -> BoolExpr {
    match b {
        BoolExpr::And(b1, b2) => BoolExpr::And(Box::new(and(a, *b1)), b2),
        b => BoolExpr::And(Box::new(a), Box::new(b)),
    }
}

/// Whether a detector of `condition` (also as `_resume == H and c`, see
/// `cut`) stays within its domain's bound: at most five comparisons or
/// tests, of at most five states each (the bound, 2^16 points, is over
/// 5^6).
pub fn fits(condition: &BoolExpr) -> bool {
    fn leaves(c: &BoolExpr) -> usize {
        match c {
            BoolExpr::And(a, b) | BoolExpr::Or(a, b) => leaves(a) + leaves(b),
            BoolExpr::Not(a) => leaves(a),
            BoolExpr::Compare(..) | BoolExpr::Test(..) | BoolExpr::Hole(..) => 1,
        }
    }
    leaves(condition) <= 5
}

/// The plain calls of `def` to itself, and whether each is the last thing
/// the program does (`tail`: the block is in tail position).
fn self_calls(stmts: &[Stmt], def: DefId, tail: bool, out: &mut Vec<(Span, bool)>) {
    let stmts = meaningful(stmts);
    let last = stmts.len().saturating_sub(1);
    for (i, stmt) in stmts.into_iter().enumerate() {
        let tail = tail && i == last;
        match stmt {
            Stmt::Call(id, span) if *id == def => out.push((*span, tail)),
            Stmt::If {
                then, otherwise, ..
            } => {
                self_calls(then, def, tail, out);
                self_calls(otherwise, def, tail, out);
            }
            Stmt::While { body, .. } => self_calls(body, def, false, out),
            _ => {}
        }
    }
}

/// Where a statement starts.
pub fn span(stmt: &Stmt) -> Span {
    match stmt {
        Stmt::Act(app) => app.span,
        Stmt::Call(_, span) | Stmt::StateCall(_, _, span) | Stmt::Pass(span) => *span,
        Stmt::If { span, .. } | Stmt::While { span, .. } | Stmt::Return { span, .. } => *span,
        Stmt::ParamCall(call) => call.span,
        Stmt::Hole(_, span) => *span,
    }
}

/// The source range of a statement: from its start to the end of its last
/// nested statement (a block's span would also cover the blank and comment
/// lines after it).
pub fn extent(stmt: &Stmt) -> Extent {
    let start = span(stmt).start;
    let mut last = stmt;
    loop {
        let next = match last {
            Stmt::If {
                then, otherwise, ..
            } => otherwise.last().or(then.last()),
            Stmt::While { body, .. } => body.last(),
            _ => None,
        };
        match next {
            Some(next) => last = next,
            None => break,
        }
    }
    Extent::new(start, span(last).end)
}
