//! Round trips of the code, and bad codes refused.

use super::*;
use cnpi::env;
use cnpi::operators::{ArithOp, CompareOp};
use cnpi::program::{
    Act, ActArg, BoolExpr, Cell, Color, Data, DataKind, Direction, EnvKind, FrameAct, Observation,
    Operand, PosExpr, PosKind, ValExpr,
};
use cnpi::span::{SourceId, Span};

/// The registered observation called `name`.
fn observe(name: &str) -> &'static Observation {
    let all = env::all_observations();
    all.into_iter().find(|o| o.name == name).expect(name)
}

fn span(start: usize) -> Span {
    Span::new(SourceId::USER, start, start + 1)
}

fn e(kind: PosKind, at: usize) -> PosExpr {
    PosExpr {
        kind,
        span: span(at),
    }
}

#[test]
fn positions_round_trip_with_any_i64_and_their_spans() {
    for k in [0, 1, -1, (1 << 24) - 1, 1 << 24, i64::MIN, i64::MAX, -77] {
        let expr = e(
            PosKind::Arith(
                ArithOp::Sub,
                Box::new(e(PosKind::Pointer(2), 1)),
                Box::new(e(PosKind::Neg(Box::new(e(PosKind::Int(k), 3))), 2)),
            ),
            0,
        );
        let mut code = Code::default();
        code.position(&expr);
        let mut decoder = Decoder::new(&code.values, &code.spans, 3, &[]);
        assert_eq!(decoder.position(), Ok(expr), "{k}");
        assert!(decoder.finished());
    }
}

#[test]
fn conditions_and_acts_round_trip() {
    let at = |p| e(PosKind::Pointer(p), p);
    let condition = BoolExpr::Or(
        Box::new(BoolExpr::Not(Box::new(BoolExpr::Test(
            observe("has_child"),
            at(0),
        )))),
        Box::new(BoolExpr::Compare(
            CompareOp::Le,
            Operand::Val(ValExpr {
                observation: observe("sum"),
                at: at(1),
                span: span(9),
            }),
            Operand::Int(-5),
        )),
    );
    let mut code = Code::default();
    code.condition(&condition);
    let mut decoder = Decoder::new(&code.values, &code.spans, 2, &[]);
    assert_eq!(decoder.condition(), Ok(condition));

    let child = PosKind::Observe(observe("child"), Box::new(at(0)));
    let push = Act::Push(vec![at(1), e(child, 7)]);
    let graph = EnvKind::from_name("graph").expect("registered");
    let color = vec![ActArg::Pointer(1), ActArg::Color(Color::Black)];
    for act in [
        push,
        env::build_act(graph, "COLOR", color).expect("an ACT of graph"),
        Act::Move(0, Direction::Right),
    ] {
        let mut code = Code::default();
        code.act_arguments(&act);
        let mut decoder = Decoder::new(&code.values, &code.spans, 2, &[]);
        let kind = ActKind::of(&act).expect("a row");
        let decoded = decoder.act(kind, span(4)).expect("decodes");
        assert_eq!(decoded.act, act);
    }
    assert_eq!(ActKind::NOP.name(), "NOP");
    assert!(ActKind::all().any(|kind| kind.name() == "OUT(OK)"));
}

/// `write`, then an ACT of each other shape, with `sum` as a position.
fn acts(write: Act, sum: PosExpr) -> Vec<Act> {
    let at = |p| e(PosKind::Pointer(p), p);
    let child = PosKind::Observe(observe("child"), Box::new(at(0)));
    vec![
        write,
        Act::Set(1, sum.clone()),
        Act::Push(vec![at(1), e(child, 7), e(PosKind::Int(-3), 8)]),
        Act::Frame(
            FrameAct::Call,
            vec![e(PosKind::Int(2), 1), sum, e(PosKind::Resume, 2)],
        ),
        Act::Move(0, Direction::Right),
        Act::Nop,
    ]
}

/// The conversion cuts ACTs longer than a row into steps by its own count
/// of their numbers (`cnpi::combinatorize::numbers`): the count is what the
/// encoder writes.
#[test]
fn the_conversion_counts_the_numbers_the_encoder_writes() {
    let at = |p| e(PosKind::Pointer(p), p);
    let cell = |at: Vec<PosExpr>| Cell {
        data: 1,
        name: "M".into(),
        at,
        span: span(5),
    };
    let sum = e(
        PosKind::Arith(
            ArithOp::Add,
            Box::new(e(PosKind::Read(Box::new(cell(vec![at(0), at(1)]))), 2)),
            Box::new(e(PosKind::Neg(Box::new(e(PosKind::Int(1 << 40), 3))), 4)),
        ),
        6,
    );
    let ram = EnvKind::from_name("ram").expect("registered");
    let write = vec![
        ActArg::Place(cell(vec![sum.clone(), e(PosKind::End, 7)])),
        ActArg::Position(e(
            PosKind::Arith(
                ArithOp::Mul,
                Box::new(sum.clone()),
                Box::new(e(PosKind::Last, 8)),
            ),
            9,
        )),
    ];
    let write = env::build_act(ram, "WRITE", write).expect("an ACT of ram");
    for act in acts(write, sum) {
        let mut code = Code::default();
        code.act_arguments(&act);
        assert_eq!(
            cnpi::combinatorize::numbers(&act),
            code.values.len(),
            "{act:?}"
        );
    }
}

