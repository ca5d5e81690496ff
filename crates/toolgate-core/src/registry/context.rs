//! What a handler is told about the call it runs, besides the argument bytes.

use std::any::Any;
use std::fmt;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::time::{Duration, Instant};

/// The caller's context of one call, given to the handler as it came: a value of the
/// caller's own type ([`CallContext::with_data`]), which the handler reads back by type
/// ([`CallContext::data`]); or nothing ([`CallContext::NONE`], what
/// [`Registry::call`](super::Registry::call) gives).
///
/// It is borrowed for the call only, on the caller's thread: a request's user, a
/// database transaction, a host's own per-call state (the C library's `void *` context
/// travels in one).
///
/// A call run by [`Registry::dispatch`](super::Registry::dispatch) also carries its
/// deadline and a cancellation flag the handler may poll
/// ([`CallContext::is_cancelled`], [`CallContext::deadline`]), and a handler can mark
/// its failure as worth another attempt ([`CallContext::retry_later`]). A plain call
/// has none of them: never cancelled, no deadline, never retried.
///
/// ```
/// use toolgate_core::{CallContext, Registry, ToolSpec};
///
/// struct User(&'static str);
///
/// let registry = Registry::default();
/// let spec = ToolSpec { name: "whoami".into(), ..ToolSpec::default() };
/// let whoami = |_: &[u8], cx: &CallContext| {
///     Ok(cx.data::<User>().map_or("nobody", |user| user.0).to_string())
/// };
/// registry.register(spec, Box::new(whoami), false).unwrap();
///
/// let ada = User("ada");
/// let cx = CallContext::with_data(&ada);
/// assert_eq!(registry.call_with_context("c1", "whoami", b"{}", &cx).content, "ada");
/// assert_eq!(registry.call("c2", "whoami", b"{}").content, "nobody");
/// ```
#[derive(Clone, Copy, Default)]
pub struct CallContext<'a> {
    data: Option<&'a dyn Any>,
    run: Option<&'a Arc<CallRun>>,
}

