//! `cnpic run FILE`: compile, read the input, execute, print the result.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Args, ValueEnum};
use cnpi::diagnostic::{Diagnostic, Sources, codes};
use cnpi::env::{self, EnvKind};
use cnpi::symbolic::{self, RunOptions};

use super::report::{compile_file, exit_code, print_diagnostics};

#[derive(Args)]
pub struct RunArgs {
    /// The `.cnpi` file to run.
    file: PathBuf,
    /// The input as JSON, or `@PATH` to read it from a file. array:
    /// `[5,3,9,1]`; graph: `{"graph": [[1], []]}`; addition:
    /// `{"a": "1207", "b": "95"}`. Default: an empty input.
    #[arg(long, value_name = "JSON|@PATH", allow_hyphen_values = true)]
    input: Option<String>,
    /// The definition to start from (default: the one no other definition
    /// refers to).
    #[arg(long, value_name = "NAME")]
    entry: Option<String>,
    /// Run on the exact reference interpreter. (The neural engine is not
    /// built yet, so this is also what happens without the flag.)
    #[arg(long)]
    symbolic: bool,
    /// Output format on stdout.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// Stop with an error after this many steps.
    #[arg(long, value_name = "N", default_value_t = 1_000_000_000)]
    max_steps: u64,
    /// Print the call tree (one line per step) on stderr.
    #[arg(long)]
    trace: bool,
}

#[derive(Clone, Copy, ValueEnum)]
enum Format {
    Text,
    Json,
}

/// The engine that produced the result, as named in the JSON output.
const ENGINE: &str = "symbolic";

pub fn run(args: &RunArgs) -> ExitCode {
    let Some((program, sources)) = compile_file(&args.file, args.entry.as_deref()) else {
        return exit_code(false);
    };
    let state = match read_input(args.input.as_deref(), program.env) {
        Ok(state) => state,
        Err(diagnostic) => return fail(diagnostic, &sources),
    };
    let stderr = std::io::stderr();
    let mut trace = std::io::BufWriter::new(stderr.lock());
    let options = RunOptions {
        max_steps: args.max_steps,
        trace: if args.trace { Some(&mut trace) } else { None },
    };
    let result = symbolic::run(&program, state, options);
    let _ = trace.flush();
    drop(trace);
    match result {
        Ok(outcome) => {
            match args.format {
                Format::Text => print!("{}", outcome.to_text(ENGINE)),
                Format::Json => println!("{}", outcome.to_json(ENGINE)),
            }
            ExitCode::SUCCESS
        }
        Err(diagnostic) => fail(diagnostic, &sources),
    }
}

fn fail(diagnostic: Diagnostic, sources: &Sources) -> ExitCode {
    print_diagnostics(&[diagnostic], sources);
    exit_code(false)
}

/// The input text from `--input` (inline or `@PATH`), parsed for `kind`;
/// without `--input`, the environment's empty input.
fn read_input(input: Option<&str>, kind: EnvKind) -> Result<env::State, Diagnostic> {
    let text = match input {
        None => {
            eprintln!(
                "note: no --input given; running on the empty input `{}`",
                env::empty_input(kind)
            );
            env::empty_input(kind).to_string()
        }
        Some(arg) => match arg.strip_prefix('@') {
            Some(path) => read_input_file(Path::new(path))?,
            None => arg.to_string(),
        },
    };
    env::parse_input(kind, &text)
}

fn read_input_file(path: &Path) -> Result<String, Diagnostic> {
    std::fs::read_to_string(path).map_err(|error| {
        Diagnostic::error(
            codes::E0902,
            format!("cannot read the input file `{}`: {error}", path.display()),
        )
        .with_help(
            "`--input @PATH` reads JSON from PATH; without `@` the argument itself is the JSON",
        )
    })
}
