//! The samplers draw what they promise, the same way for the same seed.

use crate::harness::{cross, distinct, points, rng, sorted, string};

#[test]
fn samplers_are_seeded_and_shaped() {
    let (mut a, mut b) = (rng(7), rng(7));
    assert_eq!(distinct(&mut a, 40, -50, 50), distinct(&mut b, 40, -50, 50));
    let values = distinct(&mut a, 64, 0, 63);
    let mut seen = values.clone();
    seen.sort_unstable();
    assert_eq!(seen, (0..64).collect::<Vec<_>>());
    let ascending = sorted(&mut a, 30, -5, 5);
    assert!(ascending.windows(2).all(|w| w[0] <= w[1]));
    assert!(string(&mut a, 50, 4).iter().all(|c| (0..4).contains(c)));
    let (xs, ys) = points(&mut a, 24, 100);
    for i in 0..xs.len() {
        assert!(xs[i] * xs[i] + ys[i] * ys[i] <= 100 * 100);
        for j in i + 1..xs.len() {
            for k in j + 1..xs.len() {
                assert_ne!(cross(xs[i], ys[i], xs[j], ys[j], xs[k], ys[k]), 0);
            }
        }
    }
}

/// The harness runs a program on all three engines and they agree (here
/// an `array` program, so the harness is checked apart from `ram`).
#[test]
fn the_harness_runs_every_engine() {
    let sort = crate::harness::program_file("examples/insertionsort.cnpi");
    let mut values = distinct(&mut rng(3), 12, -20, 20);
    let output = sort.agreed(&serde_json::json!(values), &crate::harness::ALL);
    values.sort_unstable();
    assert_eq!(crate::harness::ints(&output, "A"), values);
    assert_eq!(output["engine"], "neural");
}
