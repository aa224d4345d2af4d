//! Start-up at scale (issue targets: `cnpic build` and `cnpic run` of a
//! 20,000-definition program each under 1 s of start-up; `memory add` of
//! one small program to a 20,000-definition memory under 0.5 s): building
//! the memory, reading it back from a `.cnpim`, adding a program to it, and
//! a run on the empty input, which the entry finishes in one step. Detectors come from a warm cache,
//! as on a second build.
//!
//!     cargo bench --bench scale

use cnpi::env;
use cnpi::exec::Options;
use cnpi::plan::NetworkEngine as _;
use cnpi::program::Program;
use cnpi_neural::cnpim;
use cnpi_neural::core::Core;
use cnpi_neural::detector::Cache;
use cnpi_neural::memory::{Entry, Memory};
use cnpi_neural::runtime::OnTheNetwork;
use criterion::{BatchSize, Criterion, criterion_group, criterion_main};

#[path = "../../../benches/generated.rs"]
mod generated;

const DEFINITIONS: usize = 20_000;
const SEED: u64 = 3;

fn compile(name: &str, text: &str) -> Program {
    let compilation = cnpi::compile::compile(name, text, None);
    compilation.program.expect("the generated program compiles")
}

fn start_up(c: &mut Criterion) {
    let text = generated::generated(DEFINITIONS);
    let program = compile("generated.cnpi", &text);
    let cache_dir = std::env::temp_dir().join(format!("cnpi-scale-{}", std::process::id()));
    let cache = Cache::at(&cache_dir);
    let build = || Memory::with_program(&program, "generated.cnpi", &text, SEED, &cache);
    let memory = build().expect("builds");
    let file = cnpim::write(&memory, "bench").expect("writes");
    let small = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../examples/reverse.cnpi"
    ))
    .expect("the example exists");
    let small_program = compile("reverse.cnpi", &small);
    let core = Core::shipped().expect("the shipped core verifies");

    let mut group = c.benchmark_group("start-up, 20000 definitions");
    group.sample_size(10);
    group.bench_function("compile", |b| b.iter(|| compile("generated.cnpi", &text)));
    group.bench_function("build the memory", |b| b.iter(|| build().expect("builds")));
    group.bench_function("read the .cnpim", |b| {
        b.iter(|| cnpim::read(&file, "generated.cnpim").expect("reads"))
    });
    group.bench_function("add a small program", |b| {
        b.iter(|| {
            let mut memory = cnpim::read(&file, "generated.cnpim").expect("reads");
            memory
                .add(&small_program, "reverse.cnpi", &small, &cache)
                .expect("adds")
        })
    });
    // Putting the memory on the network (extending the core, compiling
    // the plan) is start-up too; the copy of the memory each run consumes
    // is made outside the timing.
    let entry = Entry::of_unit(&memory, 0).expect("a program");
    group.bench_function("run on the empty input", |b| {
        b.iter_batched(
            || memory.clone(),
            |memory| {
                let state =
                    env::parse_input(memory.units[0].declared.env, "[]").expect("valid input");
                let options = Options {
                    max_steps: 1_000,
                    trace: None,
                    limits: Default::default(),
                };
                let network = OnTheNetwork::new(core, memory, entry, true).expect("goes on");
                network.run(state, options, None).expect("runs")
            },
            BatchSize::LargeInput,
        )
    });
    group.finish();
    let _ = std::fs::remove_dir_all(cache_dir);
}

criterion_group!(benches, start_up);
criterion_main!(benches);
