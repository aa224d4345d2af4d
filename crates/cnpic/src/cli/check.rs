//! `cnpic check FILE`: compile and report, with the warnings the
//! conversion of normal programs would draw (W08xx); nothing runs.

use std::path::Path;
use std::process::ExitCode;

use cnpi::compile::conversion_warnings;

use super::report::{compile_file, exit_code, print_diagnostics};

pub fn check(file: &Path, entry: Option<&str>) -> ExitCode {
    match compile_file(file, entry) {
        Some(compiled) => {
            let warnings = conversion_warnings(&compiled, &file.display().to_string());
            print_diagnostics(&warnings, &compiled.sources);
            exit_code(true)
        }
        None => exit_code(false),
    }
}
