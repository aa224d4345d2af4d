//! The final state of a `ram` run as a JSON object: its members by name
//! ([`RamState::fields`], the [`Member`]s a reader may also take as they
//! are: the Python package) written straight to JSON text
//! ([`to_json_text`], the one writer; `State::to_json` reads it back). The
//! text is written by hand, without a `Value` tree (an allocation per
//! number on a 1024 × 1024 matrix) and without serde_json's serializer,
//! which spent about 90 instructions per integer (a call through
//! `SerializeSeq` per element); a large matrix is written on two threads
//! ([`PARALLEL_CELLS`]). The test below checks the text against the input
//! it was read from, member for member.

use std::collections::BTreeMap;

use serde_json::Value;

use super::RamState;
use crate::env::Member;

impl RamState {
    /// The output object's members in key order: the registers, the
    /// declared memory, the tape as `output`, then `more`; a later member
    /// replaces an earlier one of its name, as inserting into a `Map` does.
    pub(super) fn fields<'s>(
        &'s self,
        more: &'s [(&'s str, Value)],
    ) -> BTreeMap<&'s str, Member<'s>> {
        let mut fields = BTreeMap::new();
        for (name, value) in self.registers() {
            fields.insert(name.as_str(), Member::Integer(*value));
        }
        for (name, memory) in self.memory() {
            fields.insert(name.as_str(), memory.member());
        }
        fields.insert("output", Member::List(&self.output));
        for (name, value) in more {
            fields.insert(*name, Member::Json(value));
        }
        fields
    }
}

/// The output object with `more`, as compact JSON text (serde_json's
/// layout: no spaces).
pub(super) fn to_json_text(state: &RamState, more: &[(&str, Value)]) -> String {
    let mut text = String::from("{");
    for (i, (name, field)) in state.fields(more).into_iter().enumerate() {
        if i > 0 {
            text.push(',');
        }
        text.push_str(&Value::from(name).to_string());
        text.push(':');
        match field {
            Member::Integer(k) => integer(&mut text, k),
            Member::List(values) => list(&mut text, values),
            Member::Rows { .. } => rows(&mut text, field),
            Member::Json(value) => text.push_str(&value.to_string()),
        }
    }
    text.push('}');
    text
}

/// The cells of a matrix above which it is written on two threads: a
/// 1024 × 1024 matrix takes about 40 instructions a cell, 128 Ki cells
/// about a millisecond, far more than starting a thread.
const PARALLEL_CELLS: usize = 1 << 17;

/// A matrix as the JSON array of its rows. A large one is written on two
/// threads: the second half of its rows into a text of their own, which
/// follows the first half's.
fn rows(text: &mut String, matrix: Member<'_>) {
    let all: Vec<&[i64]> = matrix.rows().collect();
    text.push('[');
    if let [first, rest @ ..] = &all[..] {
        let start = text.len();
        list(text, first);
        if all.len() * first.len() > PARALLEL_CELLS {
            let (near, far) = rest.split_at(rest.len() / 2);
            // Room for `far` if its rows are as long as the first: a
            // thread's own arena copies a string as it grows.
            let room = (text.len() - start + 1) * far.len() * 5 / 4;
            on_two_threads(text, near, far, room);
        } else {
            after_first(text, rest);
        }
    }
    text.push(']');
}

/// The rows `near` then `far` (see [`after_first`]), `far` written on a
/// thread of its own (on this one, if none starts) into a text of `room`
/// bytes to start with.
fn on_two_threads(text: &mut String, near: &[&[i64]], far: &[&[i64]], room: usize) {
    std::thread::scope(|scope| {
        let write = || {
            let mut more = String::with_capacity(room);
            after_first(&mut more, far);
            more
        };
        let far_text = std::thread::Builder::new().spawn_scoped(scope, write);
        after_first(text, near);
        match far_text.map(|thread| thread.join()) {
            Ok(written) => text.push_str(&written.unwrap_or_else(|e| std::panic::resume_unwind(e))),
            Err(_) => after_first(text, far),
        }
    });
}

/// Rows after a matrix's first, each after a comma.
fn after_first(text: &mut String, rows: &[&[i64]]) {
    for row in rows {
        text.push(',');
        list(text, row);
    }
}

/// `values` as a JSON array.
#[inline]
fn list(text: &mut String, values: &[i64]) {
    text.push('[');
    for (i, &k) in values.iter().enumerate() {
        if i > 0 {
            text.push(',');
        }
        integer(text, k);
    }
    text.push(']');
}

/// `k` in decimal. A digit is pushed as a character: most integers of a
/// run's memory are small (flags, a matrix's zeros), and a string is
/// copied by a call to `memcpy`. Inlined: a call per integer cost about
/// half as much again on a 1024 × 1024 matrix.
#[inline(always)]
fn integer(text: &mut String, k: i64) {
    match u8::try_from(k) {
        Ok(digit @ 0..=9) => text.push(char::from(b'0' + digit)),
        _ => text.push_str(itoa::Buffer::new().format(k)),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use crate::env::{Declarations, read_input};

    #[test]
    fn the_text_holds_every_member_as_read() {
        let text = "env ram(i = 0, k = 3)\ninput A[n][m]\ninput x\n\
                    var z[2] = -1\ndef MAIN: seq(; NOP, NOP, NOP)\n";
        let compiled = crate::compile::compile("p.cnpi", text, None).program;
        let program = compiled.expect("the program compiles");
        let layout = Declarations::of(&program);
        let cells = (1..399 * 402 - 1).map(|k: i64| (k * k * 7919) % 20_000_001 - 10_000_000);
        let cells: Vec<i64> = cells.chain([i64::MIN, i64::MAX]).collect();
        let rows: Vec<&[i64]> = cells.chunks(402).collect();
        assert_eq!(rows.last().map(|row| row.len()), Some(402));
        assert!(rows.len() * rows[0].len() > super::PARALLEL_CELLS);
        let large = json!({ "A": rows, "x": 1 }).to_string();
        for input in [
            r#"{"A": [[1, -2], [3, 4]], "x": 5}"#,
            r#"{"A": [[], [], []], "x": -9223372036854775808}"#,
            r#"{"A": [], "x": 9223372036854775807}"#,
            r#"{"A": [[0, -1, 10], [9223372036854775807, -9223372036854775808, 7]], "x": 0}"#,
            // Over `PARALLEL_CELLS`: written on two threads.
            large.as_str(),
        ] {
            let mut state = read_input(&layout, input).expect("reads");
            state.finish(&[4, 7]);
            let input: Value = serde_json::from_str(input).expect("valid JSON");
            let a = input["A"].as_array().expect("A is a matrix");
            let m = a.first().and_then(Value::as_array).map_or(0, Vec::len);
            let expected = json!({
                "A": input["A"], "x": input["x"], "n": a.len(), "m": m, "z": [-1, -1],
                "i": 4, "k": 7, "output": [], "steps": 12, "engine": "symbolic",
            });
            // Byte for byte as serde_json writes the object: compact, its
            // keys in order.
            assert_eq!(state.to_json_text(12, "symbolic"), expected.to_string());
            assert_eq!(state.to_json(12, "symbolic"), expected);
        }
    }
}
