//! The exact reference interpreter on programs built by hand (the front end
//! is tested elsewhere): step counts worked out on paper, the section 8
//! programs against reference algorithms on random inputs, deep recursion,
//! every runtime error, the step budget, traces and output formats.

#[path = "../common/mod.rs"]
mod common;

mod arrays;
mod calls;
mod errors;
mod procedures;
mod programs;
mod trace;

use common::add_decimal;

use cnpi::diagnostic::{Diagnostic, codes};
use cnpi::env;
use cnpi::exec::{Limits, Options, Outcome, Trace};
use cnpi::program::{
    Act, ActApp, Callee, Color, Combinator, EnvKind, Operand, PosKind, Program, Stmt,
};
use cnpi::span::Span;
use cnpi::symbolic;
use cnpi::syntax::ast::{ArithOp, CompareOp};
use programs::*;
use serde_json::{Value, json};

fn try_run(program: &Program, input: &str, max_steps: u64) -> Result<Outcome, Diagnostic> {
    let state = env::parse_input(program.env, input).expect("valid input");
    symbolic::run(program, state, Options::steps(max_steps))
}

/// The error of a run of `program` on `input` within `limits`.
fn fail_within(program: &Program, input: &str, limits: Limits) -> Diagnostic {
    let state = env::parse_input(program.env, input).expect("valid input");
    let options = Options {
        limits,
        ..Options::steps(u64::MAX)
    };
    symbolic::run(program, state, options).expect_err("the run fails")
}

fn run(program: &Program, input: &str) -> Outcome {
    try_run(program, input, u64::MAX).unwrap_or_else(|e| panic!("runs: {e:?}"))
}

fn fail(program: &Program, input: &str) -> Diagnostic {
    try_run(program, input, u64::MAX).expect_err("the run fails")
}

/// The final array of an array run.
fn array(outcome: &Outcome) -> Vec<i64> {
    serde_json::from_value(outcome.to_json("symbolic")["A"].clone()).expect("A holds integers")
}

fn tape(outcome: &Outcome) -> Vec<i64> {
    serde_json::from_value(outcome.to_json("symbolic")["output"].clone()).expect("integers")
}

/// Deterministic xorshift numbers.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    fn array(&mut self, n: usize, range: u64) -> Vec<i64> {
        (0..n)
            .map(|_| (self.below(range) as i64).wrapping_sub((range / 2) as i64))
            .collect()
    }
}

fn sorted(mut v: Vec<i64>) -> Vec<i64> {
    v.sort();
    v
}

#[test]
fn bubble_sort_step_counts_match_hand_counts() {
    let program = bubblesort();
    // []: BUBBLESORT's condition fails at once: one step (a3 = NOP).
    assert_eq!(run(&program, "[]").steps, 1);
    // [1]: BUBBLESORT 3, BSTEP 1, RESET 3 + LSHIFT (3 + 1), BUBBLESORT 1.
    assert_eq!(run(&program, "[1]").steps, 12);
    // [2, 1]: 3 + BSTEP 9 + RESET 10 + (3 + BSTEP 15 + RESET 10 + 1).
    let outcome = run(&program, "[2, 1]");
    assert_eq!((outcome.steps, array(&outcome)), (51, vec![1, 2]));
}

#[test]
fn quick_sort_step_counts_match_hand_counts() {
    let program = quicksort();
    assert_eq!(run(&program, "[]").steps, 1);
    assert_eq!(run(&program, "[5]").steps, 1);
    // [2, 1]: treerec 5 + DIVIDE (3 + PARTITION (3 + PRE_LOOP 3 + LOOP 5))
    // + _mapself (4 + 1 + 4 + 1 + 2).
    let outcome = run(&program, "[2, 1]");
    assert_eq!((outcome.steps, array(&outcome)), (31, vec![1, 2]));
    // The normal version counts statements: if, PARTITION() + its 7
    // statements, two state calls, and the `if` of each.
    let outcome = run(&quicksort_normal(), "[2, 1]");
    assert_eq!((outcome.steps, array(&outcome)), (13, vec![1, 2]));
    assert_eq!(run(&quicksort_normal(), "[]").steps, 1);
}

#[test]
fn the_sorts_sort_random_arrays() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let programs = [bubblesort(), quicksort(), quicksort_normal()];
    for round in 0..60 {
        let n = rng.below(40) as usize;
        let range = if round % 2 == 0 { 10 } else { u64::MAX };
        let input = rng.array(n, range);
        let json = json!(input).to_string();
        for program in &programs {
            assert_eq!(array(&run(program, &json)), sorted(input.clone()), "{json}");
        }
    }
}

#[test]
fn quick_sort_sorts_a_hundred_thousand_elements() {
    // Debug builds check the same thing on a smaller array, quickly.
    let n = if cfg!(debug_assertions) {
        3_000
    } else {
        100_000
    };
    let input = Rng(42).array(n, 1 << 40);
    let outcome = run(&quicksort(), &json!(input).to_string());
    assert_eq!(array(&outcome), sorted(input));
}

/// A random DAG on n vertices: edges go from lower to higher rank.
fn random_dag(rng: &mut Rng, n: usize) -> Vec<Vec<usize>> {
    let mut rank: Vec<usize> = (0..n).collect();
    for i in (1..n).rev() {
        rank.swap(i, rng.below(i as u64 + 1) as usize);
    }
    let mut children = vec![Vec::new(); n];
    for _ in 0..2 * n {
        let (a, b) = (rng.below(n as u64) as usize, rng.below(n as u64) as usize);
        if rank[a] < rank[b] && !children[a].contains(&b) {
            children[a].push(b);
        }
    }
    children
}

