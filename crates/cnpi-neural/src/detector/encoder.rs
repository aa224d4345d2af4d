//! Environment encoders: from a running environment to a finite feature
//! vector, one per condition.
//!
//! A condition combines leaves (comparisons and tests) with `and`, `or`
//! and `not`. Its encoder has one feature per distinct leaf input: for a
//! comparison, how its two sides relate ([`Relation`]: less, equal or
//! greater for two numbers, else same or different by the END rules), which
//! is all any comparison operator needs, whatever the i64 values; for a
//! test observation such as `has_child(v)`, the bit itself; for `_mapself`'s built-in detector,
//! whether the top of the state stack is a state. The feature vector is one
//! point of a finite domain (the product of the features' state counts),
//! numbered in mixed radix. The detector's classifier sees only this point;
//! the condition's `and`/`or`/`not` structure is what it learns.

use std::convert::Infallible;

use super::fast::Term;
use crate::codec::Code;
use cnpi::program::flat::{self, Flat, FlatOperand};
use cnpi::program::{
    BoolExpr, EvalError, Leaf, Observation, Operand, PosExpr, Relation, World, relation,
};

/// The largest domain a detector may have.
pub const MAX_DOMAIN: usize = 1 << 16;

/// What a detector detects.
#[derive(Clone, Debug, PartialEq)]
pub enum Condition {
    /// `seq`'s detector and that of ACT appliers: always true.
    Blind,
    /// `_mapself`'s built-in detector: the top of the state stack is a
    /// state, not a sentinel (`_top != SENTINEL`).
    StackTop,
    /// A condition written in the source.
    Source(BoolExpr),
}

/// One input of a detector.
#[derive(Clone, Debug)]
enum Feature {
    /// Two sides, whether both may be numbers (all five relations), and
    /// both sides flat where they have a flat form.
    Relation(
        Operand,
        Operand,
        bool,
        Option<Box<(FlatOperand, FlatOperand)>>,
    ),
    /// A test observation (`has_child(v)`), its position flat if it can be.
    Test(&'static Observation, PosExpr, Option<Flat>),
    StackTop,
}

/// The index of `found` among the relations of a feature whose sides may
/// both be numbers (`numbers`) or not (see [`Feature::relations`]).
#[inline(always)]
fn index(found: Relation, numbers: bool) -> usize {
    // `NUMBERS` lists every relation in declaration order; two sides that
    // cannot both be numbers never relate by order (`relate` only orders
    // number pairs), so they are `Same` (0) or `Different` (1).
    if numbers {
        found as usize
    } else {
        usize::from(found != Relation::Same)
    }
}

/// The relations two sides can have: all five when both may be numbers,
/// else only the END-rule equality.
const NUMBERS: [Relation; 5] = [
    Relation::Less,
    Relation::Equal,
    Relation::Greater,
    Relation::Same,
    Relation::Different,
];
const OTHERS: [Relation; 2] = [Relation::Same, Relation::Different];

impl Feature {
    fn relations(lhs: &Operand, rhs: &Operand) -> &'static [Relation] {
        if lhs.may_be_number() && rhs.may_be_number() {
            &NUMBERS
        } else {
            &OTHERS
        }
    }

    fn relation(lhs: &Operand, rhs: &Operand) -> Feature {
        let numbers = lhs.may_be_number() && rhs.may_be_number();
        let flat = FlatOperand::new(lhs)
            .zip(FlatOperand::new(rhs))
            .map(Box::new);
        Feature::Relation(lhs.clone(), rhs.clone(), numbers, flat)
    }

    /// The number of values the feature takes.
    fn states(&self) -> usize {
        match self {
            Feature::Relation(lhs, rhs, ..) => Feature::relations(lhs, rhs).len(),
            Feature::Test(..) | Feature::StackTop => 2,
        }
    }

    /// The feature's value in `world`.
    #[inline]
    fn state<W: World + ?Sized>(&self, world: &W, stack_top: bool) -> Result<usize, EvalError> {
        Ok(match self {
            Feature::Relation(lhs, rhs, numbers, flat) => {
                let fast = flat.as_deref().map(|(a, b)| flat::relation(a, b, world));
                let found = match fast {
                    Some(Ok(found)) => found,
                    _ => relation(lhs, rhs, world)?,
                };
                index(found, *numbers)
            }
            Feature::Test(o, at, flat) => {
                let at = match flat.as_ref().map(|f| f.eval(world)) {
                    Some(Ok(at)) => at,
                    _ => at.eval(world)?,
                };
                usize::from(world.test(o, at))
            }
            Feature::StackTop => usize::from(stack_top),
        })
    }
}

