//! Training a core on abstract traces, with candle.
//!
//! This trainer makes the shipped core (`cnpic train-core`, whose seed and
//! command the core file records) and is the reference the fast trainer
//! (`core::fast`) is tested against; both run the loop of
//! `core::schedule`. The trainer is general: any list of named
//! [`Behaviour`]s (the five of `stdlib/core.cnpi`, or a larger set) and any
//! cell count. It follows the paper: plain SGD with batch 1 over the traces
//! of [`traces`], learning rate 0.5, decayed ×0.1 whenever the step
//! accuracy has not improved for 10 epochs. The loss of a trace is the sum over its steps of the
//! cross-entropy of `f_prog` against the required slot plus the binary
//! cross-entropy of `f_end` against the return flag (written as a two-way
//! softmax over `[0, logit]`, which candle computes stably).
//!
//! One deviation, measured to matter: a step's loss is divided by the
//! number of traces that share its bit prefix, so that every distinct
//! decision weighs the same in an epoch. Unweighted, the one trace of
//! `treerec`'s false branch is outweighed 16 to 1 by the true branch's, the
//! accuracy plateaus at 97% (the first step of `linrec` and `treerec` on a
//! false bit wrong), the schedule decays the rate to nothing, and seed 1
//! fails after 1000 epochs; weighted, seeds 1-8 all verify within 10-24
//! epochs.
//!
//! After every epoch the weights are copied into a [`Network`] and verified
//! exhaustively on the inference path; training stops as soon as that
//! passes, or after `max_epochs`. Everything random (initial weights and
//! trace order) comes from one ChaCha8 stream seeded with `seed`; candle's
//! own RNG is never used, so a seed always gives the same weights on the
//! same machine. Run candle with one thread (`RAYON_NUM_THREADS=1`): at
//! batch 1, gemm's thread pool costs ten times more than it saves.

use candle_core::{DType, Device, Tensor, Var};
use candle_nn::{Optimizer, SGD};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::network::{Network, Weights};
use super::schedule::{self, DECAY, EpochReport, LEARNING_RATE, Learner, PATIENCE, Schedule};
use super::traces::{Trace, traces};
use super::verify::{Verification, verify_network};
use cnpi::diagnostic::{Diagnostic, codes};
use cnpi::program::Behaviour;

/// How to train.
#[derive(Clone, Debug, PartialEq)]
pub struct TrainOptions {
    pub cells: usize,
    pub seed: u64,
    /// Stop after this many epochs even if verification still fails.
    pub max_epochs: usize,
    pub learning_rate: f64,
    /// Epochs without an accuracy improvement before the rate decays.
    pub patience: usize,
    pub decay: f64,
}

impl TrainOptions {
    /// The paper's settings with the given cells and seed.
    pub fn new(cells: usize, seed: u64, max_epochs: usize) -> TrainOptions {
        TrainOptions {
            cells,
            seed,
            max_epochs,
            learning_rate: f64::from(LEARNING_RATE),
            patience: PATIENCE,
            decay: f64::from(DECAY),
        }
    }

    /// The schedule these options ask for: until verification passes, or
    /// `max_epochs`; the rate never stops it.
    fn schedule(&self) -> Schedule<f64> {
        Schedule {
            learning_rate: self.learning_rate,
            patience: self.patience,
            decay: self.decay,
            max_epochs: self.max_epochs,
            min_learning_rate: 0.0,
            target: 1.0,
        }
    }
}

/// The result of training: the weights, how long it took, and the final
/// verification (which may have failed if `max_epochs` ran out).
#[derive(Clone, Debug)]
pub struct Trained {
    pub weights: Weights,
    pub epochs: usize,
    pub verification: Verification,
}

