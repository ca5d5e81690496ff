//! JSON and Python values, both ways, without a detour through `json`:
//!
//! * [`write_json`] writes a Python value as `json.dumps(value, ensure_ascii=False,
//!   allow_nan=False, separators=(",", ":"))` would, byte for byte (non-ASCII kept,
//!   floats as `repr` writes them, big integers exact). It serves arguments given as
//!   Python values and handlers' answers.
//! * [`to_python`] builds the Python value of JSON text, as `json.loads` would: the
//!   kwargs of a handler straight from the call's bytes, in one pass, with no
//!   intermediate tree. The core's strict reader reads the text
//!   (`toolgate_core::value::Build`) and this module only makes the Python objects, so
//!   there is one JSON reader, the core's.
//!
//! Measured before this module's own reader was removed (python/bench/RESULTS.md, "Call
//! arguments to Python"): the core's reader driving the builder costs 1.06-1.12x what
//! the removed reader did on the benchmark's valid calls (137 against 126 ns for the
//! 25-byte get_weather call, 1,665 against 1,555 ns for the 432-byte search_flights
//! one), a few per cent of a `ToolRegistry.call`; building a `Value` tree first and
//! converting it cost 1.55-1.85x.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::io::Write as _;

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::type_object::PyTypeInfo;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};
use toolgate_core::value::Build as _;

use crate::text::{surrogate_bytes, type_name, utf8_of};

/// Containers nested deeper than this are not written. The core refuses arguments
/// nested deeper than 1,024 levels anyway, and a handler's answer that deep is almost
/// surely a container that holds itself.
pub(crate) const MAX_WRITE_DEPTH: usize = 1100;

/// Why a value could not be written as JSON.
pub(crate) enum EncodeError {
    /// A value of a type JSON has no form for (the type's name).
    Unserializable(String),
    /// A dict key of a type JSON has no form for (the key's type's name).
    BadKey(String),
    /// NaN or an infinity (`nan`, `inf`, `-inf`).
    OutOfRange(&'static str),
    /// Containers nested deeper than [`MAX_WRITE_DEPTH`] (the innermost one's type).
    TooDeep(String),
    /// Python raised while a value was read (an int too long to write in decimal).
    Raised(PyErr),
}

impl EncodeError {
    /// The exception for arguments the caller gave as a Python value: what `json.dumps`
    /// raises for the same value (a caller's mistake, not a model's).
    pub(crate) fn into_argument_error(self, _py: Python<'_>) -> PyErr {
        match self {
            EncodeError::Unserializable(t) => {
                PyTypeError::new_err(format!("Object of type {t} is not JSON serializable"))
            }
            EncodeError::BadKey(t) => PyTypeError::new_err(format!(
                "keys must be str, int, float, bool or None, not {t}"
            )),
            EncodeError::OutOfRange(v) => PyValueError::new_err(format!(
                "Out of range float values are not JSON compliant: {v}"
            )),
            EncodeError::TooDeep(t) => PyValueError::new_err(format!(
                "{t} nested deeper than {MAX_WRITE_DEPTH} levels (does it contain itself?)"
            )),
            EncodeError::Raised(e) => e,
        }
    }

    /// For a handler's answer: the type the core's message names, or the exception
    /// that stopped the writing.
    pub(crate) fn into_result_error(self) -> Result<String, PyErr> {
        match self {
            EncodeError::Unserializable(t) | EncodeError::BadKey(t) | EncodeError::TooDeep(t) => {
                Ok(t)
            }
            EncodeError::OutOfRange(v) => Ok(format!("float ({v})")),
            EncodeError::Raised(e) => Err(e),
        }
    }
}

impl From<PyErr> for EncodeError {
    fn from(e: PyErr) -> Self {
        EncodeError::Raised(e)
    }
}

/// Appends `value` as compact JSON to `out` (see the module comment).
pub(crate) fn write_json(out: &mut Vec<u8>, value: &Bound<'_, PyAny>) -> Result<(), EncodeError> {
    write_value(out, value, 0)
}

fn write_value(out: &mut Vec<u8>, v: &Bound<'_, PyAny>, depth: usize) -> Result<(), EncodeError> {
    // The order of json's own encoder: str, None, bool, int, float, then containers.
    if let Ok(s) = v.cast::<PyString>() {
        return write_str(out, s);
    }
    if v.is_none() {
        out.extend_from_slice(b"null");
        return Ok(());
    }
    if let Ok(b) = v.cast::<PyBool>() {
        out.extend_from_slice(if b.is_true() { b"true" } else { b"false" });
        return Ok(());
    }
    if let Ok(i) = v.cast::<PyInt>() {
        return write_int(out, i);
    }
    if let Ok(f) = v.cast::<PyFloat>() {
        return write_float(out, f);
    }
    let container =
        v.cast::<PyList>().is_ok() || v.cast::<PyTuple>().is_ok() || v.cast::<PyDict>().is_ok();
    if container && depth >= MAX_WRITE_DEPTH {
        return Err(EncodeError::TooDeep(type_name(v)));
    }
    if let Ok(list) = v.cast::<PyList>() {
        out.push(b'[');
        for (i, item) in list.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            write_value(out, &item, depth + 1)?;
        }
        out.push(b']');
        return Ok(());
    }
    if let Ok(tuple) = v.cast::<PyTuple>() {
        out.push(b'[');
        for (i, item) in tuple.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            write_value(out, &item, depth + 1)?;
        }
        out.push(b']');
        return Ok(());
    }
    if let Ok(dict) = v.cast::<PyDict>() {
        out.push(b'{');
        for (i, (key, item)) in dict.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            write_key(out, &key)?;
            out.push(b':');
            write_value(out, &item, depth + 1)?;
        }
        out.push(b'}');
        return Ok(());
    }
    Err(EncodeError::Unserializable(type_name(v)))
}

