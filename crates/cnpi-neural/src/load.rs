//! A program as the commands name it: a `.cnpi` source, compiled (and for
//! the network combinatorized and added to a new program memory), or a
//! `.cnpim` memory, loaded for the engines a run asks for.
//!
//! Every function hands what it finds to a [`Report`] callback, the
//! diagnostics with the sources they are drawn against, warnings included,
//! and returns `None` when it found errors: `cnpic` prints them, the
//! language server or a test may collect them. [`Loaded`] is a program
//! ready to run; [`Loaded::run`] picks the core, puts the network and the
//! reference interpreter together as [`cnpi::engines::Engines`] and, when
//! the engines disagree on a `.cnpim`, says whether the memory was edited.

use std::io::Write;
use std::path::Path;

use cnpi::combinatorize::Origins;
use cnpi::compile::{Compiled, ForNetwork, compile, for_the_network, runnable, sources};
use cnpi::diagnostic::{Diagnostic, Sources, codes};
use cnpi::engines::{Engines, Network};
use cnpi::env::Declarations;
use cnpi::env::State;
use cnpi::exec::Options;
use cnpi::exec::compare::Run;
use cnpi::program::{Data, EnvKind, Pointer, Program};

use crate::cnpim;
use crate::core::Core;
use crate::describe;
use crate::detector::Cache;
use crate::memory::{Memory, RowId};
use crate::runtime;
use crate::viewer::Recorder;

/// Where diagnostics go, with the sources they are drawn against.
pub type Report<'r> = &'r mut dyn FnMut(&[Diagnostic], &Sources);

/// Progress of detector training: `(done, total)`.
pub type Progress<'p> = &'p mut dyn FnMut(usize, usize);

/// Compiles the file at `path`, reporting every diagnostic; the program
/// when there were no errors.
pub fn compile_file(path: &Path, entry: Option<&str>, report: Report) -> Option<Compiled> {
    let text = match cnpi::read::text(path) {
        Ok(text) => text,
        Err(error) => {
            report(&[unreadable_source(path, &error)], &Sources::new());
            return None;
        }
    };
    compile_text(&path.display().to_string(), text, entry, report)
}

/// Compiles `text`, shown as the file `name`, reporting every diagnostic;
/// the program when there were no errors.
pub fn compile_text(
    name: &str,
    text: String,
    entry: Option<&str>,
    report: Report,
) -> Option<Compiled> {
    let compilation = compile(name, &text, entry);
    report(&compilation.diagnostics, &compilation.sources);
    Some(Compiled {
        program: compilation.program?,
        sources: compilation.sources,
        text,
    })
}

/// E0901 for a source file that cannot be read; a file that is not text
/// is named for what it looks like (a program memory, a core file...).
fn unreadable_source(path: &Path, error: &std::io::Error) -> Diagnostic {
    let shown = path.display();
    if error.kind() != std::io::ErrorKind::InvalidData {
        return Diagnostic::error(codes::E0901, format!("cannot read `{shown}`: {error}"));
    }
    let looks_like = cnpi::read::bytes(path)
        .ok()
        .and_then(|bytes| describe(&bytes));
    match looks_like {
        Some(what) => Diagnostic::error(
            codes::E0901,
            format!("`{shown}` is {what}, not a source file"),
        )
        .with_help(format!(
            "this command reads a `.cnpi` source; a program memory runs with `cnpic run {shown}`"
        )),
        None => Diagnostic::error(
            codes::E0901,
            format!("cannot read `{shown}`: it is not UTF-8 text ({error})"),
        )
        .with_help("this command reads a `.cnpi` source file, which is UTF-8 text"),
    }
}

/// Compiles `path` for the network (combinatorizing normal programs),
/// reporting every diagnostic and warning on the way.
pub fn compile_for_network(path: &Path, entry: Option<&str>, report: Report) -> Option<ForNetwork> {
    let compiled = compile_file(path, entry, report)?;
    ready_for_network(compiled, &path.display().to_string(), report)
}

/// [`compile_for_network`] for a program already compiled (as `name`).
fn ready_for_network(compiled: Compiled, name: &str, report: Report) -> Option<ForNetwork> {
    match for_the_network(compiled, name) {
        Ok(ready) => {
            if let Some(written) = &ready.written {
                report(&written.warnings, &written.compiled.sources);
            }
            Some(ready)
        }
        Err((diagnostics, compiled)) => {
            report(&diagnostics, &compiled.sources);
            None
        }
    }
}

