//! `cnpic fmt [PATHS] [--check]`: lay `.cnpi` files out canonically, with
//! `cnpi::format`.
//!
//! Directories are searched for `.cnpi` files. A file with syntax errors is
//! reported with its diagnostics and left untouched; the others are
//! rewritten atomically when their layout changes. With `--check` nothing
//! is written: the files that would change are named, and the exit status
//! is 1 if there are any. Diagnostics are capped across all the files, as
//! `check` caps them in one: a folder of a thousand broken files prints the
//! first few and a line counting the rest.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use cnpi::compile::sources;
use cnpi::diagnostic::{Diagnostic, SHOWN, Sources, codes};
use cnpi::files::replace_unchanged;
use cnpi::format::format;

use super::report::{exit_code, fail, print_diagnostics};
use super::sources::cnpi_files;

#[derive(Args)]
pub struct FmtArgs {
    /// Files and directories to format (directories are searched for
    /// `.cnpi` files); default: the current directory.
    paths: Vec<PathBuf>,
    /// Write nothing; name the files whose layout would change and exit
    /// with 1 if there are any.
    #[arg(long)]
    check: bool,
}

pub fn fmt(args: &FmtArgs) -> ExitCode {
    let paths = if args.paths.is_empty() {
        vec![PathBuf::from(".")]
    } else {
        args.paths.clone()
    };
    let files = match cnpi_files(&paths) {
        Ok(files) => files,
        Err(diagnostic) => return fail(diagnostic),
    };
    let mut clean = true;
    let mut budget = Budget {
        room: SHOWN,
        hidden: 0,
        files: 0,
    };
    for file in files {
        let name = file.display().to_string();
        let text = match cnpi::read::text(&file) {
            Ok(text) => text,
            Err(error) => {
                let unreadable =
                    Diagnostic::error(codes::E0901, format!("cannot read `{name}`: {error}"));
                budget.print(&[unreadable], &Sources::new(), None);
                clean = false;
                continue;
            }
        };
        let formatted = match format(&text) {
            Ok(formatted) => formatted,
            Err(diagnostics) => {
                let trailer = format!("{name}: not formatted (fix the errors above first)");
                budget.print(&diagnostics, &sources(&name, &text), Some(&trailer));
                clean = false;
                continue;
            }
        };
        if formatted == text {
            continue;
        }
        if args.check {
            println!("{name}");
            clean = false;
        } else if let Err(error) = replace_unchanged(&file, text.as_bytes(), formatted.as_bytes()) {
            fail(Diagnostic::error(
                codes::E1202,
                format!("cannot write `{name}`: {error}"),
            ));
            clean = false;
        } else {
            println!("formatted {name}");
        }
    }
    if budget.hidden > 0 {
        eprintln!(
            "... and {} more diagnostics not shown, in {} more files not formatted",
            budget.hidden, budget.files
        );
    }
    exit_code(clean)
}

/// What is left of the [`SHOWN`] diagnostics printed across all files, and
/// what was left out.
struct Budget {
    room: usize,
    hidden: usize,
    files: usize,
}

impl Budget {
    /// Prints as many of `diagnostics` as there is room for, then
    /// `trailer`; counts the rest, and the file if none was printed.
    fn print(&mut self, diagnostics: &[Diagnostic], sources: &Sources, trailer: Option<&str>) {
        let shown = diagnostics.len().min(self.room);
        self.room -= shown;
        self.hidden += diagnostics.len() - shown;
        if shown == 0 {
            self.files += 1;
            return;
        }
        print_diagnostics(&diagnostics[..shown], sources);
        if let Some(trailer) = trailer {
            eprintln!("{trailer}");
        }
    }
}
