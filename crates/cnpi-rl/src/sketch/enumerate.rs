//! The exact baseline of `cnpic learn --search enumerate`: every fill of
//! the holes in a fixed order, fewest distinct arguments first (`NOP` is
//! none; with two holes, the sum), then by combinator, detector and
//! arguments in the order of their spaces; the first fill that passes
//! every example on the network is the answer. A combinator that reads no
//! condition is tried once, not once per detector.

use super::space::{Choice, Fill, HoleSpace};
use super::{Found, Sketch};

/// What the enumeration did.
#[derive(Clone, Debug, PartialEq)]
pub struct Enumeration {
    /// Fills run (on at least one example).
    pub candidates: usize,
    /// The first fill that passes every example.
    pub found: Option<Found>,
    /// Without one, the fill that passed the most examples before its
    /// first failure (the first such), with every example it fails.
    pub best: Option<Found>,
    /// Whether the whole space was tried (else the budget ran out first).
    pub exhausted: bool,
}

/// The choices of one hole, grouped by how many distinct definitions they
/// call (0 to 3), each group in order.
fn groups(space: &HoleSpace) -> [Vec<Choice>; 4] {
    let mut groups: [Vec<Choice>; 4] = Default::default();
    let arguments = space.arguments.len();
    for (combinator, c) in space.combinators.iter().enumerate() {
        let detectors = if c.reads_c { space.detectors.len() } else { 1 };
        for detector in 0..detectors {
            for a1 in 0..arguments {
                for a2 in 0..arguments {
                    for a3 in 0..arguments {
                        let choice = Choice {
                            combinator,
                            detector,
                            arguments: [a1, a2, a3],
                        };
                        groups[space.distinct(&choice)].push(choice);
                    }
                }
            }
        }
    }
    groups
}

/// Tries fills of `sketch` in order, at most `budget` of them.
pub fn enumerate(sketch: &Sketch, budget: usize) -> Enumeration {
    let groups: Vec<[Vec<Choice>; 4]> = sketch.spaces.iter().map(groups).collect();
    let mut memory = sketch.memory.clone();
    let mut candidates = 0;
    // The best failure so far: how many examples it passed first.
    let mut best: Option<(usize, Fill)> = None;
    let mut exhausted = true;
    'levels: for level in 0..=3 * groups.len() {
        for split in splits(level, groups.len()) {
            let lists: Vec<&Vec<Choice>> =
                (groups.iter().zip(&split)).map(|(g, &d)| &g[d]).collect();
            for fill in product(&lists) {
                if candidates >= budget {
                    exhausted = false;
                    break 'levels;
                }
                candidates += 1;
                let fails = sketch.fails(&mut memory, &fill, true);
                let Some(&first) = fails.first() else {
                    return Enumeration {
                        candidates,
                        found: Some(Found { fill, fails }),
                        best: None,
                        exhausted: false,
                    };
                };
                if best.as_ref().is_none_or(|(passed, _)| first > *passed) {
                    best = Some((first, fill));
                }
            }
        }
    }
    let best = best.map(|(_, fill)| {
        let fails = sketch.fails(&mut memory, &fill, false);
        Found { fill, fails }
    });
    Enumeration {
        candidates,
        found: None,
        best,
        exhausted,
    }
}

/// The ways to write `total` as `holes` counts of 0 to 3, in order.
fn splits(total: usize, holes: usize) -> Vec<Vec<usize>> {
    match holes {
        0 => vec![Vec::new()]
            .into_iter()
            .filter(|_| total == 0)
            .collect(),
        _ => (0..=total.min(3))
            .flat_map(|first| {
                splits(total - first, holes - 1)
                    .into_iter()
                    .map(move |mut rest| {
                        rest.insert(0, first);
                        rest
                    })
            })
            .collect(),
    }
}

/// Every fill taking one choice from each list, the last list fastest.
fn product<'a>(lists: &'a [&'a Vec<Choice>]) -> impl Iterator<Item = Fill> + 'a {
    let total: usize = lists.iter().map(|l| l.len()).product();
    (0..total).map(move |mut n| {
        let mut fill = vec![lists[0][0]; lists.len()];
        for (slot, list) in fill.iter_mut().zip(lists).rev() {
            *slot = list[n % list.len()];
            n /= list.len();
        }
        fill
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_cover_each_level_once() {
        assert_eq!(splits(0, 1), vec![vec![0]]);
        assert_eq!(splits(2, 2), vec![vec![0, 2], vec![1, 1], vec![2, 0]]);
        assert_eq!(splits(6, 2), vec![vec![3, 3]]);
        assert!(splits(4, 1).is_empty());
    }
}
