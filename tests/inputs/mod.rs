//! Input strategies shared by the property tests of programs: arrays of
//! integers, DAGs and directed graphs.

use proptest::prelude::*;

/// Integers with the extremes and many repeats well represented.
pub fn values() -> impl Strategy<Value = Vec<i64>> {
    let value = prop_oneof![
        -5i64..5,
        any::<i64>(),
        Just(i64::MIN),
        Just(i64::MAX),
        Just(-1i64)
    ];
    prop::collection::vec(value, 0..64)
}

/// A random DAG: edges only go from a lower to a higher rank, and ranks are
/// a random permutation of the vertices.
pub fn dags() -> impl Strategy<Value = Vec<Vec<usize>>> {
    (0usize..40)
        .prop_flat_map(|n| {
            let edges = prop::collection::vec((0..n.max(1), 0..n.max(1)), 0..(3 * n + 1));
            (
                Just(n),
                edges,
                Just((0..n).collect::<Vec<_>>()).prop_shuffle(),
            )
        })
        .prop_map(|(n, edges, rank)| {
            let mut children = vec![Vec::new(); n];
            for (a, b) in edges {
                if rank[a] < rank[b] && !children[a].contains(&b) {
                    children[a].push(b);
                }
            }
            children
        })
}

/// Random directed graphs, cycles allowed.
pub fn graphs() -> impl Strategy<Value = Vec<Vec<usize>>> {
    (1usize..30).prop_flat_map(|n| prop::collection::vec(prop::collection::vec(0..n, 0..4), n))
}
