//! The dispatcher's Python side: what a handler run by `ToolRegistry.dispatch` (or
//! `adispatch`) sees of its call (`toolgate.running_call()`, a `RunningCall`), the
//! host's `Canceller`, and the registry's observer buffer.
//!
//! Threading: the core runs dispatched calls on its worker threads; the Python handler
//! of each is called there with the GIL taken for the call ([`crate::registry`]'s
//! `PyHandler::call`). While it runs, the worker's thread-local [`CURRENT`] holds the
//! call's `RunningCall`, which `toolgate.running_call()` reads. An async handler's
//! coroutine runs as a task on an event loop (the caller's under `adispatch`, a
//! private one per call under `dispatch`; `toolgate._dispatch`), and a context
//! variable of that task holds its running call instead.

use std::cell::RefCell;
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use toolgate_core::registry::{CallEvent, CallObserver, Canceller as CoreCanceller, RunningCall};

/// What every handler of one dispatch reads from its context
/// (`DispatchOptions::with_data`): the event loop its async handlers run on, if any.
pub(crate) struct DispatchData {
    /// `adispatch`'s running loop; `None` under `dispatch`.
    pub(crate) event_loop: Option<Py<PyAny>>,
}

thread_local! {
    /// The dispatched call whose sync handler this thread runs now.
    static CURRENT: RefCell<Option<RunningCall>> = const { RefCell::new(None) };
}

/// Makes `running` this thread's current call until dropped (the previous one is put
/// back: a handler may run another registry's call inline).
pub(crate) struct Current(Option<RunningCall>);

impl Current {
    pub(crate) fn enter(running: Option<RunningCall>) -> Current {
        Current(CURRENT.with(|c| c.replace(running)))
    }
}

impl Drop for Current {
    fn drop(&mut self) {
        let previous = self.0.take();
        CURRENT.with(|c| *c.borrow_mut() = previous);
    }
}

/// Gives this thread (one of the core's dispatch workers, attached now) a Python
/// thread state that outlives the attachment, so that taking the GIL for the next
/// handler does not make and free one again. It is left to the interpreter when the
/// thread ends: freeing it would need the GIL, which whoever joins the thread may
/// hold.
pub(crate) fn keep_thread_state(_py: Python<'_>) {
    thread_local! {
        static KEPT: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    }
    if KEPT.with(|k| k.replace(true)) || std::thread::current().name() != Some("toolgate-dispatch")
    {
        return;
    }
    // SAFETY: the thread is attached (`_py`), so this `PyGILState_Ensure` only counts
    // one more use of its thread state (it returns "locked", which is never released):
    // when pyo3's own attachment ends, the state's count stays above zero, so the GIL
    // is let go but the state is kept, and every later attachment on this thread
    // reuses it.
    unsafe {
        pyo3::ffi::PyGILState_Ensure();
    }
}

/// `toolgate.running_call()` for a sync handler: the call this thread runs, or None.
#[pyfunction]
pub(crate) fn _running_call(py: Python<'_>) -> PyResult<Option<Py<PyRunningCall>>> {
    let current = CURRENT.with(|c| c.borrow().clone());
    current
        .map(|inner| Py::new(py, PyRunningCall { inner }))
        .transpose()
}

/// One dispatched call while its handler runs (`toolgate.running_call()`): whether
/// its answer is still wanted, its deadline, a way to be told of its cancellation and
/// a way to ask for another attempt. It may be kept and handed to other threads; once
/// the call has ended it is never cancelled again.
#[pyclass(module = "toolgate", name = "RunningCall", frozen)]
pub(crate) struct PyRunningCall {
    pub(crate) inner: RunningCall,
}

#[pymethods]
impl PyRunningCall {
    /// True once the call's answer is no longer wanted: its deadline passed (the
    /// dispatch has answered `error: tool NAME timed out after N ms`), the dispatch was
    /// cancelled (`error: call cancelled`) or the registry closed. A handler that can
    /// stop early should look at it and return; whatever it returns then is dropped.
    #[getter]
    fn cancelled(&self) -> bool {
        self.inner.is_cancelled()
    }

