//! `cnpic experiment verification-cost FILE`: the test inputs that verify a
//! program on CNPI against an RNPI-style verification (section 3.3).

use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, ValueEnum};
use cnpi_experiments::verification_cost::{
    Cost, MAX_INPUTS, Observe, Settings, inputs, measure, workload,
};

use super::full_set::Format;
use super::sweep::finish;
use cnpi_neural::load::compile_for_network;

use crate::cli::report::{exit_code, print_diagnostics};

#[derive(Clone, Copy, ValueEnum)]
enum ObserveArg {
    Relations,
    Values,
}

#[derive(Args)]
pub struct VerificationCostArgs {
    /// The program, an `array` program such as `examples/bubblesort.cnpi`
    /// (normal programs are combinatorized first).
    file: PathBuf,
    /// What detectors and the RNPI core observe: `relations` (this
    /// project's detector features) or `values` (the array values read, as
    /// in the paper).
    #[arg(long, value_enum, default_value = "relations")]
    observe: ObserveArg,
    /// Run every array up to this length...
    #[arg(long, value_name = "N", default_value_t = 6,
          value_parser = clap::value_parser!(u64).range(0..=12))]
    max_length: u64,
    /// ... with values `0..V`.
    #[arg(long, value_name = "V", default_value_t = 4,
          value_parser = clap::value_parser!(i64).range(1..=100))]
    values: i64,
    /// Then this many random arrays (seeded), to see whether more inputs
    /// reveal more observation sequences.
    #[arg(long, value_name = "N", default_value_t = 1000)]
    samples: usize,
    /// The longest random array.
    #[arg(long, value_name = "N", default_value_t = 30,
          value_parser = clap::value_parser!(u64).range(0..=1000))]
    sample_length: u64,
    /// Seed of the random arrays.
    #[arg(long, value_name = "S", default_value_t = 1)]
    seed: u64,
    /// `json`: the counts as one object (`cnpi`, `rnpi`, per part).
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
}

pub fn verification_cost(args: &VerificationCostArgs) -> ExitCode {
    let Some(ready) = compile_for_network(&args.file, None, &mut print_diagnostics) else {
        return exit_code(false);
    };
    let settings = Settings {
        observe: match args.observe {
            ObserveArg::Relations => Observe::Relations,
            ObserveArg::Values => Observe::Values,
        },
        max_length: args.max_length as usize,
        values: args.values,
        samples: args.samples,
        sample_length: args.sample_length as usize,
        seed: args.seed,
    };
    // The estimate up front (a progress bar follows on a terminal); what
    // is over the limit is refused by `measure` instead.
    let planned = inputs(&settings);
    if planned <= MAX_INPUTS {
        eprintln!("running {planned} arrays {}", workload(&settings));
    }
    let cost = match measure(&ready.combinatory.program, &settings) {
        Ok(cost) => cost,
        Err(diagnostic) => return finish(Err(diagnostic)),
    };
    if args.format == Format::Json {
        let value = serde_json::json!({ "settings": settings, "cost": cost });
        return finish(Ok(format!("{value}\n")));
    }
    finish(Ok(text(&cost, &settings)))
}

fn text(cost: &Cost, settings: &Settings) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "CNPI: {} test inputs", cost.cnpi);
    for c in &cost.core {
        let _ = writeln!(
            out,
            "  core, {:<28} {:>6} abstract traces",
            c.name, c.inputs
        );
    }
    for d in &cost.detectors {
        let _ = writeln!(out, "  detector {:<25} {:>6} inputs", d.name, d.inputs);
    }
    let _ = writeln!(out, "RNPI-style: {} test inputs", cost.rnpi);
    for s in &cost.subprograms {
        let _ = writeln!(
            out,
            "  {:<34} {:>6} observation sequences",
            s.name, s.inputs
        );
    }
    let growth: Vec<String> = (cost.rnpi_by_length.iter().enumerate())
        .map(|(length, n)| format!("≤{length}: {n}"))
        .collect();
    let _ = writeln!(
        out,
        "RNPI total after every array (values 0..{}) of length {}",
        settings.values,
        growth.join(", ")
    );
    let _ = writeln!(
        out,
        "after {} more random arrays (length ≤ {}, seed {}): {}{}",
        settings.samples,
        settings.sample_length,
        settings.seed,
        cost.rnpi_with_samples,
        if cost.rnpi_with_samples == cost.rnpi {
            " (no new sequence)"
        } else {
            " (the exhaustive count had not saturated)"
        }
    );
    let _ = writeln!(out, "({} inputs run)", cost.inputs_run);
    out
}
