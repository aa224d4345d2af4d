//! The layout pass: physical lines to logical lines and blocks, as in Python.
//!
//! It takes the lexer's tokens (with one `Newline` per line break) and hands
//! the grammar a stream where `Newline` ends a logical line and `Indent` /
//! `Dedent` open and close blocks. Blank and comment-only lines vanish; line
//! breaks inside `( )` and `[ ]` are ignored. It reports tabs in indentation,
//! dedents to no enclosing level, unclosed and unmatched brackets, and lines
//! nested more than [`MAX_DEPTH`] levels deep (replaced by one `TooDeep`
//! token so that no such tree is ever built). Closing brackets that are
//! missing are inserted, so the grammar does not report them again.

use crate::diagnostic::{Diagnostic, codes};
use crate::span::{SourceId, Span};
use crate::syntax::lexer::{Spanned, Token};

pub use crate::operators::MAX_DEPTH;

/// Turns the lexer's tokens into the grammar's, reporting layout errors.
pub fn layout<'s>(
    source: &str,
    id: SourceId,
    tokens: Vec<Spanned<'s>>,
    diagnostics: &mut Vec<Diagnostic>,
) -> Vec<Spanned<'s>> {
    let mut layout = Layout {
        source,
        id,
        diagnostics,
        out: Vec::with_capacity(tokens.len() + tokens.len() / 4),
        line: Vec::new(),
        indents: vec![0],
        brackets: Vec::new(),
        open: [0; 2],
        line_start: 0,
        fresh_line: true,
        tab_lines: Vec::new(),
    };
    for token in tokens {
        layout.push(token);
    }
    layout.finish()
}

struct Layout<'a, 's> {
    source: &'a str,
    id: SourceId,
    diagnostics: &'a mut Vec<Diagnostic>,
    out: Vec<Spanned<'s>>,
    /// The tokens of the current logical line, emitted when it ends.
    line: Vec<Spanned<'s>>,
    /// Indentation widths of the open blocks; the file level is 0.
    indents: Vec<usize>,
    /// The open brackets of the current logical line.
    brackets: Vec<Spanned<'s>>,
    /// How many of `brackets` are `(` and `[`: a closer with none of its
    /// kind open is unmatched at once, without a scan, so that a flood of
    /// stray closers costs linear time.
    open: [usize; 2],
    /// Byte offset where the current physical line starts.
    line_start: usize,
    /// No token has been seen yet on the current physical line.
    fresh_line: bool,
    /// The first tab of every line indented with tabs.
    tab_lines: Vec<usize>,
}

