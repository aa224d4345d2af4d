//! The Python package `cnpi` (`pip install ./crates/cnpi-python`, built by
//! maturin): the library crates called in process, as `cnpic` calls them.
//!
//! [`program`] is a compiled program (`cnpi.compile`, `cnpi.load`) and its
//! runs; [`trace`] a recorded run; [`values`] turns Python values into the
//! JSON inputs `cnpic run --input` reads and results back; [`errors`] the
//! exceptions, diagnostics as objects and the guard that turns a panic into
//! an exception; [`interrupt`] stops a run on Ctrl-C. The module-level functions below are `check`,
//! `combinatorize` and `learn`. The contract is
//! `shared/spec/python.md`; the stubs users' tools read are `cnpi.pyi`.

mod errors;
mod interrupt;
mod learn;
mod program;
mod reference;
mod trace;
mod values;

use std::path::{Path, PathBuf};

use cnpi::compile::{compile as compile_source, conversion_diagnostics, convert, printed_agrees};
use cnpi::diagnostic::Diagnostic as Found;
use cnpi_neural::memory::DEFAULT_SEED;
use pyo3::prelude::*;

use errors::{CnpiError, CompileError, Diagnostic, InternalError, Reported, RunError, guarded};
use program::Program;
use trace::Trace;

/// The detector cache the environment names: the one place the package
/// reads `CNPI_CACHE_DIR`, `XDG_CACHE_HOME` and `HOME`, handing the
/// library the folder as a value.
fn detector_cache() -> cnpi_neural::detector::Cache {
    cnpi_neural::detector::Cache::located(|name| std::env::var_os(name))
}

/// When the network's machine code is made: the one place the package
/// reads `CNPI_JIT` (`0`, `eager`; else lazy), handing the library the
/// mode.
fn jit_mode() -> cnpi_neural::runtime::JitMode {
    cnpi_neural::runtime::JitMode::asked(|name| std::env::var_os(name))
}

/// A source named by `source_or_path`: a path (a `PathLike`, or a `str`
/// of one line naming an existing file or ending in `.cnpi`) is read,
/// anything else is the source itself.
/// Returns the name diagnostics show, the text, and the path if any.
fn source(value: &Bound<'_, PyAny>) -> PyResult<(String, String, Option<PathBuf>)> {
    let path = match value.extract::<String>() {
        Ok(text) if text.contains('\n') => return Ok(("<string>".into(), text, None)),
        Ok(text) if Path::new(&text).is_file() || text.ends_with(".cnpi") => PathBuf::from(text),
        Ok(text) => return Ok(("<string>".into(), text, None)),
        Err(_) => value.extract::<PathBuf>()?,
    };
    let text = read(&path)?;
    Ok((path.display().to_string(), text, Some(path)))
}

/// The text of the source file `path`, or the CompileError of E0901.
fn read(path: &Path) -> PyResult<String> {
    cnpi::read::text(path).map_err(|error| {
        let message = format!("cannot read `{}`: {error}", path.display());
        Python::attach(|py| {
            let mut reported = Reported::default();
            let diagnostic = Found::error(cnpi::diagnostic::codes::E0901, message);
            reported.add(&[diagnostic], &cnpi::diagnostic::Sources::new(), None);
            reported.into_error(py)
        })
    })
}

/// Compiles the source text `source` (for the network: combinatorized if it
/// has normal programs, its program memory built, its detectors trained or
/// taken from the cache), starting from `entry` or the definition no other
/// refers to. `name` is the file name diagnostics show; `seed` that of the
/// memory's keys and detector training (`cnpic run --seed`). Raises
/// CompileError.
#[pyfunction]
#[pyo3(signature = (source, entry=None, *, name="<string>", seed=DEFAULT_SEED))]
fn compile(
    py: Python,
    source: String,
    entry: Option<String>,
    name: &str,
    seed: u64,
) -> PyResult<Program> {
    guarded(|| Program::open(py, None, name, source, entry, seed))
}

