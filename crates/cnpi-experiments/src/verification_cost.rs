//! `verification-cost`: the end of section 3.3 of the paper. How many test
//! inputs prove a program right on CNPI, against an RNPI-style verification
//! (Cai et al. 2017), for the same program and the same observations.
//!
//! CNPI verifies the core once, for every program: the abstract traces of
//! the combinators the program uses (what `cnpic verify-core` runs), plus,
//! for the task, each distinct detector over its whole input domain (the
//! points of its encoder). Appliers need no test: they are parsed, not
//! learned.
//!
//! RNPI has one core that interprets every subprogram from what it
//! observes, so each subprogram must be tested on every sequence of
//! observations one of its calls can meet (calls to other subprograms are
//! atomic, as in Cai et al.). An observation here is what all of the
//! program's detectors see at once (each encoder's point, and the state
//! stack's top for `_mapself`), so both sides are counted on the same
//! features. The sequences are collected by running the exact interpreter
//! on every array of length up to `max_length` with values below `values`,
//! and on `samples` random longer arrays (seeded); the count per length
//! shows where it stops growing.
//!
//! Two kinds of observation can be counted. `relations` is what this
//! project's detectors see: for a comparison, only how its two sides relate
//! (less, equal, greater, or END), so `A[P1] > A[P2]` has 5 points whatever
//! the values. `values` is what the paper's detectors and RNPI's encoder
//! see: each array value a condition reads, one of `0..values` or END, so
//! `A[P1] > A[P2]` over digits has 11 · 11 points.

use std::collections::{BTreeMap, HashSet};

use cnpi::diagnostic::{Diagnostic, codes};
use cnpi::env::{Declarations, read_value};
use cnpi::exec::Options;
use cnpi::program::{
    Applier, Body, BoolExpr, Combinator, CombinatorKind, DefId, EnvKind, Operand, Program, ValExpr,
    World, print,
};
use cnpi::symbolic::{Event, run_observed};
use cnpi_neural::core::traces;
use cnpi_neural::detector::{Condition, Encoder};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::Serialize;

/// What a detector, and an RNPI core, observes of the array.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Observe {
    /// The features of this project's detector encoders.
    Relations,
    /// The array values the conditions read, each in `0..values` or END.
    Values,
}

/// Which inputs to run, and what is observed.
#[derive(Clone, Debug, Serialize)]
pub struct Settings {
    pub observe: Observe,
    pub max_length: usize,
    /// Array values are `0..values`.
    pub values: i64,
    /// Random arrays beyond the exhaustive ones, of lengths up to
    /// `sample_length`, values as above.
    pub samples: usize,
    pub sample_length: usize,
    pub seed: u64,
}

/// One named count.
#[derive(Clone, Debug, Serialize)]
pub struct Count {
    pub name: String,
    pub inputs: usize,
}

/// Both verifications' test inputs for one program.
#[derive(Clone, Debug, Serialize)]
pub struct Cost {
    /// Abstract traces per combinator the program uses.
    pub core: Vec<Count>,
    /// Domain size per distinct detector.
    pub detectors: Vec<Count>,
    pub cnpi: usize,
    /// Distinct observation sequences per subprogram, over the arrays of
    /// length up to `max_length`.
    pub subprograms: Vec<Count>,
    pub rnpi: usize,
    /// The RNPI total after all inputs of each length `0..=max_length`.
    pub rnpi_by_length: Vec<usize>,
    /// The RNPI total once the random samples ran too.
    pub rnpi_with_samples: usize,
    pub inputs_run: usize,
}

/// The most inputs one measurement runs: about 80 minutes at the 50 µs
/// a short bubble sort takes.
pub const MAX_INPUTS: u128 = 100_000_000;

/// How many arrays `settings` make [`measure`] run: every array of each
/// length up to `max_length`, then the random samples.
pub fn inputs(settings: &Settings) -> u128 {
    let values = settings.values.max(1) as u128;
    let mut total = settings.samples as u128;
    let mut of_length: u128 = 1;
    for _ in 0..=settings.max_length {
        total = total.saturating_add(of_length);
        of_length = of_length.saturating_mul(values);
    }
    total
}

/// Which arrays `settings` run, in words, in parentheses.
pub fn workload(settings: &Settings) -> String {
    format!(
        "(every array of length up to {} with values 0..{}, then {} random ones)",
        settings.max_length, settings.values, settings.samples
    )
}

