//! A program's own combinators on the fixed core: learned, cached, run.
//!
//! The core is never retrained for a new combinator. [`learn`] looks for
//! an initial state `(h, c)` (an embedding, Emb-as-State0) under which the
//! frozen LSTM and decoders follow the combinator's definition: batch-1 SGD
//! on its abstract traces with only the new embedding as a variable
//! ([`fast::learn_embeddings`], the paper's continual setting of Table 2),
//! restarted from a new random embedding a few times. An attempt counts
//! only once the embedding passes the exhaustive verification `verify-core`
//! runs, on [`Network`], the inference path the runtime uses. A combinator
//! no attempt verifies is refused, never run. Learned embeddings are cached
//! beside the detectors (`combinators/<hash>.safetensors`), keyed by the
//! behaviour's canonical text, the core's identity (a hash of all its
//! weights) and the seed; whatever is read back is verified again, so a
//! stale entry is only a miss. [`Extended`] is the core with embeddings
//! appended: the core's tensors and its own embeddings stay as they are,
//! bit for bit, and every appended embedding is verified before a run.

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::fast::{self, FastOptions, Variant};
use super::network::{Decision, Network, State, States};
use super::table::DecisionTable;
use super::verify::{Verification, verify_network};
use super::{Core, longest};
use crate::detector::Cache;
use crate::tensors::{Fnv, Reader, Writer};
use cnpi::diagnostic::Diagnostic;
use cnpi::program::{Behaviour, Combinator, CombinatorKind, print};

/// The seed a memory's combinators are learned with, whatever the
/// memory's own seed: an embedding depends only on the body and the core.
/// Chosen because its starts learn every member of the family on the
/// shipped core (a test checks): of the seeds 0-7, 11, 42, 2018 and 2019,
/// only 4 and 11 do; the others leave `br_123s_n` refused, and some also
/// `br_13s_2` or `br_23s_n`.
pub const SEED: u64 = 11;
/// Fresh starting embeddings tried before a combinator is refused.
pub const ATTEMPTS: u64 = 32;
/// The most epochs of SGD per attempt.
pub const MAX_EPOCHS: usize = 1000;
/// Epochs without a better accuracy before the rate decays (×0.1), and
/// the decays before an attempt gives up. The paper's rate (0.5) with a
/// longer patience than a whole core's training: the shipped core then
/// learns all 57 members of the family (a test checks), where the core's
/// own schedule (10 epochs, 3 decays, 4 attempts) left 24 refused.
pub const PATIENCE: usize = 30;
pub const DECAYS: i32 = 4;

/// The `format` metadata entry of a cached embedding.
pub const FORMAT: &str = "cnpi-embedding-1";

/// How an embedding was found.
#[derive(Clone, Debug, PartialEq)]
pub struct Learned {
    pub embedding: State,
    /// Attempts made (0 when it came from the cache).
    pub attempts: u64,
    /// Epochs over all attempts.
    pub epochs: usize,
    /// SGD updates over all attempts (one per trace per epoch).
    pub updates: usize,
}

/// Why there is no embedding: the last attempt's verification (on the
/// inference network) of a combinator no attempt learned.
#[derive(Clone, Debug)]
pub struct Refused(pub Verification);

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
) -> Result<Learned, Refused> {
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
    let frozen = fast::Model::from_weights(core.network().weights().clone());
    let first = frozen.combinators();
    let traces = super::traces(std::slice::from_ref(behaviour)).len();
    // Each attempt's seed (its starting embedding and trace order) comes
    // from one stream drawn from `seed`.
    let mut seeds = ChaCha8Rng::seed_from_u64(seed);
    let (mut epochs, mut last) = (0, None);
    for attempt in 1..=ATTEMPTS {
        let mut options = FastOptions::new(Variant::State0, cells, seeds.random(), MAX_EPOCHS);
        options.patience = PATIENCE;
        options.min_learning_rate = options.learning_rate * options.decay.powi(DECAYS);
        let fitted = fast::learn_embeddings(&frozen, &[(name, behaviour)], &options, &mut |_| {});
        epochs += fitted.epochs;
        let row = |values: &[f32]| values[first * cells..(first + 1) * cells].to_vec();
        let embedding = State {
            h: row(&fitted.model.weights.emb_h),
            c: row(&fitted.model.weights.emb_c),
        };
        // The trainer's verification runs its own forward pass; what
        // counts is the network the runtime steps.
        let verification = verify(core, name, behaviour, &embedding);
        if verification.passed() {
            key.store(cache, &embedding);
            return Ok(Learned {
                embedding,
                attempts: attempt,
                epochs,
                updates: epochs * traces,
            });
        }
        last = Some(verification);
    }
    Err(Refused(last.unwrap_or_else(|| {
        verify(core, name, behaviour, &State::zeros(cells))
    })))
}

