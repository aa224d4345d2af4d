//! The core as a stochastic policy, with the gradient REINFORCE needs.
//!
//! A [`Policy`] is the core of `cnpi_neural::core` (a one-layer LSTM whose
//! only input is the condition bit, Emb-as-State0 embeddings, `f_end` and
//! `f_prog`) read as a distribution: `f_prog`'s scores over the `choices`
//! callable slots go through a softmax to be *sampled*, and `f_end` is the
//! Bernoulli probability of returning. Its parameters are a
//! [`Weights`] whose `w_prog` has `choices` rows (4 for CNPI-4: `self`,
//! `a1`, `a2`, `a3`; 4·n for the RNPI baseline).
//!
//! The episode's loss is `−Σ_t [R·log p(slot_t) + 1(R>0)·log p(ret_t)]`
//! (section 3.3), and [`Policy::gradient`] backpropagates it through every
//! activation of the episode by hand.
//!
//! Why by hand: the gradient is needed once per episode for millions of
//! episodes of at most a few dozen steps on a 16-cell LSTM, where candle's
//! per-operation dispatch costs about ten times the arithmetic (see
//! docs/neural.md). The forward equations are those of
//! `cnpi_neural::core::Network::step` (a test checks that the greedy choice
//! agrees with it) and the gradient is checked against finite differences.
//! This module is the one place to switch to the shared fast trainer of
//! `cnpi_neural::core` once it exists.

use cnpi_neural::core::Weights;
use rand::{Rng, RngExt};

/// One step of an activation, with what the backward pass needs.
#[derive(Clone, Debug)]
pub struct StepCache {
    bit: bool,
    h_prev: Vec<f32>,
    c_prev: Vec<f32>,
    /// The gate activations i, f, g, o (each `H`), after their
    /// nonlinearities.
    gates: Vec<f32>,
    c: Vec<f32>,
    h: Vec<f32>,
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
    pub steps: Vec<StepCache>,
}

/// The loss of one episode: `−Σ_t [reward·log p(choice_t) +
/// return_weight·log p(ret_t) + entropy·H(p_t)]`, where `H(p_t)` is the
/// entropy of the step's softmax over the slots.
///
/// The entropy bonus is Williams and Peng's (1991) remedy for a REINFORCE
/// policy that turns deterministic too early: a failed episode pushes its
/// choices down by `reward·(1 − p)`, which vanishes as `p → 1`, so a core
/// that has committed to a wrong slot for both condition bits never leaves
/// it (measured: without it the core calls `a1` for both bits of `cond`
/// in every seed tried; docs/reproduction.md).
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

/// The core's parameters read as a policy over `choices` slots.
#[derive(Clone, Debug, PartialEq)]
pub struct Policy {
    pub weights: Weights,
}

impl Policy {
    /// Fresh parameters from `rng`: uniform in `±1/√H` for the LSTM and the
    /// decoders, `±1` for the embeddings (the initialisation of
    /// `cnpic train-core`).
    pub fn new(cells: usize, embeddings: usize, choices: usize, rng: &mut impl Rng) -> Policy {
        let mut weights = Weights::zeros(cells, embeddings);
        weights.w_prog = vec![0.0; choices * cells];
        weights.b_prog = vec![0.0; choices];
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
        Policy { weights }
    }

    pub fn cells(&self) -> usize {
        self.weights.cells
    }

    pub fn choices(&self) -> usize {
        self.weights.b_prog.len()
    }

    /// A new activation of embedding `embedding` (Emb-as-State0).
    pub fn start(&self, embedding: usize) -> Activation {
        let h = self.cells();
        let range = embedding * h..(embedding + 1) * h;
        Activation {
            embedding,
            h: self.weights.emb_h[range.clone()].to_vec(),
            c: self.weights.emb_c[range].to_vec(),
            steps: Vec::new(),
        }
    }

