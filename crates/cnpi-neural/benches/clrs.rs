//! CLRS programs at their largest sizes on the network against
//! `--symbolic` (docs/clrs.md): heapsort, insertion sort, LCS and KMP at
//! n = 1024 and matrix-chain order at n = 64, each on the network with its
//! exact caches and on the reference interpreter running the program as
//! written (what `cnpic run --symbolic` runs). The ratio of the two times
//! is what the table in docs/clrs.md reports per run.
//!
//!     cargo bench --bench clrs

use cnpi::exec::Options;
use cnpi::plan::NetworkEngine as _;
use cnpi::program::Program;
use cnpi::symbolic;
use cnpi_neural::core::Core;
use cnpi_neural::detector::Cache;
use cnpi_neural::memory::{DEFAULT_SEED, Entry, Memory};
use cnpi_neural::runtime::OnTheNetwork;
use criterion::{Criterion, criterion_group, criterion_main};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{Value, json};

/// The program as written and the memory of its combinatorized form.
fn compile(id: &str) -> (Program, Memory) {
    let name = format!("examples/clrs/{id}.cnpi");
    let path = format!("{}/../../{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(path).expect("the program exists");
    let compilation = cnpi::compile::compile(&name, &text, None);
    let compiled = cnpi::compile::Compiled {
        program: compilation.program.expect("the program compiles"),
        sources: compilation.sources,
        text,
    };
    let written = compiled.program.clone();
    let ready = cnpi::compile::for_the_network(compiled, &name)
        .unwrap_or_else(|_| panic!("{name} combinatorizes"));
    let combinatory = &ready.combinatory;
    let memory = Memory::with_program(
        &combinatory.program,
        &name,
        &combinatory.text,
        DEFAULT_SEED,
        &Cache::none(),
    )
    .expect("the memory builds");
    (written, memory)
}

fn ints(rng: &mut ChaCha8Rng, n: usize, lo: i64, hi: i64) -> Vec<i64> {
    (0..n).map(|_| rng.random_range(lo..=hi)).collect()
}

/// The JSON output without the members that name or count the engine's work.
fn results(state: &cnpi::env::State) -> Value {
    let mut output = state.to_json(0, "");
    if let Some(members) = output.as_object_mut() {
        members.remove("steps");
        members.remove("engine");
    }
    output
}

fn bench(c: &mut Criterion, id: &str, n: usize, input: Value) {
    let (written, memory) = compile(id);
    let core = Core::shipped().expect("the shipped core loads");
    let layout = cnpi::env::Declarations::of(&written);
    let state = cnpi::env::read_input(&layout, &input.to_string()).expect("valid input");
    let options = || Options {
        max_steps: u64::MAX,
        trace: None,
        limits: Default::default(),
    };
    let symbolic = || symbolic::run(&written, state.clone(), options()).expect("runs");
    let entry = Entry::of_unit(&memory, 0).expect("a program");
    let on = OnTheNetwork::new(core, memory, entry, true).expect("goes on the network");
    let network = || on.run(state.clone(), options(), None).expect("runs");
    let on_network = network();
    assert_eq!(
        results(&on_network.state),
        results(&symbolic().state),
        "{id}: the engines agree"
    );
    let mut group = c.benchmark_group(format!("{id} n={n} ({} core steps)", on_network.steps));
    group.sample_size(10);
    group.bench_function("network", |b| b.iter(network));
    group.bench_function("symbolic", |b| b.iter(symbolic));
    group.finish();
}

fn largest(c: &mut Criterion) {
    let mut rng = ChaCha8Rng::seed_from_u64(0);
    let a = ints(&mut rng, 1024, 0, 999);
    bench(c, "heapsort", 1024, json!({ "A": a }));
    bench(c, "insertion_sort", 1024, json!({ "A": a }));
    let (x, y) = (ints(&mut rng, 512, 0, 3), ints(&mut rng, 512, 0, 3));
    bench(c, "lcs_length", 1024, json!({ "x": x, "y": y }));
    let mut t = ints(&mut rng, 820, 0, 3);
    let p = ints(&mut rng, 204, 0, 3);
    t[600..804].copy_from_slice(&p);
    bench(c, "kmp_matcher", 1024, json!({ "T": t, "P": p }));
    let dims = ints(&mut rng, 64, 1, 999);
    bench(c, "matrix_chain_order", 64, json!({ "p": dims }));
}

criterion_group!(benches, largest);
criterion_main!(benches);