impl<'a> CallContext<'a> {
    /// No context: [`CallContext::data`] is `None` for every type.
    pub const NONE: CallContext<'static> = CallContext {
        data: None,
        run: None,
    };

    /// A context carrying `data`, which the handler reads back as a `T`.
    pub fn with_data<T: Any>(data: &'a T) -> CallContext<'a> {
        CallContext {
            data: Some(data),
            run: None,
        }
    }

    /// The context of one dispatched call: the dispatch's data, if any, and the run's
    /// deadline and flags.
    pub(super) fn dispatched(data: Option<&'a dyn Any>, run: &'a Arc<CallRun>) -> CallContext<'a> {
        CallContext {
            data,
            run: Some(run),
        }
    }

    /// The caller's value, when the call carries one of type `T`.
    pub fn data<T: Any>(&self) -> Option<&'a T> {
        self.data?.downcast_ref::<T>()
    }

    /// True once the call's answer is no longer wanted: its deadline passed (the
    /// dispatch has already answered `error: tool NAME timed out after N ms`) or its
    /// registry is being dropped. A handler that can stop early should poll it and
    /// return; whatever it returns then is dropped. Always false for a plain
    /// [`Registry::call`](super::Registry::call).
    ///
    /// ```
    /// use std::time::Duration;
    /// use toolgate_core::registry::{Call, DispatchOptions};
    /// use toolgate_core::{CallContext, CallOutcome, Registry, ToolSpec};
    ///
    /// let registry = Registry::default();
    /// let spec = ToolSpec { name: "poll".into(), timeout_ms: 20, ..ToolSpec::default() };
    /// let poll = |_: &[u8], cx: &CallContext| {
    ///     while !cx.is_cancelled() {
    ///         std::thread::sleep(Duration::from_millis(1));
    ///     }
    ///     Ok("too late".to_string())
    /// };
    /// registry.register(spec, Box::new(poll), false).unwrap();
    /// let results = registry.dispatch(&[Call::new("c1", "poll", b"{}")], &DispatchOptions::default());
    /// assert_eq!(results[0].outcome, CallOutcome::TimedOut);
    /// assert_eq!(results[0].content, "error: tool poll timed out after 20 ms");
    /// ```
    pub fn is_cancelled(&self) -> bool {
        self.run.is_some_and(|run| run.is_cancelled())
    }

    /// The running call itself, for a dispatched call: a handle the handler may keep
    /// and hand to other threads (a task it started, a host's own runtime), which
    /// tells them when the call is cancelled ([`RunningCall::on_cancel`]). `None` for
    /// a plain [`Registry::call`](super::Registry::call).
    pub fn running_call(&self) -> Option<RunningCall> {
        self.run.map(|run| RunningCall(Arc::clone(run)))
    }

    /// When the call's answer stops being wanted, if it has a deadline: the earliest of
    /// its tool's `timeout_ms` (or the registry's default) counted from the call's start
    /// and the dispatch's own timeout counted from the dispatch's start. `None` for a
    /// plain call and for a dispatched call with no limit.
    pub fn deadline(&self) -> Option<Instant> {
        self.run.and_then(|run| run.deadline)
    }

    /// Marks this attempt's failure as transient (a dropped connection, a busy
    /// service): when the handler then returns `Err`, the dispatcher may run the call
    /// again, after a backoff, if its tool is registered `idempotent` and attempts are
    /// left ([`DispatchOptions::with_max_attempts`](super::DispatchOptions::with_max_attempts)).
    /// An answer, a panic, a refusal and a tool that is not idempotent are never
    /// retried. The mark holds for this attempt only; a plain
    /// [`Registry::call`](super::Registry::call) ignores it.
    ///
    /// ```
    /// use std::sync::atomic::{AtomicU32, Ordering};
    /// use toolgate_core::registry::{Call, DispatchOptions};
    /// use toolgate_core::{CallContext, Registry, ToolSpec};
    ///
    /// let registry = Registry::default();
    /// let spec = ToolSpec { name: "flaky".into(), idempotent: true, ..ToolSpec::default() };
    /// let runs = AtomicU32::new(0);
    /// let flaky = move |_: &[u8], cx: &CallContext| {
    ///     if runs.fetch_add(1, Ordering::SeqCst) == 0 {
    ///         cx.retry_later();
    ///         return Err("service busy".to_string());
    ///     }
    ///     Ok("done".to_string())
    /// };
    /// registry.register(spec, Box::new(flaky), false).unwrap();
    /// let options = DispatchOptions::default().with_backoff(std::time::Duration::ZERO);
    /// let results = registry.dispatch(&[Call::new("c1", "flaky", b"{}")], &options);
    /// assert_eq!((results[0].content.as_str(), results[0].attempts), ("done", 2));
    /// ```
    pub fn retry_later(&self) {
        if let Some(run) = self.run {
            run.retry.store(true, Ordering::SeqCst);
        }
    }
}

/// One dispatched call while it runs, as a handler's helpers see it: whether it is
/// cancelled, its deadline, a way to be told of its cancellation, and a way to ask
/// for a retry. Cheap to clone, `Send` and `Sync`; it stays valid after the call has
/// ended (then it is never cancelled again and a callback given to
/// [`RunningCall::on_cancel`] may never run).
///
/// ```
/// use std::sync::mpsc;
/// use std::time::Duration;
/// use toolgate_core::registry::{Call, DispatchOptions};
/// use toolgate_core::{CallContext, CallOutcome, Registry, ToolSpec};
///
/// let registry = Registry::default();
/// let spec = ToolSpec { name: "wait".into(), timeout_ms: 10, ..ToolSpec::default() };
/// let wait = |_: &[u8], cx: &CallContext| {
///     let (told, heard) = mpsc::channel();
///     cx.running_call().unwrap().on_cancel(move || told.send(()).unwrap());
///     heard.recv().unwrap(); // returns once the deadline has passed
///     Ok("late".to_string())
/// };
/// registry.register(spec, Box::new(wait), false).unwrap();
/// let results = registry.dispatch(&[Call::new("c1", "wait", b"{}")], &DispatchOptions::default());
/// assert_eq!(results[0].outcome, CallOutcome::TimedOut);
/// ```
#[derive(Clone, Debug)]
pub struct RunningCall(Arc<CallRun>);

impl RunningCall {
    /// True once the call's answer is no longer wanted (see
    /// [`CallContext::is_cancelled`]).
    pub fn is_cancelled(&self) -> bool {
        self.0.is_cancelled()
    }

