//! The runtime: Algorithm 1 of the paper on the core and the memories.
//!
//! [`run`] executes an applier of a [`Memory`] on an environment. Every
//! decision comes from a network: the parse of each applier from the fixed
//! parser over `M_key` / `W_key`, each condition bit from the frame's
//! detector (or `_mapself`'s own), and each slot and return flag from the
//! core. With [`Options::cached`] those networks are replaced by exact
//! caches of themselves (the applier's parse by row, the detector's
//! verified table by feature vector, the core's decision table by bit
//! prefix); without it every step runs the plain networks. Both give the
//! same run bit for bit. The call stack lives on the heap, the state stack
//! is the reference interpreter's, and runtime errors are the reference
//! interpreter's diagnostics, so both engines report the same way.

mod machine;

use std::io::Write;

use crate::core::Core;
use crate::memory::{Memory, RowId};
use cnpi::diagnostic::{Diagnostic, codes};
use cnpi::env::{State, internal};
use cnpi::symbolic::Outcome;

/// How to run.
pub struct Options<'a> {
    /// Stop with E0701 after this many core steps.
    pub max_steps: u64,
    /// Use the exact caches instead of running the networks every step.
    pub cached: bool,
    /// Where to write one line per core step, if anywhere.
    pub trace: Option<&'a mut dyn Write>,
}

/// Runs the applier `entry` of program `unit` of `memory` on `state`.
pub fn run(
    core: &Core,
    memory: &Memory,
    unit: usize,
    entry: RowId,
    state: State,
    options: Options,
) -> Result<Outcome, Diagnostic> {
    let Some(info) = memory.units.get(unit) else {
        return Err(internal(format!("the memory has no program {unit}")));
    };
    if state.kind() != info.env {
        return Err(internal(format!(
            "the input was read for the {} environment, but the program runs in {}",
            state.kind().name(),
            info.env.name()
        )));
    }
    let parses = if options.cached {
        machine::parse_all(memory, unit)?
    } else {
        Vec::new()
    };
    let mut machine = machine::Machine::new(core, memory, info, &parses, state, options)?;
    machine.run(entry)?;
    Ok(machine.finish())
}

/// The E1106 error of `--cross-check`, saying `what` differs.
pub fn mismatch(what: String) -> Diagnostic {
    Diagnostic::error(
        codes::E1106,
        format!("the network and the reference interpreter disagree: {what}"),
    )
    .with_note("both the core and the detectors are verified, so this is a bug in cnpic")
    .with_help("please report it with the program and the input")
}

/// `--cross-check`: the network's run and the reference interpreter's must
/// end the same way, with the same environment and step count, or with
/// errors of the same code; E1106 says what differs.
pub fn cross_check(
    neural: &Result<Outcome, Diagnostic>,
    reference: &Result<Outcome, Diagnostic>,
) -> Result<(), Diagnostic> {
    let differs = |what: String| Err(mismatch(what));
    match (neural, reference) {
        (Ok(n), Ok(r)) if n.steps != r.steps => differs(format!(
            "the network took {} steps, the reference {}",
            n.steps, r.steps
        )),
        (Ok(n), Ok(r)) if n.state != r.state => differs(format!(
            "the final environments differ:\nnetwork:   {}reference: {}",
            n.to_text("neural"),
            r.to_text("symbolic")
        )),
        (Ok(_), Ok(_)) => Ok(()),
        (Err(n), Err(r)) if n.code == r.code => Ok(()),
        (Err(n), Err(r)) => differs(format!(
            "the network stopped with {} ({}), the reference with {} ({})",
            n.code, n.message, r.code, r.message
        )),
        (Ok(_), Err(r)) => differs(format!(
            "the network finished, the reference stopped with {} ({})",
            r.code, r.message
        )),
        (Err(n), Ok(_)) => differs(format!(
            "the reference finished, the network stopped with {} ({})",
            n.code, n.message
        )),
    }
}
