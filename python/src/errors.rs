//! The Python objects the module answers with: the package's exceptions (defined in
//! `toolgate/_errors.py`) and its result types (frozen dataclasses in
//! `toolgate/_types.py`), built here from the core's values and texts.

use pyo3::exceptions::PyValueError;
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyList, PyString, PyTuple, PyType};

/// `tg_status` values the exceptions carry (`toolgate.Status`), as the C ABI numbers
/// them, so an exception means the same in every host.
pub(crate) mod status {
    pub const UTF8: i32 = 2;
    pub const ARGUMENT: i32 = 3;
    pub const SCHEMA: i32 = 5;
    pub const NAME: i32 = 6;
    pub const DUPLICATE: i32 = 7;
    pub const NOT_OBJECT: i32 = 8;
    pub const NOT_FOUND: i32 = 9;
}

/// The package's Python types, imported once.
struct Types {
    ok: Py<PyAny>,
    validation_error: Py<PyType>,
    call_result: Py<PyType>,
    tool_record: Py<PyType>,
}

static TYPES: PyOnceLock<Types> = PyOnceLock::new();

fn types(py: Python<'_>) -> PyResult<&Types> {
    TYPES.get_or_try_init(py, || {
        let module = py.import("toolgate._types")?;
        Ok(Types {
            ok: module.getattr("OK")?.unbind(),
            validation_error: module
                .getattr("ValidationError")?
                .cast_into::<PyType>()?
                .unbind(),
            call_result: module
                .getattr("CallResult")?
                .cast_into::<PyType>()?
                .unbind(),
            tool_record: module
                .getattr("ToolRecord")?
                .cast_into::<PyType>()?
                .unbind(),
        })
    })
}

/// `toolgate.OK`.
pub(crate) fn ok(py: Python<'_>) -> PyResult<Bound<'_, PyAny>> {
    Ok(types(py)?.ok.bind(py).clone())
}

/// An exception of `toolgate._errors` (`class` names it) carrying the core's message,
/// its status and, for schema errors, where in the schema and which keyword.
pub(crate) fn toolgate_error(
    py: Python<'_>,
    class: &str,
    message: &str,
    status: i32,
    pointer: &str,
    keyword: &str,
) -> PyErr {
    let made = py
        .import("toolgate._errors")
        .and_then(|m| m.getattr(class))
        .and_then(|cls| cls.call1((message, status, pointer, keyword)));
    match made {
        Ok(exc) => PyErr::from_value(exc),
        Err(e) => e,
    }
}

/// `InvalidTextError`: `what` is a str holding lone surrogates, which are not text.
pub(crate) fn invalid_text(py: Python<'_>, what: &str) -> PyErr {
    toolgate_error(
        py,
        "InvalidTextError",
        &format!("{what} is not valid UTF-8"),
        status::UTF8,
        "",
        "",
    )
}

/// `InvalidArgumentError` (a `ValueError`): a caller's argument outside its domain.
pub(crate) fn invalid_argument(py: Python<'_>, message: &str) -> PyErr {
    toolgate_error(
        py,
        "InvalidArgumentError",
        message,
        status::ARGUMENT,
        "",
        "",
    )
}

/// `ToolNotFoundError` (a `KeyError`) with the core's `unknown tool "x"`.
pub(crate) fn not_found(py: Python<'_>, name: &str) -> PyErr {
    toolgate_error(
        py,
        "ToolNotFoundError",
        &toolgate::registry::message::unknown_tool_name(name),
        status::NOT_FOUND,
        "",
        "",
    )
}

/// The `ValueError` of an operation on a closed schema or registry.
pub(crate) fn closed(what: &str) -> PyErr {
    PyValueError::new_err(format!("the {what} is closed"))
}

/// Field names, interned once: the attribute stores below compare them by identity.
struct Names {
    path: Py<PyString>,
    keyword: Py<PyString>,
    message: Py<PyString>,
    expected_type: Py<PyString>,
    location: Py<PyString>,
    call_id: Py<PyString>,
    name: Py<PyString>,
    content: Py<PyString>,
    is_error: Py<PyString>,
}

static NAMES: PyOnceLock<Names> = PyOnceLock::new();

fn names(py: Python<'_>) -> &Names {
    NAMES.get_or_init(py, || {
        let n = |s: &str| PyString::intern(py, s).unbind();
        Names {
            path: n("path"),
            keyword: n("keyword"),
            message: n("message"),
            expected_type: n("expected_type"),
            location: n("location"),
            call_id: n("call_id"),
            name: n("name"),
            content: n("content"),
            is_error: n("is_error"),
        }
    })
}

/// An instance of the dataclass `cls` with `fields` set, made as `object.__new__(cls)`
/// plus `object.__setattr__` per field: what the frozen dataclass's `__init__` does,
/// without its Python frame (this is on the path of every call).
fn instance<'py>(
    py: Python<'py>,
    cls: &Bound<'py, PyType>,
    fields: &[(&Py<PyString>, &Bound<'py, PyAny>)],
) -> PyResult<Bound<'py, PyAny>> {
    let empty = PyTuple::empty(py);
    // SAFETY: `cls` is a live type object (a plain Python class, whose tp_new and
    // tp_alloc are the generic ones) and `empty` a live tuple; the GIL is held. The
    // result is a new reference or NULL with an exception set, which
    // `assume_owned_or_err` turns into a `Bound` or the error.
    let obj = unsafe {
        Bound::from_owned_ptr_or_err(
            py,
            ffi::PyType_GenericNew(cls.as_ptr().cast(), empty.as_ptr(), std::ptr::null_mut()),
        )?
    };
    for (name, value) in fields {
        // SAFETY: three live objects, the GIL held. The generic setter stores into the
        // instance's dict, bypassing the frozen class's `__setattr__` exactly as
        // `object.__setattr__` does; it does not steal references.
        let rc =
            unsafe { ffi::PyObject_GenericSetAttr(obj.as_ptr(), name.as_ptr(), value.as_ptr()) };
        if rc != 0 {
            return Err(PyErr::fetch(py));
        }
    }
    Ok(obj)
}

/// `CallResult(call_id, name, content, is_error)`.
pub(crate) fn call_result<'py>(
    py: Python<'py>,
    call_id: &Bound<'py, PyAny>,
    name: &Bound<'py, PyAny>,
    content: &Bound<'py, PyAny>,
    is_error: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let n = names(py);
    let flag = pyo3::types::PyBool::new(py, is_error).to_owned().into_any();
    instance(
        py,
        types(py)?.call_result.bind(py),
        &[
            (&n.call_id, call_id),
            (&n.name, name),
            (&n.content, content),
            (&n.is_error, &flag),
        ],
    )
}

