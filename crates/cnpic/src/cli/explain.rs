//! `cnpic explain CODE`: the long form of a diagnostic code.

use std::process::ExitCode;

use cnpi::diagnostic::Code;

use super::output::{err, out};

pub fn explain(code: &str) -> ExitCode {
    match Code::lookup(code) {
        Some((_, text)) => {
            out!("{text}");
            ExitCode::SUCCESS
        }
        None => {
            err!(
                "error: `{code}` is not a cnpic diagnostic code (codes look like E0101 or W0101; \
                 they are printed in brackets, e.g. `[E0101] Error: ...`)\n"
            );
            ExitCode::FAILURE
        }
    }
}
