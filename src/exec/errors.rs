//! Runtime errors of the machine itself, as opposed to the environments':
//! a run that does not finish (E0701: the step budget ran out, or the
//! program provably repeats itself) and a run that nests too deep
//! (E0704). Both engines report them through these functions.

use crate::diagnostic::{Diagnostic, codes};
use crate::span::Span;

/// E0701: `max_steps` steps were taken and the definition `name` (declared
/// at `at`) was still running.
pub fn out_of_steps(max_steps: u64, name: &str, at: Span) -> Diagnostic {
    Diagnostic::error(
        codes::E0701,
        format!(
            "the program did not finish within {max_steps} step{}",
            if max_steps == 1 { "" } else { "s" }
        ),
    )
    .with_label(at, format!("`{name}` was running when the budget ran out"))
    .with_help(
        "if the program only needs longer, raise the limit with `--max-steps N`; otherwise \
         look for a loop whose condition never becomes false",
    )
}

/// E0701: the definition `name` starts `what` over (the loop at `span`)
/// with nothing changed since it last started it, so it would repeat
/// forever.
pub fn never_finishes(name: &str, what: &str, span: Span) -> Diagnostic {
    Diagnostic::error(
        codes::E0701,
        format!("`{name}` never finishes: {what} starts over with nothing changed"),
    )
    .with_label(
        span,
        "this repeats without changing any pointer or any data",
    )
    .with_help(
        "each round must change something its condition reads, such as moving a pointer, \
         or the condition never becomes false",
    )
    .with_note("no step budget would be enough, so the run stopped early")
}

/// E0704: more than `limit` calls nested, entering the definition `name`
/// (declared at `at`).
pub fn too_deep(limit: usize, name: &str, at: Span) -> Diagnostic {
    Diagnostic::error(
        codes::E0704,
        format!("the program nested more than {limit} calls without returning"),
    )
    .with_label(at, format!("`{name}` was called here"))
    .with_help("check that every recursion reaches its base case")
}

/// E0704: the state stack grew past `limit` entries at the `_push` or
/// `_push_sentinel` at `span`.
pub fn too_many_states(limit: usize, span: Span) -> Diagnostic {
    Diagnostic::error(
        codes::E0704,
        format!("the state stack grew past {limit} entries"),
    )
    .with_label(span, "pushing here")
    .with_help("check that the states `_push` saves are taken off again by a `treerec`")
}

/// E0704: the values on a stack would pass `limit` bytes at `span` (a push
/// or a state call), saving `width` pointer values at a time.
pub fn stack_too_large(limit: usize, width: usize, span: Span) -> Diagnostic {
    Diagnostic::error(
        codes::E0704,
        format!(
            "the program's stacks grew past {} MiB of saved pointer values",
            limit >> 20
        ),
    )
    .with_label(span, format!("saving {width} value{} here", if width == 1 { "" } else { "s" }))
    .with_help("check that every recursion reaches its base case")
    .with_note("a sentinel or a state call saves every pointer, so each level of recursion costs one value per pointer")
}
