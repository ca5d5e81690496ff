//! The native half of `ToolRegistry` (`toolgate/_registry.py` adds `acall`).
//!
//! A call goes to the core once: [`toolgate_core::Registry::prepare`] looks the tool up,
//! checks the arguments and words every refusal. For a call that passed, the module
//! finds its own handler in the prepared call (`PreparedCall::handler_as`), builds the kwargs
//! dict straight from the argument bytes and calls the Python function itself: the core
//! never calls back into Python. The handler's failures are worded by the core too
//! ([`PreparedCall::failure`]), and its answer, once written as JSON text, is checked
//! against the tool's output schema by the core ([`PreparedCall::check_result`]).
//!
//! Handlers and the garbage collector: each registration is an [`Entry`] (the Python
//! callable) shared by the core's [`PyHandler`] and this registry's [`Live`] table.
//! The table is what `__traverse__` shows the collector, so a handler that refers to
//! its registry forms a cycle the collector can free. When the core drops a handler
//! (the tool was replaced or unregistered, and no call still runs on it) its entry
//! moves to the table's dead list, without touching Python (the core may drop it on
//! any thread, or under its own lock); the registry releases the dead entries from
//! Python afterwards ([`LiveTable::bury`]).

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use arc_swap::ArcSwapOption;
use pyo3::exceptions::{PyException, PyTypeError};
use pyo3::gc::PyVisit;
use pyo3::prelude::*;
use pyo3::sync::{MutexExt, PyOnceLock};
use pyo3::types::{
    PyBool, PyByteArray, PyBytes, PyDict, PyFloat, PyInt, PyList, PyMemoryView, PyString, PyTuple,
};
use pyo3::PyTraverseError;
use toolgate_core::registry::{
    message, Call, CallRefusal, CallRefusalKind, Canceller as CoreCanceller, DispatchOptions,
    DispatchPolicy,
};
use toolgate_core::CallContext;
use toolgate_core::{
    CallOutcome, Handler, HandlerFailure, NamePolicy, PreparedCall, RegisterErrorKind,
    RegistryOptions, ToolSpec,
};
use toolgate_dialect::{RegistryExt, RegistryOptionsExt};

use crate::convert::{self, write_json, KnownStrings};
use crate::dispatch;
use crate::errors::{self, status, Settled};
use crate::schema::{
    is_text, schema_error, schema_options, DraftName, FullSettings, MaxDepth, ProfileName,
};
use crate::text::{json_input, required_str, surrogate_bytes, type_name, utf8_of};
use crate::GIL_HELD_MAX_BYTES;

/// How a handler receives a call's arguments (`register(..., arguments=...)`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    /// `handler(**arguments)`: the default.
    Kwargs,
    /// `handler(arguments)`: one dict, for properties no parameter can be named after
    /// (`class`, `from`, `a b`).
    Dict,
    /// `handler(text)`: the exact JSON text the model sent (`{}` for empty arguments),
    /// for handlers that read it themselves.
    Json,
}

/// One registration's Python callable.
struct Entry {
    /// The tool's name, for the texts of the rare path where the core runs the handler.
    name: String,
    handler: Py<PyAny>,
    mode: Mode,
    /// The names and enum members of the tool's schema, reused in the arguments.
    known: KnownStrings,
}

#[derive(Default)]
struct Live {
    /// Registrations the core holds, by id.
    entries: HashMap<u64, Arc<Entry>>,
    /// Entries the core has let go of, to be released from Python.
    dead: Vec<Arc<Entry>>,
}

/// The registrations of one registry, as the garbage collector and `_tools` see them.
#[derive(Default)]
struct LiveTable {
    live: Mutex<Live>,
    has_dead: AtomicBool,
}

impl LiveTable {
    fn lock(&self) -> std::sync::MutexGuard<'_, Live> {
        self.live.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Releases the entries the core has let go of. Their handlers may run Python code
    /// when freed (`__del__`), so this runs with no lock held.
    fn bury(&self, _py: Python<'_>) {
        if self.has_dead.swap(false, Ordering::AcqRel) {
            let dead = std::mem::take(&mut self.lock().dead);
            drop(dead);
        }
    }
}

/// A Python handler as the core holds it.
struct PyHandler {
    id: u64,
    entry: Arc<Entry>,
    table: Arc<LiveTable>,
}

impl Drop for PyHandler {
    fn drop(&mut self) {
        // The core drops handlers wherever the last call on them ends, possibly on a
        // thread that is not attached to Python: no Python object is released here.
        let mut live = self.table.lock();
        if let Some(entry) = live.entries.remove(&self.id) {
            live.dead.push(entry);
            self.table.has_dead.store(true, Ordering::Release);
        }
    }
}

impl Handler for PyHandler {
    /// The path of the core's own runs: `ToolRegistry.dispatch` (on the core's worker
    /// threads, `cx` carrying the running call) and `_call_in_core`. A synchronous
    /// `call` never takes it (it prepares calls and runs them from Python), but its
    /// answer is the same.
    ///
    /// The GIL is taken for the call. While the handler runs, `toolgate.running_call()`
    /// returns the call; an async handler's coroutine runs on the dispatch's event
    /// loop (`adispatch`) or on a private one, its task cancelled with the call. A
    /// handler that raises `RetryableError` marks the attempt retryable; one that
    /// raises a `BaseException` that is no `Exception` (`KeyboardInterrupt`,
    /// `SystemExit`, `asyncio.CancelledError`) fails as a panic does: no thread can
    /// take it here.
    fn call(&self, args: &[u8], cx: &CallContext) -> Result<String, String> {
        let running = cx.running_call();
        let event_loop = cx
            .data::<dispatch::DispatchData>()
            .and_then(|data| data.event_loop.as_ref());
        let _current = dispatch::Current::enter(running.clone());
        let answer = Python::attach(|py| {
            if running.is_some() {
                dispatch::keep_thread_state(py);
            }
            let outcome = invoke(py, &self.entry, args).and_then(|value| {
                let value = match &running {
                    Some(running) if is_awaitable(py, &value)? => {
                        dispatch::await_dispatched(py, value, running, event_loop)?
                    }
                    _ => settle(py, value)?,
                };
                match content_of(py, &value)? {
                    Content::Text(text) => Ok(Ok(text.to_string_lossy().into_owned())),
                    Content::NotJson(type_name) => {
                        let text = message::result_not_json(&self.entry.name, &type_name);
                        let text = text.strip_prefix(message::ERROR_PREFIX).unwrap_or(&text);
                        Ok(Err(text.to_owned()))
                    }
                }
            });
            match outcome {
                Ok(answer) => Some(answer),
                Err(e) if !e.is_instance_of::<PyException>(py) => None,
                Err(e) => {
                    if let Some(running) = &running {
                        if dispatch::is_retryable(py, &e) {
                            running.retry_later();
                        }
                    }
                    let mut text = exception_text(py, &e);
                    if text.is_empty() {
                        // As `PreparedCall::failure` words an error without a message.
                        message::write_tool_failed(&mut text, &self.entry.name);
                    }
                    Some(Err(text))
                }
            }
        });
        match answer {
            Some(answer) => answer,
            // The core words it `tool NAME panicked`; `resume_unwind` runs no panic
            // hook, so nothing is printed.
            None => std::panic::resume_unwind(Box::new("the handler raised a BaseException")),
        }
    }
}

/// The Python handler of a prepared call (every tool of this registry has one).
fn entry_of<'c>(call: &'c PreparedCall<'_>) -> Option<&'c Arc<Entry>> {
    let handler = call.handler_as::<PyHandler>()?;
    Some(&handler.entry)
}

