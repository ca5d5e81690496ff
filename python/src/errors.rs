//! The Python objects the module answers with: the package's exceptions (defined in
//! `toolgate/_errors.py`) and its result types (frozen dataclasses in
//! `toolgate/_types.py`), built here from the core's values and texts.

use std::collections::HashMap;
use std::hash::BuildHasherDefault;
use std::sync::{Mutex, PoisonError};

use pyo3::exceptions::PyValueError;
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBool, PyList, PyModule, PyString, PyTuple, PyType};
use toolgate_core::CallOutcome;

use crate::convert::Fnv;

/// The status numbers the exceptions carry (`toolgate.Status`): the core's, the same
/// in every host.
pub(crate) mod status {
    use toolgate_core::Status;
    pub const UTF8: i32 = Status::Utf8 as i32;
    pub const ARGUMENT: i32 = Status::Argument as i32;
    pub const SCHEMA: i32 = Status::Schema as i32;
    pub const NAME: i32 = Status::Name as i32;
    pub const NOT_FOUND: i32 = Status::NotFound as i32;
    pub const RESPONSE: i32 = Status::Response as i32;
}

/// A result type of `toolgate._types` (a frozen dataclass with `__slots__`) and how
/// its fields are stored: by the slots' own member descriptors where the interpreter
/// lets a limited-API module call them (3.10 on), else by `object.__setattr__`.
struct Class {
    cls: Py<PyType>,
    /// Field names, interned (the generic setter compares them by identity).
    names: Vec<Py<PyString>>,
    /// The member descriptor of each field's slot, when `store` can be used.
    members: Vec<Py<PyAny>>,
    store: Option<ffi::descrsetfunc>,
}

impl Class {
    fn load(
        py: Python<'_>,
        module: &Bound<'_, PyModule>,
        name: &str,
        fields: &[&str],
    ) -> PyResult<Class> {
        let cls = module.getattr(name)?.cast_into::<PyType>()?;
        let names: Vec<Py<PyString>> = fields
            .iter()
            .map(|f| PyString::intern(py, f).unbind())
            .collect();
        let mut members = Vec::with_capacity(fields.len());
        for field in fields {
            // Looked up in the class's own namespace: a slot's descriptor lives there.
            if let Ok(member) = cls.getattr("__dict__")?.get_item(field) {
                if member.get_type().name()?.to_string_lossy() == "member_descriptor" {
                    members.push(member.unbind());
                }
            }
        }
        let mut store = None;
        if members.len() == fields.len() && py.version_info() >= (3, 10) {
            // SAFETY: `members[0]` is a live object and the GIL is held; from 3.10 on
            // PyType_GetSlot accepts static types (member_descriptor is one), and it
            // returns the type's tp_descr_set, which has the descrsetfunc signature, or
            // NULL.
            let slot = unsafe {
                ffi::PyType_GetSlot(ffi::Py_TYPE(members[0].as_ptr()), ffi::Py_tp_descr_set)
            };
            if !slot.is_null() {
                // SAFETY: a non-NULL tp_descr_set slot is a function of this type.
                store = Some(unsafe {
                    std::mem::transmute::<*mut std::ffi::c_void, ffi::descrsetfunc>(slot)
                });
            }
        }
        Ok(Class {
            cls: cls.unbind(),
            names,
            members,
            store,
        })
    }

    /// An instance with `values` in its fields (in field order), made as
    /// `object.__new__(cls)` plus `object.__setattr__` per field: what the frozen
    /// dataclass's `__init__` does, without its Python frame (this is on the path of
    /// every call).
    fn make<'py>(
        &self,
        py: Python<'py>,
        values: &[&Bound<'py, PyAny>],
    ) -> PyResult<Bound<'py, PyAny>> {
        debug_assert_eq!(values.len(), self.names.len());
        let empty = PyTuple::empty(py);
        // SAFETY: `cls` is a live type object (a plain Python class, whose tp_new and
        // tp_alloc are the generic ones) and `empty` a live tuple; the GIL is held. The
        // result is a new reference or NULL with an exception set, which
        // `from_owned_ptr_or_err` turns into a `Bound` or the error.
        let obj = unsafe {
            Bound::from_owned_ptr_or_err(
                py,
                ffi::PyType_GenericNew(
                    self.cls.as_ptr().cast(),
                    empty.as_ptr(),
                    std::ptr::null_mut(),
                ),
            )?
        };
        for (i, value) in values.iter().enumerate() {
            let rc = match self.store {
                // SAFETY: `store` is the member descriptors' tp_descr_set, called with one
                // of them, an instance of the class that defines it (just made above) and
                // a live value, the GIL held: what `descriptor.__set__(obj, value)` does.
                // It checks the instance's type itself and does not steal references.
                Some(store) => unsafe {
                    store(self.members[i].as_ptr(), obj.as_ptr(), value.as_ptr())
                },
                // SAFETY: three live objects, the GIL held. The generic setter bypasses
                // the frozen class's `__setattr__` exactly as `object.__setattr__` does;
                // it does not steal references.
                None => unsafe {
                    ffi::PyObject_GenericSetAttr(
                        obj.as_ptr(),
                        self.names[i].as_ptr(),
                        value.as_ptr(),
                    )
                },
            };
            if rc != 0 {
                return Err(PyErr::fetch(py));
            }
        }
        Ok(obj)
    }
}

