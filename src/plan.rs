//! One run plan: what runs, on which engines, with which checks, built
//! once and run on as many inputs as wanted, from as many threads as
//! wanted (`cnpic run`, `cnpic run --inputs`, the Python package).
//!
//! A [`Plan`] is made from a source ([`Plan::from_source`]: compiled, and
//! for the network combinatorized, once) or from a network loaded
//! elsewhere with the source it was made from ([`Plan::from_network`]: a
//! program memory). [`Engines`] says which engines run: the network, the
//! exact reference interpreter, or both compared (a file of normal
//! programs cross-checked is also run as written). The network is whatever
//! implements [`NetworkEngine`] (the `cnpi-neural` runtime does), so this crate
//! stays free of it. [`Plan::run`] runs one input, [`Plan::run_input`] reads
//! one from its JSON first, [`Plan::run_many`] runs many on threads, in
//! input order. A plan is immutable: every run has its own world.

use std::io::Write;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::combinatorize::Origins;
use crate::compile::{Compiled, ForNetwork, compile, for_the_network, runnable};
use crate::diagnostic::{Diagnostic, Sources, codes};
use crate::env::{self, Declarations, State};
use crate::exec::compare::{Run, agrees_with_written, both_stopped, cross_check};
use crate::exec::{Limits, Options, Returns, Trace};
use crate::program::hidden::register_shown;
use crate::program::{EnvKind, Pointer, Program};
use crate::span::Span;
use crate::symbolic;

/// Where diagnostics go, with the sources they are drawn against.
pub type Report<'r> = &'r mut dyn FnMut(&[Diagnostic], &Sources);

/// Which engines a plan runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engines {
    /// The network alone (`cnpic run`).
    Network,
    /// The exact reference interpreter alone (`--symbolic`).
    Symbolic,
    /// Both, compared (`--cross-check`): a run fails with E1106 unless the
    /// final environments and step counts agree.
    CrossCheck,
}

impl Engines {
    fn network(self) -> bool {
        self != Engines::Symbolic
    }

    fn reference(self) -> bool {
        self != Engines::Network
    }
}

/// A program loaded on the network, ready to run on an input; shared by
/// every thread of a plan.
pub trait NetworkEngine: Send + Sync {
    /// What a run may record step by step (the trace viewer's recorder).
    type Recorder;

    /// Runs on `state`, telling `record` (if any) of every step.
    fn run(&self, state: State, options: Options, record: Option<&mut Self::Recorder>) -> Run;

    /// A disagreement of the engines (E1106), explained if the network
    /// knows more (a program memory edited by hand); by default as it is.
    fn explain(&self, disagreement: Diagnostic) -> Diagnostic {
        disagreement
    }
}

/// A source text to build a plan from.
#[derive(Clone, Copy, Debug)]
pub struct Source<'a> {
    /// How diagnostics name the file.
    pub name: &'a str,
    pub text: &'a str,
    /// The definition to start from (default: the one no other refers to).
    pub entry: Option<&'a str>,
}

/// What the state the network runs `ready` on holds: the declarations as
/// the user wrote them (the combinatory form declares the same, at other
/// places, so that a `var` that cannot be set up points at the user's
/// line), then the registers and (hidden) memory the conversion appends
/// for calls with results.
fn on_the_network(ready: &ForNetwork) -> Declarations {
    let converted = &ready.combinatory.program;
    let Some(written) = &ready.written else {
        return Declarations::of(converted);
    };
    let written = &written.compiled.program;
    Declarations {
        env: written.env,
        registers: with_appended(&written.pointers, &converted.pointers),
        data: with_appended(&written.data, &converted.data),
    }
}

/// `written`, then what `converted` declares beyond it.
fn with_appended<T: Clone>(written: &[T], converted: &[T]) -> Vec<T> {
    [written, converted.get(written.len()..).unwrap_or_default()].concat()
}

/// A file of normal programs as the user wrote it: its text, and where
/// each part of the combinatory program the network runs came from.
pub struct AsWritten {
    pub text: String,
    pub origins: Origins,
    /// The names of the file's definitions, by number: `_1_q`, local `q`
    /// of definition 1 in combinatory form, is a local of `programs[1]`.
    pub programs: Vec<String>,
    /// Where each definition starts in `text`, by number.
    starts: Vec<usize>,
}

