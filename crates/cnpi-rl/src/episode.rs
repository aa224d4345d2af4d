//! One episode of a stage-1 task: the core runs the task's combinator on
//! the `array` environment, choosing every call itself.
//!
//! At the first step of an activation the condition is the task's detector
//! on the environment (stage 1 uses exact detectors: a verified detector's
//! Bernoulli output is 0 or 1). A basic combinator reads only that first
//! bit, and `verify-core` checks that the core ignores every later one, so
//! the later steps, and every step of `seq` (which has no detector), are
//! fed a fair coin: with the detector there, `cond`'s second step would
//! only ever see a true bit and no learned core could be verified for it.
//! The core takes one LSTM step, and the next slot is drawn from its
//! softmax over `self, a1, a2, a3` (or taken greedily, as the inference
//! path does). `self` starts a new activation of the combinator; an
//! argument is an ACT applied through `cnpi::exec`, the execution core both
//! engines use.
//!
//! The episode ends when the task is completed or after `MAX_NSTEP = K·n`
//! steps (n the input length, at least 1), and its reward counts `T` as
//! the paper does. It also stops as soon as the core has left the
//! definition's path, with the reward of a failure at `MAX_NSTEP`, which is
//! what the paper's episode would have earned: from there the outcome no
//! longer depends on any choice, so the choices the paper's episode would
//! still sample add nothing to the expected REINFORCE gradient, only
//! variance.
//!
//! Completion. Beside the core's run, the definition of the combinator
//! (from `stdlib/core.cnpi`) runs on its own copy of the environment, in
//! lockstep. The task is completed at the step where the definition has
//! done what the task asks (its whole run; for an easy task, its first
//! step), provided that after every step so far both runs had the same
//! environment, the same pointers and the same number of activations. The
//! inputs' values are distinct and each argument of a task changes the
//! environment differently, so equal environments mean equal calls: a task
//! is completed if and only if the combinator ran as defined (tested for
//! every task over every call sequence).

use cnpi::exec::Store;
use cnpi::program::{Behaviour, Slot};
use cnpi_neural::core::expected;
use rand::{Rng, RngExt};

use crate::policy::{Activation, Policy, argmax, sample};
use crate::tasks::{Task, array_store};

/// The number of callable slots of CNPI-4: `self, a1, a2, a3`.
pub const K: usize = 4;

/// How the core's choices are made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Drawn from the softmax (training).
    Sample,
    /// The argmax, as the inference network decides (evaluation).
    Greedy,
}

/// What an episode did.
#[derive(Debug)]
pub struct Episode {
    pub completed: bool,
    /// T: the number of steps taken, or `MAX_NSTEP` for a failure (see
    /// the module documentation).
    pub steps: usize,
    pub activations: Vec<Activation>,
}

impl Episode {
    /// `R_T`: `+1 − 0.1·T` on completion, `−1 − 0.1·T` otherwise.
    pub fn reward(&self) -> f32 {
        let base = if self.completed { 1.0 } else { -1.0 };
        base - 0.1 * self.steps as f32
    }
}

/// One run: a store, the activations and the bits of the current one.
struct Run<'a> {
    store: Store<'a>,
    activations: usize,
    bits: Vec<bool>,
}

impl Run<'_> {
    fn new(task: &Task, input: &[i64]) -> Run<'static> {
        Run {
            store: array_store(task.env, &task.pointers, input),
            activations: 1,
            bits: Vec::new(),
        }
    }

    /// Calls slot `slot` (0 = self, 1..=3 the arguments); false when the
    /// ACT fails (an `OUT` at END, say).
    fn call(&mut self, task: &Task, slot: usize) -> bool {
        if slot == 0 {
            self.activations += 1;
            self.bits.clear();
            return true;
        }
        self.store
            .apply(&task.args[slot - 1], &task.pointers)
            .is_ok()
    }

    fn same(&self, other: &Run) -> bool {
        self.activations == other.activations
            && self.store.pointers() == other.store.pointers()
            && self.store.state() == other.store.state()
    }

    fn condition(&self, task: &Task, rng: &mut impl Rng) -> bool {
        match &task.detector {
            Some(detector) if self.bits.is_empty() => self.store.eval(detector).unwrap_or(false),
            _ => rng.random(),
        }
    }
}

