//! Every example runs on the network exactly as on the reference
//! interpreter (final environment, step count, or the same error), with the
//! exact caches and with the plain networks, on random inputs of lengths
//! 0 to 64 and on a few large ones.

use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use serde_json::json;

use super::inputs::{graphs, values};
use super::{compile, compile_text, memory_of, neural, reference};
use cnpi::program::Body;
use cnpi::program::EnvKind;

/// The examples written as appliers (normal programs need combinatorizing).
fn combinatory_examples() -> Vec<String> {
    let dir = std::path::Path::new(crate::ROOT).join("examples");
    let mut files: Vec<String> = std::fs::read_dir(dir)
        .expect("examples/ exists")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".cnpi"))
        .filter(|name| {
            let program = compile(name);
            program
                .defs
                .iter()
                .all(|d| matches!(d.body, Body::Applier(_)))
        })
        .collect();
    files.sort();
    files
}

/// The input strategy of an environment, as JSON text; an environment
/// without one here is run on its example input.
fn inputs(env: EnvKind) -> BoxedStrategy<String> {
    match env.name() {
        "array" => values().prop_map(|v| json!(v).to_string()).boxed(),
        "graph" => graphs()
            .prop_map(|g| json!({ "graph": g }).to_string())
            .boxed(),
        "addition" => ("[0-9]{1,64}", "[0-9]{1,64}")
            .prop_map(|(a, b)| json!({ "a": a, "b": b }).to_string())
            .boxed(),
        _ => Just(cnpi::env::environment(env).input.example.to_string()).boxed(),
    }
}

/// Every normal program of `examples/` and `examples/normal/`.
fn normal_examples() -> Vec<String> {
    let root = std::path::Path::new(crate::ROOT).join("examples");
    let mut files = Vec::new();
    for (dir, prefix) in [(root.clone(), ""), (root.join("normal"), "normal/")] {
        for entry in std::fs::read_dir(dir).expect("examples/ exists") {
            let name = entry
                .expect("entry")
                .file_name()
                .to_string_lossy()
                .into_owned();
            if name.ends_with(".cnpi") && !combinatory_examples().contains(&name) {
                files.push(format!("{prefix}{name}"));
            }
        }
    }
    files.sort();
    files
}

#[test]
fn normal_examples_run_on_the_network_after_combinatorizing() {
    let examples = normal_examples();
    assert!(examples.len() >= 10, "{examples:?}");
    for file in examples {
        let original = compile(&file);
        let converted = cnpi::combinatorize::combinatorize(&original, &super::source(&file), &file)
            .unwrap_or_else(|e| panic!("{file} combinatorizes: {e:?}"));
        let program = super::compile_text(&file, &converted.text);
        let memory = cnpi_neural::memory::Memory::with_program(
            &program,
            &file,
            &converted.text,
            super::SEED,
            &cnpi_neural::detector::Cache::none(),
        )
        .expect("the combinatorized program builds");
        let exact = converted.warnings.is_empty();
        let mut runner = TestRunner::new(Config::with_cases(16));
        let result = runner.run(&inputs(program.env), |input| {
            let expected = reference(&program, &input);
            prop_assert_eq!(&neural(&memory, 0, &input, true), &expected, "{}", input);
            prop_assert_eq!(&neural(&memory, 0, &input, false), &expected, "{}", input);
            if exact && let (Ok(run), Ok(normal)) = (&expected, reference(&original, &input)) {
                prop_assert_eq!(&run.state, &normal.state, "as written, on {}", input);
            }
            Ok(())
        });
        if let Err(failure) = result {
            panic!("{file}: {failure}");
        }
    }
}

#[test]
fn normal_programs_have_no_place_in_program_memory() {
    let file = "quicksort_normal.cnpi";
    let built = cnpi_neural::memory::Memory::with_program(
        &compile(file),
        file,
        &super::source(file),
        super::SEED,
        &cnpi_neural::detector::Cache::none(),
    );
    let error = built.expect_err("normal programs must be combinatorized first");
    assert_eq!(error.code, cnpi::diagnostic::codes::E1105);
    assert!(error.message.contains("QUICKSORT"), "{}", error.message);
}

#[test]
fn every_example_agrees_with_the_reference_on_random_inputs() {
    let examples = combinatory_examples();
    assert!(examples.len() >= 10, "{examples:?}");
    for file in examples {
        let (program, memory) = memory_of(&file);
        let mut runner = TestRunner::new(Config::with_cases(48));
        let result = runner.run(&inputs(program.env), |input| {
            let expected = reference(&program, &input);
            let cached = neural(&memory, 0, &input, true);
            let plain = neural(&memory, 0, &input, false);
            prop_assert_eq!(&cached, &expected, "{} cached on {}", file, input);
            prop_assert_eq!(&plain, &cached, "{} plain on {}", file, input);
            Ok(())
        });
        if let Err(failure) = result {
            panic!("{file}: {failure}");
        }
    }
}

/// Deterministic pseudo-random integers (xorshift).
fn random_array(n: usize, mut x: u64) -> Vec<i64> {
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x % 2_000_001) as i64 - 1_000_000
        })
        .collect()
}

/// A random DAG on `n` vertices with about `3n` edges (lower to higher).
fn random_dag(n: usize, seed: u64) -> Vec<Vec<usize>> {
    let draws = random_array(6 * n, seed);
    let mut children = vec![Vec::new(); n];
    for pair in draws.chunks_exact(2) {
        let (a, b) = (
            pair[0].unsigned_abs() as usize % n,
            pair[1].unsigned_abs() as usize % n,
        );
        if a < b && !children[a].contains(&b) {
            children[a].push(b);
        }
    }
    children
}

