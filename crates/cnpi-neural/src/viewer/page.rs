//! The page: one HTML file holding the viewer (`page.html`: its style and
//! script) and the recorded run, compressed.
//!
//! Two blocks of data are inlined as base64 of zlib streams, which the page
//! inflates with the browser's own `DecompressionStream`: the steps as
//! little-endian columns (owner, target and depth as `u32`; detector and
//! numbers as `u16`; combinator, slot and flags as `u8`) and one JSON
//! object with everything else (names of rows, combinators, slots and
//! detectors; where each applier is written; the sources; the core's
//! numbers; the world's chunks). Nothing is fetched: the page opens from
//! disk with no network.

use std::io::Write;
use std::ops::Range;
use std::path::Path;

use base64::Engine;
use cnpi::diagnostic::{Diagnostic, codes};
use cnpi::plan::AsWritten;
use cnpi::program::Slot;
use cnpi::program::hidden::{Local, as_written};
use cnpi::span::Span;
use flate2::Compression;
use flate2::write::ZlibEncoder;
use serde_json::{Value, json};

use super::Recorder;
use super::world::CHUNK;
use crate::memory::{Memory, RowKind};

/// The viewer: style, markup and script, with a placeholder for the data.
const TEMPLATE: &str = include_str!("page.html");

/// What the page says about the run besides its steps.
pub struct Page<'a> {
    /// The program's file, as given.
    pub title: &'a str,
    /// The command that made the page.
    pub command: &'a str,
    pub memory: &'a Memory,
    pub unit: usize,
    /// For a file of normal programs: the file as written, where each
    /// part of the combinatory form the memory holds came from in it, and
    /// whose locals the hidden registers are.
    pub written: Option<&'a AsWritten>,
    /// The run's result as `cnpic run` prints it, or its error.
    pub outcome: &'a str,
    /// Whether the plain networks ran rather than their exact caches.
    pub plain: bool,
}

/// Writes the page of `recorder`'s run to `path`, atomically; E0903 when
/// it cannot be written.
pub fn write(path: &Path, page: &Page, recorder: &Recorder) -> Result<(), Diagnostic> {
    let html = render(page, recorder);
    cnpi::files::write_atomic(path, html.as_bytes()).map_err(|error| {
        Diagnostic::error(
            codes::E0903,
            format!("cannot write the trace page `{}`: {error}", path.display()),
        )
    })
}

/// The page's HTML.
pub fn render(page: &Page, recorder: &Recorder) -> String {
    let meta = meta(page, recorder).to_string();
    TEMPLATE
        .replace("@@TITLE@@", &escape(page.title))
        .replacen("@@STEPS@@", &packed(&steps(recorder)), 1)
        .replacen("@@META@@", &packed(meta.as_bytes()), 1)
}

/// Base64 of the zlib stream of `bytes`.
fn packed(bytes: &[u8]) -> String {
    let mut encoder = ZlibEncoder::new(Vec::new(), Compression::default());
    // Writing to a vector cannot fail.
    let compressed = encoder
        .write_all(bytes)
        .and_then(|()| encoder.finish())
        .unwrap_or_default();
    base64::engine::general_purpose::STANDARD.encode(compressed)
}

/// `<`, `>` and `&` as entities, for the page's title.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// The step columns, one after another.
fn steps(recorder: &Recorder) -> Vec<u8> {
    let c = &recorder.columns;
    let mut bytes = Vec::with_capacity(c.owner.len() * 19);
    for column in [&c.owner, &c.target, &c.depth] {
        bytes.extend(column.iter().flat_map(|v| v.to_le_bytes()));
    }
    for column in [&c.detector, &c.numbers] {
        bytes.extend(column.iter().flat_map(|v| v.to_le_bytes()));
    }
    for column in [&c.kind, &c.slot, &c.flags] {
        bytes.extend_from_slice(column);
    }
    bytes
}

/// The 1-based line of byte `at` of `text`.
fn line(text: &str, at: usize) -> usize {
    let at = at.min(text.len());
    text.as_bytes()[..at]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
        + 1
}

/// The program whose local the register `name` is (`_1_q`: a local of the
/// file's definition 1), for a file of normal programs.
fn owner<'p>(page: &Page<'p>, name: &str) -> Option<&'p str> {
    let local = Local::parse(name)?;
    let programs = &page.written?.programs;
    programs.get(local.program).map(String::as_str)
}

/// Lines `[first, last]` of `range` in `text`.
fn lines(text: &str, range: &Range<usize>) -> Value {
    let last = range.end.max(range.start + 1) - 1;
    json!([line(text, range.start), line(text, last)])
}

fn meta(page: &Page, recorder: &Recorder) -> Value {
    let memory = page.memory;
    let unit = memory.units.get(page.unit);
    let source = unit.map_or("", |u| u.source.as_str());
    let origin = |span: Span| {
        let as_written = page.written?;
        let at = as_written.origins.locate(span)?;
        Some(lines(&as_written.text, &(at.start..at.end)))
    };
    let rows: Vec<Value> = (memory.rows.iter())
        .map(|row| {
            let ours = row.unit == Some(page.unit);
            let at = ours.then(|| lines(source, &(row.span.start..row.span.end)));
            let kind = match row.kind {
                RowKind::Applier => "applier",
                RowKind::Act(_) => "act",
                RowKind::Builtin(_) => "builtin",
                RowKind::Combinator(_) | RowKind::Defined => "combinator",
            };
            let written = if ours { origin(row.span) } else { None };
            json!([row.name, kind, at, written])
        })
        .collect();
    let numbers: Vec<Value> = (recorder.numbers.iter())
        .map(|n| json!([n.ret, n.scores]))
        .collect();
    let mut sources = vec![json!({"name": page.title, "text": source, "key": 2})];
    if let Some(as_written) = page.written {
        let text = &as_written.text;
        sources.insert(0, json!({"name": page.title, "text": text, "key": 3}));
        sources[1]["name"] = format!("{} (combinatorized)", page.title).into();
    }
    json!({
        "title": page.title,
        "command": page.command,
        "outcome": page.outcome,
        "ended": recorder.ended,
        "plain": page.plain,
        "first": recorder.first(),
        "recorded": recorder.recorded(),
        "steps": recorder.steps(),
        "left": recorder.left_out(),
        "frames": recorder.world.frames(),
        "chunk": CHUNK,
        "rows": rows,
        "kinds": recorder.kinds.iter().map(|(_, name)| name).collect::<Vec<_>>(),
        "slots": Slot::ALL.map(Slot::name),
        "detectors": memory.detectors.iter().map(|d| &d.text).collect::<Vec<_>>(),
        "pointers": unit.map(|u| u.declared.registers.iter().map(|p| as_written(&p.name)).collect::<Vec<_>>()),
        "owners": unit.map(|u| u.declared.registers.iter().map(|p| owner(page, &p.name)).collect::<Vec<_>>()),
        "numbers": numbers,
        "sources": sources,
        "world": recorder.world.to_json(),
    })
}
