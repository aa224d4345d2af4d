//! The candidates of a hole in a normal program, smallest first, each a
//! program value (no text is written or parsed per candidate).
//!
//! Sizes and the order within a size (the answer is the first candidate
//! in this order that passes, so it is deterministic):
//!
//! - Terms (size 1): the registers (in `env` order), the scalars the
//!   program declares (inputs, sizes, vars, in declaration order), for each
//!   array `X` and each register or scalar `t`: `X[t]`, `X[t + 1]`,
//!   `X[t - 1]`; for each matrix `W`: `W[t][u]`; then `0`, `1`, `2`, `-1`.
//! - Expressions of size k + 1 (k = 1, 2, 3 operators): `a op b` for `a` of
//!   size i and `b` of size k - i (i = 1 first), each pair in order, the
//!   operators in the order `+ - * / %`.
//! - Conditions: `a op b` for expressions `a`, `b` (size: the sum of
//!   theirs minus one, so two terms make size 1), the operators
//!   `== != < <= > >=`; then `c and d`, `c or d` of two comparisons (size:
//!   the sum), `c` before `d`.
//! - Statements of size s: `r = e` for each register and scalar var or
//!   input `r`, `X[t] = e` for each array and index term `t`, with `e` of
//!   size s; then at size 1: `SWAP(X[t], X[u])`, then `OUT(e)`, then a call
//!   `F()` of each normal program of the file.
//!
//! In an environment without declared memory, [`super::observed`] adds
//! its observations to the terms and comparisons and gives the statements.
//!
//! Expressions and conditions are pruned by observational equivalence on
//! the probe states ([`super::probe`]): one whose values (an error counts
//! as a value) equal an earlier one's on every probe state is dropped.
//! Statements are not pruned beyond their expressions.

use std::cell::{RefCell, RefMut};
use std::collections::HashSet;
use std::rc::Rc;

use cnpi::exec::limits::Interrupt;
use cnpi::operators::{ArithOp, CompareOp};
use cnpi::program::hidden::hidden;
use cnpi::program::{
    ActArg, BlankKind, Body, BoolExpr, Cell, DataKind, DefId, Operand, PosExpr, PosKind, Program,
    Relation, Stmt, World,
};
use cnpi::span::Span;

use super::fill::{Candidate, Cond, Does, Ref, act, assign, place};
use super::observed;
use super::probe::Probes;

/// The most expressions kept at one size (the rest are not tried).
pub const MAX_PER_SIZE: usize = 50_000;
/// The largest expression size (operators + 1).
pub const MAX_SIZE: usize = 4;

/// The value of an expression on one probe state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) enum V {
    Num(i64),
    /// A read outside its array: equal only to another such read, never
    /// ordered, an error in arithmetic.
    End,
    /// An error (a zero divisor, an overflow, arithmetic on END).
    Err,
}

/// How an expression of the lists is computed from smaller ones.
#[derive(Clone, Copy, Debug)]
enum Recipe {
    /// A term: its own tree is evaluated.
    Term,
    Arith(ArithOp, Ref, Ref),
}

/// An expression, its values on the probe states, and how it is computed.
struct Valued {
    expr: Rc<PosExpr>,
    values: Vec<V>,
    recipe: Recipe,
}

/// A comparison and its values on the probe states: one bit per state,
/// and one bit per state where it errs.
struct Truth {
    expr: Rc<BoolExpr>,
    cond: Cond,
    holds: u64,
    errs: u64,
}

/// The values of the lists' expressions on one state, each computed once
/// ([`Grower::value_at`]): weighing a hole's thousands of candidates at a
/// state reads the same few terms again and again; and the truths of the
/// comparisons that `and` and `or` join (each joined with hundreds of
/// others). An entry holds for the state of its number
/// ([`Memo::next_state`]).
#[derive(Default)]
pub(super) struct Memo {
    state: u32,
    values: Vec<Vec<(u32, V)>>,
    truths: Vec<Vec<(u32, Option<bool>)>>,
}

