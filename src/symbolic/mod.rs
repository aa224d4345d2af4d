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
//! network never does.

mod machine;
mod trace;

use crate::diagnostic::Diagnostic;
use crate::env::State;
use crate::exec::{Options, Outcome, Store};
use crate::program::Program;

/// Runs `program` from its entry on `state`.
pub fn run(program: &Program, state: State, options: Options) -> Result<Outcome, Diagnostic> {
    let store = Store::new(program.env, &program.pointers, state, options)?;
    let mut machine = machine::Machine::new(program, store);
    machine.run()?;
    Ok(machine.store.finish())
}
