//! The core: the LSTM that interprets combinators, trained once and verified.
//!
//! A [`Core`] is a one-layer LSTM whose only input is the binary condition,
//! with one embedding per combinator as its initial state (Emb-as-State0)
//! and the decoders `f_end` (return when `r ≥ α`) and `f_prog` (argmax over
//! the K = 9 frame slots of `Slot::ALL`). The pieces:
//!
//! - `network`: the weights and the plain-`f32` step (the inference path);
//! - [`lstm`]: the weights of one LSTM layer, with the forward and backward
//!   passes the fast trainer (and `cnpi-rl`'s policy) trains it by;
//! - `traces`: what the definitions in `stdlib/core.cnpi` require;
//! - `table`: the network's decision after every bit prefix;
//! - `shipped`: the shipped core's table, kept in the source;
//! - `verify`: the exhaustive check of a network against definitions;
//! - `train`: SGD on the abstract traces, in candle;
//! - `embedding`: a program's own combinators, learned on the fixed core;
//! - `file`: safetensors files with provenance and a checksum.
//!
//! A core is only ever handed out verified: [`Core::load`] and
//! [`Core::from_bytes`] refuse a core whose decisions differ from the
//! definitions anywhere. The shipped core is `stdlib/core.safetensors`,
//! embedded in the binary with everything its verification reads, so a
//! test verifies it (and checks its checksum) once for every build. A
//! core may be *partial*: its file embeds only some of the combinators (a
//! core learned by reinforcement has `seq`, `cond` and `linrec`); it is
//! verified for those, and the runtime refuses a program that needs
//! another.

pub mod embedding;
pub mod fast;
mod file;
pub mod lstm;
mod network;
mod schedule;
mod shipped;
mod table;
mod traces;
pub mod train;
mod verify;

use std::path::Path;
use std::sync::OnceLock;

pub use file::{FORMAT, Metadata, write};
pub use network::{
    ALPHA, Decision, Network, Numbers, SLOTS, State as CoreState, States as CoreStates, Weights,
};
pub use schedule::EpochReport;
pub use table::{Decider, DecisionTable};
pub use traces::{Trace, expected, longest, traces};
use verify::verify_rows;
pub use verify::{Mismatch, Verification, VerificationRow, verify_network};

use cnpi::diagnostic::{Diagnostic, codes};
use cnpi::program::{Behaviour, Combinator, CombinatorKind, Combinators};

/// The number of LSTM cells of the shipped core (and of `train-core`).
pub const DEFAULT_CELLS: usize = 16;

/// The shipped core's file, embedded, and the name diagnostics give it.
pub const SHIPPED: &[u8] = include_bytes!("../../../../stdlib/core.safetensors");
pub const SHIPPED_NAME: &str = "stdlib/core.safetensors";

/// The combinators in embedding order, with their names in `core.cnpi`.
pub const COMBINATORS: [(CombinatorKind, &str); 5] = [
    (CombinatorKind::User(Combinator::Seq), "seq"),
    (CombinatorKind::User(Combinator::Cond), "cond"),
    (CombinatorKind::User(Combinator::Linrec), "linrec"),
    (CombinatorKind::User(Combinator::Treerec), "treerec"),
    (CombinatorKind::MapSelf, "_mapself"),
];

/// The row of a combinator in a decision table: its position in
/// [`COMBINATORS`] (its embedding in a full core), or for `Defined(k)` the
/// `k`-th row after them ([`embedding::Extended`]).
pub fn index(kind: CombinatorKind) -> usize {
    match kind {
        CombinatorKind::User(Combinator::Defined(k)) => COMBINATORS.len() + k,
        CombinatorKind::User(Combinator::Seq) => 0,
        CombinatorKind::User(Combinator::Cond) => 1,
        CombinatorKind::User(Combinator::Linrec) => 2,
        CombinatorKind::User(Combinator::Treerec) => 3,
        CombinatorKind::MapSelf => 4,
    }
}

/// The combinator at row `index` of a decision table: the inverse of
/// [`index`].
pub fn kind_at(index: usize) -> CombinatorKind {
    match COMBINATORS.get(index) {
        Some(&(kind, _)) => kind,
        None => CombinatorKind::User(Combinator::Defined(index - COMBINATORS.len())),
    }
}

/// The five behaviours with their names, in embedding order.
pub fn named(combinators: &Combinators) -> Vec<(&'static str, &Behaviour)> {
    COMBINATORS
        .iter()
        .map(|&(kind, name)| (name, combinators.get(kind)))
        .collect()
}

