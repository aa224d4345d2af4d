//! The core network as plain `f32` code: the inference path.
//!
//! [`Network`] holds the weights of a one-layer LSTM whose only input is the
//! binary condition, the decoders `f_end` and `f_prog`, and one embedding per
//! combinator, used as the initial `(h, c)` (Emb-as-State0). Training runs
//! in candle (`train.rs`), which needs autograd; inference runs here. Both
//! compute the same equations, but a batch-1 step of a 16-cell LSTM through
//! candle's tensor machinery costs ~4.5 µs of dispatch and allocation for
//! ~1,200 multiply-adds, while this loop takes ~1 µs. Verification and the
//! runtime both call [`Network::step`], so what is verified is exactly what
//! runs; its cell, σ and dot products are those of [`crate::maths`], which
//! the fast trainer uses too.
//!
//! Equations (PyTorch gate order i, f, g, o; σ the logistic function):
//!
//! ```text
//! z = W_ih · bit + W_hh · h + b          (4H pre-activations)
//! c' = σ(z_f) ⊙ c + σ(z_i) ⊙ tanh(z_g)
//! h' = σ(z_o) ⊙ tanh(c')
//! r = σ(w_end · h' + b_end)              return iff r ≥ ALPHA
//! S = W_prog · h' + b_prog               the slot is argmax S (first on ties)
//! ```

use cnpi::program::Slot;

use crate::core::lstm::Lstm;
use crate::maths::{self, Arithmetic, Kernel, argmax, cell, dot, sigmoid_at_least_half};

/// The number of frame slots `f_prog` scores (K).
pub const SLOTS: usize = Slot::ALL.len();

/// The return threshold α: an activation returns when `r ≥ ALPHA`.
pub const ALPHA: f32 = 0.5;

// `Network::decode` reads `r ≥ α` as `σ ≥ 1/2`.
const _: () = assert!(ALPHA == 0.5);

/// The weights of a core, in the layout of the files (row-major, PyTorch
/// shapes), for any cell count and any number of combinators.
#[derive(Clone, Debug, PartialEq)]
pub struct Weights {
    /// The LSTM layer of `H` cells; its input is the single bit (`W_ih` is
    /// `[4H, 1]`; the fast trainer's Emb-as-Input variant widens it).
    pub lstm: Lstm,
    /// `[1, H]` and `[1]`: the `f_end` decoder.
    pub w_end: Vec<f32>,
    pub b_end: Vec<f32>,
    /// `[K, H]` and `[K]`: the `f_prog` decoder.
    pub w_prog: Vec<f32>,
    pub b_prog: Vec<f32>,
    /// `[N, H]` each: the initial hidden and cell state of each combinator.
    pub emb_h: Vec<f32>,
    pub emb_c: Vec<f32>,
}

/// The tensor names in files, in the order of [`Weights::tensors`].
const NAMES: [&str; 9] = [
    "lstm.weight_ih",
    "lstm.weight_hh",
    "lstm.bias",
    "end.weight",
    "end.bias",
    "prog.weight",
    "prog.bias",
    "embedding.h",
    "embedding.c",
];

impl Weights {
    /// All-zero weights of the right shapes.
    pub fn zeros(cells: usize, combinators: usize) -> Weights {
        let mut weights = Weights::empty(cells);
        let shapes = Weights::shapes(cells, combinators);
        for ((_, values), shape) in weights.tensors_mut().zip(shapes) {
            *values = vec![0.0; shape.iter().product()];
        }
        weights
    }

    /// Weights with no values yet, to fill through [`Weights::tensors_mut`].
    pub fn empty(cells: usize) -> Weights {
        Weights {
            lstm: Lstm::empty(cells, 1),
            w_end: Vec::new(),
            b_end: Vec::new(),
            w_prog: Vec::new(),
            b_prog: Vec::new(),
            emb_h: Vec::new(),
            emb_c: Vec::new(),
        }
    }

    /// The number of LSTM cells, `H`.
    pub fn cells(&self) -> usize {
        self.lstm.cells
    }

    /// The number of combinator embeddings.
    pub fn combinators(&self) -> usize {
        self.emb_h.len() / self.cells().max(1)
    }

