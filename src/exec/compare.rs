//! Whether two engines' runs agree: the heart of `cnpic run --cross-check`.
//!
//! The network and the reference interpreter must end the same way on a
//! combinatory program: the same final environment and step count, or
//! errors of the same code. A file of normal programs is also run as
//! written, and the conversion is exact, so the network must end as that
//! run does too; its steps count statements, so only its final environment
//! (or its error's code) is compared. A disagreement is E1106, naming the
//! first place where the two differ.

use serde_json::Value;

use super::Outcome;
use crate::diagnostic::{Code, Diagnostic, codes};
use crate::env::State;

/// A run of one engine: its outcome or the error it stopped with.
pub type Run = Result<Outcome, Diagnostic>;

/// The E1106 error of `--cross-check`, saying `what` differs.
pub fn mismatch(what: String) -> Diagnostic {
    Diagnostic::error(
        codes::E1106,
        format!("the network and the reference interpreter disagree: {what}"),
    )
    .with_note("both the core and the detectors are verified, and the conversion of normal programs is exact, so this is a bug in cnpic")
    .with_help("please report it with the program and the input")
}

/// The network's run and the reference interpreter's on the same
/// combinatory program must end the same way; one stopped by a limit the
/// engines count differently (memory, E0708) or by an interrupt (E0709)
/// is that error, not a disagreement.
pub fn cross_check(neural: &Run, reference: &Run) -> Result<(), Diagnostic> {
    if let Some(limit) = stopped_alone(neural, reference, &MEMORY, "the reference") {
        return Err(limit);
    }
    match (neural, reference) {
        (Ok(n), Ok(r)) if n.steps != r.steps => Err(mismatch(format!(
            "the network took {} steps, the reference {}",
            n.steps, r.steps
        ))),
        (Ok(n), Ok(r)) => same_state(&n.state, &r.state, "the reference"),
        (Err(n), Err(r)) if n.code == r.code => Ok(()),
        _ => Err(mismatch(ends(neural, reference, "the reference"))),
    }
}

/// Errors whose limits the two forms count in different units (core steps
/// against statements, bytes of different stores), and an interrupt: a
/// run that stops with one of them may still agree with the programs as
/// written.
const LIMITS: [Code; 4] = [codes::E0701, codes::E0704, codes::E0708, codes::E0709];

/// The limits the two engines count differently even on one combinatory
/// program (each stores a call in its own way), and an interrupt.
const MEMORY: [Code; 2] = [codes::E0708, codes::E0709];

/// When exactly one of the two runs stopped with one of `limits`: its
/// error, noting how the other ended (it is a limit, not a
/// disagreement).
fn stopped_alone(neural: &Run, other: &Run, limits: &[Code], name: &str) -> Option<Diagnostic> {
    let limited = |run: &Run| matches!(run, Err(e) if limits.contains(&e.code));
    let (stopped, engine, rest) = match (neural, other) {
        (Err(n), Err(o)) if n.code == o.code => return None,
        (Err(n), _) if limited(neural) => (n, "the network", end(other)),
        (_, Err(o)) if limited(other) => (o, name, end(neural)),
        _ => return None,
    };
    let note = format!(
        "{engine} stopped with {} here; the other run {rest}: a limit of one run, not a disagreement",
        stopped.code
    );
    Some(stopped.clone().with_note(note))
}

/// The run to report of two that agree (see [`cross_check`]): when both
/// stopped with the same limit, saying so.
pub fn both_stopped(neural: Run, other: &Run) -> Run {
    match (neural, other) {
        (Err(n), Err(o)) if n.code == o.code && LIMITS.contains(&n.code) => {
            let code = n.code;
            Err(n.with_note(format!("both engines stopped with {code} here")))
        }
        (neural, _) => neural,
    }
}

