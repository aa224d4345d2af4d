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
//! [`run_recorded`] also hands every step to the trace viewer's recorder.

mod machine;

use crate::core::Core;
use crate::core::embedding::{Embedding, Extended};
use crate::memory::{Memory, RowId};
use crate::viewer::Recorder;
use cnpi::diagnostic::{Diagnostic, codes};
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
    run_recorded(core, (memory, unit, entry), state, options, cached, None)
}

/// [`run`], telling `recorder` (if any) of every step and of the end,
/// error or not; `program` is the memory, the unit and the entry.
pub fn run_recorded(
    core: &Core,
    program: (&Memory, usize, RowId),
    state: State,
    options: Options,
    cached: bool,
    recorder: Option<&mut Recorder>,
) -> Result<Outcome, Diagnostic> {
    let (memory, unit, entry) = program;
    let Some(info) = memory.units.get(unit) else {
        return Err(internal(format!("the memory has no program {unit}")));
    };
    let core = extend(core, memory)?;
    let store =
        Store::new(info.env, &info.pointers, state, options)?.with_state(info.state.as_deref());
    let mut machine = machine::Machine::new(core, memory, info, store, cached, recorder);
    let ran = machine.run(entry);
    let outcome = machine.finish(ran.as_ref().err());
    ran.map(|()| outcome)
}

/// `core` with the embeddings of the combinators `memory`'s programs
/// define, each verified exhaustively; one that fails (a memory run on
/// another core than the shipped one it was learned on, or edited) is
/// refused with E1109 before anything runs.
fn extend<'c>(core: &'c Core, memory: &Memory) -> Result<Extended<'c>, Diagnostic> {
    let cells = core.cells();
    let defined: Vec<_> = (memory.combinators.iter())
        .map(|d| {
            let row = memory.embedding(d.row);
            let name = memory.rows.get(d.row).map_or("?", |r| r.name.as_str());
            let embedding = Embedding {
                h: row.get(..cells).unwrap_or_default().to_vec(),
                c: row.get(cells..2 * cells).unwrap_or_default().to_vec(),
            };
            (name, &d.behaviour, embedding)
        })
        .collect();
    Extended::new(core, &defined).map_err(|verification| {
        Diagnostic::error(
            codes::E1109,
            "a combinator the program defines fails verification on this core and is refused",
        )
        .with_note(verification.to_string())
        .with_help(
            "a program's own combinators are learned on the shipped core: run the program \
             there (without `--core`); a `.cnpim` that fails on the shipped core was edited: \
             rebuild it from its source with `cnpic build`",
        )
    })
}