/// A new program memory holding `ready`'s program (named `name`), its
/// detectors trained and verified through the detector cache; on failure
/// the diagnostic is drawn against `ready.combinatory.sources`.
pub fn build_memory(
    ready: &ForNetwork,
    name: &str,
    seed: u64,
    progress: Progress,
) -> Result<Memory, Diagnostic> {
    let cache = Cache::from_env();
    let mut memory = Memory::new(seed, &cache)?;
    let compiled = &ready.combinatory;
    memory.add_reporting(&compiled.program, name, &compiled.text, &cache, progress)?;
    Ok(memory)
}

/// What `cnpic run` was asked to load.
pub struct Request<'a> {
    /// A `.cnpi` source or a `.cnpim` memory.
    pub file: &'a Path,
    /// The definition to start from; for a `.cnpim`, NAME or PROGRAM:NAME.
    pub entry: Option<&'a str>,
    /// Run on the reference interpreter only.
    pub symbolic: bool,
    /// Run on both engines and compare.
    pub cross_check: bool,
    /// Seed of the keys and of detector training, for a source.
    pub seed: u64,
}

/// What runs: the memory (with the program and applier to start from) and
/// the programs the reference interpreter runs, when it runs.
pub struct Loaded {
    pub memory: Option<(Memory, usize, RowId)>,
    reference: Option<Program>,
    /// With `--cross-check` on a file of normal programs: the programs as
    /// written and the conversion's warnings.
    written: Option<(Program, Vec<Diagnostic>)>,
    pub env: EnvKind,
    /// The program's registers and declared data, which its input is read
    /// against.
    registers: Vec<Pointer>,
    data: Vec<Data>,
    /// What run-time diagnostics are drawn against: the file as written
    /// (for normal programs, whose errors [`Loaded::run`] moves there), else
    /// the program the network runs.
    pub sources: Sources,
    /// For a `.cnpi` file of normal programs: its text as written, and
    /// where each part of its combinatory form came from in it.
    pub as_written: Option<(String, Origins)>,
    /// The file's name as given, which a `.cnpim`'s stored source is
    /// verified under.
    file: String,
    /// Whether the memory was read from a `.cnpim` file.
    from_file: bool,
}

/// How [`Loaded::run`] runs.
pub struct RunOptions<'a> {
    pub max_steps: u64,
    pub trace: Option<&'a mut dyn Write>,
    /// A core file to run on instead of the shipped core.
    pub core: Option<&'a Path>,
    /// Run the exact caches of the networks (else the plain networks).
    pub cached: bool,
    /// Where the network's run records each step, if anywhere.
    pub record: Option<&'a mut Recorder>,
}

impl Loaded {
    /// What the program's input is read against.
    pub fn layout(&self) -> Declarations<'_> {
        Declarations {
            registers: &self.registers,
            data: &self.data,
        }
    }

    /// Loads what `request` names; `None` after reporting why not.
    pub fn open(request: &Request, progress: Progress, report: Report) -> Option<Loaded> {
        if cnpim::is_memory_file(request.file) {
            load_memory(request, report)
        } else {
            let compiled = compile_file(request.file, request.entry, report)?;
            let name = request.file.display().to_string();
            load_source(compiled, &name, request, progress, report)
        }
    }

    /// Loads the source `text`, shown as the file `name`, as [`Loaded::open`]
    /// loads a `.cnpi` file (`request.file` is not read): what a program
    /// handed over as a string (the Python package's `cnpi.compile`) runs.
    pub fn from_text(
        name: &str,
        text: String,
        request: &Request,
        progress: Progress,
        report: Report,
    ) -> Option<Loaded> {
        let compiled = compile_text(name, text, request.entry, report)?;
        load_source(compiled, name, request, progress, report)
    }

    /// Runs the engines on `state`, compared when both run, with the
    /// warning of a program as written that ends differently (W1106). A
    /// disagreement on a `.cnpim` whose rows do not hold what its source
    /// compiles to says so rather than blame cnpic; an error of a normal
    /// program points at the user's own line.
    pub fn run(&self, state: State, options: RunOptions) -> (Run, Option<Diagnostic>) {
        let (run, warning) = self.run_engines(state, options);
        let run = run.map_err(|diagnostic| {
            let diagnostic = self.explain_disagreement(diagnostic);
            match &self.as_written {
                Some((_, origins)) => origins.to_source(diagnostic),
                None => diagnostic,
            }
        });
        (run, warning)
    }

    fn run_engines(&self, state: State, options: RunOptions) -> (Run, Option<Diagnostic>) {
        let chosen;
        let core = match options.core.map(Core::load) {
            Some(Ok(loaded)) => {
                chosen = loaded;
                &chosen
            }
            Some(Err(diagnostic)) => return (Err(diagnostic), None),
            None => match Core::shipped() {
                Ok(core) => core,
                Err(diagnostic) => return (Err(diagnostic), None),
            },
        };
        let mut network = (self.memory.as_ref()).map(|(memory, unit, entry)| OnTheNetwork {
            core,
            memory,
            unit: *unit,
            entry: *entry,
            cached: options.cached,
            record: options.record,
        });
        let engines = Engines {
            network: network.as_mut().map(|n| n as &mut dyn Network),
            reference: self.reference.as_ref(),
            written: (self.written.as_ref()).map(|(program, warned)| (program, warned.as_slice())),
        };
        engines.run(state, options.max_steps, options.trace)
    }

    fn explain_disagreement(&self, diagnostic: Diagnostic) -> Diagnostic {
        match &self.memory {
            Some((memory, ..)) if diagnostic.code == codes::E1106 && self.from_file => memory
                .verify_sources(&self.file, &Cache::from_env())
                .err()
                .unwrap_or(diagnostic),
            _ => diagnostic,
        }
    }
}

