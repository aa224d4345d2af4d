//! `cnpi.learn`: a sketch's holes filled from examples, by the `learn` of
//! `cnpic learn` (`cnpi_rl::sketch::driver`); and [`compiled`], a source
//! compiled (not loaded for an engine) with its errors as a CompileError.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{RecvTimeoutError, channel};
use std::time::Duration;

use cnpi::compile::Compiled;
use cnpi::env::Declarations;
use cnpi::exec::limits::Interrupt;
use cnpi::plan::{Source, compile_reporting};
use cnpi_rl::sketch::blanks::CHECK_RUNS;
use cnpi_rl::sketch::driver::{self, Request};
use cnpi_rl::sketch::examples;
use cnpi_rl::sketch::learn::Method;
use pyo3::exceptions::{PyUserWarning, PyValueError};
use pyo3::prelude::*;

use crate::errors::{Reported, guarded, run_error};
use crate::source;
use crate::values::to_value;

/// How often the calling thread looks for Ctrl-C while a search runs.
const SIGNALS_EVERY: Duration = Duration::from_millis(1);

/// `search` run on a thread of its own, outside the GIL,
/// while the calling thread (where Python runs signal handlers) runs them
/// every [`SIGNALS_EVERY`]. When one raises (Ctrl-C's
/// `KeyboardInterrupt`), `stop` (the sketch's interrupt) is set and the
/// exception returned at once: the search, which asks `stop` between runs,
/// within them and while it grows candidates, ends on its thread a few
/// milliseconds later, and frees what it grew there (up to a second for
/// millions of boxes), with nothing to write. Asking Python from within
/// the search left Ctrl-C waiting for the GIL, for the one thread that may
/// run the handlers, and for the search's end: learn stopped 100 to
/// 400 ms after it.
fn watched<T: Send + 'static>(
    py: Python,
    stop: Arc<AtomicBool>,
    search: impl FnOnce() -> T + Send + 'static,
) -> PyResult<T> {
    py.detach(|| {
        let (done, ended) = channel();
        let worker = std::thread::spawn(move || {
            let searched = search();
            // After Ctrl-C nobody waits: the search is dropped here.
            let _ = done.send(searched);
        });
        loop {
            match ended.recv_timeout(SIGNALS_EVERY) {
                Ok(searched) => return Ok(searched),
                Err(RecvTimeoutError::Disconnected) => {
                    let panic = worker.join().err().unwrap_or_else(|| Box::new("no result"));
                    std::panic::resume_unwind(panic)
                }
                Err(RecvTimeoutError::Timeout) => {
                    if let Err(error) = Python::attach(|py| py.check_signals()) {
                        stop.store(true, Ordering::Relaxed);
                        return Err(error);
                    }
                }
            }
        }
    })
}

/// `text` (shown as `name`) compiled; a CompileError with its diagnostics
/// when it does not compile.
pub fn compiled(py: Python, name: &str, text: &str, entry: Option<&str>) -> PyResult<Compiled> {
    let mut reported = Reported::default();
    let mut report = |found: &[_], sources: &_| reported.add(found, sources, Some(text));
    let source = Source { name, text, entry };
    let compiled = compile_reporting(&source, &mut report);
    compiled.ok_or_else(|| reported.into_error(py))
}

/// Fills the holes of the sketch `sketch_source_or_path` (a program of
/// appliers with one or two holes, `def STEP: ?`; or normal programs with
/// up to six holes, `while ?:`, `i = ?`, a line `?`, which are filled by
/// `cnpic learn`'s enumeration whatever `search` says) so that every
/// example gives its output on the network, and returns the completed
/// program's text. `examples` is a list of `{"input": INPUT, "output": {MEMBER:
/// VALUE}}` (INPUT as `run` takes it; the members those of `run`'s
/// result). `search` is `"enumerate"` or `"gradient"` (default: enumeration
/// for one hole, the gradient for two); `seed`, `trials`, `episodes`,
/// `threads`, `max_steps` and `check_runs` are `cnpic learn`'s options. Raises
/// CompileError for a sketch that does not compile or that learn refuses
/// (E1402: too many holes, a normal program beside applier holes only),
/// RunError (E1401) for examples that do not read, E1403 when no fill is
/// found within the budget. An answer the
/// examples leave open (another filling passes them and ends differently
/// on some input) comes with a UserWarning naming that filling and input.
#[pyfunction]
#[pyo3(signature = (
    sketch_source_or_path, examples, *, seed=1, search=None, trials=100, episodes=2000,
    threads=0, max_steps=100_000, check_runs=CHECK_RUNS
))]
#[allow(clippy::too_many_arguments)]
pub fn learn(
    py: Python,
    sketch_source_or_path: &Bound<'_, PyAny>,
    examples: &Bound<'_, PyAny>,
    seed: u64,
    search: Option<&str>,
    trials: usize,
    episodes: usize,
    threads: usize,
    max_steps: u64,
    check_runs: usize,
) -> PyResult<String> {
    guarded(|| {
        let method = match search {
            None => None,
            Some("gradient") => Some(Method::Gradient),
            Some("enumerate") => Some(Method::Enumerate),
            Some(other) => {
                return Err(PyValueError::new_err(format!(
                    "search is \"gradient\" or \"enumerate\", not {other:?}"
                )));
            }
        };
        let (name, text, _) = source(sketch_source_or_path)?;
        let compiled = compiled(py, &name, &text, None)?;
        let error = |d: &cnpi::diagnostic::Diagnostic| {
            run_error(py, d, &compiled.sources, Some(&compiled.text), "")
        };
        let layout = Declarations::of(&compiled.program);
        let examples = examples::from_value("examples", to_value(examples, "examples")?, &layout)
            .map_err(|d| error(&d))?;
        let request = Request {
            seed,
            method,
            trials,
            episodes,
            threads,
            max_steps,
            check_runs,
            made_by: format!("cnpi.learn (Python), seed {seed}"),
        };
        // Ctrl-C stops the search and raises KeyboardInterrupt, as it
        // stops `Program.run`.
        let stop = Arc::new(AtomicBool::new(false));
        let interrupt = Some(stop.clone() as Arc<dyn Interrupt + Send>);
        let (compiled, report) = watched(py, stop, move || {
            let cache = crate::detector_cache();
            let report = driver::learn(&name, &compiled, examples, &request, cache, interrupt);
            (compiled, report)
        })?;
        let report = report.map_err(|found| {
            let mut reported = Reported::default();
            reported.add(&found, &compiled.sources, Some(&compiled.text));
            reported.into_error(py)
        })?;
        if let Some(failure) = &report.failure {
            return Err(run_error(
                py,
                failure,
                &compiled.sources,
                Some(&compiled.text),
                "",
            ));
        }
        for warning in &report.warnings {
            let message = std::ffi::CString::new(warning.as_str()).unwrap_or_default();
            PyErr::warn(py, &py.get_type::<PyUserWarning>(), &message, 1)?;
        }
        Ok(report.program.unwrap_or_default())
    })
}
