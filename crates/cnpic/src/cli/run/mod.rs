//! `cnpic run FILE`: build the run plan (`cnpi_neural::load::plan_file`),
//! read the input, run it (`cnpi::plan::Plan::run`), print the result;
//! with `--inputs`, run it on many ([`inputs`]).

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, ValueEnum};
use cnpi::env;
use cnpi::exec::Limits;
use cnpi::exec::limits::MAX_MEMORY;
use cnpi::files::refuse_overwriting;
use cnpi::plan::{Engines, RunOptions, input_file};
use cnpi_experiments::Shard;
use cnpi_neural::load::{Plan, Request, plan_file};
use cnpi_neural::memory::DEFAULT_SEED;
use cnpi_neural::runtime::JitMode;
use cnpi_neural::viewer::{Recorder, Window, page};

use super::output::{err, out, outln};
use super::report::{command_line, exit_code, fail, print_diagnostics, progress_bar};

mod inputs;

/// `--input`'s help, with an input of every registered environment.
fn input_help() -> String {
    let examples: Vec<String> = (env::ENVIRONMENTS.iter())
        .map(|env| format!("{}: `{}`", env.name, env.input.example))
        .collect();
    format!(
        "The input as JSON, or `@PATH` to read it from a file. {}. Default: the environment's empty input.",
        examples.join("; ")
    )
}

#[derive(Args)]
pub struct RunArgs {
    /// The `.cnpi` file to run, or a program memory built by `cnpic build`
    /// (`.cnpim`).
    file: PathBuf,
    /// The input as JSON, or `@PATH` (help: [`input_help`]).
    #[arg(long, value_name = "JSON|@PATH", allow_hyphen_values = true, help = input_help())]
    input: Option<String>,
    /// The definition to start from (default: the one no other definition
    /// refers to). For a `.cnpim`: NAME or PROGRAM:NAME (default: the first
    /// program's entry).
    #[arg(long, value_name = "NAME")]
    entry: Option<String>,
    /// Run on the exact reference interpreter instead of the network.
    #[arg(long, conflicts_with_all = ["cross_check", "no_cache"])]
    symbolic: bool,
    /// Run on the network and on the reference interpreter, and fail
    /// (E1106) unless the final environments and step counts agree. For
    /// normal programs, the programs as written are run too, and must end
    /// in the same environment.
    #[arg(long)]
    cross_check: bool,
    /// Run the plain networks at every step instead of their exact caches.
    #[arg(long)]
    no_cache: bool,
    /// Output format on stdout.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// Stop with an error after this many steps.
    #[arg(long, value_name = "N", default_value_t = 1_000_000_000)]
    max_steps: u64,
    /// Stop with E0708 before the run's calls and stacks (on every engine)
    /// would hold more than this: bytes, or with K, M, G (such as `512M`).
    /// Default: 2G.
    #[arg(long, value_name = "BYTES", value_parser = cnpi::exec::limits::parse_bytes)]
    max_memory: Option<usize>,
    /// Print one line per step on stderr (on the network: combinator,
    /// condition bit, slot, the program bound to it, return flag).
    #[arg(long)]
    trace: bool,
    /// Run on the core file PATH instead of the shipped core. It is
    /// verified when loaded and refused if it fails; a partial core (one
    /// learned by `cnpic experiment rl-core`) refuses a program that needs a
    /// combinator it does not have (E1007).
    #[arg(long, value_name = "PATH", conflicts_with = "symbolic")]
    core: Option<PathBuf>,
    /// Seed of the program memory's keys and of detector training, for a
    /// `.cnpi` file.
    #[arg(long, value_name = "S", default_value_t = DEFAULT_SEED)]
    seed: u64,
    /// Also write the run as a page to step through in a browser (one
    /// self-contained HTML file; see docs/viewer.md).
    #[arg(long, value_name = "OUT.html", conflicts_with = "symbolic")]
    html: Option<PathBuf>,
    /// Record only steps A to B (counted from 1) in the page: `A..B`,
    /// `A..` or `..B`. Default: every step, up to 2,000,000.
    #[arg(long, value_name = "A..B", requires = "html", value_parser = window)]
    html_steps: Option<Window>,
    /// Run on every line of IN.jsonl (one input as `--input` takes it per
    /// line) in one process, printing one `--format json` object per line
    /// in input order; a line that fails gives `{"error": {"code",
    /// "message"}}` and the others go on (exit 1 if any failed).
    #[arg(
        long,
        value_name = "IN.jsonl",
        conflicts_with_all = ["input", "trace", "html"]
    )]
    inputs: Option<PathBuf>,
    /// Threads for `--inputs` (default: every core; at most 8 per core).
    #[arg(long, value_name = "N", requires = "inputs", value_parser = clap::value_parser!(u32).range(1..))]
    jobs: Option<u32>,
    /// With `--inputs`, run only the `i`-th of `n` contiguous blocks of its
    /// lines (1 ≤ i ≤ n, any 64-bit numbers): the shards' outputs,
    /// concatenated in order, are the unsharded output.
    #[arg(long, value_name = "i/n", requires = "inputs")]
    shard: Option<Shard>,
}