impl AsWritten {
    /// The number of the definition that the code at `span` (of the
    /// combinatory program) came from.
    pub fn program_at(&self, span: Span) -> Option<usize> {
        let at = self.origins.locate(span)?.start;
        self.starts.iter().rposition(|&start| start <= at)
    }

    /// The trace's line for a `_return` at `span` on `registers` (those
    /// of the file as written first) holding `values`: the returning program and
    /// its locals as written (language.md §5.2).
    fn returns(&self, span: Span, registers: &[Pointer], values: &[i64]) -> Option<String> {
        let program = self.program_at(span)?;
        let name = self.programs.get(program)?;
        let locals: Vec<String> = (registers.iter().zip(values))
            .filter(|(register, _)| register.owner == Some(program))
            .filter_map(|(register, value)| {
                register_shown(&register.name).map(|shown| format!("{shown} = {value}"))
            })
            .collect();
        Some(match locals.is_empty() {
            true => format!("{name} returns"),
            false => format!("{name} returns · locals {}", locals.join(", ")),
        })
    }
}

/// How one run of a plan runs.
pub struct RunOptions<'a, R> {
    /// Stop with E0701 after this many steps.
    pub max_steps: u64,
    /// Where the first engine that runs writes its trace, if anywhere.
    pub trace: Option<&'a mut dyn Write>,
    /// Where the network's run records each step, if anywhere.
    pub record: Option<&'a mut R>,
    /// The nesting and memory limits of every engine, and the interrupt
    /// flag they look at.
    pub limits: Limits<'a>,
}

impl<'a, R> RunOptions<'a, R> {
    /// A run of at most `max_steps` steps within `limits`, neither traced
    /// nor recorded.
    pub fn limited(max_steps: u64, limits: Limits<'a>) -> Self {
        RunOptions {
            max_steps,
            trace: None,
            record: None,
            limits,
        }
    }
}

/// The default step limit of a run (`--max-steps`).
pub const MAX_STEPS: u64 = 1_000_000_000;

/// What runs, on which engines, with which checks.
pub struct Plan<N> {
    declared: Declarations,
    network: Option<N>,
    /// The combinatory program the reference interpreter runs.
    reference: Option<Program>,
    /// With a cross-check of a file of normal programs: the programs as
    /// written, which must end in the network's final environment (their
    /// steps count statements, not core steps).
    written: Option<Program>,
    as_written: Option<AsWritten>,
    /// What run-time diagnostics are drawn against: the file as written
    /// (for normal programs, whose errors [`Plan::run`] moves there), else
    /// the program that runs.
    sources: Sources,
}

/// Compiles `source`, reporting every diagnostic; the program when there
/// were no errors.
pub fn compile_reporting(source: &Source, report: Report) -> Option<Compiled> {
    let compilation = compile(source.name, source.text, source.entry);
    report(&compilation.diagnostics, &compilation.sources);
    Some(Compiled {
        program: compilation.program?,
        sources: compilation.sources,
        text: source.text.to_string(),
    })
}