/// Counts both verifications' inputs for `program`, an array program;
/// refuses (E1305), before running any, settings that would run more
/// than [`MAX_INPUTS`] arrays. A progress bar counts the arrays run (on a
/// terminal).
pub fn measure(program: &Program, settings: &Settings) -> Result<Cost, Diagnostic> {
    if EnvKind::from_name("array") != Some(program.env) {
        return Err(cannot(
            "verification-cost enumerates arrays: it needs a program of the `array` environment"
                .to_string(),
        ));
    }
    let planned = inputs(settings);
    if planned > MAX_INPUTS {
        return Err(Diagnostic::error(
            codes::E1305,
            format!(
                "these settings would run {} arrays {}; the most is {MAX_INPUTS}",
                scientific(planned),
                workload(settings)
            ),
        )
        .with_help("lower --max-length, --values or --samples"));
    }
    let observer = Observation::of(program, settings)?;
    let bar = crate::runner::progress(planned as u64, "arrays", "verification-cost");
    let mut core = Vec::new();
    let kinds = used_combinators(program);
    for &kind in &kinds {
        let behaviour = program.combinators.get(kind).clone();
        core.push(Count {
            name: print::combinator_name(kind).to_string(),
            inputs: traces(&[behaviour]).len(),
        });
    }
    let detectors = observer.detectors.clone();
    let cnpi = core.iter().chain(&detectors).map(|c| c.inputs).sum();

    let mut seen: HashSet<(DefId, Vec<Vec<usize>>)> = HashSet::new();
    let mut rnpi_by_length = Vec::new();
    let mut inputs_run = 0;
    for length in 0..=settings.max_length {
        for array in arrays(length, settings.values) {
            observer.run(program, &array, &mut seen)?;
            inputs_run += 1;
            bar.inc(1);
        }
        rnpi_by_length.push(seen.len());
    }
    let mut per_def: BTreeMap<DefId, usize> = BTreeMap::new();
    for (def, _) in &seen {
        *per_def.entry(*def).or_default() += 1;
    }
    let subprograms: Vec<Count> = per_def
        .iter()
        .map(|(&def, &inputs)| Count {
            name: program.defs[def].name.clone(),
            inputs,
        })
        .collect();
    let mut rng = ChaCha8Rng::seed_from_u64(settings.seed);
    for _ in 0..settings.samples {
        let length = rng.random_range(0..=settings.sample_length);
        let array: Vec<i64> = (0..length)
            .map(|_| rng.random_range(0..settings.values.max(1)))
            .collect();
        observer.run(program, &array, &mut seen)?;
        inputs_run += 1;
        bar.inc(1);
    }
    bar.finish_and_clear();
    Ok(Cost {
        core,
        detectors,
        cnpi,
        rnpi: rnpi_by_length.last().copied().unwrap_or(0),
        rnpi_by_length,
        rnpi_with_samples: seen.len(),
        subprograms,
        inputs_run,
    })
}

/// The combinators the program's appliers apply, `_mapself` with
/// `treerec`, in a fixed order.
fn used_combinators(program: &Program) -> Vec<CombinatorKind> {
    let mut kinds = Vec::new();
    for def in &program.defs {
        if let Body::Applier(Applier::Combinator { combinator, .. }) = &def.body {
            let kind = CombinatorKind::User(*combinator);
            if !kinds.contains(&kind) {
                kinds.push(kind);
            }
            if *combinator == Combinator::Treerec && !kinds.contains(&CombinatorKind::MapSelf) {
                kinds.push(CombinatorKind::MapSelf);
            }
        }
    }
    kinds
}

/// `n` as `1.0e24` when it is large, else in full.
fn scientific(n: u128) -> String {
    if n < 1_000_000 {
        return n.to_string();
    }
    format!("{:.1e}", n as f64)
}

/// Every array of `length` values in `0..values`.
fn arrays(length: usize, values: i64) -> impl Iterator<Item = Vec<i64>> {
    let values = values.max(1);
    let count = (values as u64)
        .checked_pow(length as u32)
        .unwrap_or(u64::MAX);
    (0..count).map(move |mut index| {
        (0..length)
            .map(|_| {
                let digit = (index % values as u64) as i64;
                index /= values as u64;
                digit
            })
            .collect()
    })
}

/// What an RNPI-style core observes at a step: every detector's point, or
/// every array value the conditions read.
struct Observation {
    /// Each distinct detector with its number of points.
    detectors: Vec<Count>,
    /// In `relations` mode, the detectors' encoders.
    encoders: Vec<Encoder>,
    /// In `values` mode, the distinct values read, and how many each has.
    reads: Vec<ValExpr>,
    values: i64,
    stack_top: bool,
}

