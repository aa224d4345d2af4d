//! The core as a stochastic policy, with the gradient REINFORCE needs.
//!
//! A [`Policy`] is the core of `cnpi_neural::core` (a one-layer LSTM whose
//! only input is the condition bit, Emb-as-State0 embeddings, `f_end` and
//! `f_prog`) read as a distribution: `f_prog`'s scores over the `choices`
//! callable slots go through a softmax to be *sampled*, and `f_end` is the
//! Bernoulli probability of returning. Its parameters are a state0
//! [`Model`] of the fast trainer whose `w_prog` has `choices` rows (4 for
//! CNPI-4: `self`, `a1`, `a2`, `a3`; 4·n for the RNPI baseline).
//!
//! The episode's loss is [`Objective`]'s, and [`Policy::gradient`]
//! backpropagates it through every activation of the episode: the decoders
//! here, the LSTM by the fast trainer's [`Lstm::backward`], whose forward
//! equations are those of `cnpi_neural::core::Network::step` (a test checks
//! that the greedy choice agrees with it). The gradient is checked against
//! finite differences.

use cnpi_neural::core::Weights;
use cnpi_neural::core::fast::{Group, Model};
use cnpi_neural::core::lstm::{Lstm, Step};
use cnpi_neural::maths::softmax;
use cnpi_neural::maths::{axpy, dot, sigmoid};
use rand::{Rng, RngExt};
use rand_chacha::ChaCha8Rng;

/// What the decoders made of one step, with the choice that was taken.
#[derive(Clone, Debug)]
pub struct Head {
    /// The softmax over the choices.
    pub probs: Vec<f32>,
    /// `f_end`'s return probability.
    pub ret: f32,
    /// The choice that was sampled and the correct return flag (set by
    /// the caller).
    pub choice: usize,
    pub ret_target: bool,
}

/// One activation of a combinator (or program): the LSTM started from its
/// embedding and the steps taken since.
#[derive(Clone, Debug)]
pub struct Activation {
    pub embedding: usize,
    h: Vec<f32>,
    c: Vec<f32>,
    /// The LSTM's steps, for the backward pass.
    lstm: Vec<Step>,
    pub steps: Vec<Head>,
}

/// The loss of one episode: `−Σ_t [reward·log p(choice_t) +
/// return_weight·log p(ret_t) + entropy·H(p_t)]`, where `H(p_t)` is the
/// entropy of the step's softmax over the slots.
///
/// The entropy bonus is Williams and Peng's (1991) remedy for a REINFORCE
/// policy that turns deterministic too early: a failed episode pushes its
/// choices down by `reward·(1 − p)`, which vanishes as `p → 1`, so a core
/// that has committed to a wrong slot for both condition bits never leaves
/// it (measured: without it the core calls `a1` for both bits of `cond`'s
/// easy task in every seed tried; docs/reproduction.md).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Objective {
    pub reward: f32,
    pub return_weight: f32,
    pub entropy: f32,
}

/// The entropy of a distribution, in nats.
pub fn entropy(probs: &[f32]) -> f32 {
    -probs
        .iter()
        .filter(|&&p| p > 0.0)
        .map(|&p| p * p.ln())
        .sum::<f32>()
}

/// The groups a policy trains: all of them.
const TRAINED: [Group; 4] = [Group::Lstm, Group::End, Group::Prog, Group::Embedding];

/// The core's parameters read as a policy over `choices` slots.
#[derive(Clone, Debug, PartialEq)]
pub struct Policy {
    pub model: Model,
}

impl Policy {
    /// Fresh parameters from `rng`, drawn as the fast trainer draws a
    /// model's.
    pub fn new(cells: usize, embeddings: usize, choices: usize, rng: &mut ChaCha8Rng) -> Policy {
        let mut weights = Weights::zeros(cells, embeddings);
        weights.w_prog = vec![0.0; choices * cells];
        weights.b_prog = vec![0.0; choices];
        let mut model = Model::from_weights(weights);
        model.randomize(rng);
        Policy { model }
    }

    pub fn cells(&self) -> usize {
        self.model.cells()
    }

    /// The parameters in the layout of a core file (`choices` rows of
    /// `f_prog`).
    pub fn weights(&self) -> Weights {
        match self.model.as_weights() {
            Some(weights) => weights.clone(),
            None => unreachable!("a policy is a state0 model"),
        }
    }

