//! Reading source files and printing diagnostics on stderr.

use std::io::IsTerminal;
use std::path::Path;
use std::process::ExitCode;

use cnpi::compile::compile;
use cnpi::diagnostic::{Diagnostic, Sources, codes, render};
use cnpi::program::Program;

/// A program compiled from a file, with the sources to report later errors
/// against and the file's text.
pub struct Compiled {
    pub program: Program,
    pub sources: Sources,
    pub text: String,
}

/// Compiles `path`, prints every diagnostic, and returns the program when
/// there were no errors.
pub fn compile_file(path: &Path, entry: Option<&str>) -> Option<Compiled> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(error) => {
            let diagnostic = Diagnostic::error(
                codes::E0901,
                format!("cannot read `{}`: {error}", path.display()),
            );
            print_diagnostics(&[diagnostic], &Sources::new());
            return None;
        }
    };
    let compilation = compile(&path.display().to_string(), &text, entry);
    print_diagnostics(&compilation.diagnostics, &compilation.sources);
    Some(Compiled {
        program: compilation.program?,
        sources: compilation.sources,
        text,
    })
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
