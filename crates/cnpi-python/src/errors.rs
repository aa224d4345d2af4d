//! What goes wrong, as Python sees it: the exceptions (`CnpiError` and its
//! subclasses), diagnostics as [`Diagnostic`] objects, and [`guarded`],
//! which every entry point runs its work in, so that a Rust panic becomes
//! an `InternalError` instead of unwinding into (or aborting) the
//! interpreter.

use std::panic::{AssertUnwindSafe, catch_unwind};

use cnpi::diagnostic::{self, Severity, Sources, render};
use cnpi::span::SourceId;
use pyo3::create_exception;
use pyo3::exceptions::PyException;
use pyo3::prelude::*;
use pyo3::types::PyList;

create_exception!(
    cnpi,
    CnpiError,
    PyException,
    "Every error cnpi raises (besides TypeError for a Python value it cannot take)."
);
create_exception!(
    cnpi,
    CompileError,
    CnpiError,
    "A program that does not compile: `.diagnostics` (what `check` returns) and `.code`, the first error's code."
);
create_exception!(
    cnpi,
    RunError,
    CnpiError,
    "A run that failed (or an input that does not read): `.code`, `.message`, `.line` (None when the error has no place in the source) and `.trace` (from `Program.trace`: the steps up to the error; else None)."
);
create_exception!(
    cnpi,
    InternalError,
    CnpiError,
    "A bug in cnpi: a panic inside the extension, caught before it reached Python."
);

/// One diagnostic of `cnpi.check` or of a `CompileError`.
#[pyclass(module = "cnpi", frozen, get_all)]
#[derive(Clone)]
pub struct Diagnostic {
    /// The stable code, such as `"E0101"` (`cnpic explain CODE` explains it).
    code: String,
    /// `"error"` or `"warning"`.
    severity: String,
    message: String,
    /// The 1-based line and column (in characters) of the primary label in
    /// the user's source, or None (a diagnostic about the input or about a
    /// standard library file).
    line: Option<usize>,
    column: Option<usize>,
    /// The help line, if any.
    help: Option<String>,
    /// The diagnostic drawn as `cnpic` prints it.
    rendered: String,
}

#[pymethods]
impl Diagnostic {
    fn __repr__(&self) -> String {
        let at = match (self.line, self.column) {
            (Some(line), Some(column)) => format!(" at {line}:{column}"),
            _ => String::new(),
        };
        format!(
            "<Diagnostic {} {}{at}: {}>",
            self.severity, self.code, self.message
        )
    }

    fn __str__(&self) -> String {
        self.rendered.clone()
    }
}

impl Diagnostic {
    /// `diagnostic` with its place in `text`, the user's source (None when
    /// not known).
    pub fn new(diagnostic: &diagnostic::Diagnostic, sources: &Sources, text: Option<&str>) -> Self {
        let place = diagnostic
            .span()
            .filter(|span| span.source == SourceId::USER);
        let (line, column) = match (place, text) {
            (Some(span), Some(text)) if span.start <= text.len() => {
                let line = text.as_bytes()[..span.start]
                    .iter()
                    .filter(|&&b| b == b'\n')
                    .count()
                    + 1;
                (Some(line), Some(diagnostic::column(text, span.start)))
            }
            _ => (None, None),
        };
        Diagnostic {
            code: diagnostic.code.to_string(),
            severity: match diagnostic.severity {
                Severity::Error => "error",
                Severity::Warning => "warning",
            }
            .to_string(),
            message: diagnostic.message.clone(),
            line,
            column,
            help: diagnostic.help.clone(),
            rendered: render(diagnostic, sources, false),
        }
    }

    pub fn is_error(&self) -> bool {
        self.severity == "error"
    }
}

/// Diagnostics a compilation reported, with the sources they are drawn
/// against: what `check` returns and a `CompileError` carries.
#[derive(Default)]
pub struct Reported(pub Vec<Diagnostic>);

impl Reported {
    /// Takes `found`, placed in `text` (the user's source).
    pub fn add(&mut self, found: &[diagnostic::Diagnostic], sources: &Sources, text: Option<&str>) {
        (self.0).extend(found.iter().map(|d| Diagnostic::new(d, sources, text)));
    }

    /// The `CompileError` of these diagnostics (its message: every one drawn).
    pub fn into_error(self, py: Python) -> PyErr {
        let code = self.0.iter().find(|d| d.is_error()).map(|d| d.code.clone());
        let text: Vec<&str> = self.0.iter().map(|d| d.rendered.as_str()).collect();
        let message = if text.is_empty() {
            "the program does not compile".to_string()
        } else {
            text.concat()
        };
        let error = CompileError::new_err(message);
        let value = error.value(py);
        let set = || -> PyResult<()> {
            value.setattr("diagnostics", PyList::new(py, self.0)?)?;
            value.setattr("code", code)
        };
        set().err().unwrap_or(error)
    }
}

/// The `RunError` of a run's (or an input's) diagnostic; its line is in
/// `text`, the user's source, when the diagnostic points there.
pub fn run_error(
    py: Python,
    diagnostic: &diagnostic::Diagnostic,
    sources: &Sources,
    text: Option<&str>,
    context: &str,
) -> PyErr {
    let shown = Diagnostic::new(diagnostic, sources, text);
    let error = RunError::new_err(format!("{context}{}", shown.rendered.trim_end()));
    let value = error.value(py);
    let set = || -> PyResult<()> {
        value.setattr("code", &shown.code)?;
        value.setattr("message", &shown.message)?;
        value.setattr("line", shown.line)?;
        value.setattr("trace", py.None())
    };
    set().err().unwrap_or(error)
}

/// Runs `work`; a panic inside it becomes an `InternalError`.
pub fn guarded<T>(work: impl FnOnce() -> PyResult<T>) -> PyResult<T> {
    catch_unwind(AssertUnwindSafe(work)).unwrap_or_else(|payload| Err(panicked(payload.as_ref())))
}

/// The `InternalError` of a panic's payload.
pub fn panicked(payload: &(dyn std::any::Any + Send)) -> PyErr {
    let what = (payload.downcast_ref::<&str>().map(|s| s.to_string()))
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "no message".to_string());
    InternalError::new_err(format!(
        "internal error: cnpi panicked ({what}); this is a bug in cnpi, please report it"
    ))
}
