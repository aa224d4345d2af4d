//! Speed of the shipped core: one network step (what `--no-cache` pays per
//! core step), a whole activation of `treerec` (start plus five steps), a
//! decision-table lookup (the exact cache), and building the whole table.
//!
//!     cargo bench --bench core

use std::hint::black_box;

use cnpi::program::{Combinator, CombinatorKind};
use cnpi_neural::core::Core;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

fn core() -> &'static Core {
    Core::shipped().expect("the shipped core verifies")
}

fn step(c: &mut Criterion) {
    let core = core();
    let treerec = CombinatorKind::User(Combinator::Treerec);
    let mut group = c.benchmark_group("core");
    group.throughput(Throughput::Elements(1));
    let mut state = core.start(treerec);
    group.bench_function("step", |b| {
        b.iter(|| core.step(black_box(&mut state), black_box(true)))
    });
    group.throughput(Throughput::Elements(5));
    group.bench_function("treerec activation (5 steps)", |b| {
        b.iter(|| {
            let mut state = core.start(black_box(treerec));
            for bit in [true, false, true, false, true] {
                black_box(core.step(&mut state, bit));
            }
        })
    });
    let table = core.decision_table();
    group.throughput(Throughput::Elements(1));
    group.bench_function("table lookup", |b| {
        b.iter(|| table.decision(black_box(treerec), black_box(&[true, false, true])))
    });
    group.bench_function("decision table", |b| b.iter(|| core.decision_table()));
    group.finish();
}

criterion_group!(benches, step);
criterion_main!(benches);
