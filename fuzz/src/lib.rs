//! What the fuzz targets share: a file compiled as `cnpic run` compiles
//! it, and run every way that needs no network (the reference interpreter
//! on the program as written and on its combinatory form, which the
//! network runs), under small limits so that each run ends quickly at one
//! of them. A target fails on a panic, an abort, a hang (libFuzzer's
//! `-timeout`), or two forms that end differently where neither stopped at
//! a limit (E1106, what `--cross-check` reports).

use cnpi::compile::{self, Compiled};
use cnpi::env::{self, Declarations};
use cnpi::exec::compare::{Run, agrees_with_written};
use cnpi::exec::{Limits, Options};
use cnpi::program::Program;

/// The step budget of a fuzzed run.
pub const MAX_STEPS: u64 = 50_000;

/// The limits of a fuzzed run: 1 MiB of calls and stacks, 5,000 calls
/// nested.
pub fn limits() -> Limits<'static> {
    Limits {
        max_memory: 1 << 20,
        max_depth: 5_000,
        interrupt: None,
    }
}

/// `text` compiled, or `None` when it has errors (which must be
/// diagnostics, never a panic).
pub fn compiled(text: &str) -> Option<Compiled> {
    let compilation = compile::compile("fuzz.cnpi", text, None);
    let program = compilation.program?;
    Some(Compiled {
        program,
        sources: compilation.sources,
        text: text.to_string(),
    })
}

/// Runs `compiled` on `input` as written and in its combinatory form,
/// `max_depth` calls deep at most; panics if the two end differently.
pub fn run_every_way(compiled: &Compiled, input: &str, max_depth: usize) {
    let options = || Options {
        limits: Limits {
            max_depth,
            ..limits()
        },
        ..Options::steps(MAX_STEPS)
    };
    let program = &compiled.program;
    let read = |program: &Program| env::read_input(&Declarations::of(program), input);
    let Ok(state) = read(program) else {
        return;
    };
    let written: Run = cnpi::symbolic::run(program, state, options());
    let Ok((_, combinatory)) = compile::convert(compiled, "fuzz.cnpi") else {
        return;
    };
    let Ok(state) = read(&combinatory.program) else {
        panic!("the combinatory form does not read an input the program as written reads: {input}");
    };
    // The combinatory form takes more steps than the statements it came from.
    let options = Options {
        max_steps: MAX_STEPS * 100,
        ..options()
    };
    let converted: Run = cnpi::symbolic::run(&combinatory.program, state, options);
    // What `run` prints is what must agree: the combinatory form's state
    // also holds the registers the conversion added.
    let printed = |run: &Run| run.as_ref().ok().map(|done| done.state.to_json(0, ""));
    if let Err(error) = agrees_with_written(&converted, &written)
        && error.code.0 == "E1106"
        && !(converted.is_ok() && printed(&converted) == printed(&written))
    {
        panic!(
            "{}\n--- program:\n{}\n--- input: {input}",
            error.message, compiled.text
        );
    }
}
