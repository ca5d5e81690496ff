//! JSON and Python values, both ways, without a detour through `json`:
//!
//! * [`write_json`] writes a Python value as `json.dumps(value, ensure_ascii=False,
//!   allow_nan=False, separators=(",", ":"))` would, byte for byte (non-ASCII kept,
//!   floats as `repr` writes them, big integers exact). It serves arguments given as
//!   Python values and handlers' answers.
//! * [`to_python`] builds the Python value of JSON text, as `json.loads` would: the
//!   kwargs of a handler straight from the call's bytes, in one pass, with no
//!   intermediate tree.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::io::Write as _;

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::type_object::PyTypeInfo;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};

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

/// The Python value of the JSON text `text`, as `json.loads` builds it: objects are
/// dicts (keys in the text's order), arrays lists, integers ints of any size, other
/// numbers floats.
///
/// The text has passed the core's strict reader before it gets here (a call's
/// arguments, a compiled schema), so malformed input is not expected; it is still
/// refused with `ValueError`, never trusted. Nesting is walked with an explicit stack,
/// so depth costs heap, not the thread's stack.
pub(crate) fn to_python<'py>(py: Python<'py>, text: &[u8]) -> PyResult<Bound<'py, PyAny>> {
    Reader {
        text,
        at: 0,
        known: None,
    }
    .document(py)
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
    Reader {
        text,
        at: 0,
        known: Some(known),
    }
    .document(py)
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

/// A container being filled.
enum Open<'py> {
    /// A dict and the key of the member whose value is being read.
    Object(Bound<'py, PyDict>, Bound<'py, PyString>),
    Array(Bound<'py, PyList>),
}

struct Reader<'t> {
    text: &'t [u8],
    at: usize,
    known: Option<&'t KnownStrings>,
}

