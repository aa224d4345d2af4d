//! `cnpic check FILE`: compile and report, nothing else.

use std::path::Path;
use std::process::ExitCode;

use cnpi_neural::load::compile_file;

use super::report::{exit_code, print_diagnostics};

pub fn check(file: &Path, entry: Option<&str>) -> ExitCode {
    match compile_file(file, entry, &mut print_diagnostics) {
        Some(_) => exit_code(true),
        None => exit_code(false),
    }
}