impl Memo {
    /// Forgets the values: the next are on another state.
    pub fn next_state(&mut self) {
        self.state = self.state.wrapping_add(1);
        if self.state == 0 {
            self.values.clear();
            self.truths.clear();
            self.state = 1;
        }
    }
}

/// Everything the candidates of a program's holes are grown from.
pub struct Grower<'p> {
    program: &'p Program,
    probes: &'p Probes,
    /// Expressions by size - 1, each deduplicated.
    exprs: Vec<Vec<Valued>>,
    seen_values: HashSet<Vec<V>>,
    /// Comparisons by size - 1.
    comparisons: Vec<Vec<Truth>>,
    seen_truths: HashSet<(u64, u64)>,
    /// Asked at every piece grown whether to stop (the lists
    /// are then cut short; the search is abandoned).
    stop: Option<&'p dyn Interrupt>,
    /// The values of the lists' expressions on the state being weighed.
    memo: RefCell<Memo>,
}

impl<'p> Grower<'p> {
    pub fn new(program: &'p Program, probes: &'p Probes) -> Grower<'p> {
        let mut grower = Grower {
            program,
            probes,
            exprs: Vec::new(),
            seen_values: HashSet::new(),
            comparisons: Vec::new(),
            seen_truths: HashSet::new(),
            stop: None,
            memo: RefCell::default(),
        };
        let terms = grower.terms();
        let kept = grower.keep_exprs(terms);
        grower.exprs.push(together(kept));
        grower
    }

    /// The values of the lists' expressions on one state at a time, for
    /// [`Self::value_at`] and [`Self::truth_at`].
    pub(super) fn memo(&self) -> RefMut<'_, Memo> {
        self.memo.borrow_mut()
    }

    /// The same, asking `stop` while it grows.
    pub fn stopped_by(self, stop: Option<&'p dyn Interrupt>) -> Grower<'p> {
        Grower { stop, ..self }
    }

    /// The candidates of size `size` for a hole of kind `kind` in the
    /// normal program `def`, each a program value.
    pub fn candidates(&mut self, kind: BlankKind, size: usize, def: DefId) -> Vec<Candidate> {
        let stop = self.stop;
        let going = move || !stopped(stop);
        match kind {
            BlankKind::Expression => (self.exprs_of(size).iter())
                .take_while(|_| going())
                .enumerate()
                .map(|(k, v)| Candidate::Expression(v.expr.clone(), Ref::at(size, k)))
                .collect(),
            BlankKind::Condition => self
                .conditions_of(size)
                .into_iter()
                .take_while(|_| going())
                .map(|(expr, cond)| Candidate::Condition(expr, cond))
                .collect(),
            BlankKind::Statement => self.statements_of(size, def),
        }
    }

    /// The value on `world` of the expression at `at` in the lists, as
    /// [`value`] gives it, computed once per state of `memo`.
    /// Inlined where candidates are weighed: most reads find the value
    /// computed already on this state.
    #[inline]
    pub(super) fn value_at(&self, at: Ref, world: &dyn World, memo: &mut Memo) -> V {
        let (size, index) = (usize::from(at.size), at.index as usize);
        if let Some(&(state, v)) =
            (memo.values.get(size.wrapping_sub(1))).and_then(|known| known.get(index))
            && state == memo.state
        {
            return v;
        }
        self.value_computed(at, world, memo)
    }

    /// [`Self::value_at`] of a value not computed yet on this state.
    #[inline(never)]
    fn value_computed(&self, at: Ref, world: &dyn World, memo: &mut Memo) -> V {
        let (size, index) = (usize::from(at.size), at.index as usize);
        let Some(valued) = self
            .exprs
            .get(size.wrapping_sub(1))
            .and_then(|l| l.get(index))
        else {
            return V::Err;
        };
        if memo.values.len() < size {
            memo.values.resize_with(size, Vec::new);
        }
        let known = &mut memo.values[size - 1];
        if known.len() <= index {
            known.resize(self.exprs[size - 1].len().max(index + 1), (0, V::Err));
        }
        if let (state, v) = known[index]
            && state == memo.state
        {
            return v;
        }
        let v = match valued.recipe {
            Recipe::Term => value(&valued.expr, world),
            Recipe::Arith(op, a, b) => {
                let a = self.value_at(a, world, memo);
                arith(op, a, self.value_at(b, world, memo))
            }
        };
        memo.values[size - 1][index] = (memo.state, v);
        v
    }

    /// What the condition `expr`, computed as `cond` says, gives on
    /// `world` (`None`: an error), as `BoolExpr::eval` gives it.
    #[inline]
    pub(super) fn truth_at(
        &self,
        cond: Cond,
        expr: &BoolExpr,
        world: &dyn World,
        memo: &mut Memo,
    ) -> Option<bool> {
        let comparison = |at: Ref, memo: &mut Memo| {
            let (size, index) = (usize::from(at.size).wrapping_sub(1), at.index as usize);
            if let Some(&(state, truth)) = memo.truths.get(size).and_then(|t| t.get(index))
                && state == memo.state
            {
                return truth;
            }
            let listed = self.comparisons.get(size).and_then(|l| l.get(index));
            let truth = listed.and_then(|t| match t.cond {
                Cond::Compare(op, a, b) => {
                    let a = self.value_at(a, world, memo);
                    compare(op, a, self.value_at(b, world, memo))
                }
                _ => t.expr.eval(world).ok(),
            });
            if let Some(list) = self.comparisons.get(size) {
                if memo.truths.len() <= size {
                    memo.truths.resize_with(size + 1, Vec::new);
                }
                let known = &mut memo.truths[size];
                if known.len() < list.len() {
                    known.resize(list.len(), (0, None));
                }
                if let Some(entry) = known.get_mut(index) {
                    *entry = (memo.state, truth);
                }
            }
            truth
        };
        match cond {
            Cond::Compare(op, a, b) => {
                let a = self.value_at(a, world, memo);
                compare(op, a, self.value_at(b, world, memo))
            }
            Cond::Joined(and, c, d) => match comparison(c, memo)? {
                first if first != and => Some(first),
                _ => comparison(d, memo),
            },
            Cond::Tree => expr.eval(world).ok(),
        }
    }

    /// The terms, in the documented order.
    fn terms(&self) -> Vec<PosExpr> {
        let program = self.program;
        let scalars: Vec<PosExpr> = scalars(program).into_iter().map(|(_, e)| e).collect();
        let mut terms = scalars.clone();
        let shifted = |t: &PosExpr, op: ArithOp| {
            pos(PosKind::Arith(
                op,
                Box::new(t.clone()),
                Box::new(pos(PosKind::Int(1))),
            ))
        };
        for (id, data) in program.data.iter().enumerate() {
            match data.dims.len() {
                1 => {
                    for t in &scalars {
                        terms.push(read(program, id, vec![t.clone()]));
                        terms.push(read(program, id, vec![shifted(t, ArithOp::Add)]));
                        terms.push(read(program, id, vec![shifted(t, ArithOp::Sub)]));
                    }
                }
                2 => {
                    for t in &scalars {
                        for u in &scalars {
                            terms.push(read(program, id, vec![t.clone(), u.clone()]));
                        }
                    }
                }
                _ => {}
            }
        }
        if super::observed_applies(program) {
            terms.extend(observed::terms(program));
        }
        terms.extend([0, 1, 2, -1].map(|k| pos(PosKind::Int(k))));
        terms
    }

    /// Keeps the expressions whose values are new (and not an error on
    /// every probe state).
    fn keep_exprs(&mut self, exprs: Vec<PosExpr>) -> Vec<Valued> {
        let mut kept = Vec::new();
        for expr in exprs {
            if kept.len() >= MAX_PER_SIZE {
                break;
            }
            let values: Vec<V> = (self.probes.views())
                .map(|view| value(&expr, &view))
                .collect();
            if values.iter().all(|v| *v == V::Err) && !self.probes.is_empty() {
                continue;
            }
            if self.seen_values.insert(values.clone()) {
                kept.push(Valued {
                    expr: Rc::new(expr),
                    values,
                    recipe: Recipe::Term,
                });
            }
        }
        kept
    }

    /// The expressions of size `size` (1 to [`MAX_SIZE`]), grown on first
    /// use.
    fn exprs_of(&mut self, size: usize) -> &[Valued] {
        while self.exprs.len() < size.min(MAX_SIZE) {
            let next = self.exprs.len() + 1;
            let mut grown = Vec::new();
            'sizes: for left in 1..next {
                let right = next - left;
                for (i, a) in self.exprs[left - 1].iter().enumerate() {
                    for (j, b) in self.exprs[right - 1].iter().enumerate() {
                        let (i, j) = (Ref::at(left, i), Ref::at(right, j));
                        for op in [
                            ArithOp::Add,
                            ArithOp::Sub,
                            ArithOp::Mul,
                            ArithOp::Div,
                            ArithOp::Rem,
                        ] {
                            if grown.len() >= 8 * MAX_PER_SIZE {
                                break 'sizes;
                            }
                            grown.push((op, a, b, Recipe::Arith(op, i, j)));
                        }
                    }
                }
            }
            let mut kept = Vec::new();
            let stop = self.stop;
            for (op, a, b, recipe) in grown {
                if kept.len() >= MAX_PER_SIZE || stopped(stop) {
                    break;
                }
                let values: Vec<V> = (a.values.iter().zip(&b.values))
                    .map(|(x, y)| arith(op, *x, *y))
                    .collect();
                if values.iter().all(|v| *v == V::Err) {
                    continue;
                }
                if !self.seen_values.insert(values.clone()) {
                    continue;
                }
                let (a, b) = (Box::new((*a.expr).clone()), Box::new((*b.expr).clone()));
                let expr = Rc::new(pos(PosKind::Arith(op, a, b)));
                kept.push(Valued {
                    expr,
                    values,
                    recipe,
                });
            }
            self.exprs.push(together(kept));
        }
        self.exprs
            .get(size.wrapping_sub(1))
            .map_or(&[], |v| v.as_slice())
    }

    /// The comparisons of size `size`, grown on first use.
    fn comparisons_of(&mut self, size: usize) -> &[Truth] {
        let stop = self.stop;
        while self.comparisons.len() < size.min(MAX_SIZE) {
            let next = self.comparisons.len() + 1;
            // Sides of sizes l and r make a comparison of size l + r - 1.
            for side in 1..=next {
                self.exprs_of(side);
            }
            let mut kept = Vec::new();
            for left in 1..=next {
                let right = next + 1 - left;
                let (Some(lhs), Some(rhs)) = (self.exprs.get(left - 1), self.exprs.get(right - 1))
                else {
                    continue;
                };
                for (i, a) in lhs.iter().enumerate() {
                    for (j, b) in rhs.iter().enumerate() {
                        let (i, j) = (Ref::at(left, i), Ref::at(right, j));
                        if kept.len() >= MAX_PER_SIZE {
                            break;
                        }
                        if stopped(stop) {
                            break;
                        }
                        for op in CompareOp::ALL {
                            let (mut holds, mut errs) = (0u64, 0u64);
                            for (i, (x, y)) in a.values.iter().zip(&b.values).enumerate() {
                                match compare(op, *x, *y) {
                                    Some(true) => holds |= 1 << i,
                                    Some(false) => {}
                                    None => errs |= 1 << i,
                                }
                            }
                            if errs == all_bits(a.values.len()) {
                                continue;
                            }
                            if self.seen_truths.insert((holds, errs)) {
                                let expr = Rc::new(BoolExpr::Compare(
                                    op,
                                    Operand::Pos((*a.expr).clone()),
                                    Operand::Pos((*b.expr).clone()),
                                ));
                                let cond = Cond::Compare(op, i, j);
                                kept.push(Truth {
                                    expr,
                                    cond,
                                    holds,
                                    errs,
                                });
                            }
                        }
                    }
                }
            }
            if next == 1 && super::observed_applies(self.program) {
                for expr in observed::comparisons(self.program) {
                    if kept.len() >= MAX_PER_SIZE {
                        break;
                    }
                    let (holds, errs) = self.truth(&expr);
                    if errs != all_bits(self.probes.len()) && self.seen_truths.insert((holds, errs))
                    {
                        let (expr, cond) = (Rc::new(expr), Cond::Tree);
                        kept.push(Truth {
                            expr,
                            cond,
                            holds,
                            errs,
                        });
                    }
                }
            }
            self.comparisons.push(kept);
        }
        self.comparisons
            .get(size.wrapping_sub(1))
            .map_or(&[], |v| v.as_slice())
    }

    /// A condition's bits on the probe states (holds, errs), as the
    /// interpreter evaluates it.
    fn truth(&self, expr: &BoolExpr) -> (u64, u64) {
        let (mut holds, mut errs) = (0u64, 0u64);
        for (i, view) in self.probes.views().enumerate() {
            match expr.eval(&view) {
                Ok(true) => holds |= 1 << i,
                Ok(false) => {}
                Err(_) => errs |= 1 << i,
            }
        }
        (holds, errs)
    }

    /// The conditions of size `size`: comparisons, then `and`, then `or`
    /// of two comparisons whose sizes add up to it.
    fn conditions_of(&mut self, size: usize) -> Vec<(Rc<BoolExpr>, Cond)> {
        let stop = self.stop;
        // Each comparison is weighed as it is computed (two expressions of
        // the lists), not through the comparisons' list: on the five-hole
        // partition, looking it up there took a fifth of the search.
        let mut out: Vec<(Rc<BoolExpr>, Cond)> = (self.comparisons_of(size).iter())
            .map(|t| (t.expr.clone(), t.cond))
            .collect();
        for smaller in 1..size {
            self.comparisons_of(smaller);
        }
        let mut joined = Vec::new();
        for and in [true, false] {
            for left in 1..size {
                let right = size - left;
                let (Some(lhs), Some(rhs)) = (
                    self.comparisons.get(left - 1),
                    self.comparisons.get(right - 1),
                ) else {
                    continue;
                };
                for (i, c) in lhs.iter().enumerate() {
                    for (j, d) in rhs.iter().enumerate() {
                        if left == right && j <= i {
                            continue;
                        }
                        if joined.len() >= MAX_PER_SIZE || stopped(stop) {
                            break;
                        }
                        let (holds, errs) = if and {
                            let errs = c.errs | (c.holds & d.errs);
                            (c.holds & d.holds & !errs, errs)
                        } else {
                            let errs = c.errs | (!c.holds & d.errs);
                            ((c.holds | d.holds) & !errs, errs)
                        };
                        if !self.seen_truths.insert((holds, errs)) {
                            continue;
                        }
                        let (a, b) = (Box::new((*c.expr).clone()), Box::new((*d.expr).clone()));
                        let expr = Rc::new(if and {
                            BoolExpr::And(a, b)
                        } else {
                            BoolExpr::Or(a, b)
                        });
                        let cond = Cond::Joined(and, Ref::at(left, i), Ref::at(right, j));
                        joined.push((expr, cond));
                    }
                }
            }
        }
        out.extend(joined);
        out
    }

    /// The statements of size `size` in the normal program `def` (a
    /// register it may name: not another's local): in `ram` each kept as
    /// what it does ([`Does`]) and the shape of its effect, built when
    /// put; elsewhere each a value.
    fn statements_of(&mut self, size: usize, def: DefId) -> Vec<Candidate> {
        let (program, stop) = (self.program, self.stop);
        let exprs: Vec<(Rc<PosExpr>, Ref)> = (self.exprs_of(size).iter().enumerate())
            .take_while(|_| !stopped(stop))
            .map(|(k, v)| (v.expr.clone(), Ref::at(size, k)))
            .collect();
        let built = |stmt| Candidate::Built(Rc::new(stmt));
        if super::observed_applies(program) {
            let exprs: Vec<PosExpr> = exprs.iter().map(|(e, _)| (**e).clone()).collect();
            let mut out: Vec<Candidate> = (observed::statements(program, &exprs, size))
                .into_iter()
                .map(built)
                .collect();
            if size == 1 {
                out.extend(calls(program).map(built));
            }
            return out;
        }
        let visible = |e: &PosExpr| match e.kind {
            PosKind::Pointer(p) => program.pointers[p].owner.is_none_or(|o| o == def),
            _ => true,
        };
        let scalars: Vec<PosExpr> = (scalars(program).into_iter())
            .map(|(_, e)| e)
            .filter(visible)
            .collect();
        // Registers and scalar inputs or vars, then each array's elements
        // at each index term: (place, shape).
        let mut targets: Vec<(Rc<PosExpr>, u32)> = Vec::new();
        for e in &scalars {
            let size_of = matches!(&e.kind, PosKind::Read(cell)
                if program.data[cell.data].kind == DataKind::Size);
            if !size_of {
                targets.push((Rc::new(e.clone()), shape(targets.len())));
            }
        }
        let mut elements = Vec::new();
        for (id, data) in program.data.iter().enumerate() {
            if data.dims.len() == 1 {
                for index in &scalars {
                    let place = read(program, id, vec![index.clone()]);
                    elements.push((Rc::new(place), shape(targets.len() + id)));
                }
            }
        }
        let first_other = shape(targets.len() + program.data.len());
        targets.extend(elements.iter().cloned());
        // Whether the environment has the ACT does not depend on the value
        // written: asked once per target.
        let zero = pos(PosKind::Int(0));
        targets.retain(|(target, _)| assign(program, target, zero.clone()).is_some());
        let mut out = Vec::new();
        'targets: for (target, shape) in &targets {
            for (e, at) in &exprs {
                if stopped(stop) {
                    break 'targets;
                }
                if **e != **target {
                    let does = Does::Assign(target.clone(), e.clone(), *at);
                    out.push(Candidate::Statement(does, *shape));
                }
            }
        }
        if size == 1 {
            let mut others = first_other..;
            for (i, (a, _)) in elements.iter().enumerate() {
                for (b, _) in &elements[i + 1..] {
                    if act(program, "SWAP", vec![place(a), place(b)]).is_some() {
                        let does = Does::Swap(a.clone(), b.clone());
                        out.push(Candidate::Statement(
                            does,
                            others.next().unwrap_or(u32::MAX),
                        ));
                    }
                }
            }
            let printed = others.next().unwrap_or(u32::MAX);
            if act(program, "OUT", vec![ActArg::Position(zero)]).is_some() {
                let outs = exprs.iter().map(|(e, at)| Does::Out(e.clone(), *at));
                out.extend(outs.map(|does| Candidate::Statement(does, printed)));
            }
            out.extend(calls(program).map(built));
        }
        out
    }
}