/// Calls the handler with the arguments in its mode. Raises what the handler raises.
fn invoke<'py>(py: Python<'py>, entry: &Entry, args: &[u8]) -> PyResult<Bound<'py, PyAny>> {
    let handler = entry.handler.bind(py);
    match entry.mode {
        Mode::Kwargs => {
            let kwargs = convert::arguments_to_python(py, args, &entry.known)?
                .cast_into::<PyDict>()
                .map_err(|_| PyTypeError::new_err("the arguments are not a JSON object"))?;
            handler.call((), Some(&kwargs))
        }
        Mode::Dict => handler.call1((convert::arguments_to_python(py, args, &entry.known)?,)),
        Mode::Json => {
            let text = std::str::from_utf8(args)
                .map_err(|_| PyTypeError::new_err("the arguments are not UTF-8"))?;
            handler.call1((PyString::new(py, text),))
        }
    }
}

static ISAWAITABLE: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
static AWAIT_BLOCKING: PyOnceLock<Py<PyAny>> = PyOnceLock::new();

/// True when a handler's answer must be awaited. The types handlers answer with are
/// ruled out without asking `inspect.isawaitable`.
fn is_awaitable(py: Python<'_>, value: &Bound<'_, PyAny>) -> PyResult<bool> {
    if value.is_none()
        || value.is_exact_instance_of::<PyString>()
        || value.is_exact_instance_of::<PyDict>()
        || value.is_exact_instance_of::<PyList>()
        || value.is_exact_instance_of::<PyInt>()
        || value.is_exact_instance_of::<PyFloat>()
        || value.is_exact_instance_of::<PyBool>()
        || value.is_exact_instance_of::<PyTuple>()
        || value.is_exact_instance_of::<PyBytes>()
    {
        return Ok(false);
    }
    let check = ISAWAITABLE.get_or_try_init(py, || {
        Ok::<_, PyErr>(py.import("inspect")?.getattr("isawaitable")?.unbind())
    })?;
    check.bind(py).call1((value,))?.is_truthy()
}

/// A synchronous call's answer: an awaitable (an async handler) is run to completion
/// on a fresh event loop (`toolgate._registry._await_blocking`).
fn settle<'py>(py: Python<'py>, value: Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    if !is_awaitable(py, &value)? {
        return Ok(value);
    }
    let run = AWAIT_BLOCKING.get_or_try_init(py, || {
        Ok::<_, PyErr>(
            py.import("toolgate._registry")?
                .getattr("_await_blocking")?
                .unbind(),
        )
    })?;
    run.bind(py).call1((value,))
}

/// A handler's exception as the text of its failure: `str(exc)`, or nothing when it
/// has no message or its `__str__` fails (the core then says `tool NAME failed`).
fn exception_text(py: Python<'_>, e: &PyErr) -> String {
    match e.value(py).str() {
        Ok(s) => s.to_string_lossy().into_owned(),
        Err(_) => String::new(),
    }
}

/// What a handler's answer is as a call's content.
enum Content<'py> {
    Text(Bound<'py, PyString>),
    /// The answer has no JSON form; the type the core's message names.
    NotJson(String),
}

/// A handler's answer as content: a `str` as it is, bytes as UTF-8 text (invalid
/// sequences replaced), anything else written as JSON (compact, non-ASCII kept).
fn content_of<'py>(py: Python<'py>, value: &Bound<'py, PyAny>) -> PyResult<Content<'py>> {
    if let Ok(s) = value.cast::<PyString>() {
        if s.is_exact_instance_of::<PyString>() && utf8_of(s).is_some() {
            return Ok(Content::Text(s.clone()));
        }
        return Ok(Content::Text(PyString::new(py, &s.to_string_lossy())));
    }
    let raw = if let Ok(b) = value.cast::<PyBytes>() {
        Some(b.as_bytes().to_vec())
    } else if let Ok(b) = value.cast::<PyByteArray>() {
        Some(b.to_vec())
    } else if value.is_instance_of::<PyMemoryView>() {
        let copy = py.get_type::<PyBytes>().call1((value,))?;
        Some(copy.cast::<PyBytes>()?.as_bytes().to_vec())
    } else {
        None
    };
    if let Some(bytes) = raw {
        return Ok(Content::Text(PyString::new(
            py,
            &String::from_utf8_lossy(&bytes),
        )));
    }
    let mut out = Vec::with_capacity(64);
    match write_json(&mut out, value) {
        Ok(()) => Ok(Content::Text(PyString::new(
            py,
            &String::from_utf8_lossy(&out),
        ))),
        Err(e) => e.into_result_error().map(Content::NotJson),
    }
}

/// What became of a prepared call whose handler returned `value`: its answer as
/// content, checked against the tool's output schema when it has one (a conforming
/// answer is passed on unchanged and marked structured; any other is refused, kept in
/// `invalid_result`).
fn finish<'py>(
    py: Python<'py>,
    call: &PreparedCall<'_>,
    value: &Bound<'py, PyAny>,
) -> PyResult<Settled<'py>> {
    let text = match content_of(py, value) {
        Ok(Content::Text(text)) => text,
        Ok(Content::NotJson(type_name)) => {
            return Ok(Settled::plain(
                text(py, &call.failure(HandlerFailure::NotJson(&type_name))),
                CallOutcome::HandlerFailed,
            ))
        }
        Err(e) => return failed(py, call, e),
    };
    if call.output_schema().is_none() {
        return Ok(Settled::plain(text.into_any(), CallOutcome::Answered));
    }
    let owned;
    let answer = match utf8_of(&text) {
        Some(bytes) => bytes,
        None => {
            // `content_of` gives text with a UTF-8 form; were it not so, the bytes the
            // core reads keep the surrogates, which it refuses as malformed.
            owned = surrogate_bytes(&text)?;
            &owned
        }
    };
    let checked = if answer.len() > GIL_HELD_MAX_BYTES {
        py.detach(|| call.check_result(answer))
    } else {
        call.check_result(answer)
    };
    Ok(match checked {
        Ok(structured) => Settled {
            structured,
            ..Settled::plain(text.into_any(), CallOutcome::Answered)
        },
        Err(refusal) => Settled {
            content: PyString::new(py, &refusal.content).into_any(),
            outcome: CallOutcome::InvalidResult,
            structured: false,
            violations: refusal.violations,
            invalid_result: Some(text.into_any()),
            attempts: 1,
        },
    })
}

/// What became of a prepared call whose handler raised `e`: a failure, never checked
/// against an output schema. Only an `Exception` is the tool's failure:
/// `KeyboardInterrupt`, `SystemExit` and `CancelledError` are the caller's, and
/// propagate.
fn failed<'py>(py: Python<'py>, call: &PreparedCall<'_>, e: PyErr) -> PyResult<Settled<'py>> {
    if !e.is_instance_of::<PyException>(py) {
        return Err(e);
    }
    let message = exception_text(py, &e);
    Ok(Settled::plain(
        text(py, &call.failure(HandlerFailure::Error(&message))),
        CallOutcome::HandlerFailed,
    ))
}

fn text<'py>(py: Python<'py>, s: &str) -> Bound<'py, PyAny> {
    PyString::new(py, s).into_any()
}

