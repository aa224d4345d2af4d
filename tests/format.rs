//! The formatter (`cnpi::format`, `cnpic fmt`).
//!
//! Snapshots of messy inputs (`tests/format/*.cnpi`) pin the layout; each
//! output must be a fixed point. Then, over every program of `examples/`
//! (and `examples/normal/`), the combinatorized form of every normal
//! program, and the stdlib files: formatting is idempotent, the formatted
//! text compiles to the same checked program with the same diagnostics
//! (source positions aside), it runs to the same result on random inputs,
//! and a carelessly spaced and re-indented copy of the text formats to the
//! same output.

mod inputs;

use std::path::{Path, PathBuf};

use cnpi::compile::{Compiled, compile, convert};
use cnpi::exec::Options;
use cnpi::format::{format, positionless};
use cnpi::program::Program;
use cnpi::symbolic;
use cnpi::syntax::{self, ast};
use inputs::{dags, graphs, values};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use serde_json::json;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn messy_inputs_snapshots() {
    insta::glob!("format/*.cnpi", |path| {
        let text = std::fs::read_to_string(path).expect("fixture is readable");
        let shown = match format(&text) {
            Ok(formatted) => {
                assert_eq!(format(&formatted).as_ref(), Ok(&formatted), "a fixed point");
                formatted
            }
            Err(diagnostics) => {
                assert_ne!(path.file_name().unwrap(), "appliers.cnpi");
                let found: Vec<String> = diagnostics
                    .iter()
                    .map(|d| format!("[{}] {} at {:?}", d.code, d.message, d.span()))
                    .collect();
                format!("refused:\n{}\n", found.join("\n"))
            }
        };
        insta::assert_snapshot!(shown);
    });
}

/// Every `.cnpi` file under `dir`, sorted.
fn cnpi_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).expect("directory exists") {
        let path = entry.expect("readable entry").path();
        if path.is_dir() {
            files.extend(cnpi_files(&path));
        } else if path.extension().is_some_and(|e| e == "cnpi") {
            files.push(path);
        }
    }
    files.sort();
    files
}

/// A program to check: its name and text.
fn subjects() -> Vec<(String, String)> {
    let mut subjects = Vec::new();
    for path in cnpi_files(&root().join("examples")) {
        let name = path.strip_prefix(root()).unwrap().display().to_string();
        let text = std::fs::read_to_string(&path).expect("readable example");
        let compilation = compile(&name, &text, None);
        let program = compilation.program.expect("examples compile");
        let has_normal = text.contains("():");
        subjects.push((name.clone(), text.clone()));
        if has_normal {
            let compiled = Compiled {
                program,
                sources: compilation.sources,
                text,
            };
            if let Ok((converted, _)) = convert(&compiled, &name) {
                subjects.push((format!("{name} (combinatorized)"), converted.text));
            }
        }
    }
    subjects
}

#[test]
fn stdlib_files_are_fixed_points() {
    for file in cnpi::stdlib::files() {
        let formatted = format(file.text).expect("the stdlib parses");
        assert_eq!(format(&formatted), Ok(formatted.clone()), "{}", file.name);
    }
}

/// The name of the file's environment.
fn env_name(text: &str) -> String {
    let (tree, _) = syntax::parse(text, cnpi::span::SourceId::USER);
    tree.items
        .iter()
        .find_map(|item| match item {
            ast::Item::Env(env) => Some(env.kind.name.clone()),
            _ => None,
        })
        .expect("an env line")
}

/// Random inputs for an environment, as JSON text; `None` for an
/// environment this test does not know how to feed.
fn inputs_for(env: &str) -> Option<BoxedStrategy<String>> {
    Some(match env {
        "array" => values().prop_map(|v| json!(v).to_string()).boxed(),
        "graph" => prop_oneof![dags(), graphs()]
            .prop_map(|g| json!({ "graph": g }).to_string())
            .boxed(),
        "addition" => ("[0-9]{1,30}", "[0-9]{1,30}")
            .prop_map(|(a, b)| json!({ "a": a, "b": b }).to_string())
            .boxed(),
        _ => return None,
    })
}

/// A run's result, with errors by code and message (their spans point into
/// different texts).
fn run(program: &Program, input: &str) -> Result<serde_json::Value, String> {
    let describe = |d: cnpi::diagnostic::Diagnostic| format!("[{}] {}", d.code, d.message);
    let state = cnpi::env::parse_input(program.env, input).map_err(describe)?;
    let options = Options {
        max_steps: 1_000_000,
        trace: None,
        limits: Default::default(),
    };
    symbolic::run(program, state, options)
        .map(|outcome| outcome.to_json("symbolic"))
        .map_err(describe)
}

#[test]
fn formatting_keeps_every_program() {
    for (name, text) in subjects() {
        let formatted = format(&text).unwrap_or_else(|e| panic!("{name}: {e:?}"));
        assert_eq!(format(&formatted).as_ref(), Ok(&formatted), "{name}");
        let before = compile(&name, &text, None);
        let after = compile(&name, &formatted, None);
        assert_eq!(
            positionless(&before.diagnostics),
            positionless(&after.diagnostics),
            "{name}"
        );
        let (before, after) = (before.program.unwrap(), after.program.unwrap());
        assert_eq!(positionless(&before), positionless(&after), "{name}");
        let Some(inputs) = inputs_for(&env_name(&text)) else {
            continue;
        };
        let mut runner = TestRunner::new(Config::with_cases(24));
        runner
            .run(&inputs, |input| {
                prop_assert_eq!(run(&before, &input), run(&after, &input), "{}", name);
                Ok(())
            })
            .unwrap();
    }
}

/// `text` spaced and indented carelessly: every space in code becomes one
/// to three, a space may follow `(` and `,`, trailing spaces are added,
/// every blank line is doubled, and indentation is multiplied by
/// `indent` (consistently, so the blocks stay the same).
fn mess_up(text: &str, choices: &[u8], indent: usize) -> String {
    let mut choices = choices.iter().cycle();
    let mut pick = || *choices.next().unwrap_or(&0) as usize;
    let mut out = String::new();
    for line in text.lines() {
        if line.trim().is_empty() {
            out.push_str("\n\n");
            continue;
        }
        let content = line.trim_start();
        let leading = line.len() - content.len();
        out.push_str(&" ".repeat(leading * indent));
        let (code, comment) = content.split_at(content.find('#').unwrap_or(content.len()));
        // Inside a character literal (`'('`) every character stays.
        let mut quoted = false;
        for c in code.chars() {
            match c {
                '\'' => {
                    quoted = !quoted;
                    out.push(c);
                }
                _ if quoted => out.push(c),
                ' ' => out.push_str(&" ".repeat(1 + pick() % 3)),
                '(' | ',' => {
                    out.push(c);
                    out.push_str(&" ".repeat(pick() % 2));
                }
                _ => out.push(c),
            }
        }
        out.push_str(comment);
        out.push_str(&" ".repeat(pick() % 2));
        out.push('\n');
    }
    out
}

#[test]
fn messy_copies_format_the_same() {
    let subjects = subjects();
    let mut runner = TestRunner::new(Config::with_cases(64));
    let strategy = (
        0..subjects.len(),
        prop::collection::vec(any::<u8>(), 1..32),
        1usize..4,
    );
    runner
        .run(&strategy, |(i, choices, indent)| {
            let (name, text) = &subjects[i];
            let messy = mess_up(text, &choices, indent);
            let expected = format(text).expect("formats");
            prop_assert_eq!(format(&messy), Ok(expected), "{}\n{}", name, messy);
            Ok(())
        })
        .unwrap();
}