    /// The call's deadline on the `time.monotonic()` clock, or None when it has none.
    #[getter]
    fn deadline(&self, py: Python<'_>) -> PyResult<Option<f64>> {
        let Some(left) = self.left() else {
            return Ok(None);
        };
        let now: f64 = py
            .import("time")?
            .getattr("monotonic")?
            .call0()?
            .extract()?;
        Ok(Some(now + left.as_secs_f64()))
    }

    /// Seconds left until the deadline (0.0 once it has passed), or None when the call
    /// has none.
    fn time_left(&self) -> Option<f64> {
        self.left().map(|left| left.as_secs_f64())
    }

    /// Marks this attempt's failure as transient: when the handler then raises, the
    /// dispatcher runs the call again after a backoff if its tool is registered
    /// `idempotent` and attempts are left (raising `toolgate.RetryableError` does the
    /// same).
    fn retry_later(&self) {
        self.inner.retry_later();
    }

    /// Calls `callback()` once when the call is cancelled, on the thread that cancels
    /// it, or at once (on this thread) when it already is. It should be quick and must
    /// not block: it is how a handler wakes what it waits on (sets an event, cancels a
    /// future). An exception it raises is reported as unraisable (`sys.unraisablehook`).
    /// A call that ends without being cancelled never calls it.
    fn on_cancel(&self, callback: Bound<'_, PyAny>) -> PyResult<()> {
        if !callback.is_callable() {
            return Err(PyTypeError::new_err(format!(
                "callback must be callable, not {}",
                crate::text::type_name(&callback)
            )));
        }
        let callback = callback.unbind();
        self.inner.on_cancel(move || {
            // Not at all while the interpreter shuts down.
            Python::try_attach(|py| {
                if let Err(e) = callback.bind(py).call0() {
                    e.write_unraisable(py, Some(callback.bind(py)));
                }
            });
        });
        Ok(())
    }

    fn __repr__(&self) -> String {
        let left = match self.left() {
            Some(left) => format!(" time_left={:.3}", left.as_secs_f64()),
            None => String::new(),
        };
        format!(
            "<toolgate.RunningCall cancelled={}{left}>",
            if self.inner.is_cancelled() {
                "True"
            } else {
                "False"
            }
        )
    }
}

impl PyRunningCall {
    fn left(&self) -> Option<Duration> {
        self.inner
            .deadline()
            .map(|at| at.saturating_duration_since(Instant::now()))
    }
}

/// The host's way to cancel dispatches from any thread: given to
/// `ToolRegistry.dispatch(..., canceller=)`, its `cancel()` stops every dispatch it
/// was given to, running or to come: their calls not answered yet get
/// `error: call cancelled` (`CallOutcome.CANCELLED`) and the running handlers see
/// `running_call().cancelled`. Once cancelled it stays so.
#[pyclass(module = "toolgate", name = "Canceller", frozen)]
#[derive(Default)]
pub(crate) struct PyCanceller {
    state: Mutex<CancelState>,
}

#[derive(Default)]
struct CancelState {
    cancelled: bool,
    /// The running dispatches' own cancellers, by dispatch number.
    linked: Vec<(u64, CoreCanceller)>,
}

impl PyCanceller {
    fn lock(&self) -> std::sync::MutexGuard<'_, CancelState> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Has `canceller` (one dispatch's) cancelled with this one; cancels it at once
    /// when this one already is.
    pub(crate) fn link(&self, id: u64, canceller: &CoreCanceller) {
        let mut state = self.lock();
        if state.cancelled {
            drop(state);
            canceller.cancel();
        } else {
            state.linked.push((id, canceller.clone()));
        }
    }

    pub(crate) fn unlink(&self, id: u64) {
        self.lock().linked.retain(|(known, _)| *known != id);
    }
}

#[pymethods]
impl PyCanceller {
    #[new]
    fn new() -> PyCanceller {
        PyCanceller::default()
    }

    /// Cancels every dispatch given this canceller, running or to come.
    fn cancel(&self, py: Python<'_>) {
        let linked = {
            let mut state = self.lock();
            state.cancelled = true;
            std::mem::take(&mut state.linked)
        };
        py.detach(|| {
            for (_, canceller) in linked {
                canceller.cancel();
            }
        });
    }

    /// True once `cancel()` was called.
    #[getter]
    fn cancelled(&self) -> bool {
        self.lock().cancelled
    }

