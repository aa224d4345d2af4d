//! Filling holes by the paper's applier policy gradient (equation 7): per
//! hole, five keys over the memory's own keys ([`crate::applier`]); per
//! episode, a fill drawn from them is run on one example drawn at random,
//! rewarded +1 if the run gives the example's output and −1 if not, and
//! every key drawn is reinforced. Every `check_every` episodes the greedy
//! fill is run on every example; a trial succeeds when it passes them all.
//!
//! Trials are independent (trial `t` draws from seed `S + t`) and run on
//! `threads` workers, each taking the next trial in turn. The answer is
//! the successful trial of lowest index: a trial of higher index than one
//! that succeeded stops, and one of lower index is never stopped, so the
//! answer is the same on any number of threads.

use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::space::{Choice, Fill, HoleSpace};
use super::{Found, Sketch};
use crate::applier::{ApplierKeys, Candidates, FIELDS};
use cnpi_neural::memory::{KEY_DIM, Memory};

/// How the gradient search learns.
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    pub seed: u64,
    pub trials: usize,
    /// The most episodes of one trial.
    pub episodes: usize,
    /// Worker threads (0: one per core).
    pub threads: usize,
    pub learning_rate: f32,
    /// Episodes between two greedy checks.
    pub check_every: usize,
}

impl Settings {
    /// The defaults of `cnpic learn`: the learning rate and check interval
    /// of stage 2.
    pub fn new(seed: u64, trials: usize, episodes: usize, threads: usize) -> Settings {
        Settings {
            seed,
            trials,
            episodes,
            threads,
            learning_rate: 0.1,
            check_every: 50,
        }
    }
}

/// What one trial did.
#[derive(Clone, Debug, PartialEq)]
pub struct Trial {
    pub index: usize,
    pub seed: u64,
    /// The episode after which its greedy fill passed every example.
    pub learned_at: Option<usize>,
    /// Episodes run (fewer than the budget when it succeeded or stopped).
    pub episodes: usize,
    /// Its greedy fill at the end, and the examples that fill fails.
    pub found: Found,
}

/// What the search did: the first successful trial, or else the best.
#[derive(Clone, Debug, PartialEq)]
pub struct Search {
    /// Trials run up to the answer (all of them, when none succeeded).
    pub trials: usize,
    /// Their episodes in all.
    pub episodes: usize,
    /// The successful trial of lowest index, or else the trial whose fill
    /// fails the fewest examples (the lowest index among equals): the one
    /// trial kept, whatever the number run.
    pub best: Option<Trial>,
}

impl Search {
    /// The successful trial.
    pub fn success(&self) -> Option<&Trial> {
        self.best.as_ref().filter(|t| t.learned_at.is_some())
    }
}

impl Trial {
    /// Which of two trials is kept: the smaller key (a success first, of
    /// lowest index; then the fewest examples failed, the lowest index).
    fn rank(&self) -> (bool, usize, usize) {
        match self.learned_at {
            Some(_) => (false, 0, self.index),
            None => (true, self.found.fails.len(), self.index),
        }
    }
}

/// What the workers share: the best trial so far and, for each trial
/// run, its index and episodes.
#[derive(Default)]
struct Tally {
    best: Option<Trial>,
    done: Vec<(usize, usize)>,
}

/// Runs the search on `sketch`.
pub fn search(sketch: &Sketch, settings: &Settings) -> Search {
    let threads = cnpi::threads::usable(settings.threads, settings.trials);
    let next = AtomicUsize::new(0);
    let first_success = AtomicUsize::new(usize::MAX);
    let tally: Mutex<Tally> = Mutex::new(Tally::default());
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                loop {
                    let index = next.fetch_add(1, Ordering::SeqCst);
                    if index >= settings.trials
                        || index > first_success.load(Ordering::SeqCst)
                        || sketch.interrupted()
                    {
                        break;
                    }
                    let Some(trial) = trial(sketch, settings, index, &first_success) else {
                        continue;
                    };
                    if trial.learned_at.is_some() {
                        first_success.fetch_min(index, Ordering::SeqCst);
                    }
                    let mut tally = tally.lock().unwrap_or_else(|e| e.into_inner());
                    tally.done.push((index, trial.episodes));
                    if tally.best.as_ref().is_none_or(|b| trial.rank() < b.rank()) {
                        tally.best = Some(trial);
                    }
                }
            });
        }
    });
    let answer = first_success.load(Ordering::SeqCst);
    let tally = tally.into_inner().unwrap_or_else(|e| e.into_inner());
    let counted = tally.done.iter().filter(|(index, _)| *index <= answer);
    Search {
        trials: counted.clone().count(),
        episodes: counted.map(|(_, episodes)| episodes).sum(),
        best: tally.best,
    }
}

