//! A detector's verified table read as a decision diagram, computing only
//! the features its bit needs, and falling back to the encoder only where
//! a feature fails.
//!
//! When every feature of a detector relates two sides that have flat
//! forms, a [`FastDetector`] lays its table out as a decision diagram over
//! the features in their encoding order: a node computes one feature;
//! where every point of the table below the state it found has the same
//! bit, that is the bit, read from a mask by the state with no branch on
//! which state it is; else the walk goes on to the child of the state.
//! Reading `in_queue[i] == 1 and (u == -1 or key[i] < key[u])` where
//! `in_queue[i]` is 0 then computes one feature, not three, and gives the
//! bit the table holds at the point [`super::Encoder::encode`] would give:
//! computing a feature or not changes nothing but the time. A feature
//! whose sides have the shapes [`FastPair`] reads (an integer, a pointer,
//! `n`, `A[i]`, `A[u][v]`) cannot fail. A feature with other flat sides (`d[u] +
//! A[u][v]`) can fail (an overflow, END in arithmetic), and is computed on
//! every path, even where the table does not depend on it (the condition
//! may still reach it); where one fails, the bit is [`None`] and the
//! caller encodes the environment, which gives the bit, or the error,
//! exactly where the reference evaluation gives it.

use cnpi::program::World;
use cnpi::program::flat::{self, FastPair, FlatOperand};

use super::encoder::{FastFeature, index};

/// The largest domain laid out as a diagram (larger ones keep the plain
/// encoder).
const MAX_POINTS: usize = 1 << 12;

/// One node of the diagram: it computes a feature, held in the node so
/// that a step reads one entry. For state `s`, bit `s` of `known` says
/// whether every point below has the same bit, bit `s` of `mask`; if not,
/// the walk goes on at node `children + s`. A node whose children are all
/// known is a leaf: its bit is read from the mask by the state.
#[derive(Clone, Copy, Debug)]
struct Node {
    feature: Feature,
    /// Whether both sides may be numbers.
    numbers: bool,
    known: u8,
    mask: u8,
    children: u32,
}

/// The feature a node computes.
#[derive(Clone, Copy, Debug)]
enum Feature {
    /// Relating `.0`, which never fails.
    Plain(FastPair),
    /// Relating the sides at `.0` of [`FastDetector::failable`], if that
    /// does not fail.
    Failable(u32),
}

/// See the module documentation.
#[derive(Clone, Debug)]
pub struct FastDetector {
    /// The bit of a table that has one bit everywhere (then no node).
    constant: Option<bool>,
    nodes: Box<[Node]>,
    failable: Box<[(FlatOperand, FlatOperand)]>,
}

impl FastDetector {
    /// The diagram of `table` over `features` (each with whether both
    /// sides may be numbers and its radix, in encoding order); `None` for
    /// a domain over [`MAX_POINTS`], a table of another size or a feature
    /// of more than 8 states.
    pub(super) fn new(
        features: Vec<(FastFeature, bool, usize)>,
        table: &[bool],
    ) -> Option<FastDetector> {
        let domain = features.iter().map(|f| f.2).product::<usize>();
        if domain > MAX_POINTS || table.len() != domain || features.iter().any(|f| f.2 > 8) {
            return None;
        }
        // Per level, the points below one node of it.
        let below: Vec<usize> = (0..=features.len())
            .map(|level| features[level..].iter().map(|f| f.2).product())
            .collect();
        // A feature that can fail is computed on every path (where the
        // table does not depend on it, the condition may still reach its
        // failure): no node above it has a known child.
        let last_failable = (features.iter())
            .rposition(|f| matches!(f.0, FastFeature::Failable(_)))
            .map_or(0, |level| level + 1);
        // The bit of every point below the node at `level` reached by
        // `prefix` (the states chosen above it), if known there.
        let same = |level: usize, prefix: usize| {
            let points = table.get(prefix * below[level]..(prefix + 1) * below[level])?;
            match points {
                [first, rest @ ..] if rest.iter().all(|bit| bit == first) => Some(*first),
                _ => None,
            }
            .filter(|_| level >= last_failable)
        };
        // What each level computes (the sides that can fail kept apart).
        let mut failable = Vec::new();
        let mut computed = Vec::with_capacity(features.len());
        for (feature, ..) in &features {
            computed.push(match feature {
                FastFeature::Plain(pair) => Feature::Plain(*pair),
                FastFeature::Failable(sides) => {
                    failable.push((**sides).clone());
                    Feature::Failable(u32::try_from(failable.len() - 1).ok()?)
                }
            });
        }
        // A known child is never visited: its node stays a placeholder.
        let placeholder = Node {
            feature: Feature::Failable(u32::MAX),
            numbers: false,
            known: u8::MAX,
            mask: 0,
            children: 0,
        };
        let constant = same(0, 0);
        let mut nodes = vec![placeholder; usize::from(constant.is_none())];
        // (node, level, prefix)
        let mut todo = vec![(0usize, 0usize, 0usize)];
        todo.truncate(nodes.len());
        while let Some((node, level, prefix)) = todo.pop() {
            let (_, numbers, radix) = *features.get(level)?;
            let (mut known, mut mask) = (0u8, 0u8);
            let children = nodes.len();
            for s in 0..radix {
                let child = prefix * radix + s;
                match same(level + 1, child) {
                    Some(bit) => {
                        known |= 1 << s;
                        mask |= u8::from(bit) << s;
                    }
                    None => todo.push((children + s, level + 1, child)),
                }
            }
            nodes.resize(children + radix, placeholder);
            nodes[node] = Node {
                feature: *computed.get(level)?,
                numbers,
                known,
                mask,
                children: u32::try_from(children).ok()?,
            };
        }
        Some(FastDetector {
            constant,
            nodes: nodes.into(),
            failable: failable.into(),
        })
    }

