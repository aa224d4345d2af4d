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
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, Ordering as AtomicOrdering};

use cnpi::diagnostic::Diagnostic;
use cnpi::env::State;
use cnpi::env::View;
use cnpi::exec::limits::Interrupt;
use cnpi::exec::{Limits, Options, Outcome};
use cnpi::program::{BlankKind, Body, DefId, Program, Stmt, World as _};
use cnpi::symbolic::{self, Event};

use super::fill::{Candidate, Piece};
use super::grow::{V, value};
use super::{BlankSketch, Filling};

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

    /// The same sizes with the sets `sets`.
    pub fn with(&self, sets: Vec<Set>) -> Boxed {
        Boxed {
            sets,
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

    /// The box split by `narrowed` (whose sets are subsets of this
    /// one's): the fillings that ran as the first did, and the rest as
    /// disjoint boxes, one per group of candidates a hole lost at one
    /// place ([`Narrowed::groups`]), the holes before it from the first
    /// part.
    pub fn split(&self, narrowed: Narrowed) -> (Boxed, Vec<Boxed>) {
        let inner: Vec<Set> = narrowed.sets.into_iter().map(Set::from).collect();
        let mut rest = Vec::new();
        for (hole, groups) in narrowed.groups.into_iter().enumerate() {
            for group in groups {
                let mut group = group;
                group.sort_unstable();
                let sets = (inner[..hole].iter().cloned())
                    .chain([Set::from(group)])
                    .chain(self.sets[hole + 1..].iter().cloned())
                    .collect();
                rest.push(self.with(sets));
            }
        }
        (self.with(inner), rest)
    }

    fn key(&self) -> (usize, &[usize], Vec<u32>) {
        (self.total, &self.sizes, self.first())
    }
}

impl PartialEq for Boxed {
    fn eq(&self, other: &Boxed) -> bool {
        self.key() == other.key()
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
        self.key().cmp(&other.key())
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

    /// The total size of the first box waiting.
    pub fn next_total(&self) -> Option<usize> {
        self.0.peek().map(|Reverse(b)| b.total)
    }
}

/// Each hole's candidates still running as the first filling did, and
/// those it lost, in groups: the candidates lost at one place that give the
/// same there (so a box of one group is likely to run as one).
pub(super) struct Narrowed {
    pub sets: Vec<Vec<u32>>,
    pub groups: Vec<Vec<Vec<u32>>>,
}

impl Narrowed {
    /// Keeps in `hole`'s set the candidates whose `gives` equals the
    /// first's, grouping the others by what they give.
    fn narrow(&mut self, hole: usize, gives: impl Fn(u32) -> Gives) {
        let set = &mut self.sets[hole];
        if set.len() == 1 {
            return;
        }
        let wanted = gives(set[0]);
        let mut lost: HashMap<Gives, Vec<u32>> = HashMap::new();
        set.retain(|c| {
            let given = gives(*c);
            let kept = given == wanted;
            if !kept {
                lost.entry(given).or_default().push(*c);
            }
            kept
        });
        self.groups[hole].extend(lost.into_values());
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
    /// Whether each hole (applier holes too) is narrowed to its first
    /// candidate alone.
    alone: Vec<bool>,
}

impl Sites {
    pub fn of(sketch: &BlankSketch) -> Sites {
        let program = &sketch.program;
        let mut at = Vec::new();
        let mut alone = Vec::new();
        for (hole, blank) in program.blanks.iter().enumerate() {
            let Some(Body::Normal(body)) = program.defs.get(blank.def).map(|d| &d.body) else {
                alone.push(true);
                continue;
            };
            let site = match blank.kind {
                BlankKind::Statement => Some(blank.span.start),
                _ => own_statement(body, blank.span.start)
                    .filter(|stmt| !calls_first(stmt))
                    .map(|stmt| stmt.span().start),
            };
            alone.push(site.is_none());
            if let Some(start) = site {
                at.push(((blank.def, start), hole));
            }
        }
        alone.extend(sketch.applier_holes().iter().map(|_| true));
        Sites { at, alone }
    }
}

/// The statement of `block` (at any depth) whose own expressions hold the
/// byte `at` (not those of a statement inside it).
fn own_statement(block: &[Stmt], at: usize) -> Option<&Stmt> {
    let stmt = block
        .iter()
        .find(|s| (s.span().start..s.span().end).contains(&at))?;
    let inner = match stmt {
        Stmt::If {
            then, otherwise, ..
        } => own_statement(then, at).or_else(|| own_statement(otherwise, at)),
        Stmt::While { body, .. } => own_statement(body, at),
        _ => None,
    };
    inner.or(Some(stmt))
}

/// Whether `stmt` runs its calls before it evaluates its expressions.
fn calls_first(stmt: &Stmt) -> bool {
    let mut found = Vec::new();
    cnpi::program::calls::calls_in_statement(stmt, false, &mut found);
    !found.is_empty() || matches!(stmt, Stmt::ParamCall(_) | Stmt::Return { .. })
}

/// What candidate `index` of `list` gives on `view` for a hole of kind
/// `kind`.
fn gives(list: &[Candidate], index: u32, view: &View) -> Gives {
    let candidate = &list[index as usize];
    match (candidate.piece.get(), &candidate.effect) {
        (Some(Some(Piece::Condition(c))), _) => Gives::Truth(c.eval(view).ok()),
        (Some(Some(Piece::Expression(e))), _) => Gives::Value(value(e, view)),
        (_, Some(effect)) => {
            let mut args = effect.args.iter().map(|e| value(e, view));
            let first = args.next().unwrap_or(V::Num(0));
            Gives::Effect(effect.shape, first, args.next().unwrap_or(V::Num(0)))
        }
        _ => Gives::Itself(index),
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
    seen: HashSet<(usize, Vec<Option<i64>>)>,
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
    let (sets, groups) = (b.sets.iter())
        .map(|set| (vec![set[0]], vec![set[1..].to_vec()]))
        .unzip();
    Narrowed { sets, groups }
}

/// How a box's first filling did on the examples.
pub(super) struct Decided {
    /// The sets narrowed to the fillings that ran as the first did.
    pub narrowed: Narrowed,
    /// The first example it failed (`None`: it passed them all).
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
        lists: &[&[Candidate]],
        b: &Boxed,
        sites: &Sites,
        budgets: &[u64],
    ) -> Decided {
        let Some(mut narrowed) = self.first_put(work, lists, b, sites) else {
            let texts: Filling = (lists.iter().zip(&b.sets))
                .map(|(list, set)| list[set[0] as usize].text.clone())
                .collect();
            let fails = self.fails(&texts, true).first().copied();
            return Decided {
                narrowed: alone(b),
                fails,
            };
        };
        let fails = (self.examples.iter().zip(budgets)).position(|(example, steps)| {
            let run = self.narrowing(
                work,
                lists,
                &mut narrowed,
                sites,
                example.input.clone(),
                *steps,
            );
            !run.is_ok_and(|outcome| example.matches(&outcome))
        });
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
        let mut narrowed = Narrowed {
            sets: b.sets.iter().map(|set| set.to_vec()).collect(),
            groups: vec![Vec::new(); b.sets.len()],
        };
        for (hole, alone) in sites.alone.iter().enumerate() {
            if *alone {
                narrowed.narrow(hole, Gives::Itself);
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
        lists: &[&[Candidate]],
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
            for &(_, hole) in sites.at.iter().filter(|(site, _)| *site == at) {
                narrowed.narrow(hole, |c| gives(lists[hole], c, &view));
            }
            if loops && tested.again(&self.program, def, depth, stmt, &view) {
                stop.looping.store(true, AtomicOrdering::Relaxed);
            }
            tested.held
        };
        symbolic::run_observed(work, input, options, &mut narrow)
    }
}
