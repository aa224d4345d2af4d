//! The auxiliary tasks of stage 1 (Table 3 of the paper).
//!
//! Each task is an applier of one basic combinator to ACTs of the `array`
//! environment, built as the parts of a checked program (a test prints them
//! back as source and compiles that through the front end); the core has
//! to learn to run the combinator so that the applier does what
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

use cnpi::operators::CompareOp;
use cnpi::program::{
    ActApp, ActArg, BoolExpr, Combinator, Direction, EnvKind, Operand, Pointer, PointerId, PosExpr,
    PosKind, ValExpr,
};
use cnpi::span::Span;
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
        limits: Default::default(),
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

/// An auxiliary task: the applier of one learned combinator and its
/// inputs.
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

/// The pointers of a task's `array` line and where they start.
type Pointers = &'static [(&'static str, i64)];

/// An ACT of a task: its name and arguments (pointers by their place in
/// the task's [`Pointers`]).
type ActSpec = (&'static str, &'static [Arg]);

/// An argument of an ACT in a task.
#[derive(Clone, Copy, Debug)]
enum Arg {
    Pointer(PointerId),
    Ok,
    Right,
}

/// One stage-1 task: its name, combinator, pointers, applier and lengths.
#[derive(Clone, Copy, Debug)]
pub struct Spec {
    pub name: &'static str,
    pub combinator: usize,
    pub easy: bool,
    pointers: Pointers,
    /// `A[P] != END` for the pointer at this place, the condition of
    /// `cond` and `linrec`; `None` for `seq`.
    until_end: Option<PointerId>,
    args: [ActSpec; 3],
    pub lengths: (usize, usize),
}

const SEQ: Pointers = &[("P1", 0), ("P2", 1)];
const ONE: Pointers = &[("P2", 1)];
const FROM_START: Pointers = &[("P2", 0)];
const NOP: ActSpec = ("NOP", &[]);
const OUT_OK: ActSpec = ("OUT", &[Arg::Ok]);
/// `OUT(P2)` where `P2` is the only pointer.
const OUT: ActSpec = ("OUT", &[Arg::Pointer(0)]);

const SPECS: [Spec; 6] = [
    Spec {
        name: "swap and output easy",
        combinator: 0,
        easy: true,
        pointers: SEQ,
        until_end: None,
        args: [("OUT", &[Arg::Pointer(0)]), NOP, NOP],
        lengths: (2, 5),
    },
    Spec {
        name: "swap and output",
        combinator: 0,
        easy: false,
        pointers: SEQ,
        until_end: None,
        args: [
            ("OUT", &[Arg::Pointer(0)]),
            ("SWAP", &[Arg::Pointer(0), Arg::Pointer(1)]),
            ("OUT", &[Arg::Pointer(1)]),
        ],
        lengths: (2, 5),
    },
    Spec {
        name: "conditional output easy",
        combinator: 1,
        easy: true,
        pointers: ONE,
        until_end: Some(0),
        args: [OUT, NOP, OUT_OK],
        lengths: (0, 5),
    },
    Spec {
        name: "conditional output",
        combinator: 1,
        easy: false,
        pointers: ONE,
        until_end: Some(0),
        args: [OUT, ("CLEAR", &[Arg::Pointer(0)]), OUT_OK],
        lengths: (0, 5),
    },
    Spec {
        name: "copy easy",
        combinator: 2,
        easy: true,
        pointers: FROM_START,
        until_end: Some(0),
        args: [OUT, NOP, OUT_OK],
        lengths: (0, 5),
    },
    Spec {
        name: "copy",
        combinator: 2,
        easy: false,
        pointers: FROM_START,
        until_end: Some(0),
        args: [OUT, ("MOVE", &[Arg::Pointer(0), Arg::Right]), OUT_OK],
        lengths: (0, 5),
    },
];

/// The `array` environment the tasks run in.
fn array() -> EnvKind {
    match EnvKind::from_name("array") {
        Some(env) => env,
        None => panic!("the array environment is registered"),
    }
}

/// The checked program's form of `A[pointer] != END`.
fn until_end(env: EnvKind, pointer: PointerId) -> BoolExpr {
    let observations = cnpi::env::environment(env).observations;
    let Some(a) = observations.iter().find(|o| o.name == "A") else {
        panic!("the array environment observes A")
    };
    let at = PosExpr {
        kind: PosKind::Pointer(pointer),
        span: Span::default(),
    };
    let read = ValExpr {
        observation: a,
        at,
        span: Span::default(),
    };
    BoolExpr::Compare(CompareOp::Ne, Operand::Val(read), Operand::End)
}