/// The exhaustive verification of one embedding on `core`.
pub fn verify(core: &Core, name: &str, behaviour: &Behaviour, e: &State) -> Verification {
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

    fn load(&self, cache: &Cache) -> Option<State> {
        let bytes = cnpi::read::bytes(&self.path(cache)?).ok()?;
        let reader = Reader::open(&bytes, FORMAT).ok()?;
        for (name, value) in ["behaviour", "core", "seed"].iter().zip(self.fields()) {
            if reader.metadata(name).ok()? != value {
                return None;
            }
        }
        let cells = reader.shape("h").ok()?.first().copied()?;
        Some(State {
            h: reader.tensor("h", &[cells]).ok()?,
            c: reader.tensor("c", &[cells]).ok()?,
        })
    }

    fn store(&self, cache: &Cache, embedding: &State) {
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
/// after its own (`Combinator::Defined(k)` is the `k`-th appended row),
/// every one verified. It holds a copy of the core (a few kilobytes), so a
/// program put on the network once runs any number of times.
#[derive(Clone, Debug)]
pub struct Extended {
    core: Core,
    network: Network,
    table: DecisionTable,
}

impl Extended {
    /// `core` extended by `defined` (name, behaviour, embedding), or the
    /// verification that failed: every appended row is checked
    /// exhaustively (the core's own rows are untouched and were verified
    /// when it was loaded).
    pub fn new(
        core: &Core,
        defined: &[(&str, &Behaviour, State)],
    ) -> Result<Extended, Verification> {
        let cells = core.cells();
        let own = core.kinds().len();
        let mut weights = core.network().weights().clone();
        for (_, _, embedding) in defined {
            weights.emb_h.extend(fit(&embedding.h, cells));
            weights.emb_c.extend(fit(&embedding.c, cells));
        }
        let network = Network::new(weights);
        let appended: Vec<(&str, &Behaviour)> = defined
            .iter()
            .map(|(name, behaviour, _)| (*name, *behaviour))
            .collect();
        let verification = verify_network(&Shifted(&network, own), &appended);
        if !verification.passed() {
            return Err(verification);
        }
        // Table rows by `index`: the core's own (the five stdlib
        // combinators, whose embeddings and weights are unchanged), then the
        // appended ones, computed on the extended network.
        let rows: Vec<Option<(usize, usize)>> = (appended.iter().enumerate())
            .map(|(k, (_, b))| Some((own + k, longest(b))))
            .collect();
        let table = core.table().with_rows(&network, &rows);
        Ok(Extended {
            core: core.clone(),
            network,
            table,
        })
    }

    /// The number of combinators appended.
    pub fn appended(&self) -> usize {
        self.network.combinators() - self.core.kinds().len()
    }

    /// The network: the core's weights with the appended embeddings.
    pub fn network(&self) -> &Network {
        &self.network
    }

    /// E1007 unless the core has `combinator` (an appended one it has).
    pub fn require(&self, combinator: CombinatorKind) -> Result<(), Diagnostic> {
        match combinator {
            CombinatorKind::User(Combinator::Defined(k)) if k < self.appended() => Ok(()),
            CombinatorKind::User(Combinator::Defined(k)) => Err(cnpi::env::internal(format!(
                "the program applies combinator {k} of its own, which the memory does not hold"
            ))),
            stdlib => self.core.require(stdlib),
        }
    }

    /// The initial state of `combinator`, which the core must have (see
    /// [`Extended::require`]).
    pub fn start(&self, combinator: CombinatorKind) -> State {
        self.network.start(self.embedding(combinator))
    }

    /// [`Extended::start`] onto a stack of states, without allocating.
    pub fn push(&self, combinator: CombinatorKind, states: &mut States) {
        self.network.push(self.embedding(combinator), states);
    }

    /// The row of `combinator`'s embedding in the extended network.
    fn embedding(&self, combinator: CombinatorKind) -> usize {
        match combinator {
            CombinatorKind::User(Combinator::Defined(k)) => self.core.kinds().len() + k,
            stdlib => self.core.embedding(stdlib),
        }
    }

    /// One step of the network (see [`Core::step`]).
    pub fn step(&self, state: &mut State, bit: bool) -> Decision {
        self.network.step(state, bit)
    }

    /// [`Extended::step`] of the state on top of `states` (`None` when
    /// there is none).
    pub fn step_top(&self, states: &mut States, bit: bool) -> Option<Decision> {
        self.network.step_top(states, bit)
    }

    /// The decision table over the five combinators and the appended ones
    /// (looked up by [`index`](super::index)).
    pub fn table(&self) -> &DecisionTable {
        &self.table
    }
}

/// A network seen from its combinator `.1` on.
struct Shifted<'n>(&'n Network, usize);

impl super::Decider for Shifted<'_> {
    type State = State;
    fn start(&self, combinator: usize) -> State {
        self.0.start(self.1 + combinator)
    }
    fn step(&self, state: &mut State, bit: bool) -> Decision {
        self.0.step(state, bit)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::write;
    use cnpi::program::Slot;

    /// A core of all-zero weights: its decisions do not depend on the
    /// embedding, so it can follow nothing but one fixed decision.
    fn zero_core() -> Core {
        let bytes = crate::core::tests::zero_core_file();
        Core::from_bytes_unverified(&bytes, "zero.safetensors").expect("reads")
    }

    #[test]
    fn a_combinator_no_attempt_verifies_is_refused_and_not_cached() {
        let dir = std::env::temp_dir().join(format!("cnpi-refused-{}", std::process::id()));
        let cache = Cache::at(&dir);
        let behaviour = Behaviour {
            when_true: vec![Slot::A1, Slot::A2],
            when_false: vec![Slot::A3],
        };
        let Err(Refused(verification)) = learn(&zero_core(), "x", &behaviour, 7, &cache) else {
            panic!("a zero core learned a combinator");
        };
        assert!(!verification.passed());
        assert!(!dir.join("combinators").exists());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn an_embedding_of_the_wrong_size_never_verifies() {
        let core = Core::shipped().expect("the shipped core loads");
        let behaviour = core.combinators.get(CombinatorKind::User(Combinator::Seq));
        let short = State::zeros(core.cells() - 1);
        assert!(!verify(core, "seq", behaviour, &short).passed());
        let appended = [("seq", behaviour, short)];
        assert!(Extended::new(core, &appended).is_err());
    }

    #[test]
    fn a_partial_core_runs_the_appended_combinators_after_its_own() {
        let core = Core::shipped().expect("the shipped core loads");
        let mut weights = core.network().weights().clone();
        weights.emb_h.truncate(3 * core.cells());
        weights.emb_c.truncate(3 * core.cells());
        let mut metadata = core.metadata().clone();
        metadata.combinators = ["seq", "cond", "linrec"].map(String::from).to_vec();
        let partial = Core::from_bytes(&write(&weights, &metadata), "partial.safetensors")
            .expect("the partial core verifies");
        let behaviour = Behaviour {
            when_true: vec![Slot::A1, Slot::SelfSlot],
            when_false: vec![Slot::Nop],
        };
        let learned = learn(core, "repeat", &behaviour, 5, &Cache::none()).expect("learns");
        let appended = [("repeat", &behaviour, learned.embedding.clone())];
        let full = Extended::new(core, &appended).expect("verifies on the full core");
        let part = Extended::new(&partial, &appended).expect("verifies on the partial core");
        let repeat = CombinatorKind::User(Combinator::Defined(0));
        assert!(part.require(repeat).is_ok());
        let treerec = CombinatorKind::User(Combinator::Treerec);
        assert!(part.require(treerec).is_err());
        assert_eq!(part.start(repeat), full.start(repeat));
        let beyond = CombinatorKind::User(Combinator::Defined(1));
        assert!(part.require(beyond).is_err());
        for bits in [&[true][..], &[true, false], &[false]] {
            assert_eq!(
                part.table().decision(repeat, bits),
                full.table().decision(repeat, bits)
            );
            assert!(part.table().decision(repeat, bits).is_some());
        }
    }
}
