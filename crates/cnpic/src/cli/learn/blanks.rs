//! `cnpic learn` on a sketch whose holes stand inside normal programs
//! (`while ?:`, `i = ?`, a line `?`): the search is
//! `cnpi_rl::sketch::blanks`; this file prints what it found.

use std::process::ExitCode;
use std::time::Instant;

use cnpi::compile::Compiled;
use cnpi::diagnostic::{Diagnostic, codes};
use cnpi::files::write_atomic;
use cnpi_rl::sketch::Example;
use cnpi_rl::sketch::blanks::BlankSketch;

use super::{Format, LearnArgs};
use crate::cli::output::{err, out, outln};
use crate::cli::report::{command_line, exit_code, fail, print_diagnostics};

pub fn learn(args: &LearnArgs, compiled: Compiled, examples: Vec<Example>) -> ExitCode {
    let name = args.sketch.display().to_string();
    let cache = crate::cli::detector_cache();
    let sketch = match BlankSketch::of(&name, &compiled, examples, args.max_steps, cache) {
        Ok(sketch) => sketch,
        Err(diagnostic) => {
            print_diagnostics(&[diagnostic], &compiled.sources);
            return exit_code(false);
        }
    };
    let start = Instant::now();
    let search = sketch.search(args.trials.saturating_mul(args.episodes), args.seed);
    let seconds = start.elapsed().as_secs_f64();
    let program_text =
        (search.found.as_ref()).map(|filling| sketch.answer(filling, &command_line()));
    if let (Some(text), Some(path)) = (&program_text, &args.output)
        && let Err(error) = write_atomic(path, text.as_bytes())
    {
        return fail(Diagnostic::error(
            codes::E0903,
            format!("cannot write `{}`: {error}", path.display()),
        ));
    }
    let holes = sketch.places(&search.shown());
    match args.format {
        Format::Json => {
            let json = serde_json::json!({
                "search": "enumerate",
                "learned": search.found.is_some(),
                "seed": args.seed,
                "trials": null,
                "trial_seed": null,
                "work": search.candidates,
                "to_answer": search.to_answer,
                "seconds": seconds,
                "holes": holes_of(&sketch, &search.shown()),
                "program": program_text,
                "refused_by_network": search.refused_by_network,
                "ambiguous": search.ambiguous.as_ref().map(|(other, input)| serde_json::json!({
                    "other": holes_of(&sketch, other),
                    "input": input,
                })),
                "checked": search.checked,
                "runs": search.runs,
                "runs_to_answer": search.runs_to_answer,
                "checked_runs": search.checked_runs,
                "ambiguity_checked": search.found.is_some() && !search.unchecked(),
            });
            outln!("{json}");
        }
        Format::Text => {
            let verdict = if search.found.is_some() {
                "filled"
            } else {
                "not filled"
            };
            let answer = match search.found {
                Some(_) => format!(" (the answer was number {})", search.to_answer),
                None => String::new(),
            };
            err!(
                "cnpic learn: holes {verdict}; {} candidates in all{answer}, {seconds:.1} s (enumerate)\n",
                search.candidates
            );
            for (place, text) in &holes {
                err!("  {place}: {text}\n");
            }
            for warning in search.warnings(&sketch) {
                err!("warning: {warning}\n");
            }
            if let (Some(text), None) = (&program_text, &args.output) {
                out!("{text}");
            }
        }
    }
    match &search.found {
        Some(_) => exit_code(!args.strict || search.warnings(&sketch).is_empty()),
        None => fail(search.failure(&sketch)),
    }
}

/// Each hole's place with its text in `filling`, as a JSON object.
fn holes_of(
    sketch: &BlankSketch,
    filling: &[String],
) -> serde_json::Map<String, serde_json::Value> {
    (sketch.places(filling).into_iter())
        .map(|(place, text)| (place, serde_json::Value::from(text)))
        .collect()
}
