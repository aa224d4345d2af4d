//! Keys: unit-norm vectors whose separation is proved, not searched for,
//! and the `argmax` that maps a key back to its row.
//!
//! Key `i` of a table is the ±1/√32 vector of a codeword of the extended
//! binary BCH code [32, 21, 6], chosen among the 2^20 codewords whose first
//! bit is 0. Those codewords form a linear subcode whose nonzero words all
//! weigh between 6 and 26 (the test below enumerates them), so any two
//! keys differ in 6 to 26 of their 32 signs and their cosine lies in
//! [−0.625, 0.625] (1 − 2·6/32): every pair is separated by construction,
//! and drawing a key costs the same whatever the table holds. The seed
//! picks which codeword each row gets (a bijection of the indices) and a
//! permutation and sign flip of the coordinates, from a ChaCha stream named
//! by the seed and the table. So a key depends only on the seed, the table
//! and its index: the same source gives the same memory, and appending rows
//! never changes an existing one (Theorem 1). A stored key has dot product
//! 1 with itself and at most 0.625 with any other row, so `argmax` over the
//! table finds it exactly (Lemma 1); [`Index`] finds a stored key by its
//! bits in constant time, which is therefore the same answer.

use std::collections::HashMap;

use foldhash::fast::FixedState;

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::maths::{self, Arithmetic, Kernel};

/// The length of a key.
pub const KEY_DIM: usize = 32;

/// How many keys a table can hold: the codewords with first bit 0.
pub const CAPACITY: usize = 1 << 20;

/// The generator of the BCH code [31, 21, 5]: the product of the minimal
/// polynomials x^5 + x^2 + 1 (of α) and x^5 + x^4 + x^3 + x^2 + 1 (of α^3)
/// over GF(2), as bits (bit k is the coefficient of x^k).
const GENERATOR: u32 = clmul(0b10_0101, 0b11_1101);

/// Carry-less product of two polynomials over GF(2).
const fn clmul(a: u32, b: u32) -> u32 {
    let mut product = 0;
    let mut k = 0;
    while k < 32 {
        if b >> k & 1 == 1 {
            product ^= a << k;
        }
        k += 1;
    }
    product
}

/// The extended codeword of `message` (21 bits): the 31 bits of
/// `message(x) · GENERATOR(x)` and an overall parity bit.
fn codeword(message: u32) -> u32 {
    let word = clmul(message, GENERATOR);
    word | (word.count_ones() & 1) << 31
}

/// Which table a key belongs to, so the two tables draw different streams.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Table {
    Programs = 1,
    Detectors = 2,
}

/// What the seed chooses for a table: which codeword row `i` gets
/// (`i · multiplier + offset` modulo 2^20, a bijection since the multiplier
/// is odd), and where each bit goes, with which sign.
struct Codebook {
    multiplier: u32,
    offset: u32,
    places: [usize; KEY_DIM],
    signs: [f32; KEY_DIM],
}

impl Codebook {
    fn new(seed: u64, table: Table) -> Codebook {
        let mut bytes = [0u8; 32];
        bytes[..8].copy_from_slice(&seed.to_le_bytes());
        bytes[8..16].copy_from_slice(&(table as u64).to_le_bytes());
        let mut rng = ChaCha8Rng::from_seed(bytes);
        let mask = CAPACITY as u32 - 1;
        let multiplier = (rng.random::<u32>() & mask) | 1;
        let offset = rng.random::<u32>() & mask;
        let mut places: [usize; KEY_DIM] = std::array::from_fn(|i| i);
        for i in (1..KEY_DIM).rev() {
            let j = rng.random_range(0..=i);
            places.swap(i, j);
        }
        let signs = std::array::from_fn(|_| if rng.random::<bool>() { 1.0 } else { -1.0 });
        Codebook {
            multiplier,
            offset,
            places,
            signs,
        }
    }

    /// Key `index`: a codeword with first bit 0, as a unit vector.
    fn key(&self, index: usize) -> [f32; KEY_DIM] {
        let mask = CAPACITY as u32 - 1;
        let chosen = (index as u32)
            .wrapping_mul(self.multiplier)
            .wrapping_add(self.offset)
            & mask;
        let word = codeword(chosen << 1);
        let scale = scale();
        let mut key = [0f32; KEY_DIM];
        for (bit, (&place, &sign)) in self.places.iter().zip(&self.signs).enumerate() {
            let value = if word >> bit & 1 == 1 { -scale } else { scale };
            key[place] = sign * value;
        }
        key
    }
}