/// What became of a call the core refused before its handler ran.
fn refused(py: Python<'_>, refusal: CallRefusal) -> Settled<'_> {
    let content = text(py, &refusal.content);
    match refusal.kind {
        CallRefusalKind::UnknownTool => Settled::plain(content, CallOutcome::UnknownTool),
        CallRefusalKind::InvalidArguments(violations) => Settled {
            violations,
            ..Settled::plain(content, CallOutcome::InvalidArguments)
        },
        CallRefusalKind::Internal => Settled::plain(content, CallOutcome::Internal),
    }
}

/// Runs a prepared call's handler from a synchronous `call`.
fn run<'py>(py: Python<'py>, call: &PreparedCall<'_>) -> PyResult<Settled<'py>> {
    let Some(entry) = entry_of(call) else {
        // Every tool of this registry is registered from Python; anything else is a bug.
        return Ok(Settled::plain(
            text(py, &call.failure(HandlerFailure::Panicked)),
            CallOutcome::HandlerFailed,
        ));
    };
    let value = match invoke(py, entry, call.arguments()).and_then(|v| settle(py, v)) {
        Ok(value) => value,
        Err(e) => return failed(py, call, e),
    };
    finish(py, call, &value)
}

/// The largest arguments a registry reads: an int >= 0, or `None` for no limit.
pub(crate) struct ArgumentLimit(Option<usize>);

impl<'a, 'py> FromPyObject<'a, 'py> for ArgumentLimit {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> Result<Self, Self::Error> {
        if obj.is_none() {
            return Ok(ArgumentLimit(None));
        }
        match obj.extract::<usize>() {
            Ok(n) if !obj.is_instance_of::<PyBool>() => Ok(ArgumentLimit(Some(n))),
            _ => Err(errors::invalid_argument(
                obj.py(),
                &format!(
                    "max_argument_bytes must be None or an int >= 0, got {}",
                    obj.repr()?
                ),
            )),
        }
    }
}

/// The name policies by the names Python gives them.
const POLICIES: [(&str, NamePolicy); 3] = [
    ("default", NamePolicy::Default),
    ("dotted", NamePolicy::Dotted),
    ("mcp", NamePolicy::Mcp),
];

/// The native registry: `toolgate.ToolRegistry` is this class plus `acall`.
#[pyclass(module = "toolgate", name = "Registry", subclass, frozen, weakref)]
pub(crate) struct Registry {
    /// `None` once closed. Dropped before `table`, so the handlers it drops are
    /// released with the table.
    core: ArcSwapOption<toolgate_core::Registry>,
    table: Arc<LiveTable>,
    /// Name -> ToolRecord, in registration order (an override keeps its place).
    records: Py<PyDict>,
    /// Makes a change of the core and of `records` one step, so both agree on the
    /// order of concurrent registrations. No Python code runs while it is held.
    writer: Mutex<()>,
    policy: &'static str,
    next_id: AtomicU64,
    /// The callable told about every dispatched call (`observer=`); `close` lets go of it.
    observer: Mutex<Option<Py<PyAny>>>,
    /// The dispatches running now, which `close` cancels.
    active: dispatch::Active,
    next_dispatch: AtomicU64,
    remember_call_ids: usize,
    default_timeout: Option<f64>,
}

impl Registry {
    fn core(&self) -> PyResult<Arc<toolgate_core::Registry>> {
        self.core
            .load_full()
            .ok_or_else(|| errors::closed("registry"))
    }

    /// The core's `prepare`, with the GIL released for large arguments.
    fn prepare<'a>(
        &self,
        py: Python<'_>,
        name: &str,
        args: &'a [u8],
    ) -> PyResult<Result<PreparedCall<'a>, toolgate_core::registry::CallRefusal>> {
        let guard = self.core.load();
        let core = guard.as_ref().ok_or_else(|| errors::closed("registry"))?;
        Ok(if args.len() > GIL_HELD_MAX_BYTES {
            py.detach(|| core.prepare(name, args))
        } else {
            core.prepare(name, args)
        })
    }

    /// Frees the core registry (the handlers no running call holds go with it), cancels
    /// the dispatches running on it and drops the records and the observer.
    fn shut(&self, py: Python<'_>) {
        let core = self.core.swap(None);
        // After the swap: a dispatch that starts meanwhile either is in `active` now or
        // finds the registry closed and cancels itself. The GIL is let go while the
        // core is dropped: its workers may be finishing a handler.
        let active = &self.active;
        py.detach(move || {
            active.cancel_all();
            drop(core);
        });
        let observer = self
            .observer
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take();
        drop(observer);
        let records = self.records.bind(py);
        // Released outside the dict: freeing a record may run a handler's `__del__`.
        let values: Vec<Bound<'_, PyAny>> = records.values().iter().collect();
        records.clear();
        drop(values);
        self.table.bury(py);
    }
}

/// One call of a batch: a `(call_id, name, arguments)` tuple or list, or a `ToolCall`
/// (anything with `id`, `name` and `arguments`).
fn call_parts<'py>(item: &Bound<'py, PyAny>) -> PyResult<[Bound<'py, PyAny>; 3]> {
    if item.is_instance_of::<PyTuple>() || item.is_instance_of::<PyList>() {
        if item.len()? == 3 {
            return Ok([item.get_item(0)?, item.get_item(1)?, item.get_item(2)?]);
        }
    } else if let (Ok(id), Ok(name), Ok(arguments)) = (
        item.getattr("id"),
        item.getattr("name"),
        item.getattr("arguments"),
    ) {
        return Ok([id, name, arguments]);
    }
    Err(PyTypeError::new_err(format!(
        "each call must be a (call_id, name, arguments) tuple or a ToolCall, not {}",
        type_name(item)
    )))
}

/// The refusal of a registration as the exception of its kind, with the core's text.
fn register_error(py: Python<'_>, e: &toolgate_core::RegisterError) -> PyErr {
    match &e.kind {
        RegisterErrorKind::InvalidName => errors::toolgate_error(
            py,
            "InvalidNameError",
            &e.message,
            e.status().code(),
            "",
            "",
        ),
        RegisterErrorKind::Duplicate => errors::toolgate_error(
            py,
            "DuplicateToolError",
            &e.message,
            e.status().code(),
            "",
            "",
        ),
        RegisterErrorKind::InvalidSchema(compile)
        | RegisterErrorKind::InvalidOutputSchema(compile) => schema_error(py, compile, &e.message),
        // A target dialect refused the parameters: a schema refusal at its first problem.
        RegisterErrorKind::Refused(problems) => {
            let (pointer, rule) = problems
                .first()
                .map_or(("", ""), |p| (p.pointer.as_str(), p.rule));
            errors::toolgate_error(
                py,
                "SchemaError",
                &e.message,
                e.status().code(),
                pointer,
                rule,
            )
        }
        RegisterErrorKind::NotObject => errors::toolgate_error(
            py,
            "NotObjectSchemaError",
            &e.message,
            e.status().code(),
            "",
            "",
        ),
    }
}

static UNACCEPTED: PyOnceLock<Py<PyAny>> = PyOnceLock::new();

/// The first property the schema declares that `handler` has no parameter for
/// (`toolgate._registry._unaccepted_property`), if any.
fn unaccepted_property(
    py: Python<'_>,
    handler: &Bound<'_, PyAny>,
    schema: &Bound<'_, PyAny>,
) -> PyResult<Option<String>> {
    let check = UNACCEPTED.get_or_try_init(py, || {
        Ok::<_, PyErr>(
            py.import("toolgate._registry")?
                .getattr("_unaccepted_property")?
                .unbind(),
        )
    })?;
    let found = check.bind(py).call1((handler, schema))?;
    if found.is_none() {
        return Ok(None);
    }
    Ok(Some(found.str()?.to_string_lossy().into_owned()))
}

