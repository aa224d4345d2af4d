//! Batch-1 SGD on the fast model, by the loop of `core::schedule` (the
//! candle trainer's): training a whole model, or only new embeddings on a
//! frozen core. Training stops when the accuracy reaches `target` (1.0:
//! verification passes), after `max_epochs`, or once the rate has decayed
//! below `min_learning_rate`, where the paper's schedule has nothing left
//! to try.

use std::convert::Infallible;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::model::{Group, Model, Variant};
use crate::core::network::Decision;
use crate::core::schedule::{self, DECAY, EpochReport, LEARNING_RATE, Learner, PATIENCE, Schedule};
use crate::core::table::Decider;
use crate::core::traces::{Trace, traces};
use crate::core::verify::{Verification, verify_network};
use cnpi::program::Behaviour;

/// How to train.
#[derive(Clone, Debug, PartialEq)]
pub struct FastOptions {
    pub variant: Variant,
    pub cells: usize,
    pub seed: u64,
    pub max_epochs: usize,
    pub learning_rate: f32,
    pub patience: usize,
    pub decay: f32,
    pub min_learning_rate: f32,
    /// Stop once the step accuracy on the trained set reaches this.
    pub target: f64,
}

impl FastOptions {
    /// The paper's settings (rate 0.5, ×0.1 after 10 stale epochs), giving
    /// up after three decays or `max_epochs`.
    pub fn new(variant: Variant, cells: usize, seed: u64, max_epochs: usize) -> FastOptions {
        FastOptions {
            variant,
            cells,
            seed,
            max_epochs,
            learning_rate: LEARNING_RATE,
            patience: PATIENCE,
            decay: DECAY,
            // Three decays.
            min_learning_rate: LEARNING_RATE * DECAY * DECAY * DECAY,
            target: 1.0,
        }
    }
}

/// A trained model and its verification on the set it was trained on.
#[derive(Clone, Debug)]
pub struct Fitted {
    pub model: Model,
    pub epochs: usize,
    pub verification: Verification,
}

const ALL: [Group; 5] = [
    Group::Lstm,
    Group::End,
    Group::Prog,
    Group::Embedding,
    Group::Encoder,
];

/// Trains a fresh model (everything trainable) on `behaviours`.
pub fn train(
    behaviours: &[(&str, &Behaviour)],
    options: &FastOptions,
    progress: &mut dyn FnMut(&EpochReport),
) -> Fitted {
    let mut rng = ChaCha8Rng::seed_from_u64(options.seed);
    let definitions: Vec<&Behaviour> = behaviours.iter().map(|(_, b)| *b).collect();
    let model = Model::new(options.variant, options.cells, &definitions, &mut rng);
    fit(model, behaviours, 0, &ALL, options, &mut rng, progress)
}

/// Learns embeddings for `new` combinators on `core` with every other
/// weight frozen (Table 2's CNPI, and user-defined combinators): the
/// embeddings already in `core` come back bit for bit. For seq2seq, whose
/// embeddings come from the encoder, there is nothing to learn: the new
/// combinators are only appended and verified.
pub fn learn_embeddings(
    core: &Model,
    new: &[(&str, &Behaviour)],
    options: &FastOptions,
    progress: &mut dyn FnMut(&EpochReport),
) -> Fitted {
    let mut rng = ChaCha8Rng::seed_from_u64(options.seed);
    let mut model = core.clone();
    let first = model.combinators();
    let definitions: Vec<&Behaviour> = new.iter().map(|(_, b)| *b).collect();
    model.extend(&definitions, &mut rng);
    fit(
        model,
        new,
        first,
        &[Group::Embedding],
        options,
        &mut rng,
        progress,
    )
}

/// SGD on the traces of `behaviours`, which are the model's combinators
/// `first..`, updating only the `trainable` groups.
pub fn fit(
    model: Model,
    behaviours: &[(&str, &Behaviour)],
    first: usize,
    trainable: &[Group],
    options: &FastOptions,
    rng: &mut ChaCha8Rng,
    progress: &mut dyn FnMut(&EpochReport),
) -> Fitted {
    let definitions: Vec<Behaviour> = behaviours.iter().map(|(_, b)| (*b).clone()).collect();
    let mut order = traces(&definitions);
    for trace in &mut order {
        trace.combinator += first;
    }
    let schedule = Schedule {
        learning_rate: options.learning_rate,
        patience: options.patience,
        decay: options.decay,
        max_epochs: options.max_epochs,
        min_learning_rate: options.min_learning_rate,
        target: options.target,
    };
    let mut learner = Fast {
        grad: model.zeros_like(),
        model,
        trainable,
        behaviours,
        first,
    };
    let Ok((epochs, verification)) =
        schedule::run(&mut learner, &mut order, &schedule, rng, progress);
    Fitted {
        model: learner.model,
        epochs,
        verification,
    }
}

/// The fast model under training, with its gradient buffer.
struct Fast<'a> {
    model: Model,
    grad: Model,
    trainable: &'a [Group],
    behaviours: &'a [(&'a str, &'a Behaviour)],
    first: usize,
}

impl Learner<f32> for Fast<'_> {
    type Error = Infallible;

    fn learn(&mut self, trace: &Trace, rate: f32) -> Result<f32, Infallible> {
        let loss = self.model.gradient(trace, &mut self.grad);
        self.model.descend(&mut self.grad, rate, self.trainable);
        self.grad.clear();
        Ok(loss)
    }

    fn verify(&mut self) -> Result<Verification, Infallible> {
        Ok(verify(&self.model, self.behaviours, self.first))
    }
}

/// Verifies the model's combinators `first..` against `behaviours`.
pub fn verify(model: &Model, behaviours: &[(&str, &Behaviour)], first: usize) -> Verification {
    verify_network(&Shifted { model, first }, behaviours)
}

/// A model seen from its combinator `first` on.
struct Shifted<'m> {
    model: &'m Model,
    first: usize,
}

impl Decider for Shifted<'_> {
    type State = <Model as Decider>::State;
    fn start(&self, combinator: usize) -> Self::State {
        self.model.start(self.first + combinator)
    }
    fn step(&self, state: &mut Self::State, bit: bool) -> Decision {
        self.model.step(state, bit)
    }
}
