//! Rendering diagnostics as text, with ariadne.
//!
//! This is the only file that knows about ariadne. [`Sources`] holds the
//! texts that spans point into (the user's file and the stdlib files) with
//! their display names; [`render`] draws one diagnostic with byte-offset
//! spans, in colour only when asked (the CLI asks when stderr is a terminal).
//! Diagnostics without a label (bad input, for instance) are written as a
//! plain `error[E0601]: ...` line followed by their help and notes. Very
//! long lines are cut around the labels first (see [`super::cut`]).

use std::borrow::Cow;
use std::fmt::Write as _;
use std::sync::OnceLock;

use ariadne::{Color, Config, IndexType, Label, Report, ReportKind, Source};

use super::cut::{Cut, column};
use super::{Diagnostic, Severity};
use crate::span::{SourceId, Span};

/// The source texts spans may point into, with the names shown to users.
/// A text is prepared for drawing (its lines found) only when a diagnostic
/// first shows it: a run with no diagnostic pays nothing for its sources.
/// Kept in a list: a handful of entries, each added at every start, where
/// a map's hashing and growth cost 1,200 to 1,500 instructions an entry.
#[derive(Default)]
pub struct Sources {
    entries: Vec<(SourceId, Entry)>,
}

/// One registered source: its name, its text as given (the stdlib's
/// borrowed, not copied), and the text prepared for ariadne, made when
/// first needed.
struct Entry {
    name: String,
    text: Cow<'static, str>,
    source: OnceLock<Source<String>>,
}

impl Entry {
    fn source(&self) -> &Source<String> {
        (self.source).get_or_init(|| Source::from(only_newlines_break(self.text.to_string())))
    }
}

impl Sources {
    pub fn new() -> Sources {
        Sources::default()
    }

    /// Registers `text` under `id`, shown as `name` (usually a path).
    pub fn add(
        &mut self,
        id: SourceId,
        name: impl Into<String>,
        text: impl Into<Cow<'static, str>>,
    ) {
        let entry = Entry {
            name: name.into(),
            text: text.into(),
            source: OnceLock::new(),
        };
        match self.entries.iter_mut().find(|(known, _)| *known == id) {
            Some((_, known)) => *known = entry,
            None => self.entries.push((id, entry)),
        }
    }

    /// The entry registered under `id`.
    fn get(&self, id: &SourceId) -> Option<&Entry> {
        (self.entries.iter()).find_map(|(known, entry)| (known == id).then_some(entry))
    }
}

/// `text` with every character ariadne would take for a line break but
/// the lexer does not (a bare CR, a vertical tab, a form feed, NEL, the
/// Unicode line and paragraph separators) replaced by spaces of the same
/// byte length, so that both count lines alike and byte offsets stay.
fn only_newlines_break(text: String) -> String {
    let breaks = |c: char| {
        matches!(
            c,
            '\r' | '\u{0B}' | '\u{0C}' | '\u{85}' | '\u{2028}' | '\u{2029}'
        )
    };
    if !text.contains(breaks) {
        return text;
    }
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\r' && chars.peek() == Some(&'\n') {
            out.push(c);
        } else if breaks(c) {
            out.extend(std::iter::repeat_n(' ', c.len_utf8()));
        } else {
            out.push(c);
        }
    }
    out
}

/// The sources as one diagnostic shows them: one of them may be cut.
struct View<'a> {
    sources: &'a Sources,
    cut: Option<(SourceId, Source<String>)>,
}

impl ariadne::Cache<SourceId> for View<'_> {
    type Storage = String;

    fn fetch(&mut self, id: &SourceId) -> Result<&Source<String>, impl std::fmt::Debug> {
        match &self.cut {
            Some((cut_id, source)) if cut_id == id => Ok(source),
            _ => self
                .sources
                .get(id)
                .map(Entry::source)
                .ok_or_else(|| format!("no source registered for {id:?}")),
        }
    }

    fn display<'a>(&self, id: &'a SourceId) -> Option<impl std::fmt::Display + 'a> {
        self.sources.get(id).map(|entry| entry.name.clone())
    }
}

/// Draws one diagnostic as text; `color` adds ANSI colours.
/// A span that does not fit its source (past its end, or cutting a
/// character) is a bug elsewhere; such a label is left out, and a
/// diagnostic whose first label does not fit is drawn without its source,
/// rather than panicking.
pub fn render(diagnostic: &Diagnostic, sources: &Sources, color: bool) -> String {
    let fits = |span: Span| match sources.get(&span.source) {
        Some(entry) => {
            let text = entry.source().text();
            span.start <= span.end && text.get(span.start..span.end).is_some()
        }
        None => false,
    };
    match diagnostic.span() {
        Some(primary) if fits(primary) => {
            let mut fitting = diagnostic.clone();
            (fitting.labels)
                .retain(|label| fits(label.span) || sources.get(&label.span.source).is_none());
            render_with_source(&fitting, primary, sources, color)
        }
        _ => render_plain(diagnostic),
    }
}

