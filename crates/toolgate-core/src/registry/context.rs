//! What a handler is told about the call it runs, besides the argument bytes.

use std::any::Any;
use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Condvar, Mutex, PoisonError};
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
    run: Option<&'a CallRun>,
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
    pub(super) fn dispatched(data: Option<&'a dyn Any>, run: &'a CallRun) -> CallContext<'a> {
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
        self.run.is_some_and(CallRun::is_cancelled)
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

/// The state one dispatched call shares between the thread that runs its handler and
/// the dispatch waiting for it: its deadline, whether it is cancelled, whether the
/// current attempt asked to be retried.
#[derive(Debug)]
pub(super) struct CallRun {
    pub(super) deadline: Option<Instant>,
    cancelled: AtomicBool,
    pub(super) retry: AtomicBool,
    /// Wakes a backoff early when the call is cancelled.
    lock: Mutex<()>,
    wake: Condvar,
}

impl CallRun {
    pub(super) fn new(deadline: Option<Instant>) -> CallRun {
        CallRun {
            deadline,
            cancelled: AtomicBool::new(false),
            retry: AtomicBool::new(false),
            lock: Mutex::new(()),
            wake: Condvar::new(),
        }
    }

    pub(super) fn is_cancelled(&self) -> bool {
        self.cancelled.load(Ordering::SeqCst)
    }

    pub(super) fn cancel(&self) {
        let _guard = self.lock.lock().unwrap_or_else(PoisonError::into_inner);
        self.cancelled.store(true, Ordering::SeqCst);
        self.wake.notify_all();
    }

    /// Waits `pause` unless the call is cancelled first; true when it was not.
    pub(super) fn pause(&self, pause: Duration) -> bool {
        let until = Instant::now() + pause;
        let mut guard = self.lock.lock().unwrap_or_else(PoisonError::into_inner);
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