/// What identifies the feature of a leaf: the code of its inputs, which
/// leaves out the source spans (`A[j]` twice is one feature).
fn leaf_key(leaf: Leaf) -> Vec<f32> {
    let mut code = Code::new();
    match leaf {
        Leaf::Compare(_, lhs, rhs) => {
            code.operand(lhs);
            code.operand(rhs);
        }
        Leaf::Test(o, at) => {
            code.observation(o);
            code.position(at);
        }
        // No program with a hole reaches the network
        // (`cnpi::compile::runnable`): a hole has no inputs.
        Leaf::Hole(_) => {}
    }
    code.values
}

/// The distinct features of the leaves of `expr`, in source order, with
/// their keys.
fn collect(expr: &BoolExpr, features: &mut Vec<Feature>, keys: &mut Vec<Vec<f32>>) {
    let (leaf, feature) = match expr {
        BoolExpr::And(a, b) | BoolExpr::Or(a, b) => {
            collect(a, features, keys);
            return collect(b, features, keys);
        }
        BoolExpr::Not(a) => return collect(a, features, keys),
        // As in `leaf_key`: a hole reads nothing.
        BoolExpr::Hole(..) => return,
        BoolExpr::Compare(op, lhs, rhs) => {
            (Leaf::Compare(*op, lhs, rhs), Feature::relation(lhs, rhs))
        }
        BoolExpr::Test(o, at) => (
            Leaf::Test(o, at),
            Feature::Test(o, at.clone(), Flat::new(at)),
        ),
    };
    let key = leaf_key(leaf);
    if !keys.contains(&key) {
        keys.push(key);
        features.push(feature);
    }
}

/// Why a condition has no encoder.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TooLarge {
    pub domain: u128,
}

/// The encoder of one condition.
#[derive(Clone, Debug)]
pub struct Encoder {
    condition: Condition,
    features: Vec<Feature>,
    /// For a source condition, the key of each feature ([`leaf_key`]).
    keys: Vec<Vec<f32>>,
    /// The state count of each feature and the sum of them (the width of
    /// the one-hot input).
    radices: Vec<usize>,
    width: usize,
    domain: usize,
}

impl Encoder {
    pub fn new(condition: Condition) -> Result<Encoder, TooLarge> {
        let (mut features, mut keys) = (Vec::new(), Vec::new());
        match &condition {
            Condition::Blind => {}
            Condition::StackTop => features.push(Feature::StackTop),
            Condition::Source(expr) => collect(expr, &mut features, &mut keys),
        }
        let radices: Vec<usize> = features.iter().map(Feature::states).collect();
        let domain = radices.iter().map(|&r| r as u128).product::<u128>();
        if domain > MAX_DOMAIN as u128 {
            return Err(TooLarge { domain });
        }
        Ok(Encoder {
            condition,
            keys,
            width: radices.iter().sum(),
            radices,
            features,
            domain: domain as usize,
        })
    }

    pub fn condition(&self) -> &Condition {
        &self.condition
    }

    /// The number of feature vectors.
    pub fn domain(&self) -> usize {
        self.domain
    }

    /// The length of the one-hot input.
    pub fn width(&self) -> usize {
        self.width
    }

    /// The point of the domain the environment is at. A feature that cannot
    /// be computed (a zero divisor, an overflow) is an error only where the
    /// reference evaluation reaches it; elsewhere the condition's value does
    /// not depend on it, and it reads as its first state.
    #[inline]
    pub fn encode<W: World + ?Sized>(
        &self,
        world: &W,
        stack_top: bool,
    ) -> Result<usize, EvalError> {
        let mut point = 0;
        for (feature, &radix) in self.features.iter().zip(&self.radices) {
            let state = match feature.state(world, stack_top) {
                Ok(state) => state,
                Err(_) => {
                    if let Condition::Source(expr) = &self.condition {
                        expr.eval(world)?;
                    }
                    0
                }
            };
            point = point * radix + state;
        }
        Ok(point)
    }

    /// Per feature, its sides, whether both may be numbers and its radix,
    /// if every feature relates two sides a compiled detector reads
    /// ([`Term`]: those of [`FastPair`], which never fail and give the
    /// states [`Self::encode`] gives, or a sum of two, which may fail).
    pub(super) fn fast_features(&self) -> Option<Vec<([Term; 2], bool, usize)>> {
        (self.features.iter().zip(&self.radices))
            .map(|(feature, &radix)| match feature {
                Feature::Relation(_, _, numbers, Some(flat)) => {
                    Some(([Term::of(&flat.0)?, Term::of(&flat.1)?], *numbers, radix))
                }
                _ => None,
            })
            .collect()
    }

    /// The state of each feature at `point`, in feature order.
    fn states(&self, point: usize) -> Vec<usize> {
        let mut rest = point;
        let mut states = vec![0; self.radices.len()];
        for (state, &radix) in states.iter_mut().zip(&self.radices).rev() {
            *state = rest % radix;
            rest /= radix;
        }
        states
    }

