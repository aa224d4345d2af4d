//! A detector's verified table read with no failure, computing only the
//! features its bit needs.
//!
//! When every feature of a detector relates two sides of the shapes
//! [`FastPair`] reads (an integer, a pointer, `n`, `A[i]`, `A[u][v]`),
//! no feature can fail, so which of them are computed changes nothing but
//! the time. A [`FastDetector`] lays the table out as a decision diagram
//! over the features in their encoding order: a node computes one
//! feature and moves to the child of its state; a node below which every
//! point of the table has the same bit is that bit. Reading `in_queue[i]
//! == 1 and (u == -1 or key[i] < key[u])` where `in_queue[i]` is 0 then
//! computes one feature, not three, and gives the bit the table holds at
//! the point [`super::Encoder::encode`] would give.

use cnpi::program::World;
use cnpi::program::flat::FastPair;

use super::encoder::index;

/// The largest domain laid out as a diagram (larger ones keep the plain
/// encoder).
const MAX_POINTS: usize = 1 << 12;

/// One node of the diagram.
#[derive(Clone, Copy, Debug)]
enum Node {
    /// Every point below has this bit.
    Bit(bool),
    /// Compute the feature relating `pair` (whose sides may both be
    /// numbers if `numbers`), held in the node so that a step reads one
    /// entry; the child of state `s` is node `children + s`.
    Feature {
        pair: FastPair,
        numbers: bool,
        children: u32,
    },
}

/// See the module documentation.
#[derive(Clone, Debug)]
pub struct FastDetector {
    nodes: Box<[Node]>,
}

impl FastDetector {
    /// The diagram of `table` over `features` (each with its radix, in
    /// encoding order); `None` for a domain over [`MAX_POINTS`] or a table
    /// of another size.
    pub fn new(features: Vec<(FastPair, bool, usize)>, table: &[bool]) -> Option<FastDetector> {
        let domain = features.iter().map(|f| f.2).product::<usize>();
        if domain > MAX_POINTS || table.len() != domain {
            return None;
        }
        // Per level, the points below one node of it.
        let below: Vec<usize> = (0..=features.len())
            .map(|level| features[level..].iter().map(|f| f.2).product())
            .collect();
        let mut nodes = vec![Node::Bit(false)];
        // (node, level, the point of the states chosen above it)
        let mut todo = vec![(0usize, 0usize, 0usize)];
        while let Some((node, level, prefix)) = todo.pop() {
            let points = table.get(prefix * below[level]..(prefix + 1) * below[level])?;
            nodes[node] = match points {
                [first, rest @ ..] if rest.iter().all(|bit| bit == first) => Node::Bit(*first),
                _ => {
                    let (pair, numbers, radix) = *features.get(level)?;
                    let children = nodes.len();
                    nodes.resize(children + radix, Node::Bit(false));
                    todo.extend((0..radix).map(|s| (children + s, level + 1, prefix * radix + s)));
                    Node::Feature {
                        pair,
                        numbers,
                        children: u32::try_from(children).ok()?,
                    }
                }
            };
        }
        Some(FastDetector {
            nodes: nodes.into(),
        })
    }

    /// The table's bit at the point of `world`.
    #[inline]
    pub fn bit<W: World + ?Sized>(&self, world: &W) -> bool {
        let mut at = 0;
        loop {
            match self.nodes.get(at) {
                Some(&Node::Bit(bit)) => return bit,
                Some(&Node::Feature {
                    pair,
                    numbers,
                    children,
                }) => at = children as usize + index(pair.relation(world), numbers),
                None => return false,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Condition, Encoder};
    use super::*;
    use cnpi::env::{Declarations, read_input};
    use cnpi::program::{Applier, Body};

    /// Every point of a small world: the diagram's bit is the table's bit
    /// at the encoder's point.
    #[test]
    fn the_diagram_reads_the_table_at_the_encoders_point() {
        let text = "env ram(i = 0, j = 1, k = 2)\ninput A[n]\n\
                    def X: cond(i < j and (A[i] == 1 or A[j] < A[k]) or k != -1 and j == n?; \
                    NOP, NOP, NOP)\n";
        let compiled = cnpi::compile::compile("t.cnpi", text, None).program;
        let program = compiled.expect("compiles");
        let Body::Applier(Applier::Combinator {
            detector: Some(expr),
            ..
        }) = &program.defs[0].body
        else {
            panic!("a cond applier");
        };
        let encoder = Encoder::new(Condition::Source(expr.clone())).expect("small");
        let features = encoder.fast_features().expect("every side is fast");
        // A table that is not the condition's: the diagram must follow
        // whatever the classifier says.
        let table: Vec<bool> = (0..encoder.domain()).map(|p| p % 7 < 3).collect();
        let fast = FastDetector::new(features, &table).expect("small");
        let layout = Declarations::of(&program);
        let state = read_input(program.env, &layout, r#"{"A": [1, 0, 2, 1]}"#).expect("reads");
        let mut computed = 0;
        for i in -1..=4 {
            for j in -1..=4 {
                for k in -1..=4 {
                    let pointers = [i, j, k];
                    let view = state.view(&pointers);
                    let point = encoder.encode(&view, false).expect("no failure");
                    assert_eq!(fast.bit(&view), table[point], "{pointers:?}");
                    computed += 1;
                }
            }
        }
        assert_eq!(computed, 216);
        // The condition's own table is read with fewer nodes than points,
        // and a constant table is one node.
        let labels: Vec<bool> = (0..encoder.domain()).map(|p| encoder.label(p)).collect();
        let features = || encoder.fast_features().expect("fast");
        let own = FastDetector::new(features(), &labels).expect("small");
        assert!(own.nodes.len() < encoder.domain(), "{}", own.nodes.len());
        let constant = FastDetector::new(features(), &vec![true; encoder.domain()]);
        assert_eq!(constant.map(|d| d.nodes.len()), Some(1));
    }
}