/// The package's Python types, imported once.
struct Types {
    ok: Py<PyAny>,
    validation_error: Class,
    call_result: Class,
    tool_call: Class,
    tool_record: Py<PyType>,
    /// The members of `CallOutcome` (built from the core's names, `OUTCOMES`), in the
    /// order of `CallOutcome::ALL`.
    outcomes: Vec<Py<PyAny>>,
}

/// A core outcome's place in `CallOutcome::ALL` (and in [`Types::outcomes`]).
fn outcome_index(outcome: CallOutcome) -> usize {
    CallOutcome::ALL
        .iter()
        .position(|o| *o == outcome)
        .unwrap_or_default()
}

static TYPES: PyOnceLock<Types> = PyOnceLock::new();

fn types(py: Python<'_>) -> PyResult<&Types> {
    TYPES.get_or_try_init(py, || {
        let module = py.import("toolgate._types")?;
        Ok(Types {
            ok: module.getattr("OK")?.unbind(),
            validation_error: Class::load(
                py,
                &module,
                "ValidationError",
                &[
                    "path",
                    "keyword",
                    "message",
                    "expected_type",
                    "location",
                    "schema_location",
                ],
            )?,
            call_result: Class::load(
                py,
                &module,
                "CallResult",
                &[
                    "call_id",
                    "name",
                    "content",
                    "is_error",
                    "outcome",
                    "structured",
                    "violations",
                    "invalid_result",
                    "attempts",
                ],
            )?,
            tool_call: Class::load(py, &module, "ToolCall", &["id", "name", "arguments"])?,
            tool_record: module
                .getattr("ToolRecord")?
                .cast_into::<PyType>()?
                .unbind(),
            outcomes: {
                let class = module.getattr("CallOutcome")?;
                CallOutcome::ALL
                    .iter()
                    .map(|o| Ok(class.call1((o.name(),))?.unbind()))
                    .collect::<PyResult<_>>()?
            },
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
        &toolgate_core::registry::message::unknown_tool_name(name),
        status::NOT_FOUND,
        "",
        "",
    )
}

/// The `ValueError` of an operation on a closed schema or registry.
pub(crate) fn closed(what: &str) -> PyErr {
    PyValueError::new_err(format!("the {what} is closed"))
}

/// What became of a call, beside its id and name: the fields of its `CallResult`.
pub(crate) struct Settled<'py> {
    /// The answer (a `str`), or the `error: ...` text of a failure.
    pub(crate) content: Bound<'py, PyAny>,
    pub(crate) outcome: CallOutcome,
    /// The answer passed the tool's output schema.
    pub(crate) structured: bool,
    /// The violations of refused arguments or of a refused answer.
    pub(crate) violations: Vec<toolgate_core::ValidationError>,
    /// The answer the output schema refused.
    pub(crate) invalid_result: Option<Bound<'py, PyAny>>,
    /// How many times the handler ran.
    pub(crate) attempts: u32,
}

impl<'py> Settled<'py> {
    /// A call that ended with `content` and no violations (its handler ran once when
    /// the outcome says it ran).
    pub(crate) fn plain(content: Bound<'py, PyAny>, outcome: CallOutcome) -> Settled<'py> {
        Settled {
            content,
            outcome,
            structured: false,
            violations: Vec::new(),
            invalid_result: None,
            attempts: u32::from(outcome.handler_ran()),
        }
    }
}

/// `CallResult(call_id, name, content, is_error, outcome, structured, violations,
/// invalid_result, attempts)`.
pub(crate) fn call_result<'py>(
    py: Python<'py>,
    call_id: &Bound<'py, PyAny>,
    name: &Bound<'py, PyAny>,
    settled: Settled<'py>,
) -> PyResult<Bound<'py, PyAny>> {
    let types = types(py)?;
    let flag = PyBool::new(py, settled.outcome.is_error())
        .to_owned()
        .into_any();
    let structured = PyBool::new(py, settled.structured).to_owned().into_any();
    let outcome = types.outcomes[outcome_index(settled.outcome)].bind(py);
    let violations = if settled.violations.is_empty() {
        PyList::empty(py)
    } else {
        validation_errors(py, &settled.violations)?
    };
    let invalid = settled
        .invalid_result
        .unwrap_or_else(|| py.None().into_bound(py));
    let attempts = settled.attempts.into_pyobject(py)?.into_any();
    types.call_result.make(
        py,
        &[
            call_id,
            name,
            &settled.content,
            &flag,
            outcome,
            &structured,
            violations.as_any(),
            &invalid,
            &attempts,
        ],
    )
}

/// `ToolCall(id, name, arguments)`.
pub(crate) fn tool_call<'py>(
    py: Python<'py>,
    id: &str,
    name: &str,
    arguments: &str,
) -> PyResult<Bound<'py, PyAny>> {
    types(py)?.tool_call.make(
        py,
        &[
            PyString::new(py, id).as_any(),
            PyString::new(py, name).as_any(),
            PyString::new(py, arguments).as_any(),
        ],
    )
}

