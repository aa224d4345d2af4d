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

#[allow(dead_code)]
mod harness;

mod dp;
mod geometry;
mod graphs;
mod greedy;
mod samplers;
mod searching;
mod sorting;
mod strings;