    /// The tensor shapes (PyTorch layout), in the order of
    /// [`Weights::tensors`].
    pub fn shapes(cells: usize, combinators: usize) -> [Vec<usize>; 9] {
        let h = cells;
        [
            vec![4 * h, 1],
            vec![4 * h, h],
            vec![4 * h],
            vec![1, h],
            vec![1],
            vec![SLOTS, h],
            vec![SLOTS],
            vec![combinators, h],
            vec![combinators, h],
        ]
    }

    /// Every tensor with its file name and shape, in a fixed order.
    pub fn tensors(&self) -> impl Iterator<Item = (&'static str, Vec<usize>, &[f32])> {
        let values = [
            &self.lstm.w_ih,
            &self.lstm.w_hh,
            &self.lstm.bias,
            &self.w_end,
            &self.b_end,
            &self.w_prog,
            &self.b_prog,
            &self.emb_h,
            &self.emb_c,
        ];
        let mut shapes = Weights::shapes(self.cells(), self.combinators());
        shapes[0][1] = self.lstm.inputs;
        NAMES
            .into_iter()
            .zip(shapes)
            .zip(values)
            .map(|((name, shape), values)| (name, shape, values.as_slice()))
    }

    /// Every tensor by name, to fill in; the order of [`Weights::tensors`].
    pub fn tensors_mut(&mut self) -> impl Iterator<Item = (&'static str, &mut Vec<f32>)> {
        let [w_ih, w_hh, bias] = self.lstm.tensors_mut();
        let values = [
            w_ih,
            w_hh,
            bias,
            &mut self.w_end,
            &mut self.b_end,
            &mut self.w_prog,
            &mut self.b_prog,
            &mut self.emb_h,
            &mut self.emb_c,
        ];
        NAMES.into_iter().zip(values)
    }
}

/// The LSTM state of one activation; a combinator's embedding is the
/// state its activations start from.
#[derive(Clone, Debug, PartialEq)]
pub struct State {
    pub h: Vec<f32>,
    pub c: Vec<f32>,
}

impl State {
    /// The state of `cells` zeros.
    pub fn zeros(cells: usize) -> State {
        State {
            h: vec![0.0; cells],
            c: vec![0.0; cells],
        }
    }
}

/// The LSTM states of a stack of activations in one buffer, each `h` then
/// `c` ([`Network::states`]): starting an activation copies its
/// combinator's embedding onto the top ([`Network::push`]) and ending one
/// drops it ([`States::pop`]), so once the buffer has grown to the deepest
/// stack neither allocates.
#[derive(Clone, Debug, Default)]
pub struct States {
    cells: usize,
    values: Vec<f32>,
}

impl States {
    /// The values of every state on the stack and the number one more
    /// state adds, for a run that grows them within its memory limit
    /// (`cnpi::exec::Store::make_room`) before it pushes.
    pub fn storage(&mut self) -> (&mut Vec<f32>, usize) {
        (&mut self.values, 2 * self.cells)
    }

    /// Drops the state on top (none when empty).
    pub fn pop(&mut self) {
        let len = self.values.len().saturating_sub(2 * self.cells);
        self.values.truncate(len);
    }

    /// The state on top, as `(h, c)`.
    fn top(&mut self) -> Option<(&mut [f32], &mut [f32])> {
        let start = self.values.len().checked_sub(2 * self.cells)?;
        let top = self.values.get_mut(start..).filter(|top| !top.is_empty())?;
        Some(top.split_at_mut(self.cells))
    }
}

/// What the core decides at one step: the frame slot to run next and
/// whether the activation returns after it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Decision {
    pub slot: Slot,
    pub ret: bool,
}

/// The core's outputs at one step: the return probability `r = f_end(h)`
/// and the score `f_prog(h)` of each slot, in the order of `Slot::ALL`.
#[derive(Clone, Debug, PartialEq)]
pub struct Numbers {
    pub ret: f32,
    pub scores: Vec<f32>,
}

/// The inference form of [`Weights`]: `W_hh` transposed so the step is a
/// sequence of vectorisable `axpy` loops.
#[derive(Clone, Debug)]
pub struct Network {
    weights: Weights,
    /// `[H, 4H]`: column `j` of `W_hh` is row `j` here.
    w_hh_t: Vec<f32>,
    /// `[H]`: column `k` of both decoders, lane `s < SLOTS` from row `s`
    /// of `W_prog` and lane `SLOTS` from `w_end`, so that the ten dot
    /// products proceed side by side.
    decoders_t: Vec<[f32; DECODER_LANES]>,
}

