//! A program's own combinators on the fixed core: learned, cached, run.
//!
//! The core is never retrained for a new combinator. [`learn`] looks for
//! an initial state `(h, c)` (an embedding, Emb-as-State0) under which the
//! frozen LSTM and decoders follow the combinator's definition: SGD on its
//! abstract traces with only the embedding as a variable (the trainer of
//! `train`, the paper's continual setting of Table 2), restarted from a
//! new random embedding a few times, each attempt checked by the
//! exhaustive verification `verify-core` runs. A combinator no attempt
//! verifies is refused, never run. Learned embeddings are cached beside
//! the detectors (`combinators/<hash>.safetensors`), keyed by the
//! behaviour's canonical text, the core's identity (a hash of all its
//! weights) and the seed; whatever is read back is verified again, so a
//! stale entry is only a miss. [`Extended`] is the core with embeddings
//! appended: the core's tensors and its five embeddings stay as they are,
//! bit for bit, and every appended embedding is verified before a run.

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::network::{Decision, Network, State};
use super::table::DecisionTable;
use super::train::{TrainOptions, train_embeddings};
use super::verify::{Verification, verify_network};
use super::{Core, index, longest, named};
use crate::detector::Cache;
use crate::tensors::{Fnv, Reader, Writer};
use cnpi::diagnostic::Diagnostic;
use cnpi::program::{Behaviour, CombinatorKind, print};

/// Fresh starting embeddings tried before a combinator is refused.
pub const ATTEMPTS: u64 = 4;
/// Epochs of SGD per attempt.
pub const MAX_EPOCHS: usize = 400;

const FORMAT: &str = "cnpi-embedding-1";

/// A combinator's initial LSTM state.
#[derive(Clone, Debug, PartialEq)]
pub struct Embedding {
    pub h: Vec<f32>,
    pub c: Vec<f32>,
}

/// How an embedding was found.
#[derive(Clone, Debug, PartialEq)]
pub struct Learned {
    pub embedding: Embedding,
    /// Attempts made (0 when it came from the cache).
    pub attempts: u64,
    /// Epochs over all attempts.
    pub epochs: usize,
    /// SGD updates over all attempts (one per trace per epoch).
    pub updates: usize,
}

/// Why there is no embedding.
#[derive(Clone, Debug)]
pub enum NotLearned {
    /// No attempt verified: the last attempt's verification.
    Refused(Verification),
    /// The trainer failed (a bug).
    Error(Diagnostic),
}

/// The canonical text of a behaviour: both branches, slot by slot. What
/// the core must do depends on nothing else.
pub fn canonical(behaviour: &Behaviour) -> String {
    print::body(behaviour, true)
}

/// The core's identity: a hash of every weight, bit for bit.
pub fn identity(core: &Core) -> u64 {
    let mut hash = Fnv::default();
    for (name, _, values) in core.network().weights().tensors() {
        hash.field(name.as_bytes());
        let bytes: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
        hash.field(&bytes);
    }
    hash.finish()
}

/// An embedding for `behaviour` (called `name` in reports) on `core`, from
/// `cache` or learned with `seed`, verified.
pub fn learn(
    core: &Core,
    name: &str,
    behaviour: &Behaviour,
    seed: u64,
    cache: &Cache,
) -> Result<Learned, NotLearned> {
    let text = canonical(behaviour);
    let key = Key {
        text: &text,
        core: identity(core),
        seed,
    };
    if let Some(embedding) = key.load(cache)
        && verify(core, name, behaviour, &embedding).passed()
    {
        return Ok(Learned {
            embedding,
            attempts: 0,
            epochs: 0,
            updates: 0,
        });
    }
    let cells = core.cells();
    let weights = core.network().weights();
    let traces = super::traces(std::slice::from_ref(behaviour)).len();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let (mut epochs, mut last) = (0, None);
    for attempt in 1..=ATTEMPTS {
        let mut start = weights.clone();
        start.emb_h = (0..cells).map(|_| rng.random_range(-1.0..1.0)).collect();
        start.emb_c = (0..cells).map(|_| rng.random_range(-1.0..1.0)).collect();
        let options = TrainOptions::new(cells, seed, MAX_EPOCHS);
        let trained =
            train_embeddings(start, &[(name, behaviour)], &options, &mut rng, &mut |_| {})
                .map_err(NotLearned::Error)?;
        epochs += trained.epochs;
        if trained.verification.passed() {
            let embedding = Embedding {
                h: trained.weights.emb_h,
                c: trained.weights.emb_c,
            };
            key.store(cache, &embedding);
            return Ok(Learned {
                embedding,
                attempts: attempt,
                epochs,
                updates: epochs * traces,
            });
        }
        last = Some(trained.verification);
    }
    Err(NotLearned::Refused(last.unwrap_or_else(|| {
        verify(core, name, behaviour, &Embedding::zeros(cells))
    })))
}

