//! The exact reference interpreter.
//!
//! [`run`] executes a checked [`Program`] on an environment [`State`] the
//! way the neural machine is meant to (Algorithm 1 of the paper, section
//! 3.1 of the language contract), but exactly: combinatory programs take one
//! core step per slot a combinator calls, normal programs one step per
//! statement. It acts on the world through the shared [`crate::exec`] core
//! and hands back an [`Outcome`] (the final state and the step count), or
//! an E07xx runtime error. With a trace writer in the [`Options`] it writes
//! the call tree, one line per step, in the style of Figure 4 of the paper.
//! It is an oracle: tests, `--symbolic` and `--cross-check` reach it; the
//! network never does. [`run_observed`] also reports each combinator
//! activation and core step as it happens (the verification-cost
//! experiment counts what an NPI-style core would observe).

mod machine;
mod trace;

use crate::diagnostic::Diagnostic;
use crate::env::{State, View};
use crate::exec::{Options, Outcome, Store};
use crate::program::{CombinatorKind, DefId, Program, Slot, Stmt};

/// Runs `program` from its entry on `state`.
pub fn run(program: &Program, state: State, options: Options) -> Result<Outcome, Diagnostic> {
    let store = Store::new(program.env, &program.pointers, state, options)?
        .with_state(program.state.as_deref());
    let mut machine = machine::Machine::new(program, store, None);
    machine.run()?;
    Ok(machine.store.finish())
}

/// What [`run_observed`] reports while a program runs. Activations nest:
/// each `Step` belongs to the innermost activation started and not yet
/// ended, and an activation ends with its `last` step. Every step the run
/// counts is reported once, as a `Step` (a core step of a combinator) or a
/// `Statement` (a step of a normal program).
pub enum Event<'a> {
    /// An activation of `def`'s combinator (or of `_mapself`) begins.
    Start { def: DefId },
    /// The running activation, made by `def`, calls its next slot, with the
    /// world as the core sees it then.
    Step {
        def: DefId,
        last: bool,
        view: View<'a>,
        /// The top of the state stack is a state (what `_mapself` tests).
        stack_top: bool,
        /// The combinator, the slot called, the condition bit as the core
        /// sees it at this step, and the call depth.
        kind: CombinatorKind,
        slot: Slot,
        c: bool,
        depth: u32,
    },
    /// A statement (or a `while` test) of `def`, a normal program, at
    /// call depth `depth`, about to run on the world `view` (a statement
    /// whose expressions call definitions evaluates them later, once its
    /// calls have returned).
    Statement {
        def: DefId,
        depth: u32,
        stmt: &'a Stmt,
        view: View<'a>,
    },
}

/// Runs `program` like [`run`], telling `observer` of every activation and
/// core step. The observer answers with the bytes it holds (what it
/// records of the run, 0 if nothing), which count against the run's
/// memory limit with its stores: past it, the run stops with E0708.
pub fn run_observed<'o>(
    program: &Program,
    state: State,
    options: Options<'o>,
    observer: &'o mut dyn FnMut(Event<'_>) -> usize,
) -> Result<Outcome, Diagnostic> {
    let store = Store::new(program.env, &program.pointers, state, options)?
        .with_state(program.state.as_deref());
    let mut machine = machine::Machine::new(program, store, Some(observer));
    machine.run()?;
    Ok(machine.store.finish())
}
