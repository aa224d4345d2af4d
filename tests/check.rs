//! The checker end to end: source text through the parser and `check`.
//!
//! The paper's programs (language.md §8) must check and produce the IR the
//! interpreters expect; every fixture under `tests/diagnostics/` must raise
//! the code its name starts with; large and deeply nested files must check
//! quickly and without overflowing.

use cnpi::check::check;
use cnpi::diagnostic::{Diagnostic, has_errors};
use cnpi::program::{
    Act, ActArg, Applier, Body, BoolExpr, Callee, Color, Combinator, Operand, PosExpr, PosKind,
    Program, Stmt, SymExpr,
};
use cnpi::span::{SourceId, Span};
use cnpi::syntax::ast::{self, ArithOp, CompareOp};
use cnpi::syntax::parse;

fn run(source: &str, entry: Option<&str>) -> (Option<Program>, Vec<Diagnostic>) {
    let (file, diagnostics) = parse(source, SourceId::USER);
    assert!(!has_errors(&diagnostics), "parse errors: {diagnostics:#?}");
    check(&file, entry)
}

fn program(source: &str) -> Program {
    let (program, diagnostics) = run(source, None);
    assert!(
        diagnostics.is_empty(),
        "unexpected diagnostics: {diagnostics:#?}"
    );
    program.expect("a clean check gives a program")
}

fn codes(source: &str) -> Vec<&'static str> {
    let (program, diagnostics) = run(source, None);
    assert_eq!(program.is_some(), !has_errors(&diagnostics));
    diagnostics.iter().map(|d| d.code.0).collect()
}

fn def<'p>(program: &'p Program, name: &str) -> (usize, &'p Body) {
    let id = program
        .defs
        .iter()
        .position(|d| d.name == name)
        .unwrap_or_else(|| panic!("no definition `{name}`"));
    (id, &program.defs[id].body)
}

/// The parts of a combinator application.
fn combinator<'p>(
    program: &'p Program,
    name: &str,
) -> (Combinator, Option<&'p BoolExpr>, &'p [Callee; 3]) {
    match def(program, name).1 {
        Body::Applier(Applier::Combinator {
            combinator,
            detector,
            args,
            ..
        }) => (*combinator, detector.as_ref(), args),
        other => panic!("`{name}` is not a combinator application: {other:?}"),
    }
}

fn callee_def(callee: &Callee) -> Option<usize> {
    match callee {
        Callee::Def(id, _) => Some(*id),
        Callee::Act(_) => None,
    }
}

/// The name and arguments of an environment's ACT.
fn env_act(act: &Act) -> (&'static str, &[ActArg]) {
    match act {
        Act::Env(act) => (act.name(), act.args.as_slice()),
        other => panic!("not an ACT of the environment: {other:?}"),
    }
}

fn callee_act(callee: &Callee) -> &Act {
    match callee {
        Callee::Act(app) => &app.act,
        Callee::Def(..) => panic!("expected an ACT, found {callee:?}"),
    }
}

fn pos_kind(expr: &PosExpr) -> &PosKind {
    &expr.kind
}

const BUBBLE_SORT: &str = "\
env array(P1 = 0, P2 = 1, P3 = 0)

def COMPSWAP: cond(A[P1] > A[P2]?; SWAP(P1, P2), NOP, NOP)
def RSHIFT:   seq(; MOVE(P1, RIGHT), MOVE(P2, RIGHT), NOP)
def BSTEP:    linrec(A[P2] != END?; COMPSWAP, RSHIFT, NOP)
def LSHIFT:   linrec(A[P1] != END?; MOVE(P1, LEFT), MOVE(P2, LEFT), NOP)
def RESET:    seq(; LSHIFT, MOVE(P3, RIGHT), NOP)
def BUBBLESORT:
  linrec(A[P3] != END?; BSTEP, RESET, NOP)
";

const QUICK_SORT: &str = "\
env array(lo = 0, hi = LAST, pivot = 0, j = 0)
state(lo, hi)