impl<'s> Layout<'_, 's> {
    fn push(&mut self, token: Spanned<'s>) {
        let (start, kind, end) = token;
        if kind == Token::Newline {
            if self.brackets.is_empty() {
                self.end_line();
            }
            self.line_start = end;
            self.fresh_line = true;
            return;
        }
        let opener = kind.opener();
        let matching = opener
            .filter(|&opener| self.open[kind_index(opener)] > 0)
            .and_then(|opener| {
                self.brackets
                    .iter()
                    .rposition(|&(_, open, _)| open == opener)
            });
        if opener.is_some() && matching.is_none() {
            self.diagnostics
                .push(unmatched(Span::new(self.id, start, end), kind));
            return;
        }
        let fresh_line = std::mem::replace(&mut self.fresh_line, false);
        if fresh_line && !self.brackets.is_empty() && kind.starts_line() {
            // `def`, `if`... cannot be inside brackets: the brackets were
            // left open on an earlier line.
            self.close_brackets(None);
            self.end_line();
        }
        let mut token = token;
        if self.line.is_empty() {
            self.indent(start);
            if let (Token::Name(word @ ("input" | "var")), [_]) = (kind, &self.indents[..]) {
                token = (start, Token::DataKeyword(word), end);
            }
        }
        if kind.closer().is_some() {
            self.open[kind_index(kind)] += 1;
            self.brackets.push(token);
        } else if let Some(matching) = matching {
            self.close_brackets(Some((matching + 1, token)));
            self.pop_brackets(matching);
        }
        self.line.push(token);
    }

    /// Emits `Indent`/`Dedent` for a logical line whose first token starts
    /// at byte `start`. The indentation is the whitespace that begins the
    /// physical line; its width counts spaces and tabs.
    fn indent(&mut self, start: usize) {
        let before = self.source.get(self.line_start..start).unwrap_or_default();
        let indentation = before
            .find(|c: char| !c.is_whitespace())
            .map_or(before, |end| &before[..end]);
        if let Some(tab) = indentation.find('\t') {
            self.tab_lines.push(self.line_start + tab);
        }
        let width = indentation
            .chars()
            .filter(|&c| c == ' ' || c == '\t')
            .count();
        if self.indents.last().is_none_or(|&current| width > current) {
            self.indents.push(width);
            let end = self.line_start + indentation.len();
            self.out.push((self.line_start, Token::Indent, end));
            return;
        }
        // Close the blocks deeper than `width`. A width between two levels
        // is an error; the line then stays in the deeper block, which keeps
        // it inside its definition.
        let at = self.last_end();
        while let [.., outer, inner] = self.indents[..] {
            if inner <= width || outer < width {
                break;
            }
            self.indents.pop();
            self.out.push((at, Token::Dedent, at));
        }
        if let [.., outer, inner] = self.indents[..]
            && inner != width
        {
            let span = Span::new(self.id, self.line_start, start);
            self.diagnostics
                .push(bad_dedent(span, width, [outer, inner]));
        }
    }

    /// Reports the open brackets above `keep` (all of them when `None`) as
    /// unclosed and appends their closers to the line, innermost first. With
    /// `Some((keep, closer))`, `closer` is the token that revealed them.
    /// One diagnostic names the outermost of them (the one to fix first),
    /// however many were left open inside it.
    fn close_brackets(&mut self, until: Option<(usize, Spanned<'s>)>) {
        let keep = until.map_or(0, |(keep, _)| keep);
        if self.brackets.len() <= keep {
            return;
        }
        let at = self.last_end();
        let unclosed = self.pop_brackets(keep);
        let innermost = unclosed.last().map(|&(_, open, _)| open);
        let needed = innermost.and_then(Token::closer).unwrap_or(Token::RParen);
        let (start, open, end) = unclosed[0];
        let close = open.closer().unwrap_or(Token::RParen);
        let mut diagnostic = Diagnostic::error(codes::E0006, format!("unclosed {open}"))
            .with_label(
                Span::new(self.id, start, end),
                format!("this {open} is never closed"),
            )
            .with_help(format!("add the matching {close}"));
        match unclosed.len() - 1 {
            0 => {}
            1 => {
                diagnostic = diagnostic.with_note("a bracket opened after it is not closed either")
            }
            more => {
                diagnostic = diagnostic.with_note(format!(
                    "{more} brackets opened after it are not closed either"
                ))
            }
        }
        if let Some((_, (found_start, found, found_end))) = until {
            diagnostic = diagnostic.with_label(
                Span::new(self.id, found_start, found_end),
                format!("expected {needed} before this {found}"),
            );
        }
        self.diagnostics.push(diagnostic);
        for &(_, open, _) in unclosed.iter().rev() {
            let close = open.closer().unwrap_or(Token::RParen);
            self.line.push((at, close, at));
        }
    }

    /// Removes and returns the open brackets above the first `keep`.
    fn pop_brackets(&mut self, keep: usize) -> Vec<Spanned<'s>> {
        let popped = self.brackets.split_off(keep.min(self.brackets.len()));
        for &(_, open, _) in &popped {
            self.open[kind_index(open)] -= 1;
        }
        popped
    }

    /// Ends the current logical line, if it has any token.
    fn end_line(&mut self) {
        let Some(&(start, _, first_end)) = self.line.first() else {
            return;
        };
        let at = self.last_end();
        let blocks = self.indents.len() - 1;
        // A line has at least as many tokens as levels: count them first.
        if blocks + self.line.len() > MAX_DEPTH && blocks + depth(&self.line) > MAX_DEPTH {
            self.diagnostics.push(
                Diagnostic::error(codes::E0008, "nesting too deep")
                    .with_label(
                        Span::new(self.id, start, first_end),
                        format!("the line starting here nests more than {MAX_DEPTH} levels deep"),
                    )
                    .with_help("split it into smaller definitions"),
            );
            self.line.clear();
            self.out.push((start, Token::TooDeep, at));
        } else {
            self.out.append(&mut self.line);
        }
        self.out.push((at, Token::Newline, at));
    }

    /// Where the last token of the current line (or of the output) ends.
    fn last_end(&self) -> usize {
        self.line
            .last()
            .or(self.out.last())
            .map_or(0, |&(_, _, end)| end)
    }

    fn finish(mut self) -> Vec<Spanned<'s>> {
        self.close_brackets(None);
        self.end_line();
        let at = self.last_end();
        for _ in 1..self.indents.len() {
            self.out.push((at, Token::Dedent, at));
        }
        if let Some(&first) = self.tab_lines.first() {
            let mut diagnostic =
                Diagnostic::error(codes::E0003, "tabs are not allowed in indentation")
                    .with_label(Span::new(self.id, first, first + 1), "this tab")
                    .with_help("indent with spaces");
            match self.tab_lines.len() - 1 {
                0 => {}
                1 => diagnostic = diagnostic.with_note("1 more line is indented with tabs"),
                more => {
                    diagnostic =
                        diagnostic.with_note(format!("{more} more lines are indented with tabs"))
                }
            }
            self.diagnostics.push(diagnostic);
        }
        self.out
    }
}

