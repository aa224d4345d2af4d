//! The detectors' classifiers: a one-hidden-layer network per condition,
//! trained on the whole finite domain of its encoder and verified on every
//! point of it.
//!
//! The input is the one-hot encoding of the feature vector (one group of
//! ones per feature), the hidden layer is `tanh`, and the output
//! `f_det = σ(w2 · h + b2)` gives the condition bit `c = [f_det ≥ β]`.
//! Since the input is one-hot, `W1 · x` is the sum of the columns of the
//! active inputs; summing them in index order is bit for bit the dense
//! product (the other terms are exact zeros).
//!
//! Training is plain SGD on the cross-entropy, one domain point at a time
//! in a seeded order, until every point is on the right side of β with a
//! margin; a network that does not get there is retried wider. Everything
//! is drawn from a ChaCha stream named by the seed, so training is
//! reproducible.

use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::encoder::Encoder;
use crate::maths::{
    self, Arithmetic, Kernel, LANES, dot, sigmoid, sigmoid_at_least_half, tanh_all, tanh_lanes,
};

/// The condition threshold β.
pub const BETA: f32 = 0.5;

// `Classifier::fires` reads `f_det ≥ β` as `σ ≥ 1/2`.
const _: () = assert!(BETA == 0.5);

/// The hidden widths tried in turn.
const WIDTHS: [usize; 5] = [4, 8, 16, 32, 64];

/// Training stops when every logit is at least this far on its side of 0.
const MARGIN: f32 = 2.0;

/// The hidden layer of up to the widest of [`WIDTHS`] units is computed
/// on the stack (a whole number of [`LANES`]).
const STACK_HIDDEN: usize = 64;

const LEARNING_RATE: f32 = 0.2;

/// The multiply-adds one training attempt may spend, and the fewest
/// epochs it gets whatever the domain.
const BUDGET: usize = 400_000_000;
const MIN_EPOCHS: usize = 100;

/// One detector's network.
#[derive(Clone, Debug, PartialEq)]
pub struct Classifier {
    pub inputs: usize,
    pub hidden: usize,
    /// `[hidden, inputs]`, row-major.
    pub w1: Vec<f32>,
    pub b1: Vec<f32>,
    pub w2: Vec<f32>,
    pub b2: f32,
}

impl Classifier {
    /// Checks that the weights have the shapes `inputs` and `hidden` say.
    pub fn well_formed(&self) -> bool {
        self.w1.len() == self.inputs * self.hidden
            && self.b1.len() == self.hidden
            && self.w2.len() == self.hidden
            && self
                .w1
                .iter()
                .chain(&self.b1)
                .chain(&self.w2)
                .chain([&self.b2])
                .all(|w| w.is_finite())
    }

    /// The hidden layer for the one-hot input whose ones are at `active`
    /// (ascending), into `hidden` (one value per unit).
    fn hidden_layer(&self, active: &[usize], hidden: &mut [f32]) {
        self.pre_activations(active, hidden);
        tanh_all(hidden);
    }

    /// [`Classifier::hidden_layer`] before its `tanh`.
    #[inline(always)]
    fn pre_activations(&self, active: &[usize], hidden: &mut [f32]) {
        for (j, (bias, unit)) in self.b1.iter().zip(hidden.iter_mut()).enumerate() {
            let row = self
                .w1
                .get(j * self.inputs..(j + 1) * self.inputs)
                .unwrap_or_default();
            let sum: f32 = active.iter().filter_map(|&a| row.get(a)).sum();
            *unit = bias + sum;
        }
    }

    /// [`Classifier::hidden_layer`] into `hidden`, made the right length.
    fn hidden_into(&self, active: &[usize], hidden: &mut Vec<f32>) {
        hidden.clear();
        hidden.resize(self.b1.len(), 0.0);
        self.hidden_layer(active, hidden);
    }

