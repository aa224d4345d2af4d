//! Keys: unit-norm, well-separated vectors drawn from a seeded RNG, and the
//! `argmax` that maps a key back to its row.
//!
//! Key `i` of a table is drawn from its own ChaCha stream, named by the
//! memory's seed, the table (program or detector memory) and `i`, and is
//! redrawn until its cosine with every earlier key is below
//! [`MAX_COSINE`]. So a key depends only on the seed and the keys before
//! it: the same source gives the same memory, and appending rows never
//! changes an existing one (Theorem 1). Since a stored key has dot product
//! ~1 with itself and at most [`MAX_COSINE`] with any other row, `argmax`
//! over the table finds it exactly (Lemma 1).

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The length of a key.
pub const KEY_DIM: usize = 32;

/// The largest |cosine| between two keys of one table. Random pairs in 32
/// dimensions reach it with probability ~10^-4, so tables of thousands of
/// rows still draw quickly, and the margin to 1 dwarfs f32 rounding.
pub const MAX_COSINE: f32 = 0.7;

/// Draws per key before giving up (a table far larger than any program).
const ATTEMPTS: usize = 10_000;

/// How far a stored key's norm may be from 1 (f32 rounding).
const NORM_TOLERANCE: f32 = 1e-4;

/// Which table a key belongs to, so the two tables draw different streams.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Table {
    Programs = 1,
    Detectors = 2,
}

/// Appends `count` keys to `keys`, a row-major `[n, KEY_DIM]` matrix; an
/// error (the number of keys held) when no new key fits.
pub fn draw(keys: &mut Vec<f32>, count: usize, seed: u64, table: Table) -> Result<(), usize> {
    for _ in 0..count {
        let index = (keys.len() / KEY_DIM) as u64;
        let mut bytes = [0u8; 32];
        bytes[..8].copy_from_slice(&seed.to_le_bytes());
        bytes[8..16].copy_from_slice(&(table as u64).to_le_bytes());
        bytes[16..24].copy_from_slice(&index.to_le_bytes());
        let mut rng = ChaCha8Rng::from_seed(bytes);
        let fits = |candidate: &[f32]| {
            keys.chunks_exact(KEY_DIM)
                .all(|other| dot(other, candidate).abs() < MAX_COSINE)
        };
        let key = (0..ATTEMPTS)
            .map(|_| unit(&mut rng))
            .find(|candidate| fits(candidate))
            .ok_or(index as usize)?;
        keys.extend_from_slice(&key);
    }
    Ok(())
}

/// A random unit vector (uniform components, normalised).
fn unit(rng: &mut ChaCha8Rng) -> [f32; KEY_DIM] {
    let mut key = [0f32; KEY_DIM];
    for x in &mut key {
        *x = rng.random::<f32>() * 2.0 - 1.0;
    }
    let norm = dot(&key, &key).sqrt();
    if norm > 0.0 {
        for x in &mut key {
            *x /= norm;
        }
    }
    key
}

pub fn dot(a: &[f32], b: &[f32]) -> f32 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// The row of `keys` with the largest dot product with `key` (the first on
/// ties); `None` for an empty table.
pub fn argmax(keys: &[f32], key: &[f32]) -> Option<usize> {
    let mut best: Option<(usize, f32)> = None;
    for (row, candidate) in keys.chunks_exact(KEY_DIM).enumerate() {
        let score = dot(candidate, key);
        if best.is_none_or(|(_, top)| score > top) {
            best = Some((row, score));
        }
    }
    best.map(|(row, _)| row)
}

/// Checks that every key is unit-norm and finite, and no two are closer
/// than [`MAX_COSINE`] allows: the conditions of Lemma 1.
pub fn check(keys: &[f32]) -> Result<(), String> {
    let rows: Vec<&[f32]> = keys.chunks_exact(KEY_DIM).collect();
    for (i, key) in rows.iter().enumerate() {
        let norm = dot(key, key).sqrt();
        if !norm.is_finite() || (norm - 1.0).abs() > NORM_TOLERANCE {
            return Err(format!("key {i} has norm {norm}, not 1"));
        }
        for (j, other) in rows[..i].iter().enumerate() {
            if dot(key, other).abs() >= MAX_COSINE + NORM_TOLERANCE {
                return Err(format!("keys {j} and {i} are too close to tell apart"));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_unit_distinct_reproducible_and_stable_when_appending() {
        let mut keys = Vec::new();
        draw(&mut keys, 400, 7, Table::Programs).expect("room for 400 keys");
        assert_eq!(check(&keys), Ok(()));
        let mut again = Vec::new();
        draw(&mut again, 250, 7, Table::Programs).expect("room");
        draw(&mut again, 150, 7, Table::Programs).expect("room");
        assert_eq!(keys, again);
        let mut other = Vec::new();
        draw(&mut other, 400, 7, Table::Detectors).expect("room");
        assert_ne!(keys, other);
        for (row, key) in keys.chunks_exact(KEY_DIM).enumerate() {
            assert_eq!(argmax(&keys, key), Some(row));
        }
    }

    #[test]
    fn check_refuses_close_or_unnormalised_keys() {
        let mut keys = Vec::new();
        draw(&mut keys, 2, 1, Table::Programs).expect("room");
        let first = keys[..KEY_DIM].to_vec();
        keys.extend_from_slice(&first);
        assert!(check(&keys).unwrap_err().contains("too close"));
        keys.truncate(KEY_DIM);
        keys[0] += 0.5;
        assert!(check(&keys).unwrap_err().contains("norm"));
        assert_eq!(argmax(&[], &first), None);
    }
}