#[pymethods]
impl Registry {
    /// A registry whose tool names follow `names` ("dotted", "default" or "mcp"), that
    /// reads arguments up to `max_argument_bytes` (default 4 MiB, None for no limit)
    /// nested up to `max_depth` levels (0: the default, 128).
    ///
    /// `targets` ("openai-strict", "anthropic-strict", "gemini") are the lints every
    /// tool must pass: a tool one of them would refuse is refused (`SchemaError`, every
    /// problem in the message), and the definitions of OpenAI (Anthropic) say
    /// `"strict": true` when its strict target is among them.
    ///
    /// `masked_values=True`: no value of a call's arguments or of a tool's answer
    /// appears in any refusal or violation (the schema's own values, paths and
    /// property names still do).
    ///
    /// For `dispatch`: `remember_call_ids=N` keeps the results of the last N call ids
    /// (a call id sent again gets its recorded result, or a refusal when its tool or
    /// arguments differ), `default_timeout` (seconds, rounded up to whole
    /// milliseconds) is the deadline of a call whose tool has no `timeout_ms`, and
    /// `observer` is called with a `CallEvent` for every dispatched call.
    #[new]
    #[pyo3(
        signature = (names = None, *, max_argument_bytes = ArgumentLimit(Some(RegistryOptions::DEFAULT_MAX_ARGUMENT_BYTES)), max_depth = MaxDepth(0), profile = ProfileName(toolgate_core::Profile::Core), draft = None, resources = None, annotation_formats = None, targets = None, masked_values = false, remember_call_ids = 0, default_timeout = None, observer = None),
        text_signature = "(names='dotted', *, max_argument_bytes=4194304, max_depth=0, profile='core', draft=None, resources=None, annotation_formats=None, targets=None, masked_values=False, remember_call_ids=0, default_timeout=None, observer=None)"
    )]
    #[allow(clippy::too_many_arguments)]
    fn new<'py>(
        py: Python<'py>,
        names: Option<&Bound<'py, PyAny>>,
        max_argument_bytes: ArgumentLimit,
        max_depth: MaxDepth,
        profile: ProfileName,
        draft: Option<DraftName>,
        resources: Option<Bound<'py, PyAny>>,
        annotation_formats: Option<Vec<String>>,
        targets: Option<Vec<String>>,
        masked_values: bool,
        remember_call_ids: usize,
        default_timeout: Option<f64>,
        observer: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Registry> {
        let (policy, names) = match names {
            None => ("dotted", NamePolicy::Dotted),
            Some(given) => {
                let found = given
                    .cast::<PyString>()
                    .ok()
                    .and_then(utf8_of)
                    .and_then(|bytes| POLICIES.iter().find(|(n, _)| n.as_bytes() == bytes));
                match found {
                    Some(&(name, policy)) => (name, policy),
                    None => {
                        return Err(errors::invalid_argument(
                            py,
                            &format!(
                            "unknown name policy {}; expected one of 'default', 'dotted', 'mcp'",
                            given.repr()?
                        ),
                        ))
                    }
                }
            }
        };
        let full = FullSettings {
            draft,
            resources,
            annotation_formats,
        };
        let schema = schema_options(py, max_depth, profile, full, masked_values)?;
        let default_timeout_ms = match default_timeout {
            None => 0,
            Some(t) if t.is_finite() && t > 0.0 => ((t * 1000.0).ceil() as u64).max(1),
            Some(t) => {
                return Err(errors::invalid_argument(
                    py,
                    &format!("default_timeout must be None or a number of seconds > 0, got {t}"),
                ))
            }
        };
        let observer = observer.filter(|o| !o.is_none());
        if let Some(o) = &observer {
            if !o.is_callable() {
                return Err(PyTypeError::new_err(format!(
                    "observer must be callable, not {}",
                    type_name(o)
                )));
            }
        }
        let mut options = RegistryOptions::default()
            .with_remember_call_ids(remember_call_ids)
            .with_default_timeout_ms(default_timeout_ms)
            // Dropping the registry never waits for a handler that ignored its
            // cancellation (it may hold the GIL meanwhile): the worker ends by itself.
            .with_drop_grace(std::time::Duration::ZERO);
        if observer.is_some() {
            options = options.with_observer(Arc::new(dispatch::Buffer));
        }
        let options = options
            .with_names(names)
            .with_max_argument_bytes(max_argument_bytes.0.unwrap_or(usize::MAX))
            .with_schema_options(schema)
            .with_targets(
                targets
                    .iter()
                    .flatten()
                    .map(|t| crate::dialect::target(py, t))
                    .collect::<PyResult<Vec<_>>>()?,
            );
        Ok(Registry {
            core: ArcSwapOption::new(Some(Arc::new(toolgate_core::Registry::with_options(
                options,
            )))),
            table: Arc::default(),
            records: PyDict::new(py).unbind(),
            writer: Mutex::new(()),
            policy,
            next_id: AtomicU64::new(1),
            observer: Mutex::new(observer.map(Bound::unbind)),
            active: dispatch::Active::default(),
            next_dispatch: AtomicU64::new(1),
            remember_call_ids,
            default_timeout: default_timeout.filter(|_| default_timeout_ms > 0),
        })
    }

    /// The name policy: "dotted", "default" or "mcp".
    #[getter]
    fn policy(&self) -> &'static str {
        self.policy
    }

    /// The largest arguments a call or a validation reads, in bytes; None for no limit.
    #[getter]
    fn max_argument_bytes(&self) -> PyResult<Option<usize>> {
        Ok(self.core()?.options().max_argument_bytes())
    }

    /// The nesting limit of the tools' schemas and of the arguments.
    #[getter]
    fn max_depth(&self) -> PyResult<usize> {
        Ok(self.core()?.options().schema_options().max_depth())
    }

    /// True when no value of a call's arguments or of a tool's answer appears in a
    /// refusal or a violation.
    #[getter]
    fn masked_values(&self) -> PyResult<bool> {
        Ok(self.core()?.options().schema_options().masked_values())
    }

    /// How many call ids the registry remembers for `dispatch` (0: none).
    #[getter]
    fn remember_call_ids(&self) -> usize {
        self.remember_call_ids
    }

    /// The deadline, in seconds, of a dispatched call whose tool has no `timeout_ms`;
    /// None for none.
    #[getter]
    fn default_timeout(&self) -> Option<f64> {
        self.default_timeout
    }

    /// The callable told about every dispatched call, or None.
    #[getter]
    fn observer(&self, py: Python<'_>) -> Option<Py<PyAny>> {
        self.observer
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .as_ref()
            .map(|o| o.clone_ref(py))
    }

    /// The native half of `dispatch` and `adispatch`: runs the calls (each a
    /// `(call_id, name, arguments)` tuple or list, or a `ToolCall`) on the core's
    /// workers with the GIL released, and returns `(results, observer, events)`:
    /// the `CallResult`s in the batch's order, the observer to tell (or None) and, with
    /// one, the core's event of each call as
    /// `(error_type, attempts, duration, argument_bytes, replayed)`. `event_loop` is
    /// where async handlers run (None: a private loop per call); `canceller` a
    /// `Canceller` that cancels this dispatch too.
    #[allow(clippy::too_many_arguments)]
    #[pyo3(signature = (calls, policy, max_concurrency, max_batch, timeout, max_attempts, backoff, event_loop = None, canceller = None))]
    fn _dispatch<'py>(
        &self,
        py: Python<'py>,
        calls: &Bound<'py, PyAny>,
        policy: &Bound<'py, PyAny>,
        max_concurrency: Option<usize>,
        max_batch: Option<usize>,
        timeout: Option<f64>,
        max_attempts: Option<u32>,
        backoff: Option<f64>,
        event_loop: Option<Bound<'py, PyAny>>,
        canceller: Option<Bound<'py, dispatch::PyCanceller>>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let policy = match policy.cast::<PyString>().ok().and_then(utf8_of) {
            Some(b"isolate") => DispatchPolicy::Isolate,
            Some(b"all-or-nothing") => DispatchPolicy::AllOrNothing,
            _ => {
                return Err(errors::invalid_argument(
                    py,
                    &format!(
                        "unknown dispatch policy {}; expected 'isolate' or 'all-or-nothing'",
                        policy.repr()?
                    ),
                ))
            }
        };
        let seconds = |value: f64, what: &str| {
            if value.is_finite() && value >= 0.0 {
                Ok(Duration::from_secs_f64(value))
            } else {
                Err(errors::invalid_argument(
                    py,
                    &format!("{what} must be a number of seconds >= 0, got {value}"),
                ))
            }
        };
        if max_concurrency == Some(0) || max_attempts == Some(0) {
            return Err(errors::invalid_argument(
                py,
                "max_concurrency and max_attempts must be at least 1",
            ));
        }
        // None: the library's default.
        let mut options = DispatchOptions::default().with_policy(policy);
        if let Some(limit) = max_concurrency {
            options = options.with_max_concurrency(limit);
        }
        if let Some(limit) = max_batch {
            options = options.with_max_batch(limit);
        }
        if let Some(attempts) = max_attempts {
            options = options.with_max_attempts(attempts);
        }
        if let Some(backoff) = backoff {
            options = options.with_backoff(seconds(backoff, "backoff")?);
        }
        let mut options = options.with_data(Arc::new(dispatch::DispatchData {
            event_loop: event_loop.filter(|l| !l.is_none()).map(Bound::unbind),
        }));
        if let Some(timeout) = timeout {
            options = options.with_timeout(seconds(timeout, "timeout")?);
        }

        // The calls, read before anything runs: their ids, names and argument bytes
        // borrow from the objects `items` keeps.
        let items: Vec<Bound<'py, PyAny>> = calls.try_iter()?.collect::<PyResult<_>>()?;
        let mut parts: Vec<[Bound<'py, PyAny>; 3]> = Vec::with_capacity(items.len());
        for item in &items {
            parts.push(call_parts(item)?);
        }
        let mut read = Vec::with_capacity(parts.len());
        for [id, name, arguments] in &parts {
            let id_text = required_str(id, "call_id")?;
            let name_text = required_str(name, "name")?;
            read.push((id_text, name_text, json_input(arguments)?));
        }
        let batch: Vec<Call<'_>> = read
            .iter()
            .map(|(id, name, arguments)| Call::new(id, name, arguments.bytes()))
            .collect();

        let core = self.core()?;
        let observer = self
            .observer
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .as_ref()
            .map(|o| o.clone_ref(py));
        let stop = CoreCanceller::new();
        options = options.with_canceller(&stop);
        let id = self.next_dispatch.fetch_add(1, Ordering::Relaxed);
        self.active.enter(id, &stop);
        if self.core.load().is_none() {
            // Closed since `core()` above: `close` may not have seen this dispatch.
            stop.cancel();
        }
        if let Some(canceller) = &canceller {
            canceller.get().link(id, &stop);
        }
        let mark = dispatch::observed_len();
        let results = py.detach(|| {
            let results = core.dispatch(&batch, &options);
            // The last reference, once the registry is closed: its workers stop.
            drop(core);
            results
        });
        self.active.leave(id);
        if let Some(canceller) = &canceller {
            canceller.get().unlink(id);
        }
        let observed = observer.is_some().then(|| dispatch::take_observed(mark));
        drop(options);
        self.table.bury(py);

        let list = PyList::empty(py);
        for (result, [id, name, _]) in results.into_iter().zip(&parts) {
            let settled = Settled {
                content: text(py, &result.content),
                outcome: result.outcome,
                structured: result.structured,
                violations: result.violations,
                invalid_result: result.invalid_result.map(|answer| text(py, &answer)),
                attempts: result.attempts,
            };
            list.append(errors::call_result(py, id, name, settled)?)?;
        }
        let events = match observed {
            None => py.None().into_bound(py),
            Some(observed) => {
                let events = PyList::empty(py);
                for o in observed {
                    events.append((
                        o.error_type,
                        o.attempts,
                        o.duration.as_secs_f64(),
                        o.argument_bytes,
                        o.replayed,
                    ))?;
                }
                events.into_any()
            }
        };
        let observer = match observer {
            Some(o) => o.into_bound(py),
            None => py.None().into_bound(py),
        };
        PyTuple::new(py, [list.into_any(), observer, events])
    }

    /// Registers `handler` as the tool `name` with the parameters `schema` (None: any
    /// object) and returns its `ToolRecord`. `output_schema` (None: free text) is the
    /// schema every answer of the handler is checked against; see `ToolRegistry`.
    #[allow(clippy::too_many_arguments)]
    #[pyo3(
        signature = (name, schema, handler, *, description = None, idempotent = None, timeout_ms = None, r#override = None, arguments = None, output_schema = None, exclusive = None),
        text_signature = "(self, name, schema, handler, *, description='', idempotent=False, timeout_ms=None, override=False, arguments='kwargs', output_schema=None, exclusive=False)"
    )]
    fn register<'py>(
        &self,
        py: Python<'py>,
        name: &Bound<'py, PyAny>,
        schema: &Bound<'py, PyAny>,
        handler: &Bound<'py, PyAny>,
        description: Option<&Bound<'py, PyAny>>,
        idempotent: Option<&Bound<'py, PyAny>>,
        timeout_ms: Option<&Bound<'py, PyAny>>,
        r#override: Option<&Bound<'py, PyAny>>,
        arguments: Option<&Bound<'py, PyAny>>,
        output_schema: Option<&Bound<'py, PyAny>>,
        exclusive: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let core = self.core()?;
        let allow_override = match r#override {
            Some(flag) => flag.is_truthy()?,
            None => false,
        };
        let Pending {
            record,
            key,
            spec,
            tool,
        } = self.pending(
            py,
            name,
            schema,
            handler,
            Extras {
                description,
                idempotent,
                timeout_ms,
                arguments,
                output_schema,
                exclusive,
            },
        )?;
        let records = self.records.bind(py);
        let outcome = {
            let _writer = self
                .writer
                .lock_py_attached(py)
                .unwrap_or_else(PoisonError::into_inner);
            match core.register(spec, tool, allow_override) {
                Ok(()) => {
                    // Held until the lock is released: freeing it may run Python code.
                    let replaced = records.get_item(&key)?;
                    records.set_item(&key, &record)?;
                    Ok(replaced)
                }
                Err(e) => Err(e),
            }
        };
        // A refused registration's handler, and a replaced one, are released here.
        self.table.bury(py);
        match outcome {
            Ok(replaced) => {
                drop(replaced);
                Ok(record)
            }
            Err(e) => Err(register_error(py, &e)),
        }
    }

    /// Registers every tool of `tools` (an iterable of dicts holding `register`'s
    /// arguments: `name`, `schema`, `handler`, and optionally `description`,
    /// `idempotent`, `timeout_ms`, `arguments`, `output_schema`, `exclusive`), or none
    /// of them, for one copy of the registry's tool set. A name listed twice is refused; the error is the one
    /// `register` raises for the first tool refused. Returns the tools' records.
    #[pyo3(
        signature = (tools, *, r#override = None),
        text_signature = "(self, tools, *, override=False)"
    )]
    fn register_all<'py>(
        &self,
        py: Python<'py>,
        tools: &Bound<'py, PyAny>,
        r#override: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Vec<Bound<'py, PyAny>>> {
        let core = self.core()?;
        let allow_override = match r#override {
            Some(flag) => flag.is_truthy()?,
            None => false,
        };
        let mut pending = Vec::new();
        let read = self.read_batch(py, tools, &mut pending);
        if let Err(e) = read {
            // The handlers entered so far are released.
            drop(pending);
            self.table.bury(py);
            return Err(e);
        }
        let mut records = Vec::with_capacity(pending.len());
        let mut batch: Vec<(ToolSpec, Box<dyn toolgate_core::Handler>)> =
            Vec::with_capacity(pending.len());
        for p in pending {
            records.push((p.key, p.record));
            batch.push((p.spec, p.tool));
        }
        let table = self.records.bind(py);
        let outcome = {
            let _writer = self
                .writer
                .lock_py_attached(py)
                .unwrap_or_else(PoisonError::into_inner);
            match core.register_batch(batch, allow_override) {
                Ok(()) => {
                    // Held until the lock is released: freeing them may run Python code.
                    let mut replaced = Vec::with_capacity(records.len());
                    for (key, record) in &records {
                        replaced.push(table.get_item(key)?);
                        table.set_item(key, record)?;
                    }
                    Ok(replaced)
                }
                Err(e) => Err(e),
            }
        };
        // A refused batch's handlers, and replaced ones, are released here.
        self.table.bury(py);
        match outcome {
            Ok(replaced) => {
                drop(replaced);
                Ok(records.into_iter().map(|(_, record)| record).collect())
            }
            Err(e) => Err(register_error(py, &e)),
        }
    }

    /// Removes the tool; `KeyError` (`ToolNotFoundError`) when absent.
    fn unregister(&self, py: Python<'_>, name: &Bound<'_, PyAny>) -> PyResult<()> {
        let name_text = required_str(name, "name")?;
        let core = self.core()?;
        let records = self.records.bind(py);
        let key = PyString::new(py, name_text);
        let removed = {
            let _writer = self
                .writer
                .lock_py_attached(py)
                .unwrap_or_else(PoisonError::into_inner);
            if !core.unregister(name_text) {
                None
            } else {
                let record = records.get_item(&key)?;
                if record.is_some() {
                    records.del_item(&key)?;
                }
                Some(record)
            }
        };
        self.table.bury(py);
        match removed {
            Some(record) => {
                drop(record);
                Ok(())
            }
            None => Err(errors::not_found(py, name_text)),
        }
    }

    /// The tool's record; `KeyError` (`ToolNotFoundError`) when absent.
    fn get<'py>(&self, py: Python<'py>, name: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        if let Ok(s) = name.cast::<PyString>() {
            if let Some(record) = self.records.bind(py).get_item(s)? {
                return Ok(record);
            }
            return Err(errors::not_found(py, &s.to_string_lossy()));
        }
        Err(errors::not_found(py, &name.repr()?.to_string_lossy()))
    }

    /// The tool names in registration order (an override keeps its place).
    fn names<'py>(&self, py: Python<'py>) -> Bound<'py, PyList> {
        self.records.bind(py).keys()
    }

    fn __contains__(&self, py: Python<'_>, name: &Bound<'_, PyAny>) -> bool {
        name.is_instance_of::<PyString>() && self.records.bind(py).contains(name).unwrap_or(false)
    }

    fn __len__(&self, py: Python<'_>) -> usize {
        self.records.bind(py).len()
    }

    fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        Ok(self.names(py).try_iter()?.into_any())
    }

    /// The core's definitions text: compact JSON sorted by name, the same bytes on
    /// every run for the same registrations.
    fn definitions_json(&self) -> PyResult<String> {
        Ok(self.core()?.definitions_json().to_string())
    }

    /// The definitions as Python values: `[{"name", "description", "parameters"}, ...]`.
    fn definitions<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let text = self.core()?.definitions_json();
        convert::to_python(py, text.as_bytes())
    }

    /// The tools in a provider's shape (`openai-chat`, `openai-responses`,
    /// `anthropic`, `mcp`, `gemini`), sorted by name and byte-stable, with the SHA-256
    /// of those bytes: `(json, fingerprint)`. An unknown name raises ValueError.
    ///
    /// Never what the provider would refuse: a dotted name (`db.get_user`) is written
    /// `db_get_user` for OpenAI, Anthropic and Gemini, and a call by that spelling
    /// reaches the registered tool; anything else the provider's rules find raises
    /// `InvalidNameError` (a name: no rewrite fixes it, or two tools share a spelling)
    /// or `SchemaError`, the message naming each tool and rule.
    fn dialect_definitions(&self, py: Python<'_>, dialect: &str) -> PyResult<(String, String)> {
        let dialect: toolgate_dialect::Dialect =
            dialect
                .parse()
                .map_err(|e: toolgate_dialect::UnknownName| {
                    pyo3::exceptions::PyValueError::new_err(e.message)
                })?;
        let defs = self.core()?.definitions(dialect).map_err(|refused| {
            let (pointer, rule) = refused
                .problems
                .first()
                .map_or(("", ""), |p| (p.pointer.as_str(), p.rule));
            let (class, code) = match rule {
                "tool-name" | "name-collision" => ("InvalidNameError", status::NAME),
                _ => ("SchemaError", status::SCHEMA),
            };
            errors::toolgate_error(py, class, &refused.message, code, pointer, rule)
        })?;
        Ok((defs.json().to_string(), defs.fingerprint().to_owned()))
    }

    /// Every problem a provider's strict mode (`openai-strict`, `anthropic-strict`,
    /// `gemini`) finds in the registered tools: `[{"tool", "pointer", "rule",
    /// "message"}, ...]`, sorted. An unknown name raises ValueError.
    fn lint<'py>(&self, py: Python<'py>, target: &str) -> PyResult<Bound<'py, PyAny>> {
        let target: toolgate_dialect::Target =
            target.parse().map_err(|e: toolgate_dialect::UnknownName| {
                pyo3::exceptions::PyValueError::new_err(e.message)
            })?;
        let problems = self.core()?.lint(target);
        let text = toolgate_dialect::LintProblem::json_array(&problems);
        convert::to_python(py, text.as_bytes())
    }

    /// The names as the core has them (sorted): for consistency checks.
    fn _library_names(&self) -> PyResult<Vec<String>> {
        Ok(self.core()?.names())
    }

    /// The registrations the core still holds, by id: each replaced or removed tool
    /// leaves once the last call running on it has returned.
    #[getter]
    fn _tools<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let out = PyDict::new(py);
        let handlers: Vec<(u64, Py<PyAny>)> = self
            .table
            .lock()
            .entries
            .iter()
            .map(|(id, e)| (*id, e.handler.clone_ref(py)))
            .collect();
        for (id, handler) in handlers {
            out.set_item(id, handler)?;
        }
        Ok(out)
    }

    /// Validates `args` against the tool's schema without running it: `OK` or the list
    /// of `ValidationError`s. `KeyError` (`ToolNotFoundError`) for an unknown tool.
    fn validate<'py>(
        &self,
        py: Python<'py>,
        name: &Bound<'py, PyAny>,
        args: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let name_text = required_str(name, "name")?;
        let guard = self.core.load();
        let core = guard.as_ref().ok_or_else(|| errors::closed("registry"))?;
        let input = json_input(args)?;
        let bytes = input.bytes();
        let found = if bytes.len() > GIL_HELD_MAX_BYTES {
            py.detach(|| core.validate(name_text, bytes))
        } else {
            core.validate(name_text, bytes)
        };
        match found {
            None => Err(errors::not_found(py, name_text)),
            Some(errors) if errors.is_empty() => errors::ok(py),
            Some(found) => Ok(errors::validation_errors(py, &found)?.into_any()),
        }
    }

    /// Runs one tool call and returns its `CallResult`; a model's mistake never raises.
    fn call<'py>(
        &self,
        py: Python<'py>,
        call_id: &Bound<'py, PyAny>,
        name: &Bound<'py, PyAny>,
        args: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        required_str(call_id, "call_id")?;
        let name_text = required_str(name, "name")?;
        let input = json_input(args)?;
        let settled = match self.prepare(py, name_text, input.bytes())? {
            Err(refusal) => refused(py, refusal),
            Ok(call) => {
                let outcome = run(py, &call);
                drop(call);
                self.table.bury(py);
                outcome?
            }
        };
        errors::call_result(py, call_id, name, settled)
    }

    /// A call of the tool `name` whose arguments arrive in chunks (see `CallStream`):
    /// refused at the first byte after which no continuation can be valid (an unknown
    /// tool at once); the handler runs only in its `finish()` / `afinish()`, as `call`
    /// / `acall` run it on all the bytes fed.
    fn stream_call<'py>(
        slf: &Bound<'py, Self>,
        call_id: &Bound<'py, PyAny>,
        name: &Bound<'py, PyAny>,
    ) -> PyResult<crate::stream::CallStream> {
        let id_text = required_str(call_id, "call_id")?;
        let name_text = required_str(name, "name")?;
        let core = slf.get().core()?;
        Ok(crate::stream::CallStream::new(
            slf.clone().into_any().unbind(),
            core,
            call_id,
            name,
            id_text,
            name_text,
        ))
    }

    /// The call as the core runs it, calling the handler back from native code
    /// (`Handler::call`): `call` never takes this path; the tests check that it
    /// answers as `call` does.
    fn _call_in_core<'py>(
        &self,
        py: Python<'py>,
        call_id: &Bound<'py, PyAny>,
        name: &Bound<'py, PyAny>,
        args: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let id_text = required_str(call_id, "call_id")?;
        let name_text = required_str(name, "name")?;
        let input = json_input(args)?;
        let result = self.core()?.call(id_text, name_text, input.bytes());
        self.table.bury(py);
        let settled = Settled {
            content: text(py, &result.content),
            outcome: result.outcome,
            structured: result.structured,
            violations: result.violations,
            invalid_result: result.invalid_result.map(|answer| text(py, &answer)),
            attempts: result.attempts,
        };
        errors::call_result(py, call_id, name, settled)
    }

    /// The first half of `acall`: the refusal's `CallResult`, or the prepared call
    /// whose handler `acall` runs and awaits.
    fn _prepare<'py>(
        slf: &Bound<'py, Self>,
        call_id: &Bound<'py, PyAny>,
        name: &Bound<'py, PyAny>,
        args: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let py = slf.py();
        required_str(call_id, "call_id")?;
        let name_text = required_str(name, "name")?;
        let input = json_input(args)?;
        match slf.get().prepare(py, name_text, input.bytes())? {
            Err(refusal) => errors::call_result(py, call_id, name, refused(py, refusal)),
            Ok(call) => Ok(Bound::new(
                py,
                Step {
                    call: call.into_owned(),
                    call_id: call_id.clone().unbind(),
                    name: name.clone().unbind(),
                    _registry: slf.clone().into_any().unbind(),
                },
            )?
            .into_any()),
        }
    }

    /// True once `close` was called.
    #[getter]
    fn closed(&self) -> bool {
        self.core.load().is_none()
    }

    /// Frees the core registry; every tool's handler is released once no call runs on
    /// it. Idempotent; new operations raise `ValueError` from here on, and the records
    /// are dropped (`names()` is empty, `get` raises `KeyError`).
    fn close(&self, py: Python<'_>) {
        self.shut(py);
    }

    fn __enter__(slf: Bound<'_, Self>) -> Bound<'_, Self> {
        slf
    }

    #[pyo3(signature = (*_exc))]
    fn __exit__(&self, py: Python<'_>, _exc: &Bound<'_, PyTuple>) {
        self.shut(py);
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        let state = if self.closed() {
            "closed".to_owned()
        } else {
            format!("{} tools", self.__len__(py))
        };
        format!("<toolgate.ToolRegistry names='{}' {state}>", self.policy)
    }

    fn __traverse__(&self, visit: PyVisit<'_>) -> Result<(), PyTraverseError> {
        visit.call(&self.records)?;
        if let Ok(observer) = self.observer.try_lock() {
            if let Some(observer) = observer.as_ref() {
                visit.call(observer)?;
            }
        }
        // Each entry holds its handler once, and only this table lists it. A lock held
        // elsewhere cannot be waited for here; not visiting only means the collector
        // takes those handlers as referenced from outside, which is safe.
        if let Ok(live) = self.table.live.try_lock() {
            for entry in live.entries.values().chain(live.dead.iter()) {
                visit.call(&entry.handler)?;
            }
        }
        Ok(())
    }

    fn __clear__(&self) {
        Python::attach(|py| self.shut(py));
    }
}

