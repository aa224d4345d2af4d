//! `cnpic`: the command-line driver.
//!
//! Parses the command line with clap and hands each subcommand to its file
//! in `cli/`. Everything runs on a large stack, so that deeply nested source
//! text (10^5 levels) is checked without overflowing; user programs never
//! recurse on it (the interpreters keep heap stacks). The stack is switched
//! to on the main thread (`stack`): starting a thread for it cost a
//! quarter of a millisecond of every small run. On Linux the process
//! starts at the C `main` below rather than std's (`entry`).

#![cfg_attr(all(target_os = "linux", not(test)), no_main)]

mod cli;
#[cfg(all(target_os = "linux", not(test)))]
mod entry;
mod stack;

use std::process::ExitCode;

/// candle sizes gemm's thread pool by `RAYON_NUM_THREADS`. For the core (a
/// batch-1 LSTM of 16 cells) the pool costs ten times what it saves, and a
/// fixed thread count keeps training bit-reproducible, so it is always 1.
fn one_tensor_thread() {
    // SAFETY: no other thread exists yet, so nothing reads or writes the
    // environment concurrently.
    unsafe { std::env::set_var("RAYON_NUM_THREADS", "1") };
}

#[cfg(all(target_os = "linux", not(test)))]
#[unsafe(no_mangle)]
extern "C" fn main(
    _argc: std::ffi::c_int,
    _argv: *const *const std::ffi::c_char,
) -> std::ffi::c_int {
    entry::prepare();
    entry::status(run())
}

#[cfg(not(all(target_os = "linux", not(test))))]
fn main() -> ExitCode {
    run()
}

/// The command line's command, run; a crash is reported as such, and so is
/// an address-space limit that leaves no room for the compiler's stack.
fn run() -> ExitCode {
    one_tensor_thread();
    let args = cli::parse_args();
    let bytes = cnpi::operators::STACK_BYTES;
    match stack::run_on_large_stack(bytes, move || cli::execute(args)) {
        stack::Outcome::Done(code) => code,
        stack::Outcome::Crashed => {
            eprintln!("internal error: cnpic crashed; please report this with the input file");
            ExitCode::from(101)
        }
        stack::Outcome::NoStack(error) => {
            eprintln!(
                "error: cnpic could not reserve the {} MiB of address space its compiler's \
                 stack needs ({error}); only the pages it touches are ever used, so raise \
                 the address-space limit (`ulimit -v`, `prlimit --as`) to 1.1 GiB or more",
                bytes >> 20
            );
            ExitCode::FAILURE
        }
    }
}
