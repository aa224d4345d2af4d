//! `cnpic check FILE`: compile and report, nothing else.

use std::path::Path;
use std::process::ExitCode;

use super::report::{compile_file, exit_code};

pub fn check(file: &Path, entry: Option<&str>) -> ExitCode {
    match compile_file(file, entry) {
        Some(_) => exit_code(true),
        None => exit_code(false),
    }
}
