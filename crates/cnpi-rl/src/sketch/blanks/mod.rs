//! Holes inside normal programs (issue 30): `while ?:`, `i = ?`,
//! `A[?] = key`, a line `?`, filled from examples.
//!
//! The search enumerates fillings of all the holes together, smallest
//! first ([`grow`] says the sizes and the order): the fillings of total
//! size 2, then 3, and so on, each split of the total among the holes in
//! order (the first hole's share smallest first), the last hole's
//! candidates fastest. Which engine decides what:
//!
//! - the **reference interpreter** filters: each filling is written into
//!   the sketch's text, compiled through the normal front end, and run
//!   with `--symbolic` semantics on every example (a step budget; an error
//!   fails the example), in batches on threads; the first filling (in the
//!   order above) that gives every example's output is the candidate
//!   answer;
//! - the **network** decides: the candidate answer is compiled for the
//!   network as `cnpic run` compiles it (combinatorized, detectors trained
//!   or read from the cache, on the shipped core) and run on every
//!   example; only a filling that passes there is the answer (one that
//!   does not is counted and the search goes on).
//!
//! Then the search goes on for a second passing filling; when one exists
//! and some random input (of the shapes the program declares) makes the
//! two end differently, the examples do not pin the answer down, and the
//! report says so with that input.

pub mod grow;
pub mod probe;

use std::collections::HashMap;

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{Map, Value};

use cnpi::compile::{Compiled, compile, for_the_network};
use cnpi::diagnostic::{Diagnostic, codes};
use cnpi::env::{self, Declarations, State};
use cnpi::exec::{Options, Outcome};
use cnpi::program::{BlankKind, DataKind, PosKind, Program};
use cnpi::symbolic;
use cnpi_neural::core::Core;
use cnpi_neural::load::build_memory;
use cnpi_neural::memory::DEFAULT_SEED;
use cnpi_neural::runtime;

use super::Example;
use grow::{Grower, MAX_SIZE};
use probe::Probes;

/// The most holes in normal programs filled together.
pub const MAX_BLANKS: usize = 3;
/// Fillings tried after the answer, looking for a second one.
const SECOND_BUDGET: usize = 2_000;
/// Random inputs tried to tell two fillings apart.
const TELL_APART: usize = 500;
/// Fillings run together on the threads.
const BATCH: usize = 256;

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
    /// Threads that run fillings (at least one).
    pub threads: usize,
}

/// A filling: one source text per hole, in textual order.
pub type Filling = Vec<String>;

/// What the search found.
#[derive(Clone, Debug, Default)]
pub struct Search {
    /// The answer: a filling that passes every example on both engines.
    pub found: Option<Filling>,
    /// Without an answer, the filling that passed the most examples
    /// (symbolically) and the indices of those it fails.
    pub best: Option<(Filling, Vec<usize>)>,
    /// Fillings run (on at least one example), in all.
    pub candidates: usize,
    /// Fillings run up to and including the answer.
    pub to_answer: usize,
    /// Fillings that passed symbolically but not on the network.
    pub refused_by_network: usize,
    /// A filling that passed symbolically and that the network cannot run
    /// at all (the search stops there), with the network's diagnostic.
    pub unrunnable: Option<(Filling, Diagnostic)>,
    /// A second passing filling and an input on which the two differ.
    pub ambiguous: Option<(Filling, Value)>,
    /// Whether every filling up to the largest size was tried.
    pub exhausted: bool,
}

impl BlankSketch {
    /// E1402 unless `program` has between one and [`MAX_BLANKS`] holes in
    /// normal programs of a `ram` file.
    pub fn check(program: &Program) -> Result<(), Diagnostic> {
        let count = program.blanks.len();
        let message = if program.env.name() != "ram" {
            format!(
                "holes inside normal programs are learned in `ram` programs; this one is `{}`",
                program.env.name()
            )
        } else if count > MAX_BLANKS {
            format!("the file has {count} holes; `cnpic learn` fills at most {MAX_BLANKS} together")
        } else {
            return Ok(());
        };
        let mut diagnostic = Diagnostic::error(codes::E1402, message)
            .with_help("write the rest yourself, or learn the holes in turns");
        if let Some(blank) = program.blanks.get(MAX_BLANKS.min(count.saturating_sub(1))) {
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
        let Some(program) = self.compiled(filling) else {
            return (0..self.examples.len()).collect();
        };
        let mut fails = Vec::new();
        for (i, example) in self.examples.iter().enumerate() {
            let run = symbolic::run(&program, example.input.clone(), self.options());
            if !run.is_ok_and(|outcome| example.matches(&outcome)) {
                fails.push(i);
                if first_only {
                    break;
                }
            }
        }
        fails
    }

    fn options(&self) -> Options<'static> {
        Options {
            max_steps: self.max_steps,
            trace: None,
        }
    }

