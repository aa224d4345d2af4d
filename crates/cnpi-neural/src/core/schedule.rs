//! The training loop both core trainers run, written once: batch-1 SGD
//! over the abstract traces with the paper's schedule.
//!
//! An epoch shuffles the traces with the seeded ChaCha8 stream (the stream
//! that drew the initial weights) and makes one update per trace; then the
//! model is verified exhaustively. The rate decays ×`decay` after
//! `patience` epochs without a better step accuracy. Training stops when
//! the accuracy reaches `target` (1.0: verification passes), after
//! `max_epochs`, or once the rate has decayed below `min_learning_rate`.
//!
//! What differs between the trainers is behind [`Learner`]: how one update
//! is computed (candle's autograd in `core::train`, the hand-written
//! passes of `core::fast`) and what is verified. The rate is kept in the
//! trainer's own type (`f64` for candle's optimizer, `f32` for the fast
//! trainer), so each trainer computes exactly the rates it always has.

use std::ops::Mul;

use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;

use super::traces::Trace;
use super::verify::Verification;

/// The paper's schedule for supervised training (section 4): plain SGD at
/// rate 0.5, decayed ×0.1 after 10 epochs without a better accuracy.
pub const LEARNING_RATE: f32 = 0.5;
pub const PATIENCE: usize = 10;
pub const DECAY: f32 = 0.1;

/// What one epoch achieved, for progress displays.
#[derive(Clone, Debug, PartialEq)]
pub struct EpochReport {
    /// 1-based.
    pub epoch: usize,
    /// Mean loss per trace during the epoch.
    pub loss: f64,
    /// Fraction of verified steps right after the epoch.
    pub accuracy: f64,
    pub learning_rate: f64,
}

/// When the rate decays and when training stops, with rates of type `R`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Schedule<R> {
    pub learning_rate: R,
    /// Epochs without an accuracy improvement before the rate decays.
    pub patience: usize,
    pub decay: R,
    /// Stop after this many epochs even if verification still fails.
    pub max_epochs: usize,
    /// Stop once the rate has decayed below this.
    pub min_learning_rate: R,
    /// Stop once the step accuracy reaches this.
    pub target: f64,
}

/// A model being trained.
pub trait Learner<R> {
    type Error;
    /// One SGD update on `trace` at `rate`; the trace's loss before it.
    fn learn(&mut self, trace: &Trace, rate: R) -> Result<f32, Self::Error>;
    /// The exhaustive verification of the model as it is now.
    fn verify(&mut self) -> Result<Verification, Self::Error>;
}

/// Trains `learner` on `traces` by `schedule`, shuffling with `rng` and
/// calling `progress` after each epoch; the epochs run and the last
/// verification.
pub fn run<R, L>(
    learner: &mut L,
    traces: &mut [Trace],
    schedule: &Schedule<R>,
    rng: &mut ChaCha8Rng,
    progress: &mut dyn FnMut(&EpochReport),
) -> Result<(usize, Verification), L::Error>
where
    R: Copy + PartialOrd + Mul<Output = R> + Into<f64>,
    L: Learner<R>,
{
    let mut rate = schedule.learning_rate;
    let mut verification = learner.verify()?;
    let (mut best, mut stale, mut epochs) = (verification.accuracy(), 0, 0);
    while verification.accuracy() < schedule.target
        && epochs < schedule.max_epochs
        && rate >= schedule.min_learning_rate
    {
        traces.shuffle(rng);
        let mut total = 0.0;
        for trace in traces.iter() {
            total += f64::from(learner.learn(trace, rate)?);
        }
        epochs += 1;
        verification = learner.verify()?;
        let accuracy = verification.accuracy();
        if accuracy > best {
            (best, stale) = (accuracy, 0);
        } else {
            stale += 1;
            if stale >= schedule.patience {
                rate = rate * schedule.decay;
                stale = 0;
            }
        }
        progress(&EpochReport {
            epoch: epochs,
            loss: total / traces.len().max(1) as f64,
            accuracy,
            learning_rate: rate.into(),
        });
    }
    Ok((epochs, verification))
}