def PRE_LOOP:  seq(; SET(pivot, lo), SET(j, lo), NOP)
def COMPSWAP:  cond(A[j] <= A[hi]?; SWAP(pivot, j), MOVE(pivot, RIGHT), NOP)
def LOOP:      linrec(j != hi?; COMPSWAP, MOVE(j, RIGHT), NOP)
def PARTITION: seq(; PRE_LOOP, LOOP, SWAP(pivot, hi))
def DIVIDE:    seq(; PARTITION, _push(pivot + 1, hi), _push(lo, pivot - 1))
def QUICKSORT: treerec(lo < hi?; NOP, DIVIDE, NOP)
";

const TOPO_SORT: &str = "\
env graph(u = 0, v = 0)
state(v)

def DIVIDE:   linrec(has_child(v)?; _push(child(v)), NEXT_CHILD(v), NOP)
def POST:     seq(; COLOR(v, BLACK), EMIT(v), NOP)
def TRAVERSE: treerec(color(v) == WHITE?; COLOR(v, GREY), DIVIDE, POST)
def VISIT:    seq(; SET(v, u), TRAVERSE, NOP)
def TOPOSORT: linrec(u != END?; VISIT, MOVE(u, RIGHT), NOP)
";

const NORMAL_QUICK_SORT: &str = "\
env array(lo = 0, hi = LAST, pivot = 0, j = 0)
state(lo, hi)

def PARTITION():
  SET(pivot, lo)
  SET(j, lo)
  while j != hi:
    if A[j] <= A[hi]:
      SWAP(pivot, j)
      MOVE(pivot, RIGHT)
    MOVE(j, RIGHT)
  SWAP(pivot, hi)

def QUICKSORT():
  if lo < hi:
    PARTITION()
    QUICKSORT(lo, pivot - 1)
    QUICKSORT(pivot + 1, hi)
";

#[test]
fn bubble_sort_checks_to_nested_linrecs() {
    let program = program(BUBBLE_SORT);
    assert_eq!(program.defs[program.entry].name, "BUBBLESORT");
    assert_eq!(program.pointers.len(), 3);
    assert_eq!(pos_kind(&program.pointers[1].init), &PosKind::Int(1));
    assert!(program.state.is_none());

    let (kind, detector, args) = combinator(&program, "COMPSWAP");
    assert_eq!(kind, Combinator::Cond);
    let Some(BoolExpr::Compare(CompareOp::Gt, Operand::Val(a), Operand::Val(b))) = detector else {
        panic!("COMPSWAP's detector is A[P1] > A[P2], got {detector:?}");
    };
    assert_eq!(
        (pos_kind(&a.at), pos_kind(&b.at)),
        (&PosKind::Pointer(0), &PosKind::Pointer(1))
    );
    assert_eq!(
        env_act(callee_act(&args[0])),
        ("SWAP", &[ActArg::Pointer(0), ActArg::Pointer(1)][..])
    );
    assert!(matches!(callee_act(&args[1]), Act::Nop));

    let (kind, detector, args) = combinator(&program, "BSTEP");
    assert_eq!(kind, Combinator::Linrec);
    assert!(matches!(
        detector,
        Some(BoolExpr::Compare(
            CompareOp::Ne,
            Operand::Val(_),
            Operand::End
        ))
    ));
    assert_eq!(callee_def(&args[0]), Some(def(&program, "COMPSWAP").0));
    assert_eq!(callee_def(&args[1]), Some(def(&program, "RSHIFT").0));

    let (kind, detector, args) = combinator(&program, "RSHIFT");
    assert_eq!(kind, Combinator::Seq);
    assert!(detector.is_none());
    assert!(matches!(
        callee_act(&args[1]),
        Act::Move(1, cnpi::program::Direction::Right)
    ));
}