    /// The positions of the ones of the one-hot input at `point`.
    pub fn active(&self, point: usize) -> Vec<usize> {
        self.actives(point).collect()
    }

    /// [`Encoder::active`] one by one, ascending, without allocating:
    /// feature `i` is in state `point / stride_i % radix_i`, where
    /// `stride_i` is the product of the later features' radices.
    pub fn actives(&self, point: usize) -> impl Iterator<Item = usize> + '_ {
        let (mut stride, mut offset) = (self.domain, 0);
        self.radices.iter().map(move |&radix| {
            stride /= radix.max(1);
            let active = offset + point / stride.max(1) % radix.max(1);
            offset += radix;
            active
        })
    }

    /// The value the condition has at `point`: the training target and the
    /// verification oracle.
    pub fn label(&self, point: usize) -> bool {
        let states = self.states(point);
        match &self.condition {
            Condition::Blind => true,
            Condition::StackTop => states.first() == Some(&1),
            Condition::Source(expr) => {
                let state_of = |leaf: Leaf| {
                    let key = leaf_key(leaf);
                    self.keys
                        .iter()
                        .position(|k| *k == key)
                        .map_or(0, |i| states[i])
                };
                let Ok(value) = expr.eval_with::<Infallible>(&mut |leaf| {
                    Ok(match leaf {
                        Leaf::Compare(op, lhs, rhs) => {
                            let relations = Feature::relations(lhs, rhs);
                            relations[state_of(leaf) % relations.len()].holds(op)
                        }
                        Leaf::Test(..) => state_of(leaf) == 1,
                        Leaf::Hole(_) => false,
                    })
                });
                value
            }
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use cnpi::program::{Applier, Body};

    /// The condition of the first applier of `env array(i = 0, j = 1, k = 2)`
    /// followed by `def X: cond(CONDITION?; NOP, NOP, NOP)`.
    pub(crate) fn condition(text: &str) -> Condition {
        let source =
            format!("env array(i = 0, j = 1, k = 2)\ndef X: cond({text}?; NOP, NOP, NOP)\n");
        let program = cnpi::compile::compile("t.cnpi", &source, None)
            .program
            .expect("compiles");
        match &program.defs[0].body {
            Body::Applier(Applier::Combinator {
                detector: Some(expr),
                ..
            }) => Condition::Source(expr.clone()),
            _ => panic!("a cond applier"),
        }
    }

    fn labels(encoder: &Encoder) -> Vec<bool> {
        (0..encoder.domain()).map(|p| encoder.label(p)).collect()
    }

    #[test]
    fn comparisons_read_the_relation_of_their_sides() {
        // Less, Equal, Greater, Same, Different.
        let less = Encoder::new(condition("i < j")).expect("small");
        assert_eq!(labels(&less), [true, false, false, false, false]);
        let not_equal = Encoder::new(condition("A[i] != A[j]")).expect("small");
        assert_eq!(labels(&not_equal), [true, false, true, false, true]);
        let end = Encoder::new(condition("A[i] == END")).expect("small");
        assert_eq!(labels(&end), [true, false]);
        assert_eq!(
            labels(&Encoder::new(Condition::Blind).expect("small")),
            [true]
        );
        let top = Encoder::new(Condition::StackTop).expect("small");
        assert_eq!(labels(&top), [false, true]);
    }

    #[test]
    fn a_relation_is_its_own_index_among_the_numbers() {
        for (i, relation) in NUMBERS.iter().enumerate() {
            assert_eq!(*relation as usize, i);
        }
        assert_eq!(OTHERS, [Relation::Same, Relation::Different]);
    }

    #[test]
    fn features_are_shared_and_points_are_mixed_radix() {
        let encoder =
            Encoder::new(condition("A[i] < A[j] or A[i] > A[j] and A[k] == END")).expect("small");
        assert_eq!((encoder.domain(), encoder.width()), (10, 7));
        // Point 7 = (Different, END): the or fails, and so does the and.
        assert_eq!(encoder.active(7), [3, 6]);
        for point in 0..encoder.domain() {
            assert_eq!(encoder.active(point), [point / 2, 5 + point % 2]);
        }
        assert!(!encoder.label(7));
        assert!(encoder.label(2 * 2), "(Greater, END)");
        assert!(!encoder.label(2 * 2 + 1), "(Greater, not END)");
    }

    #[test]
    fn too_many_comparisons_are_refused() {
        let pairs: Vec<String> = (0..7).map(|n| format!("A[i + {n}] < A[j]")).collect();
        let error = Encoder::new(condition(&pairs.join(" and "))).expect_err("5^7 points");
        assert_eq!(error.domain, 78_125);
    }
}
