//! Building the output appliers: grouping, splitting and naming.
//!
//! The conversion produces [`Piece`]s — an argument (`NOP`, an ACT, a
//! definition's name) or a combinator application not yet named, with the
//! source range it came from. The [`Emitter`] of a converted program turns
//! combinator applications into helper definitions named after the program,
//! what they are and the line they start on (`PARTITION_LOOP_L11`), with a
//! comment pointing at the source; it groups long runs of statements into
//! nested `seq`s and splits a loop body between `linrec`'s two arguments.
//! Identical helpers of one program are emitted once.

use std::collections::{HashMap, HashSet};

use super::output::{Arg, Comb, Node, OutDef};
use super::print;
use crate::program::{Act, BoolExpr, Combinator, Program};
use crate::span::{SourceId, Span};

/// A byte range of the user's source, and where its first statement
/// starts (code moved around may begin after it ends).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Extent {
    pub start: usize,
    pub end: usize,
    pub head: usize,
}

impl Extent {
    pub fn new(start: usize, end: usize) -> Extent {
        Extent {
            start,
            end,
            head: start,
        }
    }

    /// The range covering both, headed by `self`'s first statement.
    pub fn to(self, other: Extent) -> Extent {
        Extent {
            start: self.start.min(other.start),
            end: self.end.max(other.end),
            head: self.head,
        }
    }

    /// The range as a span of the user's file; `None` for no code.
    pub fn span(self) -> Option<Span> {
        (self.end > self.start).then(|| Span::new(SourceId::USER, self.start, self.end))
    }
}

/// Converted code, where it came from, and what to call it if it needs a
/// name (`IF`, `LOOP`, `SEQ`, `DIVIDE` ...).
#[derive(Clone, Debug)]
pub struct Piece {
    pub node: Node,
    pub extent: Extent,
    pub kind: &'static str,
}

impl Piece {
    pub fn arg(arg: Arg, extent: Extent) -> Piece {
        Piece {
            node: Node::Arg(arg),
            extent,
            kind: "SEQ",
        }
    }

    /// The `while` loop this piece is, if it is one (see [`OutDef::runs`]).
    pub fn runs(&self) -> Option<Span> {
        (self.kind == "LOOP").then(|| self.extent.span()).flatten()
    }

    fn is_nop(&self) -> bool {
        matches!(self.node, Node::Arg(Arg::Nop))
    }

    /// A step that advances a loop: an ACT declared as advancing (`MOVE`,
    /// `NEXT_CHILD`).
    fn is_advance(&self) -> bool {
        match &self.node {
            Node::Arg(Arg::Act(Act::Move(..))) => true,
            Node::Arg(Arg::Act(Act::Env(act))) => act.decl.advances,
            _ => false,
        }
    }
}

/// The names taken in the output file.
#[derive(Default)]
pub struct Names(HashSet<String>);

impl Names {
    pub fn take(&mut self, name: &str) {
        self.0.insert(name.to_string());
    }

    /// `base`, or `base_2`, `base_3` ... if taken; marked taken.
    fn fresh(&mut self, base: String) -> String {
        let mut name = base.clone();
        let mut n = 2;
        while self.0.contains(&name) {
            name = format!("{base}_{n}");
            n += 1;
        }
        self.0.insert(name.clone());
        name
    }
}

/// Line numbers and first lines of the user's source.
pub struct Lines<'s> {
    text: &'s str,
    starts: Vec<usize>,
}

impl<'s> Lines<'s> {
    pub fn new(text: &'s str) -> Lines<'s> {
        let starts = std::iter::once(0)
            .chain(text.match_indices('\n').map(|(i, _)| i + 1))
            .collect();
        Lines { text, starts }
    }

    /// The 1-based line of a byte offset.
    pub fn line(&self, at: usize) -> usize {
        self.starts.partition_point(|&start| start <= at)
    }

    /// The source line holding `at`, without its comment, indentation and
    /// trailing `:`.
    fn snippet(&self, at: usize) -> &'s str {
        let line = self.line(at);
        let start = self.starts.get(line.wrapping_sub(1)).copied().unwrap_or(0);
        let rest = self.text.get(start..).unwrap_or_default();
        let text = rest.split('\n').next().unwrap_or_default();
        let text = text.split('#').next().unwrap_or_default().trim();
        text.strip_suffix(':').unwrap_or(text).trim_end()
    }

