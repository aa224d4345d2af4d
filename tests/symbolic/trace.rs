//! What a run shows: the `--trace` call tree and the text and JSON output.

use super::*;

fn trace(program: &Program, input: &str) -> (String, u64) {
    let mut out = Vec::new();
    let state = env::parse_input(program.env, input).expect("valid input");
    let options = Options {
        max_steps: u64::MAX,
        trace: Some(Trace::to(&mut out)),
        limits: Default::default(),
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
    let mut b = Builder::new(kind("array"), &[("P1", int(0))]);
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