/// `InvalidResponseError`: the calls of a provider's response cannot be read.
pub(crate) fn invalid_response(py: Python<'_>, e: &toolgate_dialect::CallsError) -> PyErr {
    let made = py
        .import("toolgate._errors")
        .and_then(|m| m.getattr("InvalidResponseError"))
        .and_then(|cls| cls.call1((&e.message, status::RESPONSE, "", "", e.index)));
    match made {
        Ok(exc) => PyErr::from_value(exc),
        Err(e) => e,
    }
}

/// Keywords and expected types, one `str` each: a violation's keyword is one of the
/// core's few dozen, its expected type one of the few type lists a host's schemas
/// name, so each is made once rather than per violation. Bounded all the same.
#[derive(Default)]
struct Words {
    /// By the address and length of the core's `&'static str`: found without hashing.
    keywords: Vec<(usize, usize, Py<PyString>)>,
    /// By text.
    types: HashMap<Box<str>, Py<PyString>, BuildHasherDefault<Fnv>>,
}

static WORDS: PyOnceLock<Mutex<Words>> = PyOnceLock::new();
const MAX_WORDS: usize = 512;

impl Words {
    fn keyword<'py>(&mut self, py: Python<'py>, keyword: &'static str) -> Bound<'py, PyString> {
        let key = (keyword.as_ptr() as usize, keyword.len());
        if let Some((_, _, found)) = self.keywords.iter().find(|(p, n, _)| (*p, *n) == key) {
            return found.bind(py).clone();
        }
        let made = PyString::new(py, keyword);
        if self.keywords.len() < MAX_WORDS {
            self.keywords.push((key.0, key.1, made.clone().unbind()));
        }
        made
    }

    fn expected_type<'py>(&mut self, py: Python<'py>, text: &str) -> Bound<'py, PyString> {
        if let Some(found) = self.types.get(text) {
            return found.bind(py).clone();
        }
        let made = PyString::new(py, text);
        if self.types.len() < MAX_WORDS {
            self.types.insert(text.into(), made.clone().unbind());
        }
        made
    }
}

/// The list of `ValidationError`s of the core's violations.
pub(crate) fn validation_errors<'py>(
    py: Python<'py>,
    errors: &[toolgate_core::ValidationError],
) -> PyResult<Bound<'py, PyList>> {
    let class = &types(py)?.validation_error;
    // The shared words first, under the lock; the objects after it, since making them
    // may run the garbage collector, and with it any Python code.
    let words: Vec<(Bound<'py, PyString>, Option<Bound<'py, PyString>>)> = {
        let mut words = WORDS
            .get_or_init(py, || Mutex::new(Words::default()))
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        errors
            .iter()
            .map(|e| {
                let keyword = words.keyword(py, e.keyword);
                let expected = expected_type(e).map(|t| words.expected_type(py, t));
                (keyword, expected)
            })
            .collect()
    };
    let list = PyList::empty(py);
    for (e, (keyword, expected)) in errors.iter().zip(words) {
        let expected = match expected {
            Some(t) => t.into_any(),
            None => py.None().into_bound(py),
        };
        let error = class.make(
            py,
            &[
                PyString::new(py, &e.pointer).as_any(),
                keyword.as_any(),
                PyString::new(py, &e.message).as_any(),
                &expected,
                PyString::new(py, &e.path).as_any(),
                PyString::new(py, &e.schema_location).as_any(),
            ],
        )?;
        list.append(error)?;
    }
    Ok(list)
}

/// For a `type` violation, the expected type as its message words it: the `X` of
/// `expected X, got Y` (`integer`, `string or null`).
fn expected_type(e: &toolgate_core::ValidationError) -> Option<&str> {
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
/// idempotent, timeout_ms, output_schema, exclusive.
pub(crate) type RecordFields<'a, 'py> = (
    &'a Bound<'py, PyAny>,
    &'a Bound<'py, PyAny>,
    &'a Bound<'py, PyAny>,
    &'a Bound<'py, PyAny>,
    bool,
    &'a Bound<'py, PyAny>,
    &'a Bound<'py, PyAny>,
    bool,
);

/// `ToolRecord(name, description, schema, handler, idempotent, timeout_ms,
/// output_schema, exclusive)`.
pub(crate) fn tool_record<'py>(
    py: Python<'py>,
    fields: RecordFields<'_, 'py>,
) -> PyResult<Bound<'py, PyAny>> {
    types(py)?.tool_record.bind(py).call1(fields)
}
