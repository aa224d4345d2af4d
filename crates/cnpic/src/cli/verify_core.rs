//! `cnpic verify-core [PATH]`: check a core exhaustively and print the table.

use std::path::Path;
use std::process::ExitCode;

use cnpi::diagnostic::{Diagnostic, Sources, codes};
use cnpi_neural::core::{Core, SHIPPED, SHIPPED_NAME, stdlib_combinators, verify};

use super::output::{out, outln};
use super::report::{exit_code, print_diagnostics};

pub fn verify_core(path: Option<&Path>) -> ExitCode {
    let (core, name) = match path {
        Some(path) => (Core::load_unverified(path), path.display().to_string()),
        None => (
            Core::from_bytes_unverified(SHIPPED, SHIPPED_NAME),
            SHIPPED_NAME.to_string(),
        ),
    };
    let result = core.and_then(|core| Ok((stdlib_combinators()?, core)));
    let (combinators, core) = match result {
        Ok(loaded) => loaded,
        Err(diagnostic) => return fail(diagnostic),
    };
    let metadata = core.metadata();
    outln!(
        "core `{name}`: {} cells, seed {}, {} epochs, cnpi {}\nmade by: {}\n",
        core.cells(),
        metadata.seed,
        metadata.epochs,
        metadata.version,
        metadata.command
    );
    let verification = verify(&core, combinators);
    out!("{verification}");
    if verification.passed() {
        return exit_code(true);
    }
    fail(Diagnostic::error(
        codes::E1004,
        format!(
            "the core `{name}` fails verification ({})",
            verification.summary()
        ),
    ))
}

fn fail(diagnostic: Diagnostic) -> ExitCode {
    print_diagnostics(&[diagnostic], &Sources::new());
    exit_code(false)
}
