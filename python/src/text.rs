//! The bytes of what Python hands the module: text read from a `str`'s own UTF-8
//! buffer or a `bytes` object without a copy, anything else copied or written as JSON.

use std::os::raw::c_char;

use pyo3::exceptions::PyTypeError;
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyString};

use crate::convert;
use crate::errors;

// Declared here because the limited API of Python 3.9 (abi3-py39) leaves it out, and
// with it PyO3's `PyString::to_str`. The function itself is in every CPython 3 (it
// joined the stable ABI in 3.10 with this signature), so a wheel built for 3.9 finds
// it in every interpreter that can load the wheel.
extern "C" {
    fn PyUnicode_AsUTF8AndSize(
        unicode: *mut ffi::PyObject,
        size: *mut ffi::Py_ssize_t,
    ) -> *const c_char;
}

/// The UTF-8 bytes of `s` as CPython keeps them: the character data itself for an
/// ASCII string, otherwise a UTF-8 copy that CPython makes once and caches in the
/// string. `None` (with no Python error left set) for a string holding lone surrogates,
/// which have no UTF-8 form.
pub(crate) fn utf8_of<'a>(s: &'a Bound<'_, PyString>) -> Option<&'a [u8]> {
    let mut size: ffi::Py_ssize_t = 0;
    // SAFETY: `s` is a live `str` (the `Bound` holds a reference and the GIL is held
    // through `'a`), and `size` is a valid place to write.
    let data = unsafe { PyUnicode_AsUTF8AndSize(s.as_ptr(), &mut size) };
    if data.is_null() {
        // The only failure is a UnicodeEncodeError for lone surrogates: the caller
        // falls back to another path, so the error must not stay set.
        drop(PyErr::take(s.py()));
        return None;
    }
    // SAFETY: CPython returns `size` bytes at `data`, owned by the string object and
    // unchanged for as long as it lives (`str` is immutable); the returned slice
    // borrows `s`, so the object outlives it.
    Some(unsafe { std::slice::from_raw_parts(data.cast::<u8>(), size as usize) })
}

/// Text that must be a `str` holding valid Unicode (a name, a call id, a description):
/// `TypeError` for another type, `InvalidTextError` for lone surrogates.
pub(crate) fn required_str<'a>(value: &'a Bound<'_, PyAny>, what: &str) -> PyResult<&'a str> {
    let s = value.cast::<PyString>().map_err(|_| {
        PyTypeError::new_err(format!("{what} must be str, not {}", type_name(value)))
    })?;
    utf8_of(s)
        .and_then(|bytes| std::str::from_utf8(bytes).ok())
        .ok_or_else(|| errors::invalid_text(value.py(), what))
}

/// The name of a value's type, as `type(value).__name__`.
pub(crate) fn type_name(value: &Bound<'_, PyAny>) -> String {
    value
        .get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "?".to_owned())
}

/// JSON text to validate: borrowed from the caller's object when it can be.
pub(crate) enum Json<'a> {
    /// A `str`'s UTF-8 or a `bytes` object's contents.
    Borrowed(&'a [u8]),
    /// Bytes made here: a copy of a mutable buffer, or a Python value written as JSON.
    Owned(Vec<u8>),
}

impl Json<'_> {
    pub(crate) fn bytes(&self) -> &[u8] {
        match self {
            Json::Borrowed(bytes) => bytes,
            Json::Owned(bytes) => bytes,
        }
    }
}

/// The bytes the core reads for `value`.
///
/// `str` and `bytes` are raw JSON text, passed on as received (no copy; a `str` with
/// lone surrogates is encoded with them kept, so that the core reports it as malformed
/// rather than this module failing differently). `bytearray` and `memoryview` are raw
/// text too, copied, since another thread could change them while the core reads. Any
/// other value (dict, list, ...) is written as JSON without loss, as `json.dumps`
/// writes it: `True` stays `true`, big integers stay exact, NaN and infinities raise
/// `ValueError`, and a value JSON has no form for raises `TypeError`.
pub(crate) fn json_input<'a>(value: &'a Bound<'_, PyAny>) -> PyResult<Json<'a>> {
    if let Ok(s) = value.cast::<PyString>() {
        return Ok(match utf8_of(s) {
            Some(bytes) => Json::Borrowed(bytes),
            None => Json::Owned(surrogate_bytes(s)?),
        });
    }
    if let Ok(bytes) = value.cast::<PyBytes>() {
        return Ok(Json::Borrowed(bytes.as_bytes()));
    }
    if let Ok(array) = value.cast::<PyByteArray>() {
        return Ok(Json::Owned(array.to_vec()));
    }
    if value.is_instance_of::<pyo3::types::PyMemoryView>() {
        let copy = PyBytes::type_object(value.py()).call1((value,))?;
        return Ok(Json::Owned(copy.cast::<PyBytes>()?.as_bytes().to_vec()));
    }
    let mut out = Vec::with_capacity(64);
    convert::write_json(&mut out, value).map_err(|e| e.into_argument_error(value.py()))?;
    Ok(Json::Owned(out))
}

/// `s.encode("utf-8", "surrogatepass")`: the bytes of a string with lone surrogates,
/// each written as the three bytes UTF-8 would give it (which no UTF-8 reader accepts).
pub(crate) fn surrogate_bytes(s: &Bound<'_, PyString>) -> PyResult<Vec<u8>> {
    let encoded = s.call_method1(pyo3::intern!(s.py(), "encode"), ("utf-8", "surrogatepass"))?;
    Ok(encoded.cast::<PyBytes>()?.as_bytes().to_vec())
}

use pyo3::type_object::PyTypeInfo;