/// Appends `count` keys to `keys`, a row-major `[n, KEY_DIM]` matrix; an
/// error (the number of keys held) when the table is full.
pub fn draw(keys: &mut Vec<f32>, count: usize, seed: u64, table: Table) -> Result<(), usize> {
    let held = keys.len() / KEY_DIM;
    if held + count > CAPACITY {
        return Err(held);
    }
    let layout = Codebook::new(seed, table);
    for index in held..held + count {
        keys.extend_from_slice(&layout.key(index));
    }
    Ok(())
}

/// The row of `keys` with the largest dot product with `key` (the first on
/// ties); `None` for an empty table.
pub fn argmax(keys: &[f32], key: &[f32]) -> Option<usize> {
    debug_assert_eq!(key.len(), KEY_DIM);
    maths::argmax(maths::row_dots(keys, key))
}

/// Checks that `keys` are exactly the keys `seed` draws for `table`, bit
/// for bit: then every key is unit-norm and every pair is separated by a
/// cosine of at most 0.625 (the conditions of Lemma 1), in time linear in
/// the table.
pub fn check(keys: &[f32], seed: u64, table: Table) -> Result<(), String> {
    if keys.len() / KEY_DIM > CAPACITY {
        return Err(format!(
            "{} keys, more than {CAPACITY}",
            keys.len() / KEY_DIM
        ));
    }
    let layout = Codebook::new(seed, table);
    for (i, key) in keys.chunks_exact(KEY_DIM).enumerate() {
        if key != layout.key(i) {
            return Err(format!("key {i} is not the key of row {i} for seed {seed}"));
        }
    }
    Ok(())
}

/// Rows searched side by side by [`Search::argmax`]: a vector register of
/// `f32`s twice over.
const LANES: usize = 8;

/// A key table laid out for [`argmax`]'s search: blocks of [`LANES`] rows,
/// each stored column by column (`KEY_DIM` groups of one coordinate of
/// each row), so that the dot products of a block proceed side by side in
/// vector registers. Each lane sums its row's products in index order from
/// `-0.0`, exactly as [`maths::dot`] does, so the scores, and the row
/// picked, are [`argmax`]'s bit for bit; it is a layout of the same
/// weights, made once, not a cache of answers.
///
/// The search stops early, with the same answer. `bound[t]` is the largest
/// `|k_t|` of any row, and for a query `x` the sum `U` of `bound[t] · |x_t|`,
/// rounded and summed in the same order as a score, is at least every
/// row's score: rounding is monotone, so each product `k_t · x_t` rounds to
/// at most `bound[t] · |x_t|` rounded, and so does each partial sum. A row
/// that scores `U` therefore has the best score and no later row can beat
/// it (ties go to the first), so the search returns it at once. A stored
/// key scores exactly `U` on its own row (its coordinates all have the
/// magnitude `1/√32`), so the parser stops there, on average halfway
/// through the table. A NaN makes `U` NaN, and the search runs to the end.
///
/// Drawn keys and the queries the compiler writes have every coordinate
/// `±1/√32`; the row that scores `U` is then the first whose signs are the
/// query's ([`Signs`]), found without computing a score.
#[derive(Clone, Debug, Default)]
pub struct Search {
    blocks: Vec<[[f32; LANES]; KEY_DIM]>,
    rows: usize,
    bound: [f32; KEY_DIM],
    signs: Option<Signs>,
}

/// The signs of a table of drawn keys, one bit per coordinate (set where
/// it is negative): every coordinate of a drawn key is `±s`, `s` the
/// [`scale`], and so is every coordinate of the keys the compiler writes
/// into appliers. Against such a query every product `k_t · x_t` is `±c`
/// exactly, `c = s · s` rounded (rounding is symmetric), and the bound `U`
/// sums 32 times `+c`. A row with the query's signs sums exactly `U`'s
/// terms in `U`'s order, so it scores `U`; any other row scores less: its
/// exact sum is `(32 − 2d) · c` with `d ≥ 1` signs differing, and every
/// partial sum lies below 1 in magnitude, so each of the 32 roundings
/// moves it by at most 2^−25, and its score is at most `30c + 2^−20`
/// while `U` is at least `32c − 2^−20` (`c` is about 1/32). So the row
/// `argmax` picks, where the scan by scores stops, is the first row whose
/// signs are the query's, found by comparing 32-bit words.
#[derive(Clone, Debug)]
struct Signs {
    masks: Vec<u32>,
}

