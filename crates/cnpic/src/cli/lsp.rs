//! `cnpic lsp`: the language server (crate `cnpi-lsp`) on stdin and stdout.

use std::process::ExitCode;

use super::report::exit_code;

pub fn lsp() -> ExitCode {
    match cnpi_lsp::stdio() {
        Ok(()) => exit_code(true),
        Err(error) => {
            eprintln!("error: cnpic lsp: {error}");
            exit_code(false)
        }
    }
}
