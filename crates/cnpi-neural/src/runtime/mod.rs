//! The runtime: Algorithm 1 of the paper on the core and the memories.
//!
//! [`OnTheNetwork`] is a program of a [`Memory`] put on the network once
//! (the core extended by its combinators, verified), from a named
//! [`Entry`] (program and applier), for a run plan, a test or a bench to
//! run on any number of inputs through [`cnpi::plan::NetworkEngine::run`], each
//! run handing every step to the trace viewer's recorder if asked. Every
//! decision comes from a network: the parse of each applier from the fixed
//! parser over `M_key` / `W_key`, each condition bit from the frame's
//! detector (or `_mapself`'s own), and each slot and return flag from the
//! core. With `cached` those networks are replaced by exact
//! caches of themselves (the applier's parse by row, made once for all rows
//! in the program's compiled [`plan`], from the key tables indexed by their
//! bits; the detector's
//! verified table by feature vector, the core's decision table by bit
//! prefix); without it every step runs the plain networks. Both give the
//! same run bit for bit. The call stack lives on the heap, and the world
//! (environment, pointers, state stack, counters) is the shared
//! [`cnpi::exec`] store, so both engines act and report the same way.

mod automaton;
mod compiled;
mod machine;
mod row;
mod script;

use crate::core::Core;
use crate::core::CoreState;
use crate::core::embedding::Extended;
use crate::detector::Cache;
use crate::memory::{Entry, Memory};
use crate::viewer::Recorder;
use cnpi::diagnostic::{Diagnostic, codes};
use cnpi::env::{State, internal};
use cnpi::exec::compare::Run;
use cnpi::exec::{Options, Store};
use compiled::Compiled;
pub use machine::JitMode;

/// A program of a memory on a core, ready to run on any number of inputs
/// (from any number of threads): what `cnpic run` hands the run plan
/// ([`cnpi::plan::NetworkEngine`]). The core is extended by the memory's own
/// combinators, verified once, when it is made.
pub struct OnTheNetwork {
    core: Extended,
    memory: Memory,
    entry: Entry,
    /// The memory compiled for the machine.
    plan: Compiled,
    /// The automaton's edges as machine code, once made.
    jit: machine::Jit,
    /// Whether the exact caches of the networks run (else the plain
    /// networks).
    cached: bool,
    /// For a memory read from a file: the name it was given, under which a
    /// disagreement of the engines checks the memory's stored source, and
    /// the detector cache that check trains through.
    file: Option<(String, Cache)>,
}

impl OnTheNetwork {
    /// `memory` on `core`, starting at `entry`; refused (E1109) if one of
    /// the memory's combinators fails verification on `core`.
    pub fn new(
        core: &Core,
        memory: Memory,
        entry: Entry,
        cached: bool,
    ) -> Result<OnTheNetwork, Diagnostic> {
        if memory.units.get(entry.unit).is_none() {
            return Err(internal(format!(
                "the memory has no program {}",
                entry.unit
            )));
        }
        let core = extend(core, &memory)?;
        Ok(OnTheNetwork {
            plan: Compiled::new(&memory, cached, core.table()),
            jit: machine::Jit::new(JitMode::default()),
            core,
            cached,
            memory,
            entry,
            file: None,
        })
    }

    /// The same, for a memory read from the file named `file`, its
    /// detectors trained again through `cache` if the engines disagree.
    pub fn read_from(self, file: &str, cache: Cache) -> OnTheNetwork {
        OnTheNetwork {
            file: Some((file.to_string(), cache)),
            ..self
        }
    }

    /// Makes this program's machine code as `mode` says (lazily unless
    /// set), the code made before dropped; runs give the same results
    /// whatever the mode.
    pub fn set_jit(&mut self, mode: JitMode) {
        self.jit = machine::Jit::new(mode);
    }

    /// [`Self::set_jit`] with code of at most `most` edges.
    #[cfg(test)]
    pub(crate) fn set_jit_of(&mut self, mode: JitMode, most: usize) {
        self.jit = machine::Jit::of_edges(mode, most);
    }

    pub fn memory(&self) -> &Memory {
        &self.memory
    }

    pub fn entry(&self) -> Entry {
        self.entry
    }

    /// Whether the exact caches run (else the plain networks).
    pub fn cached(&self) -> bool {
        self.cached
    }
}

impl cnpi::plan::NetworkEngine for OnTheNetwork {
    type Recorder = Recorder;

    fn run(&self, state: State, options: Options, record: Option<&mut Recorder>) -> Run {
        let run = OneRun {
            core: &self.core,
            memory: &self.memory,
            entry: self.entry,
            plan: &self.plan,
            jit: &self.jit,
            cached: self.cached,
        };
        run.go(state, options, record)
    }

    fn explain(&self, disagreement: Diagnostic) -> Diagnostic {
        match &self.file {
            Some((file, cache)) => (self.memory.verify_sources(file, cache))
                .err()
                .unwrap_or(disagreement),
            None => disagreement,
        }
    }
}

/// One run's borrowed parts.
struct OneRun<'m> {
    core: &'m Extended,
    memory: &'m Memory,
    entry: Entry,
    plan: &'m Compiled,
    jit: &'m machine::Jit,
    cached: bool,
}

impl OneRun<'_> {
    /// Runs on `state`, telling `recorder` (if any) of every step and of
    /// the end, error or not.
    fn go(self, state: State, options: Options, recorder: Option<&mut Recorder>) -> Run {
        let info = &self.memory.units[self.entry.unit];
        let store = Store::new(info.declared.env, &info.declared.registers, state, options)?
            .with_state(info.state.as_deref());
        let mut machine = machine::Machine::new(
            self.core,
            self.memory,
            info,
            self.plan,
            self.jit,
            self.cached,
            store,
            recorder,
        );
        let ran = machine.run(self.entry.row);
        let outcome = machine.finish(ran.as_ref().err());
        ran.map(|()| outcome)
    }
}

/// `core` with the embeddings of the combinators `memory`'s programs
/// define, each verified exhaustively; one that fails (a memory run on
/// another core than the shipped one it was learned on, or edited) is
/// refused with E1109 before anything runs.
fn extend(core: &Core, memory: &Memory) -> Result<Extended, Diagnostic> {
    let cells = core.cells();
    let defined: Vec<_> = (memory.combinators.iter())
        .map(|d| {
            let row = memory.embedding(d.row);
            let name = memory.rows.get(d.row).map_or("?", |r| r.name.as_str());
            let embedding = CoreState {
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
