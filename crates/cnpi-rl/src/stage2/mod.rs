//! Stage 2: a detector and two appliers learned by reinforcement on the
//! fixed learned core (Table 3's second half, section 4.2).
//!
//! 1. Conditional swap: `COMPSWAP: cond(A[P1] > A[P2]?; SWAP(P1, P2), NOP,
//!    NOP)` on two distinct values 0 to 9, with the detector learned by
//!    REINFORCE: a logistic unit on the one-hot encodings of `A[P1]` and
//!    `A[P2]`, each condition bit sampled from it. It is learned when it
//!    is exact on all 90 pairs.
//! 2. Output max: `MAX: linrec(A[P2] != END?; STEP, MOVE(P2, RIGHT),
//!    OUTCLEAR_1)` with `STEP` learned by the applier policy gradient (the
//!    last equation of section 3.3): its combinator, detector and three
//!    arguments are each drawn from the softmax of the memory's keys
//!    against the applier's learned key, and every key drawn is reinforced
//!    by the episode's reward ±1. The task: output the largest element and
//!    clear it.
//! 3. Sort: `SORT` learned the same way, with the learned `STEP` in the
//!    memory: output the elements largest first.
//!
//! The core is never trained here; it only runs (see `library`). The
//! detectors other than the one learned in 1 are exact (a verified
//! detector's output). An applier is learned when the greedy applier
//! (every field its argmax) completes the task on inputs of every length.
//!
//! The pieces: the library is `library.cnpi`, a sketch whose holes are
//! STEP and SORT; [`detector`] is the REINFORCE detector, `checks` the
//! tasks' inputs and goals, `appliers` the learning of one applier.

use cnpi_neural::core::Network;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

mod appliers;
mod checks;
pub mod detector;

pub use appliers::KEY_DIM;
pub use detector::Detector;

use crate::library::Library;
use appliers::{Problem, learn_applier};
use checks::{input, max_done, sort_done, tape, value_at};

/// The stage-2 program memory: the candidates the appliers are drawn from.
pub fn library() -> Library {
    Library::compile("stage2/library.cnpi", include_str!("library.cnpi"), "SORT")
}

/// The candidate arguments of the learned appliers.
const ARGUMENTS: [&str; 10] = [
    "NOTHING",
    "COMPSWAP",
    "SWAP_12",
    "P1_LEFT",
    "P1_RIGHT",
    "P2_LEFT",
    "P2_RIGHT",
    "MOVE_12",
    "OUTCLEAR_1",
    "RESET",
];

/// How stage 2 trains.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Settings {
    /// The most episodes for each of the three learning problems.
    pub episodes: usize,
    pub learning_rate: f32,
    /// Episodes between two greedy checks.
    pub check_every: usize,
}

impl Settings {
    pub fn new(episodes: usize) -> Settings {
        Settings {
            episodes,
            learning_rate: 0.1,
            check_every: 50,
        }
    }
}

/// What one stage-2 trial learned.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Trial {
    pub seed: u64,
    /// Episodes until the detector was exact (`None`: never).
    pub detector_at: Option<usize>,
    pub step_at: Option<usize>,
    pub sort_at: Option<usize>,
    /// The greedy STEP and SORT appliers at the end, as source.
    pub step: String,
    pub sort: String,
    /// The learned sort program as a `.cnpi` file, when SORT was learned.
    pub program: Option<String>,
}

/// Runs one stage-2 trial on the core `core`.
pub fn trial(core: &Network, settings: &Settings, seed: u64) -> Trial {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut library = library();
    let compswap = library.id("COMPSWAP");
    let rate = settings.learning_rate;

    // 1. The detector, in the conditional-swap task.
    let mut detector = Detector::new(&mut rng);
    let mut detector_at = None;
    for episode in 1..=settings.episodes {
        let pair = input((2, 2), &mut rng);
        let mut store = library.store(&pair);
        let mut bits = Vec::new();
        let result = library.execute(core, compswap, &mut store, 8, &mut |_, store| {
            let features = Detector::features(value_at(store, 0), value_at(store, 1));
            let bit = rng.random::<f32>() < detector.probability(features);
            bits.push((features, bit));
            bit
        });
        let (a, _) = tape(&store);
        let completed = result.is_ok() && a[0] < a[1];
        let reward = reward(completed, bits.len());
        for (features, bit) in bits {
            detector.reinforce(features, bit, reward, rate);
        }
        if episode % settings.check_every == 0 && detector.exact() {
            detector_at = Some(episode);
            break;
        }
    }

    // 2. STEP, in the output-max task; 3. SORT, with the learned STEP.
    // SORT may also call MAX.
    let sort_arguments = [&ARGUMENTS[..], &["MAX"]].concat();
    let problems = [
        Problem {
            name: "STEP",
            task: "MAX",
            arguments: &ARGUMENTS,
            lengths: (1, 6),
            done: max_done,
        },
        Problem {
            name: "SORT",
            task: "SORT",
            arguments: &sort_arguments,
            lengths: (1, 5),
            done: sort_done,
        },
    ];
    let [(step, step_at), (sort, sort_at)] =
        problems.map(|problem| learn_applier(core, &mut library, &problem, settings, &mut rng));
    let learned = detector_at.is_some() && step_at.is_some() && sort_at.is_some();
    let program = learned.then(|| {
        library.source(
            library.id("SORT"),
            &format!(
                "# A sort learned by reinforcement (cnpic experiment rl-stage2, trial seed {seed}):\n\
                 # STEP and SORT were drawn from the program memory by the applier\n\
                 # policy gradient on a core learned by cnpic experiment rl-core.\n"
            ),
        )
    });
    Trial {
        seed,
        detector_at,
        step_at,
        sort_at,
        step,
        sort,
        program,
    }
}

/// `+1 − 0.1·T` on completion, `−1 − 0.1·T` otherwise.
fn reward(completed: bool, steps: usize) -> f32 {
    (if completed { 1.0 } else { -1.0 }) - 0.1 * steps as f32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_library_prints_what_it_compiled() {
        let library = library();
        let compswap = library.id("COMPSWAP");
        assert_eq!(
            library.applier_source(compswap),
            "cond(A[P1] > A[P2]?; SWAP(P1, P2), NOP, NOP)"
        );
        let max = library.id("MAX");
        let source = library.source(max, "");
        assert!(
            source.contains("def OUTCLEAR_1: seq(; OUT(P1), CLEAR(P1), NOP)"),
            "{source}"
        );
        // The conditions, in order of first appearance: the detector
        // memory of both learned appliers.
        let conditions: Vec<String> = (library.conditions.iter())
            .map(|c| cnpi::program::print::condition(c, &library.pointers))
            .collect();
        assert_eq!(
            conditions,
            [
                "A[P1] > A[P2]",
                "A[P2] != END",
                "A[P1] != END",
                "A[P3] != END"
            ]
        );
    }
}
