//! The search through the fillings of holes in normal programs by boxes
//! of candidates, each box decided by one run of the examples
//! (angelic execution, Bodik et al., POPL 2010, driven by concrete runs).
//!
//! A *box* holds, for each hole, a set of its candidates of one size; its
//! fillings are every way of taking one candidate from each set. The box's
//! first filling (each set's first candidate) is run on the examples with
//! the reference interpreter, and wherever a hole is evaluated (a
//! condition tested, an expression's statement about to run, a statement
//! hole reached), the hole's set is narrowed to the candidates that give
//! the same value there (conditions: true, false or an error; expressions:
//! their value, END or an error; statements: the same shape of effect, such
//! as writing one array, with the same positions). Every filling of the
//! narrowed sets runs exactly as the first one did, step for step, so one
//! run decides all of them: they pass the examples run so far, or all
//! fail where the first failed. The rest of the box is split into at most
//! one box per hole (the fillings that differ from the narrowed sets first
//! at that hole) and goes back to the queue. A hole whose value cannot be
//! read off the state where its statement starts (its statement calls a
//! definition first, an applier hole, a statement calling one) is
//! narrowed to the first candidate alone.
//!
//! The queue is ordered by each box's first filling in the enumeration's
//! order (total size, then each hole's size, then each hole's candidate
//! order): a box's first filling comes first among its own fillings, so
//! the first filling found to pass every example is the first in that
//! order that does, the answer a filling-by-filling walk would give.

use std::cmp::{Ordering, Reverse};
use std::collections::{BinaryHeap, HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, Ordering as AtomicOrdering};

use cnpi::diagnostic::Diagnostic;
use cnpi::env::State;
use cnpi::env::View;
use cnpi::exec::limits::Interrupt;
use cnpi::exec::{Limits, Options, Outcome};
use cnpi::program::{BlankKind, Body, DefId, Program, Stmt, World as _};
use cnpi::symbolic::{self, Event};

use super::fill::{self, Candidate, Does, Position};
use super::grow::{Grower, Memo, V, value};
use super::{BlankSketch, Walk};

/// A set of candidates of one hole: indices into its list of one size,
/// ascending.
pub(super) type Set = Rc<[u32]>;

/// Fillings taking one candidate of each hole's set, the holes at sizes
/// `sizes`.
#[derive(Clone, Debug)]
pub(super) struct Boxed {
    pub total: usize,
    pub sizes: Vec<usize>,
    pub sets: Vec<Set>,
    /// How many hole evaluations of its run (on the examples, or on one
    /// input after the answer) every filling of the box is known to make
    /// alike: a box lost at an evaluation ([`Narrowed::lost`]) ran as its
    /// parent's first filling up to there, so its run narrows nothing
    /// before it.
    pub known: usize,
    /// Where its run starts ([`Start`]).
    pub start: Start,
}

/// Where a box's run on the examples starts: the position (in the order
/// the examples run in) of the example at which it was lost, and the hole
/// evaluations its parent's run made before that example. Every filling
/// of a box lost there ran as its parent's first filling through the
/// examples before it, which that filling passed: they are not run again
/// (until the examples' step budgets change, [`Queue::restart`]).
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Start {
    pub example: usize,
    events: usize,
}

impl Boxed {
    /// Every filling of the split `sizes`, `len(hole, size)` candidates
    /// each (`None` if a hole has none at its size).
    pub fn whole(sizes: &[usize], len: impl Fn(usize, usize) -> usize) -> Option<Boxed> {
        let sets = (sizes.iter().enumerate())
            .map(|(hole, size)| {
                let n = u32::try_from(len(hole, *size)).unwrap_or(u32::MAX);
                (n > 0).then(|| (0..n).collect())
            })
            .collect::<Option<Vec<Set>>>()?;
        Some(Boxed {
            total: sizes.iter().sum(),
            sizes: sizes.to_vec(),
            sets,
            known: 0,
            start: Start::default(),
        })
    }

    /// The box's first filling: each set's first candidate.
    pub fn first(&self) -> Vec<u32> {
        self.sets.iter().map(|s| s[0]).collect()
    }

    /// How many fillings the box holds.
    pub fn count(&self) -> usize {
        (self.sets.iter()).fold(1usize, |n, s| n.saturating_mul(s.len()))
    }

    /// The same sizes with the sets `sets`, nothing known of its run.
    pub fn with(&self, sets: Vec<Set>) -> Boxed {
        Boxed {
            sets,
            known: 0,
            start: Start::default(),
            ..self.clone()
        }
    }

