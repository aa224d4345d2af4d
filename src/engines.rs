//! Which engines run a program, and whether they agree: what `cnpic run`
//! does once its program is loaded.
//!
//! A run asks for the network, for the exact reference interpreter, or for
//! both (`--cross-check`); a file of normal programs cross-checked is also
//! run as written. [`Engines::run`] runs those present on one input,
//! compares them with [`crate::exec::compare`] and hands back the run to
//! report (the network's, when it ran). The network is whatever implements
//! [`Network`] (the `cnpi-neural` runtime does), so this crate stays free
//! of it. [`read_input`] turns `--input` (inline JSON or `@PATH`) into the
//! environment's state.

use std::io::Write;
use std::path::Path;

use crate::diagnostic::{Diagnostic, codes};
use crate::env::{self, State};
use crate::exec::Options;
use crate::exec::compare::{Run, agrees_with_written, cross_check};
use crate::program::{EnvKind, Program};
use crate::symbolic;

/// A program loaded on the network, ready to run on an input.
pub trait Network {
    fn run(&mut self, state: State, options: Options) -> Run;
}

/// The engines of one run; at least one of `network` and `reference`.
pub struct Engines<'a> {
    pub network: Option<&'a mut dyn Network>,
    /// The combinatory program the reference interpreter runs.
    pub reference: Option<&'a Program>,
    /// With a cross-check of a file of normal programs: the programs as
    /// written, which must end in the network's final environment (their
    /// steps count statements, not core steps), and the conversion's
    /// warnings, which say where they may differ.
    pub written: Option<(&'a Program, &'a [Diagnostic])>,
}

impl Engines<'_> {
    /// Runs every engine on `state` (the trace, if any, goes to the first
    /// that runs), compares them, and returns the run to report, with the
    /// warning (W1106) of a program as written that ends differently where
    /// its conversion said it might.
    pub fn run(
        self,
        state: State,
        max_steps: u64,
        trace: Option<&mut dyn Write>,
    ) -> (Run, Option<Diagnostic>) {
        let mut trace = trace;
        let options = |trace| Options { max_steps, trace };
        let neural =
            (self.network).map(|network| network.run(state.clone(), options(trace.take())));
        let reference = (self.reference)
            .map(|program| symbolic::run(program, state.clone(), options(trace.take())));
        let mut warning = None;
        if let (Some((program, converted)), Some(Ok(neural))) = (self.written, &neural) {
            let written = symbolic::run(program, state, options(None));
            match agrees_with_written(neural, &written, converted) {
                Ok(warned) => warning = warned,
                Err(mismatch) => return (Err(mismatch), None),
            }
        }
        let run = match (neural, reference) {
            (Some(neural), Some(reference)) => cross_check(&neural, &reference).and(neural),
            (Some(result), None) | (None, Some(result)) => result,
            (None, None) => Err(env::internal("nothing to run")),
        };
        (run, warning)
    }
}

/// The state `--input` describes for `kind` and the program's `layout`: `arg` is JSON, or `@PATH` to
/// read it from a file; without it, the environment's empty input.
pub fn read_input(
    arg: Option<&str>,
    kind: EnvKind,
    layout: &env::Declarations,
) -> Result<State, Diagnostic> {
    let text = match (arg, arg.and_then(|arg| input_file(Some(arg)))) {
        (None, _) => env::empty_input(kind).to_string(),
        (Some(_), Some(path)) => read_input_file(path)?,
        (Some(arg), None) => arg.to_string(),
    };
    env::read_input(kind, layout, &text)
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
