//! `cnpi.Program`: a program compiled once (`cnpi.compile`, `cnpi.load`)
//! and run on many inputs, on the network or on the reference interpreter,
//! through the same run plan as `cnpic run` (`cnpi::plan::Plan`, built by
//! `cnpi_neural::load`).
//!
//! The network's load (combinatorizing, the program memory, its detectors
//! from the cache) happens when the program is made; the reference
//! interpreter's, at its first run. `run_many` converts every input under
//! the GIL, then runs them on threads without it, and hands the results
//! back in input order.

use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use cnpi::diagnostic::Diagnostic;
use cnpi::env;
use cnpi::exec::Outcome;
use cnpi::exec::limits::{Limits, MAX_MEMORY};
use cnpi::plan::{Engines, MAX_STEPS, RunOptions};
use cnpi_neural::load::{Plan, Request, plan_file, plan_source};
use cnpi_neural::viewer::{Recorder, Window};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::errors::{self, Reported, guarded, run_error};
use crate::interrupt::Watch;
use crate::reference;
use crate::trace::{Steps, Trace};
use crate::values::{from_json_text, from_members, given, to_json};

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
    /// The run plan for `engine`, with what compiling reported.
    fn load(&self, engine: Engine) -> (Option<Plan>, Reported) {
        let mut reported = Reported::default();
        let request = Request {
            entry: self.entry.as_deref(),
            seed: self.seed,
            cache: crate::detector_cache(),
            jit: crate::jit_mode(),
            ..Request::new(match engine {
                Engine::Neural => Engines::Network,
                Engine::Symbolic => Engines::Symbolic,
            })
        };
        let text = Some(self.text.as_str()).filter(|t| !t.is_empty());
        let mut report = |found: &[Diagnostic], sources: &_| reported.add(found, sources, text);
        let plan = match &self.origin {
            Origin::File(path) => plan_file(path, &request, &mut |_, _| {}, &mut report),
            Origin::Text => plan_source(
                &self.name,
                &self.text,
                &request,
                &mut |_, _| {},
                &mut report,
            ),
        };
        (plan, reported)
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
        let (plan, reported) = py.detach(|| spec.load(Engine::Neural));
        let Some(plan) = plan else {
            return Err(reported.into_error(py));
        };
        // A `.cnpim` holds its program's source: error lines are its lines.
        if let Some(network) = plan.network()
            && spec.text.is_empty()
        {
            spec.text = network.memory().units[network.entry().unit].source.clone();
        }
        Ok(Program {
            spec,
            neural: Arc::new(plan),
            symbolic: OnceLock::new(),
            warnings: reported.0,
        })
    }

    /// The run plan for `engine`.
    fn plan(&self, py: Python, engine: Engine) -> PyResult<Arc<Plan>> {
        if engine == Engine::Neural {
            return Ok(self.neural.clone());
        }
        if let Some(plan) = self.symbolic.get() {
            return Ok(plan.clone());
        }
        let (plan, reported) = py.detach(|| self.spec.load(engine));
        let plan = Arc::new(plan.ok_or_else(|| reported.into_error(py))?);
        Ok(self.symbolic.get_or_init(|| plan).clone())
    }

    /// The input as JSON text: `input`, or the environment's empty input.
    fn text(&self, input: Option<&Bound<'_, PyAny>>) -> PyResult<String> {
        match input {
            Some(input) => to_json(input),
            None => Ok(env::empty_input(self.neural.env()).to_string()),
        }
    }

    /// The input of a run of `plan`: its members as integers where the
    /// Python values give them so (`values::given`), else its text.
    fn input(&self, plan: &Plan, input: Option<&Bound<'_, PyAny>>) -> PyResult<Input> {
        match input.and_then(|input| given(input, plan.declarations())) {
            Some(members) => Ok(Input::Given(members)),
            None => Ok(Input::Text(self.text(input)?)),
        }
    }

    /// The RunError of `diagnostic`, with `context` before its text.
    fn error(&self, py: Python, plan: &Plan, diagnostic: &Diagnostic, context: &str) -> PyErr {
        run_error(
            py,
            diagnostic,
            plan.sources(),
            Some(&self.spec.text),
            context,
        )
    }
}

