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
use serde_json::{Map, Number, Value};

/// The deepest nesting of lists and dicts an input may have (the JSON
/// reader's own limit is 128).
const MAX_DEPTH: usize = 128;

/// `value` as JSON; `path` names it in errors (`input`, `input[3]`...).
pub fn to_json(value: &Bound<'_, PyAny>) -> PyResult<Value> {
    let mut path = String::from("input");
    convert(value, &mut path, 0)
}

fn convert(value: &Bound<'_, PyAny>, path: &mut String, depth: usize) -> PyResult<Value> {
    if depth > MAX_DEPTH {
        return Err(PyTypeError::new_err(format!(
            "{path} is nested more than {MAX_DEPTH} deep"
        )));
    }
    if value.is_none() {
        return Ok(Value::Null);
    }
    if let Ok(b) = value.cast::<PyBool>() {
        return Ok(Value::Bool(b.is_true()));
    }
    if let Ok(int) = value.cast::<PyInt>() {
        return Ok(match int.extract::<i64>() {
            Ok(small) => Value::from(small),
            // Beyond 64 bits: the digits as JSON, which the environment
            // refuses with the member named (E0604).
            Err(_) => number(&int.str()?.to_cow()?, path)?,
        });
    }
    if let Ok(float) = value.cast::<PyFloat>() {
        let x = float.value();
        return match Number::from_f64(x) {
            Some(_) => number(&float.repr()?.to_cow()?, path),
            None => Err(PyTypeError::new_err(format!(
                "{path} is {x}, which JSON cannot hold"
            ))),
        };
    }
    if let Ok(text) = value.cast::<PyString>() {
        return Ok(Value::String(text.to_cow()?.into_owned()));
    }
    if let Ok(list) = value.cast::<PyList>() {
        return sequence(list.iter(), path, depth);
    }
    if let Ok(tuple) = value.cast::<PyTuple>() {
        return sequence(tuple.iter(), path, depth);
    }
    if let Ok(dict) = value.cast::<PyDict>() {
        let mut map = Map::new();
        for (key, item) in dict.iter() {
            let Ok(key) = key.cast::<PyString>() else {
                return Err(PyTypeError::new_err(format!(
                    "{path} has the key {}, not a string",
                    key.repr()?
                )));
            };
            let key = key.to_cow()?.into_owned();
            let len = path.len();
            path.push_str(&format!("[{key:?}]"));
            let item = convert(&item, path, depth + 1)?;
            path.truncate(len);
            map.insert(key, item);
        }
        return Ok(Value::Object(map));
    }
    // numpy: an array (`tolist` gives Python values), a scalar (`__index__`
    // for integers; numpy's floats are Python floats).
    if value.hasattr("tolist")? && value.hasattr("dtype")? {
        return convert(&value.call_method0("tolist")?, path, depth);
    }
    if value.hasattr("__index__")? {
        let index = value.call_method0("__index__")?;
        return convert(&index, path, depth);
    }
    Err(PyTypeError::new_err(format!(
        "{path} is a {}, which cnpi cannot take as input (use ints, strings, lists and dicts)",
        value.get_type().name()?
    )))
}

fn sequence<'py>(
    items: impl Iterator<Item = Bound<'py, PyAny>>,
    path: &mut String,
    depth: usize,
) -> PyResult<Value> {
    let mut out = Vec::new();
    for (i, item) in items.enumerate() {
        let len = path.len();
        path.push_str(&format!("[{i}]"));
        out.push(convert(&item, path, depth + 1)?);
        path.truncate(len);
    }
    Ok(Value::Array(out))
}

/// The JSON number written `text` (Python's `str` of an int, `repr` of a
/// float, both JSON's syntax too).
fn number(text: &str, path: &str) -> PyResult<Value> {
    serde_json::from_str::<Number>(text)
        .map(Value::Number)
        .map_err(|_| PyTypeError::new_err(format!("{path} is {text}, not a JSON number")))
}

/// `value` as a Python object: objects as dicts, arrays as lists, numbers
/// as ints (floats only where the JSON has a fraction).
pub fn to_python<'py>(py: Python<'py>, value: &Value) -> PyResult<Bound<'py, PyAny>> {
    Ok(match value {
        Value::Null => py.None().into_bound(py),
        Value::Bool(b) => PyBool::new(py, *b).to_owned().into_any(),
        Value::Number(n) => {
            if let Some(i) = n.as_i64() {
                i.into_pyobject(py)?.into_any()
            } else if let Some(u) = n.as_u64() {
                u.into_pyobject(py)?.into_any()
            } else {
                let text = n.to_string();
                match text.parse::<f64>() {
                    Ok(x) if text.contains(['.', 'e', 'E']) => x.into_pyobject(py)?.into_any(),
                    _ => py.get_type::<PyInt>().call1((text,))?,
                }
            }
        }
        Value::String(s) => PyString::new(py, s).into_any(),
        Value::Array(items) => {
            let items: PyResult<Vec<_>> = items.iter().map(|v| to_python(py, v)).collect();
            PyList::new(py, items?)?.into_any()
        }
        Value::Object(map) => {
            let dict = PyDict::new(py);
            for (key, item) in map {
                dict.set_item(key, to_python(py, item)?)?;
            }
            dict.into_any()
        }
    })
}
