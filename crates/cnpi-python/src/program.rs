//! `cnpi.Program`: a program compiled once (`cnpi.compile`, `cnpi.load`)
//! and run on many inputs, on the network or on the reference interpreter,
//! through the same run plan as `cnpic run` (`cnpi_neural::load::Plan`).
//!
//! The network's load (combinatorizing, the program memory, its detectors
//! from the cache) happens when the program is made; the reference
//! interpreter's, at its first run. `run_many` converts every input under
//! the GIL, then runs them on threads without it, and hands the results
//! back in input order.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};

use cnpi::diagnostic::Diagnostic;
use cnpi::env;
use cnpi::exec::Outcome;
use cnpi::plan::{Engines, RunOptions};
use cnpi_neural::load::{Plan, Request, plan_file, plan_source};
use cnpi_neural::viewer::{Recorder, Window};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use serde_json::Value;

use crate::errors::{self, Reported, guarded, run_error};
use crate::trace::Trace;
use crate::values::{to_json, to_python};

/// The most steps a run takes unless told otherwise (as `cnpic run`).
const MAX_STEPS: u64 = 1_000_000_000;

/// Where a program came from: what its engines are loaded from.
enum Origin {
    /// A `.cnpi` or `.cnpim` file.
    File(PathBuf),
    /// Source text handed over as a string.
    Text,
}

/// Which engine a run is on.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Engine {
    Neural,
    Symbolic,
}

impl Engine {
    fn parse(name: &str) -> PyResult<Engine> {
        match name {
            "neural" => Ok(Engine::Neural),
            "symbolic" => Ok(Engine::Symbolic),
            _ => Err(PyValueError::new_err(format!(
                "engine is \"neural\" or \"symbolic\", not {name:?}"
            ))),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Engine::Neural => "neural",
            Engine::Symbolic => "symbolic",
        }
    }
}

/// What a program is loaded from, for either engine.
struct Spec {
    origin: Origin,
    /// The name diagnostics show (the path, or `<string>`).
    name: String,
    /// The user's source text, which error lines are counted in.
    text: String,
    entry: Option<String>,
    seed: u64,
}

impl Spec {
    /// Loads the program for `engine`, with what compiling reported.
    fn load(&self, engine: Engine) -> (Option<Plan>, Reported) {
        let mut reported = Reported::default();
        let request = Request {
            entry: self.entry.as_deref(),
            engines: match engine {
                Engine::Neural => Engines::Network,
                Engine::Symbolic => Engines::Symbolic,
            },
            cached: true,
            core: None,
            seed: self.seed,
        };
        let text = Some(self.text.as_str()).filter(|t| !t.is_empty());
        let mut report = |found: &[Diagnostic], sources: &_| reported.add(found, sources, text);
        let loaded = match &self.origin {
            Origin::File(path) => plan_file(path, &request, &mut |_, _| {}, &mut report),
            Origin::Text => plan_source(
                &self.name,
                &self.text,
                &request,
                &mut |_, _| {},
                &mut report,
            ),
        };
        (loaded, reported)
    }
}

/// A compiled program, ready to run on many inputs.
#[pyclass(module = "cnpi", frozen)]
pub struct Program {
    spec: Spec,
    neural: Arc<Plan>,
    symbolic: OnceLock<Arc<Plan>>,
    /// The warnings compiling drew.
    warnings: Vec<errors::Diagnostic>,
}

impl Program {
    /// Compiles `text` (shown as `name`), or loads the file `path` (`text`
    /// is then its contents, or empty for a `.cnpim`).
    pub fn open(
        py: Python,
        path: Option<&Path>,
        name: &str,
        text: String,
        entry: Option<String>,
        seed: u64,
    ) -> PyResult<Program> {
        let mut spec = Spec {
            origin: path.map_or(Origin::Text, |p| Origin::File(p.to_path_buf())),
            name: name.to_string(),
            text,
            entry,
            seed,
        };
        let (loaded, reported) = py.detach(|| spec.load(Engine::Neural));
        let Some(loaded) = loaded else {
            return Err(reported.into_error(py));
        };
        // A `.cnpim` holds its program's source: error lines are its lines.
        if let Some(network) = loaded.network()
            && spec.text.is_empty()
        {
            spec.text = network.memory().units[network.entry().unit].source.clone();
        }
        Ok(Program {
            spec,
            neural: Arc::new(loaded),
            symbolic: OnceLock::new(),
            warnings: reported.0,
        })
    }

