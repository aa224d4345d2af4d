//! `cnpic run FILE`: compile (or load a `.cnpim`), read the input, execute
//! on the network (or with `--symbolic` on the reference interpreter, or
//! both with `--cross-check`), print the result.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Args, ValueEnum};
use cnpi::combinatorize::Origins;
use cnpi::compile::{compile, runnable, sources};
use cnpi::diagnostic::{Diagnostic, Sources, codes};
use cnpi::env;
use cnpi::exec::Options;
use cnpi::exec::compare::{Run, agrees_with_written, cross_check};
use cnpi::program::{Data, EnvKind, Pointer, Program};
use cnpi::symbolic;
use cnpi_neural::cnpim;
use cnpi_neural::core::Core;
use cnpi_neural::detector::Cache;
use cnpi_neural::memory::{DEFAULT_SEED, Memory, RowId};
use cnpi_neural::runtime;

use super::output::{err, out, outln};
use super::report::{
    build_memory, compile_file, compile_for_network, exit_code, print_diagnostics,
};

#[derive(Args)]
pub struct RunArgs {
    /// The `.cnpi` file to run, or a program memory built by `cnpic build`
    /// (`.cnpim`).
    file: PathBuf,
    /// The input as JSON, or `@PATH` to read it from a file. array:
    /// `[5,3,9,1]`; graph: `{"graph": [[1], []]}`; addition:
    /// `{"a": "1207", "b": "95"}`. Default: an empty input.
    #[arg(long, value_name = "JSON|@PATH", allow_hyphen_values = true)]
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
}

#[derive(Clone, Copy, ValueEnum)]
enum Format {
    Text,
    Json,
}

/// What runs: the memory (with the program and applier to start from) and
/// the reference program when the reference interpreter runs too.
struct Loaded {
    memory: Option<(Memory, usize, RowId)>,
    reference: Option<Program>,
    /// With `--cross-check` on a file of normal programs: the programs as
    /// written, run on the reference interpreter and compared by final
    /// environment (their steps count statements, not core steps), and the
    /// conversion's warnings, which say where they may differ.
    written: Option<(Program, Vec<Diagnostic>)>,
    /// For a file of normal programs, where each part of its combinatory
    /// form came from: errors of the run point at the user's lines, and
    /// `sources` holds the file as written.
    origins: Option<Origins>,
    env: EnvKind,
    /// The program's registers and declared data, which its input is
    /// read against.
    registers: Vec<Pointer>,
    data: Vec<Data>,
    sources: Sources,
    /// Whether the memory was read from a `.cnpim` file.
    from_file: bool,
}

pub fn run(args: &RunArgs) -> ExitCode {
    let loaded = if cnpim::is_memory_file(&args.file) {
        load_memory(args)
    } else {
        load_source(args)
    };
    let Some(loaded) = loaded else {
        return exit_code(false);
    };
    match execute(args, &loaded) {
        Ok(outcome) => {
            let engine = if args.symbolic { "symbolic" } else { "neural" };
            match args.format {
                Format::Text => out!("{}", outcome.to_text(engine)),
                Format::Json => outln!("{}", outcome.to_json(engine)),
            }
            ExitCode::SUCCESS
        }
        Err(diagnostic) => {
            let diagnostic = explain_disagreement(diagnostic, args, &loaded);
            let diagnostic = match &loaded.origins {
                Some(origins) => origins.to_source(diagnostic),
                None => diagnostic,
            };
            print_diagnostics(&[diagnostic], &loaded.sources);
            exit_code(false)
        }
    }
}

/// When the engines disagree on a `.cnpim`, the memory may not hold what
/// its stored source compiles to (its rows were edited): say so, rather
/// than blame cnpic.
fn explain_disagreement(diagnostic: Diagnostic, args: &RunArgs, loaded: &Loaded) -> Diagnostic {
    match &loaded.memory {
        Some((memory, ..)) if diagnostic.code == codes::E1106 && loaded.from_file => {
            let name = args.file.display().to_string();
            memory
                .verify_sources(&name, &Cache::from_env())
                .err()
                .unwrap_or(diagnostic)
        }
        _ => diagnostic,
    }
}

