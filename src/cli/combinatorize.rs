//! `cnpic combinatorize FILE [-o OUT]`: normal programs to appliers.
//!
//! Compiles FILE, converts it, and checks the result before printing it
//! (or writing it to OUT): an output that does not compile cleanly is a bug
//! in cnpi, reported as E0899 rather than handed to the user.

use std::path::Path;
use std::process::ExitCode;

use cnpi::combinatorize::{combinatorize as convert, internal};
use cnpi::compile::compile;
use cnpi::diagnostic::{Diagnostic, Sources, codes};

use super::report::{Compiled, compile_file, exit_code, print_diagnostics};

pub fn combinatorize(file: &Path, output: Option<&Path>, entry: Option<&str>) -> ExitCode {
    let Some(Compiled {
        program,
        sources,
        text,
    }) = compile_file(file, entry)
    else {
        return exit_code(false);
    };
    let name = file.display().to_string();
    let converted = match convert(&program, &text, &name) {
        Ok(converted) => converted,
        Err(diagnostics) => {
            print_diagnostics(&diagnostics, &sources);
            return exit_code(false);
        }
    };
    print_diagnostics(&converted.warnings, &sources);
    let check = compile("<combinatorized>", &converted.text, None);
    if !check.diagnostics.is_empty() {
        let found: Vec<String> = check
            .diagnostics
            .iter()
            .map(|d| d.message.clone())
            .collect();
        let detail = format!("the output does not compile cleanly: {}", found.join("; "));
        print_diagnostics(&[internal(detail)], &sources);
        return exit_code(false);
    }
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
