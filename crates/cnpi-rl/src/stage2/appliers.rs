//! Learning one applier of stage 2 by the applier policy gradient
//! ([`crate::applier`]) in a task: its candidates are the library's
//! learned combinators, all its conditions and the arguments the task
//! allows, each with a random key of this stage's own table.

use rand_chacha::ChaCha8Rng;

use super::checks::input;
use crate::applier::{ApplierKeys, Candidates, FIELDS, unit_key};
use crate::library::{Library, Routine};
use crate::tasks::LEARNED;
use cnpi_neural::core::Network;

/// The length of stage 2's candidate keys. They are this stage's own
/// random unit keys, not the rows of a program memory (whose keys have
/// `cnpi_neural::memory::KEY_DIM` = 32 numbers): stage 2 runs on its small
/// library, and its published results were drawn with 16. `cnpic learn`,
/// which runs on a real memory, uses the memory's keys.
pub const KEY_DIM: usize = 16;

/// A learned applier's candidates: per field, the library's program or
/// condition ids and their keys.
struct Space {
    ids: [Vec<usize>; FIELDS],
    candidates: Candidates,
}

impl Space {
    fn new(library: &Library, arguments: &[&str], rng: &mut ChaCha8Rng) -> Space {
        let args: Vec<usize> = arguments.iter().map(|name| library.id(name)).collect();
        let ids = [
            (0..LEARNED.len()).collect(),
            (0..library.conditions.len()).collect(),
            args.clone(),
            args.clone(),
            args,
        ];
        let keys = ids
            .clone()
            .map(|ids: Vec<usize>| ids.iter().map(|_| unit_key(KEY_DIM, rng)).collect());
        Space {
            ids,
            candidates: Candidates::new(keys),
        }
    }

    fn program(&self, choice: [usize; FIELDS]) -> Routine {
        let pick = |field: usize| self.ids[field][choice[field]];
        Routine::Applier {
            combinator: pick(0),
            detector: reads_detector(choice).then(|| pick(1)),
            args: [pick(2), pick(3), pick(4)],
        }
    }
}

/// Whether the combinator chosen reads a condition (all but `seq`, the
/// first of [`LEARNED`]).
fn reads_detector(choice: [usize; FIELDS]) -> bool {
    choice[0] != 0
}

/// Where and how an applier is learned.
pub(super) struct Problem<'a> {
    /// The applier learned.
    pub name: &'a str,
    /// The program the task runs (`name` itself or one calling it).
    pub task: &'a str,
    pub arguments: &'a [&'a str],
    /// Input lengths, inclusive.
    pub lengths: (usize, usize),
    /// Whether a run on an input did the task.
    pub done: fn(&[i64], &cnpi::exec::Store) -> bool,
}

/// Learns applier `problem.name` by the applier policy gradient; returns
/// its greedy source and the episode after which the greedy applier
/// completed the task on every check input.
pub(super) fn learn_applier(
    core: &Network,
    library: &mut Library,
    problem: &Problem,
    settings: &super::Settings,
    rng: &mut ChaCha8Rng,
) -> (String, Option<usize>) {
    let space = Space::new(library, problem.arguments, rng);
    let mut keys = ApplierKeys::new(KEY_DIM, rng);
    let target = library.id(problem.name);
    let entry = library.id(problem.task);
    let (lo, hi) = problem.lengths;
    let checks: Vec<Vec<i64>> = (lo..=hi)
        .flat_map(|n| {
            [
                (0..n as i64).collect::<Vec<_>>(),
                (0..n as i64).rev().collect(),
            ]
        })
        .chain((0..8).map(|_| input(problem.lengths, rng)))
        .collect();
    let budget = |n: usize| 16 * n * n + 16;
    let completes = |library: &Library, values: &[i64]| {
        let mut store = library.store(values);
        library
            .execute(
                core,
                entry,
                &mut store,
                budget(values.len()),
                &mut |d, s| library.holds(d, s),
            )
            .is_ok()
            && (problem.done)(values, &store)
    };
    let mut learned_at = None;
    for episode in 1..=settings.episodes {
        let choice = keys.choose(&space.candidates, false, rng);
        library.define(problem.name, space.program(choice));
        let values = input(problem.lengths, rng);
        let reward = if completes(library, &values) {
            1.0
        } else {
            -1.0
        };
        let reads = reads_detector(choice);
        keys.reinforce(
            &space.candidates,
            choice,
            reads,
            reward,
            settings.learning_rate,
        );
        if episode % settings.check_every == 0 {
            let greedy = keys.choose(&space.candidates, true, rng);
            library.define(problem.name, space.program(greedy));
            if checks.iter().all(|values| completes(library, values)) {
                learned_at = Some(episode);
                break;
            }
        }
    }
    let greedy = keys.choose(&space.candidates, true, rng);
    library.define(problem.name, space.program(greedy));
    (library.applier_source(target), learned_at)
}
