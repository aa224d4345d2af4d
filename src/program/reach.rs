//! The one walk over references between definitions: which definitions
//! are reached from some starting ones. The checker asks it which
//! definitions the entry never reaches (W0101) and which roots reach a
//! hole; the combinatorizer, which definitions its output holds.

use super::DefId;

/// Whether each of `count` definitions is reached from one of `from`,
/// following `next`: what a definition refers to, asked once per
/// definition, when the walk first reaches it (so `next` may do work of
/// its own there, such as inlining a body). Depth first, in the reverse
/// order of what `next` hands back; linear in definitions and references.
/// Ids at or past `count` are passed over.
pub fn reached<I>(
    count: usize,
    from: impl IntoIterator<Item = DefId>,
    mut next: impl FnMut(DefId) -> I,
) -> Vec<bool>
where
    I: IntoIterator<Item = DefId>,
{
    let mut reached = vec![false; count];
    let mut todo: Vec<DefId> = from.into_iter().collect();
    while let Some(id) = todo.pop() {
        match reached.get_mut(id) {
            Some(seen) if !*seen => *seen = true,
            _ => continue,
        }
        todo.extend(next(id));
    }
    reached
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn follows_references_once_and_ignores_unknown_ids() {
        // 0 → 1 → 2 → 0 (a cycle), 3 alone, 4 → 9 (no such definition).
        let edges: Vec<Vec<DefId>> = vec![vec![1], vec![2], vec![0], vec![], vec![9]];
        let mut asked = Vec::new();
        let seen = reached(5, [0], |id| {
            asked.push(id);
            edges[id].clone()
        });
        assert_eq!(seen, [true, true, true, false, false]);
        asked.sort_unstable();
        assert_eq!(asked, [0, 1, 2]);
        assert_eq!(
            reached(5, [4, 3], |id| edges[id].clone()),
            [false, false, false, true, true]
        );
    }
}
