//! A detector's verified table read with no failure and no branch on
//! the features' values.
//!
//! When every feature of a detector relates two sides of the shapes
//! [`FastPair`] reads (an integer, a pointer, `n`, `A[i]`, `A[u][v]`),
//! no feature can fail. A [`FastDetector`] then computes every feature,
//! each by one formula whatever its sides' shapes, numbers its point in
//! mixed radix as [`super::Encoder::encode`] does, and reads the table
//! there. Computing only the features the bit still needs (the table as a
//! decision diagram, tried in issue 32) took fewer instructions, but each
//! step down the diagram branched on a feature's value, which the
//! processor mispredicts; computing all of them ran faster (`mst_prim` at
//! n = 1024, 160.6 -> 150.3 ms, median of 8 interleaved runs).

use cnpi::program::World;
use cnpi::program::flat::FastPair;

use super::encoder::index;

/// The largest domain read this way (larger ones keep the plain encoder).
const MAX_POINTS: usize = 1 << 12;

/// See the module documentation.
#[derive(Clone, Debug)]
pub struct FastDetector {
    /// Per feature: its sides, whether both may be numbers, its radix.
    features: Box<[(FastPair, bool, usize)]>,
    table: Box<[bool]>,
}

impl FastDetector {
    /// The detector of `table` over `features` (each with its radix, in
    /// encoding order); `None` for a domain over [`MAX_POINTS`] or a table
    /// of another size.
    pub fn new(features: Vec<(FastPair, bool, usize)>, table: &[bool]) -> Option<FastDetector> {
        let domain = features.iter().map(|f| f.2).product::<usize>();
        if domain > MAX_POINTS || table.len() != domain {
            return None;
        }
        Some(FastDetector {
            features: features.into(),
            table: table.into(),
        })
    }

    /// The table's bit at the point of `world`.
    #[inline]
    pub fn bit<W: World + ?Sized>(&self, world: &W) -> bool {
        let mut point = 0;
        for &(pair, numbers, radix) in &*self.features {
            point = point * radix + index(pair.relation(world), numbers);
        }
        self.table.get(point).copied().unwrap_or(false)
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Condition, Encoder};
    use super::*;
    use cnpi::env::{Declarations, read_input};
    use cnpi::program::{Applier, Body};

    /// Every point of a small world (pointers outside the array too): the
    /// fast bit is the table's bit at the encoder's point.
    #[test]
    fn the_fast_detector_reads_the_table_at_the_encoders_point() {
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
        // A table that is not the condition's: the detector must follow
        // whatever the classifier says.
        let table: Vec<bool> = (0..encoder.domain()).map(|p| p % 7 < 3).collect();
        let fast = FastDetector::new(features.clone(), &table).expect("small");
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
        // A domain too large is refused.
        let wide = vec![features[0]; 6];
        assert!(FastDetector::new(wide, &vec![false; 5usize.pow(6)]).is_none());
    }
}
