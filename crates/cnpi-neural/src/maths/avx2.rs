//! [`libm`](super::libm)'s `expf` (fused build) and `tanhf` on eight
//! lanes at once, written with AVX2 and FMA intrinsics: the same IEEE
//! operations in the same order as the scalar functions, lane by lane,
//! every branch computed on every lane and the one the scalar code takes
//! chosen by a blend. The compiler left most of the scalar code scalar
//! (about 37 instructions per `expf` and 72 per `tanhf`); these take about
//! a tenth. `libm`'s tests hold them against the system's functions on
//! every `f32` (`exhaustive`) and on a sample in the normal suite.
//!
//! [`Fused`], the arithmetic of glibc's fused build, lives here with
//! them: only it calls them, and only inside `maths::run`, after FMA and
//! AVX2 were found on the processor.

use std::arch::x86_64::*;

use super::libm::{
    Arithmetic, CUBIC, INV_LN2, INV_LN2_N, LANES, LN2_HI, LN2_LO, Q, SHIFT, TABLE, expf,
};

/// One fused multiply-add (an instruction where the caller is compiled
/// for FMA), and the lanes computed with AVX2.
pub(crate) struct Fused;

impl Arithmetic for Fused {
    #[inline(always)]
    fn mul_add(a: f64, b: f64, c: f64) -> f64 {
        a.mul_add(b, c)
    }
    #[inline(always)]
    fn expf_lanes(x: [f32; LANES]) -> [f32; LANES] {
        // SAFETY: `Fused` runs only through `maths::run`, which has found
        // FMA and AVX2 (see `libm::fused`).
        unsafe { expf8(x) }
    }
    #[inline(always)]
    fn tanhf_lanes(x: [f32; LANES]) -> [f32; LANES] {
        // SAFETY: as in `expf_lanes`.
        unsafe { tanhf8(x) }
    }
}

/// Eight `f32` as a vector.
#[inline(always)]
fn load(x: [f32; LANES]) -> __m256 {
    // SAFETY: `[f32; 8]` and `__m256` have the same size, and every bit
    // pattern is valid for both.
    unsafe { std::mem::transmute::<[f32; LANES], __m256>(x) }
}

/// A vector as eight `f32`.
#[inline(always)]
fn store(x: __m256) -> [f32; LANES] {
    // SAFETY: as in `load`.
    unsafe { std::mem::transmute::<__m256, [f32; LANES]>(x) }
}

/// An `f32` constant given by its bits, in every lane.
#[target_feature(enable = "avx2")]
fn splat(bits: u32) -> __m256 {
    _mm256_castsi256_ps(_mm256_set1_epi32(bits as i32))
}

/// `mask ? yes : no`, lane by lane (`mask` all ones or all zeros).
#[target_feature(enable = "avx2")]
fn pick(mask: __m256i, yes: __m256, no: __m256) -> __m256 {
    _mm256_blendv_ps(no, yes, _mm256_castsi256_ps(mask))
}

/// `a < b` on signed 32-bit lanes.
#[target_feature(enable = "avx2")]
fn less(a: __m256i, b: i32) -> __m256i {
    _mm256_cmpgt_epi32(_mm256_set1_epi32(b), a)
}

/// `a == b` on 32-bit lanes.
#[target_feature(enable = "avx2")]
fn equal(a: __m256i, b: i32) -> __m256i {
    _mm256_cmpeq_epi32(a, _mm256_set1_epi32(b))
}

/// `expf::<Fused>` of each lane. A lane of magnitude 88 or more, or not
/// a number, sends the eight to the scalar function, which handles it.
/// Inlined where it is called (the LSTM step's σ), its scalar path kept
/// out of line.
#[inline]
#[target_feature(enable = "avx2,fma")]
pub fn expf8(x: [f32; LANES]) -> [f32; LANES] {
    let v = load(x);
    let top = _mm256_and_si256(
        _mm256_srli_epi32(_mm256_castps_si256(v), 20),
        _mm256_set1_epi32(0x7ff),
    );
    let special = _mm256_cmpgt_epi32(top, _mm256_set1_epi32(0x42a));
    if _mm256_testz_si256(special, special) == 0 {
        return expf_scalar(x);
    }
    let low = expf4(_mm256_cvtps_pd(_mm256_castps256_ps128(v)));
    let high = expf4(_mm256_cvtps_pd(_mm256_extractf128_ps(v, 1)));
    store(_mm256_set_m128(high, low))
}

/// `expf::<Fused>` of each lane, one after another.
#[cold]
#[inline(never)]
#[target_feature(enable = "avx2,fma")]
fn expf_scalar(x: [f32; LANES]) -> [f32; LANES] {
    x.map(expf::<Fused>)
}

