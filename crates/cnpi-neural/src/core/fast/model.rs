//! The fast trainer's model: a core LSTM, its decoders, and one of three
//! ways of handing it a combinator (section 4.1 of the paper).
//!
//! - [`Variant::State0`]: one embedding per combinator is the LSTM's
//!   initial `(h, c)` (Emb-as-State0, the shipped design; exported as
//!   [`Weights`] for [`Network`](crate::core::Network));
//! - [`Variant::Input`]: the LSTM starts from zero and the embedding is fed
//!   as input at every step beside the condition bit (Emb-as-Input, NPI);
//! - [`Variant::Seq2seq`]: an encoder LSTM reads the combinator's text
//!   ([`tokens`]) and its last state initialises the core.
//!
//! [`Model::gradient`] runs one trace forward and backward and adds the
//! gradient of its loss (the loss of `train.rs`: cross-entropy of `f_prog`
//! plus that of the return flag, each step weighted by one over the number
//! of traces sharing its prefix) into a gradient model of the same shape.

use std::fmt;
use std::str::FromStr;

use rand::RngExt;
use rand_chacha::ChaCha8Rng;

use crate::core::lstm::{Lstm, Step};
use crate::core::network::{ALPHA, Decision, SLOTS, Weights};
use crate::core::table::Decider;
use crate::core::traces::Trace;
use crate::maths::{argmax, axpy, dot, sigmoid, softmax};
use cnpi::program::{Behaviour, Slot};

/// How the combinator reaches the core.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Variant {
    State0,
    Input,
    Seq2seq,
}

impl Variant {
    pub const ALL: [Variant; 3] = [Variant::State0, Variant::Input, Variant::Seq2seq];

    pub fn name(self) -> &'static str {
        match self {
            Variant::State0 => "state0",
            Variant::Input => "input",
            Variant::Seq2seq => "seq2seq",
        }
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Variant {
    type Err = String;
    fn from_str(text: &str) -> Result<Variant, String> {
        Variant::ALL
            .into_iter()
            .find(|v| v.name() == text)
            .ok_or_else(|| format!("unknown embedding `{text}` (state0, input or seq2seq)"))
    }
}

/// The parameter groups, for freezing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Group {
    /// The core LSTM's weights.
    Lstm,
    /// `f_end`.
    End,
    /// `f_prog` (for an NPI-style baseline, the program keys).
    Prog,
    /// The combinator embeddings.
    Embedding,
    /// The seq2seq encoder.
    Encoder,
}

/// The text tokens of a combinator body for the seq2seq encoder: the slot
/// names (`Slot::ALL` order), then `if` and `else`.
pub const VOCABULARY: usize = SLOTS + 2;

/// A body as the encoder reads it: its slots, or `if`, the true branch,
/// `else`, the false branch when the branches differ.
pub fn tokens(behaviour: &Behaviour) -> Vec<usize> {
    let slots = |s: &[Slot]| s.iter().map(|&slot| slot as usize).collect::<Vec<_>>();
    if behaviour.when_true == behaviour.when_false {
        return slots(&behaviour.when_true);
    }
    let mut text = vec![SLOTS];
    text.extend(slots(&behaviour.when_true));
    text.push(SLOTS + 1);
    text.extend(slots(&behaviour.when_false));
    text
}

/// The model's parameters (or, for [`Model::zeros_like`], their gradients).
#[derive(Clone, Debug, PartialEq)]
pub struct Model {
    pub variant: Variant,
    /// The core LSTM, the decoders and the embeddings. For state0 these
    /// are the [`Weights`] the runtime runs; for Emb-as-Input the LSTM's
    /// input is `1 + H` wide (the bit, then the embedding) and `emb_c` is
    /// empty; for seq2seq both embeddings are empty.
    pub weights: Weights,
    /// The seq2seq encoder (no weights for the other variants).
    pub encoder: Lstm,
    /// The seq2seq encoder's text of each combinator (data, not trained).
    pub texts: Vec<Vec<usize>>,
}