/// What the network runs for `compiled` (see [`for_the_network`]),
/// reporting the conversion's warnings and errors.
pub fn for_network_reporting(compiled: Compiled, name: &str, report: Report) -> Option<ForNetwork> {
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

impl<N: NetworkEngine> Plan<N> {
    /// The plan for `source` on `engines`: compiled; unless symbolic,
    /// combinatorized if it has normal programs, and put on the network by
    /// `network` (whose error is drawn against the combinatory program).
    /// `None` after reporting why not.
    pub fn from_source(
        source: &Source,
        engines: Engines,
        network: impl FnOnce(&ForNetwork) -> Result<N, Diagnostic>,
        report: Report,
    ) -> Option<Plan<N>> {
        let compiled = compile_reporting(source, report)?;
        if !engines.network() {
            if let Err(diagnostics) = runnable(&compiled.program) {
                report(&diagnostics, &compiled.sources);
                return None;
            }
            return Some(Plan {
                declared: Declarations::of(&compiled.program),
                network: None,
                reference: Some(compiled.program),
                written: None,
                as_written: None,
                sources: compiled.sources,
            });
        }
        let ready = for_network_reporting(compiled, source.name, report)?;
        let network = match network(&ready) {
            Ok(network) => network,
            Err(diagnostic) => {
                report(&[diagnostic], &ready.combinatory.sources);
                return None;
            }
        };
        let declared = on_the_network(&ready);
        let combinatory = ready.combinatory;
        let (written, as_written, sources) = match ready.written {
            Some(written) => {
                let defs = &written.compiled.program.defs;
                let programs = defs.iter().map(|def| def.name.clone()).collect();
                let starts = defs.iter().map(|def| def.span.start).collect();
                (
                    (engines.reference()).then_some(written.compiled.program),
                    Some(AsWritten {
                        text: written.compiled.text,
                        origins: written.origins,
                        programs,
                        starts,
                    }),
                    written.compiled.sources,
                )
            }
            None => (None, None, combinatory.sources),
        };
        Some(Plan {
            declared,
            network: Some(network),
            reference: (engines.reference()).then_some(combinatory.program),
            written,
            as_written,
            sources,
        })
    }

    /// The plan for a program already on the network (a program memory),
    /// which declares `declared` and was compiled from `source` (its
    /// combinatory form, which the reference interpreter runs, compiled
    /// only if it runs); `network` is asked for the network only if it
    /// runs. `None` after reporting why not.
    pub fn from_network(
        declared: Declarations,
        source: &Source,
        engines: Engines,
        network: impl FnOnce() -> Result<N, Diagnostic>,
        report: Report,
    ) -> Option<Plan<N>> {
        let sources = crate::compile::sources(source.name, source.text);
        let network = match engines.network().then(network).transpose() {
            Ok(network) => network,
            Err(diagnostic) => {
                report(&[diagnostic], &sources);
                return None;
            }
        };
        let reference = if engines.reference() {
            let compilation = compile(source.name, source.text, source.entry);
            let Some(program) = compilation.program else {
                report(&compilation.diagnostics, &compilation.sources);
                return None;
            };
            Some(program)
        } else {
            None
        };
        Some(Plan {
            declared,
            network,
            reference,
            written: None,
            as_written: None,
            sources,
        })
    }

    /// The environment the program acts on.
    pub fn env(&self) -> EnvKind {
        self.declared.env
    }

    /// What the program's input is read against.
    pub fn declarations(&self) -> &Declarations {
        &self.declared
    }

    /// What run-time diagnostics are drawn against.
    pub fn sources(&self) -> &Sources {
        &self.sources
    }

    /// The program the reference interpreter runs, when it runs (the
    /// program as written with `Engines::Symbolic`).
    pub fn reference(&self) -> Option<&Program> {
        self.reference.as_ref()
    }

    /// The network, when it runs.
    pub fn network(&self) -> Option<&N> {
        self.network.as_ref()
    }

    /// For a file of normal programs on the network: the file as written.
    pub fn as_written(&self) -> Option<&AsWritten> {
        self.as_written.as_ref()
    }

    /// The engine whose run is reported: `neural`, or `symbolic` when the
    /// reference interpreter runs alone (the `engine` of the output).
    pub fn engine_name(&self) -> &'static str {
        if self.network.is_some() {
            "neural"
        } else {
            "symbolic"
        }
    }

    /// The state the JSON `json` describes for this program.
    pub fn read_input(&self, json: &str) -> Result<State, Diagnostic> {
        env::read_input(&self.declared, json)
    }

    /// The state `--input` describes: `arg` is JSON, or `@PATH` to read it
    /// from a file; without it, the environment's empty input.
    pub fn read_input_arg(&self, arg: Option<&str>) -> Result<State, Diagnostic> {
        match (arg, input_file(arg)) {
            (None, _) => self.read_input(env::empty_input(self.env())),
            (Some(_), Some(path)) => self.read_input(&read_input_file(path)?),
            (Some(arg), None) => self.read_input(arg),
        }
    }

    /// Runs every engine on `state` (the trace, if any, goes to the first
    /// that runs) and compares them: the run to report (the network's, when
    /// it ran; E1106 when the engines disagree). An error of a normal
    /// program points at the user's own line.
    pub fn run(&self, state: State, options: RunOptions<N::Recorder>) -> Run {
        self.run_engines(state, options).map_err(|diagnostic| {
            let diagnostic = match (&self.network, diagnostic.code == codes::E1106) {
                (Some(network), true) => network.explain(diagnostic),
                _ => diagnostic,
            };
            match &self.as_written {
                Some(written) => written.origins.to_source(diagnostic),
                None => diagnostic,
            }
        })
    }

    /// Reads `input` as `--input` takes it (JSON, or `@PATH`) and runs on
    /// it (see [`Plan::run`]).
    pub fn run_input(&self, input: &str, max_steps: u64, limits: Limits) -> Run {
        let state = self.read_input_arg(Some(input))?;
        self.run(state, RunOptions::limited(max_steps, limits))
    }

    /// [`Plan::run_input`] on every input on `jobs` threads (0: one per
    /// core; never more than [`crate::threads::usable`] allows, nor more
    /// than the system lets start), in input order; `done` is called after
    /// each run, from its thread.
    pub fn run_many<S: AsRef<str> + Sync>(
        &self,
        inputs: &[S],
        max_steps: u64,
        limits: Limits,
        jobs: usize,
        done: &(dyn Fn() + Sync),
    ) -> Vec<Run> {
        let next = AtomicUsize::new(0);
        let work = || {
            let mut ran = Vec::new();
            loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(input) = inputs.get(i) else {
                    return ran;
                };
                ran.push((i, self.run_input(input.as_ref(), max_steps, limits)));
                done();
            }
        };
        let jobs = crate::threads::usable(jobs, inputs.len());
        let mut all: Vec<(usize, Run)> = if jobs == 1 {
            work()
        } else {
            std::thread::scope(|scope| {
                // A thread the system cannot start leaves its share to the
                // others, and to this one.
                let threads: Vec<_> = (1..jobs)
                    .map_while(|_| std::thread::Builder::new().spawn_scoped(scope, work).ok())
                    .collect();
                let mut all = work();
                // The runs left are the other threads'; the interrupt is
                // still looked at while they end (Ctrl-C in Python is
                // seen on this thread only).
                while limits.interrupt.is_some() && !threads.iter().all(|t| t.is_finished()) {
                    limits.interrupted();
                    std::thread::sleep(std::time::Duration::from_millis(2));
                }
                for thread in threads {
                    let ran = thread
                        .join()
                        .unwrap_or_else(|e| std::panic::resume_unwind(e));
                    all.extend(ran);
                }
                all
            })
        };
        all.sort_unstable_by_key(|(i, _)| *i);
        all.into_iter().map(|(_, ran)| ran).collect()
    }

    fn run_engines(&self, state: State, options: RunOptions<N::Recorder>) -> Run {
        let RunOptions {
            max_steps,
            trace,
            record,
            limits,
        } = options;
        let registers = &self.declared.registers;
        let returns = (self.as_written.as_ref()).map(|written| {
            move |span: Span, values: &[i64]| written.returns(span, registers, values)
        });
        let returns = returns.as_ref().map(|r| r as &Returns);
        let mut trace = trace.map(|out| Trace { out, returns });
        let options = |trace| Options {
            max_steps,
            trace,
            limits,
        };
        // The state is cloned only for an engine that runs after another
        // (a 1024 × 1024 matrix is 8 MB to copy and to fault in).
        let written = (self.written.as_ref()).filter(|_| self.network.is_some());
        let mut state = Some(state);
        let mut take = |more: bool| match more {
            true => state.clone(),
            false => state.take(),
        };
        let neural = (self.network.as_ref()).map(|network| {
            let state = take(self.reference.is_some() || written.is_some());
            network.run(state.expect("not taken yet"), options(trace.take()), record)
        });
        let reference = (self.reference.as_ref()).map(|program| {
            let state = take(written.is_some()).expect("not taken yet");
            symbolic::run(program, state, options(trace.take()))
        });
        let written = match (written, &neural) {
            (Some(program), Some(neural)) => {
                let state = take(false).expect("not taken yet");
                let written = symbolic::run(program, state, options(None));
                agrees_with_written(neural, &written)?;
                Some(written)
            }
            _ => None,
        };
        match (neural, reference.as_ref().or(written.as_ref())) {
            (Some(neural), Some(other)) => {
                if let Some(reference) = &reference {
                    cross_check(&neural, reference)?;
                }
                both_stopped(neural, other)
            }
            (Some(result), None) => result,
            (None, _) => match reference {
                Some(result) => result,
                None => Err(env::internal("nothing to run")),
            },
        }
    }
}

/// The file an `--input` argument names (`@PATH`), if it names one.
pub fn input_file(arg: Option<&str>) -> Option<&Path> {
    arg?.strip_prefix('@').map(Path::new)
}

fn read_input_file(path: &Path) -> Result<String, Diagnostic> {
    crate::read::text(path).map_err(|error| {
        Diagnostic::error(
            codes::E0902,
            format!("cannot read the input file `{}`: {error}", path.display()),
        )
        .with_help(
            "`--input @PATH` reads JSON from PATH; without `@` the argument itself is the JSON",
        )
    })
}
