//! The reinforcement baseline of REINFORCE (Williams 1992, section 4):
//! an episode's reward is taken relative to the moving average of the
//! rewards of its task, which leaves the expected gradient unchanged and
//! lowers its variance.

/// Williams' reinforcement baseline: the moving average of the rewards of
/// each task at each input length, subtracted from an episode's reward.
/// In stage 1 the paper's reward depends on the length (`−1 − 0.1·K·n` for
/// a failure; a completed copy of five elements earns `1 − 1.6 < 0`), so
/// without it a completed long episode is pushed down like a failure.
/// (Stage 2 keeps the paper's raw ±1: with this baseline the sort was
/// learned in 4 of 100 trials instead of 8; docs/reproduction.md.)
#[derive(Clone, Debug, Default)]
pub struct Baselines {
    averages: std::collections::BTreeMap<(usize, usize), f32>,
}

/// The weight of the newest reward in a baseline's moving average.
pub const BASELINE_RATE: f32 = 0.1;

impl Baselines {
    /// `reward` minus the baseline of (`task`, `length`) before it; then
    /// the baseline moves toward `reward`. The first reward of a pair is
    /// its own baseline.
    pub fn advantage(&mut self, task: usize, length: usize, reward: f32) -> f32 {
        let average = self.averages.entry((task, length)).or_insert(reward);
        let advantage = reward - *average;
        *average += BASELINE_RATE * advantage;
        advantage
    }
}
