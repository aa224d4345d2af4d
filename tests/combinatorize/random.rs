//! Random normal programs: each one is converted exactly or refused.
//!
//! Programs are written from a string of random bytes (so that proptest
//! shrinks them): a `MAIN` and two programs `R` and `L` that call
//! themselves and each other, plainly or with states, in loops, branches
//! and straight lines. The combinatorizer must not panic; when it refuses,
//! every diagnostic is one of its own errors with a place in the source;
//! when it converts, the printed output compiles cleanly to the program
//! handed back (`compile::printed_agrees`) and, when it gave no warning,
//! that program runs to the same environment and tape as the normal
//! program on random arrays (where the normal program finishes without
//! error).

use cnpi::combinatorize::combinatorize;
use cnpi::exec::Options;
use cnpi::program::Program;
use cnpi::symbolic;
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use serde_json::Value;

const POINTERS: [&str; 3] = ["i", "j", "k"];
const POSITIONS: [&str; 8] = ["i", "j", "k", "i + 1", "j - 1", "2 * i + 1", "LAST", "0"];
const CONDITIONS: [&str; 8] = [
    "i < j",
    "i != END",
    "A[i] > A[j]",
    "A[k] <= A[i]",
    "k < LAST",
    "not i == j",
    "j != END and i < k",
    "A[j] == END",
];

/// Writes a program, making each choice from the next byte (0 when the
/// bytes run out, which ends blocks and recursion).
struct Writer<'a> {
    bytes: &'a [u8],
    at: usize,
    text: String,
}

impl Writer<'_> {
    fn pick(&mut self, n: usize) -> usize {
        let byte = self.bytes.get(self.at).copied().unwrap_or(0);
        self.at += 1;
        usize::from(byte) % n
    }

    fn one<'s>(&mut self, options: &[&'s str]) -> &'s str {
        options[self.pick(options.len())]
    }

    fn line(&mut self, indent: usize, text: &str) {
        self.text.push_str(&" ".repeat(indent));
        self.text.push_str(text);
        self.text.push('\n');
    }

    fn block(&mut self, indent: usize, depth: usize) {
        let count = 1 + self.pick(4);
        for _ in 0..count {
            self.stmt(indent, depth);
        }
    }

    fn stmt(&mut self, indent: usize, depth: usize) {
        let p = self.one(&POINTERS);
        let choice = if depth == 0 {
            self.pick(8)
        } else {
            self.pick(15)
        };
        let text = match choice {
            0 | 1 => format!("MOVE({p}, {})", self.one(&["LEFT", "RIGHT"])),
            2 => format!("SET({p}, {})", self.one(&POSITIONS)),
            3 => format!("SWAP({p}, {})", self.one(&POINTERS)),
            4 => format!("OUT({p})"),
            5 => self.one(&["OUT(OK)", "pass", "NOP"]).to_string(),
            6 => format!("R({}, {})", self.one(&POSITIONS), self.one(&POSITIONS)),
            7 => self.one(&["R()", "L()"]).to_string(),
            8..=10 => {
                let condition = self.one(&CONDITIONS);
                self.line(indent, &format!("if {condition}:"));
                self.block(indent + 2, depth - 1);
                if self.pick(2) == 1 {
                    self.line(indent, "else:");
                    self.block(indent + 2, depth - 1);
                }
                return;
            }
            11 | 12 => {
                let condition = self.one(&CONDITIONS);
                self.line(indent, &format!("while {condition}:"));
                self.block(indent + 2, depth - 1);
                let step = format!("MOVE({p}, {})", self.one(&["LEFT", "RIGHT"]));
                self.line(indent + 2, &step);
                return;
            }
            _ => format!("R({}, {})", self.one(&POSITIONS), self.one(&POSITIONS)),
        };
        self.line(indent, &text);
    }

    /// Work, state calls to `R` and branches holding them.
    fn recursive_block(&mut self, indent: usize, depth: usize) {
        let count = 1 + self.pick(5);
        for _ in 0..count {
            match self.pick(if depth == 0 { 6 } else { 8 }) {
                0..=2 => {
                    let work = self.one(&WORK);
                    self.line(indent, work);
                }
                3..=5 => {
                    let call = self.one(&SMALLER);
                    self.line(indent, call);
                }
                _ => {
                    let test = self.one(&TESTS);
                    self.line(indent, &format!("if {test}:"));
                    self.recursive_block(indent + 2, depth - 1);
                    if self.pick(2) == 1 {
                        self.line(indent, "else:");
                        self.recursive_block(indent + 2, depth - 1);
                    }
                }
            }
        }
    }

    /// `def NAME():` and a body, often one `if` around the rest.
    fn def(&mut self, name: &str) {
        self.line(0, &format!("def {name}():"));
        if self.pick(3) > 0 {
            let condition = self.one(&CONDITIONS);
            self.line(2, &format!("if {condition}:"));
            self.block(4, 2);
        } else {
            self.block(2, 2);
        }
    }
}

