//! The auxiliary tasks of stage 1 (Table 3 of the paper), as `.cnpi` source.
//!
//! Each task is an applier of one basic combinator to ACTs of the `array`
//! environment, written in the language and compiled by the front end; the
//! core has to learn to run the combinator so that the applier does what
//! its definition says. The full tasks are swap-and-output for `seq`,
//! conditional output for `cond` and copy for `linrec`; each has an easy
//! version, a partial completion: its first defined step. Inputs are arrays
//! of distinct values 0 to 9 (distinct, so that every argument of a task
//! leaves a different mark on the environment; see `episode`).
//!
//! An easy task is one decision on the condition at the start, so its
//! inputs are drawn to make that condition true or false with probability
//! one half each. With lengths drawn uniformly the condition of `cond`'s
//! easy task holds on four lengths of six and `linrec`'s on five of six,
//! and the core settled on `a1` for both bits in every seed tried before
//! it ever sampled `a3` on a false one (docs/reproduction.md). The paper
//! does not say how its inputs were drawn.

use cnpi::compile::compile;
use cnpi::program::{ActApp, Applier, Body, BoolExpr, Callee, Combinator, EnvKind, Pointer};
use rand::seq::SliceRandom;
use rand::{Rng, RngExt};

/// The three combinators learned in stage 1, in embedding order (the order
/// of `cnpi_neural::core::COMBINATORS`).
pub const LEARNED: [(Combinator, &str); 3] = [
    (Combinator::Seq, "seq"),
    (Combinator::Cond, "cond"),
    (Combinator::Linrec, "linrec"),
];

/// The largest value in a task's input (values are distinct, 0 to this).
pub const MAX_VALUE: i64 = 9;

/// The environment state of the array `input` (`env` is an `array`).
pub fn array_state(env: EnvKind, input: &[i64]) -> cnpi::env::State {
    let state = cnpi::env::ArrayState {
        a: input.to_vec(),
        output: Vec::new(),
    };
    cnpi::env::State::new(env, Box::new(state))
}

/// A store of environment `env` on the array `input`, `pointers` at
/// their start.
pub fn array_store(
    env: EnvKind,
    pointers: &[Pointer],
    input: &[i64],
) -> cnpi::exec::Store<'static> {
    let options = cnpi::exec::Options {
        max_steps: u64::MAX,
        trace: None,
    };
    match cnpi::exec::Store::new(env, pointers, array_state(env, input), options) {
        Ok(store) => store,
        Err(diagnostic) => panic!("pointers start on any array: {diagnostic:?}"),
    }
}

/// The program of combinator `combinator` (an index into [`LEARNED`]) in
/// version `version` of the tasks: its embedding's index.
pub fn program(version: usize, combinator: usize) -> usize {
    version * LEARNED.len() + combinator
}

/// A compiled auxiliary task.
#[derive(Clone, Debug)]
pub struct Task {
    /// The name of Table 3 ("copy easy").
    pub name: String,
    /// The index of its combinator in [`LEARNED`].
    pub combinator: usize,
    pub easy: bool,
    /// Which of the RNPI baseline's versions of the task this is (0 for
    /// CNPI; see `stage1::Tasks::new`).
    pub version: usize,
    /// The task's program, as `.cnpi` source.
    pub source: String,
    pub env: EnvKind,
    pub pointers: Vec<Pointer>,
    pub detector: Option<BoolExpr>,
    pub args: [ActApp; 3],
    /// Input lengths drawn, inclusive.
    pub lengths: (usize, usize),
    /// The lengths in `lengths` whose start state makes the detector false
    /// (`[0]`) and true (`[1]`).
    lengths_where: [Vec<usize>; 2],
}

/// One stage-1 task: its name, combinator, env line, applier and lengths.
#[derive(Clone, Copy, Debug)]
pub struct Spec {
    pub name: &'static str,
    pub combinator: usize,
    pub easy: bool,
    pub env: &'static str,
    pub applier: &'static str,
    pub lengths: (usize, usize),
}

const SPECS: [Spec; 6] = [
    Spec {
        name: "swap and output easy",
        combinator: 0,
        easy: true,
        env: "array(P1 = 0, P2 = 1)",
        applier: "seq(; OUT(P1), NOP, NOP)",
        lengths: (2, 5),
    },
    Spec {
        name: "swap and output",
        combinator: 0,
        easy: false,
        env: "array(P1 = 0, P2 = 1)",
        applier: "seq(; OUT(P1), SWAP(P1, P2), OUT(P2))",
        lengths: (2, 5),
    },
    Spec {
        name: "conditional output easy",
        combinator: 1,
        easy: true,
        env: "array(P2 = 1)",
        applier: "cond(A[P2] != END?; OUT(P2), NOP, OUT(OK))",
        lengths: (0, 5),
    },
    Spec {
        name: "conditional output",
        combinator: 1,
        easy: false,
        env: "array(P2 = 1)",
        applier: "cond(A[P2] != END?; OUT(P2), CLEAR(P2), OUT(OK))",
        lengths: (0, 5),
    },
    Spec {
        name: "copy easy",
        combinator: 2,
        easy: true,
        env: "array(P2 = 0)",
        applier: "linrec(A[P2] != END?; OUT(P2), NOP, OUT(OK))",
        lengths: (0, 5),
    },
    Spec {
        name: "copy",
        combinator: 2,
        easy: false,
        env: "array(P2 = 0)",
        applier: "linrec(A[P2] != END?; OUT(P2), MOVE(P2, RIGHT), OUT(OK))",
        lengths: (0, 5),
    },
];

