//! The harness every CLRS test uses: run `examples/clrs/<id>.cnpi` on a
//! JSON input with one of the three engines `cnpic run` offers (the
//! network with its exact caches, `--symbolic`, `--no-cache`) and hand
//! back the JSON object `cnpic run --format json` prints; check that the
//! three agree; and draw seeded random inputs shaped like the CLRS
//! samplers' (arrays of integers, sorted arrays, strings over a small
//! alphabet, points in a disc with no three on a line).
//!
//! A program is compiled once ([`program`]) and its memory built on the
//! first network run, so a test that runs many inputs pays for its
//! detectors once.

use std::sync::OnceLock;

use cnpi::exec::{Options, Outcome};
use cnpi::plan::NetworkEngine as _;
use cnpi::program::Program;
use cnpi::symbolic;
use cnpi_neural::core::Core;
use cnpi_neural::detector::Cache;
use cnpi_neural::memory::{DEFAULT_SEED, Entry, Memory};
use cnpi_neural::runtime::{JitMode, OnTheNetwork};
use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::Value;

/// The engine a program runs on, as `cnpic run` chooses it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engine {
    /// The network, with the detectors' exact caches (the default).
    Network,
    /// The reference interpreter on the program as written (`--symbolic`).
    Symbolic,
    /// The network running the plain detector networks at every step
    /// (`--no-cache`).
    NoCache,
}

/// A CLRS program, compiled; its program memory is built on first use.
pub struct Clrs {
    /// The file, relative to the workspace root.
    id: String,
    /// The program as written (what `--symbolic` runs).
    written: Program,
    /// The combinatory program and its text (what the network runs).
    combinatory: (Program, String),
    memory: OnceLock<Memory>,
    /// The memory on the shipped core, with the exact caches and without,
    /// put there on first use as `cnpic run` puts it.
    networks: [OnceLock<OnTheNetwork>; 2],
}

/// The path of a CLRS program, relative to the workspace root.
pub fn path(id: &str) -> String {
    format!("examples/clrs/{id}.cnpi")
}

/// Compiles `examples/clrs/<id>.cnpi` for both engines.
pub fn program(id: &str) -> Clrs {
    program_file(&path(id))
}

/// Compiles the file `name` (relative to the workspace root) for both
/// engines.
pub fn program_file(name: &str) -> Clrs {
    let name = name.to_string();
    let text = std::fs::read_to_string(format!("{}/{name}", crate::ROOT))
        .unwrap_or_else(|error| panic!("{name}: {error}"));
    let compilation = cnpi::compile::compile(&name, &text, None);
    let written = compilation
        .program
        .unwrap_or_else(|| panic!("{name} compiles: {:?}", compilation.diagnostics));
    let compiled = cnpi::compile::Compiled {
        program: written.clone(),
        sources: compilation.sources,
        text,
    };
    let ready = cnpi::compile::for_the_network(compiled, &name)
        .unwrap_or_else(|(diagnostics, _)| panic!("{name} combinatorizes: {diagnostics:?}"));
    let combinatory = (ready.combinatory.program, ready.combinatory.text);
    Clrs {
        id: name,
        written,
        combinatory,
        memory: OnceLock::new(),
        networks: [OnceLock::new(), OnceLock::new()],
    }
}

/// Runs `examples/clrs/<id>.cnpi` on `input` with `engine`: the JSON
/// object of `cnpic run --format json`. Compiles on every call; a test
/// running many inputs compiles once with [`program`].
pub fn run(id: &str, input: &Value, engine: Engine) -> Value {
    program(id).run(input, engine)
}

impl Clrs {
    fn memory(&self) -> &Memory {
        self.memory.get_or_init(|| {
            let (program, text) = &self.combinatory;
            Memory::with_program(program, &self.id, text, DEFAULT_SEED, &Cache::none())
                .unwrap_or_else(|d| panic!("{}: the memory builds: {d:?}", self.id))
        })
    }

    /// Program 0 of the memory on the shipped core, `cached` or not.
    fn network(&self, cached: bool) -> &OnTheNetwork {
        self.networks[usize::from(cached)].get_or_init(|| {
            let memory = self.memory().clone();
            let core = Core::shipped().expect("the shipped core loads");
            let entry = Entry::of_unit(&memory, 0).expect("the memory has a program");
            let mut network = OnTheNetwork::new(core, memory, entry, cached)
                .unwrap_or_else(|d| panic!("{}: goes on the network: {d:?}", self.id));
            // As `cnpic run` reads it.
            network.set_jit(JitMode::asked(|name| std::env::var_os(name)));
            network
        })
    }