/// Half of the programs are anything the writer makes; the other half a
/// `treerec` shape: `R` recurses on smaller intervals, with work before,
/// between and after its state calls.
fn program_text(bytes: &[u8]) -> String {
    let mut writer = Writer {
        bytes,
        at: 0,
        text: "env array(i = 0, j = LAST, k = 0)\nstate(i, j)\n\n".into(),
    };
    writer.line(0, "def MAIN():");
    if writer.pick(2) == 0 {
        writer.block(2, 2);
        writer.def("R");
        writer.def("L");
    } else {
        writer.line(2, "R()");
        writer.line(0, "def R():");
        writer.line(2, "if i < j:");
        writer.recursive_block(4, 2);
    }
    writer.text
}

/// Smaller intervals, so that the recursion ends.
const SMALLER: [&str; 3] = ["R(i + 1, j)", "R(i, j - 1)", "R(i + 1, j - 1)"];
/// Work that reads and writes the array, the tape and `k`.
const WORK: [&str; 8] = [
    "OUT(i)",
    "OUT(OK)",
    "SWAP(i, j)",
    "SET(k, i)",
    "SET(k, j - 1)",
    "MOVE(k, RIGHT)",
    "OUT(k)",
    "MOVE(j, LEFT)",
];
const TESTS: [&str; 4] = ["A[i] < A[j]", "i + 1 < j", "k < j", "A[k] != END"];

fn run(program: &Program, input: &[i64], max_steps: u64) -> Option<Value> {
    let json = serde_json::to_string(input).ok()?;
    let state = cnpi::env::parse_input(program.env, &json).ok()?;
    let options = Options {
        max_steps,
        trace: None,
        limits: Default::default(),
    };
    let mut result = symbolic::run(program, state, options)
        .ok()?
        .to_json("symbolic");
    result.as_object_mut()?.remove("steps");
    Some(result)
}

pub fn check() {
    let cases = std::env::var("CNPI_RANDOM_PROGRAMS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(2000);
    let mut runner = TestRunner::new(Config::with_cases(cases));
    let strategy = (
        prop::collection::vec(any::<u8>(), 0..160),
        prop::collection::vec(prop::collection::vec(-3i64..3, 0..9), 4),
    );
    let exact = std::cell::Cell::new(0usize);
    let result = runner.run(&strategy, |(bytes, inputs)| {
        let text = program_text(&bytes);
        let compilation = cnpi::compile::compile("random.cnpi", &text, Some("MAIN"));
        // The writer may write a recursion with no way out: the checker
        // refuses it (E0505), and that is all there is to test.
        let endless = |d: &cnpi::diagnostic::Diagnostic| !d.is_error() || d.code.0 == "E0505";
        if compilation.program.is_none() && compilation.diagnostics.iter().all(endless) {
            return Ok(());
        }
        let Some(program) = compilation.program else {
            panic!(
                "the writer wrote a wrong program:\n{text}\n{:?}",
                compilation.diagnostics
            );
        };
        let converted = match combinatorize(&program, &text, "random.cnpi") {
            Err(diagnostics) => {
                for d in diagnostics.iter().filter(|d| d.is_error()) {
                    prop_assert!(d.code.0.starts_with("E080"), "{:?}\n{}", d, text);
                    prop_assert!(d.span().is_some(), "{:?}", d);
                }
                prop_assert!(diagnostics.iter().any(|d| d.is_error()));
                return Ok(());
            }
            Ok(converted) => converted,
        };
        let agrees = cnpi::compile::printed_agrees(&converted, "random.cnpi");
        prop_assert!(agrees.is_ok(), "{:?}\n{}\n{}", agrees, text, converted.text);
        let combinatory = &converted.program;
        if !converted.warnings.is_empty() {
            return Ok(());
        }
        for input in &inputs {
            if let Some(normal) = run(&program, input, 200_000) {
                exact.set(exact.get() + 1);
                let same = run(combinatory, input, 20_000_000);
                prop_assert_eq!(
                    Some(&normal),
                    same.as_ref(),
                    "input {:?}\n{}\n{}",
                    input,
                    text,
                    converted.text
                );
            }
        }
        Ok(())
    });
    if let Err(error) = result {
        panic!("{error}");
    }
    let exact = exact.get();
    assert!(
        exact > cases as usize / 4,
        "only {exact} runs were compared"
    );
}
