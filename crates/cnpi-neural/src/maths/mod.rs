//! The small maths every network of the crate is made of, written once:
//! the logistic function, dot products, the softmax, `y += a·x`, the
//! first-best index, and the LSTM cell.
//!
//! The inference network ([`Network`](crate::core::Network)), the fast
//! trainer ([`Lstm`](crate::core::lstm::Lstm) and its model), the
//! detectors' classifiers, the program memory's key lookup and the
//! reinforcement learner (crate `cnpi-rl`) all call these, so what
//! verification checks and what training optimises are the same floating
//! point operations in the same order. The candle trainer (`core::train`)
//! writes the same equations as tensor operations; it is the reference the
//! tests hold these against.
//!
//! σ and `tanh` are glibc's `expf` and `tanhf` written in Rust
//! (`libm.rs`), bit for bit the system's, so that the LSTM cell's loops
//! inline and vectorize them.

#[cfg(target_arch = "x86_64")]
mod avx2;
mod libm;

#[cfg(target_arch = "x86_64")]
use avx2::Fused;
use libm::Separate;
pub(crate) use libm::{Arithmetic, LANES};

/// The logistic function σ(x) = 1 / (1 + e^−x).
pub fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + exp(-x))
}

/// e^x: the system's `expf` ([`f32::exp`]) bit for bit.
pub fn exp(x: f32) -> f32 {
    struct Exp(f32);
    impl Kernel for Exp {
        type Output = f32;
        #[inline(always)]
        fn run<A: Arithmetic>(self) -> f32 {
            libm::expf::<A>(self.0)
        }
    }
    run(Exp(x))
}

/// tanh x: the system's `tanhf` ([`f32::tanh`]) bit for bit.
pub fn tanh(x: f32) -> f32 {
    libm::tanhf(x)
}

/// The most negative `f32` whose σ ([`sigmoid_in`], with either
/// arithmetic) is at least 1/2: −1.788139e−7, just above −1.5 · 2^−23.
const HALF_FROM: u32 = 0xb43f_fffe;

/// `σ(x) ≥ 1/2` exactly as [`sigmoid_in`] computes σ, for every `f32`
/// and either arithmetic, without computing it: `1/(1 + e)` rounds to at
/// least 1/2 exactly where `1 + e` rounds to at most 2, that is where
/// `e = expf(−x)` is at most `1 + 2^−23` (`2 + 2^−23` rounds to 2, its
/// even neighbour); `expf` is monotone, so that is every `x` from
/// [`HALF_FROM`] up, and never a NaN. `tests::exhaustive_half` checks it
/// on all 2^32 `f32`s with both arithmetics (`cargo test --release -p
/// cnpi-neural -- --ignored exhaustive_half`), a sample around the
/// threshold runs in the normal suite.
#[inline(always)]
pub(crate) fn sigmoid_at_least_half(x: f32) -> bool {
    x >= f32::from_bits(HALF_FROM)
}

/// σ with `A`'s rounding inside `expf`.
#[cfg(test)]
#[inline(always)]
pub(crate) fn sigmoid_in<A: Arithmetic>(x: f32) -> f32 {
    1.0 / (1.0 + libm::expf::<A>(-x))
}

/// σ of each of `values`, [`libm::LANES`] at a time.
#[inline(always)]
fn sigmoid_all<A: Arithmetic>(values: &mut [f32]) {
    by_lanes(values, |lanes| {
        A::expf_lanes(lanes.map(|x| -x)).map(|e| 1.0 / (1.0 + e))
    });
}

/// `f` on `values`, [`libm::LANES`] at a time (a last, shorter chunk
/// copied into lanes filled with zeros, whose results are dropped): lane
/// by lane the same values.
#[inline(always)]
fn by_lanes(values: &mut [f32], f: impl Fn([f32; libm::LANES]) -> [f32; libm::LANES]) {
    let mut chunks = values.chunks_exact_mut(libm::LANES);
    for chunk in &mut chunks {
        if let Ok(lanes) = <&mut [f32; libm::LANES]>::try_from(chunk) {
            *lanes = f(*lanes);
        }
    }
    let rest = chunks.into_remainder();
    if !rest.is_empty() {
        let mut lanes = [0.0; libm::LANES];
        lanes[..rest.len()].copy_from_slice(rest);
        rest.copy_from_slice(&f(lanes)[..rest.len()]);
    }
}

/// tanh of each of `values` in place (vectorized).
pub fn tanh_all(values: &mut [f32]) {
    struct Tanh<'a>(&'a mut [f32]);
    impl Kernel for Tanh<'_> {
        type Output = ();
        #[inline(always)]
        fn run<A: Arithmetic>(self) {
            tanh_lanes::<A>(self.0);
        }
    }
    run(Tanh(values));
}

