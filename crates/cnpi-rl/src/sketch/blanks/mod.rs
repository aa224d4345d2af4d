//! Holes inside normal programs (issue 30): `while ?:`, `i = ?`,
//! `A[?] = key`, a line `?`, filled from examples.
//!
//! The search goes through fillings of all the holes together in one
//! order, smallest first ([`grow`] says the sizes and the order): the
//! fillings of total size 2, then 3, and so on, each split of the total
//! among the holes in order (the first hole's share smallest first), the
//! last hole's candidates fastest; it runs them by boxes, one run deciding
//! every filling that runs as it does ([`angelic`]). Which engine decides
//! what:
//!
//! - the **reference interpreter** filters: each filling is put into the
//!   checked sketch ([`fill`]: every candidate is checked once, not every
//!   filling) and run with `--symbolic` semantics on every example (at
//!   most [`SEARCH_STEPS`] steps, or `--max-steps` in a second search when
//!   the first finds nothing; an error fails the example); a filling that
//!   passes is written into the sketch's text, compiled through the
//!   normal front end and run again, and the first filling (in the order
//!   above) that passes both ways is the candidate answer;
//! - the **network** decides: the candidate answer goes through the run
//!   plan of `cnpic run` (`cnpi_neural::load::plan_source`: combinatorized,
//!   detectors trained or read from the cache, on the shipped core) and
//!   runs on every example; only a filling that passes there is the answer (one that
//!   does not is counted and the search goes on).
//!
//! Then the search goes on through every filling of the answer's size
//! class (its total size) and of the next (each example with a step
//! budget of ten times the answer's), not a window of them: each other
//! filling that passes every example is run beside the answer on probe
//! inputs drawn from the examples' shapes; the first that ends
//! differently on one is reported with that input (the answer still goes
//! out, with a warning). When the budget runs out before the two classes
//! are done, [`Search::unchecked`] says so.

mod angelic;
pub mod appliers;
pub mod fill;
pub mod grow;
pub mod observed;
mod outcome;
pub mod probe;
mod tell;

use std::collections::HashMap;
use std::ops::Range;
use std::sync::Arc;

use serde_json::Value;

use cnpi::compile::compile;
use cnpi::diagnostic::{Diagnostic, Severity, codes};
use cnpi::env::{self, internal};
use cnpi::exec::limits::Interrupt;
use cnpi::exec::{Limits, Options};
use cnpi::plan::{Engines, RunOptions};
use cnpi::program::{Blank, BlankKind, PosKind, Program};
use cnpi::symbolic;
use cnpi_neural::detector::Cache;
use cnpi_neural::load::{Request, plan_source};
use fill::Candidate;

use super::{Example, splits_among};
use angelic::{Boxed, Lists, Queue, Set, Sites};
use grow::{Grower, MAX_SIZE};
use probe::Probes;
use tell::{Teller, end_of};

/// Whether the holes of `program` use what `observed` grows (its
/// environment has no declared memory).
fn observed_applies(program: &Program) -> bool {
    !env::environment(program.env).has(cnpi::env::Ability::DeclaredMemory)
}

/// The most holes in normal programs filled together.
pub const MAX_BLANKS: usize = 6;
/// After the answer, a filling may take this many times the steps the
/// answer took on an example (and [`SECOND_STEPS`] more) before it fails
/// it: one that never ends stops there, not at `--max-steps`.
const SECOND_FACTOR: u64 = 10;
const SECOND_STEPS: u64 = 1_000;
/// The most steps of one example until the answer, in a first search
/// (a second runs with `--max-steps` when the first finds nothing).
pub const SEARCH_STEPS: u64 = 5_000;
/// The most fillings run after the answer to check it (`--check-runs`'s
/// default): the check of the five-hole partition takes 1,164,609, about
/// 17 s.
pub const CHECK_RUNS: usize = 2_000_000;

/// How many fillings a search may run.
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    /// Runs to find the answer (`--trials` × `--episodes`).
    pub search: usize,
    /// Runs after it, to check that the examples pin it down
    /// (`--check-runs`).
    pub check: usize,
}

/// A sketch whose holes stand in normal programs.
pub struct BlankSketch {
    pub program: Program,
    /// The sketch's text, which every filling is written into.
    pub text: String,
    /// The file's name, for diagnostics of the completed program.
    pub name: String,
    /// The entry definition's name.
    pub entry: String,
    pub examples: Vec<Example>,
    /// The most steps one run of one example may take.
    pub max_steps: u64,
    /// Where the detectors of completed programs are kept.
    pub cache: Cache,
    /// Asked between runs and within them (every
    /// [`cnpi::exec::limits::POLL_EVERY`] steps) whether to stop the
    /// search: Ctrl-C in the Python package.
    pub interrupt: Option<Arc<dyn Interrupt + Send>>,
}

/// A filling: one source text per hole, the holes in normal programs in
/// textual order, then the applier holes in file order.
pub type Filling = Vec<String>;

