//! Round trips of the code, and bad codes refused.

use super::*;
use cnpi::env;
use cnpi::operators::{ArithOp, CompareOp};
use cnpi::program::{
    Act, ActArg, BoolExpr, Color, Direction, EnvKind, Observation, Operand, PosExpr, PosKind,
    ValExpr,
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
