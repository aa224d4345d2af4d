//! The two built-in detectors' classifiers for the default seed, kept in
//! the source. Every memory starts with them (the blind detector `true` of
//! `seq` and ACT appliers, and `_mapself`'s `_top != SENTINEL`), and
//! reading them from the detector cache cost two files at every start. A
//! unit test trains both from [`DEFAULT_SEED`] on every build and holds
//! them to these weights bit for bit; at run time they are verified as
//! any classifier is (on a domain of one point and of two) before use.
//! Another seed goes through the cache as before.

use super::DEFAULT_SEED;
use crate::detector::{Classifier, Condition};

/// Hidden units of both kept classifiers.
const HIDDEN: usize = 4;

/// The blind detector's weights as `f32` bits: no inputs, `b1`, `w2`, `b2`.
const BLIND: ([u32; HIDDEN], [u32; HIDDEN], u32) = (
    [0xbedd_a650, 0x3f37_2505, 0x3f66_0fd7, 0x3f53_5b24],
    [0xbe96_cc02, 0x3e0b_7e3e, 0x3f5f_c137, 0x3eb5_f63e],
    0x3f70_9a62,
);

/// `_top != SENTINEL`'s weights as `f32` bits: two inputs (`w1`, row-major
/// `[hidden, inputs]`), `b1`, `w2`, `b2`.
const STACK_TOP: ([u32; 2 * HIDDEN], [u32; HIDDEN], [u32; HIDDEN], u32) = (
    [
        0xbefd_6cf8,
        0x3f9d_0933,
        0x3f3c_4782,
        0x3f2e_49a3,
        0x3ec4_50fa,
        0xbf90_e715,
        0x3f70_9674,
        0xbf3d_f746,
    ],
    [0xbf1a_739a, 0xbf79_4ec4, 0x3e95_a27c, 0xbe44_44e9],
    [0x3f82_b02e, 0xbdca_5e89, 0xbf72_d449, 0xbf85_f451],
    0xbb87_3678,
);

/// The classifier training gives the built-in `condition` from `seed`,
/// where it is kept: for [`DEFAULT_SEED`] only.
pub(super) fn kept(condition: &Condition, seed: u64) -> Option<Classifier> {
    if seed != DEFAULT_SEED {
        return None;
    }
    let (inputs, w1, b1, w2, b2) = match condition {
        Condition::Blind => (0, &[][..], &BLIND.0, &BLIND.1, BLIND.2),
        Condition::StackTop => (2, &STACK_TOP.0[..], &STACK_TOP.1, &STACK_TOP.2, STACK_TOP.3),
        Condition::Source(_) => return None,
    };
    let floats = |bits: &[u32]| bits.iter().map(|&b| f32::from_bits(b)).collect();
    Some(Classifier {
        inputs,
        hidden: HIDDEN,
        w1: floats(w1),
        b1: floats(b1),
        w2: floats(w2),
        b2: f32::from_bits(b2),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::detector::{Encoder, classifier};

    /// The bits of a classifier's weights, to compare exactly.
    fn bits(c: &Classifier) -> (usize, usize, Vec<u32>, u32) {
        let weights = [&c.w1, &c.b1, &c.w2].into_iter().flatten();
        (
            c.inputs,
            c.hidden,
            weights.map(|w| w.to_bits()).collect(),
            c.b2.to_bits(),
        )
    }

    #[test]
    fn the_kept_classifiers_are_what_training_gives() {
        for condition in [Condition::Blind, Condition::StackTop] {
            let encoder = Encoder::new(condition.clone()).unwrap();
            let trained = classifier::train(&encoder, DEFAULT_SEED).unwrap();
            let kept = kept(&condition, DEFAULT_SEED).unwrap();
            assert_eq!(bits(&kept), bits(&trained), "{condition:?}");
            assert!(classifier::verify(&encoder, &kept).is_ok(), "{condition:?}");
        }
    }

    #[test]
    fn only_the_default_seed_is_kept() {
        assert!(kept(&Condition::Blind, DEFAULT_SEED + 1).is_none());
        assert!(kept(&Condition::StackTop, 0).is_none());
    }
}