/// What the search found.
#[derive(Clone, Debug, Default)]
pub struct Search {
    /// The answer: a filling that passes every example on both engines.
    pub found: Option<Filling>,
    /// Without an answer, the filling that passed the most examples
    /// (symbolically) and the indices of those it fails.
    pub best: Option<(Filling, Vec<usize>)>,
    /// Fillings decided, in all: each run of a filling on the examples
    /// decides every filling that runs as it does ([`angelic`]).
    pub candidates: usize,
    /// Fillings run on the examples, in all.
    pub runs: usize,
    /// Fillings decided up to and including the answer.
    pub to_answer: usize,
    /// Fillings run up to and including the answer.
    pub runs_to_answer: usize,
    /// Fillings that passed symbolically but not on the network.
    pub refused_by_network: usize,
    /// A filling that passed symbolically and that the network cannot run
    /// at all (the search stops there), with the network's diagnostic.
    pub unrunnable: Option<(Filling, Diagnostic)>,
    /// Fillings decided after the answer, looking for another that passes
    /// every example and ends differently.
    pub checked: usize,
    /// Fillings run after the answer: on the examples, or beside the
    /// answer on the inputs that may tell them apart.
    pub checked_runs: usize,
    /// Another passing filling, of the answer's size class or the next,
    /// and an input on which the two end differently.
    pub ambiguous: Option<(Filling, Value)>,
    /// Whether every filling the search meant to run was run: up to the
    /// largest size without an answer, the whole of the answer's size
    /// class and the next with one (false: the budget ran out first).
    pub exhausted: bool,
    /// Whether [`BlankSketch::interrupt`] stopped the search.
    pub interrupted: bool,
}

impl Search {
    /// Whether an answer was found but the budget ran out before every
    /// filling of its size class and the next was checked against it.
    pub fn unchecked(&self) -> bool {
        self.found.is_some() && self.ambiguous.is_none() && !self.exhausted
    }
}

/// Where the walk through the fillings is, besides [`Search`].
struct Walk {
    /// The best failure so far: how many examples it passed first.
    best: Option<(usize, Filling)>,
    /// The total size of the answer's filling.
    answer_total: Option<usize>,
    /// The step budget of each example: [`SEARCH_STEPS`] or
    /// `--max-steps` until the answer, then as [`SECOND_FACTOR`] says.
    budgets: Vec<u64>,
    /// The order the examples are run in ([`BlankSketch::smallest_first`]).
    order: Vec<usize>,
    /// The inputs the answer is compared with others on.
    teller: Option<Teller>,
    /// Where each hole is evaluated.
    sites: Sites,
    /// The most fillings run after the answer.
    check: usize,
    seed: u64,
}

impl BlankSketch {
    /// E1402 unless `program` has at most [`MAX_BLANKS`] holes, in normal
    /// programs and applier holes together.
    pub fn check(program: &Program) -> Result<(), Diagnostic> {
        let count = program.blanks.len() + program.holes().count();
        if count <= MAX_BLANKS {
            return Ok(());
        }
        let message = format!(
            "the file has {count} holes; `cnpic learn` fills at most {MAX_BLANKS} together"
        );
        let mut diagnostic = Diagnostic::error(codes::E1402, message)
            .with_help("write the rest yourself, or learn the holes in turns");
        if let Some(blank) = program.blanks.get(MAX_BLANKS) {
            diagnostic = diagnostic.with_label(blank.span, "here");
        }
        Err(diagnostic)
    }

    /// The sketch's text with `filling` written into the holes (each in
    /// parentheses where it stands inside an expression; `cnpic fmt` drops
    /// those it does not need).
    pub fn write(&self, filling: &[String]) -> String {
        let mut parts: Vec<(std::ops::Range<usize>, String)> = (self.program.blanks.iter())
            .zip(filling)
            .map(|(blank, text)| {
                let text = match blank.kind {
                    BlankKind::Statement => text.clone(),
                    _ => format!("({text})"),
                };
                (blank.span.range(), text)
            })
            .collect();
        let appliers = filling.get(self.program.blanks.len()..).unwrap_or_default();
        for ((_, at), text) in self.applier_holes().into_iter().zip(appliers) {
            parts.push((at, text.clone()));
        }
        parts.sort_by_key(|(range, _)| std::cmp::Reverse(range.start));
        let mut text = self.text.clone();
        for (range, part) in parts {
            text.replace_range(range, &part);
        }
        text
    }

    /// The completed program: `filling` written in, after the comment
    /// lines `header`, laid out as `cnpic fmt` lays it out.
    pub fn completed(&self, filling: &[String], header: &str) -> String {
        let text = format!("{header}{}", self.write(filling));
        cnpi::format::format(&text).unwrap_or(text)
    }

    /// The filling compiled, or `None` when it does not check.
    fn compiled(&self, filling: &[String]) -> Option<Program> {
        compile(&self.name, &self.write(filling), Some(&self.entry)).program
    }

    /// The examples `filling` fails with the reference interpreter
    /// (stopping at the first with `first_only`); all for one that does
    /// not check.
    pub fn fails(&self, filling: &[String], first_only: bool) -> Vec<usize> {
        match self.compiled(filling) {
            Some(program) => self.fails_compiled(&program, first_only),
            None => (0..self.examples.len()).collect(),
        }
    }

    /// The examples the compiled filling `program` fails with the
    /// reference interpreter (stopping at the first with `first_only`).
    fn fails_compiled(&self, program: &Program, first_only: bool) -> Vec<usize> {
        let mut fails = Vec::new();
        for (i, example) in self.examples.iter().enumerate() {
            let run = symbolic::run(program, example.input.clone(), self.options());
            if !run.is_ok_and(|outcome| example.matches(&outcome)) {
                fails.push(i);
                if first_only {
                    break;
                }
            }
        }
        fails
    }