    fn __repr__(&self) -> String {
        let cancelled = if self.lock().cancelled {
            "True"
        } else {
            "False"
        };
        format!("<toolgate.Canceller cancelled={cancelled}>")
    }
}

/// What the core tells the observer of one call, owned; paired with the call and its
/// result by `ToolRegistry` (`toolgate.CallEvent`).
pub(crate) struct Observed {
    pub(crate) error_type: Option<&'static str>,
    pub(crate) attempts: u32,
    pub(crate) duration: Duration,
    pub(crate) argument_bytes: usize,
    pub(crate) replayed: bool,
}

thread_local! {
    /// The events of the dispatches this thread runs: the core tells its observer on
    /// the dispatching thread once the batch is done, in the batch's order.
    static OBSERVED: RefCell<Vec<Observed>> = const { RefCell::new(Vec::new()) };
}

/// The core observer of a registry built with `observer=`: keeps each event for the
/// dispatch that runs on this thread ([`take_observed`]).
#[derive(Debug)]
pub(crate) struct Buffer;

impl CallObserver for Buffer {
    fn observe(&self, event: &CallEvent<'_>) {
        OBSERVED.with(|o| {
            o.borrow_mut().push(Observed {
                error_type: event.error_type.map(|e| e.name()),
                attempts: event.attempts,
                duration: event.duration,
                argument_bytes: event.argument_bytes,
                replayed: event.replayed,
            })
        });
    }
}

/// How many events this thread holds (where a dispatch's own begin).
pub(crate) fn observed_len() -> usize {
    OBSERVED.with(|o| o.borrow().len())
}

/// The events this thread was told from `from` on.
pub(crate) fn take_observed(from: usize) -> Vec<Observed> {
    OBSERVED.with(|o| {
        let mut o = o.borrow_mut();
        let from = from.min(o.len());
        o.split_off(from)
    })
}

static AWAIT_DISPATCHED: PyOnceLock<Py<PyAny>> = PyOnceLock::new();

/// A dispatched async handler's awaitable run to its value (or exception) on the
/// dispatch's loop, or on a private one (`toolgate._dispatch._await_dispatched`), the
/// task cancelled when the call is.
pub(crate) fn await_dispatched<'py>(
    py: Python<'py>,
    awaitable: Bound<'py, PyAny>,
    running: &RunningCall,
    event_loop: Option<&Py<PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let run = AWAIT_DISPATCHED.get_or_try_init(py, || {
        Ok::<_, PyErr>(
            py.import("toolgate._dispatch")?
                .getattr("_await_dispatched")?
                .unbind(),
        )
    })?;
    let call = Py::new(
        py,
        PyRunningCall {
            inner: running.clone(),
        },
    )?;
    let event_loop = match event_loop {
        Some(l) => l.bind(py).clone(),
        None => py.None().into_bound(py),
    };
    run.bind(py).call1((awaitable, call, event_loop))
}

static RETRYABLE: PyOnceLock<Py<PyAny>> = PyOnceLock::new();

/// True when `e` is a `toolgate.RetryableError`.
pub(crate) fn is_retryable(py: Python<'_>, e: &PyErr) -> bool {
    let class = RETRYABLE.get_or_try_init(py, || {
        Ok::<_, PyErr>(
            py.import("toolgate._errors")?
                .getattr("RetryableError")?
                .unbind(),
        )
    });
    match class {
        Ok(class) => e.value(py).is_instance(class.bind(py)).unwrap_or(false),
        Err(_) => false,
    }
}

/// The dispatches running on one registry, so that `close()` can cancel them.
#[derive(Default)]
pub(crate) struct Active {
    running: Mutex<Vec<(u64, CoreCanceller)>>,
}

impl Active {
    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<(u64, CoreCanceller)>> {
        self.running.lock().unwrap_or_else(PoisonError::into_inner)
    }

    pub(crate) fn enter(&self, id: u64, canceller: &CoreCanceller) {
        self.lock().push((id, canceller.clone()));
    }

    pub(crate) fn leave(&self, id: u64) {
        self.lock().retain(|(known, _)| *known != id);
    }

    /// Cancels every running dispatch.
    pub(crate) fn cancel_all(&self) {
        let running: Vec<CoreCanceller> = self.lock().iter().map(|(_, c)| c.clone()).collect();
        for canceller in running {
            canceller.cancel();
        }
    }
}