fn render_with_source(
    diagnostic: &Diagnostic,
    primary: Span,
    sources: &Sources,
    color: bool,
) -> String {
    let kind = match diagnostic.severity {
        Severity::Error => ReportKind::Error,
        Severity::Warning => ReportKind::Warning,
    };
    let config = Config::default()
        .with_index_type(IndexType::Byte)
        .with_color(color);
    let Some(entry) = sources.get(&primary.source) else {
        return render_plain(diagnostic);
    };
    let (name, source) = (&entry.name, entry.source());
    let text = source.text();
    let points: Vec<usize> = (diagnostic.labels.iter())
        .filter(|label| label.span.source == primary.source)
        .flat_map(|label| [label.span.start, label.span.end])
        .collect();
    let cut = Cut::new(text, &points);
    let place = |span: Span| match &cut {
        Some(cut) if span.source == primary.source => {
            Span::new(span.source, cut.map(span.start), cut.map(span.end))
        }
        _ => span,
    };
    let mut report = Report::build(kind, place(primary))
        .with_config(config)
        .with_code(diagnostic.code)
        .with_message(&diagnostic.message);
    for (i, label) in diagnostic.labels.iter().enumerate() {
        if sources.get(&label.span.source).is_none() {
            continue;
        }
        let mut drawn = Label::new(place(label.span)).with_message(&label.message);
        if color {
            drawn = drawn.with_color(if i == 0 { Color::Red } else { Color::Blue });
        }
        report = report.with_label(drawn.with_order(i as i32));
    }
    if let Some(help) = &diagnostic.help {
        report = report.with_help(help);
    }
    for note in &diagnostic.notes {
        report = report.with_note(note);
    }
    // The header names the line and column of the cut text: put back the
    // column of the original one.
    let header = cut.as_ref().map(|cut| {
        let before = &text.as_bytes()[..primary.start.min(text.len())];
        let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
        let at = |text: &str, offset| format!("{name}:{line}:{}", column(text, offset));
        (
            at(&cut.text, cut.map(primary.start)),
            at(text, primary.start),
        )
    });
    let view = View {
        sources,
        cut: cut.map(|cut| (primary.source, Source::from(cut.text))),
    };
    let mut out = Vec::new();
    match report.finish().write(view, &mut out) {
        Ok(()) => {
            let drawn = String::from_utf8_lossy(&out).into_owned();
            match header {
                Some((shown, real)) => drawn.replacen(&shown, &real, 1),
                None => drawn,
            }
        }
        // Writing to a Vec cannot fail on I/O; a source ariadne cannot
        // fetch falls back to the plain form rather than losing the message.
        Err(_) => render_plain(diagnostic),
    }
}

fn render_plain(diagnostic: &Diagnostic) -> String {
    let kind = match diagnostic.severity {
        Severity::Error => "Error",
        Severity::Warning => "Warning",
    };
    let mut out = format!("[{}] {kind}: {}\n", diagnostic.code, diagnostic.message);
    if let Some(help) = &diagnostic.help {
        let _ = writeln!(out, "  Help: {help}");
    }
    for note in &diagnostic.notes {
        let _ = writeln!(out, "  Note: {note}");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostic::codes;

    /// A span cutting a character (issue 29: a span of another text drawn
    /// against the user's file) is left out, never a panic.
    #[test]
    fn a_span_that_does_not_fit_its_source_is_left_out() {
        let mut sources = Sources::new();
        sources.add(SourceId::USER, "u.cnpi", "# é\nenv ram(i = 0)\n");
        let inside = Span::new(SourceId::USER, 0, 3);
        let error = Diagnostic::error(codes::E0609, "m").with_label(inside, "cuts the é");
        assert!(render(&error, &sources, false).starts_with("[E0609] Error: m\n"));
        let past = Span::new(SourceId::USER, 5, 500);
        let error = Diagnostic::error(codes::E0609, "m")
            .with_label(Span::new(SourceId::USER, 5, 8), "env")
            .with_label(past, "past the end");
        let drawn = render(&error, &sources, false);
        assert!(
            drawn.contains("env") && !drawn.contains("past the end"),
            "{drawn}"
        );
    }

    /// A bare CR is no line break to the lexer, so the report names the
    /// same line the parser counted.
    #[test]
    fn a_bare_carriage_return_does_not_start_a_line() {
        let text = "env array(i = 0)\rdef F: BAD\n";
        let mut sources = Sources::new();
        sources.add(SourceId::USER, "cr.cnpi", text);
        let at = text.find("BAD").unwrap();
        let diagnostic = Diagnostic::error(codes::E0101, "unknown")
            .with_label(Span::new(SourceId::USER, at, at + 3), "here");
        let drawn = render(&diagnostic, &sources, false);
        assert!(drawn.contains(&format!("cr.cnpi:1:{}", at + 1)), "{drawn}");
    }
}
