//! Property tests of holes in normal programs (issues 29 and 30): a `?`
//! put in place of any word of the `ram` examples never makes the front
//! end panic, and a program that checks with holes is refused by every
//! engine (E1404); a hole filled from examples made by a random
//! expression gives a program that passes those examples (learned by the
//! one `learn` of every front end, `cnpi_rl::sketch::driver`).

use std::path::Path;

use cnpi::compile::{Compiled, compile, runnable};
use cnpi::diagnostic::codes;
use cnpi::env::{self, Declarations};
use cnpi::exec::Options;
use cnpi::symbolic;
use cnpi_neural::detector::Cache;
use cnpi_rl::sketch::Example;
use cnpi_rl::sketch::driver::{self, Request};
use proptest::prelude::*;

fn ram_examples() -> Vec<String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/ram");
    let mut texts: Vec<String> = std::fs::read_dir(dir)
        .expect("examples/ram")
        .filter_map(|e| std::fs::read_to_string(e.ok()?.path()).ok())
        .collect();
    texts.sort();
    texts
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn a_hole_anywhere_never_panics_and_never_runs(file in 0usize..64, word in 0usize..4096) {
        let texts = ram_examples();
        let text = &texts[file % texts.len()];
        // The byte ranges of the words (names and numbers) of the text.
        let mut words = Vec::new();
        let mut start = None;
        for (i, c) in text.char_indices().chain([(text.len(), ' ')]) {
            match (c.is_alphanumeric() || c == '_', start) {
                (true, None) => start = Some(i),
                (false, Some(s)) => {
                    words.push(s..i);
                    start = None;
                }
                _ => {}
            }
        }
        let range = words[word % words.len()].clone();
        let mut sketch = text.clone();
        sketch.replace_range(range, "?");
        let compilation = compile("sketch.cnpi", &sketch, None);
        if let Some(program) = compilation.program
            && !program.blanks.is_empty()
        {
            let refused = runnable(&program).err().map(|d| d[0].code);
            prop_assert_eq!(refused, Some(codes::E1404));
        }
    }

}

proptest! {
    // Each case runs a search (a few hundred fillings): few cases.
    #![proptest_config(ProptestConfig { cases: 16, ..ProptestConfig::default() })]

    #[test]
    fn a_filled_hole_passes_its_examples(
        expr in prop::sample::select(vec![
            "i", "n", "A[i]", "A[i] + 1", "n - i", "2 * A[i]", "A[i + 1] - A[i]", "n % 2", "A[i + 1] * i",
        ]),
        start in 0i64..3,
        arrays in prop::collection::vec(prop::collection::vec(-9i64..10, 4..7), 2..4),
    ) {
        let target = format!("env ram(i = {start})\ninput A[n]\nvar t = 0\n\ndef F():\n  t = {expr}\n");
        let sketch = format!("env ram(i = {start})\ninput A[n]\nvar t = 0\n\ndef F():\n  t = ?\n");
        let truth = compile("t.cnpi", &target, None).program.expect("the target compiles");
        let program = compile("s.cnpi", &sketch, None).program.expect("the sketch compiles");
        let layout = Declarations::of(&program);
        let examples: Vec<Example> = arrays
            .iter()
            .map(|a| {
                let json = serde_json::json!({ "A": a });
                let input = env::read_value(&layout, json.clone()).expect("reads");
                let options = Options { max_steps: 1000, trace: None, limits: Default::default() };
                let outcome = symbolic::run(&truth, input.clone(), options).expect("runs");
                let t = outcome.to_json("symbolic")["t"].clone();
                let mut output = serde_json::Map::new();
                output.insert("t".into(), t);
                Example { input, output, json }
            })
            .collect();
        let compilation = compile("s.cnpi", &sketch, None);
        let compiled = Compiled { program, sources: compilation.sources, text: sketch.clone() };
        let request = Request {
            seed: 1,
            method: None,
            trials: 20,
            episodes: 1_000,
            threads: 1,
            max_steps: 1000,
            check_runs: 20_000,
            made_by: "the test".into(),
        };
        let cache = Cache::located(|name| std::env::var_os(name));
        let report = driver::learn("s.cnpi", &compiled, examples.clone(), &request, cache, None)
            .expect("a sketch to learn");
        let completed = report.program.clone().expect("the target itself is a candidate");
        let learned = compile("l.cnpi", &completed, None).program.expect("the answer compiles");
        for example in &examples {
            let options = Options { max_steps: 1000, trace: None, limits: Default::default() };
            let outcome = symbolic::run(&learned, example.input.clone(), options).expect("runs");
            prop_assert!(example.matches(&outcome), "{completed}");
        }
        let summary = report.json(1);
        let to_answer = summary["to_answer"].as_u64().expect("a count");
        prop_assert!(to_answer >= 1 && to_answer as usize <= report.work);
    }
}