    /// The fillings of the box outside the box `inner` (whose sets are
    /// subsets of this one's), as disjoint boxes: the k-th takes the
    /// first k - 1 holes from `inner` and the k-th from outside it.
    pub fn without(&self, inner: &[Set]) -> Vec<Boxed> {
        let mut out = Vec::new();
        for hole in 0..self.sets.len() {
            let outside: Set = (self.sets[hole].iter())
                .filter(|c| inner[hole].binary_search(c).is_err())
                .copied()
                .collect();
            if outside.is_empty() {
                continue;
            }
            let sets = (inner[..hole].iter().cloned())
                .chain([outside])
                .chain(self.sets[hole + 1..].iter().cloned())
                .collect();
            out.push(self.with(sets));
        }
        out
    }

    /// The box split by `narrowed` (narrowed from this one): the
    /// fillings that ran as the first did, and the rest as disjoint boxes,
    /// one per group of candidates a hole lost at one evaluation
    /// ([`Narrowed::lost`]).
    pub fn split(&self, narrowed: Narrowed) -> (Boxed, Vec<Boxed>) {
        let rest = (narrowed.lost.into_iter())
            .map(|(sets, known, start)| Boxed {
                known,
                start,
                ..self.with(sets)
            })
            .collect();
        (self.with(narrowed.sets), rest)
    }

    /// The order of the queue: its first filling's, compared without
    /// collecting it (the heap compares boxes at every push and pop).
    fn order(&self, other: &Boxed) -> Ordering {
        (self.total, &self.sizes)
            .cmp(&(other.total, &other.sizes))
            .then_with(|| (self.sets.iter().map(|s| s[0])).cmp(other.sets.iter().map(|s| s[0])))
    }
}

impl PartialEq for Boxed {
    fn eq(&self, other: &Boxed) -> bool {
        self.order(other) == Ordering::Equal
    }
}

impl Eq for Boxed {}

impl PartialOrd for Boxed {
    fn partial_cmp(&self, other: &Boxed) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Boxed {
    fn cmp(&self, other: &Boxed) -> Ordering {
        self.order(other)
    }
}

/// The boxes waiting, first filling first.
#[derive(Default)]
pub(super) struct Queue(BinaryHeap<Reverse<Boxed>>);

impl Queue {
    pub fn push(&mut self, b: Boxed) {
        self.0.push(Reverse(b));
    }

    pub fn pop(&mut self) -> Option<Boxed> {
        self.0.pop().map(|Reverse(b)| b)
    }

    pub fn extend(&mut self, b: Option<Boxed>) {
        self.0.extend(b.map(Reverse));
    }

    pub fn extend_all(&mut self, boxes: Vec<Boxed>) {
        self.0.extend(boxes.into_iter().map(Reverse));
    }

    /// The total size of the first box waiting.
    pub fn next_total(&self) -> Option<usize> {
        self.0.peek().map(|Reverse(b)| b.total)
    }

    /// Every box waiting runs from the first example again: the examples'
    /// step budgets changed, and what passed an example before may not
    /// now.
    pub fn restart(&mut self) {
        let boxes = std::mem::take(&mut self.0).into_vec();
        self.0 = (boxes.into_iter())
            .map(|Reverse(b)| {
                Reverse(Boxed {
                    start: Start::default(),
                    ..b
                })
            })
            .collect();
    }
}

/// Each hole's candidates still running as the first filling did, and
/// the fillings lost on the way, in the order they were lost: at each
/// evaluation of a hole, the box as narrowed so far with that hole's set
/// replaced by the candidates that give one other value there (so every
/// filling of a lost box runs alike up to and including that evaluation,
/// and a box of one group is likely to run as one).
pub(super) struct Narrowed {
    pub sets: Vec<Set>,
    /// The fillings lost: each box's sets, how many evaluations its
    /// fillings make alike ([`Boxed::known`]) and where its run starts.
    pub lost: Vec<(Vec<Set>, usize, Start)>,
    /// The hole evaluations so far.
    events: usize,
    /// The evaluations known to be alike for every filling of the box,
    /// not narrowed at.
    known: usize,
    /// The example being run, and the evaluations before it.
    start: Start,
}

impl Narrowed {
    /// The box `b`, not narrowed yet.
    fn of(b: &Boxed) -> Narrowed {
        Narrowed {
            sets: b.sets.clone(),
            lost: Vec::new(),
            events: b.start.events,
            known: b.known,
            start: b.start,
        }
    }

