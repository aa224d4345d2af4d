//! Throughput of the front end: parse and check a generated file of 20,000
//! definitions (target: well under a second on a 2-core machine).
//!
//!     cargo bench --bench front_end

use criterion::{Criterion, Throughput, criterion_group, criterion_main};

mod generated;
use generated::generated;

fn check_throughput(c: &mut Criterion) {
    let count = 20_000;
    let source = generated(count);
    let mut group = c.benchmark_group("check");
    group.sample_size(10);
    group.throughput(Throughput::Elements(count as u64));
    group.bench_function("20000 definitions", |b| {
        b.iter(|| {
            let compilation = cnpi::compile::compile("generated.cnpi", &source, None);
            assert!(
                compilation.program.is_some(),
                "{:?}",
                compilation.diagnostics
            );
        })
    });
    group.finish();
}

criterion_group!(benches, check_throughput);
criterion_main!(benches);
