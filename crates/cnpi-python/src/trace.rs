//! `cnpi.Trace`: a run of the network recorded step by step (the trace
//! viewer's `Recorder`), or of the reference interpreter (its steps, see
//! [`crate::reference`]), read as records (`trace[i]`, one dict per step),
//! as columns (`to_arrays()`, numpy) or as the trace page of `cnpic run
//! --html` (`html()`, and `_repr_html_()` for Jupyter, which shows it in a
//! sandboxed frame so its script and style stay its own).

use std::fmt::Write as _;
use std::sync::Arc;

use cnpi::diagnostic::Diagnostic;
use cnpi::exec::Outcome;
use cnpi_neural::load::Plan;
use cnpi_neural::memory::Memory;
use cnpi_neural::viewer::{Recorder, page};
use pyo3::exceptions::PyIndexError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use serde_json::Value;

use crate::reference;
use crate::values::from_json_text;

/// What a trace holds: the network's recorder, or the reference
/// interpreter's steps.
pub enum Steps {
    Network(Box<Recorder>),
    Reference(reference::Steps),
}

/// A recorded run.
#[pyclass(module = "cnpi", frozen)]
pub struct Trace {
    plan: Arc<Plan>,
    title: String,
    steps: Steps,
    /// What `run` returns; `Value::Null` for a run that failed.
    result: Value,
    /// The result as `cnpic run` prints it, or the error, for the page.
    text: String,
}

/// One step as the records show it; `None` where a step of a normal
/// program run as written has nothing (no core step: no combinator, slot
/// or condition).
struct Row<'a> {
    applier: &'a str,
    combinator: Option<&'a str>,
    condition: Option<bool>,
    detector: Option<&'a str>,
    slot: Option<&'static str>,
    target: Option<&'a str>,
    ret: bool,
    depth: u32,
}

/// A text field of a record.
type Field = for<'r> fn(&'r Row<'r>) -> Option<&'r str>;

impl Trace {
    /// The trace of a run that ended with `ran`.
    pub fn new(
        plan: Arc<Plan>,
        title: &str,
        steps: Steps,
        ran: &Result<Outcome, Diagnostic>,
    ) -> Trace {
        let engine = plan.engine_name();
        let (result, text) = match ran {
            Ok(outcome) => (outcome.to_json(engine), outcome.to_text(engine)),
            Err(d) => (Value::Null, format!("{}: {}", d.code, d.message)),
        };
        Trace {
            plan,
            title: title.to_string(),
            steps,
            result,
            text,
        }
    }

    /// The program memory the run was on.
    fn memory(&self) -> Option<&Memory> {
        self.plan.network().map(|network| network.memory())
    }

    /// The name of row `row` of the program memory.
    fn row_name(&self, row: usize) -> &str {
        (self.memory().and_then(|m| m.rows.get(row))).map_or("?", |r| r.name.as_str())
    }

    /// How many steps are recorded.
    fn recorded(&self) -> usize {
        match &self.steps {
            Steps::Network(recorder) => recorder.recorded(),
            Steps::Reference(steps) => steps.kept.len(),
        }
    }

    /// Step `i` (counted from 0) as its record shows it.
    fn row(&self, i: usize) -> Option<Row<'_>> {
        match &self.steps {
            Steps::Network(recorder) => {
                let step = recorder.recorded_step(i)?;
                let detector = (self.memory())
                    .zip(step.detector)
                    .and_then(|(m, d)| m.detectors.get(d))
                    .map(|d| d.text.as_str());
                Some(Row {
                    applier: self.row_name(step.owner),
                    combinator: Some(step.combinator),
                    condition: Some(step.c),
                    detector,
                    slot: Some(step.slot.name()),
                    target: Some(self.row_name(step.target)),
                    ret: step.ret,
                    depth: step.depth,
                })
            }
            Steps::Reference(steps) => {
                let step = steps.kept.get(i)?;
                let program = self.plan.reference()?;
                let core = step.core;
                Some(Row {
                    applier: program.defs.get(step.def).map_or("?", |d| d.name.as_str()),
                    combinator: core.map(|(kind, _, _)| program.combinators.name(kind)),
                    condition: core.map(|(_, _, c)| c),
                    detector: None,
                    slot: core.map(|(_, slot, _)| slot.name()),
                    target: None,
                    ret: step.ret,
                    depth: step.depth,
                })
            }
        }
    }

    /// The step number of the first recorded step (counted from 1).
    fn first(&self) -> u64 {
        match &self.steps {
            Steps::Network(recorder) => recorder.first(),
            Steps::Reference(_) => 1,
        }
    }

    /// The record of step `i` (counted from 0) as a dict.
    fn record<'py>(&self, py: Python<'py>, i: usize, row: &Row) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        dict.set_item("step", self.first() + i as u64)?;
        dict.set_item("applier", row.applier)?;
        dict.set_item("combinator", row.combinator)?;
        dict.set_item("condition", row.condition)?;
        dict.set_item("detector", row.detector)?;
        dict.set_item("slot", row.slot)?;
        dict.set_item("target", row.target)?;
        dict.set_item("return", row.ret)?;
        dict.set_item("depth", row.depth)?;
        Ok(dict)
    }

    /// The reference interpreter's steps as a plain HTML table (the trace
    /// page draws the network's memory, which a reference run has not).
    fn table(&self) -> String {
        const SHOWN: usize = 1_000;
        let mut html = format!(
            "<!DOCTYPE html><meta charset=\"utf-8\"><title>{}</title>\
             <p>{} steps on the reference interpreter: {}</p>\
             <table><tr><th>step</th><th>depth</th><th>applier</th><th>combinator</th>\
             <th>slot</th><th>condition</th><th>return</th></tr>",
            escape(&self.title),
            self.steps(),
            escape(&self.text)
        );
        let shown = self.recorded().min(SHOWN);
        for i in 0..shown {
            let Some(row) = self.row(i) else { break };
            let _ = write!(
                html,
                "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
                self.first() + i as u64,
                row.depth,
                escape(row.applier),
                row.combinator.map(escape).unwrap_or_default(),
                row.slot.unwrap_or_default(),
                row.condition
                    .map_or(String::new(), |c| u8::from(c).to_string()),
                if row.ret { "return" } else { "" }
            );
        }
        html.push_str("</table>");
        if self.recorded() > shown {
            let _ = write!(
                html,
                "<p>the first {shown} of {} steps</p>",
                self.recorded()
            );
        }
        html
    }
}

