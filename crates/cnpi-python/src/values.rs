//! Python values to JSON and back: an input is turned into the JSON value
//! that `cnpic run --input` would read (and `cnpi.learn`'s examples into
//! the value `cnpic learn --examples` reads, with no text between), and
//! read by the environment exactly as the command line reads it (so a float, a ragged matrix or an integer
//! beyond 64 bits draws the same E06xx diagnostic, naming the member); a
//! result's JSON (`run --format json`) becomes a dict.
//!
//! Python's own types that JSON has no form for (bytes, sets, NaN, a dict
//! with a key that is not a string, any other object) raise `TypeError`
//! with the path of the value (`input["D"][2]`). numpy arrays and scalars
//! are taken through `tolist()` and `__index__`.
//!
//! The common case skips the text both ways: a `ram` input that is a dict
//! of ints, lists of ints and lists of equal-length lists of ints, keyed by
//! the program's declared inputs, is read into memory as it is
//! ([`given`], `env::read_given`, with the diagnostic the text would
//! draw; anything else goes through the text as above), and a `ram` result's integers become
//! Python objects straight from memory ([`from_members`]). On a 1024 × 1024
//! matrix each way took longer than the run of Dijkstra's algorithm
//! itself through the text.

use cnpi::env::{Declarations, Given, Member};
use cnpi::program::DataKind;
use pyo3::exceptions::PyTypeError;
use pyo3::ffi;
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
    /// The whole value, named as the caller calls it (`input`, `examples`).
    Root(&'a str),
    Index(&'a Path<'a>, usize),
    Key(&'a Path<'a>, &'a str),
}

impl std::fmt::Display for Path<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Path::Root(name) => f.write_str(name),
            Path::Index(outer, i) => write!(f, "{outer}[{i}]"),
            Path::Key(outer, key) => write!(f, "{outer}[{key:?}]"),
        }
    }
}

/// `value` as JSON text, which the environment reads as `cnpic run
/// --input` does (a `ram` input the fast way).
pub fn to_json(value: &Bound<'_, PyAny>) -> PyResult<String> {
    Ok(to_value(value, "input")?.to_string())
}

/// `value` as a JSON value, for a reader that takes values (the examples
/// of `cnpi.learn`), or for its text ([`to_json`]); `root` names it in
/// an error (`examples[2]["input"] is a set, ...`).
pub fn to_value(value: &Bound<'_, PyAny>, root: &str) -> PyResult<Value> {
    convert(value, &Path::Root(root), 0)
}

fn convert(value: &Bound<'_, PyAny>, path: &Path<'_>, depth: usize) -> PyResult<Value> {
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
        return match int.extract::<i64>() {
            Ok(small) => Ok(Value::from(small)),
            // Beyond 64 bits: the digits as a JSON number, which the
            // environment refuses with the member named (E0604).
            Err(_) => number(&int.str()?.to_cow()?, path),
        };
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
        let mut members = serde_json::Map::new();
        for (key, item) in dict.iter() {
            let Ok(key) = key.cast::<PyString>() else {
                return Err(PyTypeError::new_err(format!(
                    "{path} has the key {}, not a string",
                    key.repr()?
                )));
            };
            let key = key.to_cow()?;
            let item = convert(&item, &Path::Key(path, &key), depth + 1)?;
            members.insert(key.into_owned(), item);
        }
        return Ok(Value::Object(members));
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
    path: &Path<'_>,
    depth: usize,
) -> PyResult<Value> {
    let items = items.enumerate();
    let converted = items.map(|(i, item)| convert(&item, &Path::Index(path, i), depth + 1));
    Ok(Value::Array(converted.collect::<PyResult<_>>()?))
}

/// The JSON number written `text` (Python's `str` of an int, `repr` of a
/// float, both JSON's syntax too), kept as written.
fn number(text: &str, path: &Path<'_>) -> PyResult<Value> {
    let number = serde_json::from_str::<Number>(text)
        .map_err(|_| PyTypeError::new_err(format!("{path} is {text}, not a JSON number")))?;
    Ok(Value::Number(number))
}