impl Observation {
    fn of(program: &Program, settings: &Settings) -> Result<Observation, Diagnostic> {
        let mut detectors: Vec<Count> = Vec::new();
        let (mut encoders, mut reads) = (Vec::new(), Vec::new());
        let mut read_names: Vec<String> = Vec::new();
        for def in &program.defs {
            let Body::Applier(Applier::Combinator {
                detector: Some(condition),
                ..
            }) = &def.body
            else {
                continue;
            };
            let name = print::condition(condition, &program.pointers);
            if detectors.iter().any(|known| known.name == name) {
                continue;
            }
            let inputs = match settings.observe {
                Observe::Relations => {
                    let encoder =
                        Encoder::new(Condition::Source(condition.clone())).map_err(|_| {
                            cannot(format!("the detector `{name}` has too large a domain"))
                        })?;
                    let domain = encoder.domain();
                    encoders.push(encoder);
                    domain
                }
                Observe::Values => {
                    let mut own = Vec::new();
                    values_read(condition, &mut own).map_err(|()| {
                        cannot(format!(
                            "`{name}` reads more than array values: count it with relations"
                        ))
                    })?;
                    let mut names: Vec<String> = Vec::new();
                    for read in own {
                        let read_name = print::position(&read.at, &program.pointers);
                        if !names.contains(&read_name) {
                            names.push(read_name.clone());
                        }
                        if !read_names.contains(&read_name) {
                            read_names.push(read_name);
                            reads.push(read);
                        }
                    }
                    let states = (settings.values + 1) as usize;
                    states.checked_pow(names.len() as u32).unwrap_or(usize::MAX)
                }
            };
            detectors.push(Count { name, inputs });
        }
        Ok(Observation {
            detectors,
            encoders,
            reads,
            values: settings.values,
            stack_top: used_combinators(program).contains(&CombinatorKind::MapSelf),
        })
    }

    /// The observation at one step.
    fn at(&self, world: &dyn World, stack_top: bool) -> Vec<usize> {
        let mut point: Vec<usize> = Vec::with_capacity(self.encoders.len() + self.reads.len() + 1);
        for encoder in &self.encoders {
            // A condition no step reads may fail to evaluate (a zero
            // divisor): it then observes nothing.
            point.push(encoder.encode(world, stack_top).unwrap_or(usize::MAX));
        }
        for read in &self.reads {
            let value = read
                .at
                .eval(world)
                .map(|at| world.value(read.observation, at));
            point.push(match value {
                Ok(Some(v)) if (0..self.values).contains(&v) => v as usize,
                Ok(Some(_)) => usize::MAX - 1,
                Ok(None) => self.values as usize,
                Err(_) => usize::MAX,
            });
        }
        if self.stack_top {
            point.push(usize::from(stack_top));
        }
        point
    }

    /// Runs `program` on `array`, adding each activation's sequence of
    /// observations to `seen`.
    fn run(
        &self,
        program: &Program,
        array: &[i64],
        seen: &mut HashSet<(DefId, Vec<Vec<usize>>)>,
    ) -> Result<(), Diagnostic> {
        let state = read_value(&Declarations::none(program.env), serde_json::json!(array))?;
        let mut open: Vec<(DefId, Vec<Vec<usize>>)> = Vec::new();
        let mut failure = None;
        // What it keeps is counted here, not against the run's memory (0).
        let mut observe = |event: Event<'_>| match event {
            Event::Start { def } => {
                open.push((def, Vec::new()));
                0
            }
            Event::Step {
                last,
                view,
                stack_top,
                ..
            } => {
                let point = self.at(&view, stack_top);
                if let Some((_, steps)) = open.last_mut() {
                    steps.push(point);
                }
                if last {
                    if let Some(done) = open.pop() {
                        seen.insert(done);
                    } else {
                        failure = Some("a step outside any activation");
                    }
                }
                0
            }
            // A combinatory program has no statements.
            Event::Statement { .. } => 0,
        };
        let options = Options {
            max_steps: 10_000_000,
            trace: None,
            limits: Default::default(),
        };
        run_observed(program, state, options, &mut observe)?;
        match failure {
            Some(what) => Err(cannot(format!("the interpreter reported {what}"))),
            None => Ok(()),
        }
    }
}

