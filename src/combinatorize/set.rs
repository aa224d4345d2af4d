//! Sets of pointers, as bit sets: what a statement reads and writes.
//!
//! The analyses of `effects` combine these sets many times per statement,
//! so they are plain words of bits indexed by [`PointerId`], sized for the
//! file's pointers.

use crate::program::PointerId;

/// A set of pointers of one program.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Pointers(Vec<u64>);

impl Pointers {
    /// Every pointer of a program with `count` pointers.
    pub fn all(count: usize) -> Pointers {
        let mut set = Pointers::default();
        for pointer in 0..count {
            set.insert(pointer);
        }
        set
    }

    pub fn insert(&mut self, pointer: PointerId) {
        let (word, bit) = (pointer / 64, pointer % 64);
        if self.0.len() <= word {
            self.0.resize(word + 1, 0);
        }
        if let Some(w) = self.0.get_mut(word) {
            *w |= 1 << bit;
        }
    }

    pub fn contains(&self, pointer: PointerId) -> bool {
        self.0
            .get(pointer / 64)
            .is_some_and(|w| w & (1 << (pointer % 64)) != 0)
    }

    /// Adds `other`; true when that changed the set.
    pub fn union_with(&mut self, other: &Pointers) -> bool {
        if self.0.len() < other.0.len() {
            self.0.resize(other.0.len(), 0);
        }
        let mut changed = false;
        for (mine, theirs) in self.0.iter_mut().zip(&other.0) {
            changed |= *theirs & !*mine != 0;
            *mine |= theirs;
        }
        changed
    }

    pub fn union(&self, other: &Pointers) -> Pointers {
        let mut set = self.clone();
        set.union_with(other);
        set
    }

    pub fn intersection(&self, other: &Pointers) -> Pointers {
        Pointers(self.0.iter().zip(&other.0).map(|(a, b)| a & b).collect())
    }

    /// The pointers of `self` that are not in `other`.
    pub fn minus(&self, other: &Pointers) -> Pointers {
        let word = |i: usize| other.0.get(i).copied().unwrap_or(0);
        Pointers(
            self.0
                .iter()
                .enumerate()
                .map(|(i, w)| w & !word(i))
                .collect(),
        )
    }

    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|w| *w == 0)
    }

    pub fn iter(&self) -> impl Iterator<Item = PointerId> + '_ {
        self.0.iter().enumerate().flat_map(|(i, w)| {
            (0..64)
                .filter(move |bit| w & (1 << bit) != 0)
                .map(move |bit| i * 64 + bit)
        })
    }
}

impl FromIterator<PointerId> for Pointers {
    fn from_iter<I: IntoIterator<Item = PointerId>>(iter: I) -> Pointers {
        let mut set = Pointers::default();
        for pointer in iter {
            set.insert(pointer);
        }
        set
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_operations_past_one_word() {
        let a: Pointers = [1, 70, 130].into_iter().collect();
        let b: Pointers = [70, 2].into_iter().collect();
        assert_eq!(a.intersection(&b).iter().collect::<Vec<_>>(), [70]);
        assert_eq!(a.minus(&b).iter().collect::<Vec<_>>(), [1, 130]);
        assert!(a.minus(&b).intersection(&b).is_empty());
        let mut c = b.clone();
        assert!(c.union_with(&a));
        assert!(!c.union_with(&a));
        assert_eq!(c.iter().collect::<Vec<_>>(), [1, 2, 70, 130]);
        assert!(Pointers::default().is_empty());
        assert!(Pointers::all(3).contains(2) && !Pointers::all(3).contains(3));
        assert_eq!(b.union(&a).iter().count(), 4);
    }
}
