//! The combinatorizer, tested against the reference interpreter.
//!
//! Every normal program of `examples/` and `examples/normal/` is converted,
//! the output must compile without diagnostics, and on random inputs
//! (arrays of length 0-64, DAGs, graphs, numbers) the normal program and
//! its combinatory form must end in the same environment and tape
//! (`steps` aside), also where the programs run on explicit frames (calls
//! in a loop, statements between calls). The outputs for the paper's three programs are snapshot-tested
//! and compared with the shape of its appendix listings; `random` converts
//! random programs.

#[path = "../inputs/mod.rs"]
mod inputs;
mod random;

use std::collections::HashSet;

use cnpi::combinatorize::{Combinatorized, combinatorize};
use cnpi::diagnostic::Diagnostic;
use cnpi::exec::Options;
use cnpi::program::print;
use cnpi::program::{Applier, Body, Callee, Combinator, Program};
use cnpi::symbolic;
use inputs::{dags, graphs, values};
use proptest::prelude::*;
use serde_json::{Value, json};

fn read(path: &str) -> String {
    let path = format!("{}/{path}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).expect("example exists")
}

/// Compiles text that must be free of diagnostics.
fn compile(name: &str, text: &str) -> Program {
    let compilation = cnpi::compile::compile(name, text, None);
    assert!(
        compilation.diagnostics.is_empty(),
        "{name}: {:?}\n{text}",
        compilation.diagnostics
    );
    compilation.program.expect("no errors")
}

/// The normal program at `path`, and its combinatory form (the value the
/// conversion hands back, which its printed text compiles to).
struct Pair {
    normal: Program,
    combinatory: Program,
    converted: Combinatorized,
}

fn convert(path: &str) -> Pair {
    let text = read(path);
    let normal = compile(path, &text);
    let converted = combinatorize(&normal, &text, path)
        .unwrap_or_else(|errors| panic!("{path} does not convert: {errors:?}"));
    cnpi::compile::printed_agrees(&converted, path)
        .unwrap_or_else(|error| panic!("{path}: {error:?}\n{}", converted.text));
    let combinatory = converted.program.clone();
    for def in &combinatory.defs {
        assert!(
            matches!(def.body, Body::Applier(_)),
            "{path}: `{}` is not an applier",
            def.name
        );
    }
    Pair {
        normal,
        combinatory,
        converted,
    }
}

fn codes(diagnostics: &[Diagnostic]) -> Vec<&str> {
    diagnostics.iter().map(|d| d.code.0).collect()
}

/// The final environment and tape; `steps` differ between the forms.
fn run(program: &Program, input: &Value) -> Value {
    let layout = cnpi::env::Declarations::of(program);
    let state = cnpi::env::read_input(&layout, &input.to_string()).expect("valid input");
    let options = Options {
        max_steps: 1_000_000_000,
        trace: None,
        limits: Default::default(),
    };
    let mut result = symbolic::run(program, state, options)
        .expect("runs without error")
        .to_json("symbolic");
    if let Some(object) = result.as_object_mut() {
        object.remove("steps");
    }
    result
}

/// Programs converted exactly: no warnings, and the same result on every
/// input.
fn check_exact(path: &str, inputs: impl Strategy<Value = Value>) {
    let pair = convert(path);
    assert_eq!(
        codes(&pair.converted.warnings),
        Vec::<&str>::new(),
        "{path}"
    );
    proptest!(|(input in inputs)| {
        prop_assert_eq!(run(&pair.normal, &input), run(&pair.combinatory, &input));
    });
}

fn arrays() -> impl Strategy<Value = Value> {
    values().prop_map(|v| json!(v))
}

const EXACT_ARRAY_PROGRAMS: &[&str] = &[
    "examples/bubblesort_normal.cnpi",
    "examples/quicksort_normal.cnpi",
    "examples/normal/bubblesort_rec.cnpi",
    "examples/normal/insertion_sort.cnpi",
    "examples/normal/selection_sort.cnpi",
    "examples/normal/reverse_loop.cnpi",
    "examples/normal/reverse_rec.cnpi",
    "examples/normal/heap_preorder.cnpi",
    "examples/normal/heap_inorder.cnpi",
    "examples/normal/heap_postorder.cnpi",
    "examples/normal/heap_preorder_moved.cnpi",
    "examples/normal/echo.cnpi",
    "examples/normal/findmax_mutual.cnpi",
    "examples/normal/quicksort_mutual.cnpi",
    "examples/normal/triangle.cnpi",
    "examples/normal/clean.cnpi",
];

#[test]
fn array_programs_behave_the_same() {
    for path in EXACT_ARRAY_PROGRAMS {
        check_exact(path, arrays());
    }
}

/// A state call from a program that does not recurse restores every
/// register, in the combinatory form as in the source: a `ram` run prints
/// them, so the whole output must agree.
#[test]
fn state_calls_from_a_driver_restore_registers() {
    let small = prop::collection::vec(-50i64..50, 0..12);
    check_exact(
        "tests/combinatorize/state_call_from_driver.cnpi",
        small.prop_map(|a| json!({ "A": a })),
    );
}

/// State calls in a loop whose program changes only registers (which
/// every state call puts back) run in reverse order unnoticed: no W0801,
/// and the same result.
#[test]
fn calls_in_a_loop_that_change_only_registers_are_exact() {
    let small = prop::collection::vec(-50i64..50, 0..8);
    check_exact(
        "tests/combinatorize/loop_calls_change_registers.cnpi",
        small.prop_map(|a| json!({ "A": a })),
    );
}

/// A condition between state calls that reads only a size converts (a
/// size is a constant), and exactly.
#[test]
fn a_size_read_between_state_calls_converts() {
    let small = prop::collection::vec(-50i64..50, 0..12);
    check_exact(
        "tests/combinatorize/size_after_call.cnpi",
        small.prop_map(|a| json!({ "A": a })),
    );
}

/// Nested `if`s joined into one `cond` (and those left nested) end as
/// the program as written does.
#[test]
fn nested_ifs_join_exactly() {
    let small = prop::collection::vec(-5i64..9, 0..6);
    check_exact(
        "tests/combinatorize/nested_if.cnpi",
        small.prop_map(|a| json!({ "A": a })),
    );
}

#[test]
fn addition_behaves_the_same() {
    let numbers = ("[0-9]{1,60}", "[0-9]{1,60}").prop_map(|(a, b)| json!({"a": a, "b": b}));
    check_exact("examples/normal/addition.cnpi", numbers);
}

#[test]
fn every_corpus_program_is_tested() {
    let tested: HashSet<String> = EXACT_ARRAY_PROGRAMS
        .iter()
        .chain(&[
            "examples/normal/addition.cnpi",
            "examples/normal/dfs_reachable.cnpi",
            "examples/normal/toposort.cnpi",
            "examples/normal/toposort_statecall.cnpi",
        ])
        .map(|p| p.to_string())
        .collect();
    let corpus = std::fs::read_dir(format!("{}/examples/normal", env!("CARGO_MANIFEST_DIR")))
        .expect("corpus folder");
    let mut count = 0;
    for entry in corpus {
        let name = entry
            .expect("entry")
            .file_name()
            .to_string_lossy()
            .into_owned();
        assert!(
            tested.contains(&format!("examples/normal/{name}")),
            "{name} is not tested"
        );
        count += 1;
    }
    assert!(count >= 15, "the corpus has {count} programs");
    let examples = std::fs::read_dir(format!("{}/examples", env!("CARGO_MANIFEST_DIR")))
        .expect("examples folder");
    for entry in examples {
        let path = entry.expect("entry").path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let has_normal = std::fs::read_to_string(&path).is_ok_and(|text| text.contains("():"));
        if has_normal {
            assert!(
                tested.contains(&format!("examples/{name}")),
                "{name} is not tested"
            );
        }
    }
}

/// The emitted vertices, as a list.
fn tape(result: &Value) -> Vec<usize> {
    serde_json::from_value(result["output"].clone()).expect("a tape of vertices")
}

/// Calls in a loop run where they are written (on frames): the DFS emits
/// the vertices reachable from 0 in the same order.
#[test]
fn dfs_with_calls_in_a_loop_runs_as_written() {
    let pair = convert("examples/normal/dfs_reachable.cnpi");
    assert!(pair.converted.warnings.is_empty());
    assert!(pair.converted.text.contains("_resume"));
    proptest!(|(graph in graphs())| {
        let input = json!({ "graph": graph });
        let (normal, combinatory) = (tape(&run(&pair.normal, &input)), tape(&run(&pair.combinatory, &input)));
        prop_assert_eq!(combinatory, normal);
    });
}

/// Both topological sorts emit every vertex once, after all its children,
/// in the same order as the normal program.
#[test]
fn toposorts_emit_valid_orders() {
    for path in [
        "examples/normal/toposort.cnpi",
        "examples/normal/toposort_statecall.cnpi",
    ] {
        let pair = convert(path);
        assert!(pair.converted.warnings.is_empty(), "{path}");
        proptest!(|(graph in dags())| {
            let input = json!({ "graph": graph });
            let written = tape(&run(&pair.normal, &input));
            prop_assert_eq!(&tape(&run(&pair.combinatory, &input)), &written);
            for program in [&pair.normal, &pair.combinatory] {
                let out = tape(&run(program, &input));
                let mut position = vec![usize::MAX; graph.len()];
                for (i, &v) in out.iter().enumerate() {
                    prop_assert_eq!(position[v], usize::MAX, "vertex {} emitted twice", v);
                    position[v] = i;
                }
                prop_assert_eq!(out.len(), graph.len());
                for (u, children) in graph.iter().enumerate() {
                    for &v in children {
                        prop_assert!(position[v] < position[u], "edge {}→{}", u, v);
                    }
                }
            }
        });
    }
}

/// The structure of the applier tree under `def`, references expanded:
/// `linrec(<detector>; a1, a2, a3)`. With `merge_pre`, a `treerec`'s `pre`
/// and `divide` are listed as one sequence of steps.
fn shape(program: &Program, def: usize, merge_pre: bool) -> String {
    match &program.defs[def].body {
        Body::Normal(_) | Body::Hole(_) => panic!("not an applier"),
        Body::Applier(Applier::Act(app)) => print::act(&app.act, &program.pointers),
        Body::Applier(Applier::Combinator {
            combinator,
            detector,
            args,
            ..
        }) => {
            let arg = |callee: &Callee| match callee {
                Callee::Def(id, _) => shape(program, *id, merge_pre),
                Callee::Act(app) => print::act(&app.act, &program.pointers),
            };
            let detector = format!("{detector:?}");
            let detector = strip_spans(&detector);
            if merge_pre && *combinator == Combinator::Treerec {
                let mut steps = steps_of(program, &args[0]);
                steps.extend(steps_of(program, &args[1]));
                let post = steps_of(program, &args[2]);
                return format!(
                    "treerec({detector}; [{}], [{}])",
                    steps.join(", "),
                    post.join(", ")
                );
            }
            let args: Vec<String> = args.iter().map(arg).collect();
            format!("{combinator:?}({detector}; {})", args.join(", "))
        }
    }
}

/// A sequence of steps: `seq`s flattened, `NOP`s left out.
fn steps_of(program: &Program, callee: &Callee) -> Vec<String> {
    match callee {
        Callee::Act(app) if app.act.name() == "NOP" => Vec::new(),
        Callee::Act(app) => vec![print::act(&app.act, &program.pointers)],
        Callee::Def(id, _) => match &program.defs[*id].body {
            Body::Applier(Applier::Combinator {
                combinator: Combinator::Seq,
                args,
                ..
            }) => args.iter().flat_map(|a| steps_of(program, a)).collect(),
            _ => vec![shape(program, *id, true)],
        },
    }
}

/// Debug output without the spans (`12..15@0`), which differ between files.
fn strip_spans(text: &str) -> String {
    let words: Vec<&str> = text
        .split_whitespace()
        .filter(|w| !w.contains('@'))
        .collect();
    words.join(" ")
}

fn entry_shape(program: &Program, merge_pre: bool) -> String {
    shape(program, program.entry, merge_pre)
}

/// The paper's bubble sort comes out exactly in the shape of its appendix
/// listing (as written in `examples/`). (Its traverse does not: the
/// listing makes the calls of the loop over the children after the loop,
/// in reverse, so the normal program as written runs on frames.) Quick sort's
/// `PARTITION` becomes the `treerec`'s `pre` (it comes before the first
/// call), where the paper puts it at the start of `divide`: the steps of
/// `pre` and `divide` together are the same.
#[test]
fn paper_programs_have_the_appendix_shape() {
    let cases = [
        (
            "examples/bubblesort_normal.cnpi",
            "examples/bubblesort.cnpi",
            false,
        ),
        (
            "examples/quicksort_normal.cnpi",
            "examples/quicksort.cnpi",
            true,
        ),
    ];
    for (normal, paper, merge_pre) in cases {
        let converted = convert(normal).combinatory;
        let paper = compile(paper, &read(paper));
        assert_eq!(
            entry_shape(&converted, merge_pre),
            entry_shape(&paper, merge_pre),
            "{normal}"
        );
    }
    let quicksort = convert("examples/quicksort_normal.cnpi").combinatory;
    let paper = compile("quicksort", &read("examples/quicksort.cnpi"));
    assert_ne!(entry_shape(&quicksort, false), entry_shape(&paper, false));
}

#[test]
fn paper_programs_snapshots() {
    for (name, path) in [
        ("bubblesort", "examples/bubblesort_normal.cnpi"),
        ("quicksort", "examples/quicksort_normal.cnpi"),
        ("toposort", "examples/normal/toposort.cnpi"),
    ] {
        insta::assert_snapshot!(name, convert(path).converted.text);
    }
}

/// More shapes, one snapshot each: `tests/combinatorize/*.cnpi`.
#[test]
fn fixture_snapshots() {
    insta::glob!("*.cnpi", |path| {
        let text = std::fs::read_to_string(path).expect("fixture is readable");
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let normal = compile(&name, &text);
        let converted = combinatorize(&normal, &text, &name).expect("converts");
        cnpi::compile::printed_agrees(&converted, &name).expect("the text compiles to the value");
        let warnings = codes(&converted.warnings).join(", ");
        insta::assert_snapshot!(format!("warnings: [{warnings}]\n{}", converted.text));
    });
}

/// The output is the same however often it is made.
#[test]
fn output_is_deterministic() {
    for path in EXACT_ARRAY_PROGRAMS {
        let text = read(path);
        let program = compile(path, &text);
        let first = combinatorize(&program, &text, path).expect("converts").text;
        let again = compile(path, &text);
        assert_eq!(
            first,
            combinatorize(&again, &text, path).expect("converts").text
        );
    }
}

#[test]
fn random_programs_convert_exactly_or_are_refused() {
    random::check();
}

/// Files of appliers only come out as the same program.
#[test]
fn appliers_are_kept() {
    for name in [
        "bubblesort",
        "quicksort",
        "toposort",
        "addition",
        "reachable",
    ] {
        let path = format!("examples/{name}.cnpi");
        let pair = convert(&path);
        assert_eq!(
            entry_shape(&pair.normal, false),
            entry_shape(&pair.combinatory, false),
            "{path}"
        );
        assert_eq!(
            pair.normal.defs.len(),
            pair.combinatory.defs.len(),
            "{path}"
        );
    }
}

/// A condition that is always false (W0102) is copied into the output, where
/// it draws the same warning: the conversion still succeeds, and runs as
/// the program as written does.
#[test]
fn a_condition_drawing_w0102_converts() {
    let text =
        "env array(i = 0)\n\ndef WALK():\n  while i + 1 <= END:\n    MOVE(i, RIGHT)\n  OUT(i)\n";
    let compilation = cnpi::compile::compile("w0102.cnpi", text, None);
    assert_eq!(codes(&compilation.diagnostics), ["W0102"]);
    let compiled = cnpi::compile::Compiled {
        program: compilation.program.expect("only a warning"),
        sources: compilation.sources,
        text: text.to_string(),
    };
    let (converted, combinatory) = cnpi::compile::convert(&compiled, "w0102.cnpi")
        .unwrap_or_else(|errors| panic!("does not convert: {errors:?}"));
    cnpi::compile::printed_agrees(&converted, "w0102.cnpi")
        .expect("the text compiles to the value");
    let input = json!([4, 5]);
    assert_eq!(
        run(&combinatory.program, &input)["output"],
        run(&compiled.program, &input)["output"]
    );
}

/// The round trip over every example: each file of `examples/` that
/// converts prints as text that compiles to the very program the
/// conversion handed back, spans included.
#[test]
fn every_example_prints_as_the_program_built() {
    let mut folders = vec![std::path::PathBuf::from(format!(
        "{}/examples",
        env!("CARGO_MANIFEST_DIR")
    ))];
    let mut checked = 0;
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).expect("examples folder") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                folders.push(path);
                continue;
            }
            if path.extension().is_none_or(|e| e != "cnpi") {
                continue;
            }
            let text = std::fs::read_to_string(&path).expect("example is readable");
            let name = path.display().to_string();
            let compilation = cnpi::compile::compile(&name, &text, None);
            let Some(program) = compilation.program else {
                continue;
            };
            let compiled = cnpi::compile::Compiled {
                program,
                sources: compilation.sources,
                text,
            };
            let Ok((converted, _)) = cnpi::compile::convert(&compiled, &name) else {
                continue;
            };
            if let Err(error) = cnpi::compile::printed_agrees(&converted, &name) {
                panic!("{name}: {error:?}");
            }
            checked += 1;
        }
    }
    assert!(checked >= 80, "only {checked} examples were checked");
}
