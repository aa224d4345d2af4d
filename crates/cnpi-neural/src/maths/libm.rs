//! `expf` and `tanhf` computed in Rust exactly as glibc 2.36 computes them
//! on x86-64, so that the networks' σ and `tanh` keep their bits while
//! the compiler inlines and vectorizes them (a call into libm per gate
//! was a third of `--no-cache`'s instructions).
//!
//! - `expf` is ARM's optimized-routines algorithm: `x · 32/ln 2 = k + r`
//!   in double precision, `2^(k/32)` from a 32-entry table, a cubic in `r`,
//!   rounded once to `f32`. glibc runs a build of it with fused
//!   multiply-adds on a processor with FMA and AVX2 and a plain build
//!   elsewhere; [`Arithmetic`] says which, and [`fused`] picks as glibc does.
//! - `tanhf` is fdlibm's: `1 − 2/(e^{2|x|} − 1 + 2)` through fdlibm's
//!   `expm1f`, all in `f32` arithmetic, the same on every processor.
//!
//! Every branch is written as a choice between values computed on every
//! lane, so that loops over them vectorize. `tests::exhaustive` compares
//! both functions with the system's on every one of the 2^32 `f32`s (it is
//! ignored by default: `cargo test --release -p cnpi-neural -- --ignored
//! exhaustive`); a sample of them runs in the normal suite.

/// How the double-precision steps of `expf` round: each product and sum
/// apart, or a product and a sum together (one fused multiply-add).
/// With it, how [`LANES`] values are computed side by side: plain loops
/// for [`Separate`], AVX2 vectors for `avx2::Fused` (glibc's fused
/// build needs AVX2 too).
pub(crate) trait Arithmetic {
    fn mul_add(a: f64, b: f64, c: f64) -> f64;
    /// [`expf`] of each lane.
    fn expf_lanes(x: [f32; LANES]) -> [f32; LANES];
    /// [`tanhf`] of each lane.
    fn tanhf_lanes(x: [f32; LANES]) -> [f32; LANES];
}

/// A product then a sum, each rounded.
pub(crate) struct Separate;

impl Arithmetic for Separate {
    #[inline(always)]
    fn mul_add(a: f64, b: f64, c: f64) -> f64 {
        a * b + c
    }
    #[inline(always)]
    fn expf_lanes(x: [f32; LANES]) -> [f32; LANES] {
        expf_lanes::<Separate>(x)
    }
    #[inline(always)]
    fn tanhf_lanes(x: [f32; LANES]) -> [f32; LANES] {
        x.map(tanhf)
    }
}

