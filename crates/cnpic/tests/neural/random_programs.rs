//! Random combinatory programs run on the network exactly as on the
//! reference interpreter: same final environment and step count, or the
//! same diagnostic (off-array SWAPs, loops that never finish, the step
//! budget), with the caches and without.

use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use serde_json::json;

use super::SEED;
use cnpi::diagnostic::Diagnostic;
use cnpi::exec::{Options, Outcome};
use cnpi::symbolic;
use cnpi_neural::detector::Cache;
use cnpi_neural::memory::Memory;

const POINTERS: [&str; 3] = ["p", "q", "r"];
const BUDGET: u64 = 3_000;

fn pointer() -> impl Strategy<Value = &'static str> {
    prop::sample::select(&POINTERS[..])
}

fn position() -> impl Strategy<Value = String> {
    prop_oneof![
        pointer().prop_map(str::to_string),
        (-2i64..6).prop_map(|k| k.to_string()),
        Just("LAST".to_string()),
        Just("END".to_string()),
        (
            pointer(),
            prop::sample::select(&["+", "-", "*", "/", "%"][..]),
            1i64..4
        )
            .prop_map(|(p, op, k)| format!("{p} {op} {k}")),
    ]
}

/// A comparison of two positions, two values, or anything with END.
fn comparison() -> impl Strategy<Value = String> {
    let op = prop::sample::select(&["==", "!=", "<", "<=", ">", ">="][..]);
    let value = || position().prop_map(|e| format!("A[{e}]"));
    let sides = prop_oneof![
        (position(), position()),
        (value(), value()),
        (prop_oneof![position(), value()], Just("END".to_string())),
    ];
    (sides, op).prop_map(|((a, b), op)| format!("{a} {op} {b}"))
}

fn condition() -> impl Strategy<Value = String> {
    let leaf = comparison();
    leaf.prop_recursive(2, 6, 2, |inner| {
        prop_oneof![
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("({a}) and ({b})")),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("({a}) or ({b})")),
            inner.prop_map(|a| format!("not ({a})")),
        ]
    })
}

fn act() -> impl Strategy<Value = String> {
    prop_oneof![
        (pointer(), prop::sample::select(&["LEFT", "RIGHT"][..]))
            .prop_map(|(p, d)| format!("MOVE({p}, {d})")),
        (pointer(), pointer()).prop_map(|(p, q)| format!("SWAP({p}, {q})")),
        (pointer(), position()).prop_map(|(p, e)| format!("SET({p}, {e})")),
        pointer().prop_map(|p| format!("OUT({p})")),
        Just("OUT(OK)".to_string()),
        Just("NOP".to_string()),
        position().prop_map(|e| format!("_push({e})")),
    ]
}

/// One applier definition `Di`; arguments are ACTs or earlier definitions.
fn applier(i: usize) -> impl Strategy<Value = String> {
    let arg = if i == 0 {
        act().boxed()
    } else {
        prop_oneof![act(), (0..i).prop_map(|j| format!("D{j}"))].boxed()
    };
    let args = (arg.clone(), arg.clone(), arg);
    let comb = prop::sample::select(&["seq", "cond", "linrec", "treerec"][..]);
    (comb, condition(), args).prop_map(move |(comb, c, (a1, a2, a3))| {
        let detector = if comb == "seq" {
            String::new()
        } else {
            format!("{c}?")
        };
        format!("def D{i}: {comb}({detector}; {a1}, {a2}, {a3})")
    })
}

fn program() -> impl Strategy<Value = String> {
    (1usize..6).prop_flat_map(|n| {
        (0..n).map(applier).collect::<Vec<_>>().prop_map(|defs| {
            format!(
                "env array(p = 0, q = 1, r = LAST)\nstate(p)\n{}\n",
                defs.join("\n")
            )
        })
    })
}

fn reference(program: &cnpi::program::Program, input: &str) -> Result<Outcome, Diagnostic> {
    let state = cnpi::env::parse_input(program.env, input).expect("valid");
    let options = Options {
        max_steps: BUDGET,
        trace: None,
        limits: Default::default(),
    };
    symbolic::run(program, state, options)
}

#[test]
fn random_programs_agree_with_the_reference() {
    let values = prop::collection::vec(-3i64..4, 0..12).prop_map(|v| json!(v).to_string());
    let mut runner = TestRunner::new(Config::with_cases(600));
    let ran = std::cell::Cell::new(0);
    let result = runner.run(&(program(), values), |(text, input)| {
        // The last definition is the one nothing refers to for sure.
        let last = format!("D{}", text.matches("def ").count() - 1);
        let compilation = cnpi::compile::compile("random.cnpi", &text, Some(&last));
        let Some(program) = compilation.program else {
            // A random text may not check (say, `_push` in a file whose
            // treerec is unreachable is fine, but some are not); it says why.
            prop_assert!(cnpi::diagnostic::has_errors(&compilation.diagnostics));
            return Ok(());
        };
        let memory = Memory::with_program(&program, "random.cnpi", &text, SEED, &Cache::none())
            .expect("builds");
        let expected = reference(&program, &input);
        for cached in [true, false] {
            let state = cnpi::env::parse_input(program.env, &input).expect("valid");
            let options = Options {
                max_steps: BUDGET,
                trace: None,
                limits: Default::default(),
            };
            let got = super::on_network(&memory, 0, state, options, cached);
            prop_assert_eq!(&got, &expected, "cached={} on {}\n{}", cached, input, text);
        }
        ran.set(ran.get() + 1);
        Ok(())
    });
    if let Err(failure) = result {
        panic!("{failure}");
    }
    assert!(
        ran.get() >= 500,
        "only {} random programs compiled",
        ran.get()
    );
}