/// A call `_prepare` let through, for `acall` to run (`start`), await, and turn into
/// its result (`finish`, or `failed` for an exception), with the core's texts.
#[pyclass(module = "toolgate", name = "_PreparedCall", frozen)]
pub(crate) struct Step {
    call: PreparedCall<'static>,
    call_id: Py<PyAny>,
    name: Py<PyAny>,
    /// Keeps the registry (whose table shows the collector this call's handler) alive
    /// while the call is pending.
    _registry: Py<PyAny>,
}

/// A tool read and checked by `Registry::pending`, not yet given to the core.
struct Pending<'py> {
    record: Bound<'py, PyAny>,
    key: Bound<'py, PyString>,
    spec: ToolSpec,
    tool: Box<PyHandler>,
}

/// The fields a tool of `register_all` may have.
const TOOL_FIELDS: [&str; 9] = [
    "name",
    "schema",
    "handler",
    "description",
    "idempotent",
    "timeout_ms",
    "arguments",
    "output_schema",
    "exclusive",
];

/// The optional arguments of `register` (the optional fields of a `register_all` tool).
struct Extras<'a, 'py> {
    description: Option<&'a Bound<'py, PyAny>>,
    idempotent: Option<&'a Bound<'py, PyAny>>,
    timeout_ms: Option<&'a Bound<'py, PyAny>>,
    arguments: Option<&'a Bound<'py, PyAny>>,
    output_schema: Option<&'a Bound<'py, PyAny>>,
    exclusive: Option<&'a Bound<'py, PyAny>>,
}