#[test]
fn quick_sort_pushes_states() {
    let program = program(QUICK_SORT);
    assert_eq!(program.defs[program.entry].name, "QUICKSORT");
    assert_eq!(program.state, Some(vec![0, 1]));
    assert_eq!(pos_kind(&program.pointers[1].init), &PosKind::Last);

    let (kind, _, args) = combinator(&program, "DIVIDE");
    assert_eq!(kind, Combinator::Seq);
    let Act::Push(right) = callee_act(&args[1]) else {
        panic!("DIVIDE's second argument is a _push");
    };
    assert!(matches!(
        &right[0].kind,
        PosKind::Arith(ArithOp::Add, p, one)
            if p.kind == PosKind::Pointer(2) && one.kind == PosKind::Int(1)
    ));
    assert_eq!(right[1].kind, PosKind::Pointer(1));

    let (kind, detector, _) = combinator(&program, "QUICKSORT");
    assert_eq!(kind, Combinator::Treerec);
    assert!(matches!(
        detector,
        Some(BoolExpr::Compare(
            CompareOp::Lt,
            Operand::Pos(_),
            Operand::Pos(_)
        ))
    ));
    let (_, detector, _) = combinator(&program, "COMPSWAP");
    assert!(matches!(
        detector,
        Some(BoolExpr::Compare(
            CompareOp::Le,
            Operand::Val(_),
            Operand::Val(_)
        ))
    ));
}

#[test]
fn topological_sort_reads_the_graph() {
    let program = program(TOPO_SORT);
    assert_eq!(program.defs[program.entry].name, "TOPOSORT");
    assert_eq!(program.state, Some(vec![1]));

    let (_, detector, args) = combinator(&program, "DIVIDE");
    assert!(
        matches!(detector, Some(BoolExpr::Test(o, v)) if o.name == "has_child" && v.kind == PosKind::Pointer(1))
    );
    let Act::Push(states) = callee_act(&args[0]) else {
        panic!("DIVIDE pushes the child");
    };
    assert!(
        matches!(&states[0].kind, PosKind::Observe(o, v) if o.name == "child" && v.kind == PosKind::Pointer(1))
    );

    let (kind, detector, args) = combinator(&program, "TRAVERSE");
    assert_eq!(kind, Combinator::Treerec);
    assert!(matches!(
        detector,
        Some(BoolExpr::Compare(
            CompareOp::Eq,
            Operand::Sym(SymExpr::Observe(..)),
            Operand::Sym(SymExpr::Literal(Color::White, _))
        ))
    ));
    assert_eq!(
        env_act(callee_act(&args[0])),
        (
            "COLOR",
            &[ActArg::Pointer(1), ActArg::Color(Color::Grey)][..]
        )
    );
}

#[test]
fn normal_quick_sort_keeps_its_statements() {
    let program = program(NORMAL_QUICK_SORT);
    let (quicksort, body) = def(&program, "QUICKSORT");
    assert_eq!(program.entry, quicksort);
    let Body::Normal(statements) = body else {
        panic!("QUICKSORT is a normal program");
    };
    let [
        Stmt::If {
            then, otherwise, ..
        },
    ] = statements.as_slice()
    else {
        panic!("QUICKSORT is one if: {statements:?}");
    };
    assert!(otherwise.is_empty());
    let partition = def(&program, "PARTITION").0;
    assert!(matches!(then[0], Stmt::Call(id, _) if id == partition));
    let Stmt::StateCall(id, args, _) = &then[1] else {
        panic!("a state call, got {:?}", then[1]);
    };
    assert_eq!(*id, quicksort);
    assert_eq!(args[0].kind, PosKind::Pointer(0));
    let Body::Normal(partition) = def(&program, "PARTITION").1 else {
        panic!("PARTITION is a normal program");
    };
    assert!(matches!(partition[2], Stmt::While { .. }));
    assert!(matches!(partition[0], Stmt::Act(ref app) if matches!(app.act, Act::Set(2, _))));
}

#[test]
fn integer_arithmetic_is_folded() {
    let program = program(
        "env array(P1 = -1, P2 = 2 * 3 - 1, P3 = END)\n\
         def MAIN: seq(; SET(P1, P2 -1), SET(P3, -(4 / 3)), NOP)\n",
    );
    let inits: Vec<&PosKind> = program.pointers.iter().map(|p| &p.init.kind).collect();
    assert_eq!(inits, [&PosKind::Int(-1), &PosKind::Int(5), &PosKind::End]);
    let (_, _, args) = combinator(&program, "MAIN");
    let Act::Set(0, e) = callee_act(&args[0]) else {
        panic!("SET(P1, ...)");
    };
    assert!(matches!(&e.kind, PosKind::Arith(ArithOp::Sub, ..)));
    let Act::Set(2, e) = callee_act(&args[1]) else {
        panic!("SET(P3, ...)");
    };
    assert_eq!(e.kind, PosKind::Int(-1));
}