    /// Runs the program on `input` with `engine`; panics (naming the
    /// input) on a runtime error.
    pub fn run(&self, input: &Value, engine: Engine) -> Value {
        let text = input.to_string();
        let options = Options {
            max_steps: 1 << 40,
            trace: None,
            limits: Default::default(),
        };
        let outcome: Result<Outcome, _> = match engine {
            Engine::Symbolic => {
                let layout = cnpi::env::Declarations::of(&self.written);
                let state = cnpi::env::read_input(&layout, &text)
                    .unwrap_or_else(|d| panic!("{}: input {text}: {d:?}", self.id));
                symbolic::run(&self.written, state, options)
            }
            Engine::Network | Engine::NoCache => {
                let network = self.network(engine == Engine::Network);
                let info = &network.memory().units[0];
                let state = cnpi::env::read_input(&info.declared, &text)
                    .unwrap_or_else(|d| panic!("{}: input {text}: {d:?}", self.id));
                network.run(state, options, None)
            }
        };
        let name = match engine {
            Engine::Symbolic => "symbolic",
            Engine::Network | Engine::NoCache => "neural",
        };
        match outcome {
            Ok(outcome) => outcome.to_json(name),
            Err(d) => panic!("{} ({engine:?}) on {text}: {d:?}", self.id),
        }
    }

    /// Runs `input` on every engine in `engines` and asserts that they
    /// agree on every member but `"engine"` (and `"steps"`, which counts
    /// statements with `--symbolic` and core steps on the network; the
    /// two network engines must agree on it too). Returns the first
    /// engine's output.
    pub fn agreed(&self, input: &Value, engines: &[Engine]) -> Value {
        let outputs: Vec<Value> = engines.iter().map(|&e| self.run(input, e)).collect();
        let network: Vec<&Value> = engines
            .iter()
            .zip(&outputs)
            .filter(|(e, _)| **e != Engine::Symbolic)
            .map(|(_, o)| o)
            .collect();
        for pair in network.windows(2) {
            assert_eq!(
                pair[0]["steps"], pair[1]["steps"],
                "{}: steps on {input}",
                self.id
            );
        }
        let results: Vec<Value> = outputs.iter().map(results).collect();
        for (engine, result) in engines.iter().zip(&results).skip(1) {
            assert_eq!(
                &results[0], result,
                "{}: {:?} and {engine:?} disagree on {input}",
                self.id, engines[0]
            );
        }
        outputs.into_iter().next().expect("at least one engine")
    }
}

/// The sizes every test runs: the edges, the CLRS training size 16 and
/// its test size 64.
pub const SIZES: [usize; 6] = [1, 2, 3, 7, 16, 64];

/// Every engine, network first.
pub const ALL: [Engine; 3] = [Engine::Network, Engine::Symbolic, Engine::NoCache];

/// The network and `--symbolic`: the engines at sizes where the plain
/// networks of `--no-cache` (every detector at every step) take minutes.
pub const FAST: [Engine; 2] = [Engine::Network, Engine::Symbolic];

/// The engines to check at size `n` for an algorithm whose work grows as
/// n^4 (the reference's matrix-chain rounds) or n^3: all three up to 16;
/// above, the network and `--symbolic`.
pub fn heavy(n: usize) -> &'static [Engine] {
    if n <= 16 { &ALL } else { &FAST }
}

/// Where a test runs its program: the sizes, and the engines at each size.
#[derive(Clone, Copy)]
pub struct Sweep {
    pub sizes: &'static [usize],
    pub engines: fn(usize) -> &'static [Engine],
}

/// What CI runs: [`SIZES`] on every engine.
pub const SMALL: Sweep = Sweep {
    sizes: &SIZES,
    engines: |_| &ALL,
};

/// What CI runs for an algorithm of cubic or quartic work: [`SIZES`] with
/// [`heavy`]'s engines.
pub const SMALL_HEAVY: Sweep = Sweep {
    sizes: &SIZES,
    engines: heavy,
};

/// The sizes outside suites run, up to the largest: the CLRS training size
/// 16, its test size 64 and 1024, on the network and `--symbolic`. The
/// `largest_*` tests run them; they are ignored by default (minutes, not
/// for CI): `cargo test --release -p cnpic --test clrs -- --ignored largest`.
pub const LARGEST: Sweep = Sweep {
    sizes: &[16, 64, 1024],
    engines: |_| &FAST,
};

/// [`LARGEST`] for the graph algorithms of quadratic work, and 256 on
/// the way (the size of the table in `docs/clrs.md`).
pub const LARGEST_GRAPH: Sweep = Sweep {
    sizes: &[16, 64, 256, 1024],
    engines: |_| &FAST,
};

/// [`LARGEST`] for the algorithms of cubic work or more: up to 64.
pub const LARGEST_CUBIC: Sweep = Sweep {
    sizes: &[16, 64],
    engines: |_| &FAST,
};