/// The LSTM state of one activation, with the combinator it runs.
#[derive(Clone, Debug)]
pub struct ActivationState {
    combinator: usize,
    h: Vec<f32>,
    c: Vec<f32>,
}

impl Model {
    /// A model with random weights for `behaviours`, drawn from `rng`:
    /// uniform in `±1/√H` for weights and `±1` for embeddings, tensor by
    /// tensor in [`Model::tensors_mut`] order (for state0 the draw of
    /// `train.rs`, so both trainers start from the same weights).
    pub fn new(
        variant: Variant,
        cells: usize,
        behaviours: &[&Behaviour],
        rng: &mut ChaCha8Rng,
    ) -> Model {
        let mut model = Model::shaped(variant, cells, behaviours);
        model.randomize(rng);
        model
    }

    /// Draws every weight anew from `rng`: uniform in `±1/√H`, `±1` for
    /// the embeddings, tensor by tensor in [`Model::tensors_mut`] order.
    pub fn randomize(&mut self, rng: &mut ChaCha8Rng) {
        let bound = 1.0 / (self.cells().max(1) as f32).sqrt();
        for (group, values) in self.tensors_mut() {
            let range = if group == Group::Embedding {
                1.0
            } else {
                bound
            };
            for value in values.iter_mut() {
                *value = rng.random_range(-range..range);
            }
        }
    }

    /// All-zero tensors of the right shapes.
    fn shaped(variant: Variant, cells: usize, behaviours: &[&Behaviour]) -> Model {
        let h = cells;
        let embedded = match variant {
            Variant::Seq2seq => 0,
            _ => behaviours.len(),
        };
        let mut weights = Weights::zeros(h, embedded);
        if variant == Variant::Input {
            weights.lstm = Lstm::zeros(h, 1 + h);
            weights.emb_c.clear();
        }
        Model {
            variant,
            weights,
            encoder: if variant == Variant::Seq2seq {
                Lstm::zeros(h, VOCABULARY)
            } else {
                Lstm::zeros(0, 0)
            },
            texts: match variant {
                Variant::Seq2seq => behaviours.iter().map(|b| tokens(b)).collect(),
                _ => Vec::new(),
            },
        }
    }

    /// A state0 model holding `weights`.
    pub fn from_weights(weights: Weights) -> Model {
        Model {
            variant: Variant::State0,
            weights,
            encoder: Lstm::zeros(0, 0),
            texts: Vec::new(),
        }
    }

    /// A state0 model's weights, as the runtime runs them (`None` for the
    /// other variants, which the runtime does not run).
    pub fn as_weights(&self) -> Option<&Weights> {
        (self.variant == Variant::State0).then_some(&self.weights)
    }

    pub fn cells(&self) -> usize {
        self.weights.lstm.cells
    }

    /// The number of combinators the model has embeddings (or texts) for.
    pub fn combinators(&self) -> usize {
        match self.variant {
            Variant::Seq2seq => self.texts.len(),
            _ => self.weights.combinators(),
        }
    }

    /// Adds embeddings for `behaviours`, drawn from `rng` as in
    /// [`Model::new`]; existing weights are untouched.
    pub fn extend(&mut self, behaviours: &[&Behaviour], rng: &mut ChaCha8Rng) {
        let fresh = Model::new(self.variant, self.cells(), behaviours, rng);
        self.weights.emb_h.extend(fresh.weights.emb_h);
        self.weights.emb_c.extend(fresh.weights.emb_c);
        self.texts.extend(fresh.texts);
    }