#[test]
fn large_inputs_agree_with_the_reference() {
    let cases = [
        ("quicksort.cnpi", json!(random_array(10_000, 7)).to_string()),
        ("bubblesort.cnpi", json!(random_array(300, 8)).to_string()),
        (
            "toposort.cnpi",
            json!({ "graph": random_dag(10_000, 9) }).to_string(),
        ),
        (
            "quicksort.cnpi",
            json!((0..2_000).collect::<Vec<i64>>()).to_string(),
        ),
    ];
    for (file, input) in cases {
        let (program, memory) = memory_of(file);
        let expected = reference(&program, &input).expect("the reference runs");
        assert_eq!(
            neural(&memory, 0, &input, true),
            Ok(expected.clone()),
            "{file} cached"
        );
        assert_eq!(
            neural(&memory, 0, &input, false),
            Ok(expected),
            "{file} plain"
        );
    }
}

#[test]
fn recursion_10_5_deep_runs_on_the_heap() {
    // A path 0 → 1 → ... → n-1: the depth-first search nests n treerec
    // activations. The test thread's stack is small, so this only passes
    // because the call stack lives on the heap.
    let n = 100_000;
    let path: Vec<Vec<usize>> = (0..n)
        .map(|v| if v + 1 < n { vec![v + 1] } else { vec![] })
        .collect();
    let input = json!({ "graph": path }).to_string();
    let (program, memory) = memory_of("toposort.cnpi");
    let expected = reference(&program, &input).expect("the reference runs");
    let run = std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(move || {
            (
                neural(&memory, 0, &input, true),
                neural(&memory, 0, &input, false),
            )
        })
        .expect("thread starts")
        .join()
        .expect("no stack overflow");
    let emitted = expected.state.to_json(0, "")["output"]
        .as_array()
        .map(Vec::len);
    assert_eq!(emitted, Some(n));
    assert_eq!(run.0, Ok(expected.clone()));
    assert_eq!(run.1, Ok(expected));
}

#[test]
fn runtime_errors_and_the_step_budget_match_the_reference() {
    let cases = [
        // SWAP off the array, division by zero in a condition, a loop
        // that never changes anything, overflow.
        (
            "env array(i = 0, j = 5)\ndef MAIN: seq(; SWAP(i, j), NOP, NOP)",
            "[1, 2]",
        ),
        (
            "env array(p = 0, q = 0)\ndef MAIN: cond(A[p / q] > 0?; OUT(p), NOP, NOP)",
            "[4]",
        ),
        (
            "env array(p = 0, q = 0)\ndef MAIN: cond(q != 0 and A[p / q] > 0?; OUT(p), NOP, NOP)",
            "[4]",
        ),
        (
            "env array(i = 0)\ndef LOOP: linrec(A[i] != END?; NOP, NOP, NOP)",
            "[1]",
        ),
        (
            "env array(i = 9223372036854775807)\ndef MAIN: seq(; MOVE(i, RIGHT), NOP, NOP)",
            "[]",
        ),
    ];
    for (text, input) in cases {
        let program = super::compile_text("error.cnpi", text);
        let memory = cnpi_neural::memory::Memory::with_program(
            &program,
            "error.cnpi",
            text,
            super::SEED,
            &cnpi_neural::detector::Cache::none(),
        )
        .expect("builds");
        let expected = reference(&program, input);
        for cached in [true, false] {
            assert_eq!(neural(&memory, 0, input, cached), expected, "{text}");
        }
    }
    let (_, memory) = memory_of("bubblesort.cnpi");
    let info = &memory.units[0];
    let state = cnpi::env::parse_input(info.declared.env, "[3, 2, 1]").expect("valid");
    let options = cnpi::exec::Options {
        max_steps: 10,
        trace: None,
        limits: Default::default(),
    };
    let error =
        super::on_network(&memory, 0, state, options, true).expect_err("10 steps are not enough");
    assert_eq!(error.code, cnpi::diagnostic::codes::E0701);
}

/// `n` pointers and a `treerec` that never stops: every level pushes a
/// sentinel that remembers all of them.
fn wide_endless_treerec(n: usize) -> String {
    let pointers: Vec<String> = (0..n).map(|i| format!("p{i} = 0")).collect();
    format!(
        "env array({})\nstate(p0)\n\ndef DIVIDE: seq(; _push(p0 + 1), NOP, NOP)\n\
         def DIVE: treerec(p0 >= 0?; NOP, DIVIDE, NOP)\n",
        pointers.join(", ")
    )
}

/// With 501 pointers a sentinel holds 4 KB, so ten million nested levels
/// would need 40 GB: the memory limit (`--max-memory`, 2 GiB by default)
/// stops the run first, on both engines, with E0708 (issue 47; each
/// engine counts its own stores, so the bytes in the message differ).
#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "hundreds of thousands of levels: run with --release"
)]
fn a_wide_endless_recursion_is_stopped_by_the_memory_limit() {
    let text = wide_endless_treerec(501);
    let program = compile_text("wide.cnpi", &text);
    let memory = cnpi_neural::memory::Memory::with_program(
        &program,
        "wide.cnpi",
        &text,
        super::SEED,
        &cnpi_neural::detector::Cache::none(),
    )
    .expect("builds");
    let expected = reference(&program, "[]").expect_err("never finishes");
    assert_eq!(expected.code, cnpi::diagnostic::codes::E0708);
    assert!(
        expected.message.contains("2048.0 MiB"),
        "{}",
        expected.message
    );
    for cached in [true, false] {
        let got = neural(&memory, 0, "[]", cached).expect_err("never finishes");
        assert_eq!(got.code, expected.code, "{}", got.message);
    }
}
