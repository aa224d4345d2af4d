//! `cnpic check FILE`: compile and report, with the warnings the
//! conversion of normal programs would draw (W08xx); nothing runs.

use std::path::Path;
use std::process::ExitCode;

use cnpi::compile::conversion_warnings;
use cnpi_neural::load::compile_file;

use super::report::{exit_code, print_diagnostics};

pub fn check(file: &Path, entry: Option<&str>) -> ExitCode {
    match compile_file(file, entry, &mut print_diagnostics) {
        Some(compiled) => {
            let warnings = conversion_warnings(&compiled, &file.display().to_string());
            print_diagnostics(&warnings, &compiled.sources);
            exit_code(true)
        }
        None => exit_code(false),
    }
}