/// An output without the members that name or count the engine's work.
fn results(output: &Value) -> Value {
    let mut output = output.clone();
    if let Some(members) = output.as_object_mut() {
        members.remove("steps");
        members.remove("engine");
    }
    output
}

/// The integer member `name` of an output.
pub fn int(output: &Value, name: &str) -> i64 {
    output[name]
        .as_i64()
        .unwrap_or_else(|| panic!("`{name}` is an integer in {output}"))
}

/// The array member `name` of an output.
pub fn ints(output: &Value, name: &str) -> Vec<i64> {
    serde_json::from_value(output[name].clone())
        .unwrap_or_else(|_| panic!("`{name}` is an array of integers in {output}"))
}

/// The matrix member `name` of an output.
pub fn matrix(output: &Value, name: &str) -> Vec<Vec<i64>> {
    serde_json::from_value(output[name].clone())
        .unwrap_or_else(|_| panic!("`{name}` is a matrix of integers in {output}"))
}

/// The seeded generator every sampler draws from.
pub fn rng(seed: u64) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(seed)
}

/// `n` integers drawn uniformly from `lo..=hi` (repeats likely when the
/// range is small).
pub fn ints_in(rng: &mut ChaCha8Rng, n: usize, lo: i64, hi: i64) -> Vec<i64> {
    (0..n).map(|_| rng.random_range(lo..=hi)).collect()
}

/// `n` distinct integers from `lo..=hi` (which must hold at least `n`),
/// in random order.
pub fn distinct(rng: &mut ChaCha8Rng, n: usize, lo: i64, hi: i64) -> Vec<i64> {
    assert!(hi - lo + 1 >= n as i64, "room for {n} distinct values");
    let mut seen = std::collections::HashSet::new();
    let mut values = Vec::with_capacity(n);
    while values.len() < n {
        let v = rng.random_range(lo..=hi);
        if seen.insert(v) {
            values.push(v);
        }
    }
    values.shuffle(rng);
    values
}

/// `n` integers from `lo..=hi`, sorted ascending.
pub fn sorted(rng: &mut ChaCha8Rng, n: usize, lo: i64, hi: i64) -> Vec<i64> {
    let mut values = ints_in(rng, n, lo, hi);
    values.sort_unstable();
    values
}

/// A string of `n` letters over an alphabet of `letters` (0..letters), as
/// the CLRS string samplers draw them.
pub fn string(rng: &mut ChaCha8Rng, n: usize, letters: i64) -> Vec<i64> {
    ints_in(rng, n, 0, letters - 1)
}

/// `n` distinct integer points in the disc of radius `radius` around the
/// origin, no three on a line (as the CLRS convex-hull sampler resamples
/// until it has such points): `(xs, ys)`.
pub fn points(rng: &mut ChaCha8Rng, n: usize, radius: i64) -> (Vec<i64>, Vec<i64>) {
    let mut xs: Vec<i64> = Vec::with_capacity(n);
    let mut ys: Vec<i64> = Vec::with_capacity(n);
    while xs.len() < n {
        let (x, y) = (
            rng.random_range(-radius..=radius),
            rng.random_range(-radius..=radius),
        );
        if x * x + y * y > radius * radius {
            continue;
        }
        let on_a_line = (0..xs.len())
            .any(|i| (i + 1..xs.len()).any(|j| cross(xs[i], ys[i], xs[j], ys[j], x, y) == 0))
            || xs.iter().zip(&ys).any(|(&a, &b)| (a, b) == (x, y));
        if !on_a_line {
            xs.push(x);
            ys.push(y);
        }
    }
    (xs, ys)
}

/// The cross product of `b - a` and `c - a`.
pub fn cross(ax: i64, ay: i64, bx: i64, by: i64, cx: i64, cy: i64) -> i64 {
    (bx - ax) * (cy - ay) - (by - ay) * (cx - ax)
}

/// Shortest distances from `s` in the weight matrix `w` (None:
/// unreachable), by plain relaxation to a fixed point; `is_edge` says which
/// entries are edges (the benchmark's graphs mark no edge with 0, the ram
/// example's with a negative weight).
pub fn relaxed_distances(
    w: &[Vec<i64>],
    s: usize,
    is_edge: impl Fn(i64) -> bool,
) -> Vec<Option<i64>> {
    let n = w.len();
    let mut d = vec![None; n];
    d[s] = Some(0);
    let mut changed = true;
    while changed {
        changed = false;
        for u in 0..n {
            for v in 0..n {
                if let (Some(du), true) = (d[u], is_edge(w[u][v]))
                    && d[v].is_none_or(|dv| du + w[u][v] < dv)
                {
                    d[v] = Some(du + w[u][v]);
                    changed = true;
                }
            }
        }
    }
    d
}