    /// The run goes on to the example at `position` of the order.
    fn begin(&mut self, position: usize) {
        self.start = Start {
            example: position,
            events: self.events,
        };
    }

    /// One evaluation of `hole`: keeps in its set the candidates whose
    /// `gives` equals the first's (unless the evaluation is known alike).
    fn at(&mut self, hole: usize, mut gives: impl FnMut(u32) -> Gives) {
        self.events += 1;
        if self.events <= self.known {
            return;
        }
        let set = &self.sets[hole];
        if set.len() == 1 {
            return;
        }
        let wanted = gives(set[0]);
        // Most evaluations lose nothing: look for the first that differs
        // before allocating anything.
        let Some(differs) = set[1..].iter().position(|&c| gives(c) != wanted) else {
            return;
        };
        let mut kept = set[..=differs].to_vec();
        let mut lost: HashMap<Gives, Vec<u32>, BuildHasherDefault<Mix>> = HashMap::default();
        for &c in &set[differs + 1..] {
            let given = gives(c);
            match given == wanted {
                true => kept.push(c),
                false => lost.entry(given).or_default().push(c),
            }
        }
        let mut groups: Vec<Vec<u32>> = lost.into_values().collect();
        groups.sort_unstable_by_key(|g| g[0]);
        for group in groups {
            self.lose(hole, group.into(), self.events, self.start);
        }
        self.sets[hole] = kept.into();
    }

    /// Narrows `hole` to its first candidate, the others lost as one box
    /// of which nothing is known.
    fn first_only(&mut self, hole: usize) {
        if self.sets[hole].len() > 1 {
            let first = self.sets[hole][0];
            self.lose(hole, self.sets[hole][1..].into(), 0, Start::default());
            self.sets[hole] = Set::from([first]);
        }
    }

    /// Records the fillings of the box so far with `hole`'s set `group`
    /// as lost, alike for their first `known` evaluations, run from
    /// `start`.
    fn lose(&mut self, hole: usize, group: Set, known: usize, start: Start) {
        let mut sets = self.sets.clone();
        sets[hole] = group;
        self.lost.push((sets, known, start));
    }
}

/// What one hole gives where it is evaluated: two candidates that give the
/// same here act the same here.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Gives {
    Truth(Option<bool>),
    Value(V),
    Effect(u32, V, V),
    /// Not known: like no other candidate.
    Itself(u32),
}

/// Where each hole in a normal program is evaluated: the statement (its
/// definition and first byte) at whose start its value is read.
pub(super) struct Sites {
    /// Each hole with a site, and its statement.
    at: Vec<((DefId, usize), usize)>,
    /// Whether each hole's site starts where another statement of its
    /// definition starts too (a `for` loop's start: the statement setting
    /// the variable and the one stepping it are both written at the
    /// variable): there it is weighed only at the first of them
    /// ([`Sites::starts`]).
    shared: Vec<bool>,
    /// Whether each hole (applier holes too) is narrowed to its first
    /// candidate alone.
    alone: Vec<bool>,
    /// Whether no example asks for the output tape: then every `OUT(e)`
    /// does the same as far as the examples (and the check) can see,
    /// whatever `e`'s value (unless it is END or an error).
    unseen_tape: bool,
}

impl Sites {
    pub fn of(sketch: &BlankSketch) -> Sites {
        let program = &sketch.program;
        let mut at = Vec::new();
        let mut alone = Vec::new();
        let mut shared = vec![false; sketch.holes()];
        for (hole, blank) in program.blanks.iter().enumerate() {
            let Some(Body::Normal(body)) = program.defs.get(blank.def).map(|d| &d.body) else {
                alone.push(true);
                continue;
            };
            let site = match blank.kind {
                BlankKind::Statement => Some(blank.span.start),
                _ => site(body, hole)
                    .filter(|stmt| !calls_first(stmt))
                    .map(|stmt| stmt.span().start),
            };
            alone.push(site.is_none());
            if let Some(start) = site {
                at.push(((blank.def, start), hole));
                shared[hole] = starting_at(body, start) > 1;
            }
        }
        alone.extend(sketch.applier_holes().iter().map(|_| true));
        // A statement hole's second statement: read at the byte after the
        // `?` ([`super::fill::put_after`]).
        for (hole, blank) in sketch.seconds() {
            at.push(((blank.def, blank.span.end), hole));
            alone.push(false);
        }
        let unseen_tape = !sketch.members().iter().any(|m| m == "output");
        Sites {
            at,
            alone,
            shared,
            unseen_tape,
        }
    }

