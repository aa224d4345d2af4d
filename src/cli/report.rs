//! Reading source files and printing diagnostics on stderr.

use std::io::IsTerminal;
use std::path::Path;
use std::process::ExitCode;

use cnpi::compile::compile;
use cnpi::diagnostic::{Diagnostic, Sources, codes, render};
use cnpi::program::Program;

/// Compiles `path`, prints every diagnostic, and returns the program (with
/// the sources, to report later errors against) when there were no errors.
pub fn compile_file(path: &Path, entry: Option<&str>) -> Option<(Program, Sources)> {
    compile_source(path, &read_source(path)?, entry)
}

/// The text of `path`; E0901 (printed) when it cannot be read.
pub fn read_source(path: &Path) -> Option<String> {
    match std::fs::read_to_string(path) {
        Ok(text) => Some(text),
        Err(error) => {
            let diagnostic = Diagnostic::error(
                codes::E0901,
                format!("cannot read `{}`: {error}", path.display()),
            );
            print_diagnostics(&[diagnostic], &Sources::new());
            None
        }
    }
}

/// Compiles `text`, read from `path`, printing every diagnostic.
pub fn compile_source(path: &Path, text: &str, entry: Option<&str>) -> Option<(Program, Sources)> {
    let compilation = compile(&path.display().to_string(), text, entry);
    print_diagnostics(&compilation.diagnostics, &compilation.sources);
    Some((compilation.program?, compilation.sources))
}

/// Writes diagnostics to stderr, coloured when stderr is a terminal.
pub fn print_diagnostics(diagnostics: &[Diagnostic], sources: &Sources) {
    let color = std::io::stderr().is_terminal();
    for diagnostic in diagnostics {
        eprint!("{}", render(diagnostic, sources, color));
    }
}

/// 0 for success, 1 for a diagnosed error.
pub fn exit_code(success: bool) -> ExitCode {
    if success {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
