//! `cnpic combinatorize FILE [-o OUT]`: normal programs to appliers.
//!
//! Compiles FILE, converts it, and checks the result before printing it
//! (or writing it to OUT): an output that does not compile cleanly is a bug
//! in cnpi, reported as E0899 rather than handed to the user.

use std::path::Path;
use std::process::ExitCode;

use cnpi::compile::convert_checked;
use cnpi::diagnostic::{Diagnostic, codes};
use cnpi::files::{refuse_overwriting, write_atomic};

use super::output::out;
use cnpi_neural::load::compile_file;

use super::report::{exit_code, fail, print_diagnostics};

pub fn combinatorize(file: &Path, output: Option<&Path>, entry: Option<&str>) -> ExitCode {
    if let Err(diagnostic) = refuse_overwriting(&[file], &Vec::from_iter(output)) {
        return fail(diagnostic);
    }
    let Some(compiled) = compile_file(file, entry, &mut print_diagnostics) else {
        return exit_code(false);
    };
    let converted = match convert_checked(&compiled, &file.display().to_string()) {
        Ok((converted, _)) => converted,
        Err(diagnostics) => {
            print_diagnostics(&diagnostics, &compiled.sources);
            return exit_code(false);
        }
    };
    print_diagnostics(&converted.warnings, &compiled.sources);
    match output {
        None => {
            out!("{}", converted.text);
            exit_code(true)
        }
        Some(path) => match write_atomic(path, converted.text.as_bytes()) {
            Ok(()) => exit_code(true),
            Err(error) => fail(Diagnostic::error(
                codes::E0903,
                format!("cannot write `{}`: {error}", path.display()),
            )),
        },
    }
}
