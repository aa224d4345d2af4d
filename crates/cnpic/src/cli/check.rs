//! `cnpic check FILE`: compile and report, with what the conversion of
//! normal programs would report at `run`; nothing runs.

use std::path::Path;
use std::process::ExitCode;

use cnpi::compile::conversion_diagnostics;
use cnpi::diagnostic::has_errors;
use cnpi_neural::load::compile_file;

use super::report::{exit_code, print_diagnostics};

pub fn check(file: &Path, entry: Option<&str>) -> ExitCode {
    match compile_file(file, entry, &mut print_diagnostics) {
        Some(compiled) => {
            let found = conversion_diagnostics(&compiled, &file.display().to_string());
            print_diagnostics(&found, &compiled.sources);
            exit_code(!has_errors(&found))
        }
        None => exit_code(false),
    }
}
