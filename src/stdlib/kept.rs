//! The standard library as it loads, kept in the source, so that a
//! compile does not parse and check the stdlib files at every start (a
//! quarter of a million instructions, an eighth of a one-element `cnpic
//! run`).
//!
//! The combinators of `stdlib/core.cnpi` are written out below; each
//! environment's file declares exactly the ACTs and observations its Rust
//! side implements, in the same order (`tests/stdlib_agreement.rs`), so
//! its library is that Rust side. The unit test below holds the kept form
//! to the files: [`super::from_files`] reads them as before and must give
//! the same [`Stdlib`](super::Stdlib), so every diagnostic stays what the
//! files would give.

use crate::env::environment;
use crate::program::{Behaviour, Combinator, CombinatorKind, EnvKind, Slot};

use super::EnvLibrary;
use super::combinators::Found;

/// The combinators of core.cnpi in its order: the kind, the slots when the
/// condition holds and when it does not, and whether the body reads `c`
/// (`seq` reads none and runs the same slots either way).
const CORE: [(CombinatorKind, &[Slot], &[Slot], bool); 5] = {
    use CombinatorKind::{MapSelf as Builtin, User};
    use Slot::*;
    [
        (User(Combinator::Seq), &[A1, A2, A3], &[A1, A2, A3], false),
        (User(Combinator::Cond), &[A1, A2], &[A3], true),
        (User(Combinator::Linrec), &[A1, A2, SelfSlot], &[A3], true),
        (
            User(Combinator::Treerec),
            &[A1, PushSentinel, A2, MapSelf, A3],
            &[Nop],
            true,
        ),
        (
            Builtin,
            &[LoadState, Pop, SelfSlot, MapSelf],
            &[LoadState, Pop],
            true,
        ),
    ]
};

/// The combinators of core.cnpi, as reading the file finds them.
pub(super) fn core() -> Vec<Found> {
    CORE.iter()
        .map(|&(kind, when_true, when_false, reads_c)| {
            let behaviour = Behaviour {
                when_true: when_true.to_vec(),
                when_false: when_false.to_vec(),
            };
            (kind, behaviour, reads_c)
        })
        .collect()
}

/// The library of `kind`: its Rust side's ACTs and observations.
pub(super) fn env(kind: EnvKind) -> EnvLibrary {
    let rust = environment(kind);
    EnvLibrary {
        kind,
        acts: rust.acts.iter().collect(),
        observations: rust.observations.iter().collect(),
    }
}

#[cfg(test)]
mod tests {
    use std::ptr;

    use crate::env;

    /// The same declarations, the very ones of the Rust side.
    fn same<T>(a: &[&T], b: &[&T]) -> bool {
        a.len() == b.len() && a.iter().zip(b).all(|(x, y)| ptr::eq(*x, *y))
    }

    #[test]
    fn the_kept_library_is_what_the_files_give() {
        let kept = super::super::load().expect("the kept stdlib loads");
        let read = super::super::from_files().expect("the stdlib files load");
        assert_eq!(kept.combinators, read.combinators);
        let infos = |stdlib: &super::super::Stdlib| {
            (stdlib.user_combinators.iter())
                .map(|i| {
                    (
                        i.name.clone(),
                        i.combinator,
                        i.needs_detector,
                        i.needs_state,
                    )
                })
                .collect::<Vec<_>>()
        };
        assert_eq!(infos(kept), infos(&read));
        for kind in env::kinds() {
            let (kept, read) = (kept.env(kind).expect("kept"), read.env(kind).expect("read"));
            assert_eq!(kept.kind, read.kind);
            assert!(same(&kept.acts, &read.acts), "ACTs of `{}`", kind.name());
            assert!(
                same(&kept.observations, &read.observations),
                "observations of `{}`",
                kind.name()
            );
        }
    }
}
