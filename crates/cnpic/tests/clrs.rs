//! The 30 CLRS algorithms of `examples/clrs/` against oracles that are not
//! the programs themselves: a small port of each reference algorithm in
//! Rust, or a property its output must have. Each test compiles its
//! program once and runs it on seeded random inputs of a few sizes from 1
//! to 64 on the network, `--symbolic` and `--no-cache`, which must agree
//! with each other and with the oracle. The harness and the samplers are
//! in `clrs/harness.rs`; each family of algorithms has its own module.
//! Beside each test, an ignored `largest_<id>` runs the same check at the
//! sizes outside suites use, up to 1024 (docs/clrs.md):
//! `cargo test --release -p cnpic --test clrs -- --ignored largest`.

/// The workspace root: the examples live there.
const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");

#[path = "clrs/harness.rs"]
#[allow(dead_code)]
mod harness;

#[path = "clrs/dp.rs"]
mod dp;
#[path = "clrs/geometry.rs"]
mod geometry;
#[path = "clrs/graphs.rs"]
mod graphs;
#[path = "clrs/greedy.rs"]
mod greedy;
#[path = "clrs/samplers.rs"]
mod samplers;
#[path = "clrs/searching.rs"]
mod searching;
#[path = "clrs/sorting.rs"]
mod sorting;
#[path = "clrs/strings.rs"]
mod strings;