    fn lstm(&self) -> &Lstm {
        &self.model.weights.lstm
    }

    /// A new activation of embedding `embedding` (Emb-as-State0).
    pub fn start(&self, embedding: usize) -> Activation {
        let h = self.cells();
        let range = embedding * h..(embedding + 1) * h;
        Activation {
            embedding,
            h: self.model.weights.emb_h[range.clone()].to_vec(),
            c: self.model.weights.emb_c[range].to_vec(),
            lstm: Vec::new(),
            steps: Vec::new(),
        }
    }

    /// One LSTM step on `bit`; returns the new step (its `probs` and `ret`
    /// filled, its `choice` for the caller to set).
    pub fn step<'a>(&self, activation: &'a mut Activation, bit: bool) -> &'a mut Head {
        let m = &self.model;
        let n = m.cells();
        let step = self
            .lstm()
            .forward(&[f32::from(u8::from(bit))], &activation.h, &activation.c);
        let ret = sigmoid(m.weights.b_end[0] + dot(&m.weights.w_end, &step.h));
        let scores: Vec<f32> = m
            .weights
            .w_prog
            .chunks_exact(n)
            .zip(&m.weights.b_prog)
            .map(|(row, b)| b + dot(row, &step.h))
            .collect();
        activation.h.clone_from(&step.h);
        activation.c.clone_from(&step.c);
        activation.lstm.push(step);
        activation.steps.push(Head {
            probs: softmax(&scores).probs,
            ret,
            choice: 0,
            ret_target: false,
        });
        activation.steps.last_mut().expect("a step was just pushed")
    }

    /// The gradient of the episode's loss (see [`Objective`]), with each
    /// step's `ret_target` as the return flag, as a model of the same
    /// shapes.
    pub fn gradient(&self, episode: &[Activation], objective: &Objective) -> Model {
        let m = &self.model;
        let n = m.cells();
        let mut grad = m.zeros_like();
        for activation in episode {
            let mut dh_all = Vec::with_capacity(activation.steps.len());
            for (head, step) in activation.steps.iter().zip(&activation.lstm) {
                let mut dh = vec![0.0; n];
                // f_prog: d(−R log p_k)/ds_j = R (p_j − 1[j = k]); the
                // entropy bonus: d(−β·H)/ds_j = β p_j (log p_j + H).
                let entropy = entropy(&head.probs);
                for (j, &p) in head.probs.iter().enumerate() {
                    let target = if j == head.choice { 1.0 } else { 0.0 };
                    let mut ds = objective.reward * (p - target);
                    if objective.entropy != 0.0 && p > 0.0 {
                        ds += objective.entropy * p * (p.ln() + entropy);
                    }
                    if ds == 0.0 {
                        continue;
                    }
                    grad.weights.b_prog[j] += ds;
                    axpy(&mut grad.weights.w_prog[j * n..(j + 1) * n], ds, &step.h);
                    axpy(&mut dh, ds, &m.weights.w_prog[j * n..(j + 1) * n]);
                }
                // f_end: d(−log p(ret))/de = r − target.
                if objective.return_weight != 0.0 {
                    let target = if head.ret_target { 1.0 } else { 0.0 };
                    let de = objective.return_weight * (head.ret - target);
                    grad.weights.b_end[0] += de;
                    axpy(&mut grad.weights.w_end, de, &step.h);
                    axpy(&mut dh, de, &m.weights.w_end);
                }
                dh_all.push(dh);
            }
            let zero = (vec![0.0; n], vec![0.0; n]);
            let initial =
                m.weights
                    .lstm
                    .backward(&activation.lstm, &dh_all, zero, &mut grad.weights.lstm);
            let range = activation.embedding * n..(activation.embedding + 1) * n;
            axpy(&mut grad.weights.emb_h[range.clone()], 1.0, &initial.h0);
            axpy(&mut grad.weights.emb_c[range], 1.0, &initial.c0);
        }
        grad
    }

    /// Plain SGD: parameters −= `rate` × `gradient`.
    pub fn descend(&mut self, gradient: &mut Model, rate: f32) {
        self.model.descend(gradient, rate, &TRAINED);
    }
}

