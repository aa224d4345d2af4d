//! The final state of a `ram` run as a JSON object: its members by name
//! ([`RamState::fields`]) and one way to serialize them, written straight
//! to JSON text ([`to_json_text`], without the `Value` tree, which on a
//! 1024 × 1024 matrix costs an allocation per number) or into a `Value`
//! ([`to_json`]) through the same serializer. Both give the same object,
//! key for key and byte for byte.

use std::collections::BTreeMap;

use serde::ser::{Serialize, Serializer};
use serde_json::{Map, Value};

use super::{RamState, Region};

/// A member of the output object, serialized as it is held.
enum Field<'s> {
    Register(i64),
    Memory(&'s Region),
    Tape(&'s [i64]),
    Given(&'s Value),
}

impl Serialize for Field<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Field::Register(k) => serializer.serialize_i64(*k),
            Field::Memory(memory) => memory.serialize(serializer),
            Field::Tape(tape) => tape.serialize(serializer),
            Field::Given(value) => value.serialize(serializer),
        }
    }
}

/// A scalar as its integer, an array as a list, a matrix as its rows.
impl Serialize for Region {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Region::Scalar(k) => serializer.serialize_i64(*k),
            Region::Array(values) => values.serialize(serializer),
            Region::Matrix { .. } => serializer.collect_seq(self.rows()),
        }
    }
}

impl RamState {
    /// The output object's members in key order: the registers, the
    /// declared memory, the tape as `output`, then `more`; a later member
    /// replaces an earlier one of its name, as inserting into a `Map` does.
    fn fields<'s>(&'s self, more: &'s [(&'s str, Value)]) -> BTreeMap<&'s str, Field<'s>> {
        let mut fields = BTreeMap::new();
        for (name, value) in self.registers() {
            fields.insert(name.as_str(), Field::Register(*value));
        }
        for (name, memory) in self.memory() {
            fields.insert(name.as_str(), Field::Memory(memory));
        }
        fields.insert("output", Field::Tape(&self.output));
        for (name, value) in more {
            fields.insert(*name, Field::Given(value));
        }
        fields
    }
}

/// The output object's fields as `Value`s.
pub(super) fn to_json(state: &RamState) -> Map<String, Value> {
    match serde_json::to_value(state.fields(&[])) {
        Ok(Value::Object(map)) => map,
        _ => unreachable!("integers keyed by strings always serialize to an object"),
    }
}

/// The output object with `more`, as JSON text.
pub(super) fn to_json_text(state: &RamState, more: &[(&str, Value)]) -> String {
    serde_json::to_string(&state.fields(more))
        .expect("integers and strings keyed by strings always serialize")
}

#[cfg(test)]
mod tests {
    use crate::env::{Declarations, read_input};

    #[test]
    fn the_text_is_the_value_tree_written_out() {
        let text = "env ram(i = 0, k = 3)\ninput A[n][m]\ninput x\n\
                    var z[2] = -1\ndef MAIN: seq(; NOP, NOP, NOP)\n";
        let compiled = crate::compile::compile("p.cnpi", text, None).program;
        let program = compiled.expect("the program compiles");
        let layout = Declarations::of(&program);
        for json in [
            r#"{"A": [[1, -2], [3, 4]], "x": 5}"#,
            r#"{"A": [[], [], []], "x": -9223372036854775808}"#,
        ] {
            let state = read_input(program.env, &layout, json).expect("reads");
            let tree = state.to_json(12, "symbolic").to_string();
            assert_eq!(state.to_json_text(12, "symbolic"), tree);
        }
    }
}
