//! One `learn` for every front end (issue 44): `cnpic learn`, the Python
//! package's `cnpi.learn` and the tests hand [`learn`] a compiled sketch
//! and its examples and get a [`Report`] back: the completed program, each
//! hole's filling, the work done, the warnings of an answer the examples
//! leave open, or why nothing was found. A sketch of appliers only is
//! filled by [`super::learn`] (enumeration or the applier policy
//! gradient), one with holes in normal programs by [`super::blanks`] (the
//! angelic search).

use std::sync::Arc;
use std::time::Instant;

use cnpi::compile::Compiled;
use cnpi::diagnostic::Diagnostic;
use cnpi::exec::limits::Interrupt;
use cnpi_neural::detector::Cache;
use serde_json::{Map, Value, json};

use super::blanks::{BlankSketch, Budget, Filling};
use super::gradient::Settings;
use super::learn::{Method, learn as search_appliers};
use super::{Example, Sketch};

/// What to learn with: `cnpic learn`'s options.
#[derive(Clone, Debug)]
pub struct Request {
    pub seed: u64,
    /// The search of an applier sketch (default: [`super::learn`]'s).
    pub method: Option<Method>,
    pub trials: usize,
    pub episodes: usize,
    /// Worker threads of the gradient (0: one per core).
    pub threads: usize,
    /// The most steps of one run of one example.
    pub max_steps: u64,
    /// With holes in normal programs: the most fillings run after the
    /// answer to check it ([`super::blanks::CHECK_RUNS`] by default).
    pub check_runs: usize,
    /// What the completed program's header names as its maker.
    pub made_by: String,
}

/// What learning did, for every front end.
#[derive(Debug)]
pub struct Report {
    /// The search that ran: `enumerate` or `gradient`.
    pub search: &'static str,
    /// The completed program, when the holes were filled.
    pub program: Option<String>,
    /// Each hole (an applier hole by its definition's name, a hole in a
    /// normal program by `LINE:COLUMN`) with its filling: the answer's, or
    /// the best candidate's.
    pub holes: Vec<(String, String)>,
    /// Candidates (or episodes, for the gradient) in all.
    pub work: usize,
    pub seconds: f64,
    /// The first line of `cnpic learn`'s summary.
    pub headline: String,
    /// What the examples leave open about the answer, one sentence each.
    pub warnings: Vec<String>,
    /// Why no program was found.
    pub failure: Option<Diagnostic>,
    /// The summary's other members, as `--format json` prints them.
    details: Map<String, Value>,
}

impl Report {
    /// The summary of `cnpic learn --format json`.
    pub fn json(&self, seed: u64) -> Value {
        let holes: Map<String, Value> = (self.holes.iter())
            .map(|(hole, text)| (hole.clone(), Value::from(text.clone())))
            .collect();
        let mut summary = json!({
            "search": self.search,
            "learned": self.program.is_some(),
            "seed": seed,
            "work": self.work,
            "seconds": self.seconds,
            "holes": holes,
            "program": self.program,
        });
        if let Value::Object(members) = &mut summary {
            members.extend(self.details.clone());
        }
        summary
    }
}

/// Fills the holes of the compiled sketch `compiled` (named `name`) from
/// `examples` as `request` says; the diagnostics of a sketch that cannot
/// be learned (E1402; a memory the network cannot build). `interrupt` is
/// asked throughout whether to stop (the report then says nothing was
/// found).
pub fn learn(
    name: &str,
    compiled: &Compiled,
    examples: Vec<Example>,
    request: &Request,
    cache: Cache,
    interrupt: Option<Arc<dyn Interrupt + Send>>,
) -> Result<Report, Vec<Diagnostic>> {
    if !compiled.program.blanks.is_empty() {
        let mut sketch = BlankSketch::of(name, compiled, examples, request.max_steps, cache)
            .map_err(|d| vec![d])?;
        sketch.interrupt = interrupt;
        return Ok(blanks(&sketch, request));
    }
    let mut sketch = Sketch::new(
        compiled.program.clone(),
        &compiled.text,
        examples,
        request.max_steps,
        &cache,
    )?;
    sketch.interrupt = interrupt;
    Ok(appliers(&sketch, request))
}

/// The report of a sketch of appliers only.
fn appliers(sketch: &Sketch, request: &Request) -> Report {
    let start = Instant::now();
    let settings = Settings::new(
        request.seed,
        request.trials,
        request.episodes,
        request.threads,
    );
    let learned = search_appliers(sketch, request.method, &settings);
    let seconds = start.elapsed().as_secs_f64();
    let program = learned.program(sketch, &request.made_by);
    let holes = (learned.found.as_ref().or(learned.best.as_ref()))
        .map(|f| sketch.appliers(&f.fill))
        .unwrap_or_default();
    let verdict = if program.is_some() {
        "filled"
    } else {
        "not filled"
    };
    let trials = match learned.trials {
        Some((n, Some(seed))) => format!(" in trial {n} (seed {seed})"),
        Some((n, None)) => format!(" after {n} trials"),
        None => String::new(),
    };
    let headline = format!(
        "holes {verdict}{trials}; {} {} in all, {seconds:.1} s ({})",
        learned.work,
        learned.method.work(),
        learned.method.name()
    );
    let mut details = Map::new();
    details.insert("trials".into(), json!(learned.trials.map(|(n, _)| n)));
    details.insert(
        "trial_seed".into(),
        json!(learned.trials.and_then(|(_, s)| s)),
    );
    Report {
        search: learned.method.name(),
        failure: program.is_none().then(|| learned.failure(sketch)),
        program,
        holes,
        work: learned.work,
        seconds,
        headline,
        warnings: Vec::new(),
        details,
    }
}

/// The report of a sketch with holes in normal programs.
fn blanks(sketch: &BlankSketch, request: &Request) -> Report {
    let start = Instant::now();
    let budget = Budget {
        search: request.trials.saturating_mul(request.episodes),
        check: request.check_runs,
    };
    let search = sketch.search(budget, request.seed);
    let seconds = start.elapsed().as_secs_f64();
    let program = (search.found.as_ref()).map(|filling| sketch.answer(filling, &request.made_by));
    let (verdict, answer) = match search.found {
        Some(_) => (
            "filled",
            format!(" (the answer was number {})", search.to_answer),
        ),
        None => ("not filled", String::new()),
    };
    let headline = format!(
        "holes {verdict}; {} candidates in all{answer}, {seconds:.1} s (enumerate)",
        search.candidates
    );
    let holes_of = |filling: &Filling| -> Map<String, Value> {
        (sketch.places(filling).into_iter())
            .map(|(place, text)| (place, Value::from(text)))
            .collect()
    };
    let details = json!({
        "trials": null,
        "trial_seed": null,
        "to_answer": search.to_answer,
        "refused_by_network": search.refused_by_network,
        "ambiguous": search.ambiguous.as_ref().map(|(other, input)| json!({
            "other": holes_of(other),
            "input": input,
        })),
        "checked": search.checked,
        "runs": search.runs,
        "runs_to_answer": search.runs_to_answer,
        "checked_runs": search.checked_runs,
        "ambiguity_checked": search.found.is_some() && !search.unchecked(),
    });
    Report {
        search: "enumerate",
        failure: search.found.is_none().then(|| search.failure(sketch)),
        program,
        holes: sketch.places(&search.shown()),
        work: search.candidates,
        seconds,
        headline,
        warnings: search.warnings(sketch),
        details: match details {
            Value::Object(members) => members,
            _ => Map::new(),
        },
    }
}
