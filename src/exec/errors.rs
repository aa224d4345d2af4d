//! Runtime errors of the machine itself, as opposed to the environments':
//! a run that does not finish (E0701: the step budget ran out, or the
//! program provably repeats itself), a run that nests too deep (E0704),
//! one that outgrows its memory limit (E0708) and one stopped from outside
//! (E0709). Every engine reports them through these functions.

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

/// E0704: more than `limit` calls nested, at the call at `span` (of a
/// converted normal program, whose callee is known by its frame only).
pub fn too_many_calls(limit: usize, span: Span) -> Diagnostic {
    Diagnostic::error(
        codes::E0704,
        format!("the program nested more than {limit} calls without returning"),
    )
    .with_label(span, "this call is one too many")
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

/// E0708: the run's growing stores would hold `wanted` bytes, past the
/// `limit` (`--max-memory`), at `span`.
pub fn out_of_memory(limit: usize, wanted: usize, span: Span) -> Diagnostic {
    Diagnostic::error(
        codes::E0708,
        format!(
            "the run would hold more than {} of calls and stacks ({wanted} bytes, past the {limit} allowed)",
            mebibytes(limit)
        ),
    )
    .with_label(span, "growing here")
    .with_help("check that every recursion reaches its base case; if the run needs more, raise `--max-memory`")
}

/// E0708: the run's growing stores and the trace recorded of it would
/// hold `wanted` bytes, past the `limit` (`--max-memory`).
pub fn trace_out_of_memory(limit: usize, wanted: usize) -> Diagnostic {
    Diagnostic::error(
        codes::E0708,
        format!(
            "the run and its trace would hold more than {} ({wanted} bytes, past the {limit} allowed)",
            mebibytes(limit)
        ),
    )
    .with_help("trace fewer steps (`max_steps`), or raise `max_memory`")
}

/// E0709: the run was asked to stop from outside (Ctrl-C in Python).
pub fn interrupted() -> Diagnostic {
    Diagnostic::error(codes::E0709, "the run was interrupted")
}

/// `bytes` in words: `512 MiB`, `1.5 KiB`, `12 bytes`.
fn mebibytes(bytes: usize) -> String {
    match bytes {
        0..1024 => format!("{bytes} bytes"),
        1024..1_048_576 => format!("{:.1} KiB", bytes as f64 / 1024.0),
        _ if bytes == usize::MAX => "all the address space".to_string(),
        _ => format!("{:.1} MiB", bytes as f64 / 1_048_576.0),
    }
}