/// Trains a core for `behaviours` (embedding `i` for `behaviours[i]`),
/// calling `progress` after each epoch.
pub fn train(
    behaviours: &[(&str, &Behaviour)],
    options: &TrainOptions,
    progress: &mut dyn FnMut(&EpochReport),
) -> Result<Trained, Diagnostic> {
    let mut rng = ChaCha8Rng::seed_from_u64(options.seed);
    let model = Trainable::new(initial_weights(options.cells, behaviours.len(), &mut rng))
        .map_err(internal)?;
    let definitions: Vec<Behaviour> = behaviours.iter().map(|(_, b)| (*b).clone()).collect();
    let mut order = traces(&definitions);
    let optimizer = SGD::new(model.vars(), options.learning_rate).map_err(internal)?;
    let weights = model.weights().map_err(internal)?;
    let mut learner = Candle {
        model,
        optimizer,
        weights,
        behaviours,
    };
    let (epochs, verification) = schedule::run(
        &mut learner,
        &mut order,
        &options.schedule(),
        &mut rng,
        progress,
    )
    .map_err(internal)?;
    Ok(Trained {
        weights: learner.weights,
        epochs,
        verification,
    })
}

/// The candle model under training, with the weights last verified.
struct Candle<'b> {
    model: Trainable,
    optimizer: SGD,
    weights: Weights,
    behaviours: &'b [(&'b str, &'b Behaviour)],
}

impl Learner<f64> for Candle<'_> {
    type Error = candle_core::Error;

    fn learn(&mut self, trace: &Trace, rate: f64) -> candle_core::Result<f32> {
        self.optimizer.set_learning_rate(rate);
        let loss = self.model.loss(trace)?;
        let value = loss.to_scalar::<f32>()?;
        self.optimizer.backward_step(&loss)?;
        Ok(value)
    }

    fn verify(&mut self) -> candle_core::Result<Verification> {
        self.weights = self.model.weights()?;
        Ok(verify_network(
            &Network::new(self.weights.clone()),
            self.behaviours,
        ))
    }
}

/// Uniform in `±1/√H` for the LSTM and decoders (PyTorch's default) and in
/// `±1` for the embeddings, drawn tensor by tensor in file order.
pub(super) fn initial_weights(cells: usize, combinators: usize, rng: &mut ChaCha8Rng) -> Weights {
    let mut weights = Weights::zeros(cells, combinators);
    let bound = 1.0 / (cells.max(1) as f32).sqrt();
    for (name, values) in weights.tensors_mut() {
        let range = if name.starts_with("embedding") {
            1.0
        } else {
            bound
        };
        for value in values.iter_mut() {
            *value = rng.random_range(-range..range);
        }
    }
    weights
}

fn internal(error: candle_core::Error) -> Diagnostic {
    Diagnostic::error(
        codes::E1006,
        format!("internal error in the core trainer: {error}"),
    )
    .with_note("this is a bug in cnpi; please report it with the command line")
}

/// The trainable tensors, in the layout of [`Weights`].
pub(super) struct Trainable {
    cells: usize,
    /// In the order of [`Weights::tensors`].
    vars: Vec<Var>,
}

impl Trainable {
    pub(super) fn new(weights: Weights) -> candle_core::Result<Trainable> {
        let vars = weights
            .tensors()
            .map(|(_, shape, values)| Var::from_slice(values, shape, &Device::Cpu))
            .collect::<candle_core::Result<Vec<_>>>()?;
        Ok(Trainable {
            cells: weights.cells(),
            vars,
        })
    }

    pub(super) fn vars(&self) -> Vec<Var> {
        self.vars.clone()
    }

    fn weights(&self) -> candle_core::Result<Weights> {
        let combinators = self.vars[7].dims()[0];
        let mut weights = Weights::zeros(self.cells, combinators);
        for ((_, values), var) in weights.tensors_mut().zip(&self.vars) {
            *values = var.as_tensor().flatten_all()?.to_vec1()?;
        }
        Ok(weights)
    }

