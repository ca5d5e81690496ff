//! `Schema.stream()` and `Registry.stream_call(call_id, name)`: an instance, or a tool
//! call's arguments, validated as its chunks arrive (the core's streams, which own a
//! reference to their schema or registry here, so a Python object can keep them).

use std::sync::{Arc, Mutex, TryLockError};

use pyo3::exceptions::{PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBytes, PyString};
use toolgate_core::registry::{CallFeed, CallStreamOf};
use toolgate_core::schema::{Feed, SchemaStreamOf};

use crate::errors::{self, Settled};
use crate::schema::is_text;
use crate::text::{json_input, type_name, Json};
use crate::GIL_HELD_MAX_BYTES;

/// A chunk as the core reads it: `str` (its UTF-8), `bytes`, `bytearray` or
/// `memoryview`; anything else is a `TypeError` (a chunk is text, not a value).
fn chunk<'a>(value: &'a Bound<'_, PyAny>) -> PyResult<Json<'a>> {
    if !is_text(value) {
        return Err(PyTypeError::new_err(format!(
            "chunk must be str or bytes, not {}",
            type_name(value)
        )));
    }
    json_input(value)
}

fn finished() -> PyErr {
    PyValueError::new_err("the stream is finished")
}

fn busy() -> PyErr {
    PyRuntimeError::new_err("the stream is in use by another thread")
}

/// A stream's state: the core's stream until `finish`, then what is still asked of it.
enum State<S> {
    Open(S),
    Finished {
        bytes_read: usize,
        bytes_before_refusal: Option<usize>,
    },
}

/// Locks a stream's state. A stream is fed from one place at a time: a second thread
/// gets `RuntimeError` rather than waiting (a feed may run without the GIL, and a
/// thread waiting here holds it).
/// What both kinds of core stream tell about their progress.
trait Progress {
    fn bytes_read(&self) -> usize;
    fn bytes_before_refusal(&self) -> Option<usize>;
}

impl<S: std::ops::Deref<Target = toolgate_core::Schema>> Progress for SchemaStreamOf<S> {
    fn bytes_read(&self) -> usize {
        SchemaStreamOf::bytes_read(self)
    }
    fn bytes_before_refusal(&self) -> Option<usize> {
        SchemaStreamOf::bytes_before_refusal(self)
    }
}

impl<R: std::ops::Deref<Target = toolgate_core::Registry>> Progress for CallStreamOf<R> {
    fn bytes_read(&self) -> usize {
        CallStreamOf::bytes_read(self)
    }
    fn bytes_before_refusal(&self) -> Option<usize> {
        CallStreamOf::bytes_before_refusal(self)
    }
}

impl<S: Progress> State<S> {
    /// What a stream keeps once it is finished (or let go of): its progress.
    fn finished_from(stream: &S) -> State<S> {
        State::Finished {
            bytes_read: stream.bytes_read(),
            bytes_before_refusal: stream.bytes_before_refusal(),
        }
    }

    fn bytes_read(&self) -> usize {
        match self {
            State::Open(stream) => stream.bytes_read(),
            State::Finished { bytes_read, .. } => *bytes_read,
        }
    }

    fn bytes_before_refusal(&self) -> Option<usize> {
        match self {
            State::Open(stream) => stream.bytes_before_refusal(),
            State::Finished {
                bytes_before_refusal,
                ..
            } => *bytes_before_refusal,
        }
    }

    fn is_finished(&self) -> bool {
        matches!(self, State::Finished { .. })
    }
}

fn lock<S>(state: &Mutex<State<S>>) -> PyResult<std::sync::MutexGuard<'_, State<S>>> {
    match state.try_lock() {
        Ok(guard) => Ok(guard),
        Err(TryLockError::Poisoned(p)) => Ok(p.into_inner()),
        Err(TryLockError::WouldBlock) => Err(busy()),
    }
}

/// Runs `work` without the GIL when the chunk is large.
fn run<T: Send>(py: Python<'_>, len: usize, work: impl FnOnce() -> T + Send) -> T {
    if len > GIL_HELD_MAX_BYTES {
        py.detach(work)
    } else {
        work()
    }
}

/// An instance of a schema validated as its chunks arrive: `Schema.stream()`.
///
/// `feed(chunk)` returns `None` while some continuation can still be valid, and the
/// list of `ValidationError`s once none can (final: later feeds and `finish` give the
/// same). `finish()` returns what `Schema.validate` returns for all the bytes fed
/// (`OK` or the errors), or the refusal. The stream keeps its schema alive: closing
/// the schema does not end it.
#[pyclass(module = "toolgate", name = "SchemaStream", frozen)]
pub(crate) struct SchemaStream {
    state: Mutex<State<SchemaStreamOf<Arc<toolgate_core::Schema>>>>,
}

impl SchemaStream {
    /// A stream listing at most `max` violations (`usize::MAX`: every one).
    pub(crate) fn new(schema: Arc<toolgate_core::Schema>, max: usize) -> SchemaStream {
        SchemaStream {
            state: Mutex::new(State::Open(SchemaStreamOf::new(schema).at_most(max))),
        }
    }
}