/// The lanes of [`Network`]'s decoder columns: the slots' scores and `f_end`.
const DECODER_LANES: usize = 16;

impl Network {
    /// Builds the inference form. The caller guarantees the shapes of
    /// [`Weights::tensors`] (the file reader and the trainer check them).
    pub fn new(weights: Weights) -> Network {
        let h = weights.cells();
        let mut w_hh_t = vec![0.0; 4 * h * h];
        for row in 0..4 * h {
            for col in 0..h {
                w_hh_t[col * 4 * h + row] = weights.lstm.w_hh[row * h + col];
            }
        }
        let mut decoders_t = vec![[0.0; DECODER_LANES]; h];
        let rows = weights
            .w_prog
            .chunks_exact(h.max(1))
            .chain([&weights.w_end[..]]);
        for (lane, row) in rows.take(DECODER_LANES).enumerate() {
            for (column, &value) in decoders_t.iter_mut().zip(row) {
                column[lane] = value;
            }
        }
        Network {
            weights,
            w_hh_t,
            decoders_t,
        }
    }

    pub fn weights(&self) -> &Weights {
        &self.weights
    }

    pub fn cells(&self) -> usize {
        self.weights.cells()
    }

    /// The number of combinator embeddings.
    pub fn combinators(&self) -> usize {
        self.weights.combinators()
    }

    /// The initial state of combinator `index` (Emb-as-State0).
    pub fn start(&self, index: usize) -> State {
        let h = self.cells();
        let range = index * h..(index + 1) * h;
        State {
            h: self.weights.emb_h[range.clone()].to_vec(),
            c: self.weights.emb_c[range].to_vec(),
        }
    }

    /// An empty stack of states of this network's size.
    pub fn states(&self) -> States {
        States {
            cells: self.cells(),
            values: Vec::new(),
        }
    }

    /// Pushes the initial state of combinator `index` onto `states`
    /// ([`Network::start`] without allocating).
    pub fn push(&self, index: usize, states: &mut States) {
        let h = self.cells();
        let range = index * h..(index + 1) * h;
        states
            .values
            .extend_from_slice(&self.weights.emb_h[range.clone()]);
        states.values.extend_from_slice(&self.weights.emb_c[range]);
    }

    /// One step on `bit`: updates `state` and decodes the decision.
    pub fn step(&self, state: &mut State, bit: bool) -> Decision {
        self.step_cell(&mut state.h, &mut state.c, bit)
    }

    /// [`Network::step`] of the state on top of `states`; `None` when
    /// there is none.
    pub fn step_top(&self, states: &mut States, bit: bool) -> Option<Decision> {
        let (hidden, cell) = states.top()?;
        Some(self.step_cell(hidden, cell, bit))
    }

    /// [`Network::step`] on the state `(hidden, cell)`.
    fn step_cell(&self, hidden: &mut [f32], cell: &mut [f32], bit: bool) -> Decision {
        maths::run(Step {
            network: self,
            hidden,
            cell,
            bit,
        })
    }

    /// `f_end` and `f_prog` on a hidden state: the decision.
    #[inline(always)]
    /// Each lane sums its row in index order from `-0.0`, as [`dot`] does,
    /// so the scores and `r`'s logit are those of [`Network::numbers`] bit
    /// for bit; `r ≥ α` is read from the logit (α is 1/2), exactly as σ
    /// would give it ([`sigmoid_at_least_half`]).
    fn decode(&self, hidden: &[f32]) -> Decision {
        let w = &self.weights;
        let mut sums = [-0.0f32; DECODER_LANES];
        for (&hk, column) in hidden.iter().zip(&self.decoders_t) {
            for (sum, &weight) in sums.iter_mut().zip(column) {
                *sum += weight * hk;
            }
        }
        let scores = (w.b_prog.iter().zip(&sums)).map(|(bias, sum)| bias + sum);
        let best = argmax(scores.take(SLOTS)).unwrap_or(0);
        Decision {
            slot: Slot::ALL[best],
            ret: sigmoid_at_least_half(w.b_end[0] + sums[SLOTS]),
        }
    }

