//! What both engines share: the execution core.
//!
//! The exact reference interpreter (`symbolic`) and the network
//! (`cnpi-neural`'s runtime) decide differently which program runs next,
//! but they act on the world the same way. This module holds that common
//! part: the [`Store`] a run changes (the environment's state, the pointers,
//! the `treerec` state stack, the frame stack of exact conversion, the step and change counters, the trace), the
//! application of ACTs and built-ins to it, the limits every run obeys
//! ([`Options`], [`Limits`]: one nesting limit, one memory limit and an
//! interrupt flag, the same on every engine), the runtime errors of the machine itself,
//! the [`Outcome`] of a finished run, and [`compare`], which says whether
//! two engines' runs agree. Neither engine imports the other.

pub mod compare;
mod errors;
mod frames;
pub mod limits;
mod stack;
mod store;

pub use errors::{
    interrupted, never_finishes, out_of_memory, out_of_steps, too_deep, too_many_states,
    trace_out_of_memory,
};
pub use frames::FrameStack;
pub use limits::Limits;
pub use stack::StateStack;
pub use store::{Store, initial_pointers};

use crate::diagnostic::Diagnostic;
use crate::env::{State, eval_error};
use crate::program::EvalError;
use crate::span::Span;

/// The condition bit of one core step of an activation, `evaluated` at
/// that step. A combinator branches on its condition only at its first
/// step (the family rule; the core is verified on every sequence of bits
/// after it), so at a later step (`first` is the first step's bit) a
/// condition that cannot be evaluated there, such as END in arithmetic
/// once `a1` has moved a register off the array, repeats the first step's
/// bit instead of stopping a run whose meaning does not depend on it. At
/// the first step it is the runtime error it is.
#[inline]
pub fn step_bit(
    first: Option<bool>,
    evaluated: Result<bool, EvalError>,
) -> Result<bool, Diagnostic> {
    match (evaluated, first) {
        (Ok(bit), _) => Ok(bit),
        (Err(_), Some(first)) => Ok(first),
        (Err(error), None) => Err(eval_error(error)),
    }
}

/// How to run, for either engine.
pub struct Options<'a> {
    /// Stop with E0701 when a run would take more steps than this.
    pub max_steps: u64,
    /// Where to write the trace (one line per step), if anywhere.
    pub trace: Option<Trace<'a>>,
    /// How deep calls may nest, how much memory the run may hold, and
    /// whether it was asked to stop.
    pub limits: Limits<'a>,
}

impl<'a> Options<'a> {
    /// A run of at most `max_steps` steps within the default limits,
    /// untraced.
    pub fn steps(max_steps: u64) -> Options<'a> {
        Options {
            max_steps,
            trace: None,
            limits: Limits::default(),
        }
    }
}

/// A run's trace: where its lines go, and for the combinatory form of
/// normal programs what to say when a frame returns.
pub struct Trace<'a> {
    pub out: &'a mut dyn std::io::Write,
    /// The line for the `_return` at a span, from the registers as the
    /// returning activation left them (its program and locals, as
    /// written); `None` where there is nothing to say.
    pub returns: Option<&'a Returns<'a>>,
}

/// See [`Trace::returns`].
pub type Returns<'a> = dyn Fn(Span, &[i64]) -> Option<String> + 'a;

impl<'a> Trace<'a> {
    /// A trace to `out` that says nothing at returns.
    pub fn to(out: &'a mut dyn std::io::Write) -> Self {
        Trace { out, returns: None }
    }
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
