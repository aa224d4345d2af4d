//! Stage 2's detector learned by REINFORCE: a logistic unit on the one-hot
//! encodings of `A[P1]` and `A[P2]`, each condition bit sampled from it
//! (the conditional-swap task, `A[P1] > A[P2]?`).

use rand::{Rng, RngExt};

use crate::tasks::MAX_VALUE;
use cnpi_neural::maths::sigmoid;

/// The values an element may hold, 0 to [`MAX_VALUE`].
pub(super) const VALUES: usize = MAX_VALUE as usize + 1;

/// The REINFORCE detector: a logistic unit on one-hot `A[P1] ⊕ A[P2]`.
#[derive(Clone, Debug)]
pub struct Detector {
    pub(super) weights: Vec<f32>,
    pub(super) bias: f32,
}

/// Which value each side holds (none at END): the active inputs.
pub(super) type Features = [Option<usize>; 2];

impl Detector {
    pub(super) fn new(rng: &mut impl Rng) -> Detector {
        Detector {
            weights: (0..2 * VALUES)
                .map(|_| rng.random_range(-0.1..0.1))
                .collect(),
            bias: 0.0,
        }
    }

    /// The features of a pair: which value each side holds (none at END).
    pub(super) fn features(a: Option<i64>, b: Option<i64>) -> Features {
        let index = |v: Option<i64>| {
            v.and_then(|v| usize::try_from(v).ok())
                .filter(|&v| v < VALUES)
        };
        [index(a), index(b).map(|v| VALUES + v)]
    }

    pub(super) fn probability(&self, features: Features) -> f32 {
        let score = self.bias
            + features
                .iter()
                .flatten()
                .map(|&i| self.weights[i])
                .sum::<f32>();
        sigmoid(score)
    }

    /// Adds `rate · R · ∇ log p(bit)` for one sampled bit.
    pub(super) fn reinforce(&mut self, features: Features, bit: bool, reward: f32, rate: f32) {
        let p = self.probability(features);
        let g = rate * reward * (f32::from(u8::from(bit)) - p);
        self.bias += g;
        for &i in features.iter().flatten() {
            self.weights[i] += g;
        }
    }

    /// Exact on every pair of distinct values (threshold 0.5).
    pub fn exact(&self) -> bool {
        (0..VALUES as i64).all(|x| {
            (0..VALUES as i64)
                .filter(|&y| y != x)
                .all(|y| (self.probability(Detector::features(Some(x), Some(y))) >= 0.5) == (x > y))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn a_linear_detector_can_be_exact_and_a_fresh_one_is_not() {
        let mut detector = Detector::new(&mut ChaCha8Rng::seed_from_u64(1));
        assert!(!detector.exact());
        for v in 0..VALUES {
            detector.weights[v] = v as f32;
            detector.weights[VALUES + v] = -(v as f32);
        }
        detector.bias = -0.5;
        assert!(detector.exact());
    }
}
