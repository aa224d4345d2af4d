//! The front end never panics, and never fails silently.
//!
//! Random and mutated sources go through `compile`: each must give either a
//! program or at least one error diagnostic, and a program goes through
//! `combinatorize`, whose output must compile cleanly, and runs on the
//! reference interpreter under small limits (steps, nesting, memory),
//! ending or stopping with a coded error, never an internal one (issue
//! 47: deep recursion and limits). 10,000 cases per run by
//! default; set `CNPI_FUZZ_CASES` for more. Deep nesting and very large
//! files are compiled on a thread with the same large stack as `cnpic`.

use cnpi::combinatorize::combinatorize;
use cnpi::compile::{compile, runnable};
use cnpi::diagnostic::has_errors;
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};

/// Fragments that make mutations land on interesting syntax.
const FRAGMENTS: &[&str] = &[
    "(",
    ")",
    "[",
    "]",
    ":",
    ";",
    "?",
    ",",
    "\n",
    "\n  ",
    "\t",
    "#",
    " ",
    "def ",
    "env ",
    "state(",
    "seq(",
    "cond(",
    "linrec(",
    "treerec(",
    "_push(",
    "_pop",
    "NOP",
    "END",
    "LAST",
    "A[",
    "==",
    "!=",
    "<=",
    "≠",
    "≤",
    "≥",
    "-",
    "*",
    "/ 0",
    "%",
    "and ",
    "or ",
    "not ",
    "if ",
    "else:",
    "while ",
    "pass",
    "99999999999999999999",
    "0",
    "MOVE(P1, RIGHT)",
    "SWAP(",
    "é",
    "color(v)",
    "WHITE",
    "child(",
    "has_child(",
    "F()",
    "act ",
    "observe ",
    "combinator ",
];

fn seeds() -> Vec<String> {
    let dir = format!("{}/examples", env!("CARGO_MANIFEST_DIR"));
    let mut sources: Vec<String> = std::fs::read_dir(dir)
        .expect("examples exist")
        .flat_map(|e| {
            let path = e.unwrap().path();
            match std::fs::read_dir(&path) {
                Ok(folder) => folder.map(|e| e.unwrap().path()).collect(),
                Err(_) => vec![path],
            }
        })
        .map(|path| std::fs::read_to_string(path).unwrap())
        .collect();
    // Recursion without end, with results and without (issue 47), for
    // the runs under small limits.
    sources.extend(RECURSIONS.iter().map(|s| s.to_string()));
    sources.sort();
    sources
}

/// Programs that recurse without end on the empty input.
const RECURSIONS: [&str; 3] = [
    "env ram(i = 0)\nvar t = 0\n\ndef MAIN():\n  t = F(i)\n\ndef F(m):\n  if m < 0:\n    return 0\n  return F(m + 1) + 1\n",
    "env ram(i = 0)\n\ndef DIVE():\n  i = i + 1\n  if i >= 0:\n    DIVE()\n  i = i - 1\n",
    "env array(P1 = 0)\nstate(P1)\n\ndef DIVE():\n  if P1 >= 0:\n    DIVE(P1 + 1)\n  NOP\n",
];

#[derive(Debug, Clone)]
enum Edit {
    Delete(usize, usize),
    Insert(usize, usize),
    DuplicateLine(usize),
}

fn apply(source: &str, edits: &[Edit]) -> String {
    let mut chars: Vec<char> = source.chars().collect();
    for edit in edits {
        let at = |i: usize, len: usize| if len == 0 { 0 } else { i % (len + 1) };
        match *edit {
            Edit::Delete(i, n) => {
                let start = at(i, chars.len());
                let end = (start + n % 8).min(chars.len());
                chars.drain(start..end);
            }
            Edit::Insert(i, f) => {
                let start = at(i, chars.len());
                let fragment = FRAGMENTS[f % FRAGMENTS.len()];
                chars.splice(start..start, fragment.chars());
            }
            Edit::DuplicateLine(i) => {
                let text: String = chars.iter().collect();
                let lines: Vec<&str> = text.lines().collect();
                if !lines.is_empty() {
                    let k = i % lines.len();
                    let mut out = lines.clone();
                    out.insert(k, lines[k]);
                    chars = out.join("\n").chars().collect();
                }
            }
        }
    }
    chars.into_iter().collect()
}

fn edits() -> impl Strategy<Value = Vec<Edit>> {
    let edit = prop_oneof![
        (any::<usize>(), any::<usize>()).prop_map(|(i, n)| Edit::Delete(i, n)),
        (any::<usize>(), any::<usize>()).prop_map(|(i, f)| Edit::Insert(i, f)),
        any::<usize>().prop_map(Edit::DuplicateLine),
    ];
    prop::collection::vec(edit, 1..6)
}

/// Compiles, and combinatorizes what compiles and can run (every caller
/// refuses a program with holes first, with E1404): the output of a
/// conversion must compile without diagnostics, a refusal must be an error.
fn assert_clean_or_diagnosed(source: &str) {
    let compilation = compile("fuzz.cnpi", source, None);
    assert_eq!(
        compilation.program.is_some(),
        !has_errors(&compilation.diagnostics),
        "a program iff no errors, for:\n{source}"
    );
    if let Some(program) = compilation.program {
        if let Err(refusal) = runnable(&program) {
            assert!(has_errors(&refusal), "{source}");
            return;
        }
        run_within_small_limits(&program, source);
        match combinatorize(&program, source, "fuzz.cnpi") {
            Ok(converted) => {
                let output = compile("out.cnpi", &converted.text, None);
                assert!(
                    output.diagnostics.is_empty(),
                    "{source}\n{}",
                    converted.text
                );
            }
            Err(diagnostics) => assert!(has_errors(&diagnostics), "{source}"),
        }
    }
}

