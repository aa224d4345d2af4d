//! The standard library as it loads, kept in the source, so that a
//! compile does not parse and check the stdlib files at every start (a
//! quarter of a million instructions, an eighth of a one-element `cnpic
//! run`).
//!
//! The combinators of `stdlib/core.cnpi` are read from the file by
//! `build.rs` when cnpi is built (a plain reading of its plain form: a
//! file it cannot read is read by the compiler at run time, as before);
//! each environment's file declares exactly the ACTs and observations its
//! Rust side implements, in the same order (`tests/stdlib_agreement.rs`),
//! so its library is that Rust side. The unit test below holds the kept
//! form to the files: [`super::from_files`] reads them with the compiler
//! and must give the same [`Stdlib`](super::Stdlib), so every diagnostic
//! stays what the files would give.

use crate::env::environment;
use crate::program::{Behaviour, Combinator, CombinatorKind, EnvKind, Slot};

use super::EnvLibrary;
use super::combinators::Found;

/// What `build.rs` reads core.cnpi with, for the tests.
#[cfg(test)]
#[path = "core_reader.rs"]
mod core_reader;

/// The combinators of core.cnpi in its order, as `build.rs` reads the
/// file: the kind, the slots when the condition holds and when it does
/// not, and whether the body reads `c` (`seq` reads none and runs the same
/// slots either way); `None` if the file is not in the plain form the
/// build script reads.
type Kept = Option<&'static [(CombinatorKind, &'static [Slot], &'static [Slot], bool)]>;

const CORE: Kept = {
    use CombinatorKind::{MapSelf as Builtin, User};
    use Slot::*;
    include!(concat!(env!("OUT_DIR"), "/kept_core.rs"))
};

/// The combinators of core.cnpi, as reading the file finds them; `None`
/// when only the compiler can read it (see [`CORE`]).
pub(super) fn core() -> Option<Vec<Found>> {
    let found = CORE?.iter().map(|&(kind, when_true, when_false, reads_c)| {
        let behaviour = Behaviour {
            when_true: when_true.to_vec(),
            when_false: when_false.to_vec(),
        };
        (kind, behaviour, reads_c)
    });
    Some(found.collect())
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
    use crate::span::SourceId;

    use super::core_reader;

    /// The same declarations, the very ones of the Rust side.
    fn same<T>(a: &[&T], b: &[&T]) -> bool {
        a.len() == b.len() && a.iter().zip(b).all(|(x, y)| ptr::eq(*x, *y))
    }

    #[test]
    fn the_kept_library_is_what_the_files_give() {
        assert!(super::CORE.is_some(), "build.rs could not read core.cnpi");
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

    /// What `build.rs` reads in `text`, with the kinds and slots named as
    /// their `Debug` forms name them.
    fn read_by_the_build(text: &str) -> Option<Vec<String>> {
        let found = core_reader::core_combinators(text)?;
        let shown = found
            .into_iter()
            .map(|(kind, when_true, when_false, reads_c)| {
                let kind = match kind {
                    "Builtin" => "MapSelf".to_string(),
                    user => user.replace("Combinator::", ""),
                };
                let slots = |slots: Vec<&str>| format!("[{}]", slots.join(", "));
                format!(
                    "{kind} {} {} {reads_c}",
                    slots(when_true),
                    slots(when_false)
                )
            });
        Some(shown.collect())
    }

    /// What the compiler reads in `text`, shown as [`read_by_the_build`].
    fn read_by_the_compiler(text: &str) -> Option<Vec<String>> {
        let file = crate::stdlib::testing::parse(text, SourceId(1));
        let found = super::super::combinators::read_core(&file).ok()?;
        let shown = (found.into_iter()).map(|(kind, behaviour, reads_c)| {
            let (t, f) = (&behaviour.when_true, &behaviour.when_false);
            format!("{kind:?} {t:?} {f:?} {reads_c}")
        });
        Some(shown.collect())
    }

    #[test]
    fn the_build_reads_core_cnpi_as_the_compiler_does_or_not_at_all() {
        let core = super::super::core_file().text;
        assert!(read_by_the_build(core).is_some());
        let renamed = core.replace("a1", "first").replace("(pre,", "(before,");
        let renamed = renamed.replace("    pre\n", "    before\n");
        let broken = [
            "combinator seq(a1, a2, a3):\n    a1\n    a4\n",
            "combinator zip(a1):\n    a1\n",
            "combinator _mapself() detects _top == SENTINEL:\n    if c:\n        self\n    else:\n        _pop\n",
            "combinator cond(a1, a2, a3):\n    if c:\n        a1\n",
            "combinator cond(a1, a2, a3):\n    a1\n    if c:\n        a1\n    else:\n        a3\n",
            "combinator seq(a1, a2, a3, a4):\n    a4\n",
            "combinator seq(a1, a2, a3):\n    a1\ncombinator seq(a1, a2, a3):\n    a1\n",
            "combinator seq(a1, a2, a3) detects x:\n    a1\n",
        ];
        let agreeing = [core, &renamed, "combinator seq(a1, a2, a3):\n    a1\n"];
        for text in agreeing {
            assert_eq!(
                read_by_the_build(text),
                read_by_the_compiler(text),
                "{text}"
            );
            assert!(read_by_the_build(text).is_some(), "{text}");
        }
        for text in broken {
            assert_eq!(read_by_the_build(text), None, "{text}");
            if let Some(read) = read_by_the_compiler(text) {
                panic!("the compiler reads {read:?} in {text}");
            }
        }
    }
}