impl<'t> Reader<'t> {
    fn document<'py>(mut self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let mut open: Vec<Open<'py>> = Vec::new();
        'value: loop {
            // Read one value; a container's opening pushes it and reads its first value.
            self.skip_space();
            let mut value = match self.peek() {
                Some(b'{') => {
                    self.at += 1;
                    self.skip_space();
                    if self.peek() == Some(b'}') {
                        self.at += 1;
                        PyDict::new(py).into_any()
                    } else {
                        let key = self.key(py)?;
                        open.push(Open::Object(PyDict::new(py), key));
                        continue 'value;
                    }
                }
                Some(b'[') => {
                    self.at += 1;
                    self.skip_space();
                    if self.peek() == Some(b']') {
                        self.at += 1;
                        PyList::empty(py).into_any()
                    } else {
                        open.push(Open::Array(PyList::empty(py)));
                        continue 'value;
                    }
                }
                Some(b'"') => self.string(py)?.into_any(),
                Some(b't') => self.literal(b"true", PyBool::new(py, true).to_owned().into_any())?,
                Some(b'f') => {
                    self.literal(b"false", PyBool::new(py, false).to_owned().into_any())?
                }
                Some(b'n') => self.literal(b"null", py.None().into_bound(py))?,
                Some(b'-' | b'0'..=b'9') => self.number(py)?,
                _ => return Err(self.unexpected()),
            };
            // Put the value in its container; each container it completes is in turn
            // the value of the one around it.
            loop {
                let closed = match open.last() {
                    None => {
                        self.skip_space();
                        if self.at != self.text.len() {
                            return Err(self.unexpected());
                        }
                        return Ok(value);
                    }
                    Some(Open::Object(dict, key)) => {
                        dict.set_item(key, &value)?;
                        self.skip_space();
                        match self.next() {
                            Some(b',') => {
                                self.skip_space();
                                let key = self.key(py)?;
                                if let Some(Open::Object(_, pending)) = open.last_mut() {
                                    *pending = key;
                                }
                                continue 'value;
                            }
                            Some(b'}') => true,
                            _ => return Err(self.unexpected()),
                        }
                    }
                    Some(Open::Array(list)) => {
                        list.append(&value)?;
                        self.skip_space();
                        match self.next() {
                            Some(b',') => continue 'value,
                            Some(b']') => true,
                            _ => return Err(self.unexpected()),
                        }
                    }
                };
                debug_assert!(closed);
                value = match open.pop() {
                    Some(Open::Object(dict, _)) => dict.into_any(),
                    Some(Open::Array(list)) => list.into_any(),
                    None => return Err(self.unexpected()),
                };
            }
        }
    }

    fn peek(&self) -> Option<u8> {
        self.text.get(self.at).copied()
    }

    fn next(&mut self) -> Option<u8> {
        let b = self.peek()?;
        self.at += 1;
        Some(b)
    }

    fn skip_space(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\n' | b'\r' | b'\t')) {
            self.at += 1;
        }
    }

    fn unexpected(&self) -> PyErr {
        PyValueError::new_err(format!("malformed JSON at byte {}", self.at))
    }

    fn literal<'py>(
        &mut self,
        word: &[u8],
        value: Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        if self.text[self.at..].starts_with(word) {
            self.at += word.len();
            Ok(value)
        } else {
            Err(self.unexpected())
        }
    }

    /// A member's key and the colon after it.
    fn key<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyString>> {
        if self.peek() != Some(b'"') {
            return Err(self.unexpected());
        }
        let key = self.string(py)?;
        self.skip_space();
        if self.next() != Some(b':') {
            return Err(self.unexpected());
        }
        Ok(key)
    }

    /// A string literal (at its opening quote).
    fn string<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyString>> {
        let start = self.at + 1;
        let mut end = start;
        // The common case: no escape, so the text between the quotes is the string.
        while let Some(&b) = self.text.get(end) {
            match b {
                b'"' => {
                    let bytes = &self.text[start..end];
                    self.at = end + 1;
                    if let Some(known) = self.known.and_then(|k| k.get(py, bytes)) {
                        return Ok(known);
                    }
                    let s = std::str::from_utf8(bytes).map_err(|_| self.unexpected())?;
                    return Ok(PyString::new(py, s));
                }
                b'\\' => break,
                _ => end += 1,
            }
        }
        let mut out: Vec<u8> = self.text[start..end].to_vec();
        self.at = end;
        loop {
            match self.next() {
                Some(b'"') => break,
                Some(b'\\') => {
                    let short = match self.next() {
                        Some(b'"') => b'"',
                        Some(b'\\') => b'\\',
                        Some(b'/') => b'/',
                        Some(b'b') => 0x08,
                        Some(b'f') => 0x0c,
                        Some(b'n') => b'\n',
                        Some(b'r') => b'\r',
                        Some(b't') => b'\t',
                        Some(b'u') => {
                            let c = self.unicode_escape()?;
                            let mut buf = [0u8; 4];
                            out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
                            continue;
                        }
                        _ => return Err(self.unexpected()),
                    };
                    out.push(short);
                }
                Some(b) => out.push(b),
                None => return Err(self.unexpected()),
            }
        }
        let s = String::from_utf8(out).map_err(|_| self.unexpected())?;
        Ok(PyString::new(py, &s))
    }

    fn hex4(&mut self) -> PyResult<u32> {
        let digits = self
            .text
            .get(self.at..self.at + 4)
            .ok_or_else(|| self.unexpected())?;
        let text = std::str::from_utf8(digits).map_err(|_| self.unexpected())?;
        let n = u32::from_str_radix(text, 16).map_err(|_| self.unexpected())?;
        self.at += 4;
        Ok(n)
    }

    /// The character of a `\uXXXX` escape (after the `u`), a surrogate pair included.
    fn unicode_escape(&mut self) -> PyResult<char> {
        let first = self.hex4()?;
        let code = if (0xD800..0xDC00).contains(&first) {
            if self.next() != Some(b'\\') || self.next() != Some(b'u') {
                return Err(self.unexpected());
            }
            let second = self.hex4()?;
            if !(0xDC00..0xE000).contains(&second) {
                return Err(self.unexpected());
            }
            0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)
        } else {
            first
        };
        char::from_u32(code).ok_or_else(|| self.unexpected())
    }

    /// A number: an int when it has no fraction and no exponent (of any size, as
    /// `int()` reads it), else a float (as `float()` reads it: correctly rounded).
    fn number<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let start = self.at;
        let mut integral = true;
        while let Some(b) = self.peek() {
            match b {
                b'0'..=b'9' | b'-' => {}
                b'.' | b'e' | b'E' | b'+' => integral = false,
                _ => break,
            }
            self.at += 1;
        }
        let text =
            std::str::from_utf8(&self.text[start..self.at]).map_err(|_| self.unexpected())?;
        if integral {
            // Up to 18 digits always fit an i64; longer ones go through int().
            if text.len() <= 18 {
                if let Ok(n) = text.parse::<i64>() {
                    return Ok(n.into_pyobject(py)?.into_any());
                }
            }
            return PyInt::type_object(py).call1((text,));
        }
        let x: f64 = text.parse().map_err(|_| self.unexpected())?;
        Ok(PyFloat::new(py, x).into_any())
    }
}