/// The list of `ValidationError`s of the core's violations (non-empty).
pub(crate) fn validation_errors<'py>(
    py: Python<'py>,
    errors: &[toolgate::ValidationError],
) -> PyResult<Bound<'py, PyList>> {
    let cls = types(py)?.validation_error.bind(py);
    let n = names(py);
    let list = PyList::empty(py);
    for e in errors {
        let expected = match expected_type(e) {
            Some(t) => PyString::new(py, t).into_any(),
            None => py.None().into_bound(py),
        };
        let error = instance(
            py,
            cls,
            &[
                (&n.path, PyString::new(py, &e.pointer).as_any()),
                (&n.keyword, PyString::new(py, e.keyword).as_any()),
                (&n.message, PyString::new(py, &e.message).as_any()),
                (&n.expected_type, &expected),
                (&n.location, PyString::new(py, &e.path).as_any()),
            ],
        )?;
        list.append(error)?;
    }
    Ok(list)
}

/// For a `type` violation, the expected type as its message words it: the `X` of
/// `expected X, got Y` (`integer`, `string or null`).
fn expected_type(e: &toolgate::ValidationError) -> Option<&str> {
    if e.keyword != "type" {
        return None;
    }
    let rest = e.message.strip_prefix("expected ")?;
    let (expected, got) = rest.rsplit_once(", got ")?;
    got.bytes()
        .all(|b| b.is_ascii_lowercase())
        .then_some(expected)
}

/// The fields of a `ToolRecord`, in its order: name, description, schema, handler,
/// idempotent, timeout_ms.
pub(crate) type RecordFields<'a, 'py> = (
    &'a Bound<'py, PyAny>,
    &'a Bound<'py, PyAny>,
    &'a Bound<'py, PyAny>,
    &'a Bound<'py, PyAny>,
    bool,
    &'a Bound<'py, PyAny>,
);

/// `ToolRecord(name, description, schema, handler, idempotent, timeout_ms)`.
pub(crate) fn tool_record<'py>(
    py: Python<'py>,
    fields: RecordFields<'_, 'py>,
) -> PyResult<Bound<'py, PyAny>> {
    types(py)?.tool_record.bind(py).call1(fields)
}