    /// For each hole whose site is shared, the statement of `work` (the
    /// checked sketch with a filling put in) that evaluates it: the
    /// first, in the order statements are written, that starts at the
    /// site (a `for` loop's `SET` of its variable, before the loop; the
    /// step, written at the same place, is inside the loop, and is not
    /// weighed even when it is written as the start's candidate, as
    /// `j + 1`).
    pub(super) fn starts<'w>(&self, work: &'w Program) -> Vec<Option<&'w Stmt>> {
        let mut starts = vec![None; self.shared.len()];
        for &((def, start), hole) in &self.at {
            if self.shared.get(hole).copied().unwrap_or(false)
                && let Some(Body::Normal(body)) = work.defs.get(def).map(|d| &d.body)
            {
                starts[hole] = first(body, &|stmt| stmt.span().start == start);
            }
        }
        starts
    }
}

/// Whether `hole` is weighed at `stmt`, a statement at its site: always,
/// unless `starts` ([`Sites::starts`]) names another statement for it.
pub(super) fn weighs(starts: &[Option<&Stmt>], hole: usize, stmt: &Stmt) -> bool {
    match starts.get(hole).copied().flatten() {
        Some(evaluates) => std::ptr::eq(evaluates, stmt),
        None => true,
    }
}

/// The first statement of `block` (at any depth, a statement before
/// those inside it) for which `wanted` holds.
fn first<'b>(block: &'b [Stmt], wanted: &dyn Fn(&Stmt) -> bool) -> Option<&'b Stmt> {
    block.iter().find_map(|stmt| {
        if wanted(stmt) {
            return Some(stmt);
        }
        match stmt {
            Stmt::If {
                then, otherwise, ..
            } => first(then, wanted).or_else(|| first(otherwise, wanted)),
            Stmt::While { body, .. } => first(body, wanted),
            _ => None,
        }
    })
}

/// How many statements of `block` (at any depth) start at the byte `start`.
fn starting_at(block: &[Stmt], start: usize) -> usize {
    (block.iter())
        .map(|stmt| {
            let inner = match stmt {
                Stmt::If {
                    then, otherwise, ..
                } => starting_at(then, start) + starting_at(otherwise, start),
                Stmt::While { body, .. } => starting_at(body, start),
                _ => 0,
            };
            inner + usize::from(stmt.span().start == start)
        })
        .sum()
}

/// Of the statements of `block` (at any depth), the one whose own
/// expressions hold the node of hole `hole` (not those of a statement
/// inside it): where it is evaluated. Found by the node, not by the `?`'s place: a `for`
/// loop's start is evaluated by the statement setting its variable,
/// written at the variable, before the loop's `while`, which the place
/// of the `?` lies in (so read there, the start's candidates were weighed
/// after the first of them had set the variable).
fn site(block: &[Stmt], hole: usize) -> Option<&Stmt> {
    first(block, &|stmt| fill::holds(stmt, hole))
}

/// Whether `stmt` runs its calls before it evaluates its expressions.
fn calls_first(stmt: &Stmt) -> bool {
    let mut found = Vec::new();
    cnpi::program::calls::calls_in_statement(stmt, false, &mut found);
    !found.is_empty() || matches!(stmt, Stmt::ParamCall(_) | Stmt::Return { .. })
}

/// What candidate `index` of `list` gives on `view`, its expressions'
/// values read from `grower`'s lists through `memo` (an `OUT` as
/// [`Sites::unseen_tape`] says).
fn gives(
    list: &[Candidate],
    index: u32,
    view: &View,
    (grower, memo): (&Grower, &mut Memo),
    unseen_tape: bool,
) -> Gives {
    match &list[index as usize] {
        Candidate::Condition(c, cond) => Gives::Truth(grower.truth_at(*cond, c, view, memo)),
        Candidate::Expression(_, at) => Gives::Value(grower.value_at(*at, view, memo)),
        Candidate::Statement(does, shape) => {
            let [first, second] = does.positions().map(|p| match p {
                Position::Index(e) => value(e, view),
                Position::Listed(at) => grower.value_at(at, view, memo),
                Position::Not => V::Num(0),
            });
            match (does, first) {
                (Does::Out(..), V::Num(_)) if unseen_tape => {
                    Gives::Effect(*shape, V::Num(0), second)
                }
                _ => Gives::Effect(*shape, first, second),
            }
        }
        Candidate::Built(_) | Candidate::Applier(_) | Candidate::Empty => Gives::Itself(index),
    }
}

