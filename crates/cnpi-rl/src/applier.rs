//! The applier policy of equation 7 (section 3.3): an applier being
//! learned is five keys, one per field of its embedding (the combinator,
//! the detector, the three callable arguments). Each field's candidate is
//! drawn from the softmax of the candidates' keys against the field's key,
//! `softmax(M_key k)`, and every key drawn is reinforced by the episode's
//! reward: `φ += rate · R · ∇ log p(choice)`.
//!
//! The candidates' keys are given by the caller: stage 2 draws its own
//! small table (`stage2::space`), `cnpic learn` uses the keys of the
//! program memory the sketch is built into (`sketch`).

use rand::{Rng, RngExt};

use crate::policy::{argmax, sample};
use cnpi_neural::maths::dot;
use cnpi_neural::maths::softmax;

/// The five fields of an applier's embedding, in order.
pub const FIELDS: usize = 5;
/// The field of the detector, which `seq` does not read.
pub const DETECTOR: usize = 1;

/// The fixed keys of the candidates of each field.
#[derive(Clone, Debug)]
pub struct Candidates {
    keys: [Vec<Vec<f32>>; FIELDS],
}

impl Candidates {
    /// Candidates with keys `keys[field][candidate]`, all of one length.
    pub fn new(keys: [Vec<Vec<f32>>; FIELDS]) -> Candidates {
        Candidates { keys }
    }

    /// The length of every key.
    pub fn dim(&self) -> usize {
        self.keys.iter().flatten().map(Vec::len).next().unwrap_or(0)
    }

    /// How many candidates field `field` has.
    pub fn count(&self, field: usize) -> usize {
        self.keys[field].len()
    }

    fn distribution(&self, field: usize, key: &[f32]) -> Vec<f32> {
        let scores: Vec<f32> = self.keys[field].iter().map(|k| dot(k, key)).collect();
        softmax(&scores).probs
    }
}

/// A random unit vector of `dim` numbers.
pub fn unit_key(dim: usize, rng: &mut impl Rng) -> Vec<f32> {
    let v: Vec<f32> = (0..dim).map(|_| rng.random_range(-1.0..1.0)).collect();
    let norm = dot(&v, &v).sqrt().max(1e-6);
    v.iter().map(|x| x / norm).collect()
}

/// An applier's learned keys: one for the combinator, one for the
/// detector, one per argument.
#[derive(Clone, Debug)]
pub struct ApplierKeys {
    fields: [Vec<f32>; FIELDS],
}

impl ApplierKeys {
    /// Small random keys of `dim` numbers.
    pub fn new(dim: usize, rng: &mut impl Rng) -> ApplierKeys {
        ApplierKeys {
            fields: std::array::from_fn(|_| {
                (0..dim).map(|_| rng.random_range(-0.1..0.1)).collect()
            }),
        }
    }

    /// Draws (or with `greedy`, picks) each field's candidate index.
    pub fn choose(
        &self,
        candidates: &Candidates,
        greedy: bool,
        rng: &mut impl Rng,
    ) -> [usize; FIELDS] {
        std::array::from_fn(|field| {
            let p = candidates.distribution(field, &self.fields[field]);
            if greedy { argmax(&p) } else { sample(&p, rng) }
        })
    }

    /// `φ += rate · R · ∇ log p(choice)` for every field used: the
    /// detector's only when `reads_detector` (the combinator chosen reads
    /// a condition; `seq` does not).
    pub fn reinforce(
        &mut self,
        candidates: &Candidates,
        choice: [usize; FIELDS],
        reads_detector: bool,
        reward: f32,
        rate: f32,
    ) {
        for (field, &chosen) in choice.iter().enumerate() {
            if field == DETECTOR && !reads_detector {
                continue;
            }
            let p = candidates.distribution(field, &self.fields[field]);
            // ∇_k log softmax(K k)_c = K_c − Σ_j p_j K_j.
            for (j, key) in candidates.keys[field].iter().enumerate() {
                let coefficient = f32::from(u8::from(j == chosen)) - p[j];
                for (k, x) in self.fields[field].iter_mut().zip(key) {
                    *k += rate * reward * coefficient * x;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn rewarding_a_choice_makes_it_the_greedy_one() {
        let mut rng = ChaCha8Rng::seed_from_u64(4);
        let keys = std::array::from_fn(|_| (0..4).map(|_| unit_key(8, &mut rng)).collect());
        let candidates = Candidates::new(keys);
        assert_eq!(candidates.dim(), 8);
        let mut applier = ApplierKeys::new(8, &mut rng);
        let target = [2, 3, 1, 0, 2];
        for _ in 0..200 {
            applier.reinforce(&candidates, target, true, 1.0, 0.1);
        }
        assert_eq!(applier.choose(&candidates, true, &mut rng), target);
    }
}