/// A dict key, as json writes keys: strings as they are, and the scalars json accepts
/// as keys (`True` is `"true"`, `1` is `"1"`, `None` is `"null"`) as strings.
fn write_key(out: &mut Vec<u8>, key: &Bound<'_, PyAny>) -> Result<(), EncodeError> {
    if let Ok(s) = key.cast::<PyString>() {
        return write_str(out, s);
    }
    out.push(b'"');
    if key.is_none() {
        out.extend_from_slice(b"null");
    } else if let Ok(b) = key.cast::<PyBool>() {
        out.extend_from_slice(if b.is_true() { b"true" } else { b"false" });
    } else if let Ok(i) = key.cast::<PyInt>() {
        write_int(out, i)?;
    } else if let Ok(f) = key.cast::<PyFloat>() {
        write_float(out, f)?;
    } else {
        return Err(EncodeError::BadKey(type_name(key)));
    }
    out.push(b'"');
    Ok(())
}

fn write_str(out: &mut Vec<u8>, s: &Bound<'_, PyString>) -> Result<(), EncodeError> {
    match utf8_of(s) {
        Some(bytes) => write_escaped(out, bytes),
        None => write_escaped(out, &surrogate_bytes(s)?),
    }
    Ok(())
}

/// An int as `int.__repr__` writes it (an `IntEnum` member too, as json writes it).
fn write_int(out: &mut Vec<u8>, i: &Bound<'_, PyInt>) -> Result<(), EncodeError> {
    if let Ok(n) = i.extract::<i64>() {
        // Writing to a Vec cannot fail.
        let _ = write!(out, "{n}");
        return Ok(());
    }
    let digits = PyInt::type_object(i.py())
        .getattr(pyo3::intern!(i.py(), "__repr__"))?
        .call1((i,))?;
    out.extend_from_slice(
        digits
            .cast::<PyString>()
            .map(utf8_of)
            .ok()
            .flatten()
            .unwrap_or(b"0"),
    );
    Ok(())
}

/// A float as `float.__repr__` writes it (the shortest text that reads back the same),
/// which is how json writes floats; NaN and infinities are refused, as json does with
/// `allow_nan=False`.
fn write_float(out: &mut Vec<u8>, f: &Bound<'_, PyFloat>) -> Result<(), EncodeError> {
    let x = f.value();
    if !x.is_finite() {
        return Err(EncodeError::OutOfRange(if x.is_nan() {
            "nan"
        } else if x > 0.0 {
            "inf"
        } else {
            "-inf"
        }));
    }
    let py = f.py();
    let text = if f.is_exact_instance_of::<PyFloat>() {
        f.repr()?
    } else {
        // A subclass may override __repr__; json writes the float's own value.
        PyFloat::type_object(py)
            .getattr(pyo3::intern!(py, "__repr__"))?
            .call1((f,))?
            .cast_into::<PyString>()
            .map_err(PyErr::from)?
    };
    match utf8_of(&text) {
        Some(bytes) => out.extend_from_slice(bytes),
        None => return Err(EncodeError::Unserializable("float".to_owned())),
    }
    Ok(())
}