/// A code reads as an ACT's [`Readout`] exactly where decoding it gives
/// that ACT: on each ACT's own code, on every code with one number
/// changed, and against every other ACT.
#[test]
fn checking_a_code_agrees_with_decoding_it() {
    let at = |p| e(PosKind::Pointer(p), p);
    let cell = |at: Vec<PosExpr>, span_at| Cell {
        data: 1,
        name: "M".into(),
        at,
        span: span(span_at),
    };
    let data: Vec<Data> = ["t", "M"]
        .iter()
        .enumerate()
        .map(|(dims, name)| Data {
            name: name.to_string(),
            span: span(0),
            kind: DataKind::Input,
            dims: vec![e(PosKind::Int(0), 0); 2 * dims],
        })
        .collect();
    let read = e(PosKind::Read(Box::new(cell(vec![at(0), at(1)], 2))), 2);
    let sum = e(
        PosKind::Arith(
            ArithOp::Add,
            Box::new(read),
            Box::new(e(PosKind::Int(1 << 40), 3)),
        ),
        6,
    );
    let ram = EnvKind::from_name("ram").expect("registered");
    let graph = EnvKind::from_name("graph").expect("registered");
    let write = vec![
        ActArg::Place(cell(vec![sum.clone(), e(PosKind::End, 7)], 5)),
        ActArg::Position(e(PosKind::Neg(Box::new(e(PosKind::Last, 8))), 9)),
    ];
    let write = env::build_act(ram, "WRITE", write).expect("an ACT of ram");
    let mut acts = acts(write, sum);
    let color = vec![ActArg::Pointer(1), ActArg::Color(Color::Grey)];
    acts.push(env::build_act(graph, "COLOR", color).expect("an ACT of graph"));
    acts.push(Act::Move(0, Direction::Left));
    let readouts: Vec<(ActKind, Readout)> = acts
        .iter()
        .map(|act| {
            let mut code = Code::default();
            code.act_arguments(act);
            let kind = ActKind::of(act).expect("a row");
            let decoder = || Decoder::new(&code.values, &code.spans, 2, &data);
            let (app, readout) = Readout::of(decoder(), kind, span(4)).expect("reads");
            assert_eq!(app.act, *act, "round trip");
            (kind, readout)
        })
        .collect();
    let readout = |expected: &Act| {
        let at = acts.iter().position(|act| act == expected);
        &readouts[at.expect("listed")].1
    };
    let checks = |values: &[f32], spans: &[Span], kind, expected: &Act| {
        let decoder = Decoder::new(values, spans, 2, &data);
        let same = readout(expected).reads(decoder, kind, span(4));
        let mut decoder = Decoder::new(values, spans, 2, &data);
        let decoded = decoder.act(kind, span(4));
        let decodes = decoded.is_ok_and(|d| d.act == *expected) && decoder.finished();
        assert_eq!(same, decodes, "{values:?} against {expected:?}");
        same
    };
    for act in &acts {
        let mut code = Code::default();
        code.act_arguments(act);
        let kind = ActKind::of(act).expect("a row");
        let mut values = code.values.clone();
        values.extend([0.0; 3]);
        assert!(checks(&values, &code.spans, kind, act), "{act:?}");
        for other in acts.iter().filter(|other| *other != act) {
            assert!(!checks(&values, &code.spans, kind, other), "{act:?}");
        }
        for i in 0..values.len() {
            for change in [1.0, -1.0, 0.5, f32::NAN, 1e9] {
                let mut changed = values.clone();
                changed[i] += change;
                checks(&changed, &code.spans, kind, act);
            }
        }
        let mut spans = code.spans.clone();
        if let Some(first) = spans.first_mut() {
            *first = span(99);
            assert!(!checks(&values, &spans, kind, act), "{act:?}");
        }
        assert!(!checks(&values, &code.spans[..0], kind, act) || code.spans.is_empty());
    }
}

/// An integer written with four limbs where one number would do reads
/// to the same ACT, so it reads as the same readout; another span of the
/// ACT does not.
#[test]
fn a_readout_reads_the_data_not_the_numbers() {
    let act = Act::Set(1, e(PosKind::Int(5), 3));
    let mut code = Code::default();
    code.act_arguments(&act);
    assert_eq!(code.values, [1.0, 1.0, 5.0], "pointer, `Int`, the value");
    let kind = ActKind::of(&act).expect("a row");
    let decoder = || Decoder::new(&code.values, &code.spans, 2, &[]);
    let (app, readout) = Readout::of(decoder(), kind, span(4)).expect("reads");
    assert_eq!(app.act, act);
    let limbs = [1.0, 2.0, 5.0, 0.0, 0.0, 0.0];
    let mut long = Decoder::new(&limbs, &code.spans, 2, &[]);
    assert_eq!(long.act(kind, span(4)).map(|app| app.act), Ok(act));
    assert!(readout.reads(Decoder::new(&limbs, &code.spans, 2, &[]), kind, span(4)));
    assert!(!readout.reads(decoder(), kind, span(5)));
    assert!(!readout.reads(
        Decoder::new(&limbs[..5], &code.spans, 2, &[]),
        kind,
        span(4)
    ));
}

#[test]
fn bad_codes_are_errors_not_panics() {
    let spans = [span(0); 4];
    for values in [&[99.0][..], &[3.0, 5.0], &[1.0, 0.5], &[8.0, 3.0], &[]] {
        assert!(
            Decoder::new(values, &spans, 2, &[]).position().is_err(),
            "{values:?}"
        );
    }
    assert!(Decoder::new(&[3.0, 1.0], &[], 2, &[]).position().is_err());
    assert!(
        Decoder::new(&[f32::NAN], &spans, 2, &[])
            .condition()
            .is_err()
    );
}
