//! Speed of the neural engine against the reference interpreter, in core
//! steps per second (criterion's "elem/s"): quick sort of 10^4 random
//! integers, bubble sort of 300, and topological sort of a random DAG with
//! 10^4 vertices, each on the reference interpreter (`--symbolic`), on the
//! network with its exact caches (the default), and on the plain networks
//! (`--no-cache`). All three take the same number of steps.
//!
//!     cargo bench --bench neural

use cnpi::exec::Options;
use cnpi::plan::NetworkEngine as _;
use cnpi::program::Program;
use cnpi::symbolic;
use cnpi_neural::core::Core;
use cnpi_neural::detector::Cache;
use cnpi_neural::memory::{Entry, Memory};
use cnpi_neural::runtime::OnTheNetwork;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

fn compile(file: &str) -> (Program, Memory) {
    let path = format!("{}/../../examples/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(path).expect("example exists");
    let program = cnpi::compile::compile(file, &text, None)
        .program
        .expect("example compiles");
    let memory = Memory::with_program(&program, file, &text, 2018, &Cache::none()).expect("builds");
    (program, memory)
}

/// Deterministic pseudo-random numbers (xorshift), so runs compare.
fn random(n: usize, mut x: u64) -> Vec<u64> {
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        })
        .collect()
}

fn random_array(n: usize) -> String {
    let values: Vec<i64> = random(n, 0x9E37_79B9_7F4A_7C15)
        .into_iter()
        .map(|x| (x % 1_000_000) as i64)
        .collect();
    serde_json::to_string(&values).expect("integers serialize")
}

/// A random DAG on `n` vertices with about `2n` edges, lower to higher.
fn random_dag(n: usize) -> String {
    let draws = random(4 * n, 0x2545_F491_4F6C_DD1D);
    let mut children = vec![Vec::new(); n];
    for pair in draws.chunks_exact(2) {
        let (a, b) = ((pair[0] % n as u64) as usize, (pair[1] % n as u64) as usize);
        if a < b && !children[a].contains(&b) {
            children[a].push(b);
        }
    }
    serde_json::json!({ "graph": children }).to_string()
}

fn bench(c: &mut Criterion, name: &str, file: &str, input: &str) {
    let (program, memory) = compile(file);
    let core = Core::shipped().expect("the shipped core loads");
    let state = cnpi::env::parse_input(program.env, input).expect("valid input");
    let symbolic = || {
        let options = Options {
            max_steps: u64::MAX,
            trace: None,
            limits: Default::default(),
        };
        symbolic::run(&program, state.clone(), options).expect("runs")
    };
    let entry = Entry::of_unit(&memory, 0).expect("a program");
    let networks = [true, false].map(|cached| {
        OnTheNetwork::new(core, memory.clone(), entry, cached).expect("goes on the network")
    });
    let neural = |cached: bool| {
        let options = Options {
            max_steps: u64::MAX,
            trace: None,
            limits: Default::default(),
        };
        let network = &networks[usize::from(!cached)];
        network.run(state.clone(), options, None).expect("runs")
    };
    let steps = symbolic().steps;
    assert_eq!(neural(true), symbolic(), "{name}: cached network");
    assert_eq!(neural(false), symbolic(), "{name}: plain network");
    let mut group = c.benchmark_group(format!("{name} ({steps} steps)"));
    group.sample_size(10);
    group.throughput(Throughput::Elements(steps));
    group.bench_function("symbolic", |b| b.iter(symbolic));
    group.bench_function("neural", |b| b.iter(|| neural(true)));
    group.bench_function("neural --no-cache", |b| b.iter(|| neural(false)));
    group.finish();
}

fn engines(c: &mut Criterion) {
    bench(c, "quicksort 1e4", "quicksort.cnpi", &random_array(10_000));
    bench(c, "bubblesort 300", "bubblesort.cnpi", &random_array(300));
    bench(c, "toposort 1e4", "toposort.cnpi", &random_dag(10_000));
}

criterion_group!(benches, engines);
criterion_main!(benches);