    /// The loaded program for `engine`.
    fn loaded(&self, py: Python, engine: Engine) -> PyResult<Arc<Plan>> {
        if engine == Engine::Neural {
            return Ok(self.neural.clone());
        }
        if let Some(loaded) = self.symbolic.get() {
            return Ok(loaded.clone());
        }
        let (loaded, reported) = py.detach(|| self.spec.load(engine));
        let loaded = Arc::new(loaded.ok_or_else(|| reported.into_error(py))?);
        Ok(self.symbolic.get_or_init(|| loaded).clone())
    }

    /// The input as JSON: `input`, or the environment's empty input.
    fn input(&self, input: Option<&Bound<'_, PyAny>>) -> PyResult<Value> {
        match input {
            Some(input) => to_json(input),
            None => Ok(
                serde_json::from_str(env::empty_input(self.neural.env())).unwrap_or(Value::Null)
            ),
        }
    }

    /// The RunError of `diagnostic`, with `context` before its text.
    fn error(&self, py: Python, loaded: &Plan, diagnostic: &Diagnostic, context: &str) -> PyErr {
        run_error(
            py,
            diagnostic,
            loaded.sources(),
            Some(&self.spec.text),
            context,
        )
    }
}

/// Runs `loaded` on `input`.
fn run_one(
    loaded: &Plan,
    input: Value,
    max_steps: u64,
    record: Option<&mut Recorder>,
) -> Result<Outcome, Diagnostic> {
    let state = env::read_value(loaded.env(), &loaded.layout(), input)?;
    let options = RunOptions {
        max_steps,
        trace: None,
        record,
    };
    loaded.run(state, options)
}

/// What one input of `run_many` gave: the result's JSON, the run's
/// diagnostic, or the message of a panic.
enum Done {
    Ran(Value),
    Failed(Diagnostic),
    Panicked(String),
}

/// Runs every input on `jobs` threads; the results in input order.
fn run_all(
    loaded: &Plan,
    inputs: Vec<Value>,
    engine: Engine,
    jobs: usize,
    max_steps: u64,
) -> Vec<Done> {
    let count = inputs.len();
    let inputs: Vec<std::sync::Mutex<Option<Value>>> = inputs
        .into_iter()
        .map(|v| std::sync::Mutex::new(Some(v)))
        .collect();
    let next = AtomicUsize::new(0);
    // Small batches: few atomic operations, and still an even share.
    let batch = (count / (jobs * 8)).clamp(1, 256);
    let work = || {
        let mut done = Vec::new();
        loop {
            let start = next.fetch_add(batch, Ordering::Relaxed);
            if start >= count {
                return done;
            }
            for (i, slot) in inputs
                .iter()
                .enumerate()
                .take((start + batch).min(count))
                .skip(start)
            {
                let input = slot
                    .lock()
                    .ok()
                    .and_then(|mut v| v.take())
                    .unwrap_or(Value::Null);
                let ran = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    run_one(loaded, input, max_steps, None)
                }));
                done.push((
                    i,
                    match ran {
                        Ok(Ok(outcome)) => Done::Ran(outcome.to_json(engine.name())),
                        Ok(Err(diagnostic)) => Done::Failed(diagnostic),
                        Err(payload) => {
                            Done::Panicked(errors::panicked(payload.as_ref()).to_string())
                        }
                    },
                ));
            }
        }
    };
    let mut results: Vec<Option<Done>> = (0..count).map(|_| None).collect();
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..jobs.min(count).max(1))
            .map(|_| scope.spawn(work))
            .collect();
        for worker in workers {
            // `work` catches every panic of a run; a worker cannot fail.
            for (i, done) in worker.join().unwrap_or_default() {
                results[i] = Some(done);
            }
        }
    });
    (results.into_iter())
        .map(|r| r.unwrap_or_else(|| Done::Panicked("a worker thread died".to_string())))
        .collect()
}