/// tanh of each of `values` in place, [`libm::LANES`] at a time.
#[inline(always)]
pub(crate) fn tanh_lanes<A: Arithmetic>(values: &mut [f32]) {
    by_lanes(values, A::tanhf_lanes);
}

/// Work that computes `expf`, written for either [`Arithmetic`]: [`run`]
/// runs it with the one glibc uses on this processor, compiled for it
/// (work without `expf` gains the wider vectors).
pub(crate) trait Kernel {
    type Output;
    fn run<A: Arithmetic>(self) -> Self::Output;
}

/// Runs `kernel` as the system's `expf` rounds: fused multiply-adds,
/// compiled for FMA and AVX2, where glibc uses them (other arithmetic is
/// never fused: Rust does not contract `a * b + c`).
pub(crate) fn run<K: Kernel>(kernel: K) -> K::Output {
    #[cfg(target_arch = "x86_64")]
    if libm::fused() {
        // SAFETY: `fused()` has just found FMA and AVX2.
        return unsafe { fused(kernel) };
    }
    kernel.run::<Separate>()
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "fma,avx2")]
fn fused<K: Kernel>(kernel: K) -> K::Output {
    kernel.run::<Fused>()
}

/// `Σ a_i · b_i`, summed in index order (over the shorter of the two).
pub fn dot(a: &[f32], b: &[f32]) -> f32 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// The dot product of `x` with each row of `rows` (rows of `x.len()`
/// values, in order), each summed in index order exactly as [`dot`] sums
/// it; four rows at a time, so that their sums proceed side by side.
pub fn row_dots<'a>(rows: &'a [f32], x: &'a [f32]) -> impl Iterator<Item = f32> + 'a {
    let n = x.len().max(1);
    let blocks = rows.chunks_exact(4 * n);
    let rest = blocks
        .remainder()
        .chunks_exact(n)
        .map(move |row| dot(row, x));
    blocks
        .flat_map(move |block| four_dots(block, x))
        .chain(rest)
}

/// [`dot`] of `x` with the four rows of `block`.
fn four_dots(block: &[f32], x: &[f32]) -> [f32; 4] {
    let n = x.len();
    let mut sums = [-0.0f32; 4];
    for (j, &xj) in x.iter().enumerate() {
        for (r, sum) in sums.iter_mut().enumerate() {
            *sum += block[r * n + j] * xj;
        }
    }
    sums
}

/// A softmax, computed stably: shifted by the largest score `top`, with
/// `sum = Σ exp(s − top)`, so `−ln p_k = ln sum − (s_k − top)`.
pub struct Softmax {
    pub probs: Vec<f32>,
    pub top: f32,
    pub sum: f32,
}

/// The softmax of `scores` (the fast trainer's cross-entropy and the
/// reinforcement learner's policies).
pub fn softmax(scores: &[f32]) -> Softmax {
    let top = scores.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let exps: Vec<f32> = scores.iter().map(|s| (s - top).exp()).collect();
    let sum: f32 = exps.iter().sum();
    Softmax {
        probs: exps.iter().map(|e| e / sum).collect(),
        top,
        sum,
    }
}

/// `y += a · x`, element by element.
pub fn axpy(y: &mut [f32], a: f32, x: &[f32]) {
    for (y, x) in y.iter_mut().zip(x) {
        *y += a * x;
    }
}

/// The index of the largest value, the first on ties, as the decoders
/// pick a slot; `None` when there are no values. A NaN never wins over a
/// number (when every value is NaN, the first is returned).
///
/// Written as one `fold` (internal iteration), so that a chained source
/// such as [`row_dots`] runs as plain loops.
pub fn argmax(values: impl IntoIterator<Item = f32>) -> Option<usize> {
    let (count, best, _) =
        values
            .into_iter()
            .fold((0, 0, f32::NEG_INFINITY), |(i, best, top), value| {
                if value > top {
                    (i + 1, i, value)
                } else {
                    (i + 1, best, top)
                }
            });
    (count > 0).then_some(best)
}

/// The LSTM cell, from the pre-activations `z = W_ih · x + W_hh · h + b`
/// of its `4H` gates in PyTorch's order (i, f, g, o):
///
/// ```text
/// c' = σ(z_f) ⊙ c + σ(z_i) ⊙ tanh(z_g)      h' = σ(z_o) ⊙ tanh(c')
/// ```
///
/// `z` is turned into the activated gates in place (σ for i, f and o,
/// `tanh` for g), `c` into `c'` and `h` into `h'`; the backward pass of the
/// fast trainer reads the gates back.
pub fn lstm_cell(z: &mut [f32], c: &mut [f32], h: &mut [f32]) {
    struct Cell<'a>(&'a mut [f32], &'a mut [f32], &'a mut [f32]);
    impl Kernel for Cell<'_> {
        type Output = ();
        #[inline(always)]
        fn run<A: Arithmetic>(self) {
            cell::<A>(self.0, self.1, self.2);
        }
    }
    run(Cell(z, c, h));
}

