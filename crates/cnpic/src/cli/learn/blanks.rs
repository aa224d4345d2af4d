//! `cnpic learn` on a sketch whose holes stand inside normal programs
//! (`while ?:`, `i = ?`, a line `?`): the search is
//! `cnpi_rl::sketch::blanks`; this file prints what it found.

use std::process::ExitCode;
use std::time::Instant;

use cnpi::compile::Compiled;
use cnpi::diagnostic::{Diagnostic, codes};
use cnpi::files::write_atomic;
use cnpi_rl::sketch::Example;
use cnpi_rl::sketch::blanks::{BlankSketch, Search};

use super::{Format, LearnArgs};
use crate::cli::output::{err, out, outln};
use crate::cli::report::{command_line, exit_code, fail, print_diagnostics};

pub fn learn(args: &LearnArgs, compiled: Compiled, examples: Vec<Example>) -> ExitCode {
    let program = &compiled.program;
    if let Some((id, hole)) = program.holes().next() {
        let diagnostic = Diagnostic::error(
            codes::E1402,
            format!(
                "`{}` is an applier hole, and the file has holes in normal programs too",
                program.defs[id].name
            ),
        )
        .with_label(hole.span, "an applier hole")
        .with_help(
            "an applier hole is learned in a file of appliers only: write this applier, then \
             learn the holes in the normal programs",
        );
        print_diagnostics(&[diagnostic], &compiled.sources);
        return exit_code(false);
    }
    if let Err(diagnostic) = BlankSketch::check(program) {
        print_diagnostics(&[diagnostic], &compiled.sources);
        return exit_code(false);
    }
    let threads = match args.threads {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        n => n.min(256),
    };
    let entry = program.defs[program.entry].name.clone();
    let sketch = BlankSketch {
        name: args.sketch.display().to_string(),
        text: compiled.text.clone(),
        program: compiled.program.clone(),
        entry,
        examples,
        max_steps: args.max_steps,
        threads,
    };
    let start = Instant::now();
    let search = sketch.search(args.trials.saturating_mul(args.episodes), args.seed);
    let seconds = start.elapsed().as_secs_f64();
    let program_text = search.found.as_ref().map(|filling| {
        let header = format!(
            "# Made by: {}\n# The holes were filled by enumeration, checked on the shipped core.\n",
            command_line()
        );
        sketch.completed(filling, &header)
    });
    if let (Some(text), Some(path)) = (&program_text, &args.output)
        && let Err(error) = write_atomic(path, text.as_bytes())
    {
        return fail(Diagnostic::error(
            codes::E0903,
            format!("cannot write `{}`: {error}", path.display()),
        ));
    }
    let shown = search.found.clone().or(search.best.clone().map(|(f, _)| f));
    let holes: Vec<(String, String)> = (sketch.program.blanks.iter())
        .zip(shown.unwrap_or_default())
        .map(|(blank, text)| (place(&sketch.text, blank.span.start), text))
        .collect();
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
                "holes": holes
                    .iter()
                    .map(|(place, text)| (place.clone(), serde_json::Value::from(text.as_str())))
                    .collect::<serde_json::Map<_, _>>(),
                "program": program_text,
                "refused_by_network": search.refused_by_network,
                "ambiguous": search.ambiguous.as_ref().map(|(other, input)| serde_json::json!({
                    "other": other,
                    "input": input,
                })),
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
            if let Some((other, input)) = &search.ambiguous {
                err!(
                    "warning: the examples do not pin the holes down: {} passes them too, and \
                     ends differently on the input {input}; add an example with that input\n",
                    other.join(", ")
                );
            }
            if let (Some(text), None) = (&program_text, &args.output) {
                out!("{text}");
            }
        }
    }
    match (&search.found, &search.unrunnable) {
        (Some(_), _) => exit_code(true),
        (None, Some((filling, diagnostic))) => {
            let mut diagnostic = diagnostic.clone();
            for (blank, text) in sketch.program.blanks.iter().zip(filling) {
                let at = place(&sketch.text, blank.span.start);
                diagnostic = diagnostic.with_note(format!(
                    "the filling {at}: {text} gives every example's output with the reference \
                     interpreter, but the network cannot run the completed program"
                ));
            }
            fail(diagnostic)
        }
        (None, None) => no_filling(&sketch, &search),
    }
}

/// `LINE:COLUMN` of byte `at` of `text`.
fn place(text: &str, at: usize) -> String {
    let before = &text[..at.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    format!("{line}:{column}")
}

/// E1403, with the best filling and the examples it fails.
fn no_filling(sketch: &BlankSketch, search: &Search) -> ExitCode {
    let mut diagnostic = Diagnostic::error(
        codes::E1403,
        "no filling of the holes gives every example's output within the budget",
    )
    .with_help(
        "give more examples or a larger budget (--trials × --episodes); `cnpic explain E1403`",
    );
    if let Some((filling, fails)) = &search.best {
        for (blank, text) in sketch.program.blanks.iter().zip(filling) {
            let at = place(&sketch.text, blank.span.start);
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
    if search.refused_by_network > 0 {
        diagnostic = diagnostic.with_note(format!(
            "{} fillings passed with the reference interpreter but not on the network",
            search.refused_by_network
        ));
    }
    fail(diagnostic)
}