/// The network's run of the combinatory form and the reference
/// interpreter's run of the normal programs as written must end in the
/// same environment, or with errors of the same code: the conversion is
/// exact. Only a network run stopped by a limit (the step budget, the
/// nesting depth) is let through, as those are counted differently.
pub fn agrees_with_written(neural: &Run, written: &Run) -> Result<(), Diagnostic> {
    let with = "the normal programs as written";
    let compared = |diagnostic: Diagnostic| {
        diagnostic.with_note(
            "compared with the normal programs as written, run by the reference interpreter",
        )
    };
    if let Some(limit) = stopped_alone(neural, written, &LIMITS, with) {
        return Err(limit);
    }
    match (neural, written) {
        (Ok(n), Ok(w)) => same_state(&n.state, &w.state, with).map_err(compared),
        (Err(n), Err(w)) if n.code == w.code => Ok(()),
        _ => Err(compared(mismatch(ends(neural, written, with)))),
    }
}

/// How two runs that do not both finish end, in words.
fn ends(neural: &Run, other: &Run, name: &str) -> String {
    format!("the network {}, {name} {}", end(neural), end(other))
}

/// How a run ended, in words.
fn end(run: &Run) -> String {
    match run {
        Ok(_) => "finished".to_string(),
        Err(e) => format!("stopped with {} ({})", e.code, e.message),
    }
}

/// E1106 at the first member or element where `neural` and `other` differ.
fn same_state(neural: &State, other: &State, name: &str) -> Result<(), Diagnostic> {
    if neural == other {
        return Ok(());
    }
    let (a, b) = (neural.to_json(0, ""), other.to_json(0, ""));
    let what = match first_difference(String::new(), &a, &b) {
        Some((at, x, y)) => format!(
            "the final environments differ first at `{at}`: the network has {}, {name} {}",
            shown(&x),
            shown(&y)
        ),
        // Equal as JSON but not as states: show both in full.
        None => format!(
            "the final environments differ:\nnetwork: {}{name}: {}",
            neural.to_text(0, "neural"),
            other.to_text(0, "symbolic")
        ),
    };
    Err(mismatch(what))
}

/// The path (`d[3]`, `D[1][2]`, `output`) of the first place where `a`
/// and `b` differ, and the two values there; `None` when they are equal.
/// Members are taken in `a`'s order, then those only `b` has; arrays of
/// different lengths differ as a whole.
pub fn first_difference(at: String, a: &Value, b: &Value) -> Option<(String, Value, Value)> {
    if a == b {
        return None;
    }
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            let only_y = y.keys().filter(|k| !x.contains_key(*k));
            let mut keys = x.keys().chain(only_y);
            keys.find_map(|k| {
                let (u, v) = (x.get(k), y.get(k));
                let (u, v) = (u.unwrap_or(&Value::Null), v.unwrap_or(&Value::Null));
                let path = if at.is_empty() {
                    k.clone()
                } else {
                    format!("{at}.{k}")
                };
                first_difference(path, u, v)
            })
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => (x.iter().zip(y))
            .enumerate()
            .find_map(|(i, (u, v))| first_difference(format!("{at}[{i}]"), u, v)),
        _ => Some((at, a.clone(), b.clone())),
    }
}

