//! Runtime errors: each ACT off its environment, zero divisors, overflow,
//! the step budget, loops that change nothing, runaway recursion, and the
//! input errors of the E06xx fixtures.

use super::*;

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
    let swapping = acts(kind("array"), &[("P1", 0), ("P2", 5)], |b| {
        [swap(b.p("P1"), b.p("P2")), Act::Nop, Act::Nop]
    });
    let e = fail(&swapping, "[1, 2, 3, 4, 5]");
    let message = "`SWAP` needs `P2` on the array, but `P2` = 5 reads as END (the array has 5 elements: 0..4)";
    assert_error(&e, codes::E0702, message, span(1));
    let output = acts(kind("array"), &[("p", 0)], |b| {
        [out(b.p("p")), left(b.p("p")), out(b.p("p"))]
    });
    let e = fail(&output, "[7]");
    let message =
        "`OUT` needs `p` on the array, but `p` = -1 reads as END (the array has 1 element: 0)";
    assert_error(&e, codes::E0702, message, span(3));
    let clearing = acts(kind("array"), &[("p", 0)], |b| {
        [clear(b.p("p")), Act::Nop, Act::Nop]
    });
    let message =
        "`CLEAR` needs `p` on the array, but `p` = 0 reads as END (the array has no elements)";
    assert_error(&fail(&clearing, "[]"), codes::E0702, message, span(1));
    let fine = acts(kind("array"), &[("p", 1)], |b| {
        [clear(b.p("p")), out(b.p("p")), out_ok()]
    });
    let outcome = run(&fine, "[4, 5]");
    assert_eq!(
        outcome.to_json("symbolic"),
        json!({"A": [4, -1], "output": [-1, "OK"], "steps": 3, "engine": "symbolic"})
    );
    let outclear = acts(kind("array"), &[("p", 0)], |b| {
        [outclear(b.p("p")), outclear(b.p("p")), right(b.p("p"))]
    });
    assert_eq!(
        run(&outclear, "[8, 9]").to_json("symbolic"),
        json!({"A": [-1, 9], "output": [8, -1], "steps": 3, "engine": "symbolic"})
    );
    let message =
        "`OUTCLEAR` needs `p` on the array, but `p` = 0 reads as END (the array has no elements)";
    assert_error(&fail(&outclear, "[]"), codes::E0702, message, span(1));
}

