//! The front end in one call: source text to a checked program.
//!
//! [`compile`] registers the user's file and the stdlib files as
//! [`Sources`] (so every diagnostic can be drawn), parses, and checks when
//! parsing succeeded. It returns everything the caller needs to report
//! and to run; it never prints.

use crate::check;
use crate::diagnostic::{Diagnostic, Sources, has_errors};
use crate::program::Program;
use crate::span::SourceId;
use crate::stdlib;
use crate::syntax;

/// The result of compiling one file.
pub struct Compilation {
    /// The user's file and the stdlib, for rendering diagnostics.
    pub sources: Sources,
    /// Errors and warnings of every phase, in the order they were found.
    pub diagnostics: Vec<Diagnostic>,
    /// The checked program, present exactly when there are no errors.
    pub program: Option<Program>,
}

/// The user's file `name` with text `text`, and the stdlib files: what
/// diagnostics about a program are drawn against.
pub fn sources(name: &str, text: &str) -> Sources {
    let mut sources = Sources::new();
    sources.add(SourceId::USER, name, text);
    for file in stdlib::files() {
        sources.add(file.id, file.name, file.text);
    }
    sources
}

/// Parses and checks `text` (shown as `name`), starting from `entry` or the
/// file's unique root definition.
pub fn compile(name: &str, text: &str, entry: Option<&str>) -> Compilation {
    let sources = sources(name, text);
    let (tree, mut diagnostics) = syntax::parse(text, SourceId::USER);
    let mut program = None;
    if !has_errors(&diagnostics) {
        let (checked, found) = check::check(&tree, entry);
        diagnostics.extend(found);
        program = checked;
    }
    Compilation {
        sources,
        diagnostics,
        program,
    }
}