    /// The table's bit at the point of `world`; `None` where a feature
    /// fails (the encoder then says what the bit or the error is).
    #[inline]
    pub fn bit<W: World + ?Sized>(&self, world: &W) -> Option<bool> {
        if let Some(bit) = self.constant {
            return Some(bit);
        }
        let mut at = 0;
        loop {
            let node = self.nodes.get(at)?;
            let state = match node.feature {
                Feature::Plain(pair) => pair.relation(world) as usize,
                Feature::Failable(sides) => {
                    let (lhs, rhs) = self.failable.get(sides as usize)?;
                    flat::relation(lhs, rhs, world).ok()? as usize
                }
            };
            let state = index(state, node.numbers);
            if node.known >> state & 1 == 1 {
                return Some(node.mask >> state & 1 == 1);
            }
            at = node.children as usize + state;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Condition, Encoder};
    use super::*;
    use cnpi::env::{Declarations, read_input};
    use cnpi::program::{Applier, Body};

    /// The encoder of the condition of `text`'s one `cond`, and the state
    /// of `A = [1, 0, 2, 1]` there.
    fn encoder(text: &str) -> (Encoder, cnpi::env::State) {
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
        let layout = Declarations::of(&program);
        let state = read_input(program.env, &layout, r#"{"A": [1, 0, 2, 1]}"#).expect("reads");
        (encoder, state)
    }

    /// Tables of `encoder`'s domain that are not the condition's (the bit
    /// must follow whatever the classifier says; the second does not
    /// depend on the last feature), and the condition's own.
    fn tables(encoder: &Encoder) -> [Vec<bool>; 3] {
        let points = 0..encoder.domain();
        [
            points.clone().map(|p| p % 7 < 3).collect(),
            points.clone().map(|p| p / 5 % 3 == 0).collect(),
            points.map(|p| encoder.label(p)).collect(),
        ]
    }

    /// `fast` against `encoder` at every point `i, j, k` in -1..=4 of
    /// `state`: its bit is `table`'s at the encoder's point, and it leaves
    /// to the encoder every point where that fails. How many points it
    /// read, left to an encoder that did not fail, and left to one that
    /// did.
    fn check(
        fast: &FastDetector,
        encoder: &Encoder,
        state: &cnpi::env::State,
        table: &[bool],
    ) -> [usize; 3] {
        let mut counts = [0; 3];
        for i in -1..=4 {
            for j in -1..=4 {
                for k in -1..=4 {
                    let pointers = [i, j, k];
                    let view = state.view(&pointers);
                    let at = match (fast.bit(&view), encoder.encode(&view, false)) {
                        (Some(bit), Ok(point)) => {
                            assert_eq!(bit, table[point], "{pointers:?}");
                            0
                        }
                        (None, Ok(_)) => 1,
                        (None, Err(_)) => 2,
                        (Some(_), Err(error)) => panic!("{pointers:?}: {error:?}"),
                    };
                    counts[at] += 1;
                }
            }
        }
        counts
    }

    /// Sides that never fail: the bit is the table's at the encoder's
    /// point, and the diagram has leaves and fewer nodes than points.
    #[test]
    fn the_diagram_reads_the_table_at_the_encoders_point() {
        let (encoder, state) = encoder(
            "env ram(i = 0, j = 1, k = 2)\ninput A[n]\n\
             def X: cond(i < j and (A[i] == 1 or A[j] < A[k]) or k != -1 and j == n?; \
             NOP, NOP, NOP)\n",
        );
        let features = || encoder.fast_features().expect("every side is flat");
        for (t, table) in tables(&encoder).iter().enumerate() {
            let fast = FastDetector::new(features(), table).expect("small");
            assert_eq!(check(&fast, &encoder, &state, table), [216, 0, 0], "{t}");
            // Every feature here has five states.
            let leaves = fast.nodes.iter().filter(|n| n.known == 0b11111);
            assert!(leaves.count() > 0, "{t}");
            if t == 2 {
                // The condition's own table: fewer nodes than points.
                assert!(fast.nodes.len() < encoder.domain(), "{}", fast.nodes.len());
            }
        }
        let constant = FastDetector::new(features(), &vec![true; encoder.domain()]);
        assert_eq!(
            constant.map(|d| (d.constant, d.nodes.len())),
            Some((Some(true), 0))
        );
    }

    /// A side that can fail (`A[i] + 1`, `A[j] / k`): where it fails the
    /// encoder says, and it is computed on every path even where the
    /// table does not depend on it (the condition may reach its failure).
    #[test]
    fn a_feature_that_fails_is_left_to_the_encoder() {
        let (encoder, state) = encoder(
            "env ram(i = 0, j = 1, k = 2)\ninput A[n]\n\
             def X: cond(i < j and (A[i] == 1 or A[j] < k) or A[i] + 1 > A[j] / k?; \
             NOP, NOP, NOP)\n",
        );
        let features = || encoder.fast_features().expect("every side is flat");
        for (t, table) in tables(&encoder).iter().enumerate() {
            let fast = FastDetector::new(features(), table).expect("small");
            assert_eq!(fast.failable.len(), 1);
            // The feature that can fail is the last: only its nodes are leaves.
            for node in fast.nodes.iter().filter(|n| n.known == 0b11111) {
                assert!(matches!(node.feature, Feature::Failable(0)), "{t}");
            }
            let [read, left, errors] = check(&fast, &encoder, &state, table);
            assert_eq!(read + left + errors, 216);
            assert!(
                read > 50 && left > 0 && errors > 0,
                "{t}: {read} {left} {errors}"
            );
        }
    }
}