/// The candidates of one hole, with the memory's keys.
fn candidates(memory: &Memory, space: &HoleSpace) -> Candidates {
    let programs = |rows: &[usize]| rows.iter().map(|&r| memory.key(r).to_vec()).collect();
    let combinators: Vec<usize> = space.combinators.iter().map(|c| c.row).collect();
    let detectors = (space.detectors.iter())
        .map(|&d| memory.w_key[d * KEY_DIM..(d + 1) * KEY_DIM].to_vec())
        .collect();
    Candidates::new([
        programs(&combinators),
        detectors,
        programs(&space.arguments),
        programs(&space.arguments),
        programs(&space.arguments),
    ])
}

fn choice(fields: [usize; FIELDS]) -> Choice {
    Choice {
        combinator: fields[0],
        detector: fields[1],
        arguments: [fields[2], fields[3], fields[4]],
    }
}

/// Runs trial `index`; `None` when it stopped because a trial of lower
/// index succeeded, or the sketch's interrupt said stop.
fn trial(sketch: &Sketch, settings: &Settings, index: usize, stop: &AtomicUsize) -> Option<Trial> {
    let seed = settings.seed.wrapping_add(index as u64);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut memory = sketch.memory.clone();
    let candidates: Vec<Candidates> = (sketch.spaces.iter())
        .map(|space| candidates(&sketch.memory, space))
        .collect();
    let mut keys: Vec<ApplierKeys> = (candidates.iter())
        .map(|c| ApplierKeys::new(c.dim(), &mut rng))
        .collect();
    let greedy = |keys: &[ApplierKeys], rng: &mut ChaCha8Rng| -> Vec<[usize; FIELDS]> {
        keys.iter()
            .zip(&candidates)
            .map(|(k, c)| k.choose(c, true, rng))
            .collect()
    };
    let mut learned_at = None;
    let mut episodes = 0;
    for episode in 1..=settings.episodes {
        if index > stop.load(Ordering::SeqCst) || sketch.interrupted() {
            return None;
        }
        episodes = episode;
        let drawn: Vec<[usize; FIELDS]> = (keys.iter().zip(&candidates))
            .map(|(k, c)| k.choose(c, false, &mut rng))
            .collect();
        let fill: Fill = drawn.iter().copied().map(choice).collect();
        let example = rng.random_range(0..sketch.examples.len());
        let passed = sketch.passes_one(&mut memory, &fill, example);
        let reward = if passed { 1.0 } else { -1.0 };
        for ((k, c), (fields, space)) in
            (keys.iter_mut().zip(&candidates)).zip(drawn.iter().zip(&sketch.spaces))
        {
            let reads = space.combinators[fields[0]].reads_c;
            k.reinforce(c, *fields, reads, reward, settings.learning_rate);
        }
        if episode % settings.check_every == 0 {
            let fill: Fill = greedy(&keys, &mut rng).into_iter().map(choice).collect();
            if sketch.fails(&mut memory, &fill, true).is_empty() {
                learned_at = Some(episode);
                break;
            }
        }
    }
    let fill: Fill = greedy(&keys, &mut rng).into_iter().map(choice).collect();
    let fails = sketch.fails(&mut memory, &fill, false);
    Some(Trial {
        index,
        seed,
        learned_at,
        episodes,
        found: Found { fill, fails },
    })
}