#[test]
fn overloads_are_chosen_by_shape() {
    let program = program("env array(P1 = 0)\ndef MAIN: seq(; OUT(P1), OUT(OK), NOP)\n");
    let (_, _, args) = combinator(&program, "MAIN");
    assert_eq!(
        env_act(callee_act(&args[0])),
        ("OUT", &[ActArg::Pointer(0)][..])
    );
    assert_eq!(env_act(callee_act(&args[1])), ("OUT", &[ActArg::Ok][..]));
    assert_eq!(codes("env array(P1 = 0)\ndef MAIN: OUT(LEFT)\n"), ["E0205"]);
}

#[test]
fn suggestions_and_notes() {
    let (_, diagnostics) = run(
        "env array(P1 = 0, P2 = 1)\n\
         def BSTEP: linrec(A[P2] != END?; NOP, NOP, NOP)\n\
         def MAIN: seq(; BSTPE, MOVE(P1, RIGTH), NOP)\n",
        None,
    );
    let helps: Vec<_> = diagnostics.iter().map(|d| d.help.as_deref()).collect();
    assert_eq!(
        helps,
        [Some("did you mean `BSTEP`?"), Some("did you mean `RIGHT`?")]
    );

    let (_, diagnostics) = run(
        "env array(v = 0)\ndef MAIN: cond(has_child(v)?; NOP, NOP, NOP)\n",
        None,
    );
    assert_eq!(diagnostics.len(), 1);
    assert!(
        diagnostics[0].notes[0].contains("`graph` environment"),
        "{diagnostics:#?}"
    );
}

#[test]
fn kind_errors_name_both_kinds() {
    let (_, diagnostics) = run("env array(P1 = 0)\ndef MAIN: seq(; P1, NOP, NOP)\n", None);
    assert_eq!(diagnostics.len(), 1);
    assert_eq!(
        diagnostics[0].message,
        "`P1` is a pointer, but a callable argument (an ACT or a definition) is expected here"
    );
}

#[test]
fn condition_type_errors() {
    let cases = [
        ("A[P1] + 1 == A[P2]", "E0302"),
        ("A[P1] == P2", "E0303"),
        ("A[P1] == WHITE", "E0303"),
        ("A[P1]", "E0301"),
        ("not P1", "E0305"),
        ("P1 / 0 == 1", "E0307"),
        ("(P1 != END) == (P2 != END)", "E0303"),
    ];
    for (condition, code) in cases {
        let source =
            format!("env array(P1 = 0, P2 = 1)\ndef MAIN: cond({condition}?; NOP, NOP, NOP)\n");
        assert_eq!(codes(&source), [code], "condition `{condition}`");
    }
    let fine = [
        "A[P1] == END",
        "A[P1] < 3",
        "-1 == P1",
        "P1 % 2 == 0 or A[P2 - 1] >= A[P1]",
    ];
    for condition in fine {
        let source =
            format!("env array(P1 = 0, P2 = 1)\ndef MAIN: cond({condition}?; NOP, NOP, NOP)\n");
        assert_eq!(codes(&source), [] as [&str; 0], "condition `{condition}`");
    }
    let graph =
        "env graph(v = 0)\ndef MAIN: cond(color(v) == END and child(v) != v?; NOP, NOP, NOP)\n";
    assert_eq!(codes(graph), [] as [&str; 0]);
}

