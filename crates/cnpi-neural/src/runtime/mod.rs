//! The runtime: Algorithm 1 of the paper on the core and the memories.
//!
//! [`run`] executes an applier of a [`Memory`] on an environment. Every
//! decision comes from a network: the parse of each applier from the fixed
//! parser over `M_key` / `W_key`, each condition bit from the frame's
//! detector (or `_mapself`'s own), and each slot and return flag from the
//! core. With `cached` those networks are replaced by exact
//! caches of themselves (the applier's parse by row, made when a run first
//! reaches the row, from the key tables indexed by their bits; the detector's
//! verified table by feature vector, the core's decision table by bit
//! prefix); without it every step runs the plain networks. Both give the
//! same run bit for bit. The call stack lives on the heap, and the world
//! (environment, pointers, state stack, counters) is the shared
//! [`cnpi::exec`] store, so both engines act and report the same way.

mod machine;

use crate::core::Core;
use crate::memory::{Memory, RowId};
use cnpi::diagnostic::Diagnostic;
use cnpi::env::{State, internal};
use cnpi::exec::{Options, Outcome, Store};

/// Runs the applier `entry` of program `unit` of `memory` on `state`; with
/// `cached`, on the exact caches of the networks instead of the networks.
pub fn run(
    core: &Core,
    memory: &Memory,
    unit: usize,
    entry: RowId,
    state: State,
    options: Options,
    cached: bool,
) -> Result<Outcome, Diagnostic> {
    let Some(info) = memory.units.get(unit) else {
        return Err(internal(format!("the memory has no program {unit}")));
    };
    let store = Store::new(info.env, &info.pointers, state, options)?;
    let mut machine = machine::Machine::new(core, memory, info, store, cached);
    machine.run(entry)?;
    Ok(machine.finish())
}