/// Rows whose signs are compared with the query's at once by
/// [`Signs::first`].
const SIGN_LANES: usize = 16;

impl Signs {
    /// The signs of `keys`, if every coordinate is `±s`.
    fn new(keys: &[f32]) -> Option<Signs> {
        (keys.iter().all(scaled)).then(|| Signs {
            masks: (keys.chunks_exact(KEY_DIM))
                .filter_map(|key| Some(sign_mask(key.try_into().ok()?)))
                .collect(),
        })
    }

    /// The first row whose signs are `key`'s, if `key`'s coordinates are
    /// all `±s` and a row has them: [`SIGN_LANES`] rows compared at once.
    #[inline(always)]
    fn first(&self, key: &[f32; KEY_DIM]) -> Option<usize> {
        // Every coordinate checked (no early exit), so it vectorizes.
        if !key.iter().fold(true, |all, x| all & scaled(x)) {
            return None;
        }
        let query = sign_mask(key);
        let blocks = self.masks.as_chunks::<SIGN_LANES>();
        for (b, block) in blocks.0.iter().enumerate() {
            let hits = equal_lanes(block, query);
            if hits != 0 {
                return Some(b * SIGN_LANES + hits.trailing_zeros() as usize);
            }
        }
        let rest = blocks.1;
        let lane = rest.iter().position(|&mask| mask == query)?;
        Some(self.masks.len() - rest.len() + lane)
    }
}

/// The magnitude `s = 1/√32` of every coordinate of a drawn key.
fn scale() -> f32 {
    1.0 / (KEY_DIM as f32).sqrt()
}

/// True when `x` is `±s`.
fn scaled(x: &f32) -> bool {
    x.abs().to_bits() == scale().to_bits()
}

/// Bit `t` set where coordinate `t` of `key` is negative: the sign bits
/// gathered four at a time (`movmskps`; the compiler does not vectorize
/// the plain loop inside the search).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn sign_mask(key: &[f32; KEY_DIM]) -> u32 {
    use std::arch::x86_64::{_mm_loadu_ps, _mm_movemask_ps};
    (key.as_chunks::<4>().0.iter().enumerate()).fold(0, |mask, (g, four)| {
        // SAFETY: `four` is four `f32`s, read unaligned; SSE is part of
        // every x86_64 processor.
        let signs = unsafe { _mm_movemask_ps(_mm_loadu_ps(four.as_ptr())) };
        mask | (signs as u32) << (4 * g)
    })
}

/// Bit `t` set where coordinate `t` of `key` is negative.
#[cfg(not(target_arch = "x86_64"))]
fn sign_mask(key: &[f32; KEY_DIM]) -> u32 {
    (key.iter().enumerate()).fold(0, |mask, (t, x)| {
        mask | u32::from(x.is_sign_negative()) << t
    })
}

/// Bit `lane` set where `block[lane]` is `query`: four lanes compared at a
/// time (`pcmpeqd`, `movmskps`).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn equal_lanes(block: &[u32; SIGN_LANES], query: u32) -> u32 {
    use std::arch::x86_64::{
        _mm_castsi128_ps, _mm_cmpeq_epi32, _mm_loadu_si128, _mm_movemask_ps, _mm_set1_epi32,
    };
    (block.as_chunks::<4>().0.iter().enumerate()).fold(0, |hits, (g, four)| {
        // SAFETY: `four` is four `u32`s, read unaligned; SSE2 is part of
        // every x86_64 processor.
        let equal = unsafe {
            let four = _mm_loadu_si128(four.as_ptr().cast());
            let equal = _mm_cmpeq_epi32(four, _mm_set1_epi32(query as i32));
            _mm_movemask_ps(_mm_castsi128_ps(equal))
        };
        hits | (equal as u32) << (4 * g)
    })
}

/// Bit `lane` set where `block[lane]` is `query`.
#[cfg(not(target_arch = "x86_64"))]
fn equal_lanes(block: &[u32; SIGN_LANES], query: u32) -> u32 {
    (block.iter().enumerate()).fold(0, |hits, (lane, &mask)| {
        hits | u32::from(mask == query) << lane
    })
}

