//! The combinatorizer's diagnostics: where Algorithm 3's forms cannot
//! express a program (E0801-E0806) or would not be exact (W0801-W0803),
//! which send the programs to frames and are never reported; what no form
//! can run (E0808, a recursion through an applier); and its own failure
//! (E0899). Each says why and what to write instead.

use crate::diagnostic::{Diagnostic, codes};
use crate::span::Span;

/// E0801: `F()` inside F, with more to do after it returns.
pub fn non_tail(def: &str, call: Span) -> Diagnostic {
    Diagnostic::error(
        codes::E0801,
        format!("`{def}` calls itself without a state, and not as its last step"),
    )
    .with_label(call, "the caller has more to do after this call returns")
    .with_help(format!(
        "`linrec` can only repeat at the end; give the call a state, `{def}(e1, ..., ek)` (with `state(...)`), so that it becomes a `treerec`, or make it the last statement of an `if` branch"
    ))
}

/// E0801: a plain recursive call in a program that also makes state calls.
pub fn plain_with_state(def: &str, call: Span) -> Diagnostic {
    Diagnostic::error(
        codes::E0801,
        format!("`{def}` calls itself both with and without a state"),
    )
    .with_label(call, "a call without a state")
    .with_help(format!(
        "a `treerec` recurses only through states: write this call as a state call too, `{def}(e1, ..., ek)`"
    ))
}

/// E0808: a cycle of calls that runs through an applier.
pub fn through_applier(head: &str, applier: &str, at: Span) -> Diagnostic {
    Diagnostic::error(
        codes::E0808,
        format!("`{head}` is part of a recursion that runs through the applier `{applier}`"),
    )
    .with_label(at, format!("`{applier}` leads back to `{head}` from here"))
    .with_help(
        "appliers are built bottom-up and cannot call back into normal programs that call them; write the whole cycle as normal programs",
    )
}

/// E0802: a state call to a member of the cycle that must be inlined.
pub fn state_call_in_cycle(head: &str, callee: &str, at: Span) -> Diagnostic {
    Diagnostic::error(
        codes::E0802,
        format!("cannot turn the mutual recursion of `{head}` and `{callee}` into one program"),
    )
    .with_label(at, format!("a state call to `{callee}`, which would have to be inlined into `{head}`"))
    .with_help(format!(
        "only a program's state calls to itself become pushes; make `{head}` call itself, or call `{callee}` without a state"
    ))
}

/// E0802: members of the cycle call each other without going through the
/// program being converted.
pub fn cycle_avoids_head(head: &str, caller: &str, at: Span) -> Diagnostic {
    Diagnostic::error(
        codes::E0802,
        format!("cannot inline the mutual recursion of `{head}`: `{caller}` recurses without it"),
    )
    .with_label(at, format!("this call keeps `{caller}` in a cycle that does not pass through `{head}`"))
    .with_help(format!(
        "inlining works when every cycle passes through `{head}`; merge the programs of the cycle into one that calls itself"
    ))
}

/// E0802: inlining would make a program too large.
pub fn inlining_too_large(head: &str, size: usize, limit: usize, at: Span) -> Diagnostic {
    Diagnostic::error(
        codes::E0802,
        format!("inlining the mutual recursion of `{head}` would make it too large"),
    )
    .with_label(at, format!("about {size} statements after inlining"))
    .with_help(format!(
        "at most {limit} statements are inlined; merge the programs of the cycle into one that calls itself"
    ))
}

/// E0803: a statement after a state call that the output must run before
/// the call's children; `changes`: what it changes of the environment
/// ("the environment", or the `ram` memory it writes).
pub fn moved_statement(at: Span, call: Span, changes: Option<&str>) -> Diagnostic {
    let why = match changes {
        Some(what) => format!(
            "it changes {what}, so its effect would come before the call's instead of after"
        ),
        None => "only pointer moves (`MOVE`, `SET`) can run before the calls' children unchanged"
            .to_string(),
    };
    Diagnostic::error(
        codes::E0803,
        "a statement after a recursive call would have to run before it",
    )
    .with_label(at, format!("runs after the call in the source; {why}"))
    .with_label(call, "the recursive call")
    .with_help(
        "the combinatory form pushes every state first and runs the calls after; move this statement before the first call or after the last one, or into the called program",
    )
}

/// E0803: moving a statement past another changes a pointer one reads.
pub fn moved_conflict(moved: Span, past: Span, pointer: &str) -> Diagnostic {
    Diagnostic::error(
        codes::E0803,
        format!("moving this statement before the recursive calls changes what they see of `{pointer}`"),
    )
    .with_label(moved, "runs first in the combinatory form")
    .with_label(past, format!("this reads or writes `{pointer}` in the source order"))
    .with_help(
        "the combinatory form runs the statements between state calls first and pushes the calls after, last call first; use a separate pointer for each call, or compute the positions before the first call",
    )
}