    /// The step budget of each example after the answer (compiled):
    /// as [`SECOND_FACTOR`] says, at most `--max-steps`.
    fn second_budgets(&self, answer: &Program) -> Vec<u64> {
        (self.examples.iter())
            .map(|example| {
                let run = symbolic::run(answer, example.input.clone(), self.options()).ok();
                let steps = run.map_or(self.max_steps, |outcome| outcome.steps);
                (steps.saturating_mul(SECOND_FACTOR) + SECOND_STEPS).min(self.max_steps)
            })
            .collect()
    }

    fn options(&self) -> Options<'_> {
        Options {
            max_steps: self.max_steps,
            trace: None,
            limits: Limits {
                interrupt: self.interrupt.as_deref().map(|i| i as &dyn Interrupt),
                ..Limits::default()
            },
        }
    }

    /// Whether the search was asked to stop ([`Self::interrupt`]).
    pub fn interrupted(&self) -> bool {
        self.interrupt.as_ref().is_some_and(|i| i.interrupted())
    }

    /// Whether the completed program passes every example on the network,
    /// through the run plan of `cnpic run` (compiled, combinatorized,
    /// detectors trained or read from the cache, on the shipped core); the
    /// first error that kept it from the network otherwise (the filling
    /// itself compiled: [`Self::fails`] ran it).
    pub fn on_network(&self, filling: &[String]) -> Result<bool, Diagnostic> {
        let text = self.write(filling);
        let request = Request {
            entry: Some(&self.entry),
            cache: self.cache.clone(),
            ..Request::new(Engines::Network)
        };
        let mut refused = None;
        let mut report = |found: &[Diagnostic], _: &_| {
            let error = found.iter().find(|d| d.severity == Severity::Error);
            refused = refused.take().or_else(|| error.cloned());
        };
        let plan = plan_source(&self.name, &text, &request, &mut |_, _| {}, &mut report);
        let Some(plan) = plan else {
            return Err(refused.unwrap_or_else(|| internal("no run plan and no error")));
        };
        for example in &self.examples {
            let input = env::read_value(plan.declarations(), example.json.clone())?;
            let options = self.options();
            let run = plan.run(
                input,
                RunOptions::limited(options.max_steps, options.limits),
            );
            if !run.is_ok_and(|outcome| example.matches(&outcome)) {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// Fills the holes, running at most `budget.search` fillings to find
    /// the answer, and then at most `budget.check` more to check that no
    /// other filling of its size class or the next ends differently: first
    /// with at most [`SEARCH_STEPS`] steps per example, then, when nothing
    /// passes that way, with `--max-steps`.
    pub fn search(&self, budget: Budget, seed: u64) -> Search {
        let short = self.max_steps.min(SEARCH_STEPS);
        let first = self.search_within(budget, seed, short);
        if first.found.is_some()
            || first.unrunnable.is_some()
            || first.interrupted
            || short == self.max_steps
        {
            return first;
        }
        let mut second = self.search_within(budget, seed, self.max_steps);
        second.candidates = second.candidates.saturating_add(first.candidates);
        second.runs += first.runs;
        second.to_answer = second.to_answer.saturating_add(first.candidates);
        second.runs_to_answer += first.runs;
        second
    }

    /// [`Self::search`] with at most `steps` steps per example until the
    /// answer.
    fn search_within(&self, budget: Budget, seed: u64, steps: u64) -> Search {
        let probes = Probes::new(&self.program, &self.examples, seed);
        let stop = self.interrupt.as_deref().map(|i| i as &dyn Interrupt);
        let mut grower = Grower::new(&self.program, &probes).stopped_by(stop);
        let holes = self.holes();
        let shares: Vec<Vec<usize>> = (0..holes).map(|hole| self.shares(hole)).collect();
        let shares: Vec<&[usize]> = shares.iter().map(Vec::as_slice).collect();
        let largest: usize = shares.iter().filter_map(|s| s.last()).sum();
        // The candidates of each hole at each size, checked once.
        let mut lists: HashMap<(usize, usize), Vec<Candidate>> = HashMap::new();
        let mut search = Search {
            exhausted: true,
            ..Search::default()
        };
        let mut state = Walk {
            check: budget.check,
            seed,
            budgets: vec![steps; self.examples.len()],
            order: self.smallest_first(),
            sites: Sites::of(self),
            best: None,
            answer_total: None,
            teller: None,
        };
        let mut queue = Queue::default();
        let mut work = self.program.clone();
        let mut next: usize = shares.iter().filter_map(|s| s.first()).sum();
        loop {
            let last = (state.answer_total).map_or(largest, |t| t + 1);
            while next <= last.min(largest)
                && queue.next_total().is_none_or(|total| total >= next)
                && !self.interrupted()
            {
                for split in splits_among(next, &shares) {
                    for (hole, size) in split.iter().enumerate() {
                        if let std::collections::hash_map::Entry::Vacant(entry) =
                            lists.entry((hole, *size))
                        {
                            entry.insert(self.candidates(&mut grower, hole, *size));
                        }
                    }
                    queue.extend(Boxed::whole(&split, |h, size| lists[&(h, size)].len()));
                }
                next += 1;
            }
            let Some(b) = queue.pop().filter(|b| b.total <= last) else {
                break;
            };
            if self.interrupted() {
                search.interrupted = true;
                search.exhausted = false;
                break;
            }
            let (spent, allowed) = match search.found {
                Some(_) => (search.checked_runs, budget.check),
                None => (search.runs, budget.search),
            };
            if spent >= allowed {
                search.exhausted = false;
                break;
            }
            let chosen: Vec<&[Candidate]> = (b.sizes.iter().enumerate())
                .map(|(hole, size)| lists[&(hole, *size)].as_slice())
                .collect();
            let lists = Lists {
                of: &chosen,
                grower: &grower,
            };
            let decided = self.decide(&mut work, lists, &b, &state, &state.budgets);
            let (inner, rest) = b.split(decided.narrowed);
            for rest in rest {
                queue.push(rest);
            }
            if self.take(
                &mut search,
                &mut state,
                &mut queue,
                lists,
                inner,
                decided.fails,
            ) {
                break;
            }
            if search.found.is_some() && state.answer_total.is_none() {
                state.answer_total = Some(b.total);
            }
        }
        if search.found.is_none() && !search.interrupted {
            search.best = state.best.map(|(_, filling)| {
                let fails = self.fails(&filling, false);
                (filling, fails)
            });
        }
        search
    }

    /// Takes in a box whose fillings all ran as its first (`fails`: the
    /// first example they fail): the answer, other fillings that pass too,
    /// or failures (the best so far is kept); true when the search is over
    /// (an ambiguity shown, or a filling the network cannot run). A box
    /// whose first filling the network refuses goes back to `queue`
    /// without it.
    fn take(
        &self,
        search: &mut Search,
        state: &mut Walk,
        queue: &mut Queue,
        lists: Lists,
        inner: Boxed,
        fails: Option<usize>,
    ) -> bool {
        let count = inner.count();
        search.runs += 1;
        search.candidates = search.candidates.saturating_add(count);
        if search.found.is_some() {
            search.checked_runs += 1;
            search.checked = search.checked.saturating_add(count);
        }
        if search.found.is_none() {
            let Some(failed) = fails else {
                let first = self.texts(lists.of, inner.first());
                // The answer is compiled from its text once, here. One that
                // the front end refuses (a local read before it is set,
                // which a run of the checked sketch does not see) or that
                // fails that way is dropped alone: the rest of its box
                // goes back to the queue.
                let program = self.compiled(&first);
                let Some(program) = program.filter(|p| self.fails_compiled(p, true).is_empty())
                else {
                    queue.extend_all(inner.without(&one(&inner.first())));
                    return false;
                };
                match self.on_network(&first) {
                    Ok(true) => {
                        state.budgets = self.second_budgets(&program);
                        queue.restart();
                        search.runs_to_answer = search.runs;
                        search.to_answer = search.candidates - count + 1;
                        search.found = Some(first.clone());
                        state.teller = Some(self.teller(&program, state.seed));
                        let others = inner.without(&one(&inner.first()));
                        return others.iter().any(|b| self.another(search, state, lists, b));
                    }
                    Ok(false) => {
                        search.refused_by_network += 1;
                        queue.extend_all(inner.without(&one(&inner.first())));
                    }
                    Err(diagnostic) => {
                        search.unrunnable = Some((first, diagnostic));
                        return true;
                    }
                }
                return false;
            };
            if state
                .best
                .as_ref()
                .is_none_or(|(passed, _)| failed > *passed)
            {
                state.best = Some((failed, self.texts(lists.of, inner.first())));
            }
            return false;
        }
        fails.is_none() && self.another(search, state, lists, &inner)
    }

    fn kind(&self, hole: usize) -> BlankKind {
        self.program.blanks[hole].kind
    }

    /// The filling taking candidate `picks[h]` of each `lists[h]`, printed
    /// (for the answer and the messages only): a statement hole's second
    /// statement on a line of its own after its first, as indented.
    pub(super) fn texts(
        &self,
        lists: &[&[Candidate]],
        picks: impl IntoIterator<Item = u32>,
    ) -> Filling {
        let mut texts: Filling = (lists.iter().zip(picks))
            .map(|(list, c)| list[c as usize].text(&self.program))
            .collect();
        let seconds = texts.split_off(self.program.blanks.len() + self.applier_holes().len());
        for ((_, blank), second) in self.seconds().zip(seconds) {
            if !second.is_empty() {
                let line = self.text[..blank.span.start]
                    .rfind('\n')
                    .map_or(0, |k| k + 1);
                let indent = &self.text[line..blank.span.start];
                texts[blank_index(&self.program, blank)] += &format!("\n{indent}{second}");
            }
        }
        texts
    }

    /// The holes of the search: those in normal programs, the applier
    /// holes, then a second statement of each statement hole
    /// ([`Self::seconds`]).
    pub(super) fn holes(&self) -> usize {
        self.program.blanks.len() + self.applier_holes().len() + self.seconds().count()
    }

    /// The search's holes that are a statement hole's second statement
    /// (after the others, in the order of their statement holes), each
    /// with its statement hole: a statement hole is filled by one
    /// statement or two, searched as two holes of which the second may be
    /// empty.
    pub(super) fn seconds(&self) -> impl Iterator<Item = (usize, &Blank)> {
        let first = self.program.blanks.len() + self.applier_holes().len();
        (self.program.blanks.iter())
            .filter(|blank| blank.kind == BlankKind::Statement)
            .enumerate()
            .map(move |(k, blank)| (first + k, blank))
    }

    /// The sizes hole `hole` of the search may take, ascending: 1 to
    /// [`MAX_SIZE`]; for a second statement 0 (none, so that one statement
    /// comes before two of the same sizes) or one more than the size of
    /// the statement (2 to [`MAX_SIZE`] + 1).
    fn shares(&self, hole: usize) -> Vec<usize> {
        match self.second_of(hole) {
            Some(_) => std::iter::once(0).chain(2..=MAX_SIZE + 1).collect(),
            None => (1..=MAX_SIZE).collect(),
        }
    }

    /// The statement hole whose second statement hole `hole` of the search
    /// is.
    fn second_of(&self, hole: usize) -> Option<&Blank> {
        self.seconds().find(|(h, _)| *h == hole).map(|(_, b)| b)
    }

    /// The applier holes (`def X: ?`), in file order: each definition and
    /// where its `?` is written.
    pub fn applier_holes(&self) -> Vec<(usize, Range<usize>)> {
        (self.program.holes())
            .map(|(def, hole)| (def, hole.span.range()))
            .collect()
    }

    /// The candidates of hole `hole` (the holes in normal programs first,
    /// then the applier holes) at `size`.
    fn candidates(&self, grower: &mut Grower, hole: usize, size: usize) -> Vec<Candidate> {
        if let Some(blank) = self.second_of(hole) {
            return match size {
                0 => vec![Candidate::Empty],
                _ => grower.candidates(BlankKind::Statement, size - 1, blank.def),
            };
        }
        match hole.checked_sub(self.program.blanks.len()) {
            None => grower.candidates(self.kind(hole), size, self.program.blanks[hole].def),
            Some(a) => match self.program.holes().nth(a) {
                Some((def, applier)) => appliers::candidates(&self.program, def, applier, size),
                None => Vec::new(),
            },
        }
    }

    /// Puts the pieces of `chosen` (one candidate per hole) into `work`, a
    /// copy of the checked sketch; false when a statement cannot be built
    /// or has no place (the filling is then compiled from its text).
    fn put_all(&self, work: &mut Program, chosen: &[&Candidate]) -> bool {
        // Each definition holding holes once (its body was cloned once per
        // hole: five times a run on the five-hole partition).
        for (k, blank) in self.program.blanks.iter().enumerate() {
            if self.program.blanks[..k].iter().all(|b| b.def != blank.def) {
                work.defs[blank.def].body = self.program.defs[blank.def].body.clone();
            }
        }
        let put =
            (chosen.iter().take(self.program.blanks.len()).enumerate()).all(|(hole, candidate)| {
                (candidate.piece(&self.program)).is_some_and(|piece| fill::put(work, hole, &piece))
            });
        let appliers = self.applier_holes();
        let applier_chosen = chosen.get(self.program.blanks.len()..).unwrap_or_default();
        let seconds = applier_chosen.get(appliers.len()..).unwrap_or_default();
        let put = put
            && (self.seconds().zip(seconds)).all(|((_, blank), candidate)| {
                match candidate.piece(&self.program) {
                    Some(fill::Piece::Statement(stmt)) => {
                        fill::put_after(work, blank_index(&self.program, blank), &stmt)
                    }
                    _ => matches!(candidate, Candidate::Empty),
                }
            });
        put && (appliers.into_iter().zip(applier_chosen)).all(|((def, _), candidate)| {
            (candidate.piece(&self.program)).is_some_and(|piece| appliers::put(work, def, &piece))
        })
    }

    /// Compares each filling of `b` (all pass every example) with the
    /// answer on the teller's inputs, by boxes as the examples are run
    /// ([`angelic`]): a box whose first filling ends as the answer on an
    /// input goes on to the next input narrowed to the fillings that ran
    /// as it did, the rest of it stays at that input; true (and
    /// `ambiguous` set) at the first filling that ends differently.
    fn another(&self, search: &mut Search, state: &mut Walk, lists: Lists, b: &Boxed) -> bool {
        let Some(teller) = &state.teller else {
            return false;
        };
        let mut work = self.program.clone();
        let mut waiting = vec![(b.clone(), 0usize)];
        while let Some((b, k)) = waiting.pop() {
            let Some((json, input, end)) = teller.inputs.get(k) else {
                continue;
            };
            if search.checked_runs >= state.check || self.interrupted() {
                search.interrupted = self.interrupted();
                search.exhausted = false;
                return true;
            }
            search.checked_runs += 1;
            let Some(mut narrowed) = self.first_put(&mut work, lists.of, &b, &state.sites) else {
                let texts = self.texts(lists.of, b.first());
                if let Some(input) = self.compiled(&texts).and_then(|p| teller.differs(self, &p)) {
                    search.ambiguous = Some((texts, input));
                    return true;
                }
                let (_, rest) = b.split(angelic::alone(&b));
                waiting.extend(rest.into_iter().map(|b| (b, k)));
                continue;
            };
            let run = self.narrowing(
                &work,
                lists,
                &mut narrowed,
                &state.sites,
                input.clone(),
                self.max_steps,
            );
            if self.interrupted() {
                search.interrupted = true;
                search.exhausted = false;
                return true;
            }
            if end_of(run, &teller.members) != *end {
                let texts = self.texts(lists.of, b.first());
                if self.compiled(&texts).is_some() {
                    search.ambiguous = Some((texts, json.clone()));
                    return true;
                }
                // The front end refuses it (a local read before it is
                // set): dropped alone, the rest of the box stays here.
                waiting.extend(b.without(&one(&b.first())).into_iter().map(|b| (b, k)));
                continue;
            }
            let (inner, rest) = b.split(narrowed);
            waiting.extend(rest.into_iter().map(|b| (b, k)));
            waiting.push((inner, k + 1));
        }
        false
    }

    /// The smallest value of each size datum (`n` of `input A[n]`) in the
    /// examples: an array never shorter than k in the examples is not
    /// drawn shorter (a sketch written for `n >= 1` is not told apart on
    /// the empty array).
    fn least_sizes(&self) -> HashMap<usize, usize> {
        let mut least = HashMap::new();
        for data in &self.program.data {
            let [dim] = data.dims.as_slice() else {
                continue;
            };
            let PosKind::Read(cell) = &dim.kind else {
                continue;
            };
            let lengths = (self.examples.iter())
                .filter_map(|e| e.json.get(&data.name).and_then(Value::as_array))
                .map(Vec::len);
            if let Some(shortest) = lengths.min() {
                least.insert(cell.data, shortest);
            }
        }
        least
    }

    /// The examples' indices, the smallest input first (the fewest
    /// integers and digits; ties in file order): a box is narrowed at
    /// every hole evaluation of the examples it runs, so one that fails a
    /// short example is split into far fewer boxes than one that fails a
    /// long one (on `min_max`, an example of seven elements added first
    /// instead of last kept the answer out of 200,000 runs).
    fn smallest_first(&self) -> Vec<usize> {
        fn weight(v: &Value) -> usize {
            match v {
                Value::Array(items) => items.iter().map(weight).sum(),
                Value::Object(members) => members.values().map(weight).sum(),
                Value::String(text) => text.len(),
                _ => 1,
            }
        }
        let mut order: Vec<usize> = (0..self.examples.len()).collect();
        order.sort_by_key(|&i| weight(&self.examples[i].json));
        order
    }
}

/// The index of `blank` in `program`'s blanks.
fn blank_index(program: &Program, blank: &Blank) -> usize {
    (program.blanks.iter())
        .position(|b| std::ptr::eq(b, blank))
        .unwrap_or_default()
}

/// The box of the one filling `picks`.
fn one(picks: &[u32]) -> Vec<Set> {
    picks.iter().map(|c| Set::from([*c])).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sketch::splits;
    use cnpi::env::Declarations;

    /// The `n`-th filling taking one candidate from each list, the last
    /// list fastest.
    fn nth<'c>(lists: &[&'c [Candidate]], mut n: usize) -> Vec<&'c Candidate> {
        let mut filling = Vec::with_capacity(lists.len());
        for list in lists.iter().rev() {
            filling.push(&list[n % list.len()]);
            n /= list.len();
        }
        filling.reverse();
        filling
    }

    /// The `n`-th filling's source texts.
    fn texts(sketch: &BlankSketch, lists: &[&[Candidate]], n: usize) -> Filling {
        (nth(lists, n).into_iter())
            .map(|c| c.text(&sketch.program))
            .collect()
    }

    #[test]
    fn splits_give_every_hole_one_to_max_size() {
        assert_eq!(splits(1, 1, 1..=MAX_SIZE), vec![vec![1]]);
        assert_eq!(splits(3, 2, 1..=MAX_SIZE), vec![vec![1, 2], vec![2, 1]]);
        assert!(splits(1, 2, 1..=MAX_SIZE).is_empty());
        assert_eq!(
            splits(2 * MAX_SIZE, 2, 1..=MAX_SIZE),
            vec![vec![MAX_SIZE, MAX_SIZE]]
        );
    }

    #[test]
    fn a_second_statement_comes_after_one_statement_of_the_same_sizes() {
        let (one, second): (Vec<usize>, Vec<usize>) = (
            (1..=MAX_SIZE).collect(),
            std::iter::once(0).chain(2..=MAX_SIZE + 1).collect(),
        );
        let shares = [one.as_slice(), second.as_slice()];
        assert_eq!(splits_among(1, &shares), vec![vec![1, 0]]);
        assert_eq!(splits_among(2, &shares), vec![vec![2, 0]]);
        assert_eq!(splits_among(3, &shares), vec![vec![1, 2], vec![3, 0]]);
    }

    /// Whether each example passes, the filling's pieces put into the
    /// checked sketch (`None`: a piece has no place).
    fn passes_put(sketch: &BlankSketch, chosen: &[&Candidate]) -> Option<Vec<bool>> {
        let mut work = sketch.program.clone();
        if !sketch.put_all(&mut work, chosen) {
            return None;
        }
        let passes = (sketch.examples.iter())
            .map(|e| {
                symbolic::run(&work, e.input.clone(), sketch.options())
                    .is_ok_and(|outcome| e.matches(&outcome))
            })
            .collect();
        Some(passes)
    }

    /// For about 100 fillings spread over each product of candidate lists
    /// of `sizes`, whether each example passes is the same with the
    /// filling's values put into the checked sketch and with it printed
    /// into the sketch's text and compiled by the front end.
    fn put_agrees_with_written(text: &str, examples: &str, sizes: &[&[usize]]) {
        let sketch = sketch_of(text, examples);
        let probes = Probes::new(&sketch.program, &sketch.examples, 1);
        let mut grower = Grower::new(&sketch.program, &probes);
        let (mut compared, mut passed) = (0, 0);
        for sizes in sizes {
            let lists: Vec<Vec<Candidate>> = (sizes.iter().enumerate())
                .map(|(hole, size)| {
                    let def = sketch.program.blanks[hole].def;
                    grower.candidates(sketch.kind(hole), *size, def)
                })
                .collect();
            let lists: Vec<&[Candidate]> = lists.iter().map(Vec::as_slice).collect();
            let count: usize = lists.iter().map(|l| l.len()).product();
            for n in (0..count).step_by((count / 100).max(1)) {
                let chosen = nth(&lists, n);
                let put = passes_put(&sketch, &chosen).expect("every piece has its place");
                let fails = sketch.fails(&texts(&sketch, &lists, n), false);
                let written: Vec<bool> = (0..sketch.examples.len())
                    .map(|i| !fails.contains(&i))
                    .collect();
                assert_eq!(put, written, "filling {:?}", texts(&sketch, &lists, n));
                compared += 1;
                passed += put.iter().filter(|p| **p).count();
            }
        }
        assert!(
            compared >= 100 * sizes.len(),
            "{compared} fillings compared"
        );
        assert!(passed > 0, "some examples pass");
    }

    /// The sketch `text` with the examples `examples`, checked.
    fn sketch_of(text: &str, examples: &str) -> BlankSketch {
        let program = compile("s.cnpi", text, None).program.expect("checks");
        let layout = Declarations::of(&program);
        let examples = crate::sketch::examples::read("ex.json", examples, &layout).expect("reads");
        BlankSketch {
            entry: program.defs[program.entry].name.clone(),
            name: "s.cnpi".into(),
            text: text.into(),
            program,
            examples,
            max_steps: 2_000,
            cache: Cache::none(),
            interrupt: None,
        }
    }

    /// Every filling of a box decided by one run (narrowed where each hole
    /// is evaluated, its run started at the example where it was lost)
    /// fails first the example its first filling failed first, or passes
    /// them all as it did: checked on 400 boxes of a sketch whose `for`
    /// loop's start and end are holes (a start was once weighed after the
    /// first candidate had set the loop's variable), each filling run on
    /// every example from the first.
    #[test]
    fn every_filling_of_a_decided_box_runs_as_its_first() {
        let text = "env ram()\ninput A[n]\nvar total = 0\n\ndef PREFIX_SUMS():\n  \
                    for i = ? to ?:\n    total = ?\n    A[i] = ?\n";
        let sums = r#"[
            {"input": {"A": [1, 2]}, "output": {"A": [1, 3], "total": 3}},
            {"input": {"A": [3]}, "output": {"A": [3], "total": 3}},
            {"input": {"A": []}, "output": {"A": [], "total": 0}},
            {"input": {"A": [2, -1, 4]}, "output": {"A": [2, 1, 5], "total": 5}}
        ]"#;
        let (boxes, started_later) = decided_boxes_run_as_their_first(text, sums, &[1, 2, 1, 1]);
        assert_eq!(boxes, 400);
        assert!(started_later > 50, "{started_later} boxes started later");
    }

    /// The same for a statement hole whose examples do not ask for the
    /// output tape: every `OUT(e)` is weighed as one effect there, whatever
    /// `e` gives, and still runs as the box's first filling does.
    #[test]
    fn every_out_of_a_decided_box_runs_as_its_first_when_the_tape_is_not_asked() {
        let text = "env ram(i = 0)\ninput A[n]\nvar count = 0\n\ndef COUNT():\n  \
                    while i < n:\n    if ?:\n      ?\n    i = i + 1\n";
        let counts = r#"[
            {"input": {"A": [3, -1, 2]}, "output": {"count": 2}},
            {"input": {"A": [0, 5]}, "output": {"count": 1}},
            {"input": {"A": [1, 1, -4, 2]}, "output": {"count": 3}}
        ]"#;
        for sizes in [[1, 1, 0], [2, 1, 0]] {
            let (boxes, _) = decided_boxes_run_as_their_first(text, counts, &sizes);
            assert!(boxes > 100, "{boxes} boxes");
        }
    }

    /// Decides up to 400 boxes of `text`'s holes at `sizes` on `examples`
    /// and runs up to 12 fillings of each alone (more than the boxes in
    /// all): each fails first where its box's first filling did. How many
    /// boxes were decided, and how many of them started at a later
    /// example.
    fn decided_boxes_run_as_their_first(
        text: &str,
        examples: &str,
        sizes: &[usize],
    ) -> (usize, usize) {
        let sketch = sketch_of(text, examples);
        let probes = Probes::new(&sketch.program, &sketch.examples, 1);
        let mut grower = Grower::new(&sketch.program, &probes);
        let lists: Vec<Vec<Candidate>> = (sizes.iter().enumerate())
            .map(|(hole, size)| sketch.candidates(&mut grower, hole, *size))
            .collect();
        let of: Vec<&[Candidate]> = lists.iter().map(Vec::as_slice).collect();
        let lists = Lists {
            of: &of,
            grower: &grower,
        };
        let walk = Walk {
            check: 0,
            seed: 1,
            budgets: vec![SEARCH_STEPS; sketch.examples.len()],
            order: sketch.smallest_first(),
            sites: Sites::of(&sketch),
            best: None,
            answer_total: None,
            teller: None,
        };
        let mut queue = Queue::default();
        queue.extend(Boxed::whole(sizes, |h, _| of[h].len()));
        let mut work = sketch.program.clone();
        let (mut boxes, mut fillings, mut started_later) = (0, 0, 0);
        while let Some(b) = queue.pop().filter(|_| boxes < 400) {
            boxes += 1;
            started_later += usize::from(b.start.example > 0);
            let decided = sketch.decide(&mut work, lists, &b, &walk, &walk.budgets);
            let (inner, rest) = b.split(decided.narrowed);
            rest.into_iter().for_each(|b| queue.push(b));
            let picks = inner
                .sets
                .iter()
                .map(|s| s.len())
                .product::<usize>()
                .min(12);
            for n in 0..picks {
                let mut k = n;
                let chosen: Vec<&Candidate> = (inner.sets.iter().zip(&of))
                    .map(|(set, list)| {
                        let c = &list[set[k % set.len()] as usize];
                        k /= set.len();
                        c
                    })
                    .collect();
                let passes = passes_put(&sketch, &chosen).expect("every piece has its place");
                let first_failed = walk.order.iter().position(|&i| !passes[i]);
                assert_eq!(
                    first_failed,
                    decided.fails,
                    "box {:?} filling {n}",
                    inner.first()
                );
                fillings += 1;
            }
        }
        assert!(fillings > boxes, "{fillings} fillings");
        (boxes, started_later)
    }

    /// Every statement of `block` starting at the byte `start`, a
    /// statement before those inside it.
    fn all_at(block: &[cnpi::program::Stmt], start: usize) -> Vec<&cnpi::program::Stmt> {
        use cnpi::program::Stmt;
        let mut found = Vec::new();
        for stmt in block {
            if stmt.span().start == start {
                found.push(stmt);
            }
            match stmt {
                Stmt::If {
                    then, otherwise, ..
                } => found.extend(
                    all_at(then, start)
                        .into_iter()
                        .chain(all_at(otherwise, start)),
                ),
                Stmt::While { body, .. } => found.extend(all_at(body, start)),
                _ => {}
            }
        }
        found
    }

    /// A `for` loop's start and step are both written at its variable:
    /// the start is weighed where the variable is set, and not where it
    /// is stepped, even when its candidate is written as the step is
    /// (`i + 1`).
    #[test]
    fn a_for_loop_start_written_as_its_step_is_weighed_where_it_is_set() {
        let text = "env ram()\ninput A[n]\nvar total = 0\n\ndef F():\n  \
                    for i = ? to n - 1:\n    total = total + A[i]\n";
        let sums = r#"[{"input": {"A": [1, 2]}, "output": {"total": 2}}]"#;
        let sketch = sketch_of(text, sums);
        let probes = Probes::new(&sketch.program, &sketch.examples, 1);
        let mut grower = Grower::new(&sketch.program, &probes);
        let list = grower.candidates(sketch.kind(0), 2, sketch.program.blanks[0].def);
        let step = (list.iter())
            .find(|c| c.text(&sketch.program) == "i + 1")
            .expect("`i + 1` is a candidate");
        let mut work = sketch.program.clone();
        assert!(sketch.put_all(&mut work, &[step]));
        let sites = Sites::of(&sketch);
        let starts = sites.starts(&work);
        let cnpi::program::Body::Normal(body) = &work.defs[sketch.program.blanks[0].def].body
        else {
            panic!("a normal program");
        };
        let at = text.find("i = ?").expect("the variable");
        let [set, stepped] = all_at(body, at)[..] else {
            panic!("the start and the step are written at the variable");
        };
        assert!(angelic::weighs(&starts, 0, set));
        assert!(!angelic::weighs(&starts, 0, stepped));
    }

    #[test]
    fn a_filling_of_values_runs_as_its_text_compiled() {
        let ram = "env ram(i = 0)\ninput A[n]\nvar count = 0\n\ndef COUNT():\n  \
                   while ?:\n    if A[i] > ?:\n      ?\n    i = i + 1\n";
        let counts = r#"[
            {"input": {"A": [3, -1, 2]}, "output": {"count": 2}},
            {"input": {"A": [0, 5]}, "output": {"count": 1}},
            {"input": {"A": []}, "output": {"count": 0}}
        ]"#;
        put_agrees_with_written(ram, counts, &[&[1, 1, 1], &[2, 1, 1], &[1, 2, 2]]);
        let array = "env array(P1 = 0, P2 = 1)\n\ndef STEP():\n  while ?:\n    \
                     if ?:\n      ?\n    MOVE(P1, RIGHT)\n    MOVE(P2, RIGHT)\n";
        let steps = r#"[
            {"input": [2, 1, 3], "output": {"A": [1, 2, 3]}},
            {"input": [1, 2], "output": {"A": [1, 2]}},
            {"input": [], "output": {"A": []}}
        ]"#;
        put_agrees_with_written(array, steps, &[&[1, 1, 1], &[1, 2, 1]]);
        let graph = "env graph(v = 0)\nstate(v)\n\ndef DFS():\n  if ?:\n    \
                     COLOR(v, GREY)\n    ?\n    while has_child(v):\n      \
                     DFS(child(v))\n      NEXT_CHILD(v)\n";
        let visits = r#"[
            {"input": {"graph": [[1, 2], [2], [0]]}, "output": {"output": [0, 1, 2]}},
            {"input": {"graph": [[]]}, "output": {"output": [0]}}
        ]"#;
        put_agrees_with_written(graph, visits, &[&[1, 1], &[2, 1]]);
        let addition = "env addition(i = LAST)\n\ndef ADD():\n  while i != END:\n    \
                        WRITE_SUM(i)\n    if ?:\n      CARRY(i)\n    MOVE(i, LEFT)\n";
        let sums = r#"[
            {"input": {"a": "5", "b": "7"}, "output": {"sum": "12"}},
            {"input": {"a": "12", "b": "34"}, "output": {"sum": "46"}}
        ]"#;
        put_agrees_with_written(addition, sums, &[&[1], &[2]]);
    }
}