/// `text` with the characters HTML gives a meaning escaped.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

#[pymethods]
impl Trace {
    /// How many steps are recorded: the run's steps (`result["steps"]`),
    /// up to 2,000,000.
    fn __len__(&self) -> usize {
        self.recorded()
    }

    /// Step `i` (negative counts from the end): a dict with "step" (counted
    /// from 1), "applier" (the applier whose frame runs), "combinator",
    /// "condition" (the bit), "detector" (its condition as written, or
    /// None), "slot", "target" (the program bound to the slot), "return"
    /// (the core's return flag) and "depth". In a trace of the reference
    /// interpreter "detector" and "target" are None, and so are
    /// "combinator", "slot" and "condition" for a step of a normal program
    /// as written (a statement).
    fn __getitem__<'py>(&self, py: Python<'py>, i: isize) -> PyResult<Bound<'py, PyDict>> {
        let len = self.recorded() as isize;
        let at = if i < 0 { i + len } else { i };
        let out_of_range = || PyIndexError::new_err(format!("step {i} of a trace of {len}"));
        if !(0..len).contains(&at) {
            return Err(out_of_range());
        }
        let row = self.row(at as usize).ok_or_else(out_of_range)?;
        self.record(py, at as usize, &row)
    }

    /// What `run` returns for the same input (None in the trace of a run
    /// that failed, which its RunError carries as `.trace`).
    #[getter]
    fn result<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        from_json_text(py, &self.result.to_string())
    }

    /// The run's steps (the recorded ones are `len(trace)`).
    #[getter]
    fn steps(&self) -> u64 {
        match &self.steps {
            Steps::Network(recorder) => recorder.steps(),
            Steps::Reference(steps) => steps.counted,
        }
    }

    /// One numpy array per field of the records, each `len(trace)` long:
    /// "step", "depth" (integers), "condition", "return" (booleans),
    /// "applier", "combinator", "slot", "target", "detector" (strings, ""
    /// where the record has None; "condition" false there).
    fn to_arrays<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let numpy = py.import("numpy")?;
        let rows: Vec<Row> = (0..self.recorded()).filter_map(|i| self.row(i)).collect();
        let first = self.first();
        let arrays = PyDict::new(py);
        let column = |name: &str, values: Bound<'py, PyAny>, dtype: &str| -> PyResult<()> {
            arrays.set_item(name, numpy.call_method1("asarray", (values, dtype))?)
        };
        let steps: Vec<u64> = (0..rows.len() as u64).map(|i| first + i).collect();
        column("step", steps.into_pyobject(py)?, "int64")?;
        let depths: Vec<u32> = rows.iter().map(|r| r.depth).collect();
        column("depth", depths.into_pyobject(py)?, "int64")?;
        let flags = |f: &dyn Fn(&Row) -> bool| -> Vec<bool> { rows.iter().map(f).collect() };
        column(
            "condition",
            flags(&|r| r.condition.unwrap_or(false)).into_pyobject(py)?,
            "bool",
        )?;
        column("return", flags(&|r| r.ret).into_pyobject(py)?, "bool")?;
        let fields: [(&str, Field); 5] = [
            ("applier", |r| Some(r.applier)),
            ("combinator", |r| r.combinator),
            ("slot", |r| r.slot),
            ("target", |r| r.target),
            ("detector", |r| r.detector),
        ];
        for (name, field) in fields {
            let strings: Vec<&str> = rows.iter().map(|r| field(r).unwrap_or("")).collect();
            column(name, strings.into_pyobject(py)?, "str")?;
        }
        Ok(arrays)
    }

    /// The trace page (`cnpic run --html`): one self-contained HTML
    /// document; for a trace of the reference interpreter, a table of its
    /// first 1,000 steps.
    fn html(&self) -> String {
        let recorder = match &self.steps {
            Steps::Network(recorder) => recorder,
            Steps::Reference(_) => return self.table(),
        };
        let Some(network) = self.plan.network() else {
            return String::new();
        };
        let page = page::Page {
            title: &self.title,
            command: "cnpi (Python): Program.trace",
            memory: network.memory(),
            unit: network.entry().unit,
            written: self.plan.as_written(),
            outcome: &self.text,
            plain: !network.cached(),
        };
        page::render(&page, recorder)
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
        format!("<cnpi.Trace of {} steps of {}>", self.steps(), self.title)
    }
}
