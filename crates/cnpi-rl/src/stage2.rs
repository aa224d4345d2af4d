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

use cnpi_neural::core::Network;
use rand::{Rng, RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

use crate::library::{Library, Program};
use crate::policy::{argmax, sample, softmax};
use crate::tasks::{LEARNED, MAX_VALUE};
use cnpi_neural::core::fast::lstm::{dot, sigmoid};

/// The stage-2 program memory: the candidates the appliers are drawn from.
pub fn library() -> Library {
    Library::compile(
        "array(P1 = 0, P2 = 1, P3 = 0)",
        &[
            "def NOTHING: NOP",
            "def COMPSWAP: cond(A[P1] > A[P2]?; SWAP(P1, P2), NOP, NOP)",
            "def SWAP_12: SWAP(P1, P2)",
            "def P1_LEFT: MOVE(P1, LEFT)",
            "def P1_RIGHT: MOVE(P1, RIGHT)",
            "def P2_LEFT: MOVE(P2, LEFT)",
            "def P2_RIGHT: MOVE(P2, RIGHT)",
            "def MOVE_12: SET(P1, P2)",
            "def OUTCLEAR_1: seq(; OUT(P1), CLEAR(P1), NOP)",
            "def RESET: seq(; SET(P1, 0), SET(P2, 1), MOVE(P3, RIGHT))",
            "def STEP: NOP",
            "def MAX: linrec(A[P2] != END?; STEP, P2_RIGHT, OUTCLEAR_1)",
            "def SORT: NOP",
        ],
        &["A[P2] != END", "A[P1] != END", "A[P3] != END"],
    )
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
/// The detector memory of the learned appliers.
const CONDITIONS: [&str; 4] = [
    "A[P1] > A[P2]",
    "A[P2] != END",
    "A[P1] != END",
    "A[P3] != END",
];

/// The dimension of program and detector keys.
pub const KEY_DIM: usize = 16;

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

/// The REINFORCE detector: a logistic unit on one-hot `A[P1] ⊕ A[P2]`.
#[derive(Clone, Debug)]
pub struct Detector {
    weights: Vec<f32>,
    bias: f32,
}

const VALUES: usize = MAX_VALUE as usize + 1;

impl Detector {
    fn new(rng: &mut impl Rng) -> Detector {
        Detector {
            weights: (0..2 * VALUES)
                .map(|_| rng.random_range(-0.1..0.1))
                .collect(),
            bias: 0.0,
        }
    }

    /// The features of a pair: which value each side holds (none at END).
    fn features(a: Option<i64>, b: Option<i64>) -> [Option<usize>; 2] {
        let index = |v: Option<i64>| {
            v.and_then(|v| usize::try_from(v).ok())
                .filter(|&v| v < VALUES)
        };
        [index(a), index(b).map(|v| VALUES + v)]
    }

    fn probability(&self, features: [Option<usize>; 2]) -> f32 {
        let score = self.bias
            + features
                .iter()
                .flatten()
                .map(|&i| self.weights[i])
                .sum::<f32>();
        sigmoid(score)
    }

    /// Adds `rate · R · ∇ log p(bit)` for one sampled bit.
    fn reinforce(&mut self, features: [Option<usize>; 2], bit: bool, reward: f32, rate: f32) {
        let p = self.probability(features);
        let g = rate * reward * (f32::from(u8::from(bit)) - p);
        self.bias += g;
        for &i in features.iter().flatten() {
            self.weights[i] += g;
        }
    }

    /// Exact on every pair of distinct values (threshold 0.5).
    pub fn exact(&self) -> bool {
        (0..VALUES as i64).all(|x| {
            (0..VALUES as i64)
                .filter(|&y| y != x)
                .all(|y| (self.probability(Detector::features(Some(x), Some(y))) >= 0.5) == (x > y))
        })
    }
}

/// An applier's learned keys: one for the combinator, one for the
/// detector, one per argument.
#[derive(Clone, Debug)]
struct ApplierKeys {
    fields: [Vec<f32>; 5],
}

/// The fixed keys of the candidates of each field.
struct Candidates {
    /// Per field: the candidates' program or condition ids and keys.
    ids: [Vec<usize>; 5],
    keys: [Vec<Vec<f32>>; 5],
}

impl Candidates {
    fn new(library: &Library, arguments: &[&str], rng: &mut impl Rng) -> Candidates {
        let args: Vec<usize> = arguments.iter().map(|name| library.id(name)).collect();
        let ids = [
            (0..LEARNED.len()).collect(),
            CONDITIONS.iter().map(|c| library.condition_id(c)).collect(),
            args.clone(),
            args.clone(),
            args,
        ];
        let keys = ids
            .clone()
            .map(|ids: Vec<usize>| ids.iter().map(|_| unit_key(rng)).collect());
        Candidates { ids, keys }
    }

    fn distribution(&self, field: usize, key: &[f32]) -> Vec<f32> {
        let scores: Vec<f32> = self.keys[field].iter().map(|k| dot(k, key)).collect();
        softmax(&scores)
    }
}

/// A random unit vector.
fn unit_key(rng: &mut impl Rng) -> Vec<f32> {
    let v: Vec<f32> = (0..KEY_DIM).map(|_| rng.random_range(-1.0..1.0)).collect();
    let norm = dot(&v, &v).sqrt().max(1e-6);
    v.iter().map(|x| x / norm).collect()
}

impl ApplierKeys {
    fn new(rng: &mut impl Rng) -> ApplierKeys {
        ApplierKeys {
            fields: std::array::from_fn(|_| {
                (0..KEY_DIM).map(|_| rng.random_range(-0.1..0.1)).collect()
            }),
        }
    }

    /// Draws (or with `greedy`, picks) each field's candidate index.
    fn choose(&self, candidates: &Candidates, greedy: bool, rng: &mut impl Rng) -> [usize; 5] {
        std::array::from_fn(|field| {
            let p = candidates.distribution(field, &self.fields[field]);
            if greedy { argmax(&p) } else { sample(&p, rng) }
        })
    }

    /// `φ += rate · R · ∇ log p(choice)` for every field used (`seq` has
    /// no detector).
    fn reinforce(&mut self, candidates: &Candidates, choice: [usize; 5], reward: f32, rate: f32) {
        for field in 0..5 {
            if field == 1 && choice[0] == 0 {
                continue;
            }
            let p = candidates.distribution(field, &self.fields[field]);
            // ∇_k log softmax(K k)_c = K_c − Σ_j p_j K_j.
            for (j, key) in candidates.keys[field].iter().enumerate() {
                let coefficient = f32::from(u8::from(j == choice[field])) - p[j];
                for (k, x) in self.fields[field].iter_mut().zip(key) {
                    *k += rate * reward * coefficient * x;
                }
            }
        }
    }

    fn program(&self, candidates: &Candidates, choice: [usize; 5]) -> Program {
        let pick = |field: usize| candidates.ids[field][choice[field]];
        Program::Applier {
            combinator: pick(0),
            detector: (choice[0] != 0).then(|| pick(1)),
            args: [pick(2), pick(3), pick(4)],
        }
    }
}

/// Distinct values 0..=9 of a length drawn from `lengths`.
fn input(lengths: (usize, usize), rng: &mut impl Rng) -> Vec<i64> {
    use rand::seq::SliceRandom;
    let mut values: Vec<i64> = (0..=MAX_VALUE).collect();
    values.shuffle(rng);
    values.truncate(rng.random_range(lengths.0..=lengths.1));
    values
}

fn tape(store: &cnpi::exec::Store) -> (Vec<i64>, Vec<Option<i64>>) {
    // The array environment's JSON: "A" and "output" (integers and "OK").
    let json = store.state().to_json(0, "");
    let ints = |key: &str| -> Vec<Option<i64>> {
        json[key]
            .as_array()
            .map(|items| items.iter().map(serde_json::Value::as_i64).collect())
            .unwrap_or_default()
    };
    (ints("A").into_iter().flatten().collect(), ints("output"))
}

/// Output max is done: the tape is the maximum, and the array holds the
/// other elements (in any order) and −1 for it.
fn max_done(input: &[i64], store: &cnpi::exec::Store) -> bool {
    let (a, output) = tape(store);
    let Some(&max) = input.iter().max() else {
        return false;
    };
    let mut want: Vec<i64> = input
        .iter()
        .map(|&v| if v == max { -1 } else { v })
        .collect();
    let mut got = a;
    want.sort();
    got.sort();
    output == [Some(max)] && got == want
}

/// Sort is done: the tape is the input, largest first.
fn sort_done(input: &[i64], store: &cnpi::exec::Store) -> bool {
    let mut want: Vec<Option<i64>> = input.iter().map(|&v| Some(v)).collect();
    want.sort_by(|a, b| b.cmp(a));
    tape(store).1 == want
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
    let (step, step_at) = learn_applier(
        core,
        &mut library,
        "STEP",
        "MAX",
        &ARGUMENTS,
        (1, 6),
        settings,
        &mut rng,
        max_done,
    );
    let (sort, sort_at) = learn_applier(
        core,
        &mut library,
        "SORT",
        "SORT",
        // SORT may also call MAX.
        &[&ARGUMENTS[..], &["MAX"]].concat(),
        (1, 5),
        settings,
        &mut rng,
        sort_done,
    );
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

/// `A[p]` for pointer `pointer` (P1, P2 are the library's first
/// pointers); `None` at END.
fn value_at(store: &cnpi::exec::Store, pointer: usize) -> Option<i64> {
    let (a, _) = tape(store);
    let at = usize::try_from(store.pointers()[pointer]).ok()?;
    a.get(at).copied()
}

/// `+1 − 0.1·T` on completion, `−1 − 0.1·T` otherwise.
fn reward(completed: bool, steps: usize) -> f32 {
    (if completed { 1.0 } else { -1.0 }) - 0.1 * steps as f32
}

/// Learns applier `name` by the applier policy gradient in the task that
/// runs `task` (`name` itself or a program calling it); returns its greedy
/// source and the episode after which the greedy applier completed the
/// task on every check input.
#[allow(clippy::too_many_arguments)]
fn learn_applier(
    core: &Network,
    library: &mut Library,
    name: &str,
    task: &str,
    arguments: &[&str],
    lengths: (usize, usize),
    settings: &Settings,
    rng: &mut ChaCha8Rng,
    done: fn(&[i64], &cnpi::exec::Store) -> bool,
) -> (String, Option<usize>) {
    let candidates = Candidates::new(library, arguments, rng);
    let mut keys = ApplierKeys::new(rng);
    let target = library.id(name);
    let entry = library.id(task);
    let checks: Vec<Vec<i64>> = (lengths.0..=lengths.1)
        .flat_map(|n| {
            [
                (0..n as i64).collect::<Vec<_>>(),
                (0..n as i64).rev().collect(),
            ]
        })
        .chain((0..8).map(|_| input(lengths, rng)))
        .collect();
    let budget = |n: usize| 16 * n * n + 16;
    let mut learned_at = None;
    for episode in 1..=settings.episodes {
        let choice = keys.choose(&candidates, false, rng);
        library.define(name, keys.program(&candidates, choice));
        let values = input(lengths, rng);
        let mut store = library.store(&values);
        let lib: &Library = library;
        let result = lib.execute(
            core,
            entry,
            &mut store,
            budget(values.len()),
            &mut |d, s| lib.holds(d, s),
        );
        let completed = result.is_ok() && done(&values, &store);
        let reward = if completed { 1.0 } else { -1.0 };
        keys.reinforce(&candidates, choice, reward, settings.learning_rate);
        if episode % settings.check_every == 0 {
            let greedy = keys.choose(&candidates, true, rng);
            library.define(name, keys.program(&candidates, greedy));
            let lib: &Library = library;
            let all = checks.iter().all(|values| {
                let mut store = lib.store(values);
                lib.execute(
                    core,
                    entry,
                    &mut store,
                    budget(values.len()),
                    &mut |d, s| lib.holds(d, s),
                )
                .is_ok()
                    && done(values, &store)
            });
            if all {
                learned_at = Some(episode);
                break;
            }
        }
    }
    let greedy = keys.choose(&candidates, true, rng);
    library.define(name, keys.program(&candidates, greedy));
    (library.applier_source(target), learned_at)
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
    }

    #[test]
    fn the_output_max_and_sort_tests_accept_exactly_the_goal() {
        let library = library();
        let mut store = library.store(&[7, 3, 1]);
        assert!(!max_done(&[7, 3, 1], &store));
        let outclear = library.id("OUTCLEAR_1");
        let Program::Applier { args, .. } = &library.programs[outclear] else {
            panic!("OUTCLEAR_1 is an applier")
        };
        for &act in &args[..2] {
            let Program::Act(app) = &library.programs[act] else {
                panic!("OUT(P1) and CLEAR(P1) are ACTs")
            };
            store
                .apply(app, &library.pointers)
                .expect("P1 is on the array");
        }
        assert!(max_done(&[7, 3, 1], &store));
        assert!(!sort_done(&[7, 3, 1], &store));
    }

    #[test]
    fn a_linear_detector_can_be_exact_and_a_fresh_one_is_not() {
        let mut detector = Detector::new(&mut ChaCha8Rng::seed_from_u64(1));
        assert!(!detector.exact());
        for v in 0..VALUES {
            detector.weights[v] = v as f32;
            detector.weights[VALUES + v] = -(v as f32);
        }
        detector.bias = -0.5;
        assert!(detector.exact());
    }
}