fn unmatched(span: Span, closer: Token<'_>) -> Diagnostic {
    let opener = closer.opener().unwrap_or(Token::LParen);
    Diagnostic::error(codes::E0007, format!("unmatched {closer}"))
        .with_label(span, format!("no {opener} is open here"))
        .with_help("remove it, or add the opening bracket it closes")
}

fn bad_dedent(span: Span, width: usize, [outer, inner]: [usize; 2]) -> Diagnostic {
    Diagnostic::error(
        codes::E0005,
        format!("dedent to {width} spaces matches no enclosing block"),
    )
    .with_label(span, format!("indented by {width} spaces"))
    .with_help(format!(
        "indent this line by {outer} or {inner} spaces, like the blocks around it"
    ))
}

/// An upper bound on the depth of the tree a logical line builds: within
/// each bracket group, every operator of a comma-separated part adds one
/// level, and a nested group adds its own depth plus one.
fn depth(line: &[Spanned<'_>]) -> usize {
    let mut groups = vec![Group::default()];
    for &(_, token, _) in line {
        if token.closer().is_some() {
            groups.push(Group::default());
        } else if token.opener().is_some() {
            Group::close(&mut groups);
        } else if let Some(group) = groups.last_mut() {
            if token.is_operator() {
                group.operators += 1;
            } else if matches!(token, Token::Comma | Token::Semicolon | Token::Question) {
                group.deepest = group.depth();
                group.operators = 0;
                group.nested = 0;
            }
        }
    }
    while groups.len() > 1 {
        Group::close(&mut groups);
    }
    groups.last().map_or(0, Group::depth)
}

/// One open bracket group of [`depth`]: the operators and the deepest nested
/// group of its current comma-separated part, and its deepest part so far.
#[derive(Default)]
struct Group {
    operators: usize,
    nested: usize,
    deepest: usize,
}

impl Group {
    fn depth(&self) -> usize {
        self.deepest.max(self.operators + self.nested)
    }

    /// Closes the innermost group (never the line itself) into its parent.
    fn close(groups: &mut Vec<Group>) {
        if groups.len() > 1
            && let (Some(inner), Some(outer)) = (groups.pop(), groups.last_mut())
        {
            outer.nested = outer.nested.max(inner.depth() + 1);
        }
    }
}

/// The slot of an opening bracket in [`Layout::open`].
fn kind_index(open: Token) -> usize {
    usize::from(open == Token::LBracket)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::lexer::lex;

    /// The layout of `source`, one word per token (`NL`, `INDENT`, `DEDENT`
    /// for the layout tokens), and its diagnostics.
    fn run(source: &str) -> (String, Vec<Diagnostic>) {
        let mut diagnostics = Vec::new();
        let tokens = lex(source, SourceId::USER, &mut diagnostics);
        let tokens = layout(source, SourceId::USER, tokens, &mut diagnostics);
        let words: Vec<String> = tokens
            .into_iter()
            .map(|(_, token, _)| match token {
                Token::Newline => "NL".to_string(),
                Token::Indent => "INDENT".to_string(),
                Token::Dedent => "DEDENT".to_string(),
                Token::TooDeep => "TOODEEP".to_string(),
                other => other.to_string().trim_matches('`').to_string(),
            })
            .collect();
        (words.join(" "), diagnostics)
    }

    fn codes_of(diagnostics: &[Diagnostic]) -> Vec<&str> {
        diagnostics.iter().map(|d| d.code.0).collect()
    }

    fn primary(diagnostic: &Diagnostic) -> std::ops::Range<usize> {
        diagnostic.span().map_or(0..0, |span| span.range())
    }

    #[test]
    fn blocks_open_and_close_and_blank_lines_vanish() {
        let source = "def F():\n  a\n\n  # note\n      # deeper note\n  if x:\n    b\nc\n";
        let (tokens, diagnostics) = run(source);
        assert!(diagnostics.is_empty());
        assert_eq!(
            tokens,
            "def F ( ) : NL INDENT a NL if x : NL INDENT b NL DEDENT DEDENT c NL"
        );
    }

    #[test]
    fn end_of_file_closes_every_block() {
        let (tokens, _) = run("a:\n b:\n  c");
        assert_eq!(tokens, "a : NL INDENT b : NL INDENT c NL DEDENT DEDENT");
    }

    #[test]
    fn line_breaks_inside_brackets_are_ignored() {
        let (tokens, diagnostics) = run("f(a,\n      b,\n c[\n1])\ng\n");
        assert!(diagnostics.is_empty());
        assert_eq!(tokens, "f ( a , b , c [ 1 ] ) NL g NL");
    }

    #[test]
    fn crlf_reads_like_lf() {
        let lf = "def F():\n  a\n  f(b,\n    c)\n";
        let crlf = lf.replace('\n', "\r\n");
        assert_eq!(run(&crlf).0, run(lf).0);
        assert!(run(&crlf).1.is_empty());
    }

    #[test]
    fn tabs_are_reported_once_and_read_as_spaces() {
        let (tokens, diagnostics) = run("def F():\n\ta\n\tb\n");
        assert_eq!(codes_of(&diagnostics), vec!["E0003"]);
        assert_eq!(primary(&diagnostics[0]), 9..10);
        assert_eq!(
            diagnostics[0].notes,
            vec!["1 more line is indented with tabs"]
        );
        assert_eq!(tokens, "def F ( ) : NL INDENT a NL b NL DEDENT");
    }

    #[test]
    fn dedent_to_no_enclosing_level_is_reported() {
        let (tokens, diagnostics) = run("a:\n    b:\n        c\n      d\n    e\n");
        assert_eq!(codes_of(&diagnostics), vec!["E0005"]);
        assert_eq!(primary(&diagnostics[0]), 20..26);
        assert_eq!(
            diagnostics[0].help.as_deref(),
            Some("indent this line by 4 or 8 spaces, like the blocks around it")
        );
        // `d` stays in the block of `c`.
        assert_eq!(
            tokens,
            "a : NL INDENT b : NL INDENT c NL d NL DEDENT e NL DEDENT"
        );
    }

    #[test]
    fn unclosed_paren_is_reported_where_it_was_opened() {
        let (tokens, diagnostics) = run("def A: seq(; x,\n   y\ndef B: z\n");
        assert_eq!(codes_of(&diagnostics), vec!["E0006"]);
        assert_eq!(primary(&diagnostics[0]), 10..11);
        // The missing `)` is supplied and the next `def` starts a new line.
        assert_eq!(tokens, "def A : seq ( ; x , y ) NL def B : z NL");
    }

    #[test]
    fn unclosed_brackets_at_end_of_file_are_closed_innermost_first() {
        let (tokens, diagnostics) = run("f(a[1\n");
        // One report, at the outermost bracket left open.
        assert_eq!(codes_of(&diagnostics), vec!["E0006"]);
        assert_eq!(primary(&diagnostics[0]), 1..2);
        assert_eq!(
            diagnostics[0].notes,
            ["a bracket opened after it is not closed either"]
        );
        assert_eq!(tokens, "f ( a [ 1 ] ) NL");
    }

    #[test]
    fn mismatched_closer_reports_the_bracket_left_open() {
        let (tokens, diagnostics) = run("f(A[1)\n");
        assert_eq!(codes_of(&diagnostics), vec!["E0006"]);
        assert_eq!(primary(&diagnostics[0]), 3..4);
        let second = diagnostics[0].labels.get(1).map(|l| l.span.range());
        assert_eq!(second, Some(5..6));
        assert_eq!(tokens, "f ( A [ 1 ] ) NL");
    }

    #[test]
    fn stray_closer_is_reported_and_dropped() {
        let (tokens, diagnostics) = run("f(a))\n  )\n) g\n");
        assert_eq!(codes_of(&diagnostics), vec!["E0007", "E0007", "E0007"]);
        assert_eq!(primary(&diagnostics[0]), 4..5);
        assert_eq!(tokens, "f ( a ) NL g NL");
    }

    fn depth_of(source: &str) -> usize {
        let mut diagnostics = Vec::new();
        depth(&lex(source, SourceId::USER, &mut diagnostics))
    }

    #[test]
    fn depth_bounds_the_tree_of_a_line() {
        assert_eq!(depth_of("x"), 0);
        assert_eq!(depth_of("a + b + c + d"), 3);
        assert_eq!(depth_of("not not not x"), 3);
        assert_eq!(depth_of("((x))"), 2);
        assert_eq!(depth_of("f(a + b, c + d + e)"), 3);
        assert_eq!(depth_of("a * (b + (c - d)) + e"), 6);
        assert_eq!(depth_of("cond(A[P1] > 2?; f(x), g, h)"), 3);
    }

    #[test]
    fn a_line_nested_too_deeply_becomes_one_token() {
        let deep = format!("a: f({}1)\nb\n", "-".repeat(MAX_DEPTH));
        let (tokens, diagnostics) = run(&deep);
        assert_eq!(codes_of(&diagnostics), vec!["E0008"]);
        assert_eq!(primary(&diagnostics[0]), 0..1);
        assert_eq!(tokens, "TOODEEP NL b NL");
        let wide = format!("f({})\n", "-1, ".repeat(MAX_DEPTH));
        assert!(run(&wide).1.is_empty());
    }
}
