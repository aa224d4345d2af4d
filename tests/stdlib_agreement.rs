//! The stdlib files and the Rust side agree.
//!
//! For every environment, the ACTs and observations `stdlib/<env>.cnpi`
//! declares are exactly those `cnpi::env::signatures` implements; and the
//! combinators read from `stdlib/core.cnpi` have the slot sequences of
//! language.md §3.1.

use cnpi::env::{EnvKind, signatures};
use cnpi::program::{Combinator, ObservationKind, ParamType, Slot};
use cnpi::stdlib::{self, Stdlib};

fn stdlib() -> &'static Stdlib {
    match stdlib::load() {
        Ok(stdlib) => stdlib,
        Err(diagnostics) => panic!("the stdlib does not load: {diagnostics:#?}"),
    }
}

#[test]
fn declared_acts_and_observations_are_implemented() {
    for kind in EnvKind::ALL {
        let library = stdlib().env(kind);
        let rust = signatures(kind);

        let mut declared: Vec<(&str, Vec<ParamType>)> = library
            .acts
            .iter()
            .map(|a| (a.name.as_str(), a.params.clone()))
            .collect();
        let mut implemented: Vec<(&str, Vec<ParamType>)> = rust
            .acts
            .iter()
            .map(|(name, params)| (*name, params.to_vec()))
            .collect();
        let order = |a: &(&str, Vec<ParamType>), b: &(&str, Vec<ParamType>)| {
            (a.0, format!("{:?}", a.1)).cmp(&(b.0, format!("{:?}", b.1)))
        };
        declared.sort_by(order);
        implemented.sort_by(order);
        assert_eq!(declared, implemented, "ACTs of `{}`", kind.name());

        let mut declared: Vec<(&str, ObservationKind)> = library
            .observations
            .iter()
            .map(|o| (o.name.as_str(), o.kind))
            .collect();
        let mut implemented = rust.observations.to_vec();
        declared.sort_by_key(|o| o.0);
        implemented.sort_by_key(|o| o.0);
        assert_eq!(declared, implemented, "observations of `{}`", kind.name());
    }
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
    let names: Vec<(&str, u16)> = files.iter().map(|f| (f.name, f.id.0)).collect();
    assert_eq!(
        names,
        [
            ("stdlib/core.cnpi", 1),
            ("stdlib/array.cnpi", 2),
            ("stdlib/graph.cnpi", 3),
            ("stdlib/addition.cnpi", 4),
        ]
    );
    assert!(files.iter().all(|f| !f.text.is_empty()));
}
