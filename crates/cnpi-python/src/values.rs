//! Python values to JSON and back: an input is turned into the JSON that
//! `cnpic run --input` would read, and read by the environment exactly as
//! the command line reads it (so a float, a ragged matrix or an integer
//! beyond 64 bits draws the same E06xx diagnostic, naming the member); a
//! result's JSON (`run --format json`) becomes a dict.
//!
//! Python's own types that JSON has no form for (bytes, sets, NaN, a dict
//! with a key that is not a string, any other object) raise `TypeError`
//! with the path of the value (`input["D"][2]`). numpy arrays and scalars
//! are taken through `tolist()` and `__index__`.

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};
use serde_json::{Number, Value};

/// The deepest nesting of lists and dicts an input may have (the JSON
/// reader's own limit is 128).
const MAX_DEPTH: usize = 128;

/// Where a value sits in the input, written out only for an error
/// (`input`, `input[3]`, `input["D"][2]`).
#[derive(Clone, Copy)]
enum Path<'a> {
    Input,
    Index(&'a Path<'a>, usize),
    Key(&'a Path<'a>, &'a str),
}

impl std::fmt::Display for Path<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Path::Input => f.write_str("input"),
            Path::Index(outer, i) => write!(f, "{outer}[{i}]"),
            Path::Key(outer, key) => write!(f, "{outer}[{key:?}]"),
        }
    }
}

/// `value` as JSON text, written straight from the Python objects (no
/// `Value` tree: the environment reads the text as `cnpic run --input`
/// does, a `ram` input the fast way).
pub fn to_json(value: &Bound<'_, PyAny>) -> PyResult<String> {
    let mut text = String::new();
    write(value, &Path::Input, 0, &mut text)?;
    Ok(text)
}

fn write(
    value: &Bound<'_, PyAny>,
    path: &Path<'_>,
    depth: usize,
    out: &mut String,
) -> PyResult<()> {
    if depth > MAX_DEPTH {
        return Err(PyTypeError::new_err(format!(
            "{path} is nested more than {MAX_DEPTH} deep"
        )));
    }
    if value.is_none() {
        out.push_str("null");
        return Ok(());
    }
    if let Ok(b) = value.cast::<PyBool>() {
        out.push_str(if b.is_true() { "true" } else { "false" });
        return Ok(());
    }
    if let Ok(int) = value.cast::<PyInt>() {
        return match int.extract::<i64>() {
            Ok(small) => {
                out.push_str(itoa::Buffer::new().format(small));
                Ok(())
            }
            // Beyond 64 bits: the digits as JSON, which the environment
            // refuses with the member named (E0604).
            Err(_) => number(&int.str()?.to_cow()?, path, out),
        };
    }
    if let Ok(float) = value.cast::<PyFloat>() {
        let x = float.value();
        return match Number::from_f64(x) {
            Some(_) => number(&float.repr()?.to_cow()?, path, out),
            None => Err(PyTypeError::new_err(format!(
                "{path} is {x}, which JSON cannot hold"
            ))),
        };
    }
    if let Ok(text) = value.cast::<PyString>() {
        string(&text.to_cow()?, out);
        return Ok(());
    }
    if let Ok(list) = value.cast::<PyList>() {
        return sequence(list.iter(), path, depth, out);
    }
    if let Ok(tuple) = value.cast::<PyTuple>() {
        return sequence(tuple.iter(), path, depth, out);
    }
    if let Ok(dict) = value.cast::<PyDict>() {
        out.push('{');
        for (i, (key, item)) in dict.iter().enumerate() {
            let Ok(key) = key.cast::<PyString>() else {
                return Err(PyTypeError::new_err(format!(
                    "{path} has the key {}, not a string",
                    key.repr()?
                )));
            };
            let key = key.to_cow()?;
            if i > 0 {
                out.push(',');
            }
            string(&key, out);
            out.push(':');
            write(&item, &Path::Key(path, &key), depth + 1, out)?;
        }
        out.push('}');
        return Ok(());
    }
    // numpy: an array (`tolist` gives Python values), a scalar (`__index__`
    // for integers; numpy's floats are Python floats).
    if value.hasattr("tolist")? && value.hasattr("dtype")? {
        return write(&value.call_method0("tolist")?, path, depth, out);
    }
    if value.hasattr("__index__")? {
        let index = value.call_method0("__index__")?;
        return write(&index, path, depth, out);
    }
    Err(PyTypeError::new_err(format!(
        "{path} is a {}, which cnpi cannot take as input (use ints, strings, lists and dicts)",
        value.get_type().name()?
    )))
}

fn sequence<'py>(
    items: impl Iterator<Item = Bound<'py, PyAny>>,
    path: &Path<'_>,
    depth: usize,
    out: &mut String,
) -> PyResult<()> {
    out.push('[');
    for (i, item) in items.enumerate() {
        if i > 0 {
            out.push(',');
        }
        write(&item, &Path::Index(path, i), depth + 1, out)?;
    }
    out.push(']');
    Ok(())
}

/// `text` as a JSON string.
fn string(text: &str, out: &mut String) {
    out.push_str(&Value::from(text).to_string());
}

/// The JSON number written `text` (Python's `str` of an int, `repr` of a
/// float, both JSON's syntax too).
fn number(text: &str, path: &Path<'_>, out: &mut String) -> PyResult<()> {
    serde_json::from_str::<Number>(text)
        .map_err(|_| PyTypeError::new_err(format!("{path} is {text}, not a JSON number")))?;
    out.push_str(text);
    Ok(())
}

/// The JSON text `text` (a run's result, `run --format json`) as Python
/// objects, read by Python's own `json.loads`: quicker on a large result
/// than a `Value` tree turned into objects one by one.
pub fn from_json_text<'py>(py: Python<'py>, text: &str) -> PyResult<Bound<'py, PyAny>> {
    py.import("json")?.call_method1("loads", (text,))
}
