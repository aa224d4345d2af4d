//! The cost of running normal programs on explicit frames (calls with
//! parameters and results, statements between calls) against Algorithm
//! 3's `treerec` form, where both are exact (docs/combinatorize.md,
//! "Cost of the frames"): the same algorithm written both ways, run on
//! the network with its exact caches on the same input. Each group's name
//! carries the core steps of both forms.
//!
//!     cargo bench -p cnpi-neural --bench frames

use cnpi::exec::Options;
use cnpi::plan::NetworkEngine as _;
use cnpi_neural::core::Core;
use cnpi_neural::detector::Cache;
use cnpi_neural::memory::{DEFAULT_SEED, Entry, Memory};
use cnpi_neural::runtime::OnTheNetwork;
use criterion::{Criterion, criterion_group, criterion_main};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{Value, json};

/// Quicksort with state calls: Algorithm 3 makes it a `treerec`.
const QUICKSORT_TREEREC: &str = "
env ram(lo = 0, hi = n - 1, pivot = 0, j = 0)
state(lo, hi)
input A[n]

def PARTITION():
  pivot = lo
  j = lo
  while j < hi:
    if A[j] <= A[hi]:
      SWAP(A[pivot], A[j])
      pivot = pivot + 1
    j = j + 1
  SWAP(A[pivot], A[hi])

def QUICKSORT():
  if lo < hi:
    PARTITION()
    QUICKSORT(lo, pivot - 1)
    QUICKSORT(pivot + 1, hi)
";

/// Hanoi with the move as a third state call (`k = 1`), so that nothing
/// stands between the calls: Algorithm 3's `treerec`.
const HANOI_TREEREC: &str = "
env ram(k = disks, a = 0, b = 2, c = 1)
state(k, a, b, c)
input disks
var moves = 0

def HANOI():
  if k == 1:
    OUT(a)
    OUT(b)
    moves = moves + 1
  if k > 1:
    HANOI(k - 1, a, c, b)
    HANOI(1, a, b, c)
    HANOI(k - 1, c, b, a)
";

/// The memory of `text`'s combinatory form (`name` for messages).
fn memory(name: &str, text: &str) -> Memory {
    let compilation = cnpi::compile::compile(name, text, None);
    let compiled = cnpi::compile::Compiled {
        program: compilation.program.expect("the program compiles"),
        sources: compilation.sources,
        text: text.to_string(),
    };
    let ready = cnpi::compile::for_the_network(compiled, name)
        .unwrap_or_else(|_| panic!("{name} combinatorizes"));
    let combinatory = &ready.combinatory;
    Memory::with_program(
        &combinatory.program,
        name,
        &combinatory.text,
        DEFAULT_SEED,
        &Cache::none(),
    )
    .expect("the memory builds")
}

fn example(path: &str) -> String {
    let path = format!("{}/../../{path}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(path).expect("the example exists")
}

/// One run of unit 0 of `memory` on `input`: its final JSON without the
/// engine's own members, and its core steps.
fn run(memory: &Memory, input: &Value) -> (Value, u64) {
    let core = Core::shipped().expect("the shipped core loads");
    let info = &memory.units[0];
    let state = cnpi::env::read_input(info.env, &info.declarations(), &input.to_string())
        .expect("valid input");
    let options = Options {
        max_steps: u64::MAX,
        trace: None,
        limits: Default::default(),
    };
    let entry = Entry::of_unit(memory, 0).expect("a program");
    let on = OnTheNetwork::new(core, memory.clone(), entry, true).expect("goes on the network");
    let outcome = on.run(state, options, None).expect("it runs");
    let mut json = outcome.to_json("neural");
    if let Some(members) = json.as_object_mut() {
        members.retain(|name, _| name == "A" || name == "output" || name == "moves");
    }
    (json, outcome.steps)
}

/// Both forms of one algorithm on `input`, which must end alike.
fn compare(c: &mut Criterion, what: &str, treerec: &str, frames: &str, input: Value) {
    let (treerec, frames) = (
        memory("treerec.cnpi", treerec),
        memory("frames.cnpi", frames),
    );
    let (a, steps_treerec) = run(&treerec, &input);
    let (b, steps_frames) = run(&frames, &input);
    assert_eq!(a, b, "{what}: both forms end alike");
    let name = format!("{what} (treerec {steps_treerec} steps, frames {steps_frames} steps)");
    let mut group = c.benchmark_group(name);
    group.sample_size(10);
    group.bench_function("treerec", |bench| bench.iter(|| run(&treerec, &input)));
    group.bench_function("frames", |bench| bench.iter(|| run(&frames, &input)));
    group.finish();
}

fn frames(c: &mut Criterion) {
    let mut rng = ChaCha8Rng::seed_from_u64(0);
    let a: Vec<i64> = (0..1024).map(|_| rng.random_range(0..=999)).collect();
    let quicksort = example("examples/clrs/quicksort.cnpi");
    compare(
        c,
        "quicksort n=1024",
        QUICKSORT_TREEREC,
        &quicksort,
        json!({ "A": a }),
    );
    let hanoi = example("examples/ram/hanoi.cnpi");
    compare(
        c,
        "hanoi 10 disks",
        HANOI_TREEREC,
        &hanoi,
        json!({ "disks": 10 }),
    );
}

criterion_group!(benches, frames);
criterion_main!(benches);