/// The exhaustive verification of one embedding on `core`.
pub fn verify(core: &Core, name: &str, behaviour: &Behaviour, e: &Embedding) -> Verification {
    let mut weights = core.network().weights().clone();
    weights.emb_h = fit(&e.h, core.cells());
    weights.emb_c = fit(&e.c, core.cells());
    verify_network(&Network::new(weights), &[(name, behaviour)])
}

/// `values` as one row of `cells`: an embedding of another size is padded
/// or cut with NaN in place, which makes every score NaN and `r < α`, so
/// it can never pass verification (every definition returns at its end).
fn fit(values: &[f32], cells: usize) -> Vec<f32> {
    let mut row = values.to_vec();
    if row.len() != cells {
        row = vec![f32::NAN; cells];
    }
    row
}

impl Embedding {
    pub fn zeros(cells: usize) -> Embedding {
        Embedding {
            h: vec![0.0; cells],
            c: vec![0.0; cells],
        }
    }
}

/// What a cached embedding is stored under.
struct Key<'t> {
    text: &'t str,
    core: u64,
    seed: u64,
}

impl Key<'_> {
    fn fields(&self) -> [String; 3] {
        [
            self.text.to_string(),
            format!("{:016x}", self.core),
            self.seed.to_string(),
        ]
    }

    fn path(&self, cache: &Cache) -> Option<std::path::PathBuf> {
        let fields = self.fields();
        let bytes: Vec<&[u8]> = fields.iter().map(|f| f.as_bytes()).collect();
        cache.file("combinators", &bytes)
    }

    fn load(&self, cache: &Cache) -> Option<Embedding> {
        let bytes = std::fs::read(self.path(cache)?).ok()?;
        let reader = Reader::open(&bytes, FORMAT).ok()?;
        for (name, value) in ["behaviour", "core", "seed"].iter().zip(self.fields()) {
            if reader.metadata(name).ok()? != value {
                return None;
            }
        }
        let cells = reader.shape("h").ok()?.first().copied()?;
        Some(Embedding {
            h: reader.tensor("h", &[cells]).ok()?,
            c: reader.tensor("c", &[cells]).ok()?,
        })
    }

    fn store(&self, cache: &Cache, embedding: &Embedding) {
        let Some(path) = self.path(cache) else {
            return;
        };
        let mut writer = Writer::new(FORMAT);
        for (name, value) in ["behaviour", "core", "seed"].iter().zip(self.fields()) {
            writer.metadata(name, value);
        }
        writer.tensor("h", &[embedding.h.len()], &embedding.h);
        writer.tensor("c", &[embedding.c.len()], &embedding.c);
        Cache::keep(&path, &writer.finish());
    }
}

/// The core with the embeddings of a memory's own combinators appended
/// (`Combinator::Defined(k)` is row `5 + k`), every one verified.
#[derive(Clone, Debug)]
pub struct Extended {
    network: Network,
    table: DecisionTable,
}

impl Extended {
    /// `core` extended by `defined` (name, behaviour, embedding), or the
    /// verification that failed: all five stdlib rows and every appended
    /// one are checked exhaustively.
    pub fn new(
        core: &Core,
        defined: &[(&str, &Behaviour, Embedding)],
    ) -> Result<Extended, Verification> {
        let mut weights = core.network().weights().clone();
        for (_, _, embedding) in defined {
            weights.emb_h.extend(fit(&embedding.h, core.cells()));
            weights.emb_c.extend(fit(&embedding.c, core.cells()));
        }
        let network = Network::new(weights);
        let mut behaviours: Vec<(&str, &Behaviour)> = named(&core.combinators);
        behaviours.extend(
            defined
                .iter()
                .map(|(name, behaviour, _)| (*name, *behaviour)),
        );
        let verification = verify_network(&network, &behaviours);
        if !verification.passed() {
            return Err(verification);
        }
        let depths: Vec<usize> = behaviours.iter().map(|(_, b)| longest(b)).collect();
        let table = DecisionTable::build(&network, &depths);
        Ok(Extended { network, table })
    }

    pub fn network(&self) -> &Network {
        &self.network
    }

    /// The initial state of `combinator`.
    pub fn start(&self, combinator: CombinatorKind) -> State {
        self.network.start(index(combinator))
    }

    /// One step of the network (see [`Core::step`]).
    pub fn step(&self, state: &mut State, bit: bool) -> Decision {
        self.network.step(state, bit)
    }

    /// The decision table over the five combinators and the appended ones.
    pub fn table(&self) -> &DecisionTable {
        &self.table
    }
}
