//! "Did you mean" suggestions.
//!
//! Given a misspelt name and the names that could stand in its place, picks
//! the closest one by edit distance (with transpositions, so `BSTPE` finds
//! `BSTEP`), or one that differs only in case. Only called once an error has
//! been found, so its cost never touches a clean check.

/// The candidate closest to `wanted`, if any is close enough to be a likely
/// typo: equal ignoring case, or within an edit distance of a third of the
/// name's length (at least 1). Candidates marked preferred (those that
/// would fit where the name stands) win over the others; ties go to the
/// alphabetically first name, so suggestions are stable.
pub fn closest<'a>(
    wanted: &str,
    candidates: impl IntoIterator<Item = (&'a str, bool)>,
) -> Option<&'a str> {
    let length = wanted.chars().count();
    let limit = (length / 3).max(1);
    let mut best: Option<(bool, usize, &'a str)> = None;
    for (candidate, preferred) in candidates {
        // The distance is at least the difference in length.
        if candidate == wanted || candidate.chars().count().abs_diff(length) > limit {
            continue;
        }
        let distance = if candidate.eq_ignore_ascii_case(wanted) {
            0
        } else {
            edit_distance(wanted, candidate)
        };
        let key = (!preferred, distance, candidate);
        if distance <= limit && best.is_none_or(|best| key < best) {
            best = Some(key);
        }
    }
    best.map(|(_, _, name)| name)
}

/// Optimal string alignment distance: insertions, deletions, substitutions
/// and swaps of two adjacent characters each cost 1.
fn edit_distance(a: &str, b: &str) -> usize {
    if a.is_ascii() && b.is_ascii() {
        osa(a.as_bytes(), b.as_bytes())
    } else {
        let a: Vec<char> = a.chars().collect();
        let b: Vec<char> = b.chars().collect();
        osa(&a, &b)
    }
}

fn osa<T: PartialEq>(a: &[T], b: &[T]) -> usize {
    // Three rolling rows: two back, one back, current.
    let mut before: Vec<usize> = vec![0; b.len() + 1];
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    let mut current: Vec<usize> = vec![0; b.len() + 1];
    for (i, ca) in a.iter().enumerate() {
        current[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let substitution = previous[j] + usize::from(ca != cb);
            let mut best = substitution.min(previous[j + 1] + 1).min(current[j] + 1);
            if i > 0 && j > 0 && a[i - 1] == *cb && *ca == b[j - 1] {
                best = best.min(before[j - 1] + 1);
            }
            current[j + 1] = best;
        }
        std::mem::swap(&mut before, &mut previous);
        std::mem::swap(&mut previous, &mut current);
    }
    previous[b.len()]
}

/// "`a`", "`a` and `b`", "`a`, `b` and `c`": names for a message.
pub fn listing(names: &[String]) -> String {
    match names {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distances() {
        assert_eq!(edit_distance("BSTPE", "BSTEP"), 1);
        assert_eq!(edit_distance("MOVE", "MOVES"), 1);
        assert_eq!(edit_distance("", "abc"), 3);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
    }

    #[test]
    fn picks_the_closest_plausible_name() {
        let names = ["BSTEP", "RSHIFT", "LSHIFT", "MOVE"].map(|n| (n, true));
        assert_eq!(closest("BSTPE", names), Some("BSTEP"));
        assert_eq!(closest("move", names), Some("MOVE"));
        assert_eq!(closest("XSHIFT", names), Some("LSHIFT"));
        assert_eq!(closest("QUICKSORT", names), None);
        assert_eq!(closest("BSTEP", names), None);
    }

    #[test]
    fn prefers_names_that_fit() {
        let names = [("P1", false), ("P2", true)];
        assert_eq!(closest("P", names), Some("P2"));
        assert_eq!(closest("P", [("P1", false)]), Some("P1"));
    }
}