    /// The first line of `span` without its comment and trailing `:`,
    /// for labels on `if` and `while`.
    pub fn first_line(&self, span: Span) -> Span {
        let text = self.text.get(span.start..span.end).unwrap_or_default();
        let line = text.split('\n').next().unwrap_or_default();
        let line = line.split('#').next().unwrap_or_default().trim_end();
        let line = line.strip_suffix(':').unwrap_or(line).trim_end();
        Span {
            end: span.start + line.len(),
            ..span
        }
    }

    /// `from lines 4-7: while j != hi`
    pub fn comment(&self, extent: Extent) -> String {
        let (first, last) = (self.line(extent.start), self.line(extent.end.max(1) - 1));
        let snippet = self.snippet(extent.head);
        if last > first {
            format!("from lines {first}-{last}: {snippet}")
        } else {
            format!("from line {first}: {snippet}")
        }
    }
}

/// Builds the helpers of one converted program.
pub struct Emitter<'a> {
    program: &'a Program,
    lines: &'a Lines<'a>,
    names: &'a mut Names,
    /// The converted program's name, the stem of its helpers' names.
    stem: &'a str,
    /// Helpers by their printed body, so that equal ones are shared.
    seen: HashMap<String, String>,
    /// The helpers, each after those it uses.
    pub helpers: Vec<OutDef>,
}

impl<'a> Emitter<'a> {
    pub fn new(
        program: &'a Program,
        lines: &'a Lines<'a>,
        names: &'a mut Names,
        stem: &'a str,
    ) -> Emitter<'a> {
        Emitter {
            program,
            lines,
            names,
            stem,
            seen: HashMap::new(),
            helpers: Vec::new(),
        }
    }

    pub fn comment(&self, extent: Extent) -> String {
        self.lines.comment(extent)
    }

    /// The first line of a statement's span, for labels.
    pub fn first_line(&self, span: Span) -> Span {
        self.lines.first_line(span)
    }

    /// The piece as an argument: a combinator application becomes a
    /// helper definition.
    pub fn arg(&mut self, piece: Piece) -> Arg {
        let runs = piece.runs();
        let comb = match piece.node {
            Node::Arg(arg) => return arg,
            Node::Comb(comb) => comb,
        };
        let node = Node::Comb(comb);
        let text = print::node(&node, self.program);
        if let Some(name) = self.seen.get(&text) {
            return Arg::Def(name.clone());
        }
        let name = self.reserve(piece.kind, piece.extent);
        self.seen.insert(text, name.clone());
        self.define(name.clone(), node, piece.extent, runs);
        Arg::Def(name)
    }

    /// A fresh name for a helper of `kind` from `extent`, taken before its
    /// body is built (a loop that code inside it goes back to).
    pub fn reserve(&mut self, kind: &str, extent: Extent) -> String {
        let line = self.lines.line(extent.head);
        self.names.fresh(format!("{}_{kind}_L{line}", self.stem))
    }

    /// The helper `name` (from [`Self::reserve`]) is `piece`.
    pub fn define_piece(&mut self, name: String, piece: Piece) {
        let runs = piece.runs();
        self.define(name, piece.node, piece.extent, runs);
    }

    fn define(&mut self, name: String, node: Node, extent: Extent, runs: Option<Span>) {
        let head = Span::new(SourceId::USER, extent.head, extent.end);
        self.helpers.push(OutDef {
            name,
            comment: Some(self.lines.comment(extent)),
            node,
            origin: self.lines.first_line(head),
            runs,
        });
    }

    /// A combinator application covering `extent`.
    pub fn comb(
        &mut self,
        combinator: Combinator,
        detector: Option<BoolExpr>,
        args: [Piece; 3],
        extent: Extent,
        kind: &'static str,
    ) -> Piece {
        let origins = args.each_ref().map(|piece| match piece.node {
            Node::Arg(Arg::Act(_)) => piece.extent.span(),
            _ => None,
        });
        let args = args.map(|piece| self.arg(piece));
        Piece {
            node: Node::Comb(Box::new(Comb {
                combinator,
                detector,
                args,
                origins,
            })),
            extent,
            kind,
        }
    }

    /// The pieces run one after another: nothing, one piece, or a `seq`
    /// (nested when longer than three; `kind` names the outer one).
    pub fn seq(&mut self, pieces: Vec<Piece>, kind: &'static str) -> Piece {
        let mut pieces: Vec<Piece> = pieces.into_iter().filter(|p| !p.is_nop()).collect();
        let extent = span_of(&pieces);
        let groups: [Vec<Piece>; 3] = match pieces.len() {
            0 => return Piece::arg(Arg::Nop, Extent::default()),
            1 => return pieces.remove(0),
            2 | 3 => {
                let mut three = pieces.into_iter();
                [(); 3].map(|()| three.next().into_iter().collect())
            }
            n => {
                let (first, second) = group_bounds(&pieces, n);
                let rest = pieces.split_off(second);
                let middle = pieces.split_off(first);
                [pieces, middle, rest]
            }
        };
        let args = groups.map(|group| self.seq(group, "SEQ"));
        self.comb(Combinator::Seq, None, args, extent, kind)
    }

    /// A body split between the first two arguments of `linrec` or
    /// `cond`: trailing advancing steps (`MOVE`, `NEXT_CHILD`) (the loop's advance) go
    /// to the second, the rest to the first, as in the paper's listings;
    /// without such a split, the first piece and the rest.
    pub fn split(&mut self, pieces: Vec<Piece>) -> [Piece; 2] {
        let mut pieces: Vec<Piece> = pieces.into_iter().filter(|p| !p.is_nop()).collect();
        let n = pieces.len();
        let advance = pieces.iter().rev().take_while(|p| p.is_advance()).count();
        let at = if advance > 0 && advance < n {
            n - advance
        } else {
            n.min(1)
        };
        let second = pieces.split_off(at);
        [self.seq(pieces, "SEQ"), self.seq(second, "SEQ")]
    }
}