/// [`lstm_cell`] with `A`'s rounding inside `expf`: plain loops over the
/// gates, which the compiler vectorizes.
#[inline(always)]
pub(crate) fn cell<A: Arithmetic>(z: &mut [f32], c: &mut [f32], h: &mut [f32]) {
    let n = c.len();
    let (input_forget, rest) = z.split_at_mut(2 * n);
    let (candidate, output) = rest.split_at_mut(n);
    // The candidates' `tanh` first: the longest chain of the step, which
    // the σ's then run beside.
    tanh_lanes::<A>(candidate);
    sigmoid_all::<A>(input_forget);
    sigmoid_all::<A>(output);
    let (input, forget) = input_forget.split_at(n);
    // Zipped, so that no index is checked and the loops vectorize.
    let gates = input.iter().zip(forget).zip(candidate.iter());
    for (c, ((i, f), g)) in c.iter_mut().zip(gates) {
        *c = f * *c + i * g;
    }
    h.copy_from_slice(c);
    tanh_lanes::<A>(h);
    for (h, o) in h.iter_mut().zip(output.iter()) {
        *h *= o;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn argmax_takes_the_first_of_the_best_and_none_of_nothing() {
        assert_eq!(argmax([1.0, 3.0, 3.0, 2.0]), Some(1));
        assert_eq!(argmax([f32::NEG_INFINITY; 2]), Some(0));
        assert_eq!(argmax([f32::NAN, 0.5]), Some(1));
        assert_eq!(argmax([]), None);
    }

    #[test]
    fn row_dots_are_the_dots_bit_for_bit() {
        let x: Vec<f32> = (0..7).map(|i| (i as f32 * 0.37).sin()).collect();
        for rows in [0, 1, 4, 9] {
            let m: Vec<f32> = (0..rows * 7).map(|i| (i as f32 * 1.13).cos()).collect();
            let fast: Vec<u32> = row_dots(&m, &x).map(f32::to_bits).collect();
            let plain: Vec<u32> = m.chunks_exact(7).map(|r| dot(r, &x).to_bits()).collect();
            assert_eq!(fast, plain);
        }
    }

    /// Whether [`sigmoid_at_least_half`] is `σ(x) ≥ 1/2` on each of
    /// `bits`, with each arithmetic: the first pattern where not.
    struct Half<I>(I);

    impl<I: Iterator<Item = u32> + Clone> Kernel for Half<I> {
        type Output = Option<u32>;
        #[inline(always)]
        fn run<A: Arithmetic>(self) -> Option<u32> {
            let differs = |bits: &u32| {
                let x = f32::from_bits(*bits);
                let half = sigmoid_at_least_half(x);
                (sigmoid_in::<A>(x) >= 0.5) != half || (sigmoid_in::<Separate>(x) >= 0.5) != half
            };
            self.0.clone().find(differs)
        }
    }

    #[test]
    fn half_is_the_sigmoid_at_least_half_near_its_threshold_and_across() {
        let near = (HALF_FROM - 4096..HALF_FROM + 4096).chain(0x8000_0000..0x8000_1000);
        let across = (0..=u32::MAX).step_by(65_537);
        assert_eq!(run(Half(near.chain(across))), None);
        assert!(sigmoid_at_least_half(-0.0) && sigmoid_at_least_half(f32::INFINITY));
        assert!(!sigmoid_at_least_half(f32::NAN) && !sigmoid_at_least_half(-1e-6));
    }

    /// Every `f32` (about two minutes of CPU in release).
    #[test]
    #[ignore]
    fn exhaustive_half() {
        assert_eq!(run(Half(0..=u32::MAX)), None);
    }

    #[test]
    fn the_cell_follows_its_equations() {
        // One cell, every pre-activation 3, c = 1.
        let (mut z, mut c, mut h) = ([3.0; 4], [1.0], [0.0]);
        lstm_cell(&mut z, &mut c, &mut h);
        let s = 1.0 / (1.0 + (-3f32).exp());
        assert_eq!(z, [s, s, 3f32.tanh(), s]);
        assert_eq!(c, [s * 1.0 + s * 3f32.tanh()]);
        assert_eq!(h, [s * c[0].tanh()]);
    }
}
