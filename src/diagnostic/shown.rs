//! How many diagnostics a report shows: one bad file can have thousands.
//!
//! [`shown`] picks what `cnpic check` prints and what the language server
//! publishes for a document: every diagnostic up to [`SHOWN`], else the
//! first errors, then warnings, up to [`SHOWN`] in all, in their order;
//! [`Shown::left_out`] words what was left out.

use super::Diagnostic;

/// At most this many diagnostics are shown at once.
pub const SHOWN: usize = 50;

/// The diagnostics to show and a count of the others.
pub struct Shown<'a> {
    /// In the order they were found.
    pub diagnostics: Vec<&'a Diagnostic>,
    pub errors_left: usize,
    pub warnings_left: usize,
}

/// The diagnostics of `diagnostics` to show (see the module documentation).
pub fn shown(diagnostics: &[Diagnostic]) -> Shown<'_> {
    let errors = diagnostics.iter().filter(|d| d.is_error()).count();
    let mut warnings_room = SHOWN.saturating_sub(errors);
    let mut errors_room = SHOWN;
    let mut picked = Vec::new();
    for diagnostic in diagnostics {
        let room = if diagnostic.is_error() {
            &mut errors_room
        } else {
            &mut warnings_room
        };
        if *room > 0 {
            *room -= 1;
            picked.push(diagnostic);
        }
    }
    let errors_left = errors.saturating_sub(SHOWN);
    Shown {
        warnings_left: diagnostics.len() - picked.len() - errors_left,
        errors_left,
        diagnostics: picked,
    }
}

impl Shown<'_> {
    /// "7 more not shown (5 errors, 2 warnings)", when some were left out.
    pub fn left_out(&self) -> Option<String> {
        let left = self.errors_left + self.warnings_left;
        (left > 0).then(|| {
            format!(
                "{left} more not shown ({}, {})",
                plural(self.errors_left, "error"),
                plural(self.warnings_left, "warning")
            )
        })
    }
}

fn plural(n: usize, what: &str) -> String {
    format!("{n} {what}{}", if n == 1 { "" } else { "s" })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostic::codes;

    #[test]
    fn errors_come_first_and_the_rest_is_counted() {
        let warning = Diagnostic::warning(codes::W0101, "w");
        let error = Diagnostic::error(codes::E0101, "e");
        let few = vec![warning.clone(), error.clone()];
        let all = shown(&few);
        assert_eq!(all.diagnostics.len(), 2);
        assert_eq!(all.left_out(), None);
        // 3 warnings, then 60 errors: the first 50 errors only.
        let mut many = vec![warning; 3];
        many.extend(std::iter::repeat_n(error, 60));
        let some = shown(&many);
        assert_eq!(some.diagnostics.len(), SHOWN);
        assert!(some.diagnostics.iter().all(|d| d.is_error()));
        assert_eq!(
            some.left_out().as_deref(),
            Some("13 more not shown (10 errors, 3 warnings)")
        );
    }
}