/// A schema argument as the core reads it (`None` for none given) and the value a
/// record keeps: the object given, or for JSON text its value (`None` when the text is
/// not JSON: the core refuses it, with its own message).
fn schema_argument<'py>(
    py: Python<'py>,
    schema: &Bound<'py, PyAny>,
) -> PyResult<(Option<Vec<u8>>, Bound<'py, PyAny>)> {
    if is_text(schema) {
        let bytes = json_input(schema)?.bytes().to_vec();
        let value = convert::to_python(py, &bytes).unwrap_or_else(|_| py.None().into_bound(py));
        Ok((Some(bytes), value))
    } else {
        let mut bytes = Vec::with_capacity(256);
        write_json(&mut bytes, schema).map_err(|e| e.into_argument_error(py))?;
        Ok((Some(bytes), schema.clone()))
    }
}

impl Registry {
    /// The tools of `register_all`, each read as `register` reads its arguments.
    fn read_batch<'py>(
        &self,
        py: Python<'py>,
        tools: &Bound<'py, PyAny>,
        pending: &mut Vec<Pending<'py>>,
    ) -> PyResult<()> {
        for item in tools.try_iter()? {
            let item = item?;
            let fields = item.cast::<PyDict>().map_err(|_| {
                PyTypeError::new_err(format!(
                    "each tool must be a dict of register's arguments, not {}",
                    type_name(&item)
                ))
            })?;
            for key in fields.keys() {
                let known = key
                    .cast::<PyString>()
                    .ok()
                    .and_then(utf8_of)
                    .is_some_and(|k| TOOL_FIELDS.iter().any(|f| f.as_bytes() == k));
                if !known {
                    return Err(PyTypeError::new_err(format!(
                        "unknown tool field {}; expected one of {}",
                        key.repr()?,
                        TOOL_FIELDS.join(", ")
                    )));
                }
            }
            let required = |k: &str| {
                fields
                    .get_item(k)?
                    .ok_or_else(|| PyTypeError::new_err(format!("each tool needs {k:?}")))
            };
            let (name, schema, handler) =
                (required("name")?, required("schema")?, required("handler")?);
            let optional = |k: &str| fields.get_item(k);
            let (description, idempotent, timeout_ms, arguments, output_schema, exclusive) = (
                optional("description")?,
                optional("idempotent")?,
                optional("timeout_ms")?,
                optional("arguments")?,
                optional("output_schema")?,
                optional("exclusive")?,
            );
            pending.push(self.pending(
                py,
                &name,
                &schema,
                &handler,
                Extras {
                    description: description.as_ref(),
                    idempotent: idempotent.as_ref(),
                    timeout_ms: timeout_ms.as_ref(),
                    arguments: arguments.as_ref(),
                    output_schema: output_schema.as_ref(),
                    exclusive: exclusive.as_ref(),
                },
            )?);
        }
        Ok(())
    }

    /// Everything `register` checks and builds before the core sees the tool: its
    /// arguments read, its record, its handler entered in the live table (a `Pending`
    /// dropped unregistered leaves it for `bury`).
    fn pending<'py>(
        &self,
        py: Python<'py>,
        name: &Bound<'py, PyAny>,
        schema: &Bound<'py, PyAny>,
        handler: &Bound<'py, PyAny>,
        extras: Extras<'_, 'py>,
    ) -> PyResult<Pending<'py>> {
        let Extras {
            description,
            idempotent,
            timeout_ms,
            arguments,
            output_schema,
            exclusive,
        } = extras;
        if !handler.is_callable() {
            return Err(PyTypeError::new_err(format!(
                "handler must be callable, not {}",
                type_name(handler)
            )));
        }
        let name_text = required_str(name, "name")?;
        let description = match description {
            Some(d) => d.clone(),
            None => PyString::new(py, "").into_any(),
        };
        let description_text = required_str(&description, "description")?;
        let timeout = match timeout_ms {
            None => 0,
            Some(t) => match t.extract::<u64>() {
                Ok(n) if !t.is_instance_of::<PyBool>() => n,
                _ => {
                    return Err(errors::invalid_argument(
                        py,
                        &format!("timeout_ms must be None or an int >= 0, got {}", t.repr()?),
                    ))
                }
            },
        };
        let mode = match arguments {
            None => Mode::Kwargs,
            Some(given) => match given.cast::<PyString>().ok().and_then(utf8_of) {
                Some(b"kwargs") => Mode::Kwargs,
                Some(b"dict") => Mode::Dict,
                Some(b"json") => Mode::Json,
                _ => {
                    return Err(errors::invalid_argument(
                        py,
                        &format!(
                            "unknown arguments mode {}; expected one of 'kwargs', 'dict', 'json'",
                            given.repr()?
                        ),
                    ))
                }
            },
        };
        let idempotent = match idempotent {
            Some(flag) => flag.is_truthy()?,
            None => false,
        };
        let exclusive = match exclusive {
            Some(flag) => flag.is_truthy()?,
            None => false,
        };

        // The parameters as the core reads them, and the value the record keeps: the
        // schema given (the same object), or for JSON text its value.
        let (parameters, value) = if schema.is_none() {
            let default = PyDict::new(py);
            default.set_item("type", "object")?;
            (None, default.into_any())
        } else {
            schema_argument(py, schema)?
        };
        // The output schema likewise; `None` means the tool has none.
        let (output, output_value) = match output_schema {
            Some(given) if !given.is_none() => schema_argument(py, given)?,
            _ => (None, py.None().into_bound(py)),
        };
        if mode == Mode::Kwargs {
            if let Some(property) = unaccepted_property(py, handler, &value)? {
                return Err(PyTypeError::new_err(message::property_not_accepted(
                    name_text, &property,
                )));
            }
        }
        let timeout_value = match timeout_ms {
            Some(t) => t.clone(),
            None => py.None().into_bound(py),
        };
        let record = errors::tool_record(
            py,
            (
                name,
                &description,
                &value,
                handler,
                idempotent,
                &timeout_value,
                &output_value,
                exclusive,
            ),
        )?;

        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        let known = match mode {
            Mode::Json => KnownStrings::default(),
            Mode::Kwargs | Mode::Dict => KnownStrings::of_schema(&value)?,
        };
        let entry = Arc::new(Entry {
            name: name_text.to_owned(),
            handler: handler.clone().unbind(),
            mode,
            known,
        });
        self.table.lock().entries.insert(id, Arc::clone(&entry));
        let tool = Box::new(PyHandler {
            id,
            entry,
            table: Arc::clone(&self.table),
        });
        let spec = ToolSpec {
            name: name_text.to_owned(),
            description: description_text.to_owned(),
            parameters,
            output_schema: output,
            idempotent,
            timeout_ms: timeout,
            exclusive,
        };
        // The key is an exact str: a subclass's __hash__ would run Python code under the lock.
        let key = PyString::new(py, name_text);
        Ok(Pending {
            record,
            key,
            spec,
            tool,
        })
    }
}

#[pymethods]
impl Step {
    /// Calls the handler; returns its answer (an awaitable for an async handler) or
    /// raises what it raises.
    fn start<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let entry = entry_of(&self.call)
            .ok_or_else(|| PyTypeError::new_err("the tool has no Python handler"))?;
        invoke(py, entry, self.call.arguments())
    }

    /// The result of the call whose handler answered `value`.
    fn finish<'py>(
        &self,
        py: Python<'py>,
        value: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let settled = finish(py, &self.call, value)?;
        errors::call_result(py, self.call_id.bind(py), self.name.bind(py), settled)
    }

    /// The result of the call whose handler raised `exc` (an `Exception`).
    fn failed<'py>(&self, py: Python<'py>, exc: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        let settled = failed(py, &self.call, PyErr::from_value(exc.clone()))?;
        errors::call_result(py, self.call_id.bind(py), self.name.bind(py), settled)
    }
}
