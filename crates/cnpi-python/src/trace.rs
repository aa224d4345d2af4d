//! `cnpi.Trace`: a run of the network recorded step by step (the trace
//! viewer's `Recorder`), read as records (`trace[i]`, one dict per core
//! step), as columns (`to_arrays()`, numpy) or as the trace page of
//! `cnpic run --html` (`html()`, and `_repr_html_()` for Jupyter, which
//! shows it in a sandboxed frame so its script and style stay its own).

use std::sync::Arc;

use cnpi::diagnostic::Diagnostic;
use cnpi::exec::Outcome;
use cnpi_neural::load::Plan;
use cnpi_neural::memory::Memory;
use cnpi_neural::viewer::{Recorded, Recorder, page};
use pyo3::exceptions::PyIndexError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use serde_json::Value;

use crate::values::to_python;

/// A recorded run of the network.
#[pyclass(module = "cnpi", frozen)]
pub struct Trace {
    plan: Arc<Plan>,
    title: String,
    recorder: Recorder,
    /// What `run` returns; `Value::Null` for a run that failed.
    result: Value,
    /// The result as `cnpic run` prints it, or the error, for the page.
    text: String,
}

impl Trace {
    /// The trace of a run that ended with `ran`.
    pub fn new(
        plan: Arc<Plan>,
        title: &str,
        recorder: Recorder,
        ran: &Result<Outcome, Diagnostic>,
    ) -> Trace {
        let (result, text) = match ran {
            Ok(outcome) => (outcome.to_json("neural"), outcome.to_text("neural")),
            Err(d) => (Value::Null, format!("{}: {}", d.code, d.message)),
        };
        Trace {
            plan,
            title: title.to_string(),
            recorder,
            result,
            text,
        }
    }

    /// The program memory the run was on.
    fn memory(&self) -> Option<&Memory> {
        self.plan.network().map(|network| network.memory())
    }

    /// The name of row `row` of the program memory.
    fn row(&self, row: usize) -> &str {
        (self.memory().and_then(|m| m.rows.get(row))).map_or("?", |r| r.name.as_str())
    }

    /// The detector's condition as written, if any.
    fn detector(&self, step: &Recorded) -> Option<&str> {
        Some(self.memory()?.detectors.get(step.detector?)?.text.as_str())
    }

    /// The record of step `i` (counted from 0) as a dict.
    fn record<'py>(
        &self,
        py: Python<'py>,
        i: usize,
        step: &Recorded,
    ) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        dict.set_item("step", self.recorder.first() + i as u64)?;
        dict.set_item("applier", self.row(step.owner))?;
        dict.set_item("combinator", step.combinator)?;
        dict.set_item("condition", step.c)?;
        dict.set_item("detector", self.detector(step))?;
        dict.set_item("slot", step.slot.name())?;
        dict.set_item("target", self.row(step.target))?;
        dict.set_item("return", step.ret)?;
        dict.set_item("depth", step.depth)?;
        Ok(dict)
    }
}

#[pymethods]
impl Trace {
    /// How many core steps are recorded: the run's steps (`result["steps"]`),
    /// up to 2,000,000.
    fn __len__(&self) -> usize {
        self.recorder.recorded()
    }

