//! `cnpic combinatorize FILE [-o OUT]`: normal programs to appliers.
//!
//! Compiles FILE, converts it, and checks the printed result before
//! printing it (or writing it to OUT): a text that does not compile
//! cleanly to the converted program is a bug in cnpi, reported as E0899
//! rather than handed to the user.

use std::path::Path;
use std::process::ExitCode;

use cnpi::compile::{convert, printed_agrees};
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
    let name = file.display().to_string();
    let checked = convert(&compiled, &name).and_then(|(converted, _)| {
        printed_agrees(&converted, &name).map_err(|internal| vec![internal])?;
        Ok(converted)
    });
    let converted = match checked {
        Ok(converted) => converted,
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