/// `libm::reduce` and `libm::scale` on four doubles, rounded to `f32`.
#[inline]
#[target_feature(enable = "avx2,fma")]
fn expf4(xd: __m256d) -> __m128 {
    let f64s = |bits: u64| _mm256_castsi256_pd(_mm256_set1_epi64x(bits as i64));
    let (inv_ln2_n, shift) = (f64s(INV_LN2_N), f64s(SHIFT));
    let [c0, c1, c2] = CUBIC.map(f64s);
    let shifted = _mm256_fmadd_pd(inv_ln2_n, xd, shift);
    let kd = _mm256_sub_pd(shifted, shift);
    let r = _mm256_fmsub_pd(inv_ln2_n, xd, kd);
    let high = _mm256_fmadd_pd(c0, r, c1);
    let r2 = _mm256_mul_pd(r, r);
    let low = _mm256_fmadd_pd(c2, r, _mm256_set1_pd(1.0));
    let cubic = _mm256_fmadd_pd(high, r2, low);
    let k = _mm256_castpd_si256(shifted);
    let index = _mm256_and_si256(k, _mm256_set1_epi64x(31));
    // SAFETY: every index is below 32, the length of `TABLE`.
    let entry = unsafe { _mm256_i64gather_epi64::<8>(TABLE.as_ptr().cast(), index) };
    let power = _mm256_add_epi64(entry, _mm256_slli_epi64::<47>(k));
    _mm256_cvtpd_ps(_mm256_mul_pd(cubic, _mm256_castsi256_pd(power)))
}

/// `libm::tanhf` of each lane.
#[target_feature(enable = "avx2,fma")]
pub fn tanhf8(x: [f32; LANES]) -> [f32; LANES] {
    let x = load(x);
    let bits = _mm256_castps_si256(x);
    let sign = _mm256_and_si256(bits, _mm256_set1_epi32(i32::MIN));
    let ix = _mm256_and_si256(bits, _mm256_set1_epi32(0x7fff_ffff));
    let a = _mm256_castsi256_ps(ix);
    let big = _mm256_cmpgt_epi32(ix, _mm256_set1_epi32(0x3f7f_ffff));
    // `2|x|` where |x| ≥ 1, else `−2|x|`: `|x| + |x|` (exact, as `2·|x|`)
    // with the sign bit set on the small lanes.
    let small_sign = _mm256_andnot_si256(big, _mm256_set1_epi32(i32::MIN));
    let t = expm1f8(_mm256_xor_ps(
        _mm256_add_ps(a, a),
        _mm256_castsi256_ps(small_sign),
    ));
    let (one, two) = (_mm256_set1_ps(1.0), _mm256_set1_ps(2.0));
    // `1 − 2/(t + 2)` or `−t/(t + 2)`: one division of the numerator
    // each lane needs.
    let minus_t = _mm256_xor_ps(t, splat(0x8000_0000));
    let quotient = _mm256_div_ps(pick(big, two, minus_t), _mm256_add_ps(t, two));
    let z = pick(big, _mm256_sub_ps(one, quotient), quotient);
    // `1 − 1e−30` is 1 in `f32`.
    let huge = _mm256_cmpgt_epi32(ix, _mm256_set1_epi32(0x41af_ffff));
    let z = pick(huge, one, z);
    let signed = _mm256_xor_ps(z, _mm256_castsi256_ps(sign));
    // `x·(1 + x)` is `x` itself at ±0.
    let tiny = _mm256_mul_ps(x, _mm256_add_ps(one, x));
    let out = pick(less(ix, 0x2400_0000), tiny, signed);
    let finite = less(ix, 0x7f80_0000);
    if _mm256_movemask_ps(_mm256_castsi256_ps(finite)) == 0xff {
        return store(out);
    }
    let reciprocal = _mm256_div_ps(one, x);
    let positive = _mm256_cmpeq_epi32(sign, _mm256_setzero_si256());
    let not_finite = pick(
        positive,
        _mm256_add_ps(reciprocal, one),
        _mm256_sub_ps(reciprocal, one),
    );
    store(pick(finite, out, not_finite))
}

