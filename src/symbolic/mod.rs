//! The exact reference interpreter.
//!
//! [`run`] executes a checked [`Program`] on an environment [`State`] the
//! way the neural machine is meant to (Algorithm 1 of the paper, section
//! 3.1 of the language contract), but exactly: combinatory programs take one
//! core step per slot a combinator calls, normal programs one step per
//! statement. It hands back an [`Outcome`] (the final state and the step
//! count), which formats itself as the text or JSON of `cnpic run`, or an
//! E07xx runtime error. With [`RunOptions::trace`] it writes the call tree,
//! one line per step, in the style of Figure 4 of the paper.

mod errors;
mod machine;
mod stack;
mod trace;

pub use stack::{StateStack, apply_act};

pub use errors::{never_finishes, out_of_steps, too_deep, too_many_states};
pub use machine::{MAX_TASKS, initial_pointers};

use crate::diagnostic::Diagnostic;
use crate::env::{State, internal};
use crate::program::Program;

pub struct RunOptions<'a> {
    /// Stop with E0701 when a run would take more steps than this.
    pub max_steps: u64,
    /// Where to write the trace, if anywhere.
    pub trace: Option<&'a mut dyn std::io::Write>,
}

/// A finished run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    pub state: State,
    pub steps: u64,
}

impl Outcome {
    /// The JSON object of `cnpic run --format json`.
    pub fn to_json(&self, engine: &str) -> serde_json::Value {
        self.state.to_json(self.steps, engine)
    }

    /// The text of `cnpic run`.
    pub fn to_text(&self, engine: &str) -> String {
        self.state.to_text(self.steps, engine)
    }
}

/// Runs `program` from its entry on `state`.
pub fn run(program: &Program, state: State, options: RunOptions) -> Result<Outcome, Diagnostic> {
    if state.kind() != program.env {
        return Err(internal(format!(
            "the input was read for the {} environment, but the program runs in {}",
            state.kind().name(),
            program.env.name()
        )));
    }
    let mut machine = machine::Machine::new(program, state, options.max_steps, options.trace)?;
    machine.run()?;
    Ok(Outcome {
        steps: machine.steps,
        state: machine.state,
    })
}