/// A value for a one-line message: cut after 80 characters.
fn shown(value: &Value) -> String {
    let text = match value {
        Value::Null => "nothing".to_string(),
        other => other.to_string(),
    };
    match text.char_indices().nth(80) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::env::{self, Declarations};
    use crate::program::Program;
    use serde_json::json;

    #[test]
    fn the_first_difference_is_named_by_its_path() {
        let a = json!({"n": 3, "d": [1, 2, 4], "D": [[0, 1], [2, 3]]});
        let b = json!({"n": 3, "d": [1, 2, 4], "D": [[0, 1], [2, 5]]});
        assert_eq!(
            first_difference(String::new(), &a, &b),
            Some(("D[1][1]".into(), json!(3), json!(5)))
        );
        let c = json!({"n": 3, "d": [1, 6, 2], "D": [[0, 1], [2, 3]]});
        assert_eq!(
            first_difference(String::new(), &a, &c),
            Some(("d[1]".into(), json!(2), json!(6)))
        );
        let longer = json!({"n": 3, "d": [1, 2, 4, 5], "D": [[0, 1], [2, 3]]});
        assert_eq!(
            first_difference(String::new(), &a, &longer),
            Some(("d".into(), json!([1, 2, 4]), json!([1, 2, 4, 5])))
        );
        assert_eq!(first_difference(String::new(), &a, &a), None);
        let extra = json!({"n": 3, "d": [1, 2, 4], "D": [[0, 1], [2, 3]], "t": 1});
        assert_eq!(
            first_difference(String::new(), &a, &extra),
            Some(("t".into(), Value::Null, json!(1)))
        );
    }

    fn ram(text: &str) -> Program {
        let compiled = crate::compile::compile("t.cnpi", text, None);
        compiled.program.expect("the test program compiles")
    }

    fn outcome(program: &Program, input: &str, steps: u64) -> Run {
        let layout = Declarations::of(program);
        let state = env::read_input(&layout, input)?;
        Ok(Outcome { state, steps })
    }

    const PROGRAM: &str = "env ram(i = 0)\ninput A[n]\n\ndef F():\n  pass\n";

    #[test]
    fn a_disagreement_is_an_error_naming_the_first_difference() {
        let program = ram(PROGRAM);
        let network = outcome(&program, r#"{"A": [1, 2, 3]}"#, 5);
        let other = outcome(&program, r#"{"A": [1, 7, 3]}"#, 5);
        for error in [
            cross_check(&network, &other).unwrap_err(),
            agrees_with_written(&network, &other).unwrap_err(),
        ] {
            assert_eq!(error.code, codes::E1106);
            assert!(
                error.message.contains("first at `A[1]`: the network has 2"),
                "{}",
                error.message
            );
        }
        assert!(cross_check(&network, &network).is_ok());
        assert!(agrees_with_written(&network, &network).is_ok());
        let slower = outcome(&program, r#"{"A": [1, 2, 3]}"#, 6);
        assert!(cross_check(&network, &slower).is_err());
        assert!(agrees_with_written(&network, &slower).is_ok());
    }

    #[test]
    fn errors_agree_by_code_and_only_limits_are_let_through() {
        let program = ram(PROGRAM);
        let finished = outcome(&program, r#"{"A": [1]}"#, 1);
        let error = |code| Err(Diagnostic::error(code, "x"));
        let overflow: Run = error(codes::E0703);
        let budget: Run = error(codes::E0701);
        assert!(agrees_with_written(&overflow, &error(codes::E0703)).is_ok());
        let both = agrees_with_written(&overflow, &error(codes::E0705)).unwrap_err();
        assert!(
            both.message.contains("stopped with E0703"),
            "{}",
            both.message
        );
        assert!(agrees_with_written(&overflow, &finished).is_err());
        assert!(agrees_with_written(&finished, &overflow).is_err());
        // A limit one run met alone is that run's error, not E1106.
        let alone = agrees_with_written(&budget, &finished).unwrap_err();
        assert_eq!(alone.code, codes::E0701);
        assert_eq!(
            agrees_with_written(&finished, &error(codes::E0704))
                .unwrap_err()
                .code,
            codes::E0704
        );
        assert_eq!(
            cross_check(&budget, &finished).unwrap_err().code,
            codes::E1106
        );
        let memory = cross_check(&finished, &error(codes::E0708)).unwrap_err();
        assert_eq!(memory.code, codes::E0708);
        assert!(
            memory
                .notes
                .iter()
                .any(|n| n.contains("not a disagreement")),
            "{:?}",
            memory.notes
        );
        let deep = both_stopped(error(codes::E0704), &error(codes::E0704)).unwrap_err();
        assert!(
            deep.notes
                .iter()
                .any(|n| n == "both engines stopped with E0704 here")
        );
    }
}