fn act(env: EnvKind, (name, args): ActSpec) -> ActApp {
    let args = args
        .iter()
        .map(|arg| match *arg {
            Arg::Pointer(p) => ActArg::Pointer(p),
            Arg::Ok => ActArg::Ok,
            Arg::Right => ActArg::Direction(Direction::Right),
        })
        .collect();
    let Some(act) = cnpi::env::build_act(env, name, args) else {
        panic!("`{name}` is an ACT of the array environment with these arguments")
    };
    ActApp {
        act,
        span: Span::default(),
    }
}

impl Task {
    /// The task `spec` describes, built as a checked program's parts.
    pub fn new(spec: &Spec) -> Task {
        let env = array();
        let pointers = spec
            .pointers
            .iter()
            .map(|&(name, at)| Pointer {
                name: name.to_string(),
                init: PosExpr {
                    kind: PosKind::Int(at),
                    span: Span::default(),
                },
                span: Span::default(),
                owner: None,
            })
            .collect();
        let mut task = Task {
            name: spec.name.to_string(),
            combinator: spec.combinator,
            easy: spec.easy,
            version: 0,
            env,
            pointers,
            detector: spec.until_end.map(|p| until_end(env, p)),
            args: spec.args.map(|a| act(env, a)),
            lengths: spec.lengths,
            lengths_where: [Vec::new(), Vec::new()],
        };
        for length in spec.lengths.0..=spec.lengths.1 {
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
    SPECS.iter().map(Task::new).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use cnpi::compile::compile;
    use cnpi::program::{Applier, Body, Callee, print};
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

    /// The tasks as Table 3 writes them, in the language.
    const SOURCES: [&str; 6] = [
        "env array(P1 = 0, P2 = 1)\ndef TASK: seq(; OUT(P1), NOP, NOP)",
        "env array(P1 = 0, P2 = 1)\ndef TASK: seq(; OUT(P1), SWAP(P1, P2), OUT(P2))",
        "env array(P2 = 1)\ndef TASK: cond(A[P2] != END?; OUT(P2), NOP, OUT(OK))",
        "env array(P2 = 1)\ndef TASK: cond(A[P2] != END?; OUT(P2), CLEAR(P2), OUT(OK))",
        "env array(P2 = 0)\ndef TASK: linrec(A[P2] != END?; OUT(P2), NOP, OUT(OK))",
        "env array(P2 = 0)\ndef TASK: linrec(A[P2] != END?; OUT(P2), MOVE(P2, RIGHT), OUT(OK))",
    ];

    /// A task's applier as source: `COMB(c?; a1, a2, a3)`.
    fn printed(
        combinator: usize,
        detector: Option<&BoolExpr>,
        args: &[ActApp],
        pointers: &[Pointer],
    ) -> String {
        let detector = detector.map_or(String::new(), |d| {
            format!("{}?", print::condition(d, pointers))
        });
        let args: Vec<String> = args.iter().map(|a| print::act(&a.act, pointers)).collect();
        format!("{}({detector}; {})", LEARNED[combinator].1, args.join(", "))
    }

    #[test]
    fn every_task_is_the_program_its_source_compiles_to() {
        for (task, source) in stage1().iter().zip(SOURCES) {
            let compilation = compile("task.cnpi", source, Some("TASK"));
            let program = compilation.program.expect("the task's source compiles");
            let Body::Applier(Applier::Combinator {
                combinator,
                detector,
                args,
                ..
            }) = &program.defs[program.entry].body
            else {
                panic!("{source} is a combinator applier")
            };
            assert_eq!(*combinator, LEARNED[task.combinator].0);
            let args: Vec<ActApp> = (args.iter())
                .map(|arg| match arg {
                    Callee::Act(app) => app.clone(),
                    Callee::Def(..) => panic!("{source} calls ACTs"),
                })
                .collect();
            let pointers = &program.pointers;
            assert_eq!(
                print::env_line(task.env, &task.pointers),
                print::env_line(program.env, pointers)
            );
            let expected = printed(task.combinator, detector.as_ref(), &args, pointers);
            let built = printed(
                task.combinator,
                task.detector.as_ref(),
                &task.args,
                &task.pointers,
            );
            assert_eq!(built, expected);
            assert!(source.ends_with(&built), "{source} vs {built}");
            let init =
                |p: &[Pointer]| -> Vec<PosKind> { p.iter().map(|p| p.init.kind.clone()).collect() };
            assert_eq!(init(&task.pointers), init(pointers));
            let acts = |a: &[ActApp]| -> Vec<cnpi::program::Act> {
                a.iter().map(|a| a.act.clone()).collect()
            };
            assert_eq!(acts(&task.args), acts(&args));
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