// ---------------------------------------------------------------------------
// PROTOTYPE (measurement only): the core's Value, converted.

/// The Python value of a core `Value` (the same values as [`to_python`]).
pub(crate) fn value_to_python<'py>(
    py: Python<'py>,
    v: &toolgate_core::value::Value,
    known: Option<&KnownStrings>,
) -> PyResult<Bound<'py, PyAny>> {
    use toolgate_core::value::Value;
    Ok(match v {
        Value::Null => py.None().into_bound(py),
        Value::Bool(b) => PyBool::new(py, *b).to_owned().into_any(),
        Value::Number(t) => number_of(py, t)?,
        Value::String(s) => match known.and_then(|k| k.get(py, s.as_bytes())) {
            Some(k) => k.into_any(),
            None => PyString::new(py, s).into_any(),
        },
        Value::Array(items) => {
            let list = PyList::empty(py);
            for item in items {
                list.append(value_to_python(py, item, known)?)?;
            }
            list.into_any()
        }
        Value::Object(members) => {
            let dict = PyDict::new(py);
            for (k, item) in members {
                let key = match known.and_then(|kn| kn.get(py, k.as_bytes())) {
                    Some(k) => k,
                    None => PyString::new(py, k),
                };
                dict.set_item(key, value_to_python(py, item, known)?)?;
            }
            dict.into_any()
        }
    })
}

fn number_of<'py>(py: Python<'py>, text: &str) -> PyResult<Bound<'py, PyAny>> {
    if !text.bytes().any(|b| matches!(b, b'.' | b'e' | b'E')) {
        if text.len() <= 18 {
            if let Ok(n) = text.parse::<i64>() {
                return Ok(n.into_pyobject(py)?.into_any());
            }
        }
        return PyInt::type_object(py).call1((text,));
    }
    let x: f64 = text
        .parse()
        .map_err(|_| PyValueError::new_err("bad number"))?;
    Ok(PyFloat::new(py, x).into_any())
}

/// Builds Python values from the core reader's events.
pub(crate) struct PyBuild<'py, 'k> {
    py: Python<'py>,
    known: Option<&'k KnownStrings>,
}

pub(crate) struct BuildError(PyErr);

impl From<toolgate_core::value::SyntaxError> for BuildError {
    fn from(e: toolgate_core::value::SyntaxError) -> Self {
        BuildError(PyValueError::new_err(format!("malformed JSON: {e:?}")))
    }
}
impl From<PyErr> for BuildError {
    fn from(e: PyErr) -> Self {
        BuildError(e)
    }
}

impl<'py> PyBuild<'py, '_> {
    fn str(&self, s: &str) -> Bound<'py, PyString> {
        match self.known.and_then(|k| k.get(self.py, s.as_bytes())) {
            Some(k) => k,
            None => PyString::new(self.py, s),
        }
    }
}

