//! Abstract traces: what a combinator's definition says the core must do.
//!
//! An activation of a combinator sees condition bits `c1, c2, ...`. At step
//! `t` (1-based) it must choose slot `seq(c1)[t-1]`, where `seq` is the
//! definition's `when_true` or `when_false` branch, and return exactly at
//! the last step of that branch. Only the first bit matters; the core must
//! ignore the others, so the training traces hold every value of them.
//! [`expected`] is the rule itself (used by verification as well), and
//! [`traces`] lists one trace per branch and per value of the later bits.

use super::network::Decision;
use cnpi::program::Behaviour;

/// The decision the definition asks for after the bits `bits` (the first
/// is the condition of the activation, the last the current step's), or
/// `None` when the activation has already returned before that step.
pub fn expected(behaviour: &Behaviour, bits: &[bool]) -> Option<Decision> {
    let (&first, _) = bits.split_first()?;
    let slots = behaviour.slots(first);
    let step = bits.len();
    slots.get(step - 1).map(|&slot| Decision {
        slot,
        ret: step == slots.len(),
    })
}

/// The number of core steps of the longest execution of `behaviour`.
pub fn longest(behaviour: &Behaviour) -> usize {
    behaviour.when_true.len().max(behaviour.when_false.len())
}

/// One supervised sequence: combinator `combinator` (an index into the
/// behaviours) fed `bits`, with the decision required after each bit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trace {
    pub combinator: usize,
    pub bits: Vec<bool>,
    pub targets: Vec<Decision>,
}

/// Every complete execution of every behaviour: for each branch of length
/// `n`, all `2^(n-1)` values of the bits after the first.
pub fn traces(behaviours: &[Behaviour]) -> Vec<Trace> {
    let mut traces = Vec::new();
    for (combinator, behaviour) in behaviours.iter().enumerate() {
        for first in [false, true] {
            let length = behaviour.slots(first).len();
            if length == 0 {
                continue;
            }
            for later in 0..1u64 << (length - 1) {
                let bits: Vec<bool> = std::iter::once(first)
                    .chain((0..length - 1).map(|i| later >> i & 1 == 1))
                    .collect();
                let targets = (1..=length)
                    .filter_map(|step| expected(behaviour, &bits[..step]))
                    .collect();
                traces.push(Trace {
                    combinator,
                    bits,
                    targets,
                });
            }
        }
    }
    traces
}

#[cfg(test)]
mod tests {
    use super::*;
    use cnpi::program::Slot;

    fn cond() -> Behaviour {
        Behaviour {
            when_true: vec![Slot::A1, Slot::A2],
            when_false: vec![Slot::A3],
        }
    }

    #[test]
    fn the_first_bit_picks_the_branch_and_the_last_step_returns() {
        let step = |slot, ret| Some(Decision { slot, ret });
        assert_eq!(expected(&cond(), &[true]), step(Slot::A1, false));
        assert_eq!(expected(&cond(), &[true, false]), step(Slot::A2, true));
        assert_eq!(expected(&cond(), &[false]), step(Slot::A3, true));
        assert_eq!(expected(&cond(), &[false, true]), None);
        assert_eq!(expected(&cond(), &[]), None);
    }

    #[test]
    fn traces_cover_every_later_bit() {
        let traces = traces(&[cond()]);
        // false: one trace; true: the second bit is 0 or 1.
        assert_eq!(traces.len(), 3);
        let bits: Vec<&[bool]> = traces.iter().map(|t| t.bits.as_slice()).collect();
        assert!(bits.contains(&&[true, false][..]));
        assert!(bits.contains(&&[true, true][..]));
        assert!(traces.iter().all(|t| t.bits.len() == t.targets.len()));
        assert_eq!(longest(&cond()), 2);
    }
}
