//! Computational geometry: segment intersection, Graham's scan and
//! Jarvis's march against ports of the CLRS reference
//! (`clrs/_src/algorithms/geometry.py`). The Graham oracle sorts by
//! `atan2` as the reference does (the program compares cross products);
//! the hull inputs are, like the CLRS sampler's, points in a disc with no
//! three on a line.

use serde_json::json;

use crate::harness::{
    ALL, Engine, FAST, LARGEST, SMALL, Sweep, cross, int, ints, ints_in, points, program, rng,
};

/// The reference's `segments_intersect` for segments p0 p1 and p2 p3.
fn segments_intersect(xs: &[i64], ys: &[i64]) -> i64 {
    let direction = |i: usize, j: usize, k: usize| {
        (xs[k] - xs[i]) * (ys[j] - ys[i]) - (xs[j] - xs[i]) * (ys[k] - ys[i])
    };
    let on_segment = |i: usize, j: usize, k: usize| {
        xs[i].min(xs[j]) <= xs[k]
            && xs[k] <= xs[i].max(xs[j])
            && ys[i].min(ys[j]) <= ys[k]
            && ys[k] <= ys[i].max(ys[j])
    };
    let dirs = [
        direction(2, 3, 0),
        direction(2, 3, 1),
        direction(0, 1, 2),
        direction(0, 1, 3),
    ];
    let on = [
        on_segment(2, 3, 0),
        on_segment(2, 3, 1),
        on_segment(0, 1, 2),
        on_segment(0, 1, 3),
    ];
    let straddle = |a: i64, b: i64| (a > 0 && b < 0) || (a < 0 && b > 0);
    let touch = (0..4).any(|t| dirs[t] == 0 && on[t]);
    i64::from((straddle(dirs[0], dirs[1]) && straddle(dirs[2], dirs[3])) || touch)
}

/// The lowest point, the leftmost among the lowest (both references).
fn lowest(xs: &[i64], ys: &[i64]) -> usize {
    let mut best = 0;
    for i in 0..xs.len() {
        if ys[i] < ys[best] || (ys[i] == ys[best] && xs[i] < xs[best]) {
            best = i;
        }
    }
    best
}

/// The reference's clockwise-or-straight test of i -> j -> k.
fn clockwise(xs: &[i64], ys: &[i64], i: usize, j: usize, k: usize) -> bool {
    cross(xs[i], ys[i], xs[j], ys[j], xs[k], ys[k]) <= 0
}

/// The reference's `graham_scan`: 0/1 per point.
fn graham_scan(xs: &[i64], ys: &[i64]) -> Vec<i64> {
    let n = xs.len();
    let best = lowest(xs, ys);
    let mut in_hull = vec![0; n];
    let mut below: Vec<usize> = (0..n).collect();
    in_hull[best] = 1;
    let mut top = best;
    let angle = |i: usize| {
        if i == best {
            -123_456_789.0
        } else {
            ((ys[i] - ys[best]) as f64).atan2((xs[i] - xs[best]) as f64)
        }
    };
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| angle(a).total_cmp(&angle(b)));
    for i in 1..n {
        if i >= 3 {
            while clockwise(xs, ys, below[top], top, order[i]) {
                let popped = top;
                top = below[top];
                below[popped] = popped;
                in_hull[popped] = 0;
            }
        }
        in_hull[order[i]] = 1;
        below[order[i]] = top;
        top = order[i];
    }
    in_hull
}

/// The reference's `jarvis_march`: 0/1 per point.
fn jarvis_march(xs: &[i64], ys: &[i64]) -> Vec<i64> {
    let n = xs.len();
    let best = lowest(xs, ys);
    let mut in_hull = vec![0; n];
    in_hull[best] = 1;
    let (mut last, mut endpoint) = (best, 0);
    loop {
        for i in 0..n {
            let turns = i != last && i != endpoint && clockwise(xs, ys, last, endpoint, i);
            if endpoint == last || turns {
                endpoint = i;
            }
        }
        if in_hull[endpoint] > 0 {
            return in_hull;
        }
        in_hull[endpoint] = 1;
        last = endpoint;
        endpoint = 0;
    }
}

/// Runs segment intersection on `rounds` random inputs from each grid on
/// `engines`; both answers must occur.
fn check_segments_intersect(seed: u64, rounds: usize, engines: &[Engine]) {
    let program = program("segments_intersect");
    let mut rng = rng(seed);
    let (mut crossing, mut apart) = (0, 0);
    // A small grid makes touching and collinear segments common.
    for side in [3, 6, 1000] {
        for _ in 0..rounds {
            let (xs, ys) = (ints_in(&mut rng, 4, 0, side), ints_in(&mut rng, 4, 0, side));
            let output = program.agreed(&json!({ "xs": xs, "ys": ys }), engines);
            let expected = segments_intersect(&xs, &ys);
            assert_eq!(int(&output, "intersect"), expected, "{xs:?} {ys:?}");
            (crossing, apart) = (crossing + expected, apart + 1 - expected);
        }
    }
    assert!(crossing > 0 && apart > 0, "both answers are tested");
}

/// Runs hull program `id` on points of every size of `sweep` against
/// `oracle`. Above 64 points the discs are larger: a disc of radius 60
/// cannot hold a thousand points with no three on a line.
fn hulls(id: &str, seed: u64, oracle: fn(&[i64], &[i64]) -> Vec<i64>, sweep: Sweep) {
    let program = program(id);
    let mut rng = rng(seed);
    for &n in sweep.sizes {
        let radii = if n <= 64 {
            [60, 1000]
        } else {
            [1000, 1_000_000]
        };
        for radius in radii {
            let (xs, ys) = points(&mut rng, n, radius);
            let output = program.agreed(&json!({ "xs": xs, "ys": ys }), (sweep.engines)(n));
            assert_eq!(
                ints(&output, "in_hull"),
                oracle(&xs, &ys),
                "{id} on {xs:?} {ys:?}"
            );
        }
    }
}

#[test]
fn segments_intersect_as_the_reference() {
    check_segments_intersect(51, 12, &ALL);
}

#[test]
fn graham_scan_finds_the_reference_hull() {
    hulls("graham_scan", 52, graham_scan, SMALL);
}

#[test]
fn jarvis_march_finds_the_reference_hull() {
    hulls("jarvis_march", 53, jarvis_march, SMALL);
}

/// Its input has four points at every size; the largest run draws more.
#[test]
#[ignore = "minutes; run with: -- --ignored largest"]
fn largest_segments_intersect() {
    check_segments_intersect(151, 400, &FAST);
}

#[test]
#[ignore = "minutes; run with: -- --ignored largest"]
fn largest_graham_scan() {
    hulls("graham_scan", 152, graham_scan, LARGEST);
}

#[test]
#[ignore = "minutes; run with: -- --ignored largest"]
fn largest_jarvis_march() {
    hulls("jarvis_march", 153, jarvis_march, LARGEST);
}