/// Whether glibc's `expf` is its fused build on this processor (FMA and
/// AVX2), which the callers then run too.
pub fn fused() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("fma") && std::arch::is_x86_feature_detected!("avx2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// The double nearest `2^(i/32)`, for `i` in `0..32` (computed to 60
/// digits and rounded to nearest).
const POWERS: [u64; 32] = [
    0x3ff0000000000000,
    0x3ff059b0d3158574,
    0x3ff0b5586cf9890f,
    0x3ff11301d0125b51,
    0x3ff172b83c7d517b,
    0x3ff1d4873168b9aa,
    0x3ff2387a6e756238,
    0x3ff29e9df51fdee1,
    0x3ff306fe0a31b715,
    0x3ff371a7373aa9cb,
    0x3ff3dea64c123422,
    0x3ff44e086061892d,
    0x3ff4bfdad5362a27,
    0x3ff5342b569d4f82,
    0x3ff5ab07dd485429,
    0x3ff6247eb03a5585,
    0x3ff6a09e667f3bcd,
    0x3ff71f75e8ec5f74,
    0x3ff7a11473eb0187,
    0x3ff82589994cce13,
    0x3ff8ace5422aa0db,
    0x3ff93737b0cdc5e5,
    0x3ff9c49182a3f090,
    0x3ffa5503b23e255d,
    0x3ffae89f995ad3ad,
    0x3ffb7f76f2fb5e47,
    0x3ffc199bdd85529c,
    0x3ffcb720dcef9069,
    0x3ffd5818dcfba487,
    0x3ffdfc97337b9b5f,
    0x3ffea4afa2a490da,
    0x3fff50765b6e4540,
];

/// `POWERS[i]` less `i / 32` in its exponent field, so that adding the
/// bits of `k << 47` gives `2^(k/32)` for any integer `k`.
pub(super) const TABLE: [u64; 32] = {
    let mut table = [0; 32];
    let mut i = 0;
    while i < 32 {
        table[i] = POWERS[i] - ((i as u64) << 47);
        i += 1;
    }
    table
};

/// 32 / ln 2; 1.5 · 2^52 (adding it rounds a double to an integer);
/// the cubic for `2^(r/32)`, from its `r³` coefficient down.
pub(super) const INV_LN2_N: u64 = 0x40471547652b82fe;
pub(super) const SHIFT: u64 = 0x4338000000000000;
pub(super) const CUBIC: [u64; 3] = [0x3ebc6af84b912394, 0x3f2ebfce50fac4f3, 0x3f962e42ff0c52d6];

/// Above it `expf` overflows; below these it underflows to 0 or to the
/// least subnormal.
const OVERFLOW: u32 = 0x42b17217;
const UNDERFLOW: u32 = 0xc2cff1b4;
const SUBNORMAL: u32 = 0xc2ce8ecf;

/// e^x, as glibc's `expf` with `A`'s rounding of its multiply-adds.
#[inline(always)]
pub fn expf<A: Arithmetic>(x: f32) -> f32 {
    let (cubic, k) = reduce::<A>(x);
    finish(x, scale(cubic, k))
}

/// The lanes [`expf_lanes`] computes side by side.
pub const LANES: usize = 8;

/// [`expf`] of each of `x`, in three loops: the reduction and the cubic,
/// then the table look-up, then the rounding and the special cases
/// ([`Separate`]'s lanes; the compiler leaves much of it scalar).
#[inline(always)]
fn expf_lanes<A: Arithmetic>(x: [f32; LANES]) -> [f32; LANES] {
    let (mut cubic, mut k) = ([0.0; LANES], [0; LANES]);
    for i in 0..LANES {
        (cubic[i], k[i]) = reduce::<A>(x[i]);
    }
    let mut scaled = [0.0; LANES];
    for i in 0..LANES {
        scaled[i] = scale(cubic[i], k[i]);
    }
    let mut out = [0.0; LANES];
    for i in 0..LANES {
        out[i] = finish(x[i], scaled[i]);
    }
    out
}

/// `x · 32/ln 2 = k + r` with `k` an integer and `|r| ≤ 1/2`: the cubic
/// for `2^(r/32)` and the bits from which `k` is read.
#[inline(always)]
fn reduce<A: Arithmetic>(x: f32) -> (f64, u64) {
    let inv_ln2_n = f64::from_bits(INV_LN2_N);
    let shift = f64::from_bits(SHIFT);
    let [c0, c1, c2] = CUBIC.map(f64::from_bits);
    let xd = f64::from(x);
    let shifted = A::mul_add(inv_ln2_n, xd, shift);
    let kd = shifted - shift;
    let r = A::mul_add(inv_ln2_n, xd, -kd);
    let high = A::mul_add(c0, r, c1);
    let r2 = r * r;
    let low = A::mul_add(c2, r, 1.0);
    (A::mul_add(high, r2, low), shifted.to_bits())
}

/// The cubic times `2^(k/32)`.
#[inline(always)]
fn scale(cubic: f64, k: u64) -> f64 {
    cubic * f64::from_bits(TABLE[(k & 31) as usize].wrapping_add(k << 47))
}

/// The value rounded to `f32`, or for `|x| ≥ 88`, an infinity or a NaN,
/// what glibc returns there.
#[inline(always)]
fn finish(x: f32, value: f64) -> f32 {
    let bits = x.to_bits();
    let value = value as f32;
    if (bits >> 20) & 0x7ff < 0x42b {
        value
    } else if bits == f32::NEG_INFINITY.to_bits() {
        0.0
    } else if (bits >> 20) & 0x7ff >= 0x7f8 {
        x + x
    } else if x > f32::from_bits(OVERFLOW) {
        f32::INFINITY
    } else if x < f32::from_bits(UNDERFLOW) {
        0.0
    } else if x < f32::from_bits(SUBNORMAL) {
        f32::from_bits(1)
    } else {
        value
    }
}

/// ln 2 in two parts (the first exact in products with small integers),
/// 1/ln 2, and fdlibm's scaled coefficients of `expm1f`.
pub(super) const LN2_HI: u32 = 0x3f317180;
pub(super) const LN2_LO: u32 = 0x3717f7d1;
pub(super) const INV_LN2: u32 = 0x3fb8aa3b;
pub(super) const Q: [u32; 5] = [0xbd088889, 0x3ad00d01, 0xb8a670cd, 0x36867e54, 0xb457edbb];

/// fdlibm's `expm1f` on the arguments `tanhf` gives it: `(−2, 44)`, where
/// neither its overflow nor its underflow branch is taken (`tanhf`'s
/// exhaustive test covers every such argument).
#[inline(always)]
fn expm1f(x: f32) -> f32 {
    let bits = x.to_bits();
    let negative = bits >> 31 == 1;
    let hx = bits & 0x7fff_ffff;
    let [ln2_hi, ln2_lo, inv_ln2] = [LN2_HI, LN2_LO, INV_LN2].map(f32::from_bits);
    // Reduction: x = k ln 2 + (hi − lo), with c the error of hi − lo.
    let near = hx < 0x3f85_1592;
    let half = if negative { -0.5 } else { 0.5 };
    let far_k = (inv_ln2 * x + half) as i32;
    let sign = if negative { -1 } else { 1 };
    let k = if hx <= 0x3eb1_7218 {
        0
    } else if near {
        sign
    } else {
        far_k
    };
    let t = far_k as f32;
    let (hi, lo) = if near {
        (x - sign as f32 * ln2_hi, sign as f32 * ln2_lo)
    } else {
        (x - t * ln2_hi, t * ln2_lo)
    };
    let reduced = hi - lo;
    let c = (hi - reduced) - lo;
    let x = if k == 0 { x } else { reduced };
    let [q1, q2, q3, q4, q5] = Q.map(f32::from_bits);
    let hfx = 0.5 * x;
    let hxs = x * hfx;
    let r1 = 1.0 + hxs * (q1 + hxs * (q2 + hxs * (q3 + hxs * (q4 + hxs * q5))));
    let t = 3.0 - r1 * hfx;
    let e = hxs * ((r1 - t) / (6.0 - x * t));
    let unreduced = x - (x * e - hxs);
    let e = (x * (e - c) - c) - hxs;
    let exponent = |y: f32| f32::from_bits(y.to_bits().wrapping_add((k as u32) << 23));
    let far = exponent(1.0 - (e - x)) - 1.0;
    let below_23 =
        exponent(f32::from_bits(0x3f80_0000 - (0x100_0000u32.wrapping_shr(k as u32))) - (e - x));
    let above_23 = exponent(x - (e + f32::from_bits((0x7f - k as u32) << 23)) + 1.0);
    if hx < 0x3300_0000 {
        // fdlibm's `x - ((huge + x) - (huge + x))`: x, with the inexact flag.
        x
    } else if k == 0 {
        unreduced
    } else if k == -1 {
        0.5 * (x - e) - 0.5
    } else if k == 1 {
        if x < -0.25 {
            -2.0 * (e - (x + 0.5))
        } else {
            1.0 + 2.0 * (x - e)
        }
    } else if k <= -2 || k > 56 {
        far
    } else if k < 23 {
        below_23
    } else {
        above_23
    }
}

/// tanh x, as glibc's `tanhf` (fdlibm's).
#[inline(always)]
pub fn tanhf(x: f32) -> f32 {
    let bits = x.to_bits();
    let ix = bits & 0x7fff_ffff;
    let a = x.abs();
    let big = ix >= 0x3f80_0000;
    let t = expm1f(if big { 2.0 * a } else { -2.0 * a });
    let z = if big {
        1.0 - 2.0 / (t + 2.0)
    } else {
        -t / (t + 2.0)
    };
    let z = if ix >= 0x41b0_0000 { 1.0 - 1.0e-30 } else { z };
    let signed = if bits >> 31 == 0 { z } else { -z };
    if ix >= 0x7f80_0000 {
        if bits >> 31 == 0 {
            1.0 / x + 1.0
        } else {
            1.0 / x - 1.0
        }
    } else if ix == 0 {
        x
    } else if ix < 0x2400_0000 {
        x * (1.0 + x)
    } else {
        signed
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::maths::{Kernel, run};

    /// The bit patterns where `expf` (alone, and in a vector of the
    /// [`LANES`] patterns from each start) or `tanhf` differs from the
    /// system's, with the arithmetic glibc uses here, compiled for it.
    struct Differ<I>(I);

    impl<I: Iterator<Item = u32>> Kernel for Differ<I> {
        type Output = Vec<u32>;
        #[inline(always)]
        fn run<A: Arithmetic>(self) -> Vec<u32> {
            let same = |a: f32, b: f32| a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan());
            let mut wrong = Vec::new();
            for start in self.0 {
                let bits: [u32; LANES] = std::array::from_fn(|i| start.wrapping_add(i as u32));
                let lanes = A::expf_lanes(bits.map(f32::from_bits));
                let tanh_lanes = A::tanhf_lanes(bits.map(f32::from_bits));
                for ((&bits, lane), tanh_lane) in bits.iter().zip(lanes).zip(tanh_lanes) {
                    let x = f32::from_bits(bits);
                    let (e, t) = (x.exp(), x.tanh());
                    let scalar = same(expf::<A>(x), e) && same(tanhf(x), t);
                    if !(scalar && same(lane, e) && same(tanh_lane, t)) {
                        wrong.push(bits);
                    }
                }
            }
            wrong
        }
    }

    #[test]
    fn the_table_holds_the_powers_of_two() {
        for (i, &bits) in POWERS.iter().enumerate() {
            let exact = (i as f64 / 32.0).exp2();
            assert!(
                (f64::from_bits(bits) - exact).abs() <= exact * f64::EPSILON,
                "{i}"
            );
        }
    }

    /// A sample of the 2^32 inputs: 8 patterns in every 32,792, and every
    /// pattern near the thresholds of the branches.
    #[test]
    fn a_sample_agrees_with_the_system_libm() {
        let thresholds = [
            0x3eb1_7218u32,
            0x3f85_1592,
            0x3300_0000,
            0x2400_0000,
            0x3f80_0000,
            0x41b0_0000,
            OVERFLOW,
            UNDERFLOW,
            SUBNORMAL,
            0x42b0_0000,
            // tanhf's x where expm1f(2|x|)'s k crosses a branch: 0,
            // −1, −2 on the small side; 23 and 57 on the big one.
            0x3e31_7218,
            0x3f05_1592,
            0x40f9_8872,
            0x419c_a6b9,
        ];
        let near = thresholds.iter().flat_map(|&t| {
            (t - 304..t + 304)
                .step_by(LANES)
                .flat_map(|b| [b, b ^ 0x8000_0000])
        });
        let sample = (0..=u32::MAX).step_by(4099 * LANES);
        assert_none_differ(run(Differ(sample.chain(near))));
    }

    /// Every `f32`: 6.6 minutes of CPU in release (passed on glibc 2.36,
    /// x86-64 with FMA and AVX2).
    #[test]
    #[ignore]
    fn exhaustive() {
        assert_none_differ(run(Differ((0..=u32::MAX).step_by(LANES))));
    }

    /// Every `f32` with [`Separate`] against glibc's plain build, which
    /// glibc runs where the processor lacks FMA or AVX2, and on any
    /// processor with `GLIBC_TUNABLES=glibc.cpu.hwcaps=-AVX2,-FMA`:
    /// `cargo test --release -p cnpi-neural -- --ignored
    /// exhaustive_separate` with it set (`exhaustive` then fails on the two
    /// `f32`s where the builds round apart: it holds the fused one).
    #[test]
    #[ignore]
    fn exhaustive_separate() {
        // One of the two `f32`s whose `expf` the builds round apart.
        let plain = f32::from_bits(0x4202_422f).exp().to_bits() == 0x56fc_9f1b;
        assert!(
            plain,
            "glibc runs its fused expf: set GLIBC_TUNABLES=glibc.cpu.hwcaps=-AVX2,-FMA"
        );
        assert_none_differ(Differ((0..=u32::MAX).step_by(LANES)).run::<Separate>());
    }

    fn assert_none_differ(wrong: Vec<u32>) {
        assert!(
            wrong.is_empty(),
            "{} differ, first {:#x?}",
            wrong.len(),
            &wrong[..wrong.len().min(8)]
        );
    }
}
