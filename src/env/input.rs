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
    // Objects only appear at the top level of a valid input (and the
    // `ram` fast path skips the members it does not read), so that is the
    // one place where a key written twice is looked for.
    parse_checked("the input", text, Unique { deep: false }).map_err(|d| d.with_help(help(kind)))
}

/// `text` (`what`, for messages: "the examples") parsed as JSON, a UTF-8
/// byte-order mark at its start skipped: E0601 when it is not JSON, E0602
/// when an object at any depth has a key twice (serde_json would keep the
/// last). `cnpic learn` reads its examples so, as `run --input` reads an
/// input's top level.
pub fn parse_strict(what: &str, text: &str) -> Result<Value, Diagnostic> {
    parse_checked(what, text, Unique { deep: true })
}

fn parse_checked(what: &str, text: &str, unique: Unique) -> Result<Value, Diagnostic> {
    let text = without_bom(text);
    let not_json = |error: serde_json::Error| {
        Diagnostic::error(codes::E0601, format!("{what} is not valid JSON: {error}"))
    };
    let mut deserializer = serde_json::Deserializer::from_str(text);
    let checked = serde::de::DeserializeSeed::deserialize(unique, &mut deserializer)
        .and_then(|()| deserializer.end())
        .map_err(|error| {
            let message = error.to_string();
            match message.strip_prefix(DUPLICATE) {
                Some(rest) => has_twice(what, rest),
                None => not_json(error),
            }
        });
    checked.and_then(|()| serde_json::from_str(text).map_err(not_json))
}

/// E0602: `what` has a key twice (`rest`: "`k` twice").
fn has_twice(what: &str, rest: &str) -> Diagnostic {
    Diagnostic::error(codes::E0602, format!("{what} has the field {rest}"))
}

/// E0602: the input of `kind` has the member `key` twice, as
/// [`parse_json`] words it.
pub(super) fn key_twice(kind: EnvKind, key: &str) -> Diagnostic {
    has_twice("the input", &format!("`{key}` twice")).with_help(help(kind))
}

/// How `Unique` starts the error for a key written twice.
const DUPLICATE: &str = "duplicate: ";

/// Checks that no object of a JSON value has a key twice: every object
/// when `deep`, else the value's own (numbers as `arbitrary_precision`
/// reads them are maps too, with one key).
#[derive(Clone, Copy)]
struct Unique {
    deep: bool,
}

impl<'de> serde::de::DeserializeSeed<'de> for Unique {
    type Value = ();
    fn deserialize<D: serde::Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> serde::de::Visitor<'de> for Unique {
    type Value = ();
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_bool<E>(self, _: bool) -> Result<(), E> {
        Ok(())
    }
    fn visit_i64<E>(self, _: i64) -> Result<(), E> {
        Ok(())
    }
    fn visit_u64<E>(self, _: u64) -> Result<(), E> {
        Ok(())
    }
    fn visit_f64<E>(self, _: f64) -> Result<(), E> {
        Ok(())
    }
    fn visit_str<E>(self, _: &str) -> Result<(), E> {
        Ok(())
    }
    fn visit_unit<E>(self) -> Result<(), E> {
        Ok(())
    }
    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        match self.deep {
            true => while seq.next_element_seed(self)?.is_some() {},
            false => while seq.next_element::<serde::de::IgnoredAny>()?.is_some() {},
        }
        Ok(())
    }
    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let mut keys = std::collections::HashSet::new();
        while let Some(key) = map.next_key::<String>()? {
            if !keys.insert(key.clone()) {
                return Err(serde::de::Error::custom(format_args!(
                    "{DUPLICATE}`{key}` twice"
                )));
            }
            match self.deep {
                true => map.next_value_seed(self)?,
                false => map.next_value::<serde::de::IgnoredAny>().map(|_| ())?,
            }
        }
        Ok(())
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