impl Task {
    /// Compiles a task from its env line and applier (the entry `TASK`),
    /// with inputs of `lengths` elements.
    pub fn compile(spec: &Spec) -> Task {
        let Spec {
            name,
            combinator,
            easy,
            env,
            applier,
            lengths,
        } = *spec;
        let source = format!("env {env}\ndef TASK: {applier}\n");
        let compilation = compile("task.cnpi", &source, Some("TASK"));
        let Some(program) = compilation.program else {
            panic!(
                "the task `{name}` does not compile: {:?}",
                compilation.diagnostics
            )
        };
        let Body::Applier(Applier::Combinator {
            combinator: kind,
            detector,
            args,
            ..
        }) = program.defs[program.entry].body.clone()
        else {
            panic!("the task `{name}` is not a combinator applier")
        };
        assert_eq!(kind, LEARNED[combinator].0, "the task `{name}`");
        let args = args.map(|arg| match arg {
            Callee::Act(app) => app,
            Callee::Def(..) => panic!("the task `{name}` calls a definition"),
        });
        let mut task = Task {
            name: name.to_string(),
            combinator,
            easy,
            version: 0,
            source,
            env: program.env,
            pointers: program.pointers,
            detector,
            args,
            lengths,
            lengths_where: [Vec::new(), Vec::new()],
        };
        for length in lengths.0..=lengths.1 {
            let holds = task.holds_at_start(length);
            task.lengths_where[usize::from(holds)].push(length);
        }
        task
    }

    /// The program the task trains: the combinator of its version, one
    /// embedding each (`version · 3 + combinator`).
    pub fn program(&self) -> usize {
        program(self.version, self.combinator)
    }

    /// Whether the task's detector holds on the start state of an array of
    /// `length` elements.
    fn holds_at_start(&self, length: usize) -> bool {
        let input: Vec<i64> = (0..length as i64).collect();
        let store = array_store(self.env, &self.pointers, &input);
        self.detector
            .as_ref()
            .is_some_and(|detector| store.eval(detector).unwrap_or(false))
    }

    /// A random input: distinct values in `0..=MAX_VALUE`.
    pub fn input(&self, rng: &mut impl Rng) -> Vec<i64> {
        let balanced = self.easy && self.lengths_where.iter().all(|l| !l.is_empty());
        let length = if balanced {
            // The condition holds at the start or not, each with
            // probability one half (see the module documentation).
            let lengths = &self.lengths_where[usize::from(rng.random::<bool>())];
            lengths[rng.random_range(0..lengths.len())]
        } else {
            rng.random_range(self.lengths.0..=self.lengths.1)
        };
        let mut values: Vec<i64> = (0..=MAX_VALUE).collect();
        values.shuffle(rng);
        values.truncate(length);
        values
    }

    /// One input of every length, then random ones: what "the task is
    /// learned" is judged on.
    pub fn evaluation_inputs(&self, count: usize, rng: &mut impl Rng) -> Vec<Vec<i64>> {
        let mut inputs: Vec<Vec<i64>> = (self.lengths.0..=self.lengths.1)
            .map(|length| (0..length as i64).rev().collect())
            .collect();
        while inputs.len() < count {
            inputs.push(self.input(rng));
        }
        inputs
    }
}

/// The six tasks of stage 1: for each combinator of [`LEARNED`], the easy
/// version then the full one.
pub fn stage1() -> Vec<Task> {
    SPECS.iter().map(Task::compile).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn every_task_compiles_with_its_combinator() {
        let tasks = stage1();
        assert_eq!(tasks.len(), 6);
        for (i, task) in tasks.iter().enumerate() {
            assert_eq!(task.combinator, i / 2);
            assert_eq!(task.easy, i % 2 == 0);
            assert_eq!(task.detector.is_none(), task.combinator == 0);
        }
    }

    #[test]
    fn inputs_have_distinct_small_values_and_lengths_in_range() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        for task in stage1() {
            for _ in 0..50 {
                let input = task.input(&mut rng);
                assert!((task.lengths.0..=task.lengths.1).contains(&input.len()));
                let mut sorted = input.clone();
                sorted.sort();
                sorted.dedup();
                assert_eq!(sorted.len(), input.len());
                assert!(input.iter().all(|v| (0..=MAX_VALUE).contains(v)));
            }
            let eval = task.evaluation_inputs(10, &mut rng);
            assert_eq!(eval.len(), 10);
            assert_eq!(eval[0].len(), task.lengths.0);
        }
    }

    #[test]
    fn an_easy_task_starts_true_and_false_equally_often() {
        let mut rng = ChaCha8Rng::seed_from_u64(8);
        for task in stage1().iter().filter(|t| t.detector.is_some()) {
            let holds = (0..4000)
                .filter(|_| task.holds_at_start(task.input(&mut rng).len()))
                .count();
            if task.easy {
                assert!((1_800..2_200).contains(&holds), "{}: {holds}", task.name);
            } else {
                // Uniform lengths: the condition holds on most of them.
                assert!(holds > 2_400, "{}: {holds}", task.name);
            }
        }
    }
}
