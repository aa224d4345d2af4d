//! Where the output came from: the map that lets an error found while the
//! combinatory form runs point at the user's own line.
//!
//! [`super::print`] records, as it writes the output, the byte range of
//! every definition and of every ACT argument that was a statement of its
//! own in the source, with the source span it was converted from.
//! [`Origins::to_source`] moves a diagnostic's labels from the output to
//! the file as written, so `cnpic run` can draw it against that file.

use std::ops::Range;

use crate::diagnostic::Diagnostic;
use crate::span::{SourceId, Span};

/// Output byte ranges and the source spans they were converted from.
#[derive(Clone, Debug, Default)]
pub struct Origins(Vec<(Range<usize>, Span)>);

impl Origins {
    /// Records that `output` (a byte range of the output text) came from
    /// `source`.
    pub(super) fn record(&mut self, output: Range<usize>, source: Span) {
        self.0.push((output, source));
    }

    /// The source span of the innermost recorded range holding `span` (a
    /// span of the output, whose file is the user's).
    pub fn locate(&self, span: Span) -> Option<Span> {
        if span.source != SourceId::USER {
            return None;
        }
        self.0
            .iter()
            .filter(|(range, _)| range.start <= span.start && span.end <= range.end)
            .min_by_key(|(range, _)| range.end - range.start)
            .map(|(_, source)| *source)
    }

    /// `diagnostic`, found on the output, with its labels moved to the
    /// file as written; labels on stdlib files stay, labels on output text
    /// with no origin (the `env` line) are left out.
    pub fn to_source(&self, mut diagnostic: Diagnostic) -> Diagnostic {
        diagnostic.labels.retain_mut(|label| {
            if label.span.source != SourceId::USER {
                return true;
            }
            match self.locate(label.span) {
                Some(source) => {
                    label.span = source;
                    true
                }
                None => false,
            }
        });
        diagnostic
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostic::codes;

    #[test]
    fn the_innermost_range_wins_and_unknown_labels_go() {
        let mut origins = Origins::default();
        origins.record(10..40, Span::new(SourceId::USER, 100, 105));
        origins.record(20..30, Span::new(SourceId::USER, 200, 210));
        let at = |start, end| Span::new(SourceId::USER, start, end);
        assert_eq!(origins.locate(at(22, 25)), Some(at(200, 210)));
        assert_eq!(origins.locate(at(12, 15)), Some(at(100, 105)));
        assert_eq!(origins.locate(at(0, 5)), None);
        let diagnostic = Diagnostic::error(codes::E0701, "x")
            .with_label(at(0, 5), "the env line")
            .with_label(at(25, 28), "an ACT");
        let moved = origins.to_source(diagnostic);
        assert_eq!(moved.labels.len(), 1);
        assert_eq!(moved.labels[0].span, at(200, 210));
    }
}