    /// One LSTM step on `bit`; returns the new step (its `probs` and `ret`
    /// filled, its `choice` for the caller to set).
    pub fn step<'a>(&self, activation: &'a mut Activation, bit: bool) -> &'a mut StepCache {
        let w = &self.weights;
        let n = w.cells;
        let mut z = w.bias.clone();
        for (row, z) in z.iter_mut().enumerate() {
            if bit {
                *z += w.w_ih[row];
            }
            *z += dot(&w.w_hh[row * n..(row + 1) * n], &activation.h);
        }
        let mut gates = vec![0.0; 4 * n];
        let mut c = vec![0.0; n];
        let mut h = vec![0.0; n];
        for j in 0..n {
            let (i, f) = (sigmoid(z[j]), sigmoid(z[n + j]));
            let (g, o) = (z[2 * n + j].tanh(), sigmoid(z[3 * n + j]));
            c[j] = f * activation.c[j] + i * g;
            h[j] = o * c[j].tanh();
            gates[j] = i;
            gates[n + j] = f;
            gates[2 * n + j] = g;
            gates[3 * n + j] = o;
        }
        let ret = sigmoid(w.b_end[0] + dot(&w.w_end, &h));
        let scores: Vec<f32> = w
            .w_prog
            .chunks_exact(n)
            .zip(&w.b_prog)
            .map(|(row, b)| b + dot(row, &h))
            .collect();
        let probs = softmax(&scores);
        let h_prev = std::mem::replace(&mut activation.h, h.clone());
        let c_prev = std::mem::replace(&mut activation.c, c.clone());
        activation.steps.push(StepCache {
            bit,
            h_prev,
            c_prev,
            gates,
            c,
            h,
            probs,
            ret,
            choice: 0,
            ret_target: false,
        });
        activation.steps.last_mut().expect("a step was just pushed")
    }

    /// The gradient of the episode's loss (see [`Objective`]), with each
    /// step's `ret_target` as the return flag. Returns parameters-shaped
    /// gradients.
    pub fn gradient(&self, episode: &[Activation], objective: &Objective) -> Weights {
        let return_weight = objective.return_weight;
        let w = &self.weights;
        let n = w.cells;
        let mut grad = zeros_like(w);
        for activation in episode {
            let mut dh_next = vec![0.0; n];
            let mut dc_next = vec![0.0; n];
            for step in activation.steps.iter().rev() {
                let mut dh = dh_next.clone();
                // f_prog: d(−R log p_k)/ds_j = R (p_j − 1[j = k]).
                // The entropy bonus: d(−β·H)/ds_j = β p_j (log p_j + H).
                let entropy = entropy(&step.probs);
                for (j, &p) in step.probs.iter().enumerate() {
                    let target = if j == step.choice { 1.0 } else { 0.0 };
                    let mut ds = objective.reward * (p - target);
                    if objective.entropy != 0.0 && p > 0.0 {
                        ds += objective.entropy * p * (p.ln() + entropy);
                    }
                    if ds == 0.0 {
                        continue;
                    }
                    grad.b_prog[j] += ds;
                    axpy(&mut grad.w_prog[j * n..(j + 1) * n], ds, &step.h);
                    axpy(&mut dh, ds, &w.w_prog[j * n..(j + 1) * n]);
                }
                // f_end: d(−log p(ret))/de = r − target.
                if return_weight != 0.0 {
                    let target = if step.ret_target { 1.0 } else { 0.0 };
                    let de = return_weight * (step.ret - target);
                    grad.b_end[0] += de;
                    axpy(&mut grad.w_end, de, &step.h);
                    axpy(&mut dh, de, &w.w_end);
                }
                // The LSTM cell.
                let mut dz = vec![0.0; 4 * n];
                let mut dc_prev = vec![0.0; n];
                for j in 0..n {
                    let (i, f) = (step.gates[j], step.gates[n + j]);
                    let (g, o) = (step.gates[2 * n + j], step.gates[3 * n + j]);
                    let tc = step.c[j].tanh();
                    let dc = dc_next[j] + dh[j] * o * (1.0 - tc * tc);
                    dz[j] = dc * g * i * (1.0 - i);
                    dz[n + j] = dc * step.c_prev[j] * f * (1.0 - f);
                    dz[2 * n + j] = dc * i * (1.0 - g * g);
                    dz[3 * n + j] = dh[j] * tc * o * (1.0 - o);
                    dc_prev[j] = dc * f;
                }
                let mut dh_prev = vec![0.0; n];
                for (row, &d) in dz.iter().enumerate() {
                    if d == 0.0 {
                        continue;
                    }
                    grad.bias[row] += d;
                    if step.bit {
                        grad.w_ih[row] += d;
                    }
                    axpy(&mut grad.w_hh[row * n..(row + 1) * n], d, &step.h_prev);
                    axpy(&mut dh_prev, d, &w.w_hh[row * n..(row + 1) * n]);
                }
                dh_next = dh_prev;
                dc_next = dc_prev;
            }
            let range = activation.embedding * n..(activation.embedding + 1) * n;
            for (g, d) in grad.emb_h[range.clone()].iter_mut().zip(&dh_next) {
                *g += d;
            }
            for (g, d) in grad.emb_c[range].iter_mut().zip(&dc_next) {
                *g += d;
            }
        }
        grad
    }

    /// Plain SGD: parameters −= `rate` × `gradient`.
    pub fn descend(&mut self, gradient: &Weights, rate: f32) {
        descend(&mut self.weights, gradient, rate);
    }
}