/// A core network for the five combinators, with the definitions it is
/// checked against.
#[derive(Clone, Debug)]
pub struct Core {
    network: Network,
    combinators: Combinators,
    metadata: Metadata,
    /// The combinators the file embeds, in embedding order.
    kinds: Vec<CombinatorKind>,
    /// How diagnostics name the core.
    name: String,
    /// The decision table ([`Core::table`]): the one verification computed,
    /// or computed when first asked.
    table: OnceLock<DecisionTable>,
}

impl Core {
    /// The verified core shipped in `stdlib/core.safetensors`, loaded once
    /// per process with the decision table kept in the source (`shipped`:
    /// the table its network gives, checked by a test). Its bytes, that
    /// table and the definitions are all compiled into the binary, so its
    /// checksum, its verification and its header are the same at every
    /// start: a test checks them (`shipped::tests`), and a start only reads
    /// the weights at the places the kept layout gives.
    pub fn shipped() -> Result<&'static Core, Diagnostic> {
        static CORE: OnceLock<Result<Core, Diagnostic>> = OnceLock::new();
        let load = || {
            let (weights, metadata) = shipped::read();
            let core = Core::from_parts(weights, metadata, SHIPPED_NAME)?;
            let _ = core.table.set(shipped::table());
            Ok(core)
        };
        CORE.get_or_init(load).as_ref().map_err(Clone::clone)
    }

    /// Loads and verifies a core file; a core that fails is refused.
    pub fn load(path: &Path) -> Result<Core, Diagnostic> {
        Core::from_bytes(&read_file(path)?, &path.display().to_string())
    }

    /// Parses and verifies a core file's bytes; `name` is how diagnostics
    /// refer to it.
    pub fn from_bytes(bytes: &[u8], name: &str) -> Result<Core, Diagnostic> {
        let core = Core::from_bytes_unverified(bytes, name)?;
        let table = core.decision_table();
        core.verified(table)
    }

    /// This core, verified on `table` (its decision table), which it then
    /// keeps; refused if any decision differs from the definitions.
    fn verified(self, table: DecisionTable) -> Result<Core, Diagnostic> {
        let rows = (self.kinds.iter()).map(|&kind| {
            (
                index(kind),
                COMBINATORS[index(kind)].1,
                self.combinators.get(kind),
            )
        });
        let verification = verify_rows(&table, rows);
        if verification.passed() {
            let _ = self.table.set(table);
            return Ok(self);
        }
        Err(Diagnostic::error(
            codes::E1004,
            format!("the core `{}` fails verification and is refused", self.name),
        )
        .with_note(verification.to_string())
        .with_help("train a core that passes with `cnpic train-core`, or use the shipped core"))
    }

    /// Parses a core file without verifying it: for `cnpic verify-core`,
    /// which reports the verification itself. Never run such a core.
    pub fn from_bytes_unverified(bytes: &[u8], name: &str) -> Result<Core, Diagnostic> {
        let (weights, metadata) = file::read(bytes, name)?;
        Core::from_parts(weights, metadata, name)
    }

    /// The unverified core of a file's weights and metadata.
    fn from_parts(weights: Weights, metadata: Metadata, name: &str) -> Result<Core, Diagnostic> {
        let kinds = embedded(&metadata.combinators).ok_or_else(|| {
            let expected: Vec<&str> = COMBINATORS.iter().map(|&(_, name)| name).collect();
            Diagnostic::error(
                codes::E1002,
                format!(
                    "`{name}` is not a core for this machine: it embeds the combinators `{}`, not some of `{}` each once",
                    metadata.combinators.join(","),
                    expected.join(",")
                ),
            )
        })?;
        let combinators = stdlib_combinators()?.clone();
        Ok(Core {
            network: Network::new(weights),
            combinators,
            metadata,
            kinds,
            name: name.to_string(),
            table: OnceLock::new(),
        })
    }

    /// Reads a core file without verifying it (see
    /// [`Core::from_bytes_unverified`]).
    pub fn load_unverified(path: &Path) -> Result<Core, Diagnostic> {
        Core::from_bytes_unverified(&read_file(path)?, &path.display().to_string())
    }

    pub fn cells(&self) -> usize {
        self.network.cells()
    }

    pub fn metadata(&self) -> &Metadata {
        &self.metadata
    }

    pub fn network(&self) -> &Network {
        &self.network
    }

    /// The combinators this core has, in embedding order (all five unless
    /// it is partial).
    pub fn kinds(&self) -> &[CombinatorKind] {
        &self.kinds
    }

    /// Whether the core has an embedding for `combinator`.
    pub fn has(&self, combinator: CombinatorKind) -> bool {
        self.kinds.contains(&combinator)
    }

    /// E1007 unless the core has `combinator`.
    pub fn require(&self, combinator: CombinatorKind) -> Result<(), Diagnostic> {
        if self.has(combinator) {
            return Ok(());
        }
        let name = COMBINATORS.get(index(combinator)).map_or("?", |c| c.1);
        let has: Vec<&str> = self
            .kinds
            .iter()
            .map(|&k| COMBINATORS.get(index(k)).map_or("?", |c| c.1))
            .collect();
        Err(Diagnostic::error(
            codes::E1007,
            format!(
                "the core `{}` has no combinator `{name}`: it was learned and verified for `{}` only",
                self.name,
                has.join(", ")
            ),
        )
        .with_help("run the program on a core that has it (the shipped core has all five)"))
    }

    /// Emb-as-State0: the combinator's embedding is the initial `(h, c)`.
    /// The core must have the combinator (see [`Core::require`]).
    pub fn start(&self, combinator: CombinatorKind) -> CoreState {
        self.network.start(self.embedding(combinator))
    }

    /// The row of `combinator`'s embedding (past the last when the core
    /// lacks it).
    fn embedding(&self, combinator: CombinatorKind) -> usize {
        let embedding = self.kinds.iter().position(|&k| k == combinator);
        embedding.unwrap_or(usize::MAX)
    }

    /// One LSTM step on the condition bit, then `f_end` (return iff
    /// `r ≥ α`) and argmax `f_prog` over [`Slot::ALL`](cnpi::program::Slot::ALL).
    /// `seq` has no detector; verification covers both bits for it, so any
    /// fixed bit is right.
    pub fn step(&self, state: &mut CoreState, bit: bool) -> Decision {
        self.network.step(state, bit)
    }

    /// [`Core::decision_table`], computed once (when the core is verified).
    pub fn table(&self) -> &DecisionTable {
        self.table.get_or_init(|| self.decision_table())
    }

    /// The network's decision after every bit prefix up to each
    /// combinator's longest execution (computed by running the network).
    pub fn decision_table(&self) -> DecisionTable {
        let rows: Vec<Option<(usize, usize)>> = COMBINATORS
            .iter()
            .map(|&(kind, _)| {
                let embedding = self.kinds.iter().position(|&k| k == kind)?;
                Some((embedding, longest(self.combinators.get(kind))))
            })
            .collect();
        DecisionTable::for_embeddings(&self.network, &rows)
    }
}

