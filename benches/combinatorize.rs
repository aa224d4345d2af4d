//! Time to combinatorize a generated file of 5,000 normal programs with
//! loops, branches and state calls (target: under a second on a 2-core
//! machine), the whole of what `cnpic run` does before the network
//! (`compile::for_the_network`: compiling the input, converting, and the
//! checked combinatory program), and compiling the printed output again.
//!
//!     cargo bench --bench combinatorize

use criterion::{Criterion, Throughput, criterion_group, criterion_main};

/// A file of `count` normal programs, each calling the next: quick sorts
/// (a `treerec` with a partition loop), bubble-sort passes (nested loops
/// with a branch) and tail-recursive scans, in turn.
fn generated(count: usize) -> String {
    let mut source =
        String::from("env array(lo = 0, hi = LAST, pivot = 0, j = 0)\nstate(lo, hi)\n");
    for i in 0..count {
        let next = if i + 1 < count {
            format!("P{}()", i + 1)
        } else {
            "NOP".into()
        };
        let body = match i % 3 {
            0 => format!(
                "  if lo < hi:\n    SET(pivot, lo)\n    SET(j, lo)\n    while j != hi:\n      \
                 if A[j] <= A[hi]:\n        SWAP(pivot, j)\n        MOVE(pivot, RIGHT)\n      \
                 MOVE(j, RIGHT)\n    SWAP(pivot, hi)\n    P{i}(lo, pivot - 1)\n    \
                 P{i}(pivot + 1, hi)\n    {next}\n"
            ),
            1 => format!(
                "  SET(pivot, 0)\n  while A[pivot] != END:\n    SET(j, 1)\n    while A[j] != END:\n      \
                 if A[j - 1] > A[j]:\n        SWAP(pivot, j)\n      else:\n        OUT(j)\n      \
                 MOVE(j, RIGHT)\n    MOVE(pivot, RIGHT)\n  {next}\n"
            ),
            _ => format!(
                "  SET(j, lo + 1)\n  if j < hi:\n    if A[j] < A[lo]:\n      SWAP(lo, j)\n    \
                 MOVE(lo, RIGHT)\n    P{i}()\n  else:\n    {next}\n"
            ),
        };
        source.push_str(&format!("\ndef P{i}():\n{body}"));
    }
    source
}

fn combinatorize_throughput(c: &mut Criterion) {
    let count = 5_000;
    let source = generated(count);
    let compilation = cnpi::compile::compile("generated.cnpi", &source, None);
    assert!(
        compilation.diagnostics.is_empty(),
        "{:?}",
        compilation.diagnostics
    );
    let Some(program) = compilation.program else {
        panic!("the generated file compiles");
    };
    let mut group = c.benchmark_group("combinatorize");
    group.sample_size(10);
    group.throughput(Throughput::Elements(count as u64));
    group.bench_function("5000 normal programs", |b| {
        b.iter(|| {
            let converted = cnpi::combinatorize::combinatorize(&program, &source, "generated.cnpi");
            assert!(converted.is_ok_and(|c| c.warnings.is_empty()));
        })
    });
    group.bench_function("5000 normal programs, for the network", |b| {
        b.iter(|| {
            let compilation = cnpi::compile::compile("generated.cnpi", &source, None);
            let compiled = cnpi::compile::Compiled {
                program: compilation.program.expect("the generated file compiles"),
                sources: compilation.sources,
                text: source.clone(),
            };
            let ready = cnpi::compile::for_the_network(compiled, "generated.cnpi");
            assert!(ready.is_ok_and(|ready| ready.written.is_some()));
        })
    });
    group.bench_function("5000 normal programs, compiled and checked", |b| {
        b.iter(|| {
            let compilation = cnpi::compile::compile("generated.cnpi", &source, None);
            let Some(program) = compilation.program else {
                panic!("the generated file compiles");
            };
            let converted = cnpi::combinatorize::combinatorize(&program, &source, "generated.cnpi")
                .expect("converts");
            let output = cnpi::compile::compile("out.cnpi", &converted.text, None);
            assert!(output.diagnostics.is_empty());
        })
    });
    group.finish();
}

criterion_group!(benches, combinatorize_throughput);
criterion_main!(benches);
