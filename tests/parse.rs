//! Parser tests: one parse-tree snapshot per file of `tests/parse/`, the
//! depth limits, and a property that no input makes `parse` panic.

use cnpi::diagnostic::{Diagnostic, codes};
use cnpi::span::SourceId;
use cnpi::syntax::ast::{Applier, DefBody, ExprKind, File, Item, Stmt};
use cnpi::syntax::{MAX_DEPTH, parse};
use proptest::prelude::*;

/// What a snapshot shows: the tree and the diagnostics of one file.
#[derive(Debug)]
#[allow(dead_code)] // read through `Debug` only
struct Parsed {
    diagnostics: Vec<Diagnostic>,
    tree: File,
}

#[test]
fn parse_trees() {
    insta::glob!("parse/*.cnpi", |path| {
        let source = std::fs::read_to_string(path).expect("the fixture is readable UTF-8");
        let (tree, diagnostics) = parse(&source, SourceId::USER);
        insta::with_settings!({ snapshot_path => "parse/snapshots", prepend_module_to_snapshot => false }, {
            insta::assert_debug_snapshot!(Parsed { diagnostics, tree });
        });
    });
}

fn codes_of(diagnostics: &[Diagnostic]) -> Vec<&'static str> {
    diagnostics.iter().map(|d| d.code.0).collect()
}

/// Runs `test` on a thread with a stack of `mib` MiB.
fn with_stack(mib: usize, test: impl FnOnce() + Send + 'static) {
    std::thread::Builder::new()
        .stack_size(mib << 20)
        .spawn(test)
        .expect("the test thread starts")
        .join()
        .expect("the test thread does not panic");
}

/// Parses an `env` line and `def DEEP: cond(DETECTOR?; NOP, NOP, NOP)`.
fn parse_detector(detector: &str) -> (File, Vec<Diagnostic>) {
    let source = format!("env array(P1 = 0)\ndef DEEP: cond({detector}?; NOP, NOP, NOP)\n");
    parse(&source, SourceId::USER)
}

/// How deep the left spine of the detector of `DEEP` goes (0 if none).
fn detector_depth(file: &File) -> usize {
    let Some(Item::Def(def)) = file.items.get(1) else {
        return 0;
    };
    let DefBody::Applier(Applier::Combinator {
        detector: Some(detector),
        ..
    }) = &def.body
    else {
        return 0;
    };
    let mut depth = 0;
    let mut expr = detector;
    loop {
        expr = match &expr.kind {
            ExprKind::Not(inner) | ExprKind::Neg(inner) => inner,
            ExprKind::Arith(_, left, _) | ExprKind::Compare(_, left, _) => left,
            ExprKind::And(left, _) | ExprKind::Or(left, _) => left,
            _ => return depth,
        };
        depth += 1;
    }
}

#[test]
fn ten_thousand_levels_parse_on_an_8_mib_stack() {
    with_stack(8, || {
        let n = 10_000;
        let cases = [
            format!("{}P1 == 0{}", "(".repeat(n), ")".repeat(n)),
            format!("{}P1 == 0", "not ".repeat(n)),
            format!("P1{} == 0", " + P1".repeat(n)),
            format!("P1 == {}1", "-".repeat(n)),
            format!("{}P1 == 0", "P1 == 0 or ".repeat(n)),
        ];
        let depths = [1, n + 1, n + 1, 1, n + 1];
        for (detector, depth) in cases.iter().zip(depths) {
            let (file, diagnostics) = parse_detector(detector);
            assert!(diagnostics.is_empty(), "{diagnostics:?}");
            assert_eq!(detector_depth(&file), depth);
        }
    });
}

