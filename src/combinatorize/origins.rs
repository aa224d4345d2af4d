//! Where the output came from: the map that lets an error found while the
//! combinatory form runs point at the user's own line, where `--symbolic`
//! points.
//!
//! [`super::print`] records, as it writes the output, the byte range of
//! every definition and of every ACT argument that was a statement of its
//! own in the source, with the source span it was converted from; and it
//! pairs each value it writes (each read, each sum of an ACT or a
//! condition) with the value it was written from ([`act_pairs`],
//! [`condition_pairs`]), so that an error at a read (E0706) or at a
//! divisor (E0705) points at the same read as in the source.
//! [`Origins::to_source`] moves a diagnostic's labels from the output to
//! the file as written, so `cnpic run` can draw it against that file.

use std::collections::HashMap;
use std::ops::Range;

use crate::diagnostic::Diagnostic;
use crate::program::{Act, ActArg, BoolExpr, Cell, Operand, PosExpr, PosKind, SymExpr};
use crate::span::{SourceId, Span};

/// Output byte ranges and the source spans they were converted from.
#[derive(Clone, Debug, Default)]
pub struct Origins {
    ranges: Vec<(Range<usize>, Span)>,
    /// Output spans of values paired with their source spans.
    exact: HashMap<(usize, usize), Span>,
}

impl Origins {
    /// Records that `output` (a byte range of the output text) came from
    /// `source`.
    pub(super) fn record(&mut self, output: Range<usize>, source: Span) {
        self.ranges.push((output, source));
    }

    /// Records that the value written at `output` was written from the
    /// value at `source`, when that is code of the user's.
    pub(super) fn pair(&mut self, output: Span, source: Span) {
        if source.source == SourceId::USER && source.end > source.start {
            self.exact.insert((output.start, output.end), source);
        }
    }

    /// The source span of `span` (a span of the output, whose file is the
    /// user's): the value's own when it was paired, else that of the
    /// innermost recorded range holding it.
    pub fn locate(&self, span: Span) -> Option<Span> {
        if span.source != SourceId::USER {
            return None;
        }
        if let Some(source) = self.exact.get(&(span.start, span.end)) {
            return Some(*source);
        }
        self.ranges
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

/// The spans of the values of `written` (an ACT as written in the output)
/// paired with those of `act` (the ACT it was written from), outermost
/// first.
pub(super) fn act_pairs(act: &Act, written: &Act, pairs: &mut Vec<(Span, Span)>) {
    let (mut from, mut to) = (Vec::new(), Vec::new());
    act_spans(act, &mut from);
    act_spans(written, &mut to);
    pairs.extend(to.into_iter().zip(from));
}

/// [`act_pairs`] for a condition.
pub(super) fn condition_pairs(
    condition: &BoolExpr,
    written: &BoolExpr,
    pairs: &mut Vec<(Span, Span)>,
) {
    let (mut from, mut to) = (Vec::new(), Vec::new());
    condition_spans(condition, &mut from);
    condition_spans(written, &mut to);
    pairs.extend(to.into_iter().zip(from));
}

/// The spans of the values of `act`, outermost first.
fn act_spans(act: &Act, found: &mut Vec<Span>) {
    match act {
        Act::Nop | Act::Move(..) => {}
        Act::Set(_, e) => value_spans(e, found),
        Act::Push(es) | Act::Frame(_, es) => es.iter().for_each(|e| value_spans(e, found)),
        Act::Env(act) => {
            for arg in &act.args {
                match arg {
                    ActArg::Position(e) => value_spans(e, found),
                    ActArg::Place(cell) => cell_spans(cell, found),
                    _ => {}
                }
            }
        }
    }
}

fn value_spans(e: &PosExpr, found: &mut Vec<Span>) {
    found.push(e.span);
    match &e.kind {
        PosKind::Observe(_, e) | PosKind::Neg(e) => value_spans(e, found),
        PosKind::Arith(_, a, b) => {
            value_spans(a, found);
            value_spans(b, found);
        }
        PosKind::Read(cell) => cell_spans(cell, found),
        PosKind::Call(call) => {
            found.push(call.span);
            call.args.iter().for_each(|e| value_spans(e, found));
        }
        PosKind::Int(_)
        | PosKind::Pointer(_)
        | PosKind::Last
        | PosKind::End
        | PosKind::Resume
        | PosKind::Hole(_) => {}
    }
}

fn cell_spans(cell: &Cell, found: &mut Vec<Span>) {
    found.push(cell.span);
    cell.at.iter().for_each(|e| value_spans(e, found));
}

fn condition_spans(condition: &BoolExpr, found: &mut Vec<Span>) {
    match condition {
        BoolExpr::Compare(_, a, b) => {
            operand_spans(a, found);
            operand_spans(b, found);
        }
        BoolExpr::Test(_, e) => value_spans(e, found),
        BoolExpr::And(a, b) | BoolExpr::Or(a, b) => {
            condition_spans(a, found);
            condition_spans(b, found);
        }
        BoolExpr::Not(a) => condition_spans(a, found),
        BoolExpr::Hole(..) => {}
    }
}

fn operand_spans(operand: &Operand, found: &mut Vec<Span>) {
    match operand {
        Operand::Int(_) | Operand::End => {}
        Operand::Pos(e) => value_spans(e, found),
        Operand::Val(v) => {
            found.push(v.span);
            value_spans(&v.at, found);
        }
        Operand::Sym(SymExpr::Literal(_, span)) => found.push(*span),
        Operand::Sym(SymExpr::Observe(_, e, span)) => {
            found.push(*span);
            value_spans(e, found);
        }
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
