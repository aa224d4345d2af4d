//! Speed of `cnpic learn` on sketches with holes in normal programs, in
//! fillings decided per second (criterion's "elem/s"): the whole search of
//! each sketch of `examples/learn/` below, on one thread, with its default
//! budget (200,000 runs to the answer and as many after it), from the
//! answer to the check of its size class and the next. A filling is
//! *decided* when a run settles it (one run of a box decides every filling
//! that runs as its first, docs/language.md, "How one run decides many
//! fillings"); the count is the summary's `work`, the same on every run.
//! The detectors of each answer come from the cache `cnpic` uses
//! (`CNPI_CACHE`), trained on the first run.
//!
//!     cargo bench -p cnpi-rl --bench holes

use std::hint::black_box;

use cnpi::env::Declarations;
use cnpi_neural::detector::Cache;
use cnpi_rl::sketch::blanks::{BlankSketch, Budget, CHECK_RUNS};
use cnpi_rl::sketch::examples;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

/// The sketches measured: from one hole to six.
const SKETCHES: [&str; 5] = [
    "binary_two",
    "count_statement",
    "insertion_two_blanks",
    "insertion_sort",
    "euclid_loop",
];

/// `examples/learn/NAME.cnpi` with its examples.
fn sketch(name: &str) -> BlankSketch {
    let path = |ext: &str| {
        format!(
            "{}/../../examples/learn/{name}.{ext}",
            env!("CARGO_MANIFEST_DIR")
        )
    };
    let text = std::fs::read_to_string(path("cnpi")).expect("the sketch exists");
    let json = std::fs::read_to_string(path("json")).expect("its examples exist");
    let compilation = cnpi::compile::compile(name, &text, None);
    let compiled = cnpi::compile::Compiled {
        program: compilation.program.expect("the sketch compiles"),
        sources: compilation.sources,
        text,
    };
    let layout = Declarations::of(&compiled.program);
    let examples = examples::read(name, &json, &layout).expect("the examples read");
    let cache = Cache::located(|name| std::env::var_os(name));
    BlankSketch::of(name, &compiled, examples, 100_000, cache).expect("a sketch")
}

fn holes(c: &mut Criterion) {
    let mut group = c.benchmark_group("learn");
    group.sample_size(10);
    for name in SKETCHES {
        let sketch = sketch(name);
        let budget = Budget {
            search: 200_000,
            check: CHECK_RUNS,
        };
        let search = sketch.search(budget, 1);
        assert!(search.found.is_some(), "{name} is learned");
        group.throughput(Throughput::Elements(search.candidates as u64));
        group.bench_function(name, |b| b.iter(|| black_box(&sketch).search(budget, 1)));
    }
    group.finish();
}

criterion_group!(benches, holes);
criterion_main!(benches);
