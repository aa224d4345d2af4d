//! Stage 2's tasks as checks on the final state: inputs of distinct small
//! values, and whether output max and sort are done. The array is read as
//! the environment's own state, never through its JSON.

use rand::seq::SliceRandom;
use rand::{Rng, RngExt};

use crate::tasks::MAX_VALUE;
use cnpi::env::{ArrayState, Tape};
use cnpi::exec::Store;

/// Distinct values 0..=9 of a length drawn from `lengths`.
pub(super) fn input(lengths: (usize, usize), rng: &mut impl Rng) -> Vec<i64> {
    let mut values: Vec<i64> = (0..=MAX_VALUE).collect();
    values.shuffle(rng);
    values.truncate(rng.random_range(lengths.0..=lengths.1));
    values
}

/// The array state of a stage-2 store (its library is an `array`).
fn array<'s>(store: &'s Store<'_>) -> &'s ArrayState {
    match store.state().downcast::<ArrayState>() {
        Some(state) => state,
        None => panic!("stage 2 runs on the array environment"),
    }
}

/// The array and the output tape (`None` for `OK`).
pub(super) fn tape<'s>(store: &'s Store<'_>) -> (&'s [i64], Vec<Option<i64>>) {
    let state = array(store);
    let output = (state.output.iter())
        .map(|t| match t {
            Tape::Int(k) => Some(*k),
            Tape::Ok => None,
        })
        .collect();
    (&state.a, output)
}

/// `A[p]` for pointer `pointer` (P1, P2 are the library's first
/// pointers); `None` at END.
pub(super) fn value_at(store: &Store, pointer: usize) -> Option<i64> {
    let at = usize::try_from(store.pointers()[pointer]).ok()?;
    array(store).a.get(at).copied()
}

/// Output max is done: the tape is the maximum, and the array holds the
/// other elements (in any order) and −1 for it.
pub(super) fn max_done(input: &[i64], store: &Store) -> bool {
    let (a, output) = tape(store);
    let Some(&max) = input.iter().max() else {
        return false;
    };
    let mut want: Vec<i64> = input
        .iter()
        .map(|&v| if v == max { -1 } else { v })
        .collect();
    let mut got = a.to_vec();
    want.sort();
    got.sort();
    output == [Some(max)] && got == want
}

/// Sort is done: the tape is the input, largest first.
pub(super) fn sort_done(input: &[i64], store: &Store) -> bool {
    let mut want: Vec<Option<i64>> = input.iter().map(|&v| Some(v)).collect();
    want.sort_by(|a, b| b.cmp(a));
    tape(store).1 == want
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::library::Routine;

    #[test]
    fn the_output_max_and_sort_tests_accept_exactly_the_goal() {
        let library = super::super::library();
        let mut store = library.store(&[7, 3, 1]);
        assert!(!max_done(&[7, 3, 1], &store));
        let outclear = library.id("OUTCLEAR_1");
        let Routine::Applier { args, .. } = &library.programs[outclear] else {
            panic!("OUTCLEAR_1 is an applier")
        };
        for &act in &args[..2] {
            let Routine::Act(app) = &library.programs[act] else {
                panic!("OUT(P1) and CLEAR(P1) are ACTs")
            };
            store
                .apply(app, &library.pointers)
                .expect("P1 is on the array");
        }
        assert!(max_done(&[7, 3, 1], &store));
        assert!(!sort_done(&[7, 3, 1], &store));
        assert_eq!(value_at(&store, 0), Some(-1));
        assert_eq!(value_at(&store, 1), Some(3));
    }
}
