//! `cnpic combinatorize FILE [-o OUT]`: normal programs to appliers.
//!
//! Compiles FILE, converts it, and checks the result before printing it
//! (or writing it to OUT): an output that does not compile cleanly is a bug
//! in cnpi, reported as E0899 rather than handed to the user.

use std::path::Path;
use std::process::ExitCode;

use cnpi::combinatorize::{Combinatorized, combinatorize as convert, internal};
use cnpi::compile::{Compilation, compile};
use cnpi::diagnostic::{Diagnostic, Sources, codes};

use super::report::{Compiled, compile_file, exit_code, print_diagnostics};

pub fn combinatorize(file: &Path, output: Option<&Path>, entry: Option<&str>) -> ExitCode {
    let Some(compiled) = compile_file(file, entry) else {
        return exit_code(false);
    };
    let name = file.display().to_string();
    let converted = match convert_checked(&compiled, &name) {
        Ok((converted, _)) => converted,
        Err(diagnostics) => {
            print_diagnostics(&diagnostics, &compiled.sources);
            return exit_code(false);
        }
    };
    match output {
        None => {
            print!("{}", converted.text);
            exit_code(true)
        }
        Some(path) => match std::fs::write(path, &converted.text) {
            Ok(()) => exit_code(true),
            Err(error) => {
                let diagnostic = Diagnostic::error(
                    codes::E0903,
                    format!("cannot write `{}`: {error}", path.display()),
                );
                print_diagnostics(&[diagnostic], &Sources::new());
                exit_code(false)
            }
        },
    }
}

/// Converts a compiled file (named `name` in the output's header) and
/// compiles the output, which must be clean: the converted text with its
/// checked program, after printing the conversion's warnings against the
/// file; or the diagnostics to print.
pub fn convert_checked(
    compiled: &Compiled,
    name: &str,
) -> Result<(Combinatorized, Compilation), Vec<Diagnostic>> {
    let converted = convert(&compiled.program, &compiled.text, name)?;
    print_diagnostics(&converted.warnings, &compiled.sources);
    let check = compile(&format!("{name} (combinatorized)"), &converted.text, None);
    if !check.diagnostics.is_empty() || check.program.is_none() {
        let found: Vec<String> = check
            .diagnostics
            .iter()
            .map(|d| d.message.clone())
            .collect();
        let detail = format!("the output does not compile cleanly: {}", found.join("; "));
        return Err(vec![internal(detail)]);
    }
    Ok((converted, check))
}