/// The core's run and the definition's, in lockstep (see the module
/// documentation).
struct Lockstep<'t> {
    task: &'t Task,
    behaviour: &'t Behaviour,
    core: Run<'static>,
    definition: Run<'static>,
    on_path: bool,
}

/// What one step of [`Lockstep`] found.
struct Status {
    /// The definition's return flag at this step, while on its path.
    ret_target: bool,
    completed: bool,
}

impl<'t> Lockstep<'t> {
    fn new(task: &'t Task, behaviour: &'t Behaviour, input: &[i64]) -> Self {
        Lockstep {
            task,
            behaviour,
            core: Run::new(task, input),
            definition: Run::new(task, input),
            on_path: true,
        }
    }

    /// The condition bit the core sees now.
    fn condition(&mut self, rng: &mut impl Rng) -> bool {
        let bit = self.core.condition(self.task, rng);
        self.core.bits.push(bit);
        bit
    }

    /// The core called `choice` after seeing `bit`: slot `choice % K` of
    /// version `choice / K`'s callees, a wrong call unless that is the
    /// task's version.
    fn advance(&mut self, bit: bool, choice: usize) -> Status {
        let task = self.task;
        let (version, slot) = (choice / K, choice % K);
        let mut status = Status {
            ret_target: false,
            completed: false,
        };
        let mut finished = false;
        if self.on_path {
            self.definition.bits.push(bit);
            match expected(self.behaviour, &self.definition.bits) {
                Some(decision) => {
                    status.ret_target = decision.ret;
                    let defined = decision.slot as usize;
                    self.on_path = defined < K && self.definition.call(task, defined);
                    finished = decision.ret && decision.slot != Slot::SelfSlot;
                }
                None => self.on_path = false,
            }
        }
        let ok = version == task.version && self.core.call(task, slot);
        self.on_path = self.on_path && ok && self.core.same(&self.definition);
        status.completed = self.on_path && (finished || task.easy);
        status
    }
}

