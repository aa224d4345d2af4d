//! `Program.trace(engine="symbolic")`: a run of the exact reference
//! interpreter recorded step by step, through the events it reports
//! (`cnpi::symbolic::run_observed`): one record per step it counts, so
//! that `len(trace)` is the run's "steps". A combinator's core step has
//! the fields of the network's records (its applier, combinator, slot,
//! condition bit, return flag and depth); a step of a normal program as
//! written is a statement, with its definition and depth.

use cnpi::diagnostic::Diagnostic;
use cnpi::env;
use cnpi::exec::{Limits, Options, Outcome};
use cnpi::program::{CombinatorKind, DefId, Slot};
use cnpi::symbolic::{Event, run_observed};
use cnpi_neural::load::Plan;
use cnpi_neural::viewer::Window;

/// One step of the reference interpreter.
#[derive(Clone, Copy)]
pub struct Step {
    pub def: DefId,
    /// The combinator, the slot and the condition bit of a core step;
    /// `None` for a statement of a normal program.
    pub core: Option<(CombinatorKind, Slot, bool)>,
    /// The last slot of its activation (the core's return flag).
    pub ret: bool,
    pub depth: u32,
}

/// The steps of a run, the first [`Window::LIMIT`] of them kept.
pub struct Steps {
    pub kept: Vec<Step>,
    /// Every step counted, kept or not.
    pub counted: u64,
}

/// Runs `plan`'s reference program on `input` within `limits` and records
/// its steps.
pub fn record(
    plan: &Plan,
    input: &str,
    max_steps: u64,
    limits: Limits,
) -> (Result<Outcome, Diagnostic>, Steps) {
    let mut steps = Steps {
        kept: Vec::new(),
        counted: 0,
    };
    let Some(program) = plan.reference() else {
        return (Err(env::internal("no reference program to trace")), steps);
    };
    let ran = env::read_input(plan.declarations(), input).and_then(|state| {
        // The steps kept count against the run's memory limit.
        let mut observe = |event: Event<'_>| {
            let step = match event {
                Event::Start { .. } => return held(&steps.kept),
                Event::Step {
                    def,
                    last,
                    kind,
                    slot,
                    c,
                    depth,
                    ..
                } => Step {
                    def,
                    core: Some((kind, slot, c)),
                    ret: last,
                    depth,
                },
                Event::Statement { def, depth, .. } => Step {
                    def,
                    core: None,
                    ret: false,
                    depth,
                },
            };
            steps.counted += 1;
            if steps.counted <= Window::LIMIT {
                steps.kept.push(step);
            }
            held(&steps.kept)
        };
        let options = Options {
            limits,
            ..Options::steps(max_steps)
        };
        run_observed(program, state, options, &mut observe)
    });
    (ran, steps)
}

/// The bytes `kept` holds.
fn held(kept: &Vec<Step>) -> usize {
    kept.capacity() * std::mem::size_of::<Step>()
}
