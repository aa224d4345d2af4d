//! One LSTM layer, forward and backward by hand, for batch-1 SGD: the
//! layer of a core's [`Weights`](crate::core::Weights) and of the fast
//! trainer's seq2seq encoder.
//!
//! candle builds a graph node per operation; at batch 1 and 16 cells the
//! bookkeeping costs ~25 times the arithmetic (issue 10: ~250 µs per update
//! against ~10 µs of work), so the trainer runs these loops instead and
//! keeps candle as the reference (`fast/reference.rs` checks that both give the
//! same gradients). The forward step is `z = W_ih · x + W_hh · h + b`
//! followed by [`lstm_cell`], the cell [`Network`](crate::core::Network)
//! runs too (gate order i, f, g, o, as PyTorch's).
//!
//! [`Lstm::forward`] records a [`Step`] per time step; [`Lstm::backward`]
//! walks them in reverse, accumulating into a gradient [`Lstm`] of the same
//! shape and returning the gradient of the initial state.

use crate::maths::{dot, lstm_cell, tanh};

/// The weights of one layer (or their gradients), row-major.
#[derive(Clone, Debug, PartialEq)]
pub struct Lstm {
    pub cells: usize,
    pub inputs: usize,
    /// `[4H, I]`.
    pub w_ih: Vec<f32>,
    /// `[4H, H]`.
    pub w_hh: Vec<f32>,
    /// `[4H]`.
    pub bias: Vec<f32>,
}

/// What [`Lstm::backward`] hands back besides the weight gradients.
pub struct Gradients {
    pub h0: Vec<f32>,
    pub c0: Vec<f32>,
    /// One per step, the gradient of its input `x`.
    pub inputs: Vec<Vec<f32>>,
}

/// What one forward step keeps for the backward pass.
#[derive(Clone, Debug, Default)]
pub struct Step {
    pub x: Vec<f32>,
    pub h_prev: Vec<f32>,
    pub c_prev: Vec<f32>,
    /// The activated gates `i, f, g, o`, `4H`.
    pub gates: Vec<f32>,
    pub h: Vec<f32>,
    pub c: Vec<f32>,
}

impl Lstm {
    pub fn zeros(cells: usize, inputs: usize) -> Lstm {
        Lstm {
            cells,
            inputs,
            w_ih: vec![0.0; 4 * cells * inputs],
            w_hh: vec![0.0; 4 * cells * cells],
            bias: vec![0.0; 4 * cells],
        }
    }

    /// A layer with no values yet, to fill through [`Lstm::tensors_mut`].
    pub fn empty(cells: usize, inputs: usize) -> Lstm {
        Lstm {
            cells,
            inputs,
            w_ih: Vec::new(),
            w_hh: Vec::new(),
            bias: Vec::new(),
        }
    }

    /// The three tensors, for initialisation, updates and zeroing.
    pub fn tensors_mut(&mut self) -> [&mut Vec<f32>; 3] {
        [&mut self.w_ih, &mut self.w_hh, &mut self.bias]
    }

    /// One step from `(h, c)` on input `x`.
    pub fn forward(&self, x: &[f32], h: &[f32], c: &[f32]) -> Step {
        let (n, inputs) = (self.cells, self.inputs);
        let mut z = self.bias.clone();
        for (row, z) in z.iter_mut().enumerate() {
            let wi = &self.w_ih[row * inputs..(row + 1) * inputs];
            let wh = &self.w_hh[row * n..(row + 1) * n];
            *z += dot(wi, x) + dot(wh, h);
        }
        let mut gates = z;
        let mut c_new = c.to_vec();
        let mut h_new = vec![0.0; n];
        lstm_cell(&mut gates, &mut c_new, &mut h_new);
        Step {
            x: x.to_vec(),
            h_prev: h.to_vec(),
            c_prev: c.to_vec(),
            gates,
            h: h_new,
            c: c_new,
        }
    }