/// The index drawn from the distribution `probs`.
pub fn sample(probs: &[f32], rng: &mut impl Rng) -> usize {
    let mut u: f32 = rng.random();
    for (i, &p) in probs.iter().enumerate() {
        if u < p {
            return i;
        }
        u -= p;
    }
    probs.len() - 1
}

/// The index of the largest entry (the first on ties), as the inference
/// path chooses.
pub fn argmax(values: &[f32]) -> usize {
    cnpi_neural::maths::argmax(values.iter().copied()).unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use cnpi_neural::core::Network;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    /// An episode of two activations with fixed bits and choices.
    fn episode(policy: &Policy) -> Vec<Activation> {
        let mut episode = Vec::new();
        for (embedding, bits, choices) in [
            (0, [true, false, true], [1, 2, 0]),
            (1, [false; 3], [3, 3, 1]),
        ] {
            let mut activation = policy.start(embedding);
            for (t, (bit, choice)) in bits.into_iter().zip(choices).enumerate() {
                let step = policy.step(&mut activation, bit);
                step.choice = choice;
                step.ret_target = t == 2;
            }
            episode.push(activation);
        }
        episode
    }

    fn loss(policy: &Policy, objective: &Objective) -> f64 {
        let Objective {
            reward,
            return_weight,
            entropy: beta,
        } = *objective;
        let mut total = 0.0;
        for activation in episode(policy) {
            for step in &activation.steps {
                total -= f64::from(reward) * f64::from(step.probs[step.choice]).ln();
                total -= f64::from(beta) * f64::from(entropy(&step.probs));
                let p = if step.ret_target {
                    step.ret
                } else {
                    1.0 - step.ret
                };
                total -= f64::from(return_weight) * f64::from(p).ln();
            }
        }
        total
    }

    #[test]
    fn the_gradient_matches_finite_differences() {
        let policy = Policy::new(3, 2, 4, &mut ChaCha8Rng::seed_from_u64(5));
        let objective = Objective {
            reward: -1.3,
            return_weight: 1.0,
            entropy: 0.3,
        };
        let mut gradient = policy.gradient(&episode(&policy), &objective);
        let mut checked = 0;
        let tensors: Vec<Vec<f32>> = gradient
            .tensors_mut()
            .into_iter()
            .map(|(_, v)| v.clone())
            .collect();
        for (index, grads) in tensors.iter().enumerate() {
            for (k, &g) in grads.iter().enumerate() {
                let eps = 1e-2;
                let nudged = |delta: f32| {
                    let mut p = policy.clone();
                    p.model.tensors_mut()[index].1[k] += delta;
                    loss(&p, &objective)
                };
                let numeric = (nudged(eps) - nudged(-eps)) / (2.0 * f64::from(eps));
                assert!(
                    (numeric - f64::from(g)).abs() < 2e-3 + 2e-2 * numeric.abs(),
                    "tensor {index}[{k}]: analytic {g}, numeric {numeric}"
                );
                checked += 1;
            }
        }
        assert_eq!(checked, 92);
    }

    #[test]
    fn the_greedy_choice_is_what_the_inference_network_decides() {
        let mut rng = ChaCha8Rng::seed_from_u64(9);
        let policy = Policy::new(5, 3, cnpi_neural::core::SLOTS, &mut rng);
        let network = Network::new(policy.weights());
        for embedding in 0..3 {
            let mut activation = policy.start(embedding);
            let mut state = network.start(embedding);
            for t in 0..6 {
                let bit = (t + embedding) % 3 == 0;
                let step = policy.step(&mut activation, bit);
                let decision = network.step(&mut state, bit);
                assert_eq!(argmax(&step.probs), decision.slot as usize);
                assert_eq!(step.ret >= cnpi_neural::core::ALPHA, decision.ret);
            }
        }
    }

    #[test]
    fn sampling_follows_the_probabilities() {
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let probs = [0.1, 0.0, 0.6, 0.3];
        let mut counts = [0usize; 4];
        for _ in 0..10_000 {
            counts[sample(&probs, &mut rng)] += 1;
        }
        assert_eq!(counts[1], 0);
        assert!((5_700..6_300).contains(&counts[2]), "{counts:?}");
        assert_eq!(argmax(&[0.2, 0.5, 0.5]), 1);
    }
}