    /// Every tensor with its group, in a fixed order.
    pub fn tensors_mut(&mut self) -> [(Group, &mut Vec<f32>); 12] {
        let [w_ih, w_hh, bias] = self.weights.lstm.tensors_mut();
        let [e_ih, e_hh, e_bias] = self.encoder.tensors_mut();
        [
            (Group::Lstm, w_ih),
            (Group::Lstm, w_hh),
            (Group::Lstm, bias),
            (Group::End, &mut self.weights.w_end),
            (Group::End, &mut self.weights.b_end),
            (Group::Prog, &mut self.weights.w_prog),
            (Group::Prog, &mut self.weights.b_prog),
            (Group::Embedding, &mut self.weights.emb_h),
            (Group::Embedding, &mut self.weights.emb_c),
            (Group::Encoder, e_ih),
            (Group::Encoder, e_hh),
            (Group::Encoder, e_bias),
        ]
    }

    /// A gradient buffer: this model's shapes, all zero.
    pub fn zeros_like(&self) -> Model {
        let mut zeros = self.clone();
        zeros.clear();
        zeros
    }

    /// Sets every tensor to zero (to reuse a gradient buffer).
    pub fn clear(&mut self) {
        for (_, values) in self.tensors_mut() {
            values.iter_mut().for_each(|v| *v = 0.0);
        }
    }

    /// `self -= rate · grad` on the groups in `trainable`.
    pub fn descend(&mut self, grad: &mut Model, rate: f32, trainable: &[Group]) {
        for ((group, values), (_, gradient)) in
            self.tensors_mut().into_iter().zip(grad.tensors_mut())
        {
            if trainable.contains(&group) {
                for (v, g) in values.iter_mut().zip(gradient.iter()) {
                    *v -= rate * *g;
                }
            }
        }
    }

    fn row(&self, values: &[f32], combinator: usize) -> Vec<f32> {
        let h = self.cells();
        values[combinator * h..(combinator + 1) * h].to_vec()
    }

    /// The initial state of an activation, with the encoder's steps.
    fn begin(&self, combinator: usize) -> (ActivationState, Vec<Step>) {
        let h = self.cells();
        let zero = || vec![0.0; h];
        let (state_h, state_c, steps) = match self.variant {
            Variant::State0 => (
                self.row(&self.weights.emb_h, combinator),
                self.row(&self.weights.emb_c, combinator),
                Vec::new(),
            ),
            Variant::Input => (zero(), zero(), Vec::new()),
            Variant::Seq2seq => {
                let (mut eh, mut ec) = (zero(), zero());
                let mut steps = Vec::new();
                for &token in &self.texts[combinator] {
                    let mut x = vec![0.0; VOCABULARY];
                    x[token] = 1.0;
                    let step = self.encoder.forward(&x, &eh, &ec);
                    (eh, ec) = (step.h.clone(), step.c.clone());
                    steps.push(step);
                }
                (eh, ec, steps)
            }
        };
        let state = ActivationState {
            combinator,
            h: state_h,
            c: state_c,
        };
        (state, steps)
    }

    /// The core's input at a step: the bit, and for Emb-as-Input the
    /// embedding.
    fn input(&self, combinator: usize, bit: bool) -> Vec<f32> {
        let mut x = vec![f32::from(u8::from(bit))];
        if self.variant == Variant::Input {
            x.extend(self.row(&self.weights.emb_h, combinator));
        }
        x
    }

    fn end_logit(&self, h: &[f32]) -> f32 {
        self.weights.b_end[0] + dot(&self.weights.w_end, h)
    }

    fn scores(&self, h: &[f32]) -> Vec<f32> {
        self.weights
            .w_prog
            .chunks_exact(self.cells())
            .zip(&self.weights.b_prog)
            .map(|(row, bias)| bias + dot(row, h))
            .collect()
    }