/// The source range of some pieces.
pub fn span_of(pieces: &[Piece]) -> Extent {
    let mut extents = pieces.iter().map(|p| p.extent);
    let first = extents.next().unwrap_or_default();
    extents.fold(first, Extent::to)
}

/// Where a run of more than three pieces is cut into three groups: around
/// its first combinator application when that stands inside the run (as
/// the paper's `PARTITION` is `seq(; PRE_LOOP, LOOP, SWAP)`), otherwise in
/// near-equal thirds.
fn group_bounds(pieces: &[Piece], n: usize) -> (usize, usize) {
    let anchor = pieces
        .iter()
        .position(|p| matches!(p.node, Node::Comb(_)))
        .filter(|&i| i > 0 && i + 1 < n);
    match anchor {
        Some(i) => (i, i + 1),
        None => {
            let first = n.div_ceil(3);
            (first, first + (n - first).div_ceil(2))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_and_comments() {
        let lines = Lines::new("env x\n\ndef F():\n  while a: # loop\n    B()\n");
        assert_eq!(lines.line(0), 1);
        assert_eq!(lines.line(6), 2);
        assert_eq!(lines.line(7), 3);
        let at = "env x\n\ndef F():\n  ".len();
        let end = "env x\n\ndef F():\n  while a: # loop\n    B()".len();
        assert_eq!(
            lines.comment(Extent::new(at, end)),
            "from lines 4-5: while a"
        );
        assert_eq!(lines.comment(Extent::new(7, 10)), "from line 3: def F()");
    }

    #[test]
    fn groups_of_long_runs() {
        let act = |node| Piece::arg(node, Extent::default());
        let comb = Piece {
            node: Node::Comb(Box::new(Comb {
                combinator: Combinator::Seq,
                detector: None,
                args: [Arg::Nop, Arg::Nop, Arg::Nop],
                origins: [None; 3],
            })),
            extent: Extent::default(),
            kind: "LOOP",
        };
        let run = vec![act(Arg::Nop), act(Arg::Nop), comb, act(Arg::Nop)];
        assert_eq!(group_bounds(&run, 4), (2, 3));
        let plain: Vec<Piece> = (0..7).map(|_| act(Arg::Nop)).collect();
        assert_eq!(group_bounds(&plain, 7), (3, 5));
        assert_eq!(group_bounds(&plain[..4], 4), (2, 3));
    }
}
