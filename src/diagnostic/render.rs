//! Rendering diagnostics as text, with ariadne.
//!
//! This is the only file that knows about ariadne. [`Sources`] holds the
//! texts that spans point into (the user's file and the stdlib files) with
//! their display names; [`render`] draws one diagnostic with byte-offset
//! spans, in colour only when asked (the CLI asks when stderr is a terminal).
//! Diagnostics without a label (bad input, for instance) are written as a
//! plain `error[E0601]: ...` line followed by their help and notes.

use std::collections::HashMap;
use std::fmt::Write as _;

use ariadne::{Color, Config, IndexType, Label, Report, ReportKind, Source};

use super::{Diagnostic, Severity};
use crate::span::{SourceId, Span};

/// The source texts spans may point into, with the names shown to users.
#[derive(Default)]
pub struct Sources {
    entries: HashMap<SourceId, (String, Source<String>)>,
}

impl Sources {
    pub fn new() -> Sources {
        Sources::default()
    }

    /// Registers `text` under `id`, shown as `name` (usually a path).
    pub fn add(&mut self, id: SourceId, name: impl Into<String>, text: impl Into<String>) {
        self.entries
            .insert(id, (name.into(), Source::from(text.into())));
    }
}

impl ariadne::Cache<SourceId> for &Sources {
    type Storage = String;

    fn fetch(&mut self, id: &SourceId) -> Result<&Source<String>, impl std::fmt::Debug> {
        self.entries
            .get(id)
            .map(|(_, source)| source)
            .ok_or_else(|| format!("no source registered for {id:?}"))
    }

    fn display<'a>(&self, id: &'a SourceId) -> Option<impl std::fmt::Display + 'a> {
        self.entries.get(id).map(|(name, _)| name.clone())
    }
}

/// Draws one diagnostic as text; `color` adds ANSI colours.
pub fn render(diagnostic: &Diagnostic, sources: &Sources, color: bool) -> String {
    match diagnostic.span() {
        Some(primary) if sources.entries.contains_key(&primary.source) => {
            render_with_source(diagnostic, primary, sources, color)
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
    let mut report = Report::build(kind, primary)
        .with_config(config)
        .with_code(diagnostic.code)
        .with_message(&diagnostic.message);
    for (i, label) in diagnostic.labels.iter().enumerate() {
        if !sources.entries.contains_key(&label.span.source) {
            continue;
        }
        let mut drawn = Label::new(label.span).with_message(&label.message);
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
    let mut out = Vec::new();
    match report.finish().write(sources, &mut out) {
        Ok(()) => String::from_utf8_lossy(&out).into_owned(),
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