    /// The summed loss of one trace, with the graph for backpropagation.
    pub(super) fn loss(&self, trace: &Trace) -> candle_core::Result<Tensor> {
        let [w_ih, w_hh, bias, w_end, b_end, w_prog, b_prog, emb_h, emb_c] =
            [0, 1, 2, 3, 4, 5, 6, 7, 8].map(|i| self.vars[i].as_tensor());
        let h_cells = self.cells;
        let (w_ih, w_hh, w_end, w_prog) = (w_ih.t()?, w_hh.t()?, w_end.t()?, w_prog.t()?);
        let bias = bias.unsqueeze(0)?;
        let mut h = emb_h.narrow(0, trace.combinator, 1)?;
        let mut c = emb_c.narrow(0, trace.combinator, 1)?;
        let zero = Tensor::zeros((1, 1), DType::F32, &Device::Cpu)?;
        let mut loss = Tensor::zeros((), DType::F32, &Device::Cpu)?;
        let length = trace.bits.len();
        for (step, (&bit, target)) in trace.bits.iter().zip(&trace.targets).enumerate() {
            let mut z = h.matmul(&w_hh)?.broadcast_add(&bias)?;
            if bit {
                z = (z + &w_ih)?;
            }
            let gate = |k: usize| z.narrow(1, k * h_cells, h_cells);
            let input = candle_nn::ops::sigmoid(&gate(0)?)?;
            let forget = candle_nn::ops::sigmoid(&gate(1)?)?;
            let candidate = gate(2)?.tanh()?;
            let output = candle_nn::ops::sigmoid(&gate(3)?)?;
            c = ((forget * &c)? + (input * candidate)?)?;
            h = (output * c.tanh()?)?;
            let end = h.matmul(&w_end)?.broadcast_add(b_end)?;
            let end = Tensor::cat(&[&zero, &end], 1)?;
            let scores = h.matmul(&w_prog)?.broadcast_add(b_prog)?;
            // `Slot` is declared in the order of `Slot::ALL` (tested in `network`).
            let slot = Tensor::new(&[target.slot as u32], &Device::Cpu)?;
            let ret = Tensor::new(&[u32::from(target.ret)], &Device::Cpu)?;
            let step_loss = (candle_nn::loss::cross_entropy(&scores, &slot)?
                + candle_nn::loss::cross_entropy(&end, &ret)?)?;
            // The prefix ending here is shared by 2^(later bits) traces.
            let shared = (1u64 << (length - 1 - step).min(63)) as f64;
            loss = (loss + step_loss.affine(1.0 / shared, 0.0)?)?;
        }
        Ok(loss)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cnpi::program::Slot;

    /// Two made-up combinators, to show the trainer is not tied to the
    /// stdlib: one ignores its bit, one loops on it.
    fn made_up() -> [Behaviour; 2] {
        [
            Behaviour {
                when_true: vec![Slot::A2, Slot::A1, Slot::A3],
                when_false: vec![Slot::A2, Slot::A1, Slot::A3],
            },
            Behaviour {
                when_true: vec![Slot::PushSentinel, Slot::SelfSlot],
                when_false: vec![Slot::Nop],
            },
        ]
    }

    #[test]
    fn any_behaviours_train_to_a_verified_core_reproducibly() {
        let behaviours = made_up();
        let named = [("first", &behaviours[0]), ("second", &behaviours[1])];
        let options = TrainOptions::new(6, 3, 300);
        let mut epochs = 0;
        let trained = train(&named, &options, &mut |report| epochs = report.epoch)
            .unwrap_or_else(|d| panic!("{d:?}"));
        assert!(trained.verification.passed(), "{}", trained.verification);
        assert_eq!(trained.epochs, epochs);
        assert_eq!(trained.weights.cells(), 6);
        assert_eq!(trained.weights.combinators(), 2);
        let again = train(&named, &options, &mut |_| {}).unwrap_or_else(|d| panic!("{d:?}"));
        assert_eq!(again.weights, trained.weights);
    }

    #[test]
    fn a_seed_gives_the_same_initial_weights_and_another_seed_others() {
        let draw = |seed| initial_weights(4, 2, &mut ChaCha8Rng::seed_from_u64(seed));
        assert_eq!(draw(7), draw(7));
        assert_ne!(draw(7), draw(8));
        let weights = draw(7);
        assert!(weights.lstm.w_hh.iter().all(|w| w.abs() <= 0.5));
        assert!(weights.emb_h.iter().any(|w| w.abs() > 0.5));
    }
}