/// `kept` with each expression built again, one after the other: grown
/// between their values' vectors, the expressions lay a kilobyte apart,
/// and weighing a hole's candidates at a state (every expression of a
/// list read in order, [`super::angelic`]) missed the cache at each one
/// (`prefix_sums` took twice the time).
fn together(kept: Vec<Valued>) -> Vec<Valued> {
    let exprs: Vec<Rc<PosExpr>> = kept.iter().map(|v| Rc::new((*v.expr).clone())).collect();
    (kept.into_iter().zip(exprs))
        .map(|(v, expr)| Valued { expr, ..v })
        .collect()
}

/// Whether growing should stop: `stop` asked at every piece (a flag's
/// load: asking only every [`cnpi::exec::limits::POLL_EVERY`] pieces let a
/// stopped search grow on for up to half a second).
fn stopped(stop: Option<&dyn Interrupt>) -> bool {
    stop.is_some_and(|s| s.interrupted())
}

/// A shape number ([`Effect`]) from a count.
fn shape(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// The registers and the scalars `program` declares (inputs, sizes, vars),
/// in that order, each as its name and as a term; not the registers the
/// procedures' sugar hides (a `for` loop's bound, a result's variable),
/// which no text can name.
fn scalars(program: &Program) -> Vec<(String, PosExpr)> {
    let mut scalars: Vec<(String, PosExpr)> = (program.pointers.iter().enumerate())
        .filter(|(_, decl)| !hidden(&decl.name))
        .map(|(p, decl)| (decl.name.clone(), pos(PosKind::Pointer(p))))
        .collect();
    for (id, data) in program.data.iter().enumerate() {
        if data.dims.is_empty() && !hidden(&data.name) {
            scalars.push((data.name.clone(), read(program, id, Vec::new())));
        }
    }
    scalars
}

/// An expression at no place.
fn pos(kind: PosKind) -> PosExpr {
    PosExpr {
        kind,
        span: Span::default(),
    }
}

/// A read of `program`'s datum `data` at the indices `at`.
fn read(program: &Program, data: usize, at: Vec<PosExpr>) -> PosExpr {
    pos(PosKind::Read(Box::new(Cell {
        data,
        name: program.data[data].name.clone(),
        at,
        span: Span::default(),
    })))
}

/// A call `F()` of each normal program of `program` without parameters.
fn calls(program: &Program) -> impl Iterator<Item = Stmt> {
    (program.defs.iter().enumerate())
        .filter(|(_, def)| matches!(def.body, Body::Normal(_)) && def.params.is_empty())
        .map(|(id, _)| Stmt::Call(id, Span::default()))
}

/// The bits of `probes` probe states (at most 64).
fn all_bits(probes: usize) -> u64 {
    u64::MAX >> (64 - probes.clamp(1, 64))
}

/// The value of a term in `world`: an element read outside its array is
/// END (as a comparison reads it).
pub(super) fn value(expr: &PosExpr, world: &dyn World) -> V {
    let read = match &expr.kind {
        PosKind::Read(cell) => cell.read(world),
        _ => expr.eval(world).map(Some),
    };
    match read {
        Ok(Some(k)) => V::Num(k),
        Ok(None) => V::End,
        Err(_) => V::Err,
    }
}

/// `a op b` as `PosExpr::eval` computes it.
fn arith(op: ArithOp, a: V, b: V) -> V {
    let (V::Num(a), V::Num(b)) = (a, b) else {
        return V::Err;
    };
    let result = match op {
        ArithOp::Add => a.checked_add(b),
        ArithOp::Sub => a.checked_sub(b),
        ArithOp::Mul => a.checked_mul(b),
        ArithOp::Div => a.checked_div(b),
        ArithOp::Rem => a.checked_rem(b),
    };
    result.map_or(V::Err, V::Num)
}

/// `a op b` as a condition computes it, by the END rules (`None`: an
/// error).
fn compare(op: CompareOp, a: V, b: V) -> Option<bool> {
    let relation = match (a, b) {
        (V::Err, _) | (_, V::Err) => return None,
        (V::Num(x), V::Num(y)) => match x.cmp(&y) {
            std::cmp::Ordering::Less => Relation::Less,
            std::cmp::Ordering::Equal => Relation::Equal,
            std::cmp::Ordering::Greater => Relation::Greater,
        },
        (V::End, V::End) => Relation::Same,
        _ => Relation::Different,
    };
    Some(relation.holds(op))
}
