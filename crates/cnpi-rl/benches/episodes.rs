//! Speed of stage-1 learning, in episodes per second (criterion's
//! "elem/s"): one trial of 1,000 episodes of the adaptive, mixed setting
//! on one thread, each episode sampled, differentiated and applied, with a
//! greedy check of all six tasks every 50 episodes. The Table 4 sweep (6
//! settings × 100 trials × up to 5,000 episodes) fits the 60
//! minutes on two threads at 417 episodes/s per thread.
//!
//!     cargo bench -p cnpi-rl --bench episodes

use std::hint::black_box;

use cnpi_rl::schedule::{Curriculum, Sampling};
use cnpi_rl::stage1::{Settings, Tasks, trial};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

const EPISODES: usize = 1000;

fn stage1(c: &mut Criterion) {
    let tasks = Tasks::stage1();
    let settings = Settings::new(Sampling::Adaptive, Curriculum::Mixed, EPISODES);
    // No trial learns all three this early, so every run is 1,000 episodes.
    assert_eq!(trial(&tasks, &settings, 1).episodes, EPISODES);
    let mut group = c.benchmark_group("stage 1");
    group.throughput(Throughput::Elements(EPISODES as u64));
    group.sample_size(20);
    group.bench_function("trial of 1,000 episodes", |b| {
        b.iter(|| trial(black_box(&tasks), black_box(&settings), 1))
    });
    group.finish();
}

criterion_group!(benches, stage1);
criterion_main!(benches);