    /// Step `i` (negative counts from the end): a dict with "step" (counted
    /// from 1), "applier" (the applier whose frame runs), "combinator",
    /// "condition" (the bit), "detector" (its condition as written, or
    /// None), "slot", "target" (the program bound to the slot), "return"
    /// (the core's return flag) and "depth".
    fn __getitem__<'py>(&self, py: Python<'py>, i: isize) -> PyResult<Bound<'py, PyDict>> {
        let len = self.recorder.recorded() as isize;
        let at = if i < 0 { i + len } else { i };
        if !(0..len).contains(&at) {
            return Err(PyIndexError::new_err(format!(
                "step {i} of a trace of {len}"
            )));
        }
        let at = at as usize;
        let step = (self.recorder.recorded_step(at))
            .ok_or_else(|| PyIndexError::new_err(format!("step {i} of a trace of {len}")))?;
        self.record(py, at, &step)
    }

    /// What `run` returns for the same input (None in the trace of a run
    /// that failed, which its RunError carries as `.trace`).
    #[getter]
    fn result<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_python(py, &self.result)
    }

    /// The run's steps (the recorded ones are `len(trace)`).
    #[getter]
    fn steps(&self) -> u64 {
        self.recorder.steps()
    }

    /// One numpy array per field of the records, each `len(trace)` long:
    /// "step", "depth" (integers), "condition", "return" (booleans),
    /// "applier", "combinator", "slot", "target", "detector" (strings, ""
    /// for no detector).
    fn to_arrays<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let numpy = py.import("numpy")?;
        let steps: Vec<Recorded> = (0..self.recorder.recorded())
            .filter_map(|i| self.recorder.recorded_step(i))
            .collect();
        let first = self.recorder.first();
        let arrays = PyDict::new(py);
        let column = |name: &str, values: Bound<'py, PyAny>, dtype: &str| -> PyResult<()> {
            arrays.set_item(name, numpy.call_method1("asarray", (values, dtype))?)
        };
        let ints = |f: &dyn Fn(usize, &Recorded) -> u64| -> Vec<u64> {
            steps.iter().enumerate().map(|(i, s)| f(i, s)).collect()
        };
        let strings =
            |f: &dyn Fn(&Recorded) -> String| -> Vec<String> { steps.iter().map(f).collect() };
        column(
            "step",
            ints(&|i, _| first + i as u64).into_pyobject(py)?,
            "int64",
        )?;
        column(
            "depth",
            ints(&|_, s| u64::from(s.depth)).into_pyobject(py)?,
            "int64",
        )?;
        let flags = |f: &dyn Fn(&Recorded) -> bool| -> Vec<bool> { steps.iter().map(f).collect() };
        column("condition", flags(&|s| s.c).into_pyobject(py)?, "bool")?;
        column("return", flags(&|s| s.ret).into_pyobject(py)?, "bool")?;
        column(
            "applier",
            strings(&|s| self.row(s.owner).to_string()).into_pyobject(py)?,
            "str",
        )?;
        column(
            "combinator",
            strings(&|s| s.combinator.to_string()).into_pyobject(py)?,
            "str",
        )?;
        column(
            "slot",
            strings(&|s| s.slot.name().to_string()).into_pyobject(py)?,
            "str",
        )?;
        column(
            "target",
            strings(&|s| self.row(s.target).to_string()).into_pyobject(py)?,
            "str",
        )?;
        let detector = |s: &Recorded| self.detector(s).unwrap_or("").to_string();
        column("detector", strings(&detector).into_pyobject(py)?, "str")?;
        Ok(arrays)
    }

    /// The trace page (`cnpic run --html`): one self-contained HTML document.
    fn html(&self) -> String {
        let Some(network) = self.plan.network() else {
            return String::new();
        };
        let written = (self.plan.as_written()).map(|w| (w.text.as_str(), &w.origins));
        let page = page::Page {
            title: &self.title,
            command: "cnpi (Python): Program.trace",
            memory: network.memory(),
            unit: network.entry().unit,
            written,
            outcome: &self.text,
            plain: !network.cached(),
        };
        page::render(&page, &self.recorder)
    }

    /// The trace page in a frame, for Jupyter's rich display.
    fn _repr_html_(&self) -> String {
        let page = self.html().replace('&', "&amp;").replace('"', "&quot;");
        format!(
            "<iframe srcdoc=\"{page}\" style=\"width: 100%; height: 640px; border: 1px solid #ccc\" \
             sandbox=\"allow-scripts\"></iframe>"
        )
    }

    fn __repr__(&self) -> String {
        format!(
            "<cnpi.Trace of {} steps of {}>",
            self.recorder.steps(),
            self.title
        )
    }
}