/// The array values `condition` reads; `Err` if it reads anything else.
fn values_read(condition: &BoolExpr, out: &mut Vec<ValExpr>) -> Result<(), ()> {
    match condition {
        BoolExpr::Compare(_, a, b) => {
            for operand in [a, b] {
                match operand {
                    Operand::Val(read) => out.push(read.clone()),
                    Operand::Int(_) | Operand::End => {}
                    Operand::Pos(_) | Operand::Sym(_) => return Err(()),
                }
            }
            Ok(())
        }
        BoolExpr::Test(..) | BoolExpr::Hole(..) => Err(()),
        BoolExpr::And(a, b) | BoolExpr::Or(a, b) => {
            values_read(a, out)?;
            values_read(b, out)
        }
        BoolExpr::Not(a) => values_read(a, out),
    }
}

fn cannot(message: String) -> Diagnostic {
    Diagnostic::error(codes::E1304, message)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn program(text: &str) -> Program {
        cnpi::compile::compile("test.cnpi", text, None)
            .program
            .expect("the test program compiles")
    }

    fn settings(observe: Observe, max_length: usize) -> Settings {
        Settings {
            observe,
            max_length,
            values: 3,
            samples: 200,
            sample_length: 12,
            seed: 7,
        }
    }

    #[test]
    fn bubble_sort_counts_add_up_and_rnpi_saturates_on_relations() {
        let bubble = program(include_str!("../../../examples/bubblesort.cnpi"));
        let cost = measure(&bubble, &settings(Observe::Relations, 5)).expect("measured");
        let names: Vec<&str> = cost.core.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["cond", "seq", "linrec"]);
        assert_eq!(cost.detectors.len(), 4);
        let parts: usize = cost
            .core
            .iter()
            .chain(&cost.detectors)
            .map(|c| c.inputs)
            .sum();
        assert_eq!(cost.cnpi, parts);
        // `A[P1] > A[P2]`: less, equal, greater, and END on either side.
        assert_eq!(cost.detectors[0].inputs, 5);
        assert_eq!(cost.subprograms.len(), 6);
        let total: usize = cost.subprograms.iter().map(|c| c.inputs).sum();
        assert_eq!(total, cost.rnpi);
        // Longer random arrays reveal no sequence the short ones missed.
        assert_eq!(cost.rnpi_with_samples, cost.rnpi);
        assert!(cost.rnpi > cost.cnpi, "{cost:?}");
    }

    #[test]
    fn settings_that_would_run_too_many_arrays_are_refused_before_running() {
        let program = program(include_str!("../../../examples/bubblesort.cnpi"));
        let mut huge = settings(Observe::Values, 12);
        huge.values = 100;
        // 100^0 + 100^1 + ... + 100^12, then the 200 samples.
        assert_eq!(inputs(&huge), 1_010_101_010_101_010_101_010_101 + 200);
        let start = std::time::Instant::now();
        let error = measure(&program, &huge).expect_err("refused");
        assert_eq!(error.code, codes::E1305);
        assert!(error.message.contains("1.0e24 arrays"), "{}", error.message);
        assert!(start.elapsed().as_secs() < 5);
        assert_eq!(inputs(&settings(Observe::Values, 2)), 1 + 3 + 9 + 200);
    }

    #[test]
    fn values_make_detectors_larger_and_rnpi_grow_with_length() {
        let bubble = program(include_str!("../../../examples/bubblesort.cnpi"));
        let cost = measure(&bubble, &settings(Observe::Values, 3)).expect("measured");
        // Two values read, each 0..3 or END.
        assert_eq!(cost.detectors[0].inputs, 16);
        assert_eq!(cost.detectors[1].inputs, 4);
        let growth = &cost.rnpi_by_length;
        assert!(growth.windows(2).all(|w| w[0] < w[1]), "{growth:?}");
    }

    #[test]
    fn other_environments_are_refused() {
        let graph = program(include_str!("../../../examples/toposort.cnpi"));
        let error = measure(&graph, &settings(Observe::Relations, 2)).expect_err("refused");
        assert_eq!(error.code, codes::E1304);
    }

    #[test]
    fn arrays_enumerate_every_value_combination() {
        let all: Vec<Vec<i64>> = arrays(2, 3).collect();
        assert_eq!(all.len(), 9);
        let distinct: HashSet<&Vec<i64>> = all.iter().collect();
        assert_eq!(distinct.len(), 9);
        assert_eq!(arrays(0, 3).count(), 1);
    }
}