#[test]
fn cycles_name_the_whole_cycle() {
    let (_, diagnostics) = run(
        "env array(P1 = 0)\n\
         def F: seq(; G, NOP, NOP)\n\
         def G: seq(; H, NOP, NOP)\n\
         def H: seq(; F, NOP, NOP)\n",
        None,
    );
    assert_eq!(diagnostics.len(), 1);
    assert_eq!(
        diagnostics[0].message,
        "cycle between appliers: `F → G → H → F`"
    );
    assert_eq!(diagnostics[0].labels.len(), 3);
    // Normal programs may recurse, and mix with appliers.
    let fine = "env array(P1 = 0)\n\
                def STEP: seq(; MOVE(P1, RIGHT), WALK, NOP)\n\
                def WALK():\n  if A[P1] != END:\n    STEP()\n\
                def MAIN():\n  WALK()\n";
    assert_eq!(codes(fine), [] as [&str; 0]);
}

#[test]
fn entry_choice() {
    let two = "env array(P1 = 0)\ndef F: MOVE(P1, LEFT)\ndef G: MOVE(P1, RIGHT)\n";
    assert_eq!(codes(two), ["E0504"]);
    let (program, diagnostics) = run(two, Some("G"));
    assert_eq!(program.map(|p| p.entry), Some(1));
    assert_eq!(
        diagnostics.iter().map(|d| d.code.0).collect::<Vec<_>>(),
        ["W0101"]
    );
    let (program, diagnostics) = run(two, Some("g"));
    assert!(program.is_none());
    assert_eq!(diagnostics[0].help.as_deref(), Some("did you mean `G`?"));
    // A self-reference does not make a definition used.
    let recursive =
        "env array(P1 = 0)\ndef WALK():\n  if A[P1] != END:\n    MOVE(P1, RIGHT)\n    WALK()\n";
    assert_eq!(program_entry(recursive), "WALK");
}

fn program_entry(source: &str) -> String {
    let program = program(source);
    program.defs[program.entry].name.clone()
}

/// The checker's codes: E01xx to E05xx and W01xx.
fn is_checker_code(name: &str) -> bool {
    matches!(
        name.get(..3),
        Some("E01" | "E02" | "E03" | "E04" | "E05" | "W01")
    )
}

#[test]
fn every_fixture_raises_its_code() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/diagnostics");
    let mut seen = 0;
    for entry in std::fs::read_dir(dir).expect("tests/diagnostics exists") {
        let path = entry.expect("readable entry").path();
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default()
            .to_string();
        if !is_checker_code(&name) || !name.ends_with(".cnpi") {
            continue;
        }
        let source = std::fs::read_to_string(&path).expect("readable fixture");
        let entry = source
            .lines()
            .find_map(|l| l.strip_prefix("# entry:"))
            .map(str::trim);
        let (_, diagnostics) = run(&source, entry);
        let code = &name[..5];
        assert!(
            diagnostics.iter().any(|d| d.code.0 == code),
            "{name} should raise {code}, got {diagnostics:#?}"
        );
        seen += 1;
    }
    assert!(seen >= 37, "only {seen} fixtures");
}

#[test]
fn every_code_has_a_fixture() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/diagnostics");
    let fixtures: Vec<String> = std::fs::read_dir(dir)
        .expect("tests/diagnostics exists")
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .collect();
    for (code, _) in cnpi::diagnostic::codes::ALL {
        // E0100 (an internal error) has no program that triggers it.
        if is_checker_code(code.0) && code.0 != "E0100" {
            assert!(
                fixtures.iter().any(|f| f.starts_with(code.0)),
                "no fixture for {code}"
            );
        }
    }
}

/// Runs `f` on a thread with the pipeline's 1 GiB stack.
fn on_big_stack(f: impl FnOnce() + Send + 'static) {
    std::thread::Builder::new()
        .stack_size(1 << 30)
        .spawn(f)
        .expect("spawn a checking thread")
        .join()
        .expect("the checking thread does not panic");
}

#[test]
fn a_hundred_thousand_definitions() {
    on_big_stack(|| {
        let n = 100_000;
        let mut source = String::from("env array(P1 = 0)\n");
        for i in 0..n - 1 {
            source.push_str(&format!(
                "def D{i}: seq(; D{}, MOVE(P1, RIGHT), NOP)\n",
                i + 1
            ));
        }
        source.push_str(&format!("def D{}: MOVE(P1, LEFT)\n", n - 1));
        let (file, diagnostics) = parse(&source, SourceId::USER);
        assert!(diagnostics.is_empty());
        let start = std::time::Instant::now();
        let (program, diagnostics) = check(&file, None);
        let elapsed = start.elapsed();
        assert!(diagnostics.is_empty());
        assert_eq!(program.map(|p| p.entry), Some(0));
        // Generous for a debug build; release is far below a second.
        assert!(elapsed.as_secs() < 10, "checking took {elapsed:?}");
    });
}

