//! A program as the commands name it: a `.cnpi` source, compiled (and for
//! the network combinatorized and added to a new program memory), or a
//! `.cnpim` memory, loaded for the engines a run asks for.
//!
//! Every function hands what it finds to a [`Report`] callback, the
//! diagnostics with the sources they are drawn against, warnings included,
//! and returns `None` when it found errors: `cnpic` prints them, the
//! language server or a test may collect them. [`plan_file`] and
//! [`plan_source`] build the run plan ([`cnpi::plan::Plan`]) of a file or a
//! text for the engines a [`Request`] names, the network being the program
//! put on the runtime once ([`OnTheNetwork`]): what `cnpic run`, `cnpic run
//! --inputs` and the Python package run.

use std::borrow::Cow;
use std::path::Path;

use cnpi::compile::{Compiled, ForNetwork};
use cnpi::diagnostic::{Diagnostic, Sources, codes};
use cnpi::plan::{Engines, Source, compile_reporting, for_network_reporting};

use crate::cnpim;
use crate::core::Core;
use crate::describe;
use crate::detector::Cache;
use crate::memory::Memory;
use crate::runtime::{JitMode, OnTheNetwork};

pub use cnpi::plan::Report;

/// A run plan with its network on the runtime.
pub type Plan = cnpi::plan::Plan<OnTheNetwork>;

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
    let text = &text;
    compile_reporting(&Source { name, text, entry }, report)
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
    for_network_reporting(compiled, &path.display().to_string(), report)
}

/// A new program memory holding `ready`'s program (named `name`), its
/// detectors trained and verified through the detector cache; on failure
/// the diagnostic is drawn against `ready.combinatory.sources`.
pub fn build_memory(
    ready: &ForNetwork,
    name: &str,
    seed: u64,
    cache: &Cache,
    progress: Progress,
) -> Result<Memory, Diagnostic> {
    let mut memory = Memory::new(seed, cache)?;
    let compiled = &ready.combinatory;
    memory.add_reporting(&compiled.program, name, &compiled.text, cache, progress)?;
    Ok(memory)
}

/// What a run plan is built with, besides the program itself.
pub struct Request<'a> {
    /// The definition to start from; for a `.cnpim`, NAME or PROGRAM:NAME.
    pub entry: Option<&'a str>,
    /// Which engines run.
    pub engines: Engines,
    /// Run the exact caches of the networks (else the plain networks).
    pub cached: bool,
    /// A core file to run on instead of the shipped core.
    pub core: Option<&'a Path>,
    /// Seed of the keys and of detector training, for a source.
    pub seed: u64,
    /// Where trained detectors are kept (and, for a `.cnpim`, read again
    /// when the engines disagree).
    pub cache: Cache,
    /// When the network's machine code is made (`cnpic` and the Python
    /// package read it from `CNPI_JIT`).
    pub jit: JitMode,
}

impl Request<'_> {
    /// The default request for `engines`: the file's entry, the caches, the
    /// shipped core, the default seed, no detector cache.
    pub fn new(engines: Engines) -> Request<'static> {
        Request {
            entry: None,
            engines,
            cached: true,
            core: None,
            seed: crate::memory::DEFAULT_SEED,
            cache: Cache::none(),
            jit: JitMode::default(),
        }
    }

    /// The core to run on, loaded (and verified) once; the shipped core is
    /// borrowed, not copied.
    fn core(&self) -> Result<Cow<'static, Core>, Diagnostic> {
        match self.core {
            Some(path) => Core::load(path).map(Cow::Owned),
            None => Core::shipped().map(Cow::Borrowed),
        }
    }
}

/// The run plan of a `.cnpi` source or a `.cnpim` memory at `path`; `None`
/// after reporting why not.
pub fn plan_file(
    path: &Path,
    request: &Request,
    progress: Progress,
    report: Report,
) -> Option<Plan> {
    if cnpim::is_memory_path(path) {
        return plan_memory(path, request, report);
    }
    // Read once: a program memory under another name is known by its bytes.
    let text = match cnpi::read::bytes(path) {
        Ok(bytes) if cnpim::is_memory(&bytes) => return plan_memory(path, request, report),
        Ok(bytes) => cnpi::read::utf8(bytes),
        Err(error) => Err(error),
    };
    let text = match text {
        Ok(text) => text,
        Err(error) => {
            report(&[unreadable_source(path, &error)], &Sources::new());
            return None;
        }
    };
    plan_source(
        &path.display().to_string(),
        &text,
        request,
        progress,
        report,
    )
}

/// The run plan of the source `text` (named `name`): compiled, and unless
/// symbolic, combinatorized if it has normal programs and added to a new
/// program memory; `None` after reporting why not.
pub fn plan_source(
    name: &str,
    text: &str,
    request: &Request,
    progress: Progress,
    report: Report,
) -> Option<Plan> {
    let source = Source {
        name,
        text,
        entry: request.entry,
    };
    let network = |ready: &ForNetwork| {
        let core = request.core()?;
        let memory = build_memory(ready, name, request.seed, &request.cache, progress)?;
        let entry = memory.entry(None)?;
        let mut on = OnTheNetwork::new(&core, memory, entry, request.cached)?;
        on.set_jit(request.jit);
        Ok(on)
    };
    Plan::from_source(&source, request.engines, network, report)
}

/// A `.cnpim` file: read and checked; its program's source is compiled
/// only when the reference interpreter runs. Not inlined: its locals
/// would widen `plan_file`'s stack frame, which every run's start pays in
/// page faults.
#[inline(never)]
fn plan_memory(path: &Path, request: &Request, report: Report) -> Option<Plan> {
    let mut fail = |diagnostic: Diagnostic| {
        report(&[diagnostic], &Sources::new());
        None
    };
    let memory = match cnpim::read_file(path) {
        Ok(memory) => memory,
        Err(diagnostic) => return fail(diagnostic),
    };
    let entry = match memory.entry(request.entry) {
        Ok(found) => found,
        Err(diagnostic) => return fail(diagnostic),
    };
    let info = &memory.units[entry.unit];
    let declared = info.declared.clone();
    let (name, text) = (info.name.clone(), info.source.clone());
    let entry_name = memory.rows[entry.row].name.clone();
    let source = Source {
        name: &name,
        text: &text,
        entry: Some(&entry_name),
    };
    let file = path.display().to_string();
    let network = move || {
        let mut on = OnTheNetwork::new(&*request.core()?, memory, entry, request.cached)?;
        on.set_jit(request.jit);
        Ok(on.read_from(&file, request.cache.clone()))
    };
    Plan::from_network(declared, &source, request.engines, network, report)
}
