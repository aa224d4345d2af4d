//! The RNPI-4x2 baseline of Table 2: an NPI-style core with no frames.
//!
//! RNPI has no combinators: every composite program is learned for itself
//! and calls base programs directly, chosen by key. With two sets of four
//! base programs (4·2 = 8) there are two "full sets" of composite programs,
//! one per base set, each shaped like the 57 combinators. The model is the
//! fast trainer's Emb-as-Input variant (a program embedding fed at every
//! step, as in NPI) whose `f_prog` rows are the program keys, learned. Its
//! nine output classes reuse the nine rows of `f_prog`: set 1's base
//! programs (in the places of `self, a1, a2, a3`) on rows 0-3, set 2's on
//! rows 4-7, and `NOP`, shared, on row 8. A set-2 program is therefore a
//! full-set [`Behaviour`] relabelled by [`relabel`].
//!
//! A trial trains the whole model on programs of set 1, fixes the core
//! (LSTM and `f_end`), then learns set-2 programs by training their
//! embeddings and the keys (without learned keys the fixed core cannot
//! reach set 2's rows at all, as the paper notes) until their accuracy
//! reaches the target; finally it re-tests the set-1 programs.

use cnpi::program::{Behaviour, Slot};
use cnpi_neural::core::fast::{FastOptions, Group, Model, Variant, fit, train, verify};
use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;

use crate::full_set::Training;

/// Set 2's version of a program: each base program of set 1 replaced by
/// its counterpart in set 2 (`NOP` is shared).
pub fn relabel(behaviour: &Behaviour) -> Behaviour {
    let map = |slots: &[Slot]| -> Vec<Slot> {
        slots
            .iter()
            .map(|slot| match slot {
                Slot::SelfSlot => Slot::PushSentinel,
                Slot::A1 => Slot::MapSelf,
                Slot::A2 => Slot::Pop,
                Slot::A3 => Slot::LoadState,
                other => *other,
            })
            .collect()
    };
    Behaviour {
        when_true: map(&behaviour.when_true),
        when_false: map(&behaviour.when_false),
    }
}

/// One RNPI-4x2 trial: `sampling` percent of each full set, new programs
/// trained to `target` accuracy with the core fixed.
pub fn trial(
    set: &[(&str, &Behaviour)],
    sampling: u32,
    target: f64,
    seed: u64,
    training: &Training,
) -> Measured {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let count = (set.len() * sampling as usize / 100).max(1);
    let pick = |rng: &mut ChaCha8Rng| -> Vec<usize> {
        let mut indices: Vec<usize> = (0..set.len()).collect();
        indices.shuffle(rng);
        indices.truncate(count);
        indices.sort_unstable();
        indices
    };
    let old_indices = pick(&mut rng);
    let new_indices = pick(&mut rng);
    let relabelled: Vec<Behaviour> = new_indices.iter().map(|&i| relabel(set[i].1)).collect();
    let old: Vec<(&str, &Behaviour)> = old_indices.iter().map(|&i| set[i]).collect();
    let new: Vec<(&str, &Behaviour)> = new_indices
        .iter()
        .zip(&relabelled)
        .map(|(&i, b)| (set[i].0, b))
        .collect();
    let options = Training {
        variant: Variant::Input,
        ..*training
    }
    .options(seed);
    let trained = train(&old, &options, &mut |_| {});
    let train_old = trained.verification.accuracy();
    let mut model: Model = trained.model;
    let first = model.combinators();
    let definitions: Vec<&Behaviour> = relabelled.iter().collect();
    model.extend(&definitions, &mut rng);
    let new_options = FastOptions { target, ..options };
    let learned = fit(
        model,
        &new,
        first,
        &[Group::Prog, Group::Embedding],
        &new_options,
        &mut rng,
        &mut |_| {},
    );
    Measured {
        old: old.len(),
        new: new.len(),
        train_old,
        train_new: learned.verification.accuracy(),
        test_old: verify(&learned.model, &old, 0).accuracy(),
    }
}

/// What one continual-learning trial measures, for either model: how many
/// programs each half has, and the accuracies (fractions of verified
/// steps) of the old half after its training, of the new half after
/// its own, and of the old half at the end.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Measured {
    pub old: usize,
    pub new: usize,
    pub train_old: f64,
    pub train_new: f64,
    pub test_old: f64,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_two_uses_its_own_base_programs_and_shares_nop() {
        let linrec = Behaviour {
            when_true: vec![Slot::A1, Slot::A2, Slot::SelfSlot],
            when_false: vec![Slot::Nop],
        };
        let two = relabel(&linrec);
        assert_eq!(
            two.when_true,
            [Slot::MapSelf, Slot::Pop, Slot::PushSentinel]
        );
        assert_eq!(two.when_false, [Slot::Nop]);
    }
}
