//! What `cnpic learn` and the Python package's `cnpi.learn` share about a
//! sketch with holes in normal programs, around the search itself: making
//! the [`BlankSketch`] from a compiled file (refusing, E1402, more holes
//! than the search fills together), the completed program's
//! text, the warnings of an answer the examples leave open, and the
//! diagnostic of a search that found nothing (E1403 with the best
//! candidate, or the network's diagnostic of a filling it cannot run).

use cnpi::compile::Compiled;
use cnpi::diagnostic::{Diagnostic, codes};
use cnpi::program::Body;
use cnpi_neural::detector::Cache;

use super::{BlankSketch, Filling, Search};
use crate::sketch::Example;

impl BlankSketch {
    /// The sketch of the compiled file `name`, its examples read.
    pub fn of(
        name: &str,
        compiled: &Compiled,
        examples: Vec<Example>,
        max_steps: u64,
        cache: Cache,
    ) -> Result<BlankSketch, Diagnostic> {
        let program = &compiled.program;
        BlankSketch::check(program)?;
        // A hole no program calls is the only root the checker counts as a
        // sketch's, and so the entry: nothing would run the normal programs.
        let entry = &program.defs[program.entry];
        if let Body::Hole(hole) = &entry.body {
            return Err(Diagnostic::error(
                codes::E1402,
                format!("the applier hole `{}` is called by no program", entry.name),
            )
            .with_label(hole.span, "called by nothing, so it would be the entry")
            .with_help("call it from the normal program with the holes, or remove it"));
        }
        Ok(BlankSketch {
            name: name.to_string(),
            text: compiled.text.clone(),
            program: program.clone(),
            entry: program.defs[program.entry].name.clone(),
            examples,
            max_steps,
            cache,
            interrupt: None,
        })
    }

    /// The completed program's text for the answer `filling`, with a header
    /// naming what made it (`made_by`: the command line).
    pub fn answer(&self, filling: &[String], made_by: &str) -> String {
        let header = format!(
            "# Made by: {made_by}\n# The holes were filled by enumeration, checked on the shipped core.\n"
        );
        self.completed(filling, &header)
    }

    /// Each hole's place (`LINE:COLUMN`) with its text in `filling`: the
    /// holes in normal programs, then the applier holes.
    pub fn places(&self, filling: &[String]) -> Vec<(String, String)> {
        let starts = (self.program.blanks.iter().map(|blank| blank.span.start))
            .chain(self.applier_holes().into_iter().map(|(_, at)| at.start));
        starts
            .zip(filling)
            .map(|(start, text)| (place(&self.text, start), text.clone()))
            .collect()
    }
}

impl Search {
    /// The filling to show: the answer, or else the best candidate.
    pub fn shown(&self) -> Filling {
        (self.found.clone())
            .or(self.best.clone().map(|(filling, _)| filling))
            .unwrap_or_default()
    }

    /// What the examples leave open about the answer, one sentence each:
    /// another filling that passes them and ends differently on an input
    /// (named), or a check against the answer cut short by the budget.
    pub fn warnings(&self, sketch: &BlankSketch) -> Vec<String> {
        let mut warnings = Vec::new();
        if let Some((other, input)) = &self.ambiguous {
            let other: Vec<String> = (sketch.places(other).into_iter())
                .map(|(place, text)| format!("{place}: {text}"))
                .collect();
            warnings.push(format!(
                "the examples do not pin the holes down: the filling {} passes them too, and \
                 ends differently on the input {input}; add an example with that input",
                other.join(", ")
            ));
        }
        if self.unchecked() {
            warnings.push(format!(
                "the check's budget ran out after {} more runs ({} fillings), before every \
                 filling as small as the answer or one larger was checked against it; the \
                 examples may not pin the holes down (raise --check-runs)",
                self.checked_runs, self.checked
            ));
        }
        warnings
    }

    /// Why the search found no answer: the network's diagnostic of a
    /// filling that passed with the reference interpreter but that the
    /// network cannot run, or E1403 with the best candidate and the
    /// examples it fails.
    pub fn failure(&self, sketch: &BlankSketch) -> Diagnostic {
        if let Some((filling, diagnostic)) = &self.unrunnable {
            let mut diagnostic = diagnostic.clone();
            for (at, text) in sketch.places(filling) {
                diagnostic = diagnostic.with_note(format!(
                    "the filling {at}: {text} gives every example's output with the reference \
                     interpreter, but the network cannot run the completed program"
                ));
            }
            return diagnostic;
        }
        let mut diagnostic = Diagnostic::error(
            codes::E1403,
            "no filling of the holes gives every example's output within the budget",
        )
        .with_help(
            "give more examples or a larger budget (--trials × --episodes); `cnpic explain E1403`",
        );
        if let Some((filling, fails)) = &self.best {
            for (at, text) in sketch.places(filling) {
                diagnostic = diagnostic.with_note(format!("best candidate: {at}: {text}"));
            }
            let fails: Vec<String> = fails.iter().map(|i| i.to_string()).collect();
            diagnostic = diagnostic.with_note(format!(
                "it fails {} of {} examples (indices {})",
                fails.len(),
                sketch.examples.len(),
                fails.join(", ")
            ));
        }
        if self.refused_by_network > 0 {
            diagnostic = diagnostic.with_note(format!(
                "{} fillings passed with the reference interpreter but not on the network",
                self.refused_by_network
            ));
        }
        diagnostic
    }
}

/// `LINE:COLUMN` of byte `at` of `text`.
fn place(text: &str, at: usize) -> String {
    let before = &text[..at.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    format!("{line}:{column}")
}