#[test]
fn ten_thousand_nested_ifs_parse_on_an_8_mib_stack() {
    with_stack(8, || {
        let n = 10_000;
        let mut source = String::from("env array(P1 = 0)\ndef F():\n");
        for level in 1..=n {
            source.push_str(&" ".repeat(level));
            source.push_str("if P1 < 3:\n");
        }
        source.push_str(&" ".repeat(n + 1));
        source.push_str("NOP\n");
        let (file, diagnostics) = parse(&source, SourceId::USER);
        assert!(diagnostics.is_empty(), "{diagnostics:?}");
        let Some(Item::Def(def)) = file.items.get(1) else {
            panic!("no def")
        };
        let DefBody::Normal(block) = &def.body else {
            panic!("not a normal program")
        };
        let mut depth = 0;
        let mut block = block;
        while let Some(Stmt::If { then, .. }) = block.first() {
            depth += 1;
            block = then;
        }
        assert_eq!(depth, n);
    });
}

#[test]
fn nesting_is_limited_to_max_depth() {
    with_stack(1024, || {
        // `SET(` adds one level to the unary minuses.
        let line = |minuses: usize| {
            format!(
                "env array(P1 = 0)\ndef D: SET(P1, {}1)\n",
                "-".repeat(minuses)
            )
        };
        let (file, diagnostics) = parse(&line(MAX_DEPTH - 1), SourceId::USER);
        assert!(diagnostics.is_empty(), "{diagnostics:?}");
        assert_eq!(file.items.len(), 2);
        let (file, diagnostics) = parse(&line(MAX_DEPTH), SourceId::USER);
        assert_eq!(codes_of(&diagnostics), vec![codes::E0008.0]);
        assert_eq!(file.items.len(), 1);
        let (file, diagnostics) = parse_detector(&"not ".repeat(5 * MAX_DEPTH));
        assert_eq!(codes_of(&diagnostics), vec![codes::E0008.0]);
        assert_eq!(file.items.len(), 1);
    });
}

#[test]
fn a_hundred_thousand_definitions_parse() {
    let mut source = String::from("env array(P1 = 0)\n");
    for i in 0..100_000 {
        source.push_str(&format!(
            "def D{i}: seq(; MOVE(P1, RIGHT), D{}, NOP)\n",
            i + 1
        ));
    }
    let (file, diagnostics) = parse(&source, SourceId::USER);
    assert!(diagnostics.is_empty());
    assert_eq!(file.items.len(), 100_001);
}

/// Pieces of source text that together reach every corner of the grammar.
const FRAGMENTS: &[&str] = &[
    "env",
    "state",
    "def",
    "if",
    "else",
    "elif",
    "while",
    "pass",
    "and",
    "or",
    "not",
    "act",
    "observe",
    "combinator",
    "detects",
    "x",
    "seq",
    "A",
    "0",
    "99999999999999999999",
    "==",
    "≠",
    "<",
    "<=",
    ">=",
    "+",
    "-",
    "*",
    "/",
    "%",
    "=",
    "(",
    ")",
    "[",
    "]",
    ",",
    ":",
    ";",
    "?",
    "->",
    " ",
    "  ",
    "\t",
    "\n",
    "\r\n",
    "\n  ",
    "\n    ",
    "# c\n",
    "$",
    "é",
    "&&",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn parse_never_panics(pieces in proptest::collection::vec(proptest::sample::select(FRAGMENTS), 0..80)) {
        let source = pieces.join(" ");
        let (_, diagnostics) = parse(&source, SourceId::USER);
        for diagnostic in &diagnostics {
            let span = diagnostic.span().expect("syntax diagnostics have a label");
            prop_assert!(span.start <= span.end && span.end <= source.len());
            prop_assert!(source.is_char_boundary(span.start) && source.is_char_boundary(span.end));
        }
    }

    #[test]
    fn parse_never_panics_on_glued_text(pieces in proptest::collection::vec(proptest::sample::select(FRAGMENTS), 0..80)) {
        let _ = parse(&pieces.concat(), SourceId::USER);
    }

    #[test]
    fn parse_never_panics_on_any_text(source in any::<String>()) {
        let _ = parse(&source, SourceId::USER);
    }
}
