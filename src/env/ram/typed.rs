//! Reading a valid `ram` input straight from its text into memory.
//!
//! [`members`] deserializes the JSON object with serde, each declared
//! input member directly into the integers of its [`Region`] (a matrix
//! row by row into one flat vector), without building a
//! `serde_json::Value` tree first: on a 1024 × 1024 matrix the tree costs
//! an allocation per number (`arbitrary_precision` keeps each number's
//! text). It accepts only what the checked path (`RamState::read` on the
//! parsed value) accepts with the same result, and gives up (`None`) on
//! anything else: a number that is no i64, a ragged matrix, a key written
//! twice, a syntax error. The caller then reads the input the checked way,
//! which finds the error and words its diagnostic, so every diagnostic
//! stays exactly what it was. Members the program does not declare are
//! parsed as values and dropped, as the checked path leaves them.

use std::fmt;

use serde::Deserialize;
use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::Value;

use super::Region;
use crate::env::Declarations;
use crate::program::DataKind;

/// A declared input member as read: its memory and its lengths.
pub(super) type Member = (Region, Vec<usize>);

/// The input members of `layout` (by data id; `None` where the text has
/// none) read from `text`, or `None` when the text is not a valid input
/// the fast way can read (see the module documentation).
pub(super) fn members(layout: &Declarations, text: &str) -> Option<Vec<Option<Member>>> {
    let mut deserializer = serde_json::Deserializer::from_str(text);
    let found = Object { layout }.deserialize(&mut deserializer).ok()?;
    deserializer.end().ok()?;
    Some(found)
}

/// Gives up on the input: the message is never shown (the checked path
/// words the diagnostic).
fn give_up<E: de::Error>() -> E {
    E::custom("not read the fast way")
}

/// The top-level object, read against the declared inputs.
struct Object<'l, 'a> {
    layout: &'l Declarations<'a>,
}

impl<'de> DeserializeSeed<'de> for Object<'_, '_> {
    type Value = Vec<Option<Member>>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for Object<'_, '_> {
    type Value = Vec<Option<Member>>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let data = self.layout.data;
        let mut found: Vec<Option<Member>> = vec![None; data.len()];
        let mut others: Vec<String> = Vec::new();
        while let Some(key) = map.next_key::<String>()? {
            let declared = (data.iter()).position(|d| d.kind == DataKind::Input && d.name == key);
            match declared {
                Some(id) => {
                    if found[id].is_some() {
                        return Err(give_up());
                    }
                    let dims = data[id].dims.len();
                    found[id] = Some(map.next_value_seed(Shaped { dims })?);
                }
                None => {
                    if others.contains(&key) {
                        return Err(give_up());
                    }
                    // Parsed as the checked path parses it, then dropped.
                    map.next_value::<Value>()?;
                    others.push(key);
                }
            }
        }
        Ok(found)
    }
}

/// A member of `dims` dimensions: an integer, an array or a matrix.
struct Shaped {
    dims: usize,
}

impl<'de> DeserializeSeed<'de> for Shaped {
    type Value = Member;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Member, D::Error> {
        match self.dims {
            0 => Ok((Region::Scalar(i64::deserialize(deserializer)?), Vec::new())),
            1 => {
                let mut values = Vec::new();
                deserializer.deserialize_seq(Row {
                    values: &mut values,
                })?;
                let n = values.len();
                Ok((Region::Array(values), vec![n]))
            }
            2 => deserializer.deserialize_seq(Matrix),
            _ => Err(give_up()),
        }
    }
}

/// A matrix: equal-length rows of integers, into one row-major vector.
struct Matrix;

impl<'de> Visitor<'de> for Matrix {
    type Value = Member;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an array of equal-length arrays of integers")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Member, A::Error> {
        let mut values = Vec::new();
        let (mut rows, mut cols) = (0, None);
        loop {
            let before = values.len();
            let row = Row {
                values: &mut values,
            };
            if seq.next_element_seed(row)?.is_none() {
                break;
            }
            let length = values.len() - before;
            if *cols.get_or_insert(length) != length {
                return Err(give_up());
            }
            rows += 1;
        }
        let cols = cols.unwrap_or(0);
        Ok((Region::Matrix { rows, cols, values }, vec![rows, cols]))
    }
}

/// An array of integers, appended to `values`.
struct Row<'v> {
    values: &'v mut Vec<i64>,
}

impl<'de> DeserializeSeed<'de> for Row<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for Row<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an array of integers")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        if let Some(size) = seq.size_hint() {
            self.values.reserve(size);
        }
        while let Some(value) = seq.next_element::<i64>()? {
            self.values.push(value);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::super::RamState;
    use crate::env::{Declarations, input};
    use crate::program::Program;

    fn program() -> Program {
        let text = "env ram(i = 0)\ninput A[n][m]\ninput B[m]\ninput x\nvar t[n] = 7\n\
                    def MAIN: seq(; NOP, NOP, NOP)\n";
        let compiled = crate::compile::compile("p.cnpi", text, None).program;
        compiled.expect("the program compiles")
    }

    #[test]
    fn a_valid_input_reads_as_the_checked_path_reads_it() {
        let program = program();
        let (kind, layout) = (program.env, Declarations::of(&program));
        for text in [
            r#"{"A": [[1, 2], [3, -4]], "B": [5, 0], "x": 9}"#,
            r#" {"x": -9223372036854775808, "B": [], "A": [[], [], []]} "#,
            r#"{"A": [], "B": [], "x": 0, "other": {"k": 1, "k": [1.5, "é"]}}"#,
        ] {
            let fast = RamState::read_text(kind, &layout, text).expect("read fast");
            let value = input::parse_json(kind, text).expect("parses");
            let checked = RamState::read(kind, &layout, value).expect("reads");
            assert_eq!(fast, checked, "{text}");
        }
    }

    #[test]
    fn anything_off_is_left_to_the_checked_path() {
        let program = program();
        let (kind, layout) = (program.env, Declarations::of(&program));
        let big = "9".repeat(320);
        for text in [
            r#"{"A": [[1]], "B": [5], "x": 9, "x": 9}"#.to_string(),
            r#"{"A": [[1]], "B": [5], "x": 9, "y": 1, "y": 2}"#.into(),
            r#"{"A": [[1, 2], [3]], "B": [5, 6], "x": 9}"#.into(),
            r#"{"A": [[1]], "B": [5], "x": 9.0}"#.into(),
            r#"{"A": [[1]], "B": [5], "x": 1e3}"#.into(),
            r#"{"A": [[1]], "B": [5], "x": 9223372036854775808}"#.into(),
            format!(r#"{{"A": [[1]], "B": [5], "x": {big}}}"#),
            r#"{"A": [[1]], "B": [5], "x": "9"}"#.into(),
            r#"{"A": [[1]], "B": [5]}"#.into(),
            r#"{"A": [[1]], "B": [5, 6], "x": 9}"#.into(),
            r#"{"A": [[1]], "B": [5], "x": 9} 0"#.into(),
            r#"{"A": [[1]], "B": [5], "x": 9,}"#.into(),
            // serde_json reads `-0` as a float: the checked path takes it.
            r#"{"A": [[1]], "B": [5], "x": -0}"#.into(),
            r#"{"A": [[1]], "B": [5], "x": 9, "y": "\ud800"}"#.into(),
            "[1, 2]".into(),
        ] {
            assert!(
                RamState::read_text(kind, &layout, &text).is_none(),
                "{text}"
            );
        }
    }
}
