//! Reading JSON input: the checks every environment shares.
//!
//! Parses the text (E0601 with serde_json's line and column; a UTF-8
//! byte-order mark at the start is skipped), describes JSON values for
//! messages (numbers as written: serde_json's `arbitrary_precision` keeps
//! their text), reads integers (E0603 for non-integers, E0604
//! outside i64) and the fields of an object (E0602 for a wrong shape). The
//! environments build their states from what these return.

use serde_json::{Map, Value};

use super::environment;
use crate::diagnostic::{Diagnostic, codes};
use crate::program::EnvKind;

/// An example of a valid input, for help lines.
fn example(kind: EnvKind) -> &'static str {
    environment(kind).input.example
}

/// What the input of `kind` must be, in words.
fn expected(kind: EnvKind) -> &'static str {
    environment(kind).input.shape
}

/// The help line shared by shape errors: what a valid input looks like.
pub(super) fn help(kind: EnvKind) -> String {
    format!(
        "the {} environment reads {}, such as `{}`",
        kind.name(),
        expected(kind),
        example(kind)
    )
}

/// `text` without the UTF-8 byte-order mark it may start with.
pub(super) fn without_bom(text: &str) -> &str {
    text.strip_prefix('\u{feff}').unwrap_or(text)
}

pub(super) fn parse_json(kind: EnvKind, text: &str) -> Result<Value, Diagnostic> {
    let text = without_bom(text);
    // A top-level object is read by `Fields`, which refuses a key written
    // twice (serde_json keeps the last); objects only appear at the top
    // level of a valid input, so that is the one place to look.
    let parsed = if text.trim_start().starts_with('{') {
        serde_json::from_str::<Fields>(text).map(|fields| Value::Object(fields.0))
    } else {
        serde_json::from_str(text)
    };
    parsed.map_err(|error| {
        let message = error.to_string();
        match message.strip_prefix(DUPLICATE) {
            Some(rest) => {
                Diagnostic::error(codes::E0602, format!("the input has the field {rest}"))
            }
            None => Diagnostic::error(
                codes::E0601,
                format!("the input is not valid JSON: {message}"),
            ),
        }
        .with_help(help(kind))
    })
}

/// How `Fields` starts the error for a key written twice.
const DUPLICATE: &str = "duplicate: ";

/// A JSON object whose keys are all different.
struct Fields(Map<String, Value>);

impl<'de> serde::Deserialize<'de> for Fields {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Fields, D::Error> {
        struct Visitor;
        impl<'de> serde::de::Visitor<'de> for Visitor {
            type Value = Fields;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<Fields, A::Error> {
                let mut fields = Map::new();
                while let Some(key) = map.next_key::<String>()? {
                    if fields.contains_key(&key) {
                        return Err(serde::de::Error::custom(format_args!(
                            "{DUPLICATE}`{key}` twice"
                        )));
                    }
                    let value = map.next_value()?;
                    fields.insert(key, value);
                }
                Ok(Fields(fields))
            }
        }
        deserializer.deserialize_map(Visitor)
    }
}

/// "an object", "a string", ...: the kind of a JSON value.
pub(super) fn describe(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// A JSON value as it appears in messages: scalars as their JSON text
/// (shortened when long), containers by kind.
pub(super) fn show(value: &Value) -> String {
    match value {
        Value::Array(_) | Value::Object(_) => describe(value).to_string(),
        _ => {
            let text = value.to_string();
            match text.char_indices().nth(40) {
                Some((cut, _)) => format!("{}…", &text[..cut]),
                None => text,
            }
        }
    }
}

/// E0602: the input (or a part of it, `what`) has the wrong JSON type.
pub(super) fn wrong_shape(kind: EnvKind, what: &str, found: &Value) -> Diagnostic {
    Diagnostic::error(
        codes::E0602,
        format!("expected {what}, found {}", describe(found)),
    )
    .with_help(help(kind))
}

/// The input itself when it is an array; E0602 otherwise.
pub(super) fn top_array(kind: EnvKind, value: Value) -> Result<Vec<Value>, Diagnostic> {
    match value {
        Value::Array(items) => Ok(items),
        other => Err(wrong_shape(kind, expected(kind), &other)),
    }
}

/// The fields of a top-level object with exactly the keys `keys`, in that
/// order; E0602 for another type, a missing key or an unexpected one.
pub(super) fn fields<const N: usize>(
    kind: EnvKind,
    value: Value,
    keys: [&str; N],
) -> Result<[Value; N], Diagnostic> {
    let mut map: Map<String, Value> = match value {
        Value::Object(map) => map,
        other => return Err(wrong_shape(kind, expected(kind), &other)),
    };
    let shape_error =
        |message: String| Diagnostic::error(codes::E0602, message).with_help(help(kind));
    let found = keys.map(|key| map.remove(key));
    if let Some((key, _)) = keys.iter().zip(&found).find(|(_, v)| v.is_none()) {
        return Err(shape_error(format!(
            "the {} input has no `{key}` field",
            kind.name()
        )));
    }
    if let Some(extra) = map.keys().next() {
        return Err(shape_error(format!(
            "the {} input has an unexpected field `{extra}`",
            kind.name()
        )));
    }
    // Every key was found just above, so no default is ever used.
    Ok(found.map(Option::unwrap_or_default))
}

/// Why a JSON value is not an i64.
pub(super) enum NotI64 {
    /// Not a whole number (`1.5`, `"7"`, `null`, `2.0`).
    NotInteger,
    /// A whole number outside i64.
    OutOfRange,
}

/// The value as an i64. A number is an integer when its text is one
/// (`-0` is 0); anything else that is whole (a larger integer) is out of
/// range, and the rest (a fraction, an exponent) is no integer.
pub(super) fn integer(value: &Value) -> Result<i64, NotI64> {
    let Value::Number(number) = value else {
        return Err(NotI64::NotInteger);
    };
    if let Some(k) = number.as_i64() {
        return Ok(k);
    }
    // A whole number written without a `.` or an exponent (serde_json's
    // `arbitrary_precision` keeps its text, however long) is out of range.
    let text = number.to_string();
    let digits = text.strip_prefix('-').unwrap_or(&text);
    if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(NotI64::OutOfRange);
    }
    match number.as_f64() {
        // Written with a `.` or an exponent: whole beyond i64 is out of
        // range, anything else (a fraction, `2.0`, `1e400`) no integer.
        Some(x) if x.fract() == 0.0 && x.abs() >= 2f64.powi(63) => Err(NotI64::OutOfRange),
        _ => Err(NotI64::NotInteger),
    }
}

/// E0603 or E0604 for `what` (e.g. "element 3") holding `value`.
pub(super) fn not_i64(kind: EnvKind, what: &str, value: &Value, why: NotI64) -> Diagnostic {
    match why {
        NotI64::NotInteger => Diagnostic::error(
            codes::E0603,
            format!("{what} is {}, not an integer", show(value)),
        )
        .with_help(help(kind)),
        NotI64::OutOfRange => Diagnostic::error(
            codes::E0604,
            format!(
                "{what} is {}, outside the range of 64-bit integers",
                show(value)
            ),
        )
        .with_help(format!(
            "integers must lie between {} and {}",
            i64::MIN,
            i64::MAX
        )),
    }
}