    /// `r = σ(w_end · h + b_end)`.
    fn ret(&self, hidden: &[f32]) -> f32 {
        let w = &self.weights;
        maths::sigmoid(w.b_end[0] + dot(&w.w_end, hidden))
    }

    /// `S = W_prog · h + b_prog`, one score per slot.
    fn scores<'a>(&'a self, hidden: &'a [f32]) -> impl Iterator<Item = f32> + 'a {
        let w = &self.weights;
        (w.w_prog.chunks_exact(w.cells()).zip(&w.b_prog)).map(|(row, bias)| bias + dot(row, hidden))
    }

    /// `f_end` and `f_prog` on a hidden state: the numbers the decision
    /// is read from.
    pub fn numbers(&self, hidden: &[f32]) -> Numbers {
        Numbers {
            ret: self.ret(hidden),
            scores: self.scores(hidden).collect(),
        }
    }
}

/// The gates of an LSTM of up to 16 cells are computed on the stack.
const STACK_GATES: usize = 64;

/// [`Network::step`] as a [`Kernel`], so that the gates, the cell and the
/// decoders run in one function compiled for the processor's `expf`.
struct Step<'a> {
    network: &'a Network,
    hidden: &'a mut [f32],
    cell: &'a mut [f32],
    bit: bool,
}

impl Kernel for Step<'_> {
    type Output = Decision;

    /// [`step`] on the shipped size with every length a constant, so that
    /// the gates stay in vector registers and every loop is unrolled;
    /// on any other size, the same function with the lengths read.
    #[inline(always)]
    fn run<A: Arithmetic>(self) -> Decision {
        let Step {
            network,
            hidden,
            cell,
            bit,
        } = self;
        match network.cells() {
            // The state copied into arrays of its own, which the compiler
            // knows no gate or weight overlaps: every loop then runs as
            // vectors, with no run-time overlap check.
            SHIPPED_CELLS if hidden.len() == SHIPPED_CELLS && cell.len() == SHIPPED_CELLS => {
                let mut state = [[0.0; SHIPPED_CELLS]; 2];
                state[0].copy_from_slice(hidden);
                state[1].copy_from_slice(cell);
                let [h, c] = &mut state;
                let decision = step_shipped::<A>(network, (h, c), bit);
                hidden.copy_from_slice(h);
                cell.copy_from_slice(c);
                decision.unwrap_or_else(|| step::<A>(network, (hidden, cell), bit, SHIPPED_CELLS))
            }
            h => step::<A>(network, (hidden, cell), bit, h),
        }
    }
}

/// The cell count of the shipped core, which [`Step`] compiles apart.
const SHIPPED_CELLS: usize = 16;

/// `z = b (+ W_ih) + Σ_k h_k · W_hh[:, k]`, each gate summed in that
/// order, then the cell and the decoders, on `h` cells.
#[inline(always)]
fn step<A: Arithmetic>(
    network: &Network,
    (hidden, c): (&mut [f32], &mut [f32]),
    bit: bool,
    h: usize,
) -> Decision {
    let w = &network.weights;
    let (mut stack, mut heap) = ([0.0; STACK_GATES], Vec::new());
    let z = if 4 * h <= STACK_GATES {
        &mut stack[..4 * h]
    } else {
        heap.resize(4 * h, 0.0);
        &mut heap[..]
    };
    z.copy_from_slice(&w.lstm.bias[..4 * h]);
    if bit {
        for (z, wi) in z.iter_mut().zip(&w.lstm.w_ih[..4 * h]) {
            *z += wi;
        }
    }
    let hidden = &mut hidden[..h];
    let columns = network.w_hh_t[..4 * h * h].chunks_exact(4 * h);
    for (&hk, column) in hidden.iter().zip(columns) {
        for (z, wk) in z.iter_mut().zip(column) {
            *z += hk * wk;
        }
    }
    cell::<A>(z, &mut c[..h], hidden);
    network.decode(hidden)
}

