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
/// the same environment when their conversion was exact. When it drew
/// warnings (`converted`: W0801 calls in a loop run in reverse, W0802,
/// W0803), the combinatory form promises only what those warnings leave,
/// so a difference is W1106, a warning saying what differs and why, not
/// the E1106 of a bug.
pub fn agrees_with_written(
    neural: &Outcome,
    written: &Run,
    converted: &[Diagnostic],
) -> Result<Option<Diagnostic>, Diagnostic> {
    let what = match written {
        Ok(written) if written.state == neural.state => return Ok(None),
        Ok(written) => format!(
            "the final environments differ:\nnetwork:   {}as written: {}",
            neural.to_text("neural"),
            written.to_text("symbolic")
        ),
        Err(error) => format!(
            "the network finished, the programs as written stopped with {} ({})",
            error.code, error.message
        ),
    };
    let mut warned: Vec<&str> = converted.iter().map(|d| d.code.0).collect();
    warned.sort_unstable();
    warned.dedup();
    if warned.is_empty() {
        return Err(mismatch(format!(
            "{what}\n(compared with the normal programs as written)"
        )));
    }
    Ok(Some(
        Diagnostic::warning(
            codes::W1106,
            format!("the combinatory form ends differently from the normal programs as written: {what}"),
        )
        .with_note(format!(
            "the network agrees with the reference interpreter on the combinatory form; the conversion changed the program, as {} said",
            warned.join(" and ")
        ))
        .with_help("to get the result as written, remove what the conversion warned about (`cnpic check` shows it), or run with `--symbolic`"),
    ))
}
