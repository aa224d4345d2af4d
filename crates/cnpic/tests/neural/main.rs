//! The neural engine: agreement with the reference interpreter on every
//! example and random inputs (cached and plain networks alike), program
//! memory files, Theorem 1 bit for bit, detectors against their
//! conditions, combinators programs define, and the command line.

/// The workspace root: examples, fixtures and the stdlib live there, and
/// commands run from it so that paths in their output read as in the docs.
const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");

mod agreement;
mod calls;
mod cli;
mod detectors;
mod files;
/// The input strategies of the front end's property tests (this crate
/// uses arrays and graphs, not DAGs).
#[path = "../../../../tests/inputs/mod.rs"]
#[allow(dead_code)]
mod inputs;
mod limits;
mod long;
mod nested_if;
mod random_programs;
mod random_ram;
mod user_combinators;

use cnpi::diagnostic::Diagnostic;
use cnpi::env::State;
use cnpi::exec::{Options, Outcome};
use cnpi::plan::NetworkEngine as _;
use cnpi::program::Program;
use cnpi::symbolic;
use cnpi_neural::core::Core;
use cnpi_neural::detector::Cache;
use cnpi_neural::memory::{Entry, Memory};
use cnpi_neural::runtime::{JitMode, OnTheNetwork};

/// The seed every test memory uses.
const SEED: u64 = 11;

fn source(file: &str) -> String {
    let path = format!("{}/examples/{file}", crate::ROOT);
    std::fs::read_to_string(path).expect("example exists")
}

fn compile_text(file: &str, text: &str) -> Program {
    let compilation = cnpi::compile::compile(file, text, None);
    compilation
        .program
        .unwrap_or_else(|| panic!("{file} compiles: {:?}", compilation.diagnostics))
}

fn compile(file: &str) -> Program {
    compile_text(file, &source(file))
}

/// A memory holding only `file`, built without a disk cache.
fn memory_of(file: &str) -> (Program, Memory) {
    let program = compile(file);
    let memory = Memory::with_program(&program, file, &source(file), SEED, &Cache::none())
        .expect("the example builds");
    (program, memory)
}

fn core() -> &'static Core {
    Core::shipped().expect("the shipped core loads")
}

/// When the network's machine code is made: as `CNPI_JIT` says, which
/// these tests read as `cnpic run` does (`CNPI_JIT=eager` runs the sweeps
/// with the code from the first edge).
fn jit() -> JitMode {
    JitMode::asked(|name| std::env::var_os(name))
}

/// Runs program `unit` of `memory` from its entry on `state`, put on the
/// shipped core as `cnpic run` puts it (`cached`: with the exact caches).
fn on_network(
    memory: &Memory,
    unit: usize,
    state: State,
    options: Options,
    cached: bool,
) -> Result<Outcome, Diagnostic> {
    let entry = Entry::of_unit(memory, unit).expect("the memory has the program");
    let mut network = OnTheNetwork::new(core(), memory.clone(), entry, cached)?;
    network.set_jit(jit());
    network.run(state, options, None)
}

/// Runs program `unit` of `memory` from its entry on the network.
fn neural(memory: &Memory, unit: usize, input: &str, cached: bool) -> Result<Outcome, Diagnostic> {
    let info = &memory.units[unit];
    let state = cnpi::env::read_input(&info.declared, input).expect("valid input");
    let options = Options {
        max_steps: 1 << 40,
        trace: None,
        limits: Default::default(),
    };
    on_network(memory, unit, state, options, cached)
}

fn reference(program: &Program, input: &str) -> Result<Outcome, Diagnostic> {
    let layout = cnpi::env::Declarations::of(program);
    let state = cnpi::env::read_input(&layout, input).expect("valid input");
    let options = Options {
        max_steps: 1 << 40,
        trace: None,
        limits: Default::default(),
    };
    symbolic::run(program, state, options)
}