    /// Forward and backward over one trace: adds the gradient of its loss
    /// to `grad` and returns the loss.
    pub fn gradient(&self, trace: &Trace, grad: &mut Model) -> f32 {
        let i = trace.combinator;
        let (mut state, encoder_steps) = self.begin(i);
        let length = trace.bits.len();
        let mut steps = Vec::with_capacity(length);
        let mut dh = Vec::with_capacity(length);
        let mut loss = 0.0;
        for (t, (&bit, target)) in trace.bits.iter().zip(&trace.targets).enumerate() {
            let step = self
                .weights
                .lstm
                .forward(&self.input(i, bit), &state.h, &state.c);
            (state.h, state.c) = (step.h.clone(), step.c.clone());
            // The prefix ending here is shared by 2^(later bits) traces.
            let weight = 1.0 / (1u64 << (length - 1 - t).min(63)) as f32;
            let (step_loss, step_dh) = self.decoder_gradient(&step.h, *target, weight, grad);
            loss += step_loss;
            dh.push(step_dh);
            steps.push(step);
        }
        let h = self.cells();
        let back = self.weights.lstm.backward(
            &steps,
            &dh,
            (vec![0.0; h], vec![0.0; h]),
            &mut grad.weights.lstm,
        );
        let rows = i * h..(i + 1) * h;
        match self.variant {
            Variant::State0 => {
                axpy(&mut grad.weights.emb_h[rows.clone()], 1.0, &back.h0);
                axpy(&mut grad.weights.emb_c[rows], 1.0, &back.c0);
            }
            Variant::Input => {
                for dx in &back.inputs {
                    axpy(&mut grad.weights.emb_h[rows.clone()], 1.0, &dx[1..]);
                }
            }
            Variant::Seq2seq => {
                let none = vec![vec![0.0; h]; encoder_steps.len()];
                self.encoder
                    .backward(&encoder_steps, &none, (back.h0, back.c0), &mut grad.encoder);
            }
        }
        loss
    }

    /// The decoders' loss and gradients at one step; returns the loss and
    /// the gradient of `h`.
    fn decoder_gradient(
        &self,
        h: &[f32],
        target: Decision,
        weight: f32,
        grad: &mut Model,
    ) -> (f32, Vec<f32>) {
        let logit = self.end_logit(h);
        let wanted = f32::from(u8::from(target.ret));
        let d_end = weight * (sigmoid(logit) - wanted);
        // −log σ(±logit), written stably.
        let signed = if target.ret { logit } else { -logit };
        let mut loss = (-signed).max(0.0) + (-signed.abs()).exp().ln_1p();
        let scores = self.scores(h);
        let soft = softmax(&scores);
        let class = target.slot as usize;
        loss += soft.sum.ln() - (scores[class] - soft.top);
        let mut dh: Vec<f32> = self.weights.w_end.iter().map(|w| d_end * w).collect();
        axpy(&mut grad.weights.w_end, d_end, h);
        grad.weights.b_end[0] += d_end;
        let cells = self.cells();
        for (k, p) in soft.probs.iter().enumerate() {
            let d = weight * (p - f32::from(u8::from(k == class)));
            axpy(&mut grad.weights.w_prog[k * cells..(k + 1) * cells], d, h);
            grad.weights.b_prog[k] += d;
            axpy(&mut dh, d, &self.weights.w_prog[k * cells..(k + 1) * cells]);
        }
        (weight * loss, dh)
    }
}

impl Decider for Model {
    type State = ActivationState;

    fn start(&self, combinator: usize) -> ActivationState {
        self.begin(combinator).0
    }

    /// The decision as [`Network`](crate::core::Network) decodes it:
    /// return iff `σ(logit) ≥ α`, the first best-scoring slot.
    fn step(&self, state: &mut ActivationState, bit: bool) -> Decision {
        let step =
            self.weights
                .lstm
                .forward(&self.input(state.combinator, bit), &state.h, &state.c);
        (state.h, state.c) = (step.h, step.c);
        let best = argmax(self.scores(&state.h)).unwrap_or(0);
        Decision {
            slot: Slot::ALL[best],
            ret: sigmoid(self.end_logit(&state.h)) >= ALPHA,
        }
    }
}
