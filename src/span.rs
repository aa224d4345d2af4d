//! Source positions shared by every phase.
//!
//! A [`Span`] is a half-open byte range in one source file, named by a
//! [`SourceId`]. The lexer, the parser, the checker and the interpreters all
//! report positions this way, and only `diagnostic` turns them into lines and
//! columns (through ariadne, which is configured for byte offsets).

use std::ops::Range;

/// Which loaded text a span points into: the user's file or one stdlib file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct SourceId(pub u16);

impl SourceId {
    /// The file given on the command line.
    pub const USER: SourceId = SourceId(0);
}

/// A half-open byte range `start..end` inside the source `source`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Span {
    pub source: SourceId,
    pub start: usize,
    pub end: usize,
}

impl Span {
    pub fn new(source: SourceId, start: usize, end: usize) -> Span {
        Span { source, start, end }
    }

    /// The smallest span covering both `self` and `other` (same source).
    pub fn to(self, other: Span) -> Span {
        Span {
            source: self.source,
            start: self.start.min(other.start),
            end: self.end.max(other.end),
        }
    }

    pub fn range(&self) -> Range<usize> {
        self.start..self.end
    }
}

/// `start..end@source` on one line, so that snapshots of trees stay short.
impl std::fmt::Debug for Span {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}..{}@{}", self.start, self.end, self.source.0)
    }
}

impl ariadne::Span for Span {
    type SourceId = SourceId;

    fn source(&self) -> &SourceId {
        &self.source
    }

    fn start(&self) -> usize {
        self.start
    }

    fn end(&self) -> usize {
        self.end
    }
}