    /// Whether the completed program passes every example on the network,
    /// compiled as `cnpic run` compiles it; the error that stopped it from
    /// running otherwise.
    pub fn on_network(&self, filling: &[String]) -> Result<bool, Diagnostic> {
        let text = self.write(filling);
        let compilation = compile(&self.name, &text, Some(&self.entry));
        let Some(program) = compilation.program else {
            return Ok(false);
        };
        let compiled = Compiled {
            program,
            sources: compilation.sources,
            text,
        };
        let ready = for_the_network(compiled, &self.name).map_err(|(mut d, _)| d.remove(0))?;
        let memory = build_memory(&ready, &self.name, DEFAULT_SEED, &mut |_, _| {})?;
        let core = Core::shipped()?;
        let combinatory = &ready.combinatory.program;
        let layout = Declarations::of(combinatory);
        let entry = memory.units[0].entry;
        for example in &self.examples {
            let input = env::read_value(combinatory.env, &layout, example.json.clone())?;
            let run = runtime::run(core, &memory, 0, entry, input, self.options(), true);
            if !run.is_ok_and(|outcome| example.matches(&outcome)) {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// Fills the holes, trying at most `budget` fillings.
    pub fn search(&self, budget: usize, seed: u64) -> Search {
        let probes = Probes::new(&self.program, &self.examples, seed);
        let mut grower = Grower::new(&self.program, &probes);
        let kinds: Vec<BlankKind> = self.program.blanks.iter().map(|b| b.kind).collect();
        let mut lists: HashMap<(BlankKind, usize), Vec<String>> = HashMap::new();
        let mut search = Search {
            exhausted: true,
            ..Search::default()
        };
        // The best failure so far: how many examples it passed first.
        let mut best: Option<(usize, Filling)> = None;
        let mut after_answer = 0;
        let holes = kinds.len();
        'sizes: for total in holes..=holes * MAX_SIZE {
            for split in splits(total, holes) {
                for (kind, size) in kinds.iter().zip(&split) {
                    lists
                        .entry((*kind, *size))
                        .or_insert_with(|| grower.candidates(*kind, *size));
                }
                let chosen: Vec<&Vec<String>> = (kinds.iter().zip(&split))
                    .map(|(kind, size)| &lists[&(*kind, *size)])
                    .collect();
                let count: usize = chosen.iter().map(|l| l.len()).product();
                let mut start = 0;
                while start < count {
                    let limit = match search.found {
                        Some(_) => SECOND_BUDGET.saturating_sub(after_answer),
                        None => budget.saturating_sub(search.candidates),
                    };
                    if limit == 0 {
                        search.exhausted = false;
                        break 'sizes;
                    }
                    let end = count.min(start + BATCH.min(limit));
                    let batch: Vec<Filling> = (start..end).map(|n| nth(&chosen, n)).collect();
                    start = end;
                    let results = self.run_batch(&batch);
                    for (filling, fails) in batch.into_iter().zip(results) {
                        search.candidates += 1;
                        if search.found.is_some() {
                            after_answer += 1;
                        }
                        match fails.first() {
                            None => {
                                if let Some(answer) = &search.found {
                                    if let Some(input) = self.tell_apart(answer, &filling, seed) {
                                        search.ambiguous = Some((filling, input));
                                        break 'sizes;
                                    }
                                } else {
                                    match self.on_network(&filling) {
                                        Ok(true) => {
                                            search.found = Some(filling);
                                            search.to_answer = search.candidates;
                                        }
                                        Ok(false) => search.refused_by_network += 1,
                                        Err(diagnostic) => {
                                            search.unrunnable = Some((filling, diagnostic));
                                            break 'sizes;
                                        }
                                    }
                                }
                            }
                            Some(&first) => {
                                if best.as_ref().is_none_or(|(passed, _)| first > *passed) {
                                    best = Some((first, filling));
                                }
                            }
                        }
                    }
                }
            }
        }
        if search.found.is_none() {
            search.best = best.map(|(_, filling)| {
                let fails = self.fails(&filling, false);
                (filling, fails)
            });
        }
        search
    }

    /// The first failing example of each filling (empty: it passes), run
    /// on the threads.
    fn run_batch(&self, batch: &[Filling]) -> Vec<Vec<usize>> {
        let threads = self.threads.max(1).min(batch.len().max(1));
        let chunk = batch.len().div_ceil(threads).max(1);
        std::thread::scope(|scope| {
            let handles: Vec<_> = batch
                .chunks(chunk)
                .map(|part| {
                    scope.spawn(move || {
                        part.iter()
                            .map(|filling| self.fails(filling, true))
                            .collect::<Vec<_>>()
                    })
                })
                .collect();
            handles
                .into_iter()
                .flat_map(|h| h.join().unwrap_or_default())
                .collect()
        })
    }

    /// The members some example asks for, in order of first mention.
    fn members(&self) -> Vec<String> {
        let mut members: Vec<String> = Vec::new();
        for example in &self.examples {
            for member in example.output.keys() {
                if !members.contains(member) {
                    members.push(member.clone());
                }
            }
        }
        members
    }

    /// An input, of the shapes the program declares, on which `a` and `b`
    /// end differently in a member the examples ask for (as the reference
    /// interpreter runs them).
    pub fn tell_apart(&self, a: &[String], b: &[String], seed: u64) -> Option<Value> {
        let (a, b) = (self.compiled(a)?, self.compiled(b)?);
        let layout = Declarations::of(&self.program);
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        // An array sorted in every example is drawn sorted.
        let sorted: Vec<&str> = (self.program.data.iter())
            .filter(|d| d.kind == DataKind::Input && d.dims.len() == 1)
            .map(|d| d.name.as_str())
            .filter(|name| {
                (self.examples.iter()).all(|e| {
                    let numbers = e.json.get(*name).and_then(Value::as_array);
                    numbers.is_some_and(|a| a.windows(2).all(|w| w[0].as_i64() <= w[1].as_i64()))
                })
            })
            .collect();
        for _ in 0..TELL_APART {
            let json = random_input(&self.program, &sorted, &mut rng);
            let Ok(state) = env::read_value(self.program.env, &layout, json.clone()) else {
                continue;
            };
            let members = self.members();
            let end = |program| ends(program, &state, self.options(), &members);
            if end(&a) != end(&b) {
                return Some(json);
            }
        }
        None
    }
}

/// How a run ends: the values of `members`, or its error's code.
fn ends(
    program: &Program,
    state: &State,
    options: Options,
    members: &[String],
) -> Result<Vec<Value>, String> {
    symbolic::run(program, state.clone(), options)
        .map(|outcome: Outcome| {
            let json = outcome.to_json("symbolic");
            (members.iter())
                .map(|m| json.get(m).cloned().unwrap_or_default())
                .collect()
        })
        .map_err(|d| d.code.to_string())
}

/// A random input for `program`: every size from 0 to 7, every element and
/// input integer from -9 to 9, the arrays named in `sorted` sorted.
fn random_input(program: &Program, sorted: &[&str], rng: &mut ChaCha8Rng) -> Value {
    let mut sizes: HashMap<usize, usize> = HashMap::new();
    let mut object = Map::new();
    for (id, data) in program.data.iter().enumerate() {
        match data.kind {
            DataKind::Size => {
                sizes.insert(id, rng.random_range(0..=7));
            }
            DataKind::Input => {
                let dims: Vec<usize> = (data.dims.iter())
                    .map(|d| match &d.kind {
                        PosKind::Read(cell) => sizes.get(&cell.data).copied().unwrap_or(0),
                        _ => 0,
                    })
                    .collect();
                let mut element = || Value::from(rng.random_range(-9..=9i64));
                let value = match dims.as_slice() {
                    [] => element(),
                    [n] => {
                        let mut numbers: Vec<i64> =
                            (0..*n).map(|_| rng.random_range(-9..=9i64)).collect();
                        if sorted.contains(&data.name.as_str()) {
                            numbers.sort_unstable();
                        }
                        Value::from(numbers)
                    }
                    [rows, columns] => Value::Array(
                        (0..*rows)
                            .map(|_| Value::Array((0..*columns).map(|_| element()).collect()))
                            .collect(),
                    ),
                    _ => Value::Null,
                };
                object.insert(data.name.clone(), value);
            }
            DataKind::Var { .. } => {}
        }
    }
    Value::Object(object)
}

/// The `n`-th filling taking one candidate from each list, the last list
/// fastest.
fn nth(lists: &[&Vec<String>], mut n: usize) -> Filling {
    let mut filling = vec![String::new(); lists.len()];
    for (slot, list) in filling.iter_mut().zip(lists).rev() {
        *slot = list[n % list.len()].clone();
        n /= list.len();
    }
    filling
}

/// The ways to write `total` as `holes` sizes of 1 to [`MAX_SIZE`], the
/// first hole's smallest first.
fn splits(total: usize, holes: usize) -> Vec<Vec<usize>> {
    if holes == 0 {
        return if total == 0 {
            vec![Vec::new()]
        } else {
            Vec::new()
        };
    }
    (1..=MAX_SIZE.min(total))
        .flat_map(|first| {
            splits(total - first, holes - 1)
                .into_iter()
                .map(move |mut rest| {
                    rest.insert(0, first);
                    rest
                })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_give_every_hole_one_to_max_size() {
        assert_eq!(splits(1, 1), vec![vec![1]]);
        assert_eq!(splits(3, 2), vec![vec![1, 2], vec![2, 1]]);
        assert!(splits(1, 2).is_empty());
        assert_eq!(splits(2 * MAX_SIZE, 2), vec![vec![MAX_SIZE, MAX_SIZE]]);
    }
}