impl DecisionTable {
    /// The decision after `bits` in an activation of `combinator`; `None`
    /// for no bits or more bits than its longest execution.
    pub fn decision(&self, combinator: CombinatorKind, bits: &[bool]) -> Option<Decision> {
        self.decision_at(index(combinator), bits)
    }
}

/// Verifies `core` against `combinators`: every combinator it has, every
/// bit sequence up to its longest execution, every step.
pub fn verify(core: &Core, combinators: &Combinators) -> Verification {
    let behaviours: Vec<(&str, &Behaviour)> = core
        .kinds
        .iter()
        .map(|&kind| (COMBINATORS[index(kind)].1, combinators.get(kind)))
        .collect();
    verify_network(&core.network, &behaviours)
}

/// The combinators named in a core file, if each is known and appears once.
fn embedded(names: &[String]) -> Option<Vec<CombinatorKind>> {
    let mut kinds = Vec::new();
    for name in names {
        let &(kind, _) = COMBINATORS.iter().find(|(_, n)| n == name)?;
        if kinds.contains(&kind) {
            return None;
        }
        kinds.push(kind);
    }
    (!kinds.is_empty()).then_some(kinds)
}

/// The behaviours read from `stdlib/core.cnpi`.
pub fn stdlib_combinators() -> Result<&'static Combinators, Diagnostic> {
    match cnpi::stdlib::load() {
        Ok(stdlib) => Ok(&stdlib.combinators),
        Err(diagnostics) => Err(diagnostics.first().cloned().unwrap_or_else(|| {
            Diagnostic::error(
                codes::E0100,
                "internal error: the standard library does not load",
            )
        })),
    }
}