#[pymethods]
impl SchemaStream {
    /// Reads the next chunk (`str` or `bytes`): `None`, or the errors once refused.
    fn feed<'py>(
        &self,
        py: Python<'py>,
        chunk: &Bound<'py, PyAny>,
    ) -> PyResult<Option<Bound<'py, PyAny>>> {
        let input = self::chunk(chunk)?;
        let bytes = input.bytes();
        let refusal = {
            let mut state = lock(&self.state)?;
            let State::Open(stream) = &mut *state else {
                return Err(finished());
            };
            run(py, bytes.len(), || match stream.feed(bytes) {
                Feed::Incomplete => None,
                Feed::Refused(errors) => Some(errors.to_vec()),
            })
        };
        // The objects are made with the lock released: making them may run any
        // Python code (the garbage collector).
        match refusal {
            None => Ok(None),
            Some(found) => Ok(Some(errors::validation_errors(py, &found)?.into_any())),
        }
    }

    /// `OK`, or the errors: `Schema.validate`'s for all the bytes fed (with the
    /// stream's `at_most`, if any), or the refusal.
    /// Once; afterwards `feed` and `finish` raise `ValueError`.
    fn finish<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let stream = {
            let mut state = lock(&self.state)?;
            let State::Open(stream) = &*state else {
                return Err(finished());
            };
            let done = State::finished_from(stream);
            match std::mem::replace(&mut *state, done) {
                State::Open(stream) => stream,
                State::Finished { .. } => return Err(finished()),
            }
        };
        let len = stream.bytes_read();
        let found = run(py, len, move || stream.finish());
        if found.is_empty() {
            errors::ok(py)
        } else {
            Ok(errors::validation_errors(py, &found)?.into_any())
        }
    }

    /// True once no continuation of the bytes fed can be valid.
    #[getter]
    fn refused(&self) -> PyResult<bool> {
        Ok(self.bytes_before_refusal()?.is_some())
    }

    /// How many bytes were fed.
    #[getter]
    fn bytes_read(&self) -> PyResult<usize> {
        Ok(lock(&self.state)?.bytes_read())
    }

    /// How many bytes had been read when the stream was refused (the refusal was
    /// decided at the last of them), or `None`.
    #[getter]
    fn bytes_before_refusal(&self) -> PyResult<Option<usize>> {
        Ok(lock(&self.state)?.bytes_before_refusal())
    }

    /// True once `finish` was called.
    #[getter]
    fn finished(&self) -> PyResult<bool> {
        Ok(lock(&self.state)?.is_finished())
    }

    fn __repr__(&self) -> PyResult<String> {
        Ok(stream_repr(
            "SchemaStream",
            self.finished()?,
            self.refused()?,
            self.bytes_read()?,
        ))
    }
}

fn stream_repr(class: &str, finished: bool, refused: bool, bytes_read: usize) -> String {
    let state = match (finished, refused) {
        (true, _) => "finished",
        (false, true) => "refused",
        (false, false) => "open",
    };
    format!("<toolgate.{class} {state}, {bytes_read} bytes read>")
}

/// A core call result (a refusal the stream decided) as a Python `CallResult`.
fn refusal_result<'py>(
    py: Python<'py>,
    call_id: &Bound<'py, PyAny>,
    name: &Bound<'py, PyAny>,
    result: toolgate_core::CallResult,
) -> PyResult<Bound<'py, PyAny>> {
    let settled = Settled {
        content: PyString::new(py, &result.content).into_any(),
        outcome: result.outcome,
        structured: result.structured,
        violations: result.violations,
        invalid_result: result
            .invalid_result
            .map(|answer| PyString::new(py, &answer).into_any()),
        attempts: result.attempts,
    };
    errors::call_result(py, call_id, name, settled)
}

static FINISH_STREAM: PyOnceLock<Py<PyAny>> = PyOnceLock::new();

/// A tool call whose arguments arrive in chunks: `ToolRegistry.stream_call`.
///
/// `feed(chunk)` returns `None` while the arguments may still turn out valid, and the
/// refusal's `CallResult` once they cannot (an unknown tool is refused at once);
/// final. `finish()` returns what `call(call_id, name, <all the bytes fed>)` returns,
/// running the handler there and only there; `await afinish()` what `acall` returns.
/// A stream never finished runs nothing.
#[pyclass(module = "toolgate", name = "CallStream", frozen)]
pub(crate) struct CallStream {
    /// The Python registry, whose `call` / `acall` run the finished call.
    registry: Py<PyAny>,
    call_id: Py<PyAny>,
    name: Py<PyAny>,
    state: Mutex<State<CallStreamOf<Arc<toolgate_core::Registry>>>>,
}

/// What `finish` and `afinish` do: hand back the refusal, or run the call on the
/// arguments.
enum Ending {
    Refused(toolgate_core::CallResult),
    Run(Vec<u8>),
}