/// Loads the program file `path`: a `.cnpi` source (compiled as `compile`
/// does) or a program memory built by `cnpic build` (`.cnpim`; `entry` is
/// then NAME or PROGRAM:NAME). Raises CompileError.
#[pyfunction]
#[pyo3(signature = (path, entry=None, *, seed=DEFAULT_SEED))]
fn load(py: Python, path: PathBuf, entry: Option<String>, seed: u64) -> PyResult<Program> {
    guarded(|| {
        let name = path.display().to_string();
        let text = if cnpi_neural::cnpim::is_memory_file(&path) {
            String::new()
        } else {
            read(&path)?
        };
        Program::open(py, Some(&path), &name, text, entry, seed)
    })
}

/// Checks a program (source text, or the path of a `.cnpi` file) as `cnpic
/// check` does, with the warnings its conversion for the network draws;
/// nothing runs. Returns every diagnostic (errors and warnings) as
/// Diagnostic objects; an empty list for a clean program.
#[pyfunction]
#[pyo3(signature = (source_or_path, entry=None))]
fn check(source_or_path: &Bound<'_, PyAny>, entry: Option<String>) -> PyResult<Vec<Diagnostic>> {
    guarded(|| {
        let (name, text, _) = source(source_or_path)?;
        let compilation = compile_source(&name, &text, entry.as_deref());
        let mut reported = Reported::default();
        reported.add(&compilation.diagnostics, &compilation.sources, Some(&text));
        if let Some(program) = compilation.program {
            let compiled = cnpi::compile::Compiled {
                program,
                sources: compilation.sources,
                text: text.clone(),
            };
            let warnings = conversion_diagnostics(&compiled, &name);
            reported.add(&warnings, &compiled.sources, Some(&text));
        }
        Ok(reported.0)
    })
}

/// A program's normal programs converted to appliers (`cnpic
/// combinatorize`): the text of the combinatory program. Takes source text
/// or the path of a `.cnpi` file; raises CompileError.
#[pyfunction]
#[pyo3(signature = (source_or_path, entry=None))]
fn combinatorize(
    py: Python,
    source_or_path: &Bound<'_, PyAny>,
    entry: Option<String>,
) -> PyResult<String> {
    guarded(|| {
        let (name, text, _) = source(source_or_path)?;
        let compiled = learn::compiled(py, &name, &text, entry.as_deref())?;
        let checked = convert(&compiled, &name).and_then(|(converted, _)| {
            printed_agrees(&converted, &name).map_err(|internal| vec![internal])?;
            Ok(converted)
        });
        match checked {
            Ok(converted) => Ok(converted.text),
            Err(diagnostics) => {
                let mut reported = Reported::default();
                reported.add(&diagnostics, &compiled.sources, Some(&compiled.text));
                Err(reported.into_error(py))
            }
        }
    })
}

/// Panics inside the extension, to test that a panic reaches Python as an
/// InternalError (a test hook, not part of the API).
#[pyfunction]
fn _panic_for_tests() -> PyResult<()> {
    guarded(|| panic!("the test hook panics on purpose"))
}

/// cnpi: the Combinatory Neural Programmer-Interpreter, in process.
///
/// Compile a program once (`compile`, `load`), run it on the network or on
/// the exact reference interpreter (`Program.run`, `Program.run_many`),
/// record a run (`Program.trace`), check and combinatorize programs, and
/// fill a sketch's holes from examples (`learn`): what `cnpic run`,
/// `check`, `combinatorize` and `learn` do, with the same answers. See
/// docs/python.md.
#[pymodule(name = "cnpi")]
fn cnpi_module(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("CnpiError", py.get_type::<CnpiError>())?;
    m.add("CompileError", py.get_type::<CompileError>())?;
    m.add("RunError", py.get_type::<RunError>())?;
    m.add("InternalError", py.get_type::<InternalError>())?;
    m.add_class::<Diagnostic>()?;
    m.add_class::<Program>()?;
    m.add_class::<Trace>()?;
    m.add_function(wrap_pyfunction!(compile, m)?)?;
    m.add_function(wrap_pyfunction!(load, m)?)?;
    m.add_function(wrap_pyfunction!(check, m)?)?;
    m.add_function(wrap_pyfunction!(combinatorize, m)?)?;
    m.add_function(wrap_pyfunction!(learn::learn, m)?)?;
    m.add_function(wrap_pyfunction!(_panic_for_tests, m)?)?;
    Ok(())
}
