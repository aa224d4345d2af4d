//! Completing a sketch in one call: the search chosen (enumeration for one
//! hole, the gradient for two, unless told; each needed less work than the
//! other there on every sketch measured, docs/reproduction.md), run within
//! its budget, and what it found. `cnpic learn` and the Python package's
//! `cnpi.learn` both call [`learn`].

use cnpi::diagnostic::{Diagnostic, codes};

use super::enumerate::enumerate;
use super::gradient::{Settings, search};
use super::{Found, Sketch};

/// How to search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// The paper's applier policy gradient ([`super::gradient`]).
    Gradient,
    /// Every candidate in a fixed order ([`super::enumerate`]).
    Enumerate,
}

impl Method {
    pub fn name(self) -> &'static str {
        match self {
            Method::Gradient => "gradient",
            Method::Enumerate => "enumerate",
        }
    }

    /// What one unit of its work is.
    pub fn work(self) -> &'static str {
        match self {
            Method::Gradient => "episodes",
            Method::Enumerate => "candidates",
        }
    }
}

/// What a search found.
pub struct Learned {
    pub method: Method,
    /// The fill that gives every example's output.
    pub found: Option<Found>,
    /// The best fill: the one found, or the closest candidate.
    pub best: Option<Found>,
    /// Trials run and the successful one's seed (gradient only).
    pub trials: Option<(usize, Option<u64>)>,
    /// Episodes (gradient) or candidates (enumerate) in all.
    pub work: usize,
}

/// Searches for a fill of `sketch`'s holes with `method` (default: see the
/// module) within `settings` (with enumeration, the budget is trials ×
/// episodes candidates).
pub fn learn(sketch: &Sketch, method: Option<Method>, settings: &Settings) -> Learned {
    let method = method.unwrap_or(if sketch.spaces.len() > 1 {
        Method::Gradient
    } else {
        Method::Enumerate
    });
    match method {
        Method::Gradient => {
            let result = search(sketch, settings);
            let success = result.success();
            Learned {
                method,
                found: success.map(|t| t.found.clone()),
                trials: Some((result.trials, success.map(|t| t.seed))),
                best: result.best.map(|t| t.found),
                work: result.episodes,
            }
        }
        Method::Enumerate => {
            let budget = settings.trials.saturating_mul(settings.episodes);
            let result = enumerate(sketch, budget);
            Learned {
                method,
                best: result.found.clone().or(result.best),
                found: result.found,
                trials: None,
                work: result.candidates,
            }
        }
    }
}

impl Learned {
    /// The completed program (the sketch's text with its holes filled,
    /// under a header of `made_by` and how the holes were filled), when a
    /// fill was found.
    pub fn program(&self, sketch: &Sketch, made_by: &str) -> Option<String> {
        let found = self.found.as_ref()?;
        let how = match self.trials {
            Some((trial, Some(seed))) => {
                format!("in trial {trial} (seed {seed}) by the applier policy gradient")
            }
            _ => "by enumeration".to_string(),
        };
        let header =
            format!("# Made by: {made_by}\n# The holes were filled {how} on the shipped core.\n");
        Some(sketch.completed(&found.fill, &header))
    }

    /// E1403 when no fill was found, with the best candidate and the
    /// examples it fails.
    pub fn failure(&self, sketch: &Sketch) -> Diagnostic {
        let mut diagnostic = Diagnostic::error(
            codes::E1403,
            "no filling of the holes gives every example's output within the budget",
        )
        .with_help("try more --trials or --episodes, or the other --search; `cnpic explain E1403`");
        if let Some(best) = &self.best {
            for (name, applier) in sketch.appliers(&best.fill) {
                diagnostic = diagnostic.with_note(format!("best candidate: def {name}: {applier}"));
            }
            let fails: Vec<String> = best.fails.iter().map(|i| i.to_string()).collect();
            diagnostic = diagnostic.with_note(format!(
                "it fails {} of {} examples (indices {})",
                best.fails.len(),
                sketch.examples.len(),
                fails.join(", ")
            ));
        }
        diagnostic
    }
}
