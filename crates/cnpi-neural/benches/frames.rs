//! The cost of running normal programs on explicit frames (calls with
//! parameters and results, statements between calls) against Algorithm
//! 3's `treerec` form, where both are exact (docs/combinatorize.md,
//! "Cost of the frames"), and of a procedure's locals and `for` loop
//! (language.md §5.2) against the same procedure written with registers
//! of the `env` line: the same algorithm written both ways, run on the
//! network with its exact caches on the same input. Each group's name
//! carries the core steps of both forms.
//!
//!     cargo bench -p cnpi-neural --bench frames
//!     cargo bench -p cnpi-neural --bench frames -- insertion

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

/// Insertion sort with registers of the `env` line and a `while` loop, as
/// `examples/ram/insertion_sort.cnpi` was written before locals.
const INSERTION_SORT_GLOBALS: &str = "
env ram(j = 1, i = 0, key = 0)
input A[n]

def INSERTION_SORT():
  while j < n:
    key = A[j]
    i = j - 1
    while i >= 0 and A[i] > key:
      A[i + 1] = A[i]
      i = i - 1
    A[i + 1] = key
    j = j + 1
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
    let state = cnpi::env::read_input(&info.declared, &input.to_string()).expect("valid input");
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

/// Two forms of one algorithm (each a label and a text) on `input`,
/// which must end alike.
fn compare(c: &mut Criterion, what: &str, forms: [(&str, &str); 2], input: Value) {
    let [(first, a), (second, b)] = forms;
    let (a, b) = (memory(first, a), memory(second, b));
    let (end_a, steps_a) = run(&a, &input);
    let (end_b, steps_b) = run(&b, &input);
    assert_eq!(end_a, end_b, "{what}: both forms end alike");
    let name = format!("{what} ({first} {steps_a} steps, {second} {steps_b} steps)");
    let mut group = c.benchmark_group(name);
    group.sample_size(10);
    group.bench_function(first, |bench| bench.iter(|| run(&a, &input)));
    group.bench_function(second, |bench| bench.iter(|| run(&b, &input)));
    group.finish();
}

fn frames(c: &mut Criterion) {
    let mut rng = ChaCha8Rng::seed_from_u64(0);
    let a: Vec<i64> = (0..1024).map(|_| rng.random_range(0..=999)).collect();
    let quicksort = example("examples/clrs/quicksort.cnpi");
    let forms = [("treerec", QUICKSORT_TREEREC), ("frames", &quicksort)];
    compare(c, "quicksort n=1024", forms, json!({ "A": a }));
    let hanoi = example("examples/ram/hanoi.cnpi");
    let forms = [("treerec", HANOI_TREEREC), ("frames", &hanoi)];
    compare(c, "hanoi 10 disks", forms, json!({ "disks": 10 }));
    let a: Vec<i64> = (0..256).map(|_| rng.random_range(0..=999)).collect();
    let insertion = example("examples/ram/insertion_sort.cnpi");
    let forms = [("globals", INSERTION_SORT_GLOBALS), ("locals", &insertion)];
    compare(c, "insertion sort n=256", forms, json!({ "A": a }));
}

criterion_group!(benches, frames);
criterion_main!(benches);