/// A JSON string literal of `bytes`, escaped as json does with `ensure_ascii=False`:
/// `"` and `\` with a backslash, `\n`, `\r`, `\t`, `\b`, `\f` short, the other control
/// characters as `\u00xx`, everything else as it is.
pub(crate) fn write_escaped(out: &mut Vec<u8>, bytes: &[u8]) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    out.reserve(bytes.len() + 2);
    out.push(b'"');
    let mut start = 0;
    for (i, &b) in bytes.iter().enumerate() {
        let short: &[u8] = match b {
            b'"' => b"\\\"",
            b'\\' => b"\\\\",
            b'\n' => b"\\n",
            b'\r' => b"\\r",
            b'\t' => b"\\t",
            0x08 => b"\\b",
            0x0c => b"\\f",
            0..=0x1f => {
                out.extend_from_slice(&bytes[start..i]);
                out.extend_from_slice(b"\\u00");
                out.push(HEX[usize::from(b >> 4)]);
                out.push(HEX[usize::from(b & 15)]);
                start = i + 1;
                continue;
            }
            _ => continue,
        };
        out.extend_from_slice(&bytes[start..i]);
        out.extend_from_slice(short);
        start = i + 1;
    }
    out.extend_from_slice(&bytes[start..]);
    out.push(b'"');
}

// ---------------------------------------------------------------------------
// JSON text -> Python values

/// The deepest text read here: the core's deepest schema or arguments, and room for
/// the few levels its outputs wrap around a schema (`definitions`, `strict_schema`).
const READ_MAX_DEPTH: usize = toolgate_core::Options::MAX_DEPTH_LIMIT + 8;

/// The Python value of the JSON text `text`, as `json.loads` builds it: objects are
/// dicts (keys in the text's order), arrays lists, integers ints of any size, other
/// numbers floats.
///
/// The core's strict reader reads the text and hands each value to a [`PyValues`]
/// builder: there is no second JSON parser here. The text has passed that reader once
/// already (a call's arguments, a compiled schema, the core's own output); text that
/// does not pass it is refused with `ValueError` and the core's message.
pub(crate) fn to_python<'py>(py: Python<'py>, text: &[u8]) -> PyResult<Bound<'py, PyAny>> {
    read(py, text, None)
}

/// [`to_python`] for a call's arguments: strings the tool's schema names (property
/// names, enum members) are the registration's own `str` objects rather than new ones.
/// The handler then matches its keyword parameters by identity, and a call allocates
/// no string for them.
pub(crate) fn arguments_to_python<'py>(
    py: Python<'py>,
    text: &[u8],
    known: &KnownStrings,
) -> PyResult<Bound<'py, PyAny>> {
    read(py, text, Some(known))
}

fn read<'py>(
    py: Python<'py>,
    text: &[u8],
    known: Option<&KnownStrings>,
) -> PyResult<Bound<'py, PyAny>> {
    PyValues { py, known }
        .read(text, READ_MAX_DEPTH)
        .map_err(|e| match e {
            ReadError::Raised(e) => e,
            ReadError::Syntax(e) => PyValueError::new_err(e.message(text)),
        })
}

/// The strings a schema names, as interned Python strings, by their UTF-8 bytes.
#[derive(Default)]
pub(crate) struct KnownStrings {
    strings: HashMap<Box<[u8]>, Py<PyString>, BuildHasherDefault<Fnv>>,
}

impl KnownStrings {
    /// The property names (of `properties` and `required`) and the string members of
    /// `enum` and `const` anywhere in `schema`, a JSON value as Python holds it.
    pub(crate) fn of_schema(schema: &Bound<'_, PyAny>) -> PyResult<KnownStrings> {
        let mut known = KnownStrings::default();
        known.walk(schema, 0)?;
        Ok(known)
    }

    fn walk(&mut self, value: &Bound<'_, PyAny>, depth: usize) -> PyResult<()> {
        if depth > MAX_WRITE_DEPTH {
            return Ok(());
        }
        if let Ok(dict) = value.cast::<PyDict>() {
            for (key, item) in dict.iter() {
                let key = key
                    .cast::<PyString>()
                    .ok()
                    .and_then(|k| utf8_of(k).map(|b| b.to_vec()));
                match key.as_deref() {
                    Some(b"properties") => {
                        if let Ok(properties) = item.cast::<PyDict>() {
                            for name in properties.keys() {
                                self.add(&name);
                            }
                        }
                    }
                    Some(b"required" | b"enum") => {
                        if let Ok(list) = item.cast::<PyList>() {
                            for member in list.iter() {
                                self.add(&member);
                            }
                        }
                    }
                    Some(b"const") => self.add(&item),
                    _ => {}
                }
                self.walk(&item, depth + 1)?;
            }
        } else if let Ok(list) = value.cast::<PyList>() {
            for item in list.iter() {
                self.walk(&item, depth + 1)?;
            }
        }
        Ok(())
    }

