//! Everything cnpic prints goes through this module: [`out!`] and
//! [`outln!`] for standard output, [`err!`] for standard error.
//!
//! Rust's `print!` panics when a write fails. Here a closed pipe (the
//! reader of `cnpic verify-core | head -1` went away) ends the command
//! quietly with exit status 0, and any other write error (a full disk,
//! `> /dev/full`) ends it with E0905 and status 1. Either way the command
//! stops at once: [`guarded`] runs it and turns the early end into its exit
//! status, while destructors still run (so a half-written temporary file
//! is removed).

use std::io::{self, Write};
use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::process::ExitCode;

use cnpi::diagnostic::{Diagnostic, Sources, codes, render};

/// Prints to standard output, like `print!`.
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::cli::output::print_to($crate::cli::output::Stream::Out, format_args!($($arg)*))
    };
}

/// Prints a line to standard output, like `println!`.
macro_rules! outln {
    ($($arg:tt)*) => {
        $crate::cli::output::print_to(
            $crate::cli::output::Stream::Out,
            format_args!("{}\n", format_args!($($arg)*)),
        )
    };
}

/// Prints to standard error, like `eprint!`.
macro_rules! err {
    ($($arg:tt)*) => {
        $crate::cli::output::print_to($crate::cli::output::Stream::Err, format_args!($($arg)*))
    };
}

pub(crate) use {err, out, outln};

/// Which standard stream to print to.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Stream {
    Out,
    Err,
}

/// The payload that unwinds a command whose output failed: its exit status.
struct Ended(u8);

/// Writes `args` to `stream`; on failure, ends the command (see the module
/// documentation).
pub fn print_to(stream: Stream, args: std::fmt::Arguments) {
    let written = match stream {
        Stream::Out => io::stdout().lock().write_fmt(args),
        Stream::Err => io::stderr().lock().write_fmt(args),
    };
    if let Err(error) = written {
        end(stream, &error);
    }
}

/// Runs `command`; a failed write inside it ends it with its status.
/// Standard output is flushed at the end, with the same care.
pub fn guarded(command: impl FnOnce() -> ExitCode) -> ExitCode {
    let status = catch_unwind(AssertUnwindSafe(|| {
        let status = command();
        if let Err(error) = io::stdout().flush() {
            end(Stream::Out, &error);
        }
        status
    }));
    match status {
        Ok(status) => status,
        Err(payload) => match payload.downcast::<Ended>() {
            Ok(ended) => ExitCode::from(ended.0),
            // A real panic: let it reach the crash report.
            Err(payload) => resume_unwind(payload),
        },
    }
}

/// Ends the command after a failed write to `stream`. `resume_unwind`
/// does not run the panic hook, so nothing is printed on the way.
fn end(stream: Stream, error: &io::Error) -> ! {
    if error.kind() == io::ErrorKind::BrokenPipe {
        resume_unwind(Box::new(Ended(0)));
    }
    if stream == Stream::Out {
        let diagnostic = Diagnostic::error(
            codes::E0905,
            format!("cannot write the standard output: {error}"),
        )
        .with_help("the output is incomplete; check the space left on the device it goes to");
        // Standard error may fail too; then there is nowhere left to say it.
        let _ = io::stderr()
            .lock()
            .write_all(render(&diagnostic, &Sources::new(), false).as_bytes());
    }
    resume_unwind(Box::new(Ended(1)))
}