impl Search {
    pub fn new(keys: &[f32]) -> Search {
        let rows = keys.len() / KEY_DIM;
        let blocks = (keys.chunks(LANES * KEY_DIM))
            .map(|block| {
                let mut columns = [[0.0; LANES]; KEY_DIM];
                for (lane, key) in block.chunks_exact(KEY_DIM).enumerate() {
                    for (column, &value) in columns.iter_mut().zip(key) {
                        column[lane] = value;
                    }
                }
                columns
            })
            .collect();
        let mut bound = [0.0f32; KEY_DIM];
        for key in keys.chunks_exact(KEY_DIM) {
            for (top, value) in bound.iter_mut().zip(key) {
                // `max` ignores NaN: a row with a NaN never wins anyway.
                *top = top.max(value.abs());
            }
        }
        Search {
            blocks,
            rows,
            bound,
            signs: Signs::new(keys),
        }
    }

    /// [`argmax`] of the table with `key`: the same row.
    pub fn argmax(&self, key: &[f32]) -> Option<usize> {
        let key: &[f32; KEY_DIM] = key.try_into().ok()?;
        maths::run(Scan { search: self, key })
    }
}

/// [`Search::argmax`] as a [`Kernel`], so that it runs compiled for the
/// processor's widest vectors (a block's eight sums in one register).
struct Scan<'a> {
    search: &'a Search,
    key: &'a [f32; KEY_DIM],
}

impl Kernel for Scan<'_> {
    type Output = Option<usize>;

    #[inline(always)]
    fn run<A: Arithmetic>(self) -> Option<usize> {
        let Scan { search, key } = self;
        if let Some(row) = search.signs.as_ref().and_then(|signs| signs.first(key)) {
            return Some(row);
        }
        let most = (search.bound.iter().zip(key)).fold(-0.0f32, |sum, (&k, &x)| sum + k * x.abs());
        let (mut best, mut top) = (0, f32::NEG_INFINITY);
        for (b, block) in search.blocks.iter().enumerate() {
            // Whole arrays by value, which stay in a vector register.
            let sums = (block.iter().zip(key)).fold([-0.0f32; LANES], |sums, (column, &x)| {
                std::array::from_fn(|lane| sums[lane] + column[lane] * x)
            });
            // No lane (padding included) above `top`: nothing to pick
            // here; one vector comparison.
            if !sums.iter().fold(false, |any, &score| any | (score > top)) {
                continue;
            }
            let lanes = (search.rows - b * LANES).min(LANES);
            for (lane, &score) in sums.iter().take(lanes).enumerate() {
                // `maths::argmax`'s rule: a strictly larger score wins.
                if score > top {
                    (best, top) = (b * LANES + lane, score);
                    if score == most {
                        return Some(best);
                    }
                }
            }
        }
        (search.rows > 0).then_some(best)
    }
}

/// The rows of a table by the bits of their keys: `find` gives the row
/// whose key equals a given one exactly, which for a table of drawn keys is
/// the row `argmax` picks (Lemma 1), found in constant time. Hashed with
/// foldhash, not std's SipHash: the keys are not an attacker's, and SipHash
/// over their 128 bytes was 2 % of a one-element run's instructions.
#[derive(Clone, Debug, Default)]
pub struct Index(HashMap<[u32; KEY_DIM], usize, FixedState>);

impl Index {
    pub fn new(keys: &[f32]) -> Index {
        let rows = keys.len() / KEY_DIM;
        let mut index = Index(HashMap::with_capacity_and_hasher(
            rows,
            FixedState::default(),
        ));
        index.extend(keys, 0);
        index
    }

    /// Adds the rows of `keys`, numbered from `first`.
    pub fn extend(&mut self, keys: &[f32], first: usize) {
        for (i, key) in keys.chunks_exact(KEY_DIM).enumerate() {
            self.0.entry(bits(key)).or_insert(first + i);
        }
    }

    pub fn find(&self, key: &[f32]) -> Option<usize> {
        if key.len() != KEY_DIM {
            return None;
        }
        self.0.get(&bits(key)).copied()
    }
}

/// A key table as the parser reads it: the row a key names.
pub trait Lookup {
    fn row(&self, key: &[f32]) -> Option<usize>;
}

impl Lookup for Index {
    fn row(&self, key: &[f32]) -> Option<usize> {
        self.find(key)
    }
}

impl Lookup for Search {
    fn row(&self, key: &[f32]) -> Option<usize> {
        self.argmax(key)
    }
}