/// The states at which the entry's `while` loops were tested, in its first
/// activation: a `ram` program that tests one loop twice on the same
/// registers and memory runs for ever (its calls below it are the same
/// too, none), so the run stops there and fails as it would at
/// `--max-steps`.
#[derive(Default)]
struct Looping {
    /// The entry's first activation's call depth.
    depth: Option<u32>,
    seen: HashSet<(usize, Vec<Option<i64>>), BuildHasherDefault<Mix>>,
    /// About the bytes `seen` holds (what the run's memory limit counts).
    held: usize,
}

impl Looping {
    /// Whether the test of `stmt` (of `def`, at call depth `depth`) on
    /// `view` was made before on the same state.
    fn again(
        &mut self,
        program: &Program,
        def: DefId,
        depth: u32,
        stmt: &Stmt,
        view: &View,
    ) -> bool {
        if def != program.entry || !matches!(stmt, Stmt::While { .. }) {
            return false;
        }
        if *self.depth.get_or_insert(depth) != depth {
            return false;
        }
        let mut state: Vec<Option<i64>> = (0..program.pointers.len())
            .map(|p| Some(view.pointer(p)))
            .collect();
        for (data, declared) in program.data.iter().enumerate() {
            let mut at = vec![0i64; declared.dims.len()];
            cells(view, data, &mut at, 0, &mut state);
        }
        self.held += 64 + 16 * state.len();
        !self.seen.insert((stmt.span().start, state))
    }
}

/// A fast hash of [`Looping`]'s states (whole words mixed by one
/// multiplication each, as rustc's FxHash does): the states are hashed at
/// every loop test, where the standard SipHash took a twentieth of the
/// search's time; and of what candidates give where a hole's set splits
/// ([`Narrowed::at`]), where it took a fiftieth.
#[derive(Default)]
struct Mix(u64);

impl Hasher for Mix {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }

    fn write_u64(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }

    fn write_i64(&mut self, word: i64) {
        self.write_u64(word as u64);
    }

    fn write_usize(&mut self, word: usize) {
        self.write_u64(word as u64);
    }

    fn write_isize(&mut self, word: isize) {
        self.write_u64(word as u64);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

/// Every cell of `data` whose first `dim` indices are `at`'s, in order,
/// each row ended by `None` (the read past its end).
fn cells(view: &View, data: usize, at: &mut Vec<i64>, dim: usize, out: &mut Vec<Option<i64>>) {
    if dim == at.len() {
        out.push(view.cell(data, at));
        return;
    }
    for i in 0.. {
        at[dim] = i;
        for later in &mut at[dim + 1..] {
            *later = 0;
        }
        if view.cell(data, at).is_none() {
            out.push(None);
            return;
        }
        cells(view, data, at, dim + 1, out);
    }
}

/// What stops a run of [`BlankSketch::narrowing`]: a loop tested twice
/// on one state ([`Looping`]), or the search's own interrupt.
struct Stop<'a> {
    looping: AtomicBool,
    outside: Option<&'a dyn Interrupt>,
}

impl Interrupt for Stop<'_> {
    fn interrupted(&self) -> bool {
        self.looping.load(AtomicOrdering::Relaxed) || self.outside.is_some_and(|i| i.interrupted())
    }
}

/// `b` narrowed to its first filling, each hole's other candidates one
/// group.
pub(super) fn alone(b: &Boxed) -> Narrowed {
    let mut narrowed = Narrowed::of(b);
    for hole in 0..b.sets.len() {
        narrowed.first_only(hole);
    }
    narrowed
}

/// The candidates of a box's holes (`of[h]`: hole `h`'s at the box's
/// size), and the grower whose lists their expressions stand in.
#[derive(Clone, Copy)]
pub(super) struct Lists<'a> {
    pub of: &'a [&'a [Candidate]],
    pub grower: &'a Grower<'a>,
}

/// How a box's first filling did on the examples.
pub(super) struct Decided {
    /// The sets narrowed to the fillings that ran as the first did.
    pub narrowed: Narrowed,
    /// The position, in the order the examples run in, of the first
    /// example it failed (`None`: it passed them all).
    pub fails: Option<usize>,
}