/// A `.cnpi` file `name`, compiled: unless `symbolic`, combinatorized if
/// it has normal programs and added to a new memory.
fn load_source(
    compiled: Compiled,
    name: &str,
    request: &Request,
    progress: Progress,
    report: Report,
) -> Option<Loaded> {
    if request.symbolic {
        if let Err(diagnostics) = runnable(&compiled.program) {
            report(&diagnostics, &compiled.sources);
            return None;
        }
        return Some(Loaded {
            env: compiled.program.env,
            registers: compiled.program.pointers.clone(),
            data: compiled.program.data.clone(),
            memory: None,
            reference: Some(compiled.program),
            written: None,
            sources: compiled.sources,
            as_written: None,
            file: name.to_string(),
            from_file: false,
        });
    }
    let ready = ready_for_network(compiled, name, report)?;
    let memory = match build_memory(&ready, name, request.seed, progress) {
        Ok(memory) => memory,
        Err(diagnostic) => {
            report(&[diagnostic], &ready.combinatory.sources);
            return None;
        }
    };
    let compiled = ready.combinatory;
    let entry = memory.units[0].entry;
    let (written, as_written, sources) = match ready.written {
        Some(written) => (
            (request.cross_check).then_some((written.compiled.program, written.warnings)),
            Some((written.compiled.text, written.origins)),
            written.compiled.sources,
        ),
        None => (None, None, compiled.sources),
    };
    Some(Loaded {
        env: compiled.program.env,
        registers: compiled.program.pointers.clone(),
        data: compiled.program.data.clone(),
        memory: Some((memory, 0, entry)),
        reference: request.cross_check.then_some(compiled.program),
        written,
        sources,
        as_written,
        file: name.to_string(),
        from_file: false,
    })
}

/// A `.cnpim` file: loaded and checked; its program's source is compiled
/// only when the reference interpreter runs.
fn load_memory(request: &Request, report: Report) -> Option<Loaded> {
    let mut fail = |diagnostic: Diagnostic| {
        report(&[diagnostic], &Sources::new());
        None
    };
    let memory = match cnpim::read_file(request.file) {
        Ok(memory) => memory,
        Err(diagnostic) => return fail(diagnostic),
    };
    let (unit, entry) = match memory.entry(request.entry) {
        Ok(found) => found,
        Err(diagnostic) => return fail(diagnostic),
    };
    let info = &memory.units[unit];
    let sources = sources(&info.name, &info.source);
    let env = info.env;
    let (registers, data) = (info.pointers.clone(), info.data.clone());
    let reference = if request.symbolic || request.cross_check {
        let compilation = compile(&info.name, &info.source, Some(&memory.rows[entry].name));
        let Some(program) = compilation.program else {
            report(&compilation.diagnostics, &compilation.sources);
            return None;
        };
        Some(program)
    } else {
        None
    };
    Some(Loaded {
        memory: (!request.symbolic).then_some((memory, unit, entry)),
        reference,
        written: None,
        env,
        registers,
        data,
        sources,
        as_written: None,
        file: request.file.display().to_string(),
        from_file: true,
    })
}

/// A program of a memory on a core: the network engine of a run.
struct OnTheNetwork<'a> {
    core: &'a Core,
    memory: &'a Memory,
    unit: usize,
    entry: RowId,
    cached: bool,
    record: Option<&'a mut Recorder>,
}

impl Network for OnTheNetwork<'_> {
    fn run(&mut self, state: State, options: Options) -> Run {
        let program = (self.memory, self.unit, self.entry);
        let record = self.record.as_deref_mut();
        runtime::run_recorded(self.core, program, state, options, self.cached, record)
    }
}