/// [`step`] on the shipped size, the state in arrays of its own: the
/// gates' sums are a whole array passed by value, which stays in vector
/// registers across the products (`step` keeps them in memory, stored
/// and loaded again for each `h_k`), summed in the same order.
#[inline(always)]
fn step_shipped<A: Arithmetic>(
    network: &Network,
    (hidden, c): (&mut [f32; SHIPPED_CELLS], &mut [f32; SHIPPED_CELLS]),
    bit: bool,
) -> Option<Decision> {
    const G: usize = 4 * SHIPPED_CELLS;
    let lstm = &network.weights.lstm;
    let mut z: [f32; G] = lstm.bias.get(..G)?.try_into().ok()?;
    if bit {
        let wi: &[f32; G] = lstm.w_ih.get(..G)?.try_into().ok()?;
        z = std::array::from_fn(|j| z[j] + wi[j]);
    }
    let columns = network.w_hh_t.get(..G * SHIPPED_CELLS)?.chunks_exact(G);
    for (&hk, column) in hidden.iter().zip(columns) {
        let column: &[f32; G] = column.try_into().ok()?;
        z = std::array::from_fn(|j| z[j] + hk * column[j]);
    }
    cell::<A>(&mut z, c, hidden);
    Some(network.decode(hidden))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A network whose weights are all `value`, with `n` combinators.
    fn constant(cells: usize, n: usize, value: f32) -> Network {
        let filled = |len: usize| vec![value; len];
        Network::new(Weights {
            lstm: Lstm {
                cells,
                inputs: 1,
                w_ih: filled(4 * cells),
                w_hh: filled(4 * cells * cells),
                bias: filled(4 * cells),
            },
            w_end: filled(cells),
            b_end: filled(1),
            w_prog: filled(SLOTS * cells),
            b_prog: filled(SLOTS),
            emb_h: filled(n * cells),
            emb_c: filled(n * cells),
        })
    }

    #[test]
    fn a_zero_network_keeps_a_zero_state_and_picks_the_first_slot() {
        let network = constant(3, 2, 0.0);
        let mut state = network.start(1);
        let output = network.step(&mut state, true);
        assert_eq!(state.h, [0.0; 3]);
        assert_eq!(state.c, [0.0; 3]);
        // r = σ(0) = 0.5 = α, so the activation returns; all scores tie.
        assert_eq!(
            output,
            Decision {
                slot: Slot::SelfSlot,
                ret: true
            }
        );
    }

    #[test]
    fn the_step_follows_the_lstm_equations() {
        let network = constant(1, 1, 1.0);
        let mut state = network.start(0);
        network.step(&mut state, true);
        // z = 1 (bit) + 1 (h) + 1 (bias) = 3 for every gate; c = 1.
        let s = maths::sigmoid(3.0);
        let c = s * 1.0 + s * 3f32.tanh();
        assert_eq!(state.c, [c]);
        assert_eq!(state.h, [s * c.tanh()]);
    }

    /// The decoders' columns give the decision [`Network::numbers`] reads.
    #[test]
    fn the_decision_is_read_from_the_numbers() {
        let mut network = constant(5, 1, 0.0);
        let mut weights = network.weights.clone();
        for (k, value) in (weights.w_prog.iter_mut().chain(&mut weights.w_end)).enumerate() {
            *value = ((k * 37 % 23) as f32 - 11.0) / 7.0;
        }
        weights.b_prog[3] = 0.25;
        network = Network::new(weights);
        for seed in 0..200u32 {
            let hidden: Vec<f32> = (0..5)
                .map(|j| ((seed * 31 + j * 17) % 41) as f32 / 20.0 - 1.0)
                .collect();
            let numbers = network.numbers(&hidden);
            let best = argmax(numbers.scores.iter().copied()).unwrap_or(0);
            let decision = network.decode(&hidden);
            assert_eq!(decision.slot, Slot::ALL[best], "{hidden:?}");
            assert_eq!(decision.ret, numbers.ret >= ALPHA, "{hidden:?}");
        }
    }

    #[test]
    fn slots_are_declared_in_frame_order() {
        // The trainer uses `slot as u32` as the index of the slot's score.
        for (i, &slot) in Slot::ALL.iter().enumerate() {
            assert_eq!(slot as usize, i);
        }
    }

    #[test]
    fn the_transpose_keeps_every_weight_of_w_hh() {
        let mut network = constant(2, 1, 0.0);
        network.weights.lstm.w_hh = (0..16).map(|i| i as f32).collect();
        let network = Network::new(network.weights);
        // Row 5, column 1 of W_hh is element 11.
        assert_eq!(network.w_hh_t[8 + 5], 11.0);
    }
}