#[test]
fn ten_thousand_nested_conditions() {
    on_big_stack(|| {
        let depth = 10_000;
        let condition = format!("{}P1 != END{}", "(".repeat(depth), ")".repeat(depth));
        let nots = format!("{}P1 != END", "not ".repeat(depth));
        for condition in [condition, nots] {
            let source = format!(
                "env array(P1 = 0)\ndef MAIN: linrec({condition}?; MOVE(P1, RIGHT), NOP, NOP)\n"
            );
            assert_eq!(codes(&source), [] as [&str; 0]);
        }
    });
}

#[test]
fn error_nodes_raise_nothing_more() {
    let span = Span::new(SourceId::USER, 0, 1);
    let ident = |name: &str| ast::Ident {
        name: name.to_string(),
        span,
    };
    let error = ast::Expr {
        kind: ast::ExprKind::Error,
        span,
    };
    let nop = ast::Call {
        name: ident("NOP"),
        args: None,
        span,
    };
    let file = ast::File {
        items: vec![
            ast::Item::Env(ast::EnvDecl {
                kind: ident("array"),
                pointers: vec![ast::PointerInit {
                    name: ident("P1"),
                    init: error.clone(),
                }],
                span,
            }),
            ast::Item::Def(ast::Def {
                name: ident("MAIN"),
                params: Vec::new(),
                body: ast::DefBody::Applier(ast::Applier::Combinator {
                    combinator: ident("cond"),
                    detector: Some(error.clone()),
                    args: vec![
                        nop.clone(),
                        ast::Call {
                            name: ident("SET"),
                            args: Some(vec![error.clone(), error]),
                            span,
                        },
                        nop,
                    ],
                    span,
                }),
                span,
            }),
        ],
    };
    let (program, diagnostics) = check(&file, None);
    assert!(program.is_none());
    assert!(diagnostics.is_empty(), "{diagnostics:#?}");
}

#[test]
fn a_program_may_define_combinators_of_the_family() {
    let program = program(
        "env array(i = 0)\n\
         combinator repeat(step, a2, a3):\n    if c:\n        step\n        self\n    else:\n        NOP\n\
         def MAIN: repeat(i != END?; MOVE(i, RIGHT), NOP, NOP)\n",
    );
    let (kind, detector, _) = combinator(&program, "MAIN");
    assert_eq!(kind, Combinator::Defined(0));
    assert!(detector.is_some());
    let defined = &program.combinators.defined[0];
    assert_eq!(defined.name, "repeat");
    assert!(defined.reads_c);
    // A body that does not read `c` takes no detector, as `seq`.
    let both = "env array(i = 0)\ncombinator both(x, y, z):\n    x\n    y\n";
    assert!(
        codes(&format!(
            "{both}def MAIN: both(; MOVE(i, RIGHT), NOP, NOP)\n"
        ))
        .is_empty()
    );
    assert_eq!(
        codes(&format!("{both}def MAIN: both(i != END?; NOP, NOP, NOP)\n")),
        ["E0203"]
    );
}

/// `stdlib/full_set.cnpi` with `a1, a2, a3` renamed by position to `names`
/// (whole words only).
fn full_set_renamed(names: [&str; 3]) -> String {
    let text = include_str!("../stdlib/full_set.cnpi");
    let mut out = String::new();
    let mut word = String::new();
    for ch in text.chars() {
        if ch.is_ascii_alphanumeric() || ch == '_' {
            word.push(ch);
            continue;
        }
        let i = ["a1", "a2", "a3"].iter().position(|a| *a == word);
        out.push_str(i.map_or(word.as_str(), |i| names[i]));
        word.clear();
        out.push(ch);
    }
    out.push_str(&word);
    out
}