/// E0804: a condition or state argument after a recursive call that reads
/// the environment, which the call's children may change.
pub fn reads_environment(at: Span, call: Span) -> Diagnostic {
    Diagnostic::error(
        codes::E0804,
        "this reads the environment after a recursive call, which may change it",
    )
    .with_label(at, "would be read before the call's children run, not after")
    .with_label(call, "the earlier recursive call")
    .with_help(
        "in the combinatory form every state is pushed before any call runs; read what the decision needs before the first call, or decide inside the called program",
    )
}

/// E0805: tail recursion without a condition.
pub fn unconditional(def: &str, at: Span) -> Diagnostic {
    Diagnostic::error(
        codes::E0805,
        format!("`{def}` calls itself on every path, so it never finishes"),
    )
    .with_label(at, "not inside an `if`")
    .with_help(format!(
        "end `{def}` with `if CONDITION:` around the work and the call"
    ))
}

/// E0805: both branches of the final `if` recurse.
pub fn no_way_out(def: &str, at: Span) -> Diagnostic {
    Diagnostic::error(
        codes::E0805,
        format!("both branches of this `if` call `{def}` again, so it never finishes"),
    )
    .with_label(at, "no branch ends the recursion")
    .with_help("`linrec` repeats while its condition holds; let one branch end without the call")
}

/// E0805: a tail call nested under more conditions than `linrec` has.
pub fn nested_tail_call(def: &str, at: Span) -> Diagnostic {
    Diagnostic::error(
        codes::E0805,
        format!("`linrec` cannot express where `{def}` calls itself"),
    )
    .with_label(at, "the recursive call must be the last statement of a branch of the program's final `if`")
    .with_help(format!(
        "write `{def}` as `if CONDITION:` ... `{def}()` (one condition decides whether to go round again), or as a `while` loop"
    ))
}

/// E0806: state-call arguments that read the state pointers they set, in a
/// cycle.
pub fn circular_state_arguments(callee: &str, at: Span) -> Diagnostic {
    Diagnostic::error(
        codes::E0806,
        format!("cannot set the state for `{callee}` one pointer at a time"),
    )
    .with_label(at, "each position reads a state pointer that another one sets")
    .with_help(
        "a state call to another program becomes `SET`s and a plain call; compute the positions into other pointers first",
    )
}

/// W0801: state calls inside a loop run in reverse order; `why` (in
/// `ram`) names the memory in which the order shows.
pub fn calls_in_loop(def: &str, at: Span, why: Option<String>) -> Diagnostic {
    let warning = Diagnostic::warning(
        codes::W0801,
        format!("the state calls of `{def}` in this loop will run in reverse order"),
    )
    .with_label(at, "pushes one state per round; the stack gives them back last first")
    .with_help(
        "every round of the loop runs before any of the calls, and the calls run from the last round to the first; if the order matters, write the calls one after another instead of in a loop",
    );
    match why {
        Some(why) => warning.with_note(why),
        None => warning,
    }
}

/// W0802: a recursive program reads pointers the state does not hold.
pub fn sibling_pointers(def: &str, at: Span, names: &str, ram: bool) -> Diagnostic {
    let help = if ram {
        "`treerec` restores registers only after all the calls; add the register to `state(...)` and pass it, or set it before reading it (a `var` is memory, not a register: every call sees its last write, in the source as in the combinatory form)"
    } else {
        "`treerec` restores pointers only after all the calls; add the pointer to `state(...)` and pass it, or set it before reading it"
    };
    Diagnostic::warning(
        codes::W0802,
        format!("`{def}` may read {names} before setting it, but the state does not hold it"),
    )
    .with_label(
        at,
        "a call sees what the previous call left there, not the caller's value",
    )
    .with_help(help)
}

/// W0803: the divide part's pointer changes are undone before `post`.
pub fn undone_changes(def: &str, at: Span, names: &str, ram: bool) -> Diagnostic {
    let help = if ram {
        "after the calls, `treerec` puts every register back as it was before the first push (and a `ram` run prints the registers); make the change before the first call or after the last one, or keep the value in a `var`: memory is never put back"
    } else {
        "after the calls, `treerec` puts every pointer back as it was before the first push; make the change before the first call or after the last one"
    };
    Diagnostic::warning(
        codes::W0803,
        format!("`{def}` changes {names} among its state calls, and the change is undone before later code reads it"),
    )
    .with_label(at, "the state calls start here")
    .with_help(help)
}

/// E0899: the output does not check, or a conversion failed silently.
pub fn internal(detail: String) -> Diagnostic {
    Diagnostic::error(
        codes::E0899,
        "internal error: the combinatorizer produced a wrong program",
    )
    .with_note(detail)
    .with_note("this is a bug in cnpi, not in your program; please report it with the input file")
}