/// Runs one episode of `task` on `input` with the core `policy`, whose
/// embedding `task.program()` is the task's combinator, defined by
/// `behaviour`, and whose choices are `K` slots for each version of the
/// tasks (one version, four slots, for CNPI-4).
pub fn run(
    policy: &Policy,
    task: &Task,
    behaviour: &Behaviour,
    input: &[i64],
    mode: Mode,
    rng: &mut impl Rng,
) -> Episode {
    let max_steps = K * input.len().max(1);
    let mut lockstep = Lockstep::new(task, behaviour, input);
    let mut activations = vec![policy.start(task.program())];
    let mut steps = 0;
    let mut completed = false;
    while steps < max_steps {
        let bit = lockstep.condition(rng);
        let activation = activations.last_mut().expect("one activation at least");
        let step = policy.step(activation, bit);
        step.choice = match mode {
            Mode::Sample => sample(&step.probs, rng),
            Mode::Greedy => argmax(&step.probs),
        };
        let choice = step.choice;
        steps += 1;
        let status = lockstep.advance(bit, choice);
        step.ret_target = status.ret_target;
        if status.completed {
            completed = true;
            break;
        }
        if !lockstep.on_path {
            steps = max_steps;
            break;
        }
        if choice == task.version * K {
            activations.push(policy.start(task.program()));
        }
    }
    Episode {
        completed,
        steps,
        activations,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tasks::stage1;
    use cnpi::program::{Combinator, CombinatorKind};
    use cnpi_neural::core::stdlib_combinators;

    fn behaviour(task: &Task) -> Behaviour {
        let combinators = stdlib_combinators().expect("the stdlib loads");
        combinators
            .get(CombinatorKind::User(
                crate::tasks::LEARNED[task.combinator].0,
            ))
            .clone()
    }

    /// A training episode of `task` on `input`.
    fn sampled(policy: &Policy, task: &Task, input: &[i64], rng: &mut impl Rng) -> Episode {
        run(policy, task, &behaviour(task), input, Mode::Sample, rng)
    }

    /// Replays a call sequence through the same lockstep rule as [`run`]
    /// (with the choices given instead of drawn): whether it completes the
    /// task, and at which step.
    fn replay(task: &Task, input: &[i64], calls: &[usize]) -> Option<usize> {
        let behaviour = behaviour(task);
        let mut lockstep = Lockstep::new(task, &behaviour, input);
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(0);
        for (t, &choice) in calls.iter().enumerate() {
            let bit = lockstep.condition(&mut rng);
            if lockstep.advance(bit, choice).completed {
                return Some(t + 1);
            }
        }
        None
    }

    /// What the combinator's definition calls on `input`, up to the task's
    /// goal, computed from the source semantics directly.
    fn defined_calls(task: &Task, input: &[i64]) -> Vec<usize> {
        let n = input.len();
        let full: Vec<usize> = match crate::tasks::LEARNED[task.combinator].0 {
            Combinator::Seq => vec![1, 2, 3],
            Combinator::Cond if n >= 2 => vec![1, 2],
            Combinator::Cond => vec![3],
            _ => {
                let mut calls: Vec<usize> = (0..n).flat_map(|_| [1, 2, 0]).collect();
                calls.push(3);
                calls
            }
        };
        if task.easy { full[..1].to_vec() } else { full }
    }

    use rand::SeedableRng;

    #[test]
    fn a_task_is_completed_iff_its_combinator_ran_as_defined() {
        for task in stage1() {
            for n in task.lengths.0..=task.lengths.1.min(3) {
                let input: Vec<i64> = (0..n as i64).map(|v| 7 - v).collect();
                let want = defined_calls(&task, &input);
                if want.len() > 7 {
                    continue;
                }
                // Every call sequence of up to the defined length plus one.
                let longest = want.len() + 1;
                let mut completed = Vec::new();
                for length in 1..=longest {
                    for code in 0..K.pow(length as u32) {
                        let calls: Vec<usize> =
                            (0..length).map(|i| code / K.pow(i as u32) % K).collect();
                        if replay(&task, &input, &calls) == Some(length) {
                            completed.push(calls);
                        }
                    }
                }
                assert_eq!(completed, vec![want], "{} on {input:?}", task.name);
            }
        }
    }

    /// A wrong first call ends the episode at once, with the reward the
    /// paper's episode would have had at `MAX_NSTEP`.
    #[test]
    fn an_episode_that_leaves_the_path_stops_with_the_failure_reward() {
        let tasks = stage1();
        let copy = &tasks[5];
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
        let mut policy = Policy::new(4, 3, K, &mut rng);
        // Make `a2` (MOVE(P2, RIGHT), where OUT(P2) is due) the only choice.
        policy
            .model
            .weights
            .w_prog
            .iter_mut()
            .for_each(|w| *w = 0.0);
        policy.model.weights.b_prog = vec![-50.0, -50.0, 50.0, -50.0];
        let input = [4, 7, 1];
        let episode = sampled(&policy, copy, &input, &mut rng);
        assert!(!episode.completed);
        assert_eq!(episode.activations[0].steps.len(), 1);
        assert_eq!(episode.steps, K * input.len());
        assert!((episode.reward() - (-1.0 - 0.1 * 12.0)).abs() < 1e-6);
    }

    #[test]
    fn rewards_follow_the_paper() {
        let episode = |completed, steps| Episode {
            completed,
            steps,
            activations: Vec::new(),
        };
        assert!((episode(true, 3).reward() - 0.7).abs() < 1e-6);
        assert!((episode(false, 8).reward() + 1.8).abs() < 1e-6);
    }

    #[test]
    fn an_episode_stops_after_k_times_n_steps() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(2);
        let policy = Policy::new(8, 3, K, &mut rng);
        let tasks = stage1();
        let copy = &tasks[5];
        for _ in 0..20 {
            let input = copy.input(&mut rng);
            let episode = sampled(&policy, copy, &input, &mut rng);
            assert!(episode.steps <= K * input.len().max(1));
            assert!(episode.completed || episode.steps == K * input.len().max(1));
            let taken: usize = episode.activations.iter().map(|a| a.steps.len()).sum();
            assert!(taken <= episode.steps);
            if episode.completed {
                assert_eq!(taken, episode.steps);
            }
        }
    }
}