#[test]
fn every_member_of_the_full_set_is_a_combinator_a_program_may_define() {
    let members = cnpi::stdlib::full_set::full_set().expect("full_set.cnpi loads");
    assert_eq!(members.len(), 57);
    // `seq`, `cond` and `linrec` are the stdlib's names (E0110 in a
    // program): the program calls its copies `my_seq` and so on.
    let own = |name: &str| match name {
        "seq" | "cond" | "linrec" => format!("my_{name}"),
        other => other.to_string(),
    };
    for names in [["a1", "a2", "a3"], ["step", "then", "last"]] {
        let mut definitions = full_set_renamed(names);
        for basic in ["seq", "cond", "linrec"] {
            definitions = definitions.replace(
                &format!("combinator {basic}("),
                &format!("combinator my_{basic}("),
            );
        }
        // Each member applied once, with a detector when it branches, and
        // all of them run in a chain.
        let mut source = format!("env array(i = 0)\n{definitions}\n");
        for (k, member) in members.iter().enumerate() {
            let detector = if member.branches { "i != END?" } else { "" };
            let next = if k + 1 < members.len() {
                format!("RUN{}", k + 1)
            } else {
                "NOP".to_string()
            };
            source.push_str(&format!(
                "def USE{k}: {}({detector}; MOVE(i, RIGHT), NOP, NOP)\n\
                 def RUN{k}: seq(; USE{k}, {next}, NOP)\n",
                own(&member.name)
            ));
        }
        let program = program(&source);
        assert_eq!(program.combinators.defined.len(), 57);
        for (defined, member) in program.combinators.defined.iter().zip(members) {
            assert_eq!(defined.name, own(&member.name));
            assert_eq!(defined.behaviour, member.behaviour, "{}", member.name);
            assert_eq!(defined.reads_c, member.branches, "{}", member.name);
        }
    }
}

#[test]
fn bodies_outside_the_family_are_refused_with_e0111() {
    let outside = [
        // `a1` twice, and not in order.
        "    a1\n    a1\n",
        "    a2\n    a1\n",
        // `self` without a branch, before the end, in `else:`.
        "    a1\n    self\n",
        "    if c:\n        self\n        a1\n    else:\n        NOP\n",
        "    if c:\n        a1\n    else:\n        a2\n        self\n",
        // An argument in both branches; `NOP` beside a slot.
        "    if c:\n        a1\n    else:\n        a1\n",
        "    if c:\n        a1\n        NOP\n    else:\n        a2\n",
        // A fourth line without a branch; the stack machinery.
        "    a1\n    a2\n    a3\n    a3\n",
        "    if c:\n        _push_sentinel\n        a1\n    else:\n        a2\n",
    ];
    for body in outside {
        let source = format!("env array(i = 0)\ncombinator x(a1, a2, a3):\n{body}def MAIN: NOP\n");
        assert_eq!(codes(&source), ["E0111"], "{source}");
    }
}

#[test]
fn defined_combinators_are_checked_by_the_family_rule_and_their_names() {
    let body = "    a1\n";
    let define = |name: &str| format!("env array(i = 0)\ncombinator {name}(a1, a2, a3):\n{body}");
    let main = "def MAIN: NOP\n";
    // Outside the family.
    assert_eq!(
        codes("env array(i = 0)\ncombinator spin(a1, a2, a3):\n    a1\n    self\ndef MAIN: NOP\n"),
        ["E0111"]
    );
    // Clashing with the stdlib, with each other, or with a definition.
    assert_eq!(codes(&format!("{}{main}", define("linrec"))), ["E0110"]);
    let twice = format!("{}{}{main}", define("x"), &define("x")[17..]);
    assert_eq!(codes(&twice), ["E0108"]);
    assert_eq!(codes(&format!("{}def x: NOP\n", define("x"))), ["E0108"]);
    assert_eq!(codes(&format!("{}{main}", define("_x"))), ["E0109"]);
    // `act` and `observe` still belong to the stdlib.
    assert_eq!(
        codes("env array(i = 0)\nact JUMP(pointer)\ndef MAIN: NOP\n"),
        ["E0107"]
    );
}
