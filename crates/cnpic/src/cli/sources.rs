//! The `.cnpi` files a command names: files as given, directories searched
//! (with walkdir) for `.cnpi` files, in a stable order.

use std::path::{Path, PathBuf};

use cnpi::diagnostic::{Diagnostic, codes};
use walkdir::WalkDir;

/// Every `.cnpi` file under `paths` (a file named directly is taken
/// whatever its extension), sorted within each directory; a path that
/// cannot be read is a diagnostic.
pub fn cnpi_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>, Diagnostic> {
    let mut files = Vec::new();
    for path in paths {
        let metadata =
            std::fs::metadata(path).map_err(|error| cannot_read(path, &error.to_string()))?;
        if metadata.is_file() {
            files.push(path.clone());
            continue;
        }
        if !metadata.is_dir() {
            return Err(cannot_read(
                path,
                "it is not a regular file or a folder (a device or a pipe)",
            ));
        }
        for entry in WalkDir::new(path).sort_by_file_name() {
            let entry = entry.map_err(|error| cannot_read(path, &error.to_string()))?;
            let is_cnpi = entry.path().extension().is_some_and(|e| e == "cnpi");
            if entry.file_type().is_file() && is_cnpi {
                files.push(entry.into_path());
            }
        }
    }
    Ok(files)
}

fn cannot_read(path: &Path, why: &str) -> Diagnostic {
    Diagnostic::error(
        codes::E0901,
        format!("cannot read `{}`: {why}", path.display()),
    )
}
