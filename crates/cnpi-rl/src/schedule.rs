//! Which task an episode practises: sampling and curricula (section 4.2).
//!
//! Uniform sampling picks among the active tasks with equal probability;
//! adaptive sampling (Reed & de Freitas) picks task `i` with probability
//! `softmax(e / τ)_i`, τ = 1, where `e_i` is the moving average of the
//! task's error (1 for a failed episode, 0 for a completed one) over its
//! last 10 episodes; a task not yet tried counts as all errors. The
//! curriculum says which tasks are active: the full tasks only (none), the
//! easy and full tasks together (mixed), or for each combinator its easy
//! task until the core completes it, then its full task (gradual). The
//! paper's "complete the easy task first before going to the true one"
//! has a second reading, `gradual-keep`: once the easy task is completed,
//! the full task joins it and the easy task stays in the pool (issue 22).

use std::collections::VecDeque;

use rand::{Rng, RngExt};
use serde::{Deserialize, Serialize};

use cnpi_neural::maths::softmax;

/// How tasks are drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Sampling {
    Uniform,
    Adaptive,
}

/// Which tasks are active.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Curriculum {
    None,
    Mixed,
    Gradual,
    /// Gradual, but the easy task stays active once completed.
    #[serde(rename = "gradual-keep")]
    GradualKeep,
}

/// The window of the moving average of errors.
pub const WINDOW: usize = 10;
/// The softmax temperature of adaptive sampling.
pub const TEMPERATURE: f32 = 1.0;

/// The recent errors of every task.
#[derive(Clone, Debug)]
pub struct Errors {
    recent: Vec<VecDeque<bool>>,
}

impl Errors {
    pub fn new(tasks: usize) -> Errors {
        Errors {
            recent: vec![VecDeque::new(); tasks],
        }
    }

    /// Records an episode of task `task`.
    pub fn record(&mut self, task: usize, failed: bool) {
        let recent = &mut self.recent[task];
        if recent.len() == WINDOW {
            recent.pop_front();
        }
        recent.push_back(failed);
    }

    /// The moving average of task `task`'s errors (1 before any episode).
    pub fn average(&self, task: usize) -> f32 {
        let recent = &self.recent[task];
        if recent.is_empty() {
            return 1.0;
        }
        recent.iter().filter(|&&failed| failed).count() as f32 / recent.len() as f32
    }
}

/// Draws one of the `active` tasks.
pub fn draw(sampling: Sampling, active: &[usize], errors: &Errors, rng: &mut impl Rng) -> usize {
    match sampling {
        Sampling::Uniform => active[rng.random_range(0..active.len())],
        Sampling::Adaptive => {
            let scores: Vec<f32> = active
                .iter()
                .map(|&task| errors.average(task) / TEMPERATURE)
                .collect();
            active[crate::policy::sample(&softmax(&scores).probs, rng)]
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn the_moving_average_covers_the_last_ten_episodes() {
        let mut errors = Errors::new(2);
        assert_eq!(errors.average(0), 1.0);
        for _ in 0..10 {
            errors.record(0, true);
        }
        for _ in 0..5 {
            errors.record(0, false);
        }
        assert_eq!(errors.average(0), 0.5);
        for _ in 0..5 {
            errors.record(0, false);
        }
        assert_eq!(errors.average(0), 0.0);
    }

    #[test]
    fn adaptive_sampling_prefers_the_tasks_that_fail() {
        let mut errors = Errors::new(3);
        for _ in 0..10 {
            errors.record(0, false);
            errors.record(1, true);
        }
        let mut rng = ChaCha8Rng::seed_from_u64(4);
        let mut counts = [0usize; 3];
        for _ in 0..30_000 {
            counts[draw(Sampling::Adaptive, &[0, 1], &errors, &mut rng)] += 1;
        }
        // softmax([0, 1]) = [0.269, 0.731].
        assert!((7_700..8_450).contains(&counts[0]), "{counts:?}");
        assert_eq!(counts[2], 0);
        let mut uniform = [0usize; 3];
        for _ in 0..30_000 {
            uniform[draw(Sampling::Uniform, &[0, 2], &errors, &mut rng)] += 1;
        }
        assert!((14_500..15_500).contains(&uniform[0]), "{uniform:?}");
        assert_eq!(uniform[1], 0);
    }
}