    /// The call's deadline, if it has one (see [`CallContext::deadline`]).
    pub fn deadline(&self) -> Option<Instant> {
        self.0.deadline
    }

    /// Marks the current attempt's failure as transient (see
    /// [`CallContext::retry_later`]).
    pub fn retry_later(&self) {
        self.0.retry.store(true, Ordering::SeqCst);
    }

    /// Runs `f` once when the call is cancelled, on the thread that called
    /// [`Registry::dispatch`](super::Registry::dispatch) (which cancels its calls,
    /// also when a [`Canceller`](super::Canceller) woke it), or at once, on this
    /// thread, if it already is. `f` should be quick and must not block: it is how a
    /// host wakes what it runs the call on (cancels a task, a context). A panic inside
    /// it is caught and ignored. A call whose handler returns without being cancelled
    /// drops `f` unrun.
    pub fn on_cancel<F: FnOnce() + Send + 'static>(&self, f: F) {
        let mut waiting = self.0.lock();
        if self.0.is_cancelled() {
            drop(waiting);
            run_quietly(Box::new(f));
        } else {
            waiting.push(Box::new(f));
        }
    }
}

/// Runs a cancellation callback, ignoring a panic in it.
fn run_quietly(f: Box<dyn FnOnce() + Send>) {
    if let Err(payload) = catch_unwind(AssertUnwindSafe(f)) {
        super::discard_panic(payload);
    }
}

/// What [`RunningCall::on_cancel`] keeps until the call is cancelled.
type OnCancel = Vec<Box<dyn FnOnce() + Send>>;

/// The state one dispatched call shares between the thread that runs its handler and
/// the dispatch waiting for it: its deadline, whether it is cancelled, whether the
/// current attempt asked to be retried.
pub(super) struct CallRun {
    pub(super) deadline: Option<Instant>,
    cancelled: AtomicBool,
    pub(super) retry: AtomicBool,
    /// The callbacks waiting for the cancellation; its lock also orders a backoff's
    /// wait against the cancellation that wakes it.
    lock: Mutex<OnCancel>,
    wake: Condvar,
}

impl fmt::Debug for CallRun {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CallRun")
            .field("deadline", &self.deadline)
            .field("cancelled", &self.cancelled)
            .field("retry", &self.retry)
            .finish_non_exhaustive()
    }
}

impl CallRun {
    pub(super) fn new(deadline: Option<Instant>) -> CallRun {
        CallRun {
            deadline,
            cancelled: AtomicBool::new(false),
            retry: AtomicBool::new(false),
            lock: Mutex::new(Vec::new()),
            wake: Condvar::new(),
        }
    }

    pub(super) fn is_cancelled(&self) -> bool {
        self.cancelled.load(Ordering::SeqCst)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, OnCancel> {
        self.lock.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Cancels the call (once: a second cancel does nothing) and runs the callbacks
    /// that wait for it, outside the lock.
    pub(super) fn cancel(&self) {
        let mut waiting = self.lock();
        if self.cancelled.swap(true, Ordering::SeqCst) {
            return;
        }
        let callbacks = std::mem::take(&mut *waiting);
        self.wake.notify_all();
        drop(waiting);
        for f in callbacks {
            run_quietly(f);
        }
    }

    /// The handler has returned for good: the callbacks still waiting for a
    /// cancellation are dropped unrun (a later `on_cancel` keeps its callback, which
    /// runs only if the call is cancelled after all).
    pub(super) fn end(&self) {
        let waiting = std::mem::take(&mut *self.lock());
        drop(waiting);
    }

    /// Waits `pause` unless the call is cancelled first; true when it was not.
    pub(super) fn pause(&self, pause: Duration) -> bool {
        let until = Instant::now() + pause;
        let mut guard = self.lock();
        loop {
            if self.is_cancelled() {
                return false;
            }
            let now = Instant::now();
            if now >= until {
                return true;
            }
            guard = self
                .wake
                .wait_timeout(guard, until - now)
                .unwrap_or_else(PoisonError::into_inner)
                .0;
        }
    }
}

impl fmt::Debug for CallContext<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CallContext")
            .field("data", &self.data.map(|_| "..."))
            .field("run", &self.run)
            .finish()
    }
}