    fn add(&mut self, value: &Bound<'_, PyAny>) {
        let Ok(s) = value.cast::<PyString>() else {
            return;
        };
        let Some(bytes) = utf8_of(s) else {
            return;
        };
        if !self.strings.contains_key(bytes) {
            let interned = PyString::intern(s.py(), &String::from_utf8_lossy(bytes));
            self.strings.insert(bytes.into(), interned.unbind());
        }
    }

    fn get<'py>(&self, py: Python<'py>, bytes: &[u8]) -> Option<Bound<'py, PyString>> {
        self.strings.get(bytes).map(|s| s.bind(py).clone())
    }
}

/// FNV-1a: the keys are a schema's short names, and the table is the host's own
/// (a model only chooses what it looks up, which cannot lengthen a probe sequence).
#[derive(Clone, Copy)]
pub(crate) struct Fnv(u64);

impl Default for Fnv {
    fn default() -> Self {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
}

impl Hasher for Fnv {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    }
    fn finish(&self) -> u64 {
        self.0
    }
}

/// Builds Python values from what the core's reader reports.
struct PyValues<'py, 'k> {
    py: Python<'py>,
    known: Option<&'k KnownStrings>,
}

/// Why reading stopped: malformed text, or Python raised (memory, an int too long).
enum ReadError {
    Syntax(toolgate_core::value::SyntaxError),
    Raised(PyErr),
}

impl From<toolgate_core::value::SyntaxError> for ReadError {
    fn from(e: toolgate_core::value::SyntaxError) -> Self {
        ReadError::Syntax(e)
    }
}

impl From<PyErr> for ReadError {
    fn from(e: PyErr) -> Self {
        ReadError::Raised(e)
    }
}

impl<'py> PyValues<'py, '_> {
    /// A string: the registration's own object when the schema names it.
    fn str(&self, s: &str) -> Bound<'py, PyString> {
        match self.known.and_then(|k| k.get(self.py, s.as_bytes())) {
            Some(known) => known,
            None => PyString::new(self.py, s),
        }
    }
}

impl<'py> toolgate_core::value::Build for PyValues<'py, '_> {
    type Value = Bound<'py, PyAny>;
    type Array = Bound<'py, PyList>;
    type Object = Bound<'py, PyDict>;
    type Error = ReadError;

    fn null(&mut self) -> Result<Self::Value, ReadError> {
        Ok(self.py.None().into_bound(self.py))
    }

    fn bool(&mut self, value: bool) -> Result<Self::Value, ReadError> {
        Ok(PyBool::new(self.py, value).to_owned().into_any())
    }

    /// An int when the number has no fraction and no exponent (of any size, as
    /// `int()` reads it), else a float (as `float()` reads it: correctly rounded).
    fn number(&mut self, text: &str) -> Result<Self::Value, ReadError> {
        let py = self.py;
        if !text.bytes().any(|b| matches!(b, b'.' | b'e' | b'E')) {
            // Up to 18 digits always fit an i64; longer ones go through int().
            if text.len() <= 18 {
                if let Ok(n) = text.parse::<i64>() {
                    let Ok(n) = n.into_pyobject(py);
                    return Ok(n.into_any());
                }
            }
            return Ok(PyInt::type_object(py).call1((text,))?);
        }
        // The reader checked the grammar, which Rust's float syntax includes.
        let x: f64 = text.parse().unwrap_or(f64::NAN);
        Ok(PyFloat::new(py, x).into_any())
    }

    fn string(&mut self, value: &str) -> Result<Self::Value, ReadError> {
        Ok(self.str(value).into_any())
    }

    fn array(&mut self) -> Result<Self::Array, ReadError> {
        Ok(PyList::empty(self.py))
    }

    fn push(&mut self, array: &mut Self::Array, item: Self::Value) -> Result<(), ReadError> {
        Ok(array.append(item)?)
    }

    fn end_array(&mut self, array: Self::Array) -> Result<Self::Value, ReadError> {
        Ok(array.into_any())
    }

    fn object(&mut self) -> Result<Self::Object, ReadError> {
        Ok(PyDict::new(self.py))
    }

    fn member(
        &mut self,
        object: &mut Self::Object,
        key: &str,
        value: Self::Value,
    ) -> Result<(), ReadError> {
        Ok(object.set_item(self.str(key), value)?)
    }

    fn end_object(&mut self, object: Self::Object) -> Result<Self::Value, ReadError> {
        Ok(object.into_any())
    }
}
