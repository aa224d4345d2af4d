//! Runtime errors of the environments (E07xx), shared by every engine.
//!
//! An ACT applied where its environment has nothing (E0702), a pointer
//! moved past the i64 range or arithmetic overflow (E0703), a zero divisor
//! (E0705), arithmetic on a read outside its array (E0706), a full output
//! tape (E0707), and an ACT the environment does not implement (E0799, which the
//! checker rules out). Each names the ACT, the pointer and its value, and
//! labels the ACT in the source. Also E1404, a hole reached by a run of a
//! sketch's filling.

use super::ActContext;
use crate::diagnostic::{Diagnostic, codes};
use crate::program::{ActApp, EvalError, PointerId};
use crate::span::Span;

/// Where an environment's ACTs work, for E0702 messages.
pub(super) struct Extent {
    /// "on the array", "on a vertex", "on a column".
    pub needs: &'static str,
    /// What an off-environment position is: "reads as END".
    pub verdict: &'static str,
    /// "the array has 5 elements: 0..4".
    pub describe: String,
}

/// "the array has 5 elements: 0..4" / "the array has 1 element: 0" / "the
/// array is empty".
pub(super) fn describe_extent(whole: &str, n: usize, singular: &str, plural: &str) -> String {
    match n {
        0 => format!("{whole} has no {plural}"),
        1 => format!("{whole} has 1 {singular}: 0"),
        _ => format!("{whole} has {n} {plural}: 0..{}", n - 1),
    }
}

/// E0702: the ACT of `ctx` needs pointer `p` inside the environment.
pub(super) fn off_environment(ctx: &ActContext, p: PointerId, extent: Extent) -> Diagnostic {
    let (value, name) = ctx.pointer(p);
    let act = ctx.app.act.name();
    Diagnostic::error(
        codes::E0702,
        format!(
            "`{act}` needs `{name}` {}, but `{name}` = {value} {} ({})",
            extent.needs, extent.verdict, extent.describe
        ),
    )
    .with_label(ctx.app.span, format!("`{name}` = {value} here"))
    .with_help(format!(
        "run `{act}` only where a condition such as `{name} != END` holds"
    ))
}

/// E0703: `MOVE` would take a pointer past the i64 range.
pub(super) fn move_overflow(app: &ActApp, name: &str, value: i64) -> Diagnostic {
    Diagnostic::error(
        codes::E0703,
        format!("`MOVE` takes `{name}` = {value} past the range of 64-bit integers"),
    )
    .with_label(app.span, format!("`{name}` = {value} here"))
    .with_help("positions are 64-bit integers; keep pointers near the data")
}

/// The diagnostic of an expression that could not be evaluated (E0705 for
/// a zero divisor, E0703 for overflow).
pub fn eval_error(error: EvalError) -> Diagnostic {
    match error {
        EvalError::DivisionByZero(span) => Diagnostic::error(codes::E0705, "division by zero")
            .with_label(span, "the divisor here is 0")
            .with_help("test the divisor first, e.g. `cond(P2 != 0?; ...)`"),
        EvalError::Overflow(span) => Diagnostic::error(
            codes::E0703,
            "arithmetic overflow: the result does not fit in a 64-bit integer",
        )
        .with_label(span, "this overflows")
        .with_help("positions are 64-bit integers; keep the numbers in this expression small"),
        EvalError::EndInArithmetic(span) => Diagnostic::error(
            codes::E0706,
            "arithmetic on END: this read is outside its array",
        )
        .with_label(span, "reads as END here")
        .with_help("END can only be compared; test the index first, as in `if i >= 0:`"),
        EvalError::Hole(span) => hole_reached(span),
        EvalError::Call(span) => {
            internal("a call inside an expression reached an engine that does not run calls")
                .with_label(span, "this call")
        }
    }
}

/// E0707: the output tape holds `limit` entries, and `app` writes one more.
pub(super) fn tape_full(limit: usize, app: &ActApp) -> Diagnostic {
    Diagnostic::error(
        codes::E0707,
        format!("the output tape is full: a run may write at most {limit} entries"),
    )
    .with_label(app.span, "writes one more here")
    .with_help("check that the loop writing the tape ends; its condition must change")
}

/// E0799: an ACT that the running environment does not implement. The
/// checker only admits ACTs the stdlib declares, so this is a bug.
pub(super) fn foreign_act(app: &ActApp, env: &str) -> Diagnostic {
    internal(format!(
        "`{}` is not an ACT of the {env} environment",
        app.act.name()
    ))
    .with_label(app.span, "applied here")
}

/// E0799: the interpreter reached a state that checked programs cannot.
pub fn internal(message: impl std::fmt::Display) -> Diagnostic {
    Diagnostic::error(codes::E0799, format!("internal error: {message}"))
        .with_note("this is a bug in cnpic or in its stdlib; please report it with the program")
}

/// E1404 at a hole an engine reached: `compile::runnable` keeps programs
/// with holes from every engine, so only a caller that skipped it (the
/// learner, running a sketch's filling) meets this.
pub fn hole_reached(span: Span) -> Diagnostic {
    Diagnostic::error(codes::E1404, "a hole cannot run")
        .with_label(span, "to be learned from examples")
}