impl CallStream {
    pub(crate) fn new(
        registry: Py<PyAny>,
        core: Arc<toolgate_core::Registry>,
        call_id: &Bound<'_, PyAny>,
        name: &Bound<'_, PyAny>,
        id_text: &str,
        name_text: &str,
    ) -> CallStream {
        CallStream {
            registry,
            call_id: call_id.clone().unbind(),
            name: name.clone().unbind(),
            state: Mutex::new(State::Open(CallStreamOf::new(core, id_text, name_text))),
        }
    }

    /// Ends the stream: its refusal, or the arguments to run the call with. The core's
    /// stream (and its hold on the registry) goes here.
    fn end(&self) -> PyResult<Ending> {
        let mut state = lock(&self.state)?;
        let State::Open(stream) = &*state else {
            return Err(finished());
        };
        let ending = match stream.verdict() {
            CallFeed::Refused(result) => Ending::Refused(result.clone()),
            CallFeed::Incomplete => Ending::Run(stream.bytes().to_vec()),
        };
        *state = State::finished_from(stream);
        Ok(ending)
    }
}

#[pymethods]
impl CallStream {
    /// Reads the next chunk of the arguments (`str` or `bytes`): `None`, or the
    /// refusal's `CallResult` once refused. Raises `ValueError` once the registry is
    /// closed.
    fn feed<'py>(
        &self,
        py: Python<'py>,
        chunk: &Bound<'py, PyAny>,
    ) -> PyResult<Option<Bound<'py, PyAny>>> {
        let input = self::chunk(chunk)?;
        let bytes = input.bytes();
        let closed = self.registry.bind(py).getattr("closed")?.is_truthy()?;
        let refusal = {
            let mut state = lock(&self.state)?;
            let State::Open(stream) = &mut *state else {
                return Err(finished());
            };
            if closed {
                // Let go of the core registry (and its handlers) at once.
                *state = State::finished_from(stream);
                return Err(errors::closed("registry"));
            }
            run(py, bytes.len(), || match stream.feed(bytes) {
                CallFeed::Incomplete => None,
                CallFeed::Refused(result) => Some(result.clone()),
            })
        };
        match refusal {
            None => Ok(None),
            Some(result) => Ok(Some(refusal_result(
                py,
                self.call_id.bind(py),
                self.name.bind(py),
                result,
            )?)),
        }
    }

    /// The call's `CallResult`: the refusal, or what `call(call_id, name, arguments)`
    /// returns for all the bytes fed (the handler runs here, an async one to
    /// completion as `call` runs it). Once; afterwards `feed` and `finish` raise
    /// `ValueError`.
    fn finish<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let (call_id, name) = (self.call_id.bind(py), self.name.bind(py));
        match self.end()? {
            Ending::Refused(result) => refusal_result(py, call_id, name, result),
            Ending::Run(args) => self.registry.bind(py).call_method1(
                pyo3::intern!(py, "call"),
                (call_id, name, PyBytes::new(py, &args)),
            ),
        }
    }

    /// `finish` for async code: an awaitable of the `CallResult`, which runs the
    /// call as `acall` does (awaiting an async handler). The stream is finished when
    /// this is called; the handler runs when the awaitable is awaited.
    fn afinish<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let (call_id, name) = (self.call_id.bind(py), self.name.bind(py));
        let (refusal, args) = match self.end()? {
            Ending::Refused(result) => (refusal_result(py, call_id, name, result)?, py.None()),
            Ending::Run(args) => (
                py.None().into_bound(py),
                PyBytes::new(py, &args).into_any().unbind(),
            ),
        };
        let helper = FINISH_STREAM.get_or_try_init(py, || {
            Ok::<_, PyErr>(
                py.import("toolgate._registry")?
                    .getattr("_finish_stream")?
                    .unbind(),
            )
        })?;
        helper
            .bind(py)
            .call1((self.registry.bind(py), call_id, name, refusal, args))
    }

    /// True once the arguments fed can no longer be valid (or the tool is unknown).
    #[getter]
    fn refused(&self) -> PyResult<bool> {
        Ok(self.bytes_before_refusal()?.is_some())
    }

    /// How many bytes were fed.
    #[getter]
    fn bytes_read(&self) -> PyResult<usize> {
        Ok(lock(&self.state)?.bytes_read())
    }

    /// How many bytes had been read when the call was refused, or `None`.
    #[getter]
    fn bytes_before_refusal(&self) -> PyResult<Option<usize>> {
        Ok(lock(&self.state)?.bytes_before_refusal())
    }

    /// True once `finish` or `afinish` was called.
    #[getter]
    fn finished(&self) -> PyResult<bool> {
        Ok(lock(&self.state)?.is_finished())
    }

    /// The call id given to `stream_call`.
    #[getter]
    fn call_id(&self, py: Python<'_>) -> Py<PyAny> {
        self.call_id.clone_ref(py)
    }

    /// The tool name given to `stream_call`.
    #[getter]
    fn name(&self, py: Python<'_>) -> Py<PyAny> {
        self.name.clone_ref(py)
    }

    fn __repr__(&self) -> PyResult<String> {
        Ok(stream_repr(
            "CallStream",
            self.finished()?,
            self.refused()?,
            self.bytes_read()?,
        ))
    }
}