#[pymethods]
impl Program {
    /// Runs the program on `input` (what `cnpic run --input` takes, as
    /// Python values: a list for `array`, a dict for `graph`, `ram`...;
    /// None for the environment's empty input) on `engine`, `"neural"` (the
    /// network, default) or `"symbolic"` (the exact reference interpreter).
    /// Returns the dict of `cnpic run --format json`; raises RunError when
    /// the input does not read or the run fails, TypeError for a Python
    /// value JSON has no form for.
    #[pyo3(signature = (input=None, *, engine="neural", max_steps=None))]
    fn run<'py>(
        &self,
        py: Python<'py>,
        input: Option<&Bound<'py, PyAny>>,
        engine: &str,
        max_steps: Option<u64>,
    ) -> PyResult<Bound<'py, PyAny>> {
        guarded(|| {
            let engine = Engine::parse(engine)?;
            let loaded = self.loaded(py, engine)?;
            let input = self.input(input)?;
            let max_steps = max_steps.unwrap_or(MAX_STEPS);
            let ran = py.detach(|| run_one(&loaded, input, max_steps, None));
            match ran {
                Ok(outcome) => to_python(py, &outcome.to_json(engine.name())),
                Err(diagnostic) => Err(self.error(py, &loaded, &diagnostic, "")),
            }
        })
    }

    /// Runs the program on every input of `inputs` (an iterable of what
    /// `run` takes) on `jobs` threads (default: every core), outside the
    /// GIL. Returns the results in input order. With `errors="raise"`
    /// (default) the first failing input (by position) raises its
    /// RunError; with `errors="return"` its place holds
    /// `{"error": {"code": ..., "message": ...}}`, as `cnpic run --inputs`
    /// writes it.
    #[pyo3(signature = (inputs, *, engine="neural", jobs=None, max_steps=None, errors="raise"))]
    fn run_many<'py>(
        &self,
        py: Python<'py>,
        inputs: &Bound<'py, PyAny>,
        engine: &str,
        jobs: Option<usize>,
        max_steps: Option<u64>,
        errors: &str,
    ) -> PyResult<Vec<Bound<'py, PyAny>>> {
        guarded(|| {
            let engine = Engine::parse(engine)?;
            let raise = match errors {
                "raise" => true,
                "return" => false,
                _ => {
                    return Err(PyValueError::new_err(format!(
                        "errors is \"raise\" or \"return\", not {errors:?}"
                    )));
                }
            };
            let loaded = self.loaded(py, engine)?;
            let values: Vec<Value> = (inputs.try_iter()?)
                .map(|input| self.input(Some(&input?)))
                .collect::<PyResult<_>>()?;
            let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
            let jobs = jobs.unwrap_or(cores).max(1);
            let max_steps = max_steps.unwrap_or(MAX_STEPS);
            let results = py.detach(|| run_all(&loaded, values, engine, jobs, max_steps));
            (results.into_iter().enumerate())
                .map(|(i, done)| match done {
                    Done::Ran(value) => to_python(py, &value),
                    Done::Panicked(message) => Err(errors::InternalError::new_err(message)),
                    Done::Failed(diagnostic) if raise => {
                        Err(self.error(py, &loaded, &diagnostic, &format!("input {i}: ")))
                    }
                    Done::Failed(diagnostic) => {
                        let error = PyDict::new(py);
                        error.set_item("code", diagnostic.code.to_string())?;
                        error.set_item("message", &diagnostic.message)?;
                        let item = PyDict::new(py);
                        item.set_item("error", error)?;
                        Ok(item.into_any())
                    }
                })
                .collect()
        })
    }

    /// Runs the program on the network, recording every core step: a
    /// Trace (`len(trace)` is the run's steps, up to 2,000,000 recorded;
    /// `trace[i]` a dict; `trace.to_arrays()`; shown in Jupyter as the
    /// trace page). Only the network's run has core steps to record:
    /// `engine` must be `"neural"`. A run that fails raises its RunError
    /// with the trace of the steps up to the error as `.trace`.
    #[pyo3(signature = (input=None, *, engine="neural", max_steps=None))]
    fn trace(
        &self,
        py: Python,
        input: Option<&Bound<'_, PyAny>>,
        engine: &str,
        max_steps: Option<u64>,
    ) -> PyResult<Trace> {
        guarded(|| {
            if Engine::parse(engine)? != Engine::Neural {
                return Err(PyValueError::new_err(
                    "a trace records the network's core steps: the reference interpreter has none \
                     (engine=\"neural\")",
                ));
            }
            let loaded = self.neural.clone();
            let input = self.input(input)?;
            let max_steps = max_steps.unwrap_or(MAX_STEPS);
            let (ran, recorder) = py.detach(|| {
                let mut recorder = Recorder::new(Window::all());
                let ran = run_one(&loaded, input, max_steps, Some(&mut recorder));
                (ran, recorder)
            });
            let trace = Trace::new(loaded.clone(), &self.spec.name, recorder, &ran);
            match ran {
                Ok(_) => Ok(trace),
                Err(diagnostic) => {
                    // The steps up to the error, to look at: `error.trace`.
                    let error = self.error(py, &loaded, &diagnostic, "");
                    error.value(py).setattr("trace", trace)?;
                    Err(error)
                }
            }
        })
    }

    /// The warnings compiling drew (Diagnostic objects).
    #[getter]
    fn warnings(&self) -> Vec<errors::Diagnostic> {
        self.warnings.clone()
    }

    /// The environment the program runs in (`"array"`, `"graph"`, `"ram"`...).
    #[getter]
    fn env(&self) -> String {
        env::environment(self.neural.env()).name.to_string()
    }

    fn __repr__(&self) -> String {
        format!("<cnpi.Program {} ({})>", self.spec.name, self.env())
    }
}