#[test]
fn graph_acts_at_a_non_vertex_are_errors() {
    for (k, act) in [paint(0, Color::Grey), emit(0), next_child(0)]
        .into_iter()
        .enumerate()
    {
        let name = act.name();
        let program = acts(kind("graph"), &[("v", 0)], |_| {
            [next_child(0), Act::Set(0, int(2 + k as i64)), act.clone()]
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
    let write = acts(kind("addition"), &[("i", 3)], |b| {
        [write_sum(b.p("i")), Act::Nop, Act::Nop]
    });
    let message = "`WRITE_SUM` needs `i` on a column, but `i` = 3 reads as END (the scratch pad has 3 columns: 0..2)";
    assert_error(
        &fail(&write, r#"{"a": "12", "b": "3"}"#),
        codes::E0702,
        message,
        span(1),
    );
    let carry = acts(kind("addition"), &[("i", 0)], |b| {
        [carry(b.p("i")), Act::Nop, Act::Nop]
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
fn a_condition_is_decided_at_its_first_step() {
    // cond(A[P1 / P2] > 0?; SET(P2, 0), NOP, NOP): the first step decides
    // (P2 = 1). The second step divides by the new P2 = 0; the condition no
    // longer matters there, so it repeats the first bit and the run ends.
    let mut b = Builder::new(kind("array"), &[("P1", int(0)), ("P2", int(1))]);
    let mut divided = arith(ArithOp::Div, b.ptr("P1"), b.ptr("P2"));
    divided.span = span(5);
    let c = cmp(CompareOp::Gt, val("A", divided), Operand::Int(0));
    let set = inline(Act::Set(b.p("P2"), int(0)));
    let main = b.comb(
        "MAIN",
        Combinator::Cond,
        Some(c.clone()),
        [set, nop(), nop()],
    );
    let outcome = run(&b.finish(main), "[4, 2]");
    assert_eq!(outcome.to_json("symbolic")["steps"], json!(2));
    // At the first step, the same division is the error it is.
    let mut b = Builder::new(kind("array"), &[("P1", int(0)), ("P2", int(0))]);
    let main = b.comb("MAIN", Combinator::Cond, Some(c), [nop(), nop(), nop()]);
    let e = fail(&b.finish(main), "[4, 2]");
    assert_error(&e, codes::E0705, "division by zero", span(5));
}

#[test]
fn overflow_is_an_error() {
    let program = acts(kind("array"), &[("P1", i64::MAX)], |b| {
        [Act::Nop, right(b.p("P1")), Act::Nop]
    });
    let e = fail(&program, "[]");
    assert_eq!((e.code, e.span()), (codes::E0703, Some(span(2))));
    let program = acts(kind("array"), &[("P1", i64::MIN)], |b| {
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
    let mut b = Builder::new(kind("array"), &[("P1", int(0)), ("P2", int(1))]);
    let (p1, p2) = (b.p("P1"), b.p("P2"));
    let c = cmp(CompareOp::Gt, val("A", b.ptr("P1")), val("A", b.ptr("P2")));
    let compswap = b.comb(
        "COMPSWAP",
        Combinator::Cond,
        Some(c),
        [inline(swap(p1, p2)), nop(), nop()],
    );
    let c = cmp(CompareOp::Ne, val("A", b.ptr("P2")), Operand::End);
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
    let mut b = Builder::new(kind("array"), &[("P1", int(0))]);
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
    let mut b = Builder::new(kind("array"), &[("P1", int(0))]);
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

/// A recursion without end stops with E0704 at the nesting limit (small
/// here, to stay quick): the call that would be the 101st nested one.
#[test]
fn runaway_recursion_is_stopped_at_the_nesting_limit() {
    // def DIVE(): MOVE(P1, RIGHT); DIVE(); MOVE(P1, LEFT)
    let mut b = Builder::new(kind("array"), &[("P1", int(0))]);
    let (p1, me) = (b.p("P1"), b.next_id());
    let body = vec![
        Stmt::Act(app(right(p1))),
        Stmt::Call(me, Span::default()),
        Stmt::Act(app(left(p1))),
    ];
    let dive = b.normal("DIVE", body);
    let limits = Limits {
        max_depth: 100,
        ..Limits::default()
    };
    let e = fail_within(&b.finish(dive), "[]", limits);
    assert_eq!(e.code, codes::E0704);
    assert_eq!(
        e.message,
        "the program nested more than 100 calls without returning"
    );
}

/// A normal program whose state calls recurse forever, with 501 pointers:
/// each call saves all of them, so the memory limit (1 MiB here) stops it
/// with E0708 long before the nesting limit.
#[test]
fn wide_endless_state_calls_are_stopped_by_the_memory_limit() {
    let pointers: Vec<String> = (0..501).map(|i| format!("p{i} = 0")).collect();
    let text = format!(
        "env array({})\nstate(p0)\n\ndef DIVE():\n  if p0 >= 0:\n    DIVE(p0 + 1)\n  NOP\n",
        pointers.join(", ")
    );
    let program = cnpi::compile::compile("wide.cnpi", &text, None)
        .program
        .expect("compiles");
    let limits = Limits {
        max_memory: 1 << 20,
        ..Limits::default()
    };
    let e = fail_within(&program, "[]", limits);
    assert_eq!(e.code, codes::E0708);
    assert!(
        e.message
            .starts_with("the run would hold more than 1.0 MiB"),
        "{}",
        e.message
    );
}

/// The E06xx fixtures of `tests/diagnostics` fail on their input alone, so
/// their input is checked here without running (a `ram` program's input is
/// read against its declarations, so its fixture is compiled first).
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
        let program = cnpi::compile::compile(&name, &text, None).program;
        let layout = program
            .as_ref()
            .map_or_else(|| env::Declarations::none(kind), env::Declarations::of);
        let error = env::read_input(&layout, input).expect_err("the input is invalid");
        assert_eq!(error.code.0, &name[..5], "{name}: {}", error.message);
        checked += 1;
    }
    assert_eq!(checked, 9);
}
