//! The frame stack of exactly converted normal programs (language.md §5.1).
//!
//! Where Algorithm 3's `treerec` would reorder effects, the combinatorizer
//! runs normal programs on explicit frames: one `linrec` whose body
//! dispatches on the top frame's resume point (`_resume`) with `cond`s. A
//! frame is a resume point and, for a state call, the pointers it puts back
//! when it returns. As for the state stack, the values of all frames live
//! in one flat vector, so pushing and popping never allocate once it has
//! grown.

/// One frame: where it resumes, and how many pointer values it saved.
#[derive(Clone, Copy, Debug)]
struct Frame {
    resume: i64,
    saved: usize,
}

#[derive(Debug, Default)]
pub struct FrameStack {
    frames: Vec<Frame>,
    values: Vec<i64>,
}

impl FrameStack {
    pub fn len(&self) -> usize {
        self.frames.len()
    }

    pub fn is_empty(&self) -> bool {
        self.frames.is_empty()
    }

    /// How many pointer values all frames hold together.
    pub fn values(&self) -> usize {
        self.values.len()
    }

    /// The bytes its allocations hold.
    pub fn bytes(&self) -> usize {
        super::limits::bytes(&self.frames) + super::limits::bytes(&self.values)
    }

    /// Makes room for one more of `width` values, the run holding `others`
    /// bytes besides and at most `max` ([`super::limits::make_room`]).
    pub fn make_room(&mut self, width: usize, others: usize, max: usize) -> Result<(), usize> {
        let values = super::limits::bytes(&self.values);
        super::limits::make_room(&mut self.frames, 1, others.saturating_add(values), max)?;
        let held = others.saturating_add(super::limits::bytes(&self.frames));
        super::limits::make_room(&mut self.values, width, held, max)
    }

    /// `_resume`: the top frame's resume point, 0 without frames.
    #[inline]
    pub fn resume(&self) -> i64 {
        self.frames.last().map_or(0, |f| f.resume)
    }

    /// `_goto(k)`: the top frame resumes at `k`; false without frames.
    pub fn goto(&mut self, resume: i64) -> bool {
        match self.frames.last_mut() {
            Some(frame) => {
                frame.resume = resume;
                true
            }
            None => false,
        }
    }

    /// Pushes a frame resuming at `resume` that remembers `saved` (the
    /// pointers of a state call; none for a plain call).
    pub fn push(&mut self, resume: i64, saved: &[i64]) {
        self.values.extend_from_slice(saved);
        self.frames.push(Frame {
            resume,
            saved: saved.len(),
        });
    }

    /// `_return`: pops the top frame, writing the pointers it remembered
    /// back into `pointers`; false without frames.
    pub fn pop(&mut self, pointers: &mut [i64]) -> bool {
        let Some(frame) = self.frames.pop() else {
            return false;
        };
        let start = self.values.len() - frame.saved;
        for (pointer, &value) in pointers.iter_mut().zip(&self.values[start..]) {
            *pointer = value;
        }
        self.values.truncate(start);
        true
    }

    /// The frames from the bottom up: each one's resume point and saved
    /// pointers.
    pub fn frames(&self) -> impl Iterator<Item = (i64, &[i64])> {
        let mut start = 0;
        self.frames.iter().map(move |frame| {
            let values = &self.values[start..start + frame.saved];
            start += frame.saved;
            (frame.resume, values)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_resume_and_restore() {
        let mut stack = FrameStack::default();
        assert_eq!(stack.resume(), 0);
        assert!(!stack.goto(3));
        stack.push(1, &[]);
        assert!(stack.goto(4));
        stack.push(7, &[10, 20]);
        assert_eq!(stack.resume(), 7);
        let mut pointers = [1, 2];
        assert!(stack.pop(&mut pointers));
        assert_eq!(pointers, [10, 20]);
        assert_eq!(stack.resume(), 4);
        assert!(stack.pop(&mut pointers));
        assert_eq!(pointers, [10, 20]);
        assert!(!stack.pop(&mut pointers) && stack.is_empty());
    }
}