/// The JSON text `text` (a run's result, `run --format json`) as Python
/// objects, read by Python's own `json.loads`: quicker on a large result
/// than a `Value` tree turned into objects one by one.
pub fn from_json_text<'py>(py: Python<'py>, text: &str) -> PyResult<Bound<'py, PyAny>> {
    py.import("json")?.call_method1("loads", (text,))
}

/// `value`, a `ram` program's input, as its members given as integers
/// (see the module documentation), or `None` where it is anything else.
pub fn given(value: &Bound<'_, PyAny>, layout: &Declarations) -> Option<Vec<(String, Given)>> {
    let dict = value.cast_exact::<PyDict>().ok()?;
    let mut members = Vec::with_capacity(dict.len());
    let small = Small::find(value.py());
    let small = small.as_ref();
    for (key, item) in dict.iter() {
        let key = key.cast_exact::<PyString>().ok()?;
        let key = key.to_cow().ok()?;
        let data = (layout.data.iter()).find(|d| d.kind == DataKind::Input && d.name == *key)?;
        let member = match data.dims.len() {
            0 => Given::Integer(int(&item)?),
            1 => Given::List(ints(&item, small)?),
            2 => rows(&item, small)?,
            _ => return None,
        };
        members.push((key.into_owned(), member));
    }
    Some(members)
}

/// An exact `int` that fits 64 bits (not a `bool`, not a subclass).
fn int(value: &Bound<'_, PyAny>) -> Option<i64> {
    value.is_exact_instance_of::<PyInt>().then_some(())?;
    value.extract().ok()
}

/// An exact `list` of such ints.
fn ints(value: &Bound<'_, PyAny>, small: Option<&Small>) -> Option<Vec<i64>> {
    let list = value.cast_exact::<PyList>().ok()?;
    let mut values = Vec::with_capacity(list.len());
    push_ints(list, &mut values, small)?;
    Some(values)
}

/// An exact `list` of rows of such ints, all of one length, row-major.
fn rows(value: &Bound<'_, PyAny>, small: Option<&Small>) -> Option<Given> {
    let list = value.cast_exact::<PyList>().ok()?;
    let (mut rows, mut cols, mut values) = (0, 0, Vec::new());
    for row in list.iter() {
        let row = row.cast_exact::<PyList>().ok()?;
        if rows == 0 {
            cols = row.len();
            values.reserve(cols * list.len());
        }
        (row.len() == cols).then_some(())?;
        push_ints(row, &mut values, small)?;
        rows += 1;
    }
    Some(Given::Rows { rows, cols, values })
}

/// The items of `list`, exact ints that fit 64 bits, pushed onto
/// `values`; `None` at the first that is not one. Read through the C API
/// a matrix's million items at a time: each item borrowed from the list
/// (pyo3's iterator takes and drops a reference per item, two calls in
/// the stable ABI) and read by `PyLong_AsLongLong`, or where it is one of
/// Python's cached small ints, by its address (`small`).
fn push_ints(list: &Bound<'_, PyList>, values: &mut Vec<i64>, small: Option<&Small>) -> Option<()> {
    let len = ffi::Py_ssize_t::try_from(list.len()).ok()?;
    for i in 0..len {
        // SAFETY: the GIL is held and no Python code runs while the list
        // is read, so `i` stays within it and the item it lends stays
        // alive until the next one is read; nothing here keeps it.
        let k = unsafe {
            if i + AHEAD < len {
                prefetch(ffi::PyList_GetItem(list.as_ptr(), i + AHEAD));
            }
            let item = ffi::PyList_GetItem(list.as_ptr(), i);
            if let Some(k) = small.and_then(|small| small.value(item)) {
                Some(k)
            } else if item.is_null() || ffi::PyLong_CheckExact(item) == 0 {
                None
            } else {
                Some(ffi::PyLong_AsLongLong(item))
            }
        };
        // -1 is also what an int beyond 64 bits gives, with an error set.
        match k {
            Some(-1) if PyErr::take(list.py()).is_some() => return None,
            Some(k) => values.push(k),
            None => {
                PyErr::take(list.py());
                return None;
            }
        }
    }
    Some(())
}