    /// Backpropagates through `steps` (in forward order) given the loss
    /// gradient on each step's output `h` (`dh[t]`) and on the final state
    /// (`last`, for an encoder whose last state feeds another network),
    /// adding the weight gradients to `grad`. Returns the gradients of the
    /// initial `(h, c)` and of each step's input.
    pub fn backward(
        &self,
        steps: &[Step],
        dh: &[Vec<f32>],
        last: (Vec<f32>, Vec<f32>),
        grad: &mut Lstm,
    ) -> Gradients {
        let n = self.cells;
        let (mut dh_next, mut dc_next) = last;
        let mut dx_all = vec![Vec::new(); steps.len()];
        let mut dz = vec![0.0; 4 * n];
        for (t, step) in steps.iter().enumerate().rev() {
            let g = &step.gates;
            for j in 0..n {
                let dh = dh[t][j] + dh_next[j];
                let (i, f, cand, o) = (g[j], g[n + j], g[2 * n + j], g[3 * n + j]);
                // tanh(c') again, rather than kept by every forward step
                // (most are never differentiated).
                let tc = tanh(step.c[j]);
                let dc = dh * o * (1.0 - tc * tc) + dc_next[j];
                dz[j] = dc * cand * i * (1.0 - i);
                dz[n + j] = dc * step.c_prev[j] * f * (1.0 - f);
                dz[2 * n + j] = dc * i * (1.0 - cand * cand);
                dz[3 * n + j] = dh * tc * o * (1.0 - o);
                dc_next[j] = dc * f;
            }
            dh_next.iter_mut().for_each(|v| *v = 0.0);
            let mut dx = vec![0.0; self.inputs];
            for (row, &d) in dz.iter().enumerate() {
                grad.bias[row] += d;
                let wh = &self.w_hh[row * n..(row + 1) * n];
                let gh = &mut grad.w_hh[row * n..(row + 1) * n];
                for k in 0..n {
                    gh[k] += d * step.h_prev[k];
                    dh_next[k] += d * wh[k];
                }
                let inputs = self.inputs;
                let wi = &self.w_ih[row * inputs..(row + 1) * inputs];
                let gi = &mut grad.w_ih[row * inputs..(row + 1) * inputs];
                for k in 0..inputs {
                    gi[k] += d * step.x[k];
                    dx[k] += d * wi[k];
                }
            }
            dx_all[t] = dx;
        }
        Gradients {
            h0: dh_next,
            c0: dc_next,
            inputs: dx_all,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn filled(cells: usize, inputs: usize, seed: u32) -> Lstm {
        let mut lstm = Lstm::zeros(cells, inputs);
        let mut k = seed;
        for tensor in lstm.tensors_mut() {
            for v in tensor.iter_mut() {
                k = k.wrapping_mul(1_103_515_245).wrapping_add(12_345);
                *v = (k >> 16) as f32 / 65_536.0 - 0.5;
            }
        }
        lstm
    }

    /// Loss = Σ_t Σ_j h_t[j] · (j + 1): checks every weight's gradient
    /// against a central finite difference.
    #[test]
    fn backward_matches_finite_differences() {
        let lstm = filled(3, 2, 7);
        let xs = [[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]];
        let loss = |lstm: &Lstm| -> f64 {
            let (mut h, mut c) = (vec![0.1, -0.2, 0.3], vec![0.0, 0.2, -0.1]);
            let mut total = 0.0;
            for x in &xs {
                let step = lstm.forward(x, &h, &c);
                total += step
                    .h
                    .iter()
                    .enumerate()
                    .map(|(j, v)| f64::from(*v) * (j + 1) as f64)
                    .sum::<f64>();
                (h, c) = (step.h, step.c);
            }
            total
        };
        let (mut h, mut c) = (vec![0.1, -0.2, 0.3], vec![0.0, 0.2, -0.1]);
        let mut steps = Vec::new();
        for x in &xs {
            let step = lstm.forward(x, &h, &c);
            (h, c) = (step.h.clone(), step.c.clone());
            steps.push(step);
        }
        let dh = vec![vec![1.0, 2.0, 3.0]; xs.len()];
        let mut grad = Lstm::zeros(3, 2);
        lstm.backward(&steps, &dh, (vec![0.0; 3], vec![0.0; 3]), &mut grad);
        for (t, analytic) in grad.clone().tensors_mut().into_iter().enumerate() {
            for (k, &value) in analytic.iter().enumerate() {
                let (mut plus, mut minus) = (lstm.clone(), lstm.clone());
                plus.tensors_mut()[t][k] += 1e-3;
                minus.tensors_mut()[t][k] -= 1e-3;
                let numeric = (loss(&plus) - loss(&minus)) / 2e-3;
                assert!(
                    (numeric - f64::from(value)).abs() < 2e-2,
                    "tensor {t} element {k}: {numeric} vs {value}"
                );
            }
        }
    }
}