/// Parameters −= `rate` × `gradient`, tensor by tensor.
pub fn descend(weights: &mut Weights, gradient: &Weights, rate: f32) {
    let mut gradient = gradient.clone();
    for ((_, values), (_, grads)) in weights.tensors_mut().zip(gradient.tensors_mut()) {
        axpy(values, -rate, grads);
    }
}

/// Zeros of the shapes of `weights`.
fn zeros_like(weights: &Weights) -> Weights {
    let mut zeros = weights.clone();
    for (_, values) in zeros.tensors_mut() {
        values.iter_mut().for_each(|v| *v = 0.0);
    }
    zeros
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
    let mut best = 0;
    for (i, &v) in values.iter().enumerate() {
        if v > values[best] {
            best = i;
        }
    }
    best
}

pub fn softmax(scores: &[f32]) -> Vec<f32> {
    let max = scores.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let exps: Vec<f32> = scores.iter().map(|s| (s - max).exp()).collect();
    let total: f32 = exps.iter().sum();
    exps.iter().map(|e| e / total).collect()
}

pub fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

pub fn dot(a: &[f32], b: &[f32]) -> f32 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

fn axpy(y: &mut [f32], a: f32, x: &[f32]) {
    for (y, x) in y.iter_mut().zip(x) {
        *y += a * x;
    }
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
        let gradient = policy.gradient(&episode(&policy), &objective);
        let mut checked = 0;
        let tensors: Vec<(&str, Vec<f32>)> = gradient
            .tensors()
            .map(|(name, _, v)| (name, v.to_vec()))
            .collect();
        for (index, (name, grads)) in tensors.iter().enumerate() {
            for (k, &g) in grads.iter().enumerate() {
                let eps = 1e-2;
                let nudged = |delta: f32| {
                    let mut p = policy.clone();
                    let (_, values) = p.weights.tensors_mut().nth(index).expect("tensor");
                    values[k] += delta;
                    loss(&p, &objective)
                };
                let numeric = (nudged(eps) - nudged(-eps)) / (2.0 * f64::from(eps));
                assert!(
                    (numeric - f64::from(g)).abs() < 2e-3 + 2e-2 * numeric.abs(),
                    "{name}[{k}]: analytic {g}, numeric {numeric}"
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
        let network = Network::new(policy.weights.clone());
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
