//! `cnpic explain CODE`: the long form of a diagnostic code.

use std::process::ExitCode;

use cnpi::diagnostic::Code;

pub fn explain(code: &str) -> ExitCode {
    match Code::lookup(code) {
        Some((_, text)) => {
            print!("{text}");
            ExitCode::SUCCESS
        }
        None => {
            eprintln!(
                "error: `{code}` is not a cnpic diagnostic code (codes look like E0101 or W0101; \
                 they are printed in brackets, e.g. `[E0101] Error: ...`)"
            );
            ExitCode::FAILURE
        }
    }
}
