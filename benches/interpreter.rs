//! Speed of the exact reference interpreter, in steps per second
//! (criterion's "elem/s"): quick sort of 10^5 random integers, and a
//! depth-first search 10^5 calls deep on a path graph.
//!
//!     cargo bench --bench interpreter

use cnpi::exec::Options;
use cnpi::program::Program;
use cnpi::symbolic;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

fn compile(file: &str) -> Program {
    let path = format!("{}/examples/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(path).expect("example exists");
    cnpi::compile::compile(file, &text, None)
        .program
        .expect("example compiles")
}

/// Runs `program` on `input` and returns the number of steps.
fn steps(program: &Program, input: &str) -> u64 {
    let state = cnpi::env::parse_input(program.env, input).expect("valid input");
    let options = Options {
        max_steps: u64::MAX,
        trace: None,
        limits: Default::default(),
    };
    symbolic::run(program, state, options).expect("runs").steps
}

/// Deterministic pseudo-random integers (xorshift), so runs compare.
fn random_array(n: usize) -> String {
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    let values: Vec<i64> = (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x % 1_000_000) as i64
        })
        .collect();
    serde_json::to_string(&values).expect("integers serialize")
}

fn bench(c: &mut Criterion, name: &str, program: &Program, input: &str) {
    let count = steps(program, input);
    let mut group = c.benchmark_group("symbolic");
    group.sample_size(10);
    group.throughput(Throughput::Elements(count));
    group.bench_function(format!("{name} ({count} steps)"), |b| {
        b.iter(|| steps(program, input))
    });
    group.finish();
}

fn interpreter(c: &mut Criterion) {
    let n = 100_000;
    bench(
        c,
        "quicksort 1e5 random",
        &compile("quicksort.cnpi"),
        &random_array(n),
    );
    let path: Vec<Vec<usize>> = (0..n)
        .map(|v| if v + 1 < n { vec![v + 1] } else { vec![] })
        .collect();
    let graph = serde_json::json!({ "graph": path }).to_string();
    bench(
        c,
        "toposort path 1e5 deep",
        &compile("toposort.cnpi"),
        &graph,
    );
}

criterion_group!(benches, interpreter);
criterion_main!(benches);