/// `libm::expm1f` of each lane, on the arguments `tanhf` gives it:
/// `−2|x|` for `|x| < 1` and `2|x|` for `1 ≤ |x| < 22`, where the
/// reduction's `k` is 0, −1, −2, −3 or between 3 and 63 (never 1 or 2).
/// The branches for `k = −1`, `k ≤ −2 or k > 56` and `3 ≤ k < 23` are one
/// formula, `2^k·(P − (e − x)) − R`, with `(P, R)` = `(0, 1/2)`, `(1, 1)`
/// and `(1 − 2^−k, 0)`: for `k = −1`, `0 − (e − x)` is `x − e` (rounding
/// is symmetric) and `2^−1·y` is `0.5·y`; `− 0` changes nothing, not even
/// a `−0`. Every other lane's value (a larger `|x|`, an infinity, a NaN)
/// is not used by `tanhf8`, which holds all of it to glibc's on every
/// `f32`.
#[target_feature(enable = "avx2,fma")]
fn expm1f8(x: __m256) -> __m256 {
    let bits = _mm256_castps_si256(x);
    let sign_bit = _mm256_and_si256(bits, _mm256_set1_epi32(i32::MIN));
    let hx = _mm256_andnot_si256(sign_bit, bits);
    let [ln2_hi, ln2_lo, inv_ln2] = [LN2_HI, LN2_LO, INV_LN2].map(|bits| splat(bits));
    let near = less(hx, 0x3f85_1592);
    // ±0.5 and ±1 with the sign of x.
    let half = _mm256_castsi256_ps(_mm256_or_si256(sign_bit, _mm256_set1_epi32(0x3f00_0000)));
    let unit = _mm256_castsi256_ps(_mm256_or_si256(sign_bit, _mm256_set1_epi32(0x3f80_0000)));
    let far_k = _mm256_cvttps_epi32(_mm256_add_ps(_mm256_mul_ps(inv_ln2, x), half));
    // k = 0 exactly on these lanes: elsewhere |k| ≥ 1.
    let small = less(hx, 0x3eb1_7219);
    let k = _mm256_blendv_epi8(far_k, _mm256_cvttps_epi32(unit), near);
    let k = _mm256_andnot_si256(small, k);
    // `x − t·ln 2_hi` with `t = k` as a float (±1 on the near lanes):
    // `t·ln 2_hi` is exact, so the fused form rounds as the difference.
    let t = pick(near, unit, _mm256_cvtepi32_ps(far_k));
    let hi = _mm256_fnmadd_ps(t, ln2_hi, x);
    let lo = _mm256_mul_ps(t, ln2_lo);
    let reduced = _mm256_sub_ps(hi, lo);
    let c = _mm256_sub_ps(_mm256_sub_ps(hi, reduced), lo);
    let x = pick(small, x, reduced);
    let [q1, q2, q3, q4, q5] = Q.map(|bits| splat(bits));
    let (add, sub, mul) = (_mm256_add_ps, _mm256_sub_ps, _mm256_mul_ps);
    let hfx = mul(_mm256_set1_ps(0.5), x);
    let hxs = mul(x, hfx);
    let poly = add(q4, mul(hxs, q5));
    let poly = add(q3, mul(hxs, poly));
    let poly = add(q2, mul(hxs, poly));
    let poly = add(q1, mul(hxs, poly));
    let r1 = add(_mm256_set1_ps(1.0), mul(hxs, poly));
    let t = sub(_mm256_set1_ps(3.0), mul(r1, hfx));
    let e = mul(
        hxs,
        _mm256_div_ps(sub(r1, t), sub(_mm256_set1_ps(6.0), mul(x, t))),
    );
    let unreduced = sub(x, sub(mul(x, e), hxs));
    let e = sub(sub(mul(x, sub(e, c)), c), hxs);
    let k_bits = _mm256_slli_epi32::<23>(k);
    let exponent =
        |y: __m256| _mm256_castsi256_ps(_mm256_add_epi32(_mm256_castps_si256(y), k_bits));
    // (P, R) by k's branch.
    let one = _mm256_set1_ps(1.0);
    let minus_one = equal(k, -1);
    let far = _mm256_or_si256(less(k, -1), _mm256_cmpgt_epi32(k, _mm256_set1_epi32(56)));
    let shift = _mm256_and_si256(k, _mm256_set1_epi32(31));
    let below = _mm256_sub_epi32(
        _mm256_set1_epi32(0x3f80_0000),
        _mm256_srlv_epi32(_mm256_set1_epi32(0x100_0000), shift),
    );
    let p = pick(
        far,
        one,
        _mm256_castsi256_ps(_mm256_andnot_si256(minus_one, below)),
    );
    let r = pick(
        far,
        one,
        _mm256_and_ps(_mm256_castsi256_ps(minus_one), _mm256_set1_ps(0.5)),
    );
    let unified = sub(exponent(sub(p, sub(e, x))), r);
    let above = _mm256_slli_epi32::<23>(_mm256_sub_epi32(_mm256_set1_epi32(0x7f), k));
    let above_23 = exponent(add(sub(x, add(e, _mm256_castsi256_ps(above))), one));
    let above_23_lanes = _mm256_andnot_si256(far, _mm256_cmpgt_epi32(k, _mm256_set1_epi32(22)));
    let out = pick(above_23_lanes, above_23, unified);
    let out = pick(small, unreduced, out);
    pick(less(hx, 0x3300_0000), x, out)
}