fn bits(key: &[f32]) -> [u32; KEY_DIM] {
    std::array::from_fn(|i| key.get(i).map_or(0, |x| x.to_bits()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::maths::dot;

    /// The largest |cosine| between two keys of one table: 1 − 2·6/32.
    const MAX_COSINE: f32 = 0.625;

    /// The proof behind [`MAX_COSINE`]: every nonzero codeword with first
    /// bit 0 weighs 6 to 26, so distinct keys differ in 6 to 26 signs.
    #[test]
    fn every_codeword_with_first_bit_zero_weighs_6_to_26() {
        let (mut lightest, mut heaviest) = (u32::MAX, 0);
        for message in 1..CAPACITY as u32 {
            let word = codeword(message << 1);
            assert_eq!(word & 1, 0);
            lightest = lightest.min(word.count_ones());
            heaviest = heaviest.max(word.count_ones());
        }
        assert_eq!((lightest, heaviest), (6, 26));
    }

    #[test]
    fn keys_are_unit_distinct_reproducible_and_stable_when_appending() {
        let mut keys = Vec::new();
        draw(&mut keys, 400, 7, Table::Programs).expect("room for 400 keys");
        assert_eq!(check(&keys, 7, Table::Programs), Ok(()));
        let mut again = Vec::new();
        draw(&mut again, 250, 7, Table::Programs).expect("room");
        draw(&mut again, 150, 7, Table::Programs).expect("room");
        assert_eq!(keys, again);
        let mut other = Vec::new();
        draw(&mut other, 400, 7, Table::Detectors).expect("room");
        assert_ne!(keys, other);
        let rows: Vec<&[f32]> = keys.chunks_exact(KEY_DIM).collect();
        let index = Index::new(&keys);
        for (row, key) in rows.iter().enumerate() {
            assert!((dot(key, key) - 1.0).abs() < 1e-5);
            for other in &rows[..row] {
                assert!(dot(key, other).abs() <= MAX_COSINE + 1e-5);
            }
            assert_eq!(argmax(&keys, key), Some(row));
            assert_eq!(index.find(key), Some(row));
        }
    }

    #[test]
    fn the_search_picks_the_rows_argmax_picks() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        for rows in [0, 1, 7, 8, 9, 40] {
            let mut keys = Vec::new();
            draw(&mut keys, rows, 5, Table::Programs).expect("room");
            let search = Search::new(&keys);
            let stored = keys.chunks_exact(KEY_DIM).map(<[f32]>::to_vec);
            let random = (0..50).map(|_| {
                let key: Vec<f32> = (0..KEY_DIM).map(|_| rng.random::<f32>() - 0.5).collect();
                key
            });
            for key in stored.chain(random) {
                assert_eq!(search.argmax(&key), argmax(&keys, &key), "{rows} rows");
            }
        }
    }

    /// Keys and queries of coordinates `±s`: a row with the query's signs
    /// scores `U`, any other row less, from `d` = 1 to 32 signs differing.
    #[test]
    fn only_the_querys_signs_score_the_bound() {
        let mut rng = ChaCha8Rng::seed_from_u64(8);
        let s = scale();
        let mut seen = [false; KEY_DIM + 1];
        for _ in 0..5000 {
            let a: [f32; KEY_DIM] = std::array::from_fn(|_| if rng.random() { s } else { -s });
            let flip = rng.random::<f32>();
            let b = a.map(|x| if rng.random::<f32>() < flip { -x } else { x });
            let d = (sign_mask(&a) ^ sign_mask(&b)).count_ones();
            seen[d as usize] = true;
            let bound = a.iter().fold(-0.0f32, |sum, x| sum + s * x.abs());
            assert_eq!(dot(&a, &a), bound);
            assert_eq!(dot(&a, &b) < bound, d > 0, "{d} signs differ");
        }
        assert!(seen.iter().all(|&s| s), "every d from 0 to 32");
    }

    #[test]
    fn sign_bits_and_equal_lanes_are_in_place() {
        let s = scale();
        for t in 0..KEY_DIM {
            let key: [f32; KEY_DIM] = std::array::from_fn(|i| if i == t { -s } else { s });
            assert_eq!(sign_mask(&key), 1 << t);
            assert_eq!(sign_mask(&key.map(|x| -x)), !(1 << t));
        }
        for lane in 0..SIGN_LANES {
            let mut block = [7u32; SIGN_LANES];
            block[lane] = 9;
            assert_eq!(equal_lanes(&block, 9), 1 << lane);
            assert_eq!(equal_lanes(&block, 7), !(1 << lane) & 0xffff);
        }
    }

    /// The search by signs picks `argmax`'s row: on stored keys, on a
    /// repeated row (the first), on keys with a few signs turned and on
    /// random signs (no row has them); a table of other magnitudes is
    /// searched by its scores.
    #[test]
    fn the_search_by_signs_picks_the_rows_argmax_picks() {
        let mut rng = ChaCha8Rng::seed_from_u64(9);
        for rows in [1, 15, 16, 17, 40] {
            let mut keys = Vec::new();
            draw(&mut keys, rows, 9, Table::Programs).expect("room");
            let last = keys[(rows - 1) * KEY_DIM..].to_vec();
            keys.extend_from_slice(&last);
            let search = Search::new(&keys);
            assert!(search.signs.is_some(), "drawn keys are ±s");
            assert_eq!(search.argmax(&last), Some(rows - 1));
            let s = keys[0].abs();
            let stored = keys.chunks_exact(KEY_DIM).map(<[f32]>::to_vec);
            let turned: Vec<Vec<f32>> = (stored.clone())
                .map(|mut key| {
                    for _ in 0..rng.random_range(1..4) {
                        let t = rng.random_range(0..KEY_DIM);
                        key[t] = -key[t];
                    }
                    key
                })
                .collect();
            let random: Vec<Vec<f32>> = (0..100)
                .map(|_| {
                    (0..KEY_DIM)
                        .map(|_| if rng.random() { s } else { -s })
                        .collect()
                })
                .collect();
            for key in stored.chain(turned).chain(random) {
                let plain = argmax(&keys, &key);
                assert_eq!(search.argmax(&key), plain, "{rows} rows");
                let scores = Search {
                    signs: None,
                    ..search.clone()
                };
                assert_eq!(scores.argmax(&key), plain, "by scores, {rows} rows");
            }
        }
        let mut keys = Vec::new();
        draw(&mut keys, 3, 9, Table::Programs).expect("room");
        keys[5] *= 2.0;
        assert!(Search::new(&keys).signs.is_none());
    }

    /// The early stop keeps `argmax`'s answer on ties (the first row),
    /// on rows of other magnitudes, on zeros and on NaNs.
    #[test]
    fn the_search_stops_early_only_on_the_best_row() {
        let mut rng = ChaCha8Rng::seed_from_u64(4);
        let mut keys = Vec::new();
        draw(&mut keys, 20, 6, Table::Detectors).expect("room");
        let first = keys[..KEY_DIM].to_vec();
        let fifth = keys[4 * KEY_DIM..5 * KEY_DIM].to_vec();
        // Row 20 repeats row 4, row 21 is row 0 doubled, row 22 is zero,
        // row 23 holds a NaN.
        keys.extend_from_slice(&fifth);
        keys.extend(first.iter().map(|x| 2.0 * x));
        keys.extend([0.0; KEY_DIM]);
        keys.extend([f32::NAN; KEY_DIM]);
        let search = Search::new(&keys);
        let mut queries: Vec<Vec<f32>> = keys.chunks_exact(KEY_DIM).map(<[f32]>::to_vec).collect();
        queries.push(vec![0.0; KEY_DIM]);
        queries.push(vec![-0.0; KEY_DIM]);
        let mut with_nan = first.clone();
        with_nan[3] = f32::NAN;
        queries.push(with_nan);
        queries.extend((0..200).map(|_| {
            let scale = 10f32.powi(rng.random_range(-3..4));
            (0..KEY_DIM)
                .map(|_| (rng.random::<f32>() - 0.5) * scale)
                .collect()
        }));
        for key in &queries {
            assert_eq!(search.argmax(key), argmax(&keys, key), "{key:?}");
        }
        assert_eq!(search.argmax(&fifth), Some(4));
        assert_eq!(search.argmax(&first), Some(21), "the doubled row scores 2");
    }

    #[test]
    fn check_refuses_keys_the_seed_did_not_draw() {
        let mut keys = Vec::new();
        draw(&mut keys, 2, 1, Table::Programs).expect("room");
        assert!(check(&keys, 2, Table::Programs).is_err());
        assert!(check(&keys, 1, Table::Detectors).is_err());
        let first = keys[..KEY_DIM].to_vec();
        keys.extend_from_slice(&first);
        assert!(
            check(&keys, 1, Table::Programs)
                .unwrap_err()
                .contains("key 2")
        );
        assert_eq!(argmax(&[], &first), None);
        assert_eq!(Index::new(&[]).find(&first), None);
    }

    #[test]
    fn a_full_table_is_refused() {
        let mut keys = vec![0.0; KEY_DIM * (CAPACITY - 1)];
        assert_eq!(draw(&mut keys, 2, 1, Table::Programs), Err(CAPACITY - 1));
    }
}