/// The dict of `run --format json` for `outcome`, a run on `engine`.
fn result<'py>(py: Python<'py>, outcome: &Outcome, engine: Engine) -> PyResult<Bound<'py, PyAny>> {
    let more = env::run_members(outcome.steps, engine.name());
    match outcome.state.members(&more) {
        Some(members) => from_members(py, &members),
        None => from_json_text(
            py,
            &outcome.state.to_json_text(outcome.steps, engine.name()),
        ),
    }
}

/// The limits of a run: `max_memory` bytes (default: `cnpic run`'s),
/// stopped by `watch`.
fn limits(max_memory: Option<usize>, watch: &Watch) -> Limits<'_> {
    Limits {
        max_memory: max_memory.unwrap_or(MAX_MEMORY),
        interrupt: Some(watch),
        ..Limits::default()
    }
}

/// Runs `work` outside the GIL, watched for Ctrl-C: the exception a
/// signal handler raised meanwhile, if any, else what `work` gave.
pub fn watched<T: Send>(py: Python, work: impl FnOnce(&Watch) -> T + Send) -> PyResult<T> {
    let watch = Watch::new();
    let done = py.detach(|| work(&watch));
    match watch.raised() {
        Some(raised) => Err(raised),
        None => Ok(done),
    }
}

/// A run's input: its members given as integers, or its JSON text.
enum Input {
    Given(Vec<(String, env::Given)>),
    Text(String),
}

/// Runs `plan` on `input`.
fn run_one(
    plan: &Plan,
    input: Input,
    max_steps: u64,
    limits: Limits,
    record: Option<&mut Recorder>,
) -> Result<Outcome, Diagnostic> {
    let state = match input {
        Input::Given(members) => env::read_given(plan.declarations(), members)?,
        Input::Text(text) => env::read_input(plan.declarations(), &text)?,
    };
    let options = RunOptions {
        record,
        ..RunOptions::limited(max_steps, limits)
    };
    plan.run(state, options)
}

