//! The stdlib files and the Rust side agree.
//!
//! For every registered environment, the ACTs and observations
//! `stdlib/<env>.cnpi` declares are exactly those its Rust side implements
//! (`cnpi::env::Environment`), in the same order; and the combinators read
//! from `stdlib/core.cnpi` have the slot sequences of language.md §3.1.
//! The files are read here as they are written (`stdlib::from_files`);
//! what a compile uses is the form kept in the source, which a unit test
//! of `cnpi::stdlib` holds to them.

use std::sync::OnceLock;

use cnpi::env::{self, ENVIRONMENTS};
use cnpi::program::{Combinator, Slot};
use cnpi::stdlib::{self, Stdlib};

fn stdlib() -> &'static Stdlib {
    static READ: OnceLock<Stdlib> = OnceLock::new();
    READ.get_or_init(|| match stdlib::from_files() {
        Ok(stdlib) => stdlib,
        Err(diagnostics) => panic!("the stdlib does not load: {diagnostics:#?}"),
    })
}

#[test]
fn declared_acts_and_observations_are_implemented() {
    // The loader already refuses a declaration the Rust side lacks; here
    // the Rust side has nothing the file does not declare.
    for kind in env::kinds() {
        let library = match stdlib().env(kind) {
            Ok(library) => library,
            Err(diagnostics) => panic!("`{}` does not load: {diagnostics:#?}", kind.name()),
        };
        let rust = env::environment(kind);
        let declared: Vec<_> = library.acts.iter().copied().copied().collect();
        assert_eq!(declared, rust.acts, "ACTs of `{}`", kind.name());
        let declared: Vec<_> = library.observations.iter().copied().copied().collect();
        assert_eq!(
            declared,
            rust.observations,
            "observations of `{}`",
            kind.name()
        );
    }
}

#[test]
fn every_environment_offers_the_machine_acts_and_an_input() {
    use cnpi::program::declared::{MOVE, NOP, SET};
    for kind in env::kinds() {
        let rust = env::environment(kind);
        for act in [NOP, MOVE, SET] {
            assert!(
                rust.acts.contains(&act),
                "{} lacks {}",
                kind.name(),
                act.name
            );
        }
        for input in [rust.input.empty, rust.input.example] {
            assert!(
                env::parse_input(kind, input).is_ok(),
                "{}: {input}",
                kind.name()
            );
        }
    }
}

#[test]
fn declared_memory_comes_with_what_programs_write_it_with() {
    // Normal programs assign a cell (`x = e`, `A[i] = e`) through
    // `WRITE(place, position)` (src/check/data.rs), and the places of its
    // ACTs name declared cells, so only such environments take a `place`.
    use cnpi::env::Ability;
    use cnpi::program::ParamType;
    let write = [ParamType::Place, ParamType::Position];
    for kind in env::kinds() {
        let rust = env::environment(kind);
        let (acts, memory) = (rust.acts, rust.has(Ability::DeclaredMemory));
        let writes = acts.iter().any(|a| a.name == "WRITE" && a.params == write);
        let places = acts.iter().any(|a| a.params.contains(&ParamType::Place));
        assert_eq!((writes, places), (memory, memory), "{}", kind.name());
    }
    assert!(env::with(Ability::DeclaredMemory).any(|e| e.name == "ram"));
}

#[test]
fn combinators_have_the_slots_of_the_paper() {
    use Slot::*;
    let c = &stdlib().combinators;
    assert_eq!(
        (c.seq.when_true.as_slice(), c.seq.when_false.as_slice()),
        (&[A1, A2, A3][..], &[A1, A2, A3][..])
    );
    assert_eq!(
        (c.cond.when_true.as_slice(), c.cond.when_false.as_slice()),
        (&[A1, A2][..], &[A3][..])
    );
    assert_eq!(
        (
            c.linrec.when_true.as_slice(),
            c.linrec.when_false.as_slice()
        ),
        (&[A1, A2, SelfSlot][..], &[A3][..])
    );
    assert_eq!(
        (
            c.treerec.when_true.as_slice(),
            c.treerec.when_false.as_slice()
        ),
        (&[A1, PushSentinel, A2, MapSelf, A3][..], &[Nop][..])
    );
    assert_eq!(
        (
            c.mapself.when_true.as_slice(),
            c.mapself.when_false.as_slice()
        ),
        (
            &[LoadState, Pop, SelfSlot, MapSelf][..],
            &[LoadState, Pop][..]
        )
    );
}

#[test]
fn detectors_and_state_follow_the_bodies() {
    let infos: Vec<(&str, Combinator, bool, bool)> = stdlib()
        .user_combinators
        .iter()
        .map(|i| {
            (
                i.name.as_str(),
                i.combinator,
                i.needs_detector,
                i.needs_state,
            )
        })
        .collect();
    assert_eq!(
        infos,
        [
            ("seq", Combinator::Seq, false, false),
            ("cond", Combinator::Cond, true, false),
            ("linrec", Combinator::Linrec, true, false),
            ("treerec", Combinator::Treerec, true, true),
        ]
    );
}

#[test]
fn every_stdlib_file_is_listed_once() {
    let files = stdlib::files();
    let names: Vec<(&str, u16)> = files.iter().map(|f| (f.name.as_str(), f.id.0)).collect();
    let mut expected = vec![("stdlib/core.cnpi".to_string(), 1)];
    for (env, id) in ENVIRONMENTS.iter().zip(2..) {
        expected.push((format!("stdlib/{}.cnpi", env.name), id));
    }
    expected.push((
        "stdlib/full_set.cnpi".to_string(),
        2 + ENVIRONMENTS.len() as u16,
    ));
    let expected: Vec<(&str, u16)> = expected.iter().map(|(n, i)| (n.as_str(), *i)).collect();
    assert_eq!(names, expected);
    assert!(files.iter().all(|f| !f.text.is_empty()));
}