    fn logit(&self, hidden: &[f32]) -> f32 {
        self.b2 + dot(hidden, &self.w2)
    }

    /// `f_det`: the network's output for the input with ones at `active`,
    /// σ of [`Classifier::logit_of`].
    pub fn output(&self, active: &[usize]) -> f32 {
        sigmoid(self.logit_of(active))
    }

    /// The logit of `f_det` for the input with ones at `active`, as one
    /// function compiled for the processor's `tanh`.
    fn logit_of(&self, active: &[usize]) -> f32 {
        maths::run(Forward {
            classifier: self,
            active,
        })
    }

    /// The condition bit: `f_det ≥ β`, read from the logit exactly as σ
    /// would give it (β is 1/2: [`sigmoid_at_least_half`]).
    pub fn fires(&self, active: &[usize]) -> bool {
        sigmoid_at_least_half(self.logit_of(active))
    }

    fn random(inputs: usize, hidden: usize, rng: &mut ChaCha8Rng) -> Classifier {
        let mut uniform = |n: usize, scale: f32| -> Vec<f32> {
            (0..n)
                .map(|_| (rng.random::<f32>() * 2.0 - 1.0) * scale)
                .collect()
        };
        Classifier {
            inputs,
            hidden,
            w1: uniform(inputs * hidden, 1.0),
            b1: uniform(hidden, 1.0),
            w2: uniform(hidden, 1.0 / (hidden as f32).sqrt()),
            b2: 0.0,
        }
    }

    /// One SGD step on one point.
    fn learn(&mut self, active: &[usize], label: bool, hidden: &mut Vec<f32>) {
        self.hidden_into(active, hidden);
        let error = sigmoid(self.logit(hidden)) - f32::from(u8::from(label));
        let step = LEARNING_RATE * error;
        for (j, &h) in hidden.iter().enumerate() {
            let dz = step * self.w2[j] * (1.0 - h * h);
            self.w2[j] -= step * h;
            self.b1[j] -= dz;
            let row = &mut self.w1[j * self.inputs..(j + 1) * self.inputs];
            for &a in active {
                row[a] -= dz;
            }
        }
        self.b2 -= step;
    }

    /// True when every point is classified right with [`MARGIN`] to spare.
    fn separates(&self, points: &[(Vec<usize>, bool)], hidden: &mut Vec<f32>) -> bool {
        points.iter().all(|(active, label)| {
            self.hidden_into(active, hidden);
            let logit = self.logit(hidden);
            if *label {
                logit >= MARGIN
            } else {
                logit <= -MARGIN
            }
        })
    }
}

/// Trains a classifier for `encoder` from `seed`; `None` if no width in
/// [`WIDTHS`] reaches the margin within its budget (verification then has
/// nothing to accept).
pub fn train(encoder: &Encoder, seed: u64) -> Option<Classifier> {
    let points: Vec<(Vec<usize>, bool)> = (0..encoder.domain())
        .map(|point| (encoder.active(point), encoder.label(point)))
        .collect();
    let features = points.first().map_or(0, |(active, _)| active.len());
    let mut order: Vec<usize> = (0..points.len()).collect();
    let mut hidden = Vec::new();
    for (attempt, &width) in WIDTHS.iter().enumerate() {
        let mut rng = ChaCha8Rng::seed_from_u64(seed ^ ((attempt as u64) << 56));
        let mut net = Classifier::random(encoder.width(), width, &mut rng);
        let per_epoch = (points.len() * width * (features + 2) * 3).max(1);
        let epochs = (BUDGET / per_epoch).max(MIN_EPOCHS);
        for _ in 0..epochs {
            if net.separates(&points, &mut hidden) {
                return Some(net);
            }
            order.shuffle(&mut rng);
            for &i in &order {
                let (active, label) = &points[i];
                net.learn(active, *label, &mut hidden);
            }
        }
        if net.separates(&points, &mut hidden) {
            return Some(net);
        }
    }
    None
}