fn window(text: &str) -> Result<Window, String> {
    Window::parse(text).ok_or_else(|| format!("`{text}` is not a range of steps such as `1..500`"))
}

#[derive(Clone, Copy, ValueEnum)]
enum Format {
    Text,
    Json,
}

/// When the network's machine code is made: the one place cnpic reads
/// `CNPI_JIT` (`0`, `eager`; else lazy), handing the library the mode.
fn jit_mode() -> JitMode {
    JitMode::asked(|name| std::env::var_os(name))
}

pub fn run(args: &RunArgs) -> ExitCode {
    let inputs = [
        Some(args.file.as_path()),
        input_file(args.input.as_deref()),
        args.core.as_deref(),
        args.inputs.as_deref(),
    ];
    let inputs: Vec<_> = inputs.into_iter().flatten().collect();
    if let Err(diagnostic) = refuse_overwriting(&inputs, &Vec::from_iter(args.html.as_deref())) {
        return fail(diagnostic);
    }
    let engines = match (args.symbolic, args.cross_check) {
        (true, _) => Engines::Symbolic,
        (false, true) => Engines::CrossCheck,
        (false, false) => Engines::Network,
    };
    let request = Request {
        entry: args.entry.as_deref(),
        engines,
        cached: !args.no_cache,
        core: args.core.as_deref(),
        seed: args.seed,
        cache: crate::cli::detector_cache(),
        jit: jit_mode(),
    };
    let plan =
        progress_bar(|progress| plan_file(&args.file, &request, progress, &mut print_diagnostics));
    let Some(plan) = plan else {
        return exit_code(false);
    };
    // The process ends after the run: the plan is left to its exit rather
    // than freed piece by piece (2 % of a one-element run's instructions).
    let plan = std::mem::ManuallyDrop::new(plan);
    let limits = Limits {
        max_memory: args.max_memory.unwrap_or(MAX_MEMORY),
        ..Limits::default()
    };
    if let Some(path) = &args.inputs {
        let jobs = args.jobs.map_or_else(
            || std::thread::available_parallelism().map_or(1, usize::from),
            |jobs| jobs as usize,
        );
        let many = inputs::Many {
            path,
            jobs,
            shard: args.shard.unwrap_or(Shard::ALL),
            max_steps: args.max_steps,
            limits,
        };
        return inputs::run(&plan, &many);
    }
    if args.input.is_none() {
        let empty = env::empty_input(plan.env());
        err!("note: no --input given; running on the empty input `{empty}`\n");
    }
    // The trace's buffer (8 KiB) is made only when there is a trace.
    let mut trace = (args.trace).then(|| std::io::BufWriter::new(std::io::stderr().lock()));
    let mut recorder =
        (args.html.as_ref()).map(|_| Recorder::new(args.html_steps.unwrap_or_else(Window::all)));
    let options = RunOptions {
        max_steps: args.max_steps,
        trace: trace.as_mut().map(|trace| trace as &mut dyn std::io::Write),
        record: recorder.as_mut(),
        limits,
    };
    let result = match plan.read_input_arg(args.input.as_deref()) {
        Ok(state) => plan.run(state, options),
        Err(diagnostic) => Err(diagnostic),
    };
    drop(trace);
    if let (Some(path), Some(recorder)) = (&args.html, &recorder)
        && let Err(diagnostic) = write_page(path, args, &plan, recorder, &result)
    {
        print_diagnostics(&[diagnostic], plan.sources());
        return exit_code(false);
    }
    match result {
        Ok(outcome) => {
            let engine = plan.engine_name();
            match args.format {
                Format::Text => out!("{}", outcome.to_text(engine)),
                Format::Json => outln!("{}", outcome.state.to_json_text(outcome.steps, engine)),
            }
            ExitCode::SUCCESS
        }
        Err(diagnostic) => {
            print_diagnostics(&[diagnostic], plan.sources());
            exit_code(false)
        }
    }
}

/// The page of the network's run (when it ran: not for an input that did
/// not read). Not inlined, as [`inputs::run`]: `run`'s stack frame stays
/// small.
#[inline(never)]
fn write_page(
    path: &std::path::Path,
    args: &RunArgs,
    plan: &Plan,
    recorder: &Recorder,
    result: &cnpi::exec::compare::Run,
) -> Result<(), cnpi::diagnostic::Diagnostic> {
    let Some(network) = plan.network() else {
        return Ok(());
    };
    let outcome = match result {
        Ok(outcome) => outcome.to_text("neural"),
        Err(diagnostic) => format!("{}: {}", diagnostic.code, diagnostic.message),
    };
    let title = args.file.display().to_string();
    let page = page::Page {
        title: &title,
        command: &command_line(),
        memory: network.memory(),
        unit: network.entry().unit,
        written: plan.as_written(),
        outcome: &outcome,
        plain: args.no_cache,
    };
    page::write(path, &page, recorder)
}