/// Runs `program` (compiled from `source`) on its environment's empty
/// input within small limits: it finishes, or stops with a coded error
/// that is not an internal one (E0799).
fn run_within_small_limits(program: &cnpi::program::Program, source: &str) {
    let layout = cnpi::env::Declarations::of(program);
    let empty = cnpi::env::empty_input(program.env);
    let Ok(state) = cnpi::env::read_input(&layout, empty) else {
        return;
    };
    let options = cnpi::exec::Options {
        limits: cnpi::exec::Limits {
            max_depth: 50,
            max_memory: 64 << 10,
            interrupt: None,
        },
        ..cnpi::exec::Options::steps(10_000)
    };
    if let Err(error) = cnpi::symbolic::run(program, state, options) {
        assert_ne!(
            error.code,
            cnpi::diagnostic::codes::E0799,
            "{error:?}\n{source}"
        );
    }
}

fn cases() -> u32 {
    std::env::var("CNPI_FUZZ_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(10_000)
}

#[test]
fn mutated_and_random_sources_never_panic() {
    let seeds = seeds();
    let config = Config {
        cases: cases(),
        failure_persistence: None,
        ..Config::default()
    };
    let mut runner = TestRunner::new(config);
    let strategy = prop_oneof![
        3 => (0..seeds.len(), edits()).prop_map(move |(s, e)| apply(&seeds[s], &e)),
        1 => prop::collection::vec(0..FRAGMENTS.len(), 0..40)
            .prop_map(|ids| ids.into_iter().map(|i| FRAGMENTS[i]).collect::<String>()),
        1 => any::<String>(),
    ];
    runner
        .run(&strategy, |source| {
            assert_clean_or_diagnosed(&source);
            Ok(())
        })
        .expect("every source compiles or is diagnosed");
}

/// Each endless recursion stops at the nesting limit (E0704), or at the
/// memory limit first (E0708) when each call saves much.
#[test]
fn endless_recursions_stop_at_a_limit() {
    use cnpi::diagnostic::codes;
    for (source, depth, memory, code) in [
        (RECURSIONS[0], 1_000, 1 << 20, codes::E0704),
        (RECURSIONS[1], 1_000, 1 << 20, codes::E0704),
        (RECURSIONS[2], 1_000, 1 << 20, codes::E0704),
        (RECURSIONS[0], 1_000_000, 1 << 20, codes::E0708),
    ] {
        let program = compile("r.cnpi", source, None).program.expect("compiles");
        let layout = cnpi::env::Declarations::of(&program);
        let empty = cnpi::env::empty_input(program.env);
        let state = cnpi::env::read_input(&layout, empty).expect("reads");
        let options = cnpi::exec::Options {
            limits: cnpi::exec::Limits {
                max_depth: depth,
                max_memory: memory,
                interrupt: None,
            },
            ..cnpi::exec::Options::steps(u64::MAX)
        };
        let error = cnpi::symbolic::run(&program, state, options).expect_err("stops");
        assert_eq!(error.code, code, "{error:?}\n{source}");
    }
}

/// Runs `f` on a thread with the stack `cnpic` uses.
fn on_big_stack(f: impl FnOnce() + Send + 'static) {
    std::thread::Builder::new()
        .stack_size(1 << 30)
        .spawn(f)
        .expect("thread starts")
        .join()
        .expect("no panic");
}

#[test]
fn ten_thousand_nested_conditions_compile() {
    on_big_stack(|| {
        let depth = 10_000;
        let nested = format!("{}P1 < 3{}", "(".repeat(depth), ")".repeat(depth));
        let nots = "not ".repeat(depth);
        let sum = vec!["P1"; depth].join(" + ");
        let source = format!(
            "env array(P1 = 0)\n\
             def A1: cond({nested}?; NOP, NOP, NOP)\n\
             def A2: cond({nots}P1 < 3?; A1, NOP, NOP)\n\
             def MAIN: cond({sum} < 3?; A2, NOP, NOP)\n"
        );
        let compilation = compile("deep.cnpi", &source, None);
        assert!(
            compilation.diagnostics.is_empty(),
            "{:?}",
            compilation.diagnostics
        );
        assert!(compilation.program.is_some());
    });
}

#[test]
fn ten_thousand_nested_blocks_compile() {
    on_big_stack(|| {
        let depth = 10_000;
        let mut source = String::from("env array(P1 = 0)\ndef MAIN():\n");
        for level in 1..=depth {
            source.push_str(&" ".repeat(level));
            source.push_str("if P1 < 3:\n");
        }
        source.push_str(&" ".repeat(depth + 1));
        source.push_str("MOVE(P1, RIGHT)\n");
        let compilation = compile("deep.cnpi", &source, None);
        assert!(
            compilation.diagnostics.is_empty(),
            "{:?}",
            compilation.diagnostics
        );
    });
}

#[test]
fn a_hundred_thousand_definitions_compile() {
    on_big_stack(|| {
        let count = 100_000;
        let mut source = String::from("env array(P1 = 0, P2 = 1)\n");
        source.push_str("def D0: MOVE(P1, RIGHT)\n");
        for i in 1..count {
            source.push_str(&format!(
                "def D{i}: cond(A[P1] > A[P2]?; D{}, SWAP(P1, P2), NOP)\n",
                i - 1
            ));
        }
        let compilation = compile("big.cnpi", &source, None);
        assert!(
            compilation.diagnostics.is_empty(),
            "{:?}",
            compilation.diagnostics[..1].to_vec()
        );
        let program = compilation.program.expect("no errors");
        assert_eq!(program.defs.len(), count);
        assert_eq!(program.defs[program.entry].name, format!("D{}", count - 1));
    });
}
