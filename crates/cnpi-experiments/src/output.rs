//! The files one run writes, gathered in memory and written as one unit.
//!
//! [`crate::save`] hands an [`Output`] to the experiment's summary, which
//! adds its tables ([`Output::csv`]) and plots ([`Output::plot`]) beside
//! the rows. [`Output::write`] first removes the plots of an earlier run,
//! then writes the rows and tables at once with
//! [`cnpi::files::write_all_atomic`], then the plots: a run killed while
//! writing leaves the old rows and tables or the new ones, never a mix,
//! and never a plot of other rows. A plot that cannot be drawn or written
//! is a W1301 warning, not an error: the results are on disk before it.

use std::path::{Path, PathBuf};

use cnpi::diagnostic::{Diagnostic, codes};
use serde::Serialize;

use crate::plot::{Series, line_chart};

/// The files of one save, and the warnings met while making them.
pub struct Output {
    dir: PathBuf,
    files: Vec<(PathBuf, Vec<u8>)>,
    plots: Vec<(PathBuf, Vec<u8>)>,
    warnings: Vec<Diagnostic>,
}

/// What a save did: the text to print and the warnings to show.
#[derive(Debug)]
pub struct Saved {
    pub text: String,
    pub warnings: Vec<Diagnostic>,
}

impl Output {
    /// An empty set of files for the folder `dir`.
    pub fn new(dir: &Path) -> Output {
        Output {
            dir: dir.to_path_buf(),
            files: Vec::new(),
            plots: Vec::new(),
            warnings: Vec::new(),
        }
    }

    /// The folder the files go to.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Adds the file `name` with `bytes`.
    pub fn add(&mut self, name: &str, bytes: Vec<u8>) {
        self.files.push((self.dir.join(name), bytes));
    }

    /// Adds `name` with `rows` as CSV, one column per field.
    pub fn csv<'r, R: Serialize + 'r>(
        &mut self,
        name: &str,
        rows: impl IntoIterator<Item = &'r R>,
    ) -> Result<(), Diagnostic> {
        let mut writer = csv::Writer::from_writer(Vec::new());
        for row in rows {
            writer
                .serialize(row)
                .map_err(|e| cannot_write(&self.dir.join(name), e))?;
        }
        let bytes = writer
            .into_inner()
            .map_err(|e| cannot_write(&self.dir.join(name), e))?;
        self.add(name, bytes);
        Ok(())
    }

    /// Adds `stem.png` and `stem.svg`, a line chart of `series`; if it
    /// cannot be drawn, a warning instead (see the module documentation).
    pub fn plot(
        &mut self,
        stem: &str,
        title: &str,
        x_label: &str,
        y_label: &str,
        series: &[Series],
    ) {
        let path = self.dir.join(stem);
        match line_chart(&path, title, x_label, y_label, series) {
            Ok(plots) => self.plots.extend(plots),
            Err(warning) => {
                remove_plot(&path.with_extension("png"));
                remove_plot(&path.with_extension("svg"));
                self.warnings.push(warning);
            }
        }
    }

    /// Creates the folder and writes every file as one unit; returns the
    /// warnings and the line that says what was written.
    pub fn write(self) -> Result<Saved, Diagnostic> {
        std::fs::create_dir_all(&self.dir).map_err(|error| {
            Diagnostic::error(
                codes::E1301,
                format!("cannot create the folder `{}`: {error}", self.dir.display()),
            )
        })?;
        for (path, _) in &self.plots {
            remove_plot(path);
        }
        cnpi::files::write_all_atomic(&self.files).map_err(|error| {
            Diagnostic::error(
                codes::E1301,
                format!(
                    "cannot write the files in `{}`: {error}",
                    self.dir.display()
                ),
            )
        })?;
        let mut written = self.files;
        let mut warnings = self.warnings;
        for (path, bytes) in self.plots {
            match cnpi::files::write_atomic(&path, &bytes) {
                Ok(()) => written.push((path, bytes)),
                Err(error) => warnings.push(crate::plot::failed(&path, error)),
            }
        }
        let names: Vec<String> = (written.iter())
            .filter_map(|(path, _)| Some(path.file_name()?.to_string_lossy().into_owned()))
            .collect();
        Ok(Saved {
            text: format!("wrote {} in `{}`\n", list(&names), self.dir.display()),
            warnings,
        })
    }
}

/// Removes a plot of an earlier run (anything else in its place is left).
fn remove_plot(path: &Path) {
    if path.is_file() {
        let _ = std::fs::remove_file(path);
    }
}

/// `a`, `a and b`, `a, b and c`.
fn list(names: &[String]) -> String {
    match names {
        [] => "nothing".to_string(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

pub(crate) fn cannot_write(path: &Path, error: impl std::fmt::Display) -> Diagnostic {
    Diagnostic::error(
        codes::E1301,
        format!("cannot write `{}`: {error}", path.display()),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn series() -> Vec<Series> {
        vec![Series {
            label: "state0".to_string(),
            points: vec![(1.0, 50.0, 40.0, 60.0), (2.0, 90.0, 80.0, 100.0)],
        }]
    }

    #[test]
    fn a_plot_that_cannot_be_written_is_a_warning_and_the_tables_are_written() {
        let dir = tempfile::tempdir().unwrap();
        // A folder where the PNG should go: the plot cannot be written.
        std::fs::create_dir(dir.path().join("cells.png")).unwrap();
        std::fs::write(dir.path().join("cells.svg"), "an old plot").unwrap();
        let mut out = Output::new(dir.path());
        out.csv("summary.csv", &[(1, 2)]).unwrap();
        out.plot("cells", "title", "x", "y", &series());
        let saved = out.write().expect("the tables are written");
        assert_eq!(saved.warnings.len(), 1, "{saved:?}");
        assert_eq!(saved.warnings[0].code, codes::W1301);
        assert_eq!(
            std::fs::read_to_string(dir.path().join("summary.csv")).unwrap(),
            "1,2\n"
        );
        // The SVG is new; the PNG, in a folder's place, is not written.
        assert!(
            std::fs::read_to_string(dir.path().join("cells.svg"))
                .unwrap()
                .starts_with("<svg")
        );
        assert!(
            saved.text.starts_with("wrote summary.csv and cells.svg in"),
            "{}",
            saved.text
        );
    }

    #[test]
    fn a_plot_is_drawn_with_the_shipped_font() {
        let dir = tempfile::tempdir().unwrap();
        let mut out = Output::new(dir.path());
        out.plot("cells", "Accuracy", "cells", "accuracy (%)", &series());
        let saved = out.write().expect("written");
        assert!(saved.warnings.is_empty(), "{:?}", saved.warnings);
        let png = std::fs::read(dir.path().join("cells.png")).unwrap();
        assert_eq!(&png[1..4], b"PNG");
        assert_eq!(
            saved.text,
            format!(
                "wrote cells.png and cells.svg in `{}`\n",
                dir.path().display()
            )
        );
    }
}
