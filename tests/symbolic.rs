//! The exact reference interpreter on programs built by hand (the front end
//! is tested elsewhere): step counts worked out on paper, the section 8
//! programs against reference algorithms on random inputs, deep recursion,
//! every runtime error, the step budget, traces and output formats.

#[path = "symbolic/programs.rs"]
mod programs;

use cnpi::diagnostic::{Diagnostic, codes};
use cnpi::env::{self, EnvKind};
use cnpi::program::{
    Act, ActApp, Callee, Color, Combinator, Operand, PosKind, Program, Stmt, ValueObservation,
};
use cnpi::span::Span;
use cnpi::symbolic::{self, Outcome, RunOptions};
use cnpi::syntax::ast::{ArithOp, CompareOp};
use programs::*;
use serde_json::{Value, json};

fn try_run(program: &Program, input: &str, max_steps: u64) -> Result<Outcome, Diagnostic> {
    let state = env::parse_input(program.env, input).expect("valid input");
    let options = RunOptions {
        max_steps,
        trace: None,
    };
    symbolic::run(program, state, options)
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

/// Decimal addition of digit strings, by hand.
fn add_decimal(a: &str, b: &str) -> String {
    let (a, b): (Vec<u8>, Vec<u8>) = (a.bytes().rev().collect(), b.bytes().rev().collect());
    let mut digits = Vec::new();
    let mut carry = 0;
    for i in 0..a.len().max(b.len()) {
        let digit = |s: &[u8]| s.get(i).map_or(0, |c| c - b'0');
        let sum = digit(&a) + digit(&b) + carry;
        digits.push(b'0' + sum % 10);
        carry = sum / 10;
    }
    digits.push(b'0' + carry);
    while digits.len() > 1 && digits.last() == Some(&b'0') {
        digits.pop();
    }
    digits.reverse();
    String::from_utf8(digits).expect("ASCII digits")
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

/// A one-pointer-array program whose entry is `seq(; act1, act2, act3)`,
/// each ACT with its own span (`span(1)`, `span(2)`, `span(3)`).
fn acts(env: EnvKind, pointers: &[(&str, i64)], make: impl Fn(&Builder) -> [Act; 3]) -> Program {
    let inits: Vec<(&str, _)> = pointers.iter().map(|&(n, k)| (n, int(k))).collect();
    let mut b = Builder::new(env, &inits);
    let [x, y, z] = make(&b);
    let at = |act, k| Callee::Act(ActApp { act, span: span(k) });
    let main = b.seq("MAIN", [at(x, 1), at(y, 2), at(z, 3)]);
    b.finish(main)
}

fn assert_error(d: &Diagnostic, code: cnpi::diagnostic::Code, message: &str, at: Span) {
    assert_eq!((d.code, d.message.as_str()), (code, message));
    assert_eq!(d.span(), Some(at), "{d:?}");
}

#[test]
fn array_acts_off_the_array_are_errors_naming_the_pointer() {
    let swap = acts(EnvKind::Array, &[("P1", 0), ("P2", 5)], |b| {
        [Act::Swap(b.p("P1"), b.p("P2")), Act::Nop, Act::Nop]
    });
    let e = fail(&swap, "[1, 2, 3, 4, 5]");
    let message = "`SWAP` needs `P2` on the array, but `P2` = 5 reads as END (the array has 5 elements: 0..4)";
    assert_error(&e, codes::E0702, message, span(1));
    let out = acts(EnvKind::Array, &[("p", 0)], |b| {
        [Act::Out(b.p("p")), left(b.p("p")), Act::Out(b.p("p"))]
    });
    let e = fail(&out, "[7]");
    let message =
        "`OUT` needs `p` on the array, but `p` = -1 reads as END (the array has 1 element: 0)";
    assert_error(&e, codes::E0702, message, span(3));
    let clear = acts(EnvKind::Array, &[("p", 0)], |b| {
        [Act::Clear(b.p("p")), Act::Nop, Act::Nop]
    });
    let message =
        "`CLEAR` needs `p` on the array, but `p` = 0 reads as END (the array has no elements)";
    assert_error(&fail(&clear, "[]"), codes::E0702, message, span(1));
    let fine = acts(EnvKind::Array, &[("p", 1)], |b| {
        [Act::Clear(b.p("p")), Act::Out(b.p("p")), Act::OutOk]
    });
    let outcome = run(&fine, "[4, 5]");
    assert_eq!(
        outcome.to_json("symbolic"),
        json!({"A": [4, -1], "output": [-1, "OK"], "steps": 3, "engine": "symbolic"})
    );
}

#[test]
fn graph_acts_at_a_non_vertex_are_errors() {
    for (k, act) in [Act::Color(0, Color::Grey), Act::Emit(0), Act::NextChild(0)]
        .into_iter()
        .enumerate()
    {
        let name = act.name();
        let program = acts(EnvKind::Graph, &[("v", 0)], |_| {
            [
                Act::NextChild(0),
                Act::Set(0, int(2 + k as i64)),
                act.clone(),
            ]
        });
        let message = format!(
            "`{name}` needs `v` on a vertex, but `v` = {} is not a vertex (the graph has 2 vertices: 0..1)",
            2 + k
        );
        assert_error(
            &fail(&program, r#"{"graph": [[1], []]}"#),
            codes::E0702,
            &message,
            span(3),
        );
    }
}

#[test]
fn addition_acts_off_the_pad_are_errors() {
    let write = acts(EnvKind::Addition, &[("i", 3)], |b| {
        [Act::WriteSum(b.p("i")), Act::Nop, Act::Nop]
    });
    let message = "`WRITE_SUM` needs `i` on a column, but `i` = 3 reads as END (the scratch pad has 3 columns: 0..2)";
    assert_error(
        &fail(&write, r#"{"a": "12", "b": "3"}"#),
        codes::E0702,
        message,
        span(1),
    );
    let carry = acts(EnvKind::Addition, &[("i", 0)], |b| {
        [Act::Carry(b.p("i")), Act::Nop, Act::Nop]
    });
    let e = fail(&carry, r#"{"a": "5", "b": "5"}"#);
    assert_eq!((e.code, e.span()), (codes::E0702, Some(span(1))));
    assert!(
        e.message
            .starts_with("`CARRY` writes into the column left of `i`, but `i` = 0"),
        "{}",
        e.message
    );
}

#[test]
fn a_condition_is_evaluated_at_every_step() {
    // cond(A[P1 / P2] > 0?; SET(P2, 0), NOP, NOP): the first step decides
    // (P2 = 1), the second divides by the new P2 = 0.
    let mut b = Builder::new(EnvKind::Array, &[("P1", int(0)), ("P2", int(1))]);
    let mut divided = arith(ArithOp::Div, b.ptr("P1"), b.ptr("P2"));
    divided.span = span(5);
    let c = cmp(
        CompareOp::Gt,
        val(ValueObservation::Array, divided),
        Operand::Int(0),
    );
    let set = inline(Act::Set(b.p("P2"), int(0)));
    let main = b.comb("MAIN", Combinator::Cond, Some(c), [set, nop(), nop()]);
    let e = fail(&b.finish(main), "[4, 2]");
    assert_error(&e, codes::E0705, "division by zero", span(5));
}

#[test]
fn overflow_is_an_error() {
    let program = acts(EnvKind::Array, &[("P1", i64::MAX)], |b| {
        [Act::Nop, right(b.p("P1")), Act::Nop]
    });
    let e = fail(&program, "[]");
    assert_eq!((e.code, e.span()), (codes::E0703, Some(span(2))));
    let program = acts(EnvKind::Array, &[("P1", i64::MIN)], |b| {
        let negated = pos(PosKind::Neg(Box::new(b.ptr("P1"))));
        [Act::Set(b.p("P1"), negated), Act::Nop, Act::Nop]
    });
    assert_eq!(fail(&program, "[]").code, codes::E0703);
}

#[test]
fn the_step_budget_is_exact() {
    let program = bubblesort();
    assert_eq!(try_run(&program, "[2, 1]", 51).map(|o| o.steps), Ok(51));
    let e = try_run(&program, "[2, 1]", 50).expect_err("one step short");
    assert_eq!(
        (e.code, e.message.as_str()),
        (codes::E0701, "the program did not finish within 50 steps")
    );
    assert!(e.help.as_deref().is_some_and(|h| h.contains("--max-steps")));
    let e = try_run(&quicksort_normal(), "[2, 1]", 12).expect_err("normal steps count too");
    assert_eq!(e.code, codes::E0701);
}

#[test]
fn a_loop_that_changes_nothing_is_reported_at_once() {
    // BSTEP without RSHIFT: after one swap, rounds repeat unchanged.
    let mut b = Builder::new(EnvKind::Array, &[("P1", int(0)), ("P2", int(1))]);
    let (p1, p2) = (b.p("P1"), b.p("P2"));
    let c = cmp(
        CompareOp::Gt,
        val(ValueObservation::Array, b.ptr("P1")),
        val(ValueObservation::Array, b.ptr("P2")),
    );
    let compswap = b.comb(
        "COMPSWAP",
        Combinator::Cond,
        Some(c),
        [inline(Act::Swap(p1, p2)), nop(), nop()],
    );
    let c = cmp(
        CompareOp::Ne,
        val(ValueObservation::Array, b.ptr("P2")),
        Operand::End,
    );
    let bstep = b.comb(
        "BSTEP",
        Combinator::Linrec,
        Some(c),
        [call(compswap), nop(), nop()],
    );
    let e = fail(&b.finish(bstep), "[2, 1, 3]");
    assert_eq!(
        (e.code, e.message.as_str()),
        (
            codes::E0701,
            "`BSTEP` never finishes: its `linrec` starts over with nothing changed"
        )
    );

    // while P1 != END: pass
    let mut b = Builder::new(EnvKind::Array, &[("P1", int(0))]);
    let condition = cmp(CompareOp::Ne, Operand::Pos(b.ptr("P1")), Operand::End);
    let spin = b.normal(
        "SPIN",
        vec![Stmt::While {
            condition,
            body: vec![Stmt::Pass(Span::default())],
            span: span(9),
        }],
    );
    let e = fail(&b.finish(spin), "[1]");
    assert_error(
        &e,
        codes::E0701,
        "`SPIN` never finishes: its `while` loop starts over with nothing changed",
        span(9),
    );

    // def AGAIN(): AGAIN()
    let mut b = Builder::new(EnvKind::Array, &[("P1", int(0))]);
    let me = b.next_id();
    let again = b.normal("AGAIN", vec![Stmt::Call(me, span(4))]);
    let e = fail(&b.finish(again), "[]");
    assert_error(
        &e,
        codes::E0701,
        "`AGAIN` never finishes: its call to itself starts over with nothing changed",
        span(4),
    );
}

#[test]
#[cfg_attr(debug_assertions, ignore = "ten million calls: run with --release")]
fn runaway_recursion_is_stopped() {
    // def DIVE(): MOVE(P1, RIGHT); DIVE(); MOVE(P1, LEFT)
    let mut b = Builder::new(EnvKind::Array, &[("P1", int(0))]);
    let (p1, me) = (b.p("P1"), b.next_id());
    let body = vec![
        Stmt::Act(app(right(p1))),
        Stmt::Call(me, Span::default()),
        Stmt::Act(app(left(p1))),
    ];
    let dive = b.normal("DIVE", body);
    let e = fail(&b.finish(dive), "[]");
    assert_eq!(e.code, codes::E0704);
    assert!(
        e.message.contains(&symbolic::MAX_TASKS.to_string()),
        "{}",
        e.message
    );
}

#[test]
fn normal_programs_and_appliers_call_each_other() {
    // def OUT2(): OUT(P1); RSHIFT          (a normal program calling an applier)
    // def RSHIFT: seq(; MOVE(P1, RIGHT), NOP, NOP)
    // def MAIN: linrec(A[P1] != END?; OUT2, NOP, NOP)   (an applier calling it)
    let mut b = Builder::new(EnvKind::Array, &[("P1", int(0))]);
    let p1 = b.p("P1");
    let rshift = b.seq("RSHIFT", [inline(right(p1)), nop(), nop()]);
    let out2 = b.normal(
        "OUT2",
        vec![
            Stmt::Act(app(Act::Out(p1))),
            Stmt::Call(rshift, Span::default()),
        ],
    );
    let c = cmp(
        CompareOp::Ne,
        val(ValueObservation::Array, b.ptr("P1")),
        Operand::End,
    );
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

fn trace(program: &Program, input: &str) -> (String, u64) {
    let mut out = Vec::new();
    let state = env::parse_input(program.env, input).expect("valid input");
    let options = RunOptions {
        max_steps: u64::MAX,
        trace: Some(&mut out),
    };
    let steps = symbolic::run(program, state, options).expect("runs").steps;
    (String::from_utf8(out).expect("UTF-8"), steps)
}

#[test]
fn the_trace_shows_one_line_per_step_as_a_call_tree() {
    let (text, steps) = trace(&bubblesort(), "[2, 1]");
    assert_eq!(text.lines().count() as u64, steps);
    let start: Vec<&str> = text.lines().take(9).collect();
    assert_eq!(
        start,
        [
            "BUBBLESORT linrec c=1 → a1 BSTEP",
            "  BSTEP linrec c=1 → a1 COMPSWAP",
            "    COMPSWAP cond c=1 → a1 SWAP(P1, P2)",
            "    COMPSWAP cond c=0 → a2 NOP",
            "  BSTEP linrec c=1 → a2 RSHIFT",
            "    RSHIFT seq c=1 → a1 MOVE(P1, RIGHT)",
            "    RSHIFT seq c=1 → a2 MOVE(P2, RIGHT)",
            "    RSHIFT seq c=1 → a3 NOP",
            "  BSTEP linrec c=0 → self BSTEP",
        ]
    );
    let (text, _) = trace(&quicksort(), "[2, 1]");
    assert!(
        text.contains("  DIVIDE seq c=1 → a2 _push(pivot + 1, hi)\n"),
        "{text}"
    );
    assert!(
        text.contains("QUICKSORT treerec c=1 → _push_sentinel\n"),
        "{text}"
    );
    assert!(
        text.contains("  QUICKSORT _mapself c=1 → self QUICKSORT\n"),
        "{text}"
    );
    let (text, steps) = trace(&quicksort_normal(), "[2, 1]");
    assert_eq!(text.lines().count() as u64, steps);
    assert!(
        text.starts_with(
            "QUICKSORT: if c=1\nQUICKSORT: PARTITION()\n  PARTITION: SET(pivot, lo)\n"
        ),
        "{text}"
    );
    assert!(text.contains("\n  PARTITION: while c=1\n"), "{text}");
    assert!(
        text.contains("\nQUICKSORT: QUICKSORT(lo, pivot - 1)\n"),
        "{text}"
    );
}

/// `def R(): if A[P1] != END: MOVE(P1, RIGHT); R(); TAIL...`
fn walk(tail: Vec<Stmt>) -> Program {
    let mut b = Builder::new(EnvKind::Array, &[("P1", int(0))]);
    let (p1, me) = (b.p("P1"), b.next_id());
    let condition = cmp(CompareOp::Ne, Operand::Pos(b.ptr("P1")), Operand::End);
    let then = vec![Stmt::Act(app(right(p1))), Stmt::Call(me, Span::default())];
    let body = [
        vec![Stmt::If {
            condition,
            then,
            otherwise: vec![],
            span: Span::default(),
        }],
        tail,
    ]
    .concat();
    let walk = b.normal("R", body);
    b.finish(walk)
}

#[test]
fn the_trace_nests_recursion_but_not_tail_calls() {
    let (text, _) = trace(&walk(vec![]), "[5, 6]");
    let lines = "R: if c=1\nR: MOVE(P1, RIGHT)\nR: R()\n";
    assert_eq!(text, format!("{lines}{lines}R: if c=0\n"));
    let (text, _) = trace(&walk(vec![Stmt::Pass(Span::default())]), "[5]");
    let expected = "R: if c=1\nR: MOVE(P1, RIGHT)\nR: R()\n  R: if c=0\n  R: pass\nR: pass\n";
    assert_eq!(text, expected);
}

#[test]
fn outputs_read_well_as_text_and_json() {
    let outcome = run(&bubblesort(), "[3, 1, 2]");
    assert_eq!(
        outcome.to_text("symbolic"),
        format!(
            "A      [1, 2, 3]\noutput []\nsteps  {} (symbolic)\n",
            outcome.steps
        )
    );
    let outcome = run(&toposort(), r#"{"graph": [[1], []]}"#);
    assert_eq!(
        outcome.to_json("neural"),
        json!({"output": [1, 0], "steps": outcome.steps, "engine": "neural"})
    );
    assert_eq!(
        outcome.to_text("symbolic"),
        format!("output [1, 0]\nsteps  {} (symbolic)\n", outcome.steps)
    );
    let outcome = run(&addition(), r#"{"a": "1207", "b": "95"}"#);
    let text = "a      01207\nb      00095\ncarry  00110\nout    01302\nsum    1302\n";
    assert_eq!(
        outcome.to_text("symbolic"),
        format!("{text}steps  {} (symbolic)\n", outcome.steps)
    );
    assert_eq!(outcome.to_json("symbolic")["sum"], Value::from("1302"));
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

/// The E06xx fixtures of `tests/diagnostics` fail on their input alone, so
/// their input is checked here without the front end.
#[test]
fn input_fixtures_report_their_codes() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/diagnostics");
    let mut checked = 0;
    for entry in std::fs::read_dir(dir).expect("fixture folder") {
        let path = entry.expect("readable entry").path();
        let name = path
            .file_name()
            .expect("a file")
            .to_string_lossy()
            .into_owned();
        if !name.starts_with("E06") {
            continue;
        }
        let text = std::fs::read_to_string(&path).expect("readable fixture");
        let input = text
            .lines()
            .find_map(|l| l.strip_prefix("# input:"))
            .expect("an input header")
            .trim();
        let kind = text
            .lines()
            .find_map(|l| l.strip_prefix("env "))
            .and_then(|l| l.split('(').next())
            .and_then(EnvKind::from_name)
            .expect("an env line");
        let error = env::parse_input(kind, input).expect_err("the input is invalid");
        assert_eq!(error.code.0, &name[..5], "{name}: {}", error.message);
        checked += 1;
    }
    assert_eq!(checked, 6);
}
