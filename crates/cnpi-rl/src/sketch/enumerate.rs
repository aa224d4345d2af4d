//! The exact baseline of `cnpic learn --search enumerate`: every fill of
//! the holes in a fixed order, fewest distinct arguments first (`NOP` is
//! none; with two holes, the sum), then by combinator, detector and
//! arguments in the order of their spaces; the first fill that passes
//! every example on the network is the answer. A combinator that reads no
//! condition is tried once, not once per detector.

use super::space::{Choice, Fill, HoleSpace};
use super::{Found, Sketch, splits};

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

/// The choices of one hole that call `distinct` distinct definitions (0
/// to 3), in order, made one at a time: the space grows with the cube of
/// the definitions, so it is never held whole (issue 29).
fn group(space: &HoleSpace, distinct: usize) -> impl Iterator<Item = Choice> + '_ {
    let arguments = space.arguments.len();
    (space.combinators.iter().enumerate())
        .flat_map(move |(combinator, c)| {
            let detectors = if c.reads_c { space.detectors.len() } else { 1 };
            (0..detectors).flat_map(move |detector| {
                (0..arguments.pow(3)).map(move |n| Choice {
                    combinator,
                    detector,
                    arguments: [
                        n / (arguments * arguments),
                        n / arguments % arguments,
                        n % arguments,
                    ],
                })
            })
        })
        .filter(move |choice| space.distinct(choice) == distinct)
}

/// Tries fills of `sketch` in order, at most `budget` of them (fewer when
/// its interrupt says stop).
pub fn enumerate(sketch: &Sketch, budget: usize) -> Enumeration {
    let mut memory = sketch.memory.clone();
    let mut candidates = 0;
    // The best failure so far: how many examples it passed first.
    let mut best: Option<(usize, Fill)> = None;
    let mut exhausted = true;
    let holes = sketch.spaces.len();
    'levels: for level in 0..=3 * holes {
        for split in splits(level, holes, 0..=3) {
            for fill in product(&sketch.spaces, &split) {
                if candidates >= budget || sketch.interrupted() {
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

/// Every fill taking, for each hole, one choice of its group of
/// `split[hole]` distinct definitions, the last hole fastest.
fn product<'a>(spaces: &'a [HoleSpace], split: &'a [usize]) -> Box<dyn Iterator<Item = Fill> + 'a> {
    match (spaces.split_first(), split.split_first()) {
        (Some((first, spaces)), Some((&distinct, split))) => {
            Box::new(group(first, distinct).flat_map(move |choice| {
                product(spaces, split).map(move |mut rest| {
                    rest.insert(0, choice);
                    rest
                })
            }))
        }
        _ => Box::new(std::iter::once(Vec::new())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_cover_each_level_once() {
        assert_eq!(splits(0, 1, 0..=3), vec![vec![0]]);
        assert_eq!(
            splits(2, 2, 0..=3),
            vec![vec![0, 2], vec![1, 1], vec![2, 0]]
        );
        assert_eq!(splits(6, 2, 0..=3), vec![vec![3, 3]]);
        assert!(splits(4, 1, 0..=3).is_empty());
    }
}