/// The network's bit on every point of the domain, if it equals the
/// condition everywhere; else the first point where it does not.
pub fn verify(encoder: &Encoder, classifier: &Classifier) -> Result<Vec<bool>, usize> {
    if !classifier.well_formed() || classifier.inputs != encoder.width() {
        return Err(0);
    }
    (0..encoder.domain())
        .map(|point| {
            let bit = classifier.fires(&encoder.active(point));
            if bit == encoder.label(point) {
                Ok(bit)
            } else {
                Err(point)
            }
        })
        .collect()
}

/// [`Classifier::logit_of`] as a [`Kernel`]: the hidden layer on the
/// stack, its `tanh` eight units at a time, and the logit, as
/// [`Classifier::hidden_layer`] and [`Classifier::logit`] compute them.
struct Forward<'a> {
    classifier: &'a Classifier,
    active: &'a [usize],
}

impl Kernel for Forward<'_> {
    type Output = f32;

    #[inline(always)]
    fn run<A: Arithmetic>(self) -> f32 {
        let Forward { classifier, active } = self;
        let width = classifier.b1.len();
        // On the stack, the units padded with zeros to whole vectors, so
        // that their `tanh` runs in place (the padding's is dropped).
        let (mut stack, mut heap) = ([0.0; STACK_HIDDEN], Vec::new());
        let padded = match stack.get_mut(..width.next_multiple_of(LANES)) {
            Some(padded) => padded,
            None => {
                heap.resize(width, 0.0);
                &mut heap[..]
            }
        };
        classifier.pre_activations(active, &mut padded[..width]);
        tanh_lanes::<A>(padded);
        classifier.logit(&padded[..width])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::detector::encoder::tests::condition;

    #[test]
    fn classifiers_learn_functions_no_line_separates() {
        // Exclusive or of two comparisons, and a three-way function.
        for text in [
            "A[i] < A[j] and not A[j] < A[k] or not A[i] < A[j] and A[j] < A[k]",
            "(A[i] == A[j]) and (i < k or A[k] == END) or not (j >= k)",
        ] {
            let encoder = Encoder::new(condition(text)).expect("small");
            let classifier = train(&encoder, 5).expect("trains");
            let table = verify(&encoder, &classifier).expect("verified");
            assert_eq!(table.len(), encoder.domain());
            assert_eq!(train(&encoder, 5), Some(classifier), "reproducible");
        }
    }

    /// The forward pass (units padded to whole vectors on the stack, or
    /// on the heap past [`STACK_HIDDEN`]) is the layers' bit for bit, and
    /// the bit is `f_det ≥ β`.
    #[test]
    fn the_forward_pass_is_the_layers_bit_for_bit() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let mut hidden = Vec::new();
        for width in [1, 4, 12, 64, 70] {
            let mut classifier = Classifier::random(9, width, &mut rng);
            classifier.b2 = rng.random::<f32>() - 0.5;
            for active in [vec![], vec![3], vec![0, 4, 8], vec![1, 2, 5, 7]] {
                classifier.hidden_into(&active, &mut hidden);
                let logit = classifier.logit(&hidden);
                assert_eq!(classifier.logit_of(&active).to_bits(), logit.to_bits());
                assert_eq!(
                    classifier.output(&active).to_bits(),
                    sigmoid(logit).to_bits()
                );
                assert_eq!(classifier.fires(&active), sigmoid(logit) >= BETA);
            }
        }
    }

    #[test]
    fn verification_finds_a_wrong_point() {
        let encoder = Encoder::new(condition("i < j")).expect("small");
        let mut classifier = train(&encoder, 1).expect("trains");
        classifier.b2 += 1000.0;
        assert_eq!(
            verify(&encoder, &classifier),
            Err(1),
            "Equal now reads true"
        );
        classifier.w1.pop();
        assert_eq!(verify(&encoder, &classifier), Err(0), "malformed");
    }
}