fn read_file(path: &Path) -> Result<Vec<u8>, Diagnostic> {
    cnpi::read::bytes(path).map_err(|error| {
        Diagnostic::error(
            codes::E1001,
            format!("cannot read the core file `{}`: {error}", path.display()),
        )
        .with_help("without a path, `cnpic verify-core` checks the shipped core")
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use cnpi::program::Slot;

    fn shipped() -> &'static Core {
        match Core::shipped() {
            Ok(core) => core,
            Err(diagnostic) => panic!("the shipped core is refused: {diagnostic:?}"),
        }
    }

    #[test]
    fn kind_at_inverts_index() {
        let defined = CombinatorKind::User(Combinator::Defined(3));
        for kind in COMBINATORS
            .map(|(kind, _)| kind)
            .into_iter()
            .chain([defined])
        {
            assert_eq!(kind_at(index(kind)), kind);
        }
    }

    #[test]
    fn embedding_indices_follow_the_combinator_list() {
        for (i, (kind, _)) in COMBINATORS.iter().enumerate() {
            assert_eq!(index(*kind), i);
        }
    }

    #[test]
    fn the_shipped_core_passes_verification_against_the_stdlib() {
        let core = shipped();
        assert_eq!(core.cells(), DEFAULT_CELLS);
        let verification = verify(core, stdlib_combinators().expect("the stdlib loads"));
        assert!(verification.passed(), "{verification}");
        assert_eq!(verification.rows.len(), 5);
        // treerec: all sequences of 1 to 5 bits.
        assert_eq!(verification.rows[3].sequences, 62);
    }

    #[test]
    fn the_decision_table_is_what_stepping_the_core_gives() {
        let core = shipped();
        let table = core.decision_table();
        for (kind, _) in COMBINATORS {
            let mut state = core.start(kind);
            // One longest path per combinator: alternating bits.
            let depth = table.depth_at(index(kind));
            assert_eq!(depth, longest(core.combinators.get(kind)));
            for length in 1..=depth {
                let bits: Vec<bool> = (0..length).map(|i| i % 2 == 0).collect();
                let decision = core.step(&mut state, bits[length - 1]);
                assert_eq!(table.decision(kind, &bits), Some(decision));
            }
        }
        let linrec = CombinatorKind::User(Combinator::Linrec);
        assert_eq!(table.decision(linrec, &[true; 4]), None);
        let first = table.decision(linrec, &[false]);
        assert_eq!(
            first,
            Some(Decision {
                slot: Slot::A3,
                ret: true
            })
        );
    }

    #[test]
    fn verification_catches_a_core_that_does_something_else() {
        let mut swapped = stdlib_combinators().expect("the stdlib loads").clone();
        std::mem::swap(&mut swapped.cond.when_true, &mut swapped.cond.when_false);
        let verification = verify(shipped(), &swapped);
        assert!(!verification.passed());
        assert_eq!(verification.rows[1].failed_sequences, 6);
        assert!(
            verification
                .rows
                .iter()
                .filter(|r| r.wrong_steps > 0)
                .count()
                == 1
        );
    }

    /// The file of a core whose weights are all zero: it decides the same
    /// whatever it runs, so it verifies nothing.
    pub(crate) fn zero_core_file() -> Vec<u8> {
        let metadata = Metadata {
            combinators: COMBINATORS.iter().map(|(_, n)| n.to_string()).collect(),
            seed: 0,
            epochs: 0,
            command: String::new(),
            version: String::new(),
            verification: String::new(),
        };
        write(&Weights::zeros(4, 5), &metadata)
    }

    #[test]
    fn an_untrained_core_is_refused_at_load_time() {
        let bytes = zero_core_file();
        let error = Core::from_bytes(&bytes, "zero.safetensors").err();
        assert_eq!(error.map(|d| d.code), Some(codes::E1004));
        assert!(Core::from_bytes_unverified(&bytes, "zero.safetensors").is_ok());
    }

    #[test]
    fn a_partial_core_is_verified_for_what_it_has_and_refuses_the_rest() {
        let core = shipped();
        let mut weights = core.network().weights().clone();
        let cells = weights.cells();
        weights.emb_h.truncate(3 * cells);
        weights.emb_c.truncate(3 * cells);
        let mut metadata = core.metadata().clone();
        metadata.combinators = ["seq", "cond", "linrec"].map(String::from).to_vec();
        let bytes = write(&weights, &metadata);
        let partial = Core::from_bytes(&bytes, "partial.safetensors")
            .unwrap_or_else(|d| panic!("the partial core is refused: {d:?}"));
        let verification = verify(&partial, stdlib_combinators().expect("the stdlib loads"));
        assert!(verification.passed());
        assert_eq!(verification.rows.len(), 3);
        let linrec = CombinatorKind::User(Combinator::Linrec);
        let treerec = CombinatorKind::User(Combinator::Treerec);
        assert!(partial.require(linrec).is_ok());
        assert_eq!(partial.start(linrec), core.start(linrec));
        let refused = partial.require(treerec).err().map(|d| d.code);
        assert_eq!(refused, Some(codes::E1007));
        let table = partial.decision_table();
        assert_eq!(table.decision(treerec, &[true]), None);
        assert_eq!(
            table.decision(linrec, &[false]),
            core.decision_table().decision(linrec, &[false])
        );
        // A name twice, or one the machine does not know, is no core.
        metadata.combinators = ["seq", "seq"].map(String::from).to_vec();
        let twice = write(&weights, &metadata);
        let error = Core::from_bytes_unverified(&twice, "twice.safetensors").err();
        assert_eq!(error.map(|d| d.code), Some(codes::E1002));
    }
}
