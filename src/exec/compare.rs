//! Whether two engines' runs agree: the heart of `cnpic run --cross-check`.
//!
//! The network and the reference interpreter must end the same way on a
//! combinatory program: the same final environment and step count, or
//! errors of the same code. A file of normal programs is also run as
//! written; its steps count statements, so only its final environment is
//! compared. A disagreement is E1106, saying what differs.

use super::Outcome;
use crate::diagnostic::{Diagnostic, codes};

/// A run of one engine: its outcome or the error it stopped with.
pub type Run = Result<Outcome, Diagnostic>;

/// The E1106 error of `--cross-check`, saying `what` differs.
pub fn mismatch(what: String) -> Diagnostic {
    Diagnostic::error(
        codes::E1106,
        format!("the network and the reference interpreter disagree: {what}"),
    )
    .with_note("both the core and the detectors are verified, so this is a bug in cnpic")
    .with_help("please report it with the program and the input")
}

/// The network's run and the reference interpreter's on the same
/// combinatory program must end the same way.
pub fn cross_check(neural: &Run, reference: &Run) -> Result<(), Diagnostic> {
    let differs = |what: String| Err(mismatch(what));
    match (neural, reference) {
        (Ok(n), Ok(r)) if n.steps != r.steps => differs(format!(
            "the network took {} steps, the reference {}",
            n.steps, r.steps
        )),
        (Ok(n), Ok(r)) if n.state != r.state => differs(format!(
            "the final environments differ:\nnetwork:   {}reference: {}",
            n.to_text("neural"),
            r.to_text("symbolic")
        )),
        (Ok(_), Ok(_)) => Ok(()),
        (Err(n), Err(r)) if n.code == r.code => Ok(()),
        (Err(n), Err(r)) => differs(format!(
            "the network stopped with {} ({}), the reference with {} ({})",
            n.code, n.message, r.code, r.message
        )),
        (Ok(_), Err(r)) => differs(format!(
            "the network finished, the reference stopped with {} ({})",
            r.code, r.message
        )),
        (Err(n), Ok(_)) => differs(format!(
            "the reference finished, the network stopped with {} ({})",
            n.code, n.message
        )),
    }
}

/// A finished network run and the normal programs as written must end in
/// the same environment.
pub fn agrees_with_written(neural: &Outcome, written: &Run) -> Result<(), Diagnostic> {
    match written {
        Ok(written) if written.state == neural.state => Ok(()),
        Ok(written) => Err(mismatch(format!(
            "the final environments differ from the normal programs as written:\n\
             network:  {}as written: {}",
            neural.to_text("neural"),
            written.to_text("symbolic")
        ))),
        Err(error) => Err(mismatch(format!(
            "the network finished, the normal programs as written stopped with {} ({})",
            error.code, error.message
        ))),
    }
}