impl BlankSketch {
    /// Whether runs are stopped at a loop tested twice on one state
    /// ([`Looping`]): in `ram`, whose whole state the view reads.
    fn loops_end(&self) -> bool {
        !super::observed_applies(&self.program)
    }

    /// Runs the first filling of `b` (holes' candidates from `lists`) on
    /// the examples, narrowing each hole's set where it is evaluated;
    /// `work` is a copy of the checked sketch the pieces are put into.
    pub(super) fn decide(
        &self,
        work: &mut Program,
        lists: Lists,
        b: &Boxed,
        walk: &Walk,
        budgets: &[u64],
    ) -> Decided {
        let sites = &walk.sites;
        let Some(mut narrowed) = self.first_put(work, lists.of, b, sites) else {
            let texts = self.texts(lists.of, b.first());
            let fails = self.fails(&texts, true).first().copied();
            return Decided {
                narrowed: alone(b),
                fails,
            };
        };
        let from = b.start.example;
        let fails = (walk.order.iter().enumerate().skip(from)).position(|(k, &i)| {
            narrowed.begin(k);
            let example = &self.examples[i];
            let run = self.narrowing(
                work,
                lists,
                &mut narrowed,
                sites,
                example.input.clone(),
                budgets[i],
            );
            !run.is_ok_and(|outcome| example.matches(&outcome))
        });
        let fails = fails.map(|k| k + from);
        Decided { narrowed, fails }
    }

    /// Puts the first filling of `b` into `work`; the sets it starts to
    /// narrow from (a hole read nowhere holds its first candidate alone),
    /// or `None` when a piece does not check or has no place.
    pub(super) fn first_put(
        &self,
        work: &mut Program,
        lists: &[&[Candidate]],
        b: &Boxed,
        sites: &Sites,
    ) -> Option<Narrowed> {
        let first: Vec<&Candidate> = (lists.iter().zip(&b.sets))
            .map(|(list, set)| &list[set[0] as usize])
            .collect();
        if !self.put_all(work, &first) {
            return None;
        }
        let mut narrowed = Narrowed::of(b);
        for (hole, alone) in sites.alone.iter().enumerate() {
            if *alone {
                narrowed.first_only(hole);
            }
        }
        Some(narrowed)
    }

    /// One run of `work` (the first filling of `sets` put in) on `input`
    /// with at most `steps` steps, each hole's set narrowed where it is
    /// evaluated to the candidates that give the same as the first.
    pub(super) fn narrowing(
        &self,
        work: &Program,
        lists: Lists,
        narrowed: &mut Narrowed,
        sites: &Sites,
        input: State,
        steps: u64,
    ) -> Result<Outcome, Diagnostic> {
        let loops = self.loops_end();
        let stop = Stop {
            looping: AtomicBool::new(false),
            outside: self.interrupt.as_deref().map(|i| i as &dyn Interrupt),
        };
        let options = Options {
            max_steps: steps,
            trace: None,
            limits: Limits {
                interrupt: Some(&stop),
                ..Limits::default()
            },
        };
        let mut tested = Looping::default();
        let starts = sites.starts(work);
        let mut memo = lists.grower.memo();
        let mut narrow = |event: Event| {
            let Event::Statement {
                def,
                depth,
                stmt,
                view,
            } = event
            else {
                return tested.held;
            };
            let at = (def, stmt.span().start);
            let mut evaluated = sites.at.iter().filter(|(site, _)| *site == at).peekable();
            if evaluated.peek().is_some() {
                memo.next_state();
            }
            for &(_, hole) in evaluated {
                if !weighs(&starts, hole, stmt) {
                    continue;
                }
                // One step may evaluate thousands of candidates: the
                // interrupt is asked before each hole's, and once it says
                // stop nothing more is evaluated (the run ends at its own
                // next poll, a few thousand cheap steps on).
                if stop.outside.is_some_and(|i| i.interrupted()) {
                    break;
                }
                narrowed.at(hole, |c| {
                    gives(
                        lists.of[hole],
                        c,
                        &view,
                        (lists.grower, &mut memo),
                        sites.unseen_tape,
                    )
                });
            }
            if loops && tested.again(&self.program, def, depth, stmt, &view) {
                stop.looping.store(true, AtomicOrdering::Relaxed);
            }
            tested.held
        };
        symbolic::run_observed(work, input, options, &mut narrow)
    }
}