/// A `.cnpi` file: compiled, and unless `--symbolic`, combinatorized if it
/// has normal programs and added to a new memory. `--cross-check` compares
/// with the reference interpreter on the program the network runs.
fn load_source(args: &RunArgs) -> Option<Loaded> {
    if args.symbolic {
        let compiled = compile_file(&args.file, args.entry.as_deref())?;
        if let Err(diagnostics) = runnable(&compiled.program) {
            print_diagnostics(&diagnostics, &compiled.sources);
            return None;
        }
        return Some(Loaded {
            env: compiled.program.env,
            registers: compiled.program.pointers.clone(),
            data: compiled.program.data.clone(),
            memory: None,
            reference: Some(compiled.program),
            written: None,
            origins: None,
            sources: compiled.sources,
            from_file: false,
        });
    }
    let name = args.file.display().to_string();
    let ready = compile_for_network(&args.file, args.entry.as_deref())?;
    let memory = build_memory(&ready, &name, args.seed)?;
    let compiled = ready.combinatory;
    let entry = memory.units[0].entry;
    let (written, origins, sources) = match ready.written {
        Some(written) => (
            (args.cross_check).then_some((written.compiled.program, written.warnings)),
            Some(written.origins),
            written.compiled.sources,
        ),
        None => (None, None, compiled.sources),
    };
    Some(Loaded {
        env: compiled.program.env,
        registers: compiled.program.pointers.clone(),
        data: compiled.program.data.clone(),
        memory: Some((memory, 0, entry)),
        reference: args.cross_check.then_some(compiled.program),
        written,
        origins,
        sources,
        from_file: false,
    })
}

/// A `.cnpim` file: loaded and checked; its program's source is compiled
/// only when the reference interpreter runs.
fn load_memory(args: &RunArgs) -> Option<Loaded> {
    let fail = |diagnostic: Diagnostic| {
        print_diagnostics(&[diagnostic], &Sources::new());
        None
    };
    let memory = match cnpim::read_file(&args.file) {
        Ok(memory) => memory,
        Err(diagnostic) => return fail(diagnostic),
    };
    let (unit, entry) = match memory.entry(args.entry.as_deref()) {
        Ok(found) => found,
        Err(diagnostic) => return fail(diagnostic),
    };
    let info = &memory.units[unit];
    let sources = sources(&info.name, &info.source);
    let env = info.env;
    let (registers, data) = (info.pointers.clone(), info.data.clone());
    let reference = if args.symbolic || args.cross_check {
        let compilation = compile(&info.name, &info.source, Some(&memory.rows[entry].name));
        let Some(program) = compilation.program else {
            print_diagnostics(&compilation.diagnostics, &compilation.sources);
            return None;
        };
        Some(program)
    } else {
        None
    };
    Some(Loaded {
        memory: (!args.symbolic).then_some((memory, unit, entry)),
        reference,
        written: None,
        origins: None,
        env,
        registers,
        data,
        sources,
        from_file: true,
    })
}

/// Runs the engines `args` ask for, compares them with `--cross-check`,
/// and returns the result to print.
fn execute(args: &RunArgs, loaded: &Loaded) -> Run {
    let layout = env::Layout {
        registers: &loaded.registers,
        data: &loaded.data,
    };
    let state = read_input(args.input.as_deref(), loaded.env, &layout)?;
    let stderr = std::io::stderr();
    let mut trace = std::io::BufWriter::new(stderr.lock());
    let mut trace = args.trace.then_some(&mut trace as &mut dyn std::io::Write);
    let options = |trace| Options {
        max_steps: args.max_steps,
        trace,
    };
    let chosen;
    let core = match &args.core {
        Some(path) => {
            chosen = Core::load(path)?;
            &chosen
        }
        None => Core::shipped()?,
    };
    let neural = loaded.memory.as_ref().map(|(memory, unit, entry)| {
        runtime::run(
            core,
            memory,
            *unit,
            *entry,
            state.clone(),
            options(trace.take()),
            !args.no_cache,
        )
    });
    let reference = (loaded.reference.as_ref())
        .map(|program| symbolic::run(program, state.clone(), options(trace.take())));
    if let (Some((program, converted)), Some(Ok(neural))) = (&loaded.written, &neural) {
        let written = symbolic::run(program, state, options(None));
        if let Some(warning) = agrees_with_written(neural, &written, converted)? {
            print_diagnostics(&[warning], &loaded.sources);
        }
    }
    match (neural, reference) {
        (Some(neural), Some(reference)) => {
            cross_check(&neural, &reference)?;
            neural
        }
        (Some(result), None) | (None, Some(result)) => result,
        (None, None) => Err(env::internal("nothing to run")),
    }
}

/// The input text from `--input` (inline or `@PATH`), parsed for `kind`;
/// without `--input`, the environment's empty input.
fn read_input(
    input: Option<&str>,
    kind: EnvKind,
    layout: &env::Layout,
) -> Result<env::State, Diagnostic> {
    let text = match input {
        None => {
            err!(
                "note: no --input given; running on the empty input `{}`\n",
                env::empty_input(kind)
            );
            env::empty_input(kind).to_string()
        }
        Some(arg) => match arg.strip_prefix('@') {
            Some(path) => read_input_file(Path::new(path))?,
            None => arg.to_string(),
        },
    };
    env::read_input(kind, layout, &text)
}

fn read_input_file(path: &Path) -> Result<String, Diagnostic> {
    cnpi::read::text(path).map_err(|error| {
        Diagnostic::error(
            codes::E0902,
            format!("cannot read the input file `{}`: {error}", path.display()),
        )
        .with_help(
            "`--input @PATH` reads JSON from PATH; without `@` the argument itself is the JSON",
        )
    })
}