#[test]
fn toposort_emits_every_vertex_after_its_descendants() {
    let program = toposort();
    let mut rng = Rng(7);
    for _ in 0..40 {
        let n = rng.below(30) as usize;
        let graph = random_dag(&mut rng, n);
        let out = tape(&run(&program, &json!({ "graph": graph }).to_string()));
        let mut place = vec![None; n];
        for (i, &v) in out.iter().enumerate() {
            let v = v as usize;
            assert_eq!(place[v], None, "vertex {v} emitted twice");
            place[v] = Some(i);
        }
        assert_eq!(out.len(), n);
        for (u, children) in graph.iter().enumerate() {
            for &v in children {
                assert!(place[v] < place[u], "edge {u}→{v} in {graph:?}: {out:?}");
            }
        }
    }
}

#[test]
fn tree_recursion_goes_a_hundred_thousand_calls_deep() {
    let n: usize = 100_000;
    let path: Vec<Vec<usize>> = (0..n)
        .map(|v| if v + 1 < n { vec![v + 1] } else { vec![] })
        .collect();
    let outcome = run(&toposort(), &json!({ "graph": path }).to_string());
    let expected: Vec<i64> = (0..n as i64).rev().collect();
    assert_eq!(tape(&outcome), expected);
}

fn sum(outcome: &Outcome) -> String {
    outcome.to_json("symbolic")["sum"]
        .as_str()
        .expect("sum is a string")
        .to_string()
}

#[test]
fn addition_adds() {
    let program = addition();
    let mut rng = Rng(99);
    for _ in 0..100 {
        let (a, b) = (
            u128::from(rng.next()) << rng.below(63),
            u128::from(rng.next()) >> rng.below(64),
        );
        let input = json!({ "a": a.to_string(), "b": b.to_string() }).to_string();
        assert_eq!(sum(&run(&program, &input)), (a + b).to_string(), "{input}");
    }
    for _ in 0..10 {
        let digits = |rng: &mut Rng, n| {
            (0..n)
                .map(|_| char::from(b'0' + rng.below(10) as u8))
                .collect::<String>()
        };
        let short = 1 + rng.below(100) as usize;
        let (a, b) = (digits(&mut rng, 100), digits(&mut rng, short));
        let outcome = run(&program, &json!({ "a": a, "b": b }).to_string());
        assert_eq!(sum(&outcome), add_decimal(&a, &b));
    }
    let nines = json!({ "a": "9".repeat(100), "b": "1" }).to_string();
    assert_eq!(sum(&run(&program, &nines)), format!("1{}", "0".repeat(100)));
    assert_eq!(sum(&run(&program, r#"{"a": "000", "b": "0"}"#)), "0");
}

#[test]
fn normal_programs_and_appliers_call_each_other() {
    // def OUT2(): OUT(P1); RSHIFT          (a normal program calling an applier)
    // def RSHIFT: seq(; MOVE(P1, RIGHT), NOP, NOP)
    // def MAIN: linrec(A[P1] != END?; OUT2, NOP, NOP)   (an applier calling it)
    let mut b = Builder::new(kind("array"), &[("P1", int(0))]);
    let p1 = b.p("P1");
    let rshift = b.seq("RSHIFT", [inline(right(p1)), nop(), nop()]);
    let out2 = b.normal(
        "OUT2",
        vec![Stmt::Act(app(out(p1))), Stmt::Call(rshift, Span::default())],
    );
    let c = cmp(CompareOp::Ne, val("A", b.ptr("P1")), Operand::End);
    let main = b.comb(
        "MAIN",
        Combinator::Linrec,
        Some(c),
        [call(out2), nop(), nop()],
    );
    let outcome = run(&b.finish(main), "[3, 4]");
    assert_eq!(tape(&outcome), [3, 4]);
    // Per element: linrec 3 + OUT2's 2 statements + RSHIFT's 3 steps; then 1.
    assert_eq!(outcome.steps, 2 * (3 + 2 + 3) + 1);
}

/// Prints the interpreter's speed; `cargo test --release --test symbolic
/// -- --ignored --nocapture speed`.
#[test]
#[ignore = "a measurement, not a check"]
fn speed() {
    let input = json!(Rng(42).array(100_000, 1 << 40)).to_string();
    let n: usize = 100_000;
    let path: Vec<Vec<usize>> = (0..n)
        .map(|v| if v + 1 < n { vec![v + 1] } else { vec![] })
        .collect();
    let graph = json!({ "graph": path }).to_string();
    for (name, program, input) in [
        ("quicksort 1e5 random", quicksort(), &input),
        ("quicksort (normal) 1e5 random", quicksort_normal(), &input),
        ("toposort path 1e5", toposort(), &graph),
        (
            "bubblesort 2e3 random",
            bubblesort(),
            &json!(Rng(1).array(2_000, 1000)).to_string(),
        ),
    ] {
        let start = std::time::Instant::now();
        let steps = run(&program, input).steps;
        let seconds = start.elapsed().as_secs_f64();
        println!(
            "{name}: {steps} steps in {seconds:.3} s = {:.1e} steps/s",
            steps as f64 / seconds
        );
    }
}