impl<'py> toolgate_core::value::Build for PyBuild<'py, '_> {
    type Value = Bound<'py, PyAny>;
    type Array = Bound<'py, PyList>;
    type Object = Bound<'py, PyDict>;
    type Error = BuildError;
    fn null(&mut self) -> Result<Self::Value, BuildError> {
        Ok(self.py.None().into_bound(self.py))
    }
    fn bool(&mut self, b: bool) -> Result<Self::Value, BuildError> {
        Ok(PyBool::new(self.py, b).to_owned().into_any())
    }
    fn number(&mut self, t: &str) -> Result<Self::Value, BuildError> {
        Ok(number_of(self.py, t)?)
    }
    fn string(&mut self, s: &str) -> Result<Self::Value, BuildError> {
        Ok(self.str(s).into_any())
    }
    fn array(&mut self) -> Result<Self::Array, BuildError> {
        Ok(PyList::empty(self.py))
    }
    fn push(&mut self, a: &mut Self::Array, v: Self::Value) -> Result<(), BuildError> {
        Ok(a.append(v)?)
    }
    fn end_array(&mut self, a: Self::Array) -> Result<Self::Value, BuildError> {
        Ok(a.into_any())
    }
    fn object(&mut self) -> Result<Self::Object, BuildError> {
        Ok(PyDict::new(self.py))
    }
    fn member(&mut self, o: &mut Self::Object, k: &str, v: Self::Value) -> Result<(), BuildError> {
        Ok(o.set_item(self.str(k), v)?)
    }
    fn end_object(&mut self, o: Self::Object) -> Result<Self::Value, BuildError> {
        Ok(o.into_any())
    }
}

pub(crate) fn via_events<'py>(
    py: Python<'py>,
    text: &[u8],
    known: Option<&KnownStrings>,
) -> PyResult<Bound<'py, PyAny>> {
    toolgate_core::value::build(text, 1024, &mut PyBuild { py, known }).map_err(|e| e.0)
}

/// Measurement: `rounds` interleaved rounds of `n` decodes of `text` each way, with
/// the known strings of `schema`; returns [(ns per to_python, ns per core path)].
#[pyfunction]
pub(crate) fn _decode_compare(
    py: Python<'_>,
    schema: &Bound<'_, PyAny>,
    text: &str,
    n: usize,
    rounds: usize,
) -> PyResult<Vec<(f64, f64, f64)>> {
    let known = KnownStrings::of_schema(schema)?;
    let bytes = text.as_bytes();
    let a = arguments_to_python(py, bytes, &known)?;
    let v = toolgate_core::value::Value::parse(bytes, 1024)
        .map_err(|e| PyValueError::new_err(format!("{e:?}")))?;
    let b = value_to_python(py, &v, Some(&known))?;
    if !a.eq(&b)? {
        return Err(PyValueError::new_err("the two paths differ"));
    }
    let c = via_events(py, bytes, Some(&known))?;
    if !a.eq(&c)? {
        return Err(PyValueError::new_err("the event path differs"));
    }
    let mut out = Vec::new();
    for _ in 0..rounds {
        let t = std::time::Instant::now();
        for _ in 0..n {
            std::hint::black_box(arguments_to_python(py, bytes, &known)?);
        }
        let first = t.elapsed().as_nanos() as f64 / n as f64;
        let t = std::time::Instant::now();
        for _ in 0..n {
            let v = toolgate_core::value::Value::parse(bytes, 1024)
                .map_err(|e| PyValueError::new_err(format!("{e:?}")))?;
            std::hint::black_box(value_to_python(py, &v, Some(&known))?);
        }
        let second = t.elapsed().as_nanos() as f64 / n as f64;
        let t = std::time::Instant::now();
        for _ in 0..n {
            std::hint::black_box(via_events(py, bytes, Some(&known))?);
        }
        let third = t.elapsed().as_nanos() as f64 / n as f64;
        out.push((first, second, third));
    }
    Ok(out)
}
