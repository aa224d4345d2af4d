//! The state stack of `treerec` (Appendix A of the paper).
//!
//! Entries are states (the values of the `state(...)` pointers, pushed by
//! `_push`) and sentinels (every pointer, pushed by `_push_sentinel`). The
//! values of all entries live in one flat vector, so pushing and popping
//! never allocate once the stack has grown.

use crate::program::{EvalError, PosExpr, World};

/// Whether an entry is a state or a sentinel, and how many values it holds.
#[derive(Clone, Copy, Debug)]
struct Entry {
    sentinel: bool,
    len: usize,
}

/// The top entry, with its values.
enum Top<'a> {
    State(&'a [i64]),
    Sentinel(&'a [i64]),
}

#[derive(Debug, Default)]
pub struct StateStack {
    entries: Vec<Entry>,
    values: Vec<i64>,
}

impl StateStack {
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The bytes its allocations hold.
    pub fn bytes(&self) -> usize {
        super::limits::bytes(&self.entries) + super::limits::bytes(&self.values)
    }

    /// Makes room for one more of `width` values, the run holding `others`
    /// bytes besides and at most `max` ([`super::limits::make_room`]).
    pub fn make_room(&mut self, width: usize, others: usize, max: usize) -> Result<(), usize> {
        let values = super::limits::bytes(&self.values);
        super::limits::make_room(&mut self.entries, 1, others.saturating_add(values), max)?;
        let held = others.saturating_add(super::limits::bytes(&self.entries));
        super::limits::make_room(&mut self.values, width, held, max)
    }

    /// How many values all entries hold together.
    pub fn values(&self) -> usize {
        self.values.len()
    }

    /// Pushes a state whose values `values` yields; on the first error
    /// nothing is pushed.
    fn push_state<E>(&mut self, values: impl IntoIterator<Item = Result<i64, E>>) -> Result<(), E> {
        let start = self.values.len();
        for value in values {
            match value {
                Ok(v) => self.values.push(v),
                Err(error) => {
                    self.values.truncate(start);
                    return Err(error);
                }
            }
        }
        self.push_entry(false, start);
        Ok(())
    }

    /// `_push(e1, ..., ek)`: pushes the values of `exprs` in `world`; on
    /// the first error nothing is pushed.
    pub fn push_exprs(&mut self, exprs: &[PosExpr], world: &dyn World) -> Result<(), EvalError> {
        self.push_state(exprs.iter().map(|e| e.eval(world)))
    }

    /// Pushes a sentinel remembering `pointers`.
    pub fn push_sentinel(&mut self, pointers: &[i64]) {
        let start = self.values.len();
        self.values.extend_from_slice(pointers);
        self.push_entry(true, start);
    }

    fn push_entry(&mut self, sentinel: bool, start: usize) {
        let len = self.values.len() - start;
        self.entries.push(Entry { sentinel, len });
    }

    fn top(&self) -> Option<Top<'_>> {
        let entry = self.entries.last()?;
        let values = self.values.get(self.values.len() - entry.len..)?;
        Some(if entry.sentinel {
            Top::Sentinel(values)
        } else {
            Top::State(values)
        })
    }

    /// `_load_state`: writes the top state into the pointers `targets`
    /// (the `state(...)` pointers), or puts back every pointer a sentinel
    /// remembered; false when the stack is empty.
    pub fn load(&self, pointers: &mut [i64], targets: &[usize]) -> bool {
        match self.top() {
            Some(Top::State(values)) => {
                for (&p, &value) in targets.iter().zip(values) {
                    pointers[p] = value;
                }
            }
            Some(Top::Sentinel(values)) => {
                for (pointer, &value) in pointers.iter_mut().zip(values) {
                    *pointer = value;
                }
            }
            None => return false,
        }
        true
    }

    /// The entries from the bottom up: whether each is a sentinel, and its
    /// values.
    pub fn entries(&self) -> impl Iterator<Item = (bool, &[i64])> {
        let mut start = 0;
        self.entries.iter().map(move |entry| {
            let values = &self.values[start..start + entry.len];
            start += entry.len;
            (entry.sentinel, values)
        })
    }

    /// True when the top entry is a state: `_mapself`'s detector.
    #[inline]
    pub fn top_is_state(&self) -> bool {
        self.entries.last().is_some_and(|e| !e.sentinel)
    }

    /// Removes the top entry; false when the stack is empty.
    pub fn pop(&mut self) -> bool {
        match self.entries.pop() {
            Some(entry) => {
                self.values.truncate(self.values.len() - entry.len);
                true
            }
            None => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_come_off_last_pushed_first() {
        let mut stack = StateStack::default();
        stack.push_sentinel(&[7, 8, 9]);
        stack.push_state::<()>([Ok(1), Ok(2)]).expect("no error");
        assert!(stack.push_state([Ok(5), Err("bad")]).is_err());
        assert_eq!(stack.len(), 2);
        assert!(stack.top_is_state());
        assert!(matches!(stack.top(), Some(Top::State([1, 2]))));
        assert!(stack.pop());
        assert!(!stack.top_is_state());
        assert!(matches!(stack.top(), Some(Top::Sentinel([7, 8, 9]))));
        assert!(stack.pop());
        assert!(stack.top().is_none() && !stack.pop());
    }
}