/// Python's small ints, -5 to 256, held while a run's input is read,
/// where they lie one after another at one stride that is a power of two
/// (as CPython keeps them, cached: one object each, the result of every
/// `int` operation that gives one of them): an item that is one of these
/// objects is read from its address, with no call. Each is checked when
/// the input is read; elsewhere (another layout, another Python) there is
/// none and every item is read by the call.
struct Small<'py> {
    base: usize,
    /// The stride's log2.
    shift: u32,
    /// The objects, alive (so no other object has their addresses).
    _held: Vec<Bound<'py, PyInt>>,
}

/// The small ints' range.
const SMALLEST: i64 = -5;
const SMALL: usize = 262;

impl<'py> Small<'py> {
    fn find(py: Python<'py>) -> Option<Small<'py>> {
        let held: Vec<Bound<'py, PyInt>> = (0..SMALL as i64)
            .map(|i| {
                (SMALLEST + i)
                    .into_pyobject(py)
                    .unwrap_or_else(|never| match never {})
            })
            .collect();
        let at = |i: usize| held.get(i).map_or(0, |int| int.as_ptr() as usize);
        let base = at(0);
        let stride = at(1).checked_sub(base)?;
        (stride.is_power_of_two()).then_some(())?;
        let shift = stride.trailing_zeros();
        let laid_out = (0..SMALL).all(|i| at(i) == base + (i << shift));
        laid_out.then_some(Small {
            base,
            shift,
            _held: held,
        })
    }

    /// The value of the int at `item` if it is one of them.
    #[inline(always)]
    fn value(&self, item: *mut ffi::PyObject) -> Option<i64> {
        let offset = (item as usize).wrapping_sub(self.base);
        let i = offset >> self.shift;
        (i < SMALL && offset & ((1 << self.shift) - 1) == 0).then(|| SMALLEST + i as i64)
    }
}

/// How many items ahead [`push_ints`] asks for an item's memory: each
/// int is an object of its own, wherever it was made, and its header is
/// read for its type; asked for early, several are on their way at once.
const AHEAD: ffi::Py_ssize_t = 16;

/// Asks the processor for the memory at `at` (a hint: nothing is read).
#[inline(always)]
fn prefetch(at: *const ffi::PyObject) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch reads nothing and never faults, whatever `at` is.
    unsafe {
        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(at.cast());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = at;
}

/// Python's cyclic garbage collector held off while a result is made,
/// then let go as it was: each list made counts toward a collection,
/// which visits every item of the young lists, so a 1024 × 1024 matrix's
/// rows drew collections that went through the million new items (none
/// of which can be in a cycle).
struct Paused<'py> {
    gc: Option<Bound<'py, PyModule>>,
}

impl<'py> Paused<'py> {
    fn collector(py: Python<'py>) -> PyResult<Paused<'py>> {
        let gc = py.import("gc")?;
        if !gc.call_method0("isenabled")?.is_truthy()? {
            return Ok(Paused { gc: None });
        }
        gc.call_method0("disable")?;
        Ok(Paused { gc: Some(gc) })
    }
}

impl Drop for Paused<'_> {
    fn drop(&mut self) {
        if let Some(gc) = &self.gc {
            // Enabling the collector cannot fail; if it did, there is
            // nothing better to do than leave it as it is.
            let _ = gc.call_method0("enable");
        }
    }
}

/// A result's `members` (`State::members`) as a dict, each integer made
/// a Python `int` straight from memory.
pub fn from_members<'py>(
    py: Python<'py>,
    members: &[(&str, Member<'_>)],
) -> PyResult<Bound<'py, PyAny>> {
    let _paused = Paused::collector(py)?;
    let dict = PyDict::new(py);
    for &(name, member) in members {
        let object = match member {
            Member::Integer(k) => k.into_pyobject(py)?.into_any(),
            Member::List(values) => PyList::new(py, values)?.into_any(),
            Member::Rows { .. } => {
                let rows = member.rows().map(|row| PyList::new(py, row));
                PyList::new(py, rows.collect::<PyResult<Vec<_>>>()?)?.into_any()
            }
            Member::Json(value) => from_json_text(py, &value.to_string())?,
        };
        dict.set_item(name, object)?;
    }
    Ok(dict.into_any())
}