#[pymethods]
impl Program {
    /// Runs the program on `input` (what `cnpic run --input` takes, as
    /// Python values: a list for `array`, a dict for `graph`, `ram`...;
    /// None for the environment's empty input) on `engine`, `"neural"` (the
    /// network, default) or `"symbolic"` (the exact reference interpreter).
    /// Returns the dict of `cnpic run --format json`; raises RunError when
    /// the input does not read or the run fails (E0708 past `max_memory`
    /// bytes of calls and stacks, 2 GiB by default), TypeError for a Python
    /// value JSON has no form for, KeyboardInterrupt on Ctrl-C.
    #[pyo3(signature = (input=None, *, engine="neural", max_steps=None, max_memory=None))]
    fn run<'py>(
        &self,
        py: Python<'py>,
        input: Option<&Bound<'py, PyAny>>,
        engine: &str,
        max_steps: Option<u64>,
        max_memory: Option<usize>,
    ) -> PyResult<Bound<'py, PyAny>> {
        guarded(|| {
            let engine = Engine::parse(engine)?;
            let plan = self.plan(py, engine)?;
            let input = self.input(&plan, input)?;
            let max_steps = max_steps.unwrap_or(MAX_STEPS);
            let ran = watched(py, |watch| {
                run_one(&plan, input, max_steps, limits(max_memory, watch), None)
            })?;
            match ran {
                Ok(outcome) => result(py, &outcome, engine),
                Err(diagnostic) => Err(self.error(py, &plan, &diagnostic, "")),
            }
        })
    }

    /// Runs the program on every input of `inputs` (an iterable of what
    /// `run` takes) on `jobs` threads (default: every core), outside the
    /// GIL. Returns the results in input order. With `errors="raise"`
    /// (default) the first failing input (by position) raises its
    /// RunError; with `errors="return"` its place holds
    /// `{"error": {"code": ..., "message": ...}}`, as `cnpic run --inputs`
    /// writes it. `jobs` is capped at 8 per core; `max_memory` is each
    /// run's, as in `run`.
    #[pyo3(signature = (inputs, *, engine="neural", jobs=None, max_steps=None, errors="raise", max_memory=None))]
    #[allow(clippy::too_many_arguments)]
    fn run_many<'py>(
        &self,
        py: Python<'py>,
        inputs: &Bound<'py, PyAny>,
        engine: &str,
        jobs: Option<usize>,
        max_steps: Option<u64>,
        errors: &str,
        max_memory: Option<usize>,
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
            let plan = self.plan(py, engine)?;
            // The plan reads each input's JSON as `cnpic run --inputs` does.
            let texts: Vec<String> = (inputs.try_iter()?)
                .map(|input| self.text(Some(&input?)))
                .collect::<PyResult<_>>()?;
            let jobs = cnpi::threads::usable(jobs.unwrap_or(0), texts.len());
            let max_steps = max_steps.unwrap_or(MAX_STEPS);
            let results = watched(py, |watch| {
                plan.run_many(&texts, max_steps, limits(max_memory, watch), jobs, &|| {})
            })?;
            (results.into_iter().enumerate())
                .map(|(i, ran)| match ran {
                    Ok(outcome) => result(py, &outcome, engine),
                    Err(diagnostic) if raise => {
                        Err(self.error(py, &plan, &diagnostic, &format!("input {i}: ")))
                    }
                    Err(diagnostic) => {
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

    /// Runs the program, recording every step: a Trace (`len(trace)` is
    /// the run's steps, up to 2,000,000 recorded; `trace[i]` a dict;
    /// `trace.to_arrays()`; shown in Jupyter as the trace page). On the
    /// network a step is a core step; on the reference interpreter
    /// (`engine="symbolic"`) a step is what it counts: a combinator's core
    /// step, or a statement of a normal program as written. A run that
    /// fails raises its RunError with the trace of the steps up to the
    /// error as `.trace`. `max_memory` bounds the run's stores and the
    /// steps recorded together (E0708 past it).
    #[pyo3(signature = (input=None, *, engine="neural", max_steps=None, max_memory=None))]
    fn trace(
        &self,
        py: Python,
        input: Option<&Bound<'_, PyAny>>,
        engine: &str,
        max_steps: Option<u64>,
        max_memory: Option<usize>,
    ) -> PyResult<Trace> {
        guarded(|| {
            let engine = Engine::parse(engine)?;
            let plan = self.plan(py, engine)?;
            let input = self.text(input)?;
            let max_steps = max_steps.unwrap_or(MAX_STEPS);
            let (ran, steps) = watched(py, |watch| {
                let limits = limits(max_memory, watch);
                match engine {
                    Engine::Neural => {
                        let mut recorder = Recorder::new(Window::all());
                        let ran = run_one(
                            &plan,
                            Input::Text(input),
                            max_steps,
                            limits,
                            Some(&mut recorder),
                        );
                        (ran, Steps::Network(Box::new(recorder)))
                    }
                    Engine::Symbolic => {
                        let (ran, steps) = reference::record(&plan, &input, max_steps, limits);
                        (ran, Steps::Reference(steps))
                    }
                }
            })?;
            let trace = Trace::new(plan.clone(), &self.spec.name, steps, &ran);
            match ran {
                Ok(_) => Ok(trace),
                Err(diagnostic) => {
                    // The steps up to the error, to look at: `error.trace`.
                    let error = self.error(py, &plan, &diagnostic, "");
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
