//! `tg_running_call` and `tg_canceller`: cancellation as a C handler and a C host see
//! it. A handler asks for the call it is running (`tg_running_call_current`) to learn
//! of its deadline and cancellation; a host cancels a dispatch from another thread
//! with a `tg_canceller` given in `tg_dispatch_options`.

use std::cell::RefCell;
use std::ffi::c_void;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use super::boundary::{arg_ref, ffi_boundary, ffi_boundary_value, ffi_free, into_handle, Failure};
use super::status::tg_status;
use toolgate_core::registry::{CallContext, Canceller, RunningCall};

/// One dispatched call while its handler runs, as `tg_running_call_current` gives it
/// to that handler: whether the call is cancelled (its deadline passed, or the host
/// cancelled the dispatch), how long it has left, a way to be told of the
/// cancellation, and a way to ask for a retry. The caller owns it and frees it with
/// `tg_running_call_free`; it stays valid after the call has ended (it is then never
/// cancelled again), so a handler may hand it to the threads that do its work.
///
/// Thread-safety: every function on it may be called from any thread, at once.
pub struct tg_running_call {
    call: RunningCall,
}

/// A callback of `tg_running_call_on_cancel`: `data` is the pointer given with it.
pub type tg_cancel_fn = Option<unsafe extern "C" fn(data: *mut c_void)>;

thread_local! {
    /// The dispatched call whose C handler this thread is running, if any.
    static CURRENT: RefCell<Option<RunningCall>> = const { RefCell::new(None) };
}

/// Runs `f` (a C handler's call) with `cx`'s running call as this thread's current
/// one (none for a plain `tg_registry_call`), and puts back what was there before (a
/// handler may call another tool: a tool that a dispatched handler calls through
/// `tg_registry_call` is not that dispatched call, and must not see it).
pub(crate) fn with_current<R>(cx: &CallContext<'_>, f: impl FnOnce() -> R) -> R {
    let call = cx.running_call();
    // The common case, a plain call while no dispatched C handler runs anywhere: this
    // thread's current call is none already, and the thread-local (a call through
    // `__tls_get_addr` in a shared library) is not touched. A thread inside a
    // dispatched handler always sees its own increment below.
    let dispatched = call.is_some();
    if !dispatched && DISPATCHED_RUNNING.load(Ordering::Relaxed) == 0 {
        return f();
    }
    if dispatched {
        DISPATCHED_RUNNING.fetch_add(1, Ordering::Relaxed);
    }
    let before = CURRENT.with(|current| current.replace(call));
    /// Puts the previous call back even if `f` unwinds.
    struct Restore(Option<RunningCall>, bool);
    impl Drop for Restore {
        fn drop(&mut self) {
            let before = self.0.take();
            CURRENT.with(|current| *current.borrow_mut() = before);
            if self.1 {
                DISPATCHED_RUNNING.fetch_sub(1, Ordering::Relaxed);
            }
        }
    }
    let _restore = Restore(before, dispatched);
    f()
}

/// How many dispatched C handlers are running, on every thread: while none is, a plain
/// call leaves the thread-local alone.
static DISPATCHED_RUNNING: AtomicUsize = AtomicUsize::new(0);

/// The call the calling thread's handler is running, when the handler was called by
/// `tg_registry_dispatch`; NULL otherwise (a handler called by `tg_registry_call`,
/// or a thread not inside a handler). The caller owns the handle and frees it with
/// `tg_running_call_free`.
///
/// Call it on the thread the handler was called on, before the handler returns (a
/// Go or Rust handler that hands its work to another thread takes the handle first
/// and passes it along). A tool that a dispatched handler calls through
/// `tg_registry_call` sees NULL; the dispatched handler sees its own call again once
/// that call has returned. Thread-safety: any thread; each thread sees its own call.
#[no_mangle]
pub extern "C" fn tg_running_call_current() -> *mut tg_running_call {
    ffi_boundary_value(std::ptr::null_mut(), || {
        CURRENT.with(|current| match current.borrow().as_ref() {
            Some(call) => into_handle(tg_running_call { call: call.clone() }),
            None => std::ptr::null_mut(),
        })
    })
}

/// True once the call's answer is no longer wanted: its deadline passed (its result
/// is already `error: tool NAME timed out after N ms`) or the host cancelled the
/// dispatch (`error: call cancelled`). A handler that can stop early should poll it
/// and return; whatever it replies then is dropped. False for NULL.
///
/// # Safety
/// `call` is NULL or a live `tg_running_call`.
#[no_mangle]
pub unsafe extern "C" fn tg_running_call_cancelled(call: *const tg_running_call) -> bool {
    ffi_boundary_value(false, || {
        // SAFETY: `call` is NULL or a live handle, as this function's `# Safety`
        // requires: what `arg_ref` needs.
        unsafe { arg_ref(call, "call") }.is_ok_and(|call| call.call.is_cancelled())
    })
}

/// The milliseconds left before the call's deadline (0 once it has passed), or -1
/// when the call has none (and for NULL).
///
/// # Safety
/// `call` is NULL or a live `tg_running_call`.
#[no_mangle]
pub unsafe extern "C" fn tg_running_call_ms_left(call: *const tg_running_call) -> i64 {
    ffi_boundary_value(-1, || {
        // SAFETY: `call` is NULL or a live handle, as this function's `# Safety`
        // requires: what `arg_ref` needs.
        let Ok(call) = (unsafe { arg_ref(call, "call") }) else {
            return -1;
        };
        match call.call.deadline() {
            None => -1,
            Some(at) => {
                let left = at.saturating_duration_since(Instant::now()).as_millis();
                i64::try_from(left).unwrap_or(i64::MAX)
            }
        }
    })
}

/// Marks the current attempt's failure as transient (a dropped connection, a busy
/// service): when the handler then fails, the dispatcher runs the call again, after a
/// backoff, if its tool is registered idempotent and attempts are left
/// (`tg_dispatch_options.max_attempts`). A reply, a refusal and a tool that is not
/// idempotent are never retried.
///
/// Errors: `TG_ERR_NULL` (`call` NULL).
///
/// # Safety
/// `call` is NULL or a live `tg_running_call`.
#[no_mangle]
pub unsafe extern "C" fn tg_running_call_retry_later(call: *const tg_running_call) -> tg_status {
    ffi_boundary("tg_running_call_retry_later", std::ptr::null_mut(), || {
        // SAFETY: `call` is NULL or a live handle, as this function's `# Safety`
        // requires: what `arg_ref` needs.
        let call = unsafe { arg_ref(call, "call")? };
        call.call.retry_later();
        Ok(())
    })
}

/// The pointer of a `tg_running_call_on_cancel` callback, carried to the thread that
/// cancels the call.
struct CancelData(*mut c_void);

// SAFETY: the library never dereferences the pointer: it only passes it to the
// caller's callback, which `tg_running_call_on_cancel` documents may run on any
// thread.
unsafe impl Send for CancelData {}

/// Calls `on_cancel(data)` once when the call is cancelled, or at once, on this
/// thread, if it already is. The dispatch cancels the call (at its deadline, or once
/// it sees its `tg_canceller` cancelled) on the thread that called
/// `tg_registry_dispatch`, before that function returns; that is where the callback
/// runs, not on the thread calling `tg_canceller_cancel`. A call answered in time
/// never calls it. It should be quick and must not block (the dispatch waits for it):
/// it is how a host wakes what runs the call (cancels a Go `context`, signals a
/// condition variable).
///
/// Lifetime of `data`: until the callback has run or `tg_registry_dispatch` has
/// returned. Not only until the handler returns: a handler that answers just as its
/// deadline passes may have returned when the dispatch cancels its call and runs the
/// callback, so `data` must not point into the handler's stack frame unless the
/// handler waits for the cancellation before it returns. Nothing frees `data`.
///
/// Errors: `TG_ERR_NULL` (`call` or `on_cancel` NULL).
///
/// # Safety
/// `call` is NULL or a live `tg_running_call`; `on_cancel` is NULL or a function that
/// may be called with `data` from any thread.
#[no_mangle]
pub unsafe extern "C" fn tg_running_call_on_cancel(
    call: *const tg_running_call,
    on_cancel: tg_cancel_fn,
    data: *mut c_void,
) -> tg_status {
    ffi_boundary("tg_running_call_on_cancel", std::ptr::null_mut(), || {
        // SAFETY: `call` is NULL or a live handle, as this function's `# Safety`
        // requires: what `arg_ref` needs.
        let call = unsafe { arg_ref(call, "call")? };
        let Some(on_cancel) = on_cancel else {
            return Err(Failure::argument(
                tg_status::TG_ERR_NULL,
                "on_cancel",
                "is NULL",
            ));
        };
        let data = CancelData(data);
        call.call.on_cancel(move || {
            let data = data;
            // SAFETY: the caller's callback, given with `data` for exactly this call,
            // which this function's `# Safety` says may run on any thread.
            unsafe { on_cancel(data.0) }
        });
        Ok(())
    })
}

/// Frees a running call's handle (not the call). NULL is a no-op.
///
/// # Safety
/// `call` is NULL or a live `tg_running_call` not freed before.
#[no_mangle]
pub unsafe extern "C" fn tg_running_call_free(call: *mut tg_running_call) {
    // SAFETY: `call` is NULL or a handle this library returned and nobody freed or
    // uses any more, as this function's `# Safety` requires: what `ffi_free` needs.
    unsafe { ffi_free(call) }
}

/// The host's way to cancel dispatches from another thread (a user who pressed stop,
/// a Go `context` cancelled): given in `tg_dispatch_options.canceller`, it makes the
/// dispatch's calls still running, and those not yet started, end with
/// `error: call cancelled` (outcome `TG_OUTCOME_CANCELLED`), tells their handlers
/// (`tg_running_call_cancelled`), and makes `tg_registry_dispatch` return at once. One
/// canceller may serve several dispatches; once cancelled it stays so. The caller owns
/// it and frees it with `tg_canceller_free`, not before the dispatches given it have
/// returned.
///
/// Thread-safety: `tg_canceller_cancel` from any thread, while dispatches use it.
pub struct tg_canceller {
    canceller: Canceller,
}

/// A new canceller, not cancelled. Never NULL (the process aborts when out of memory,
/// as every allocation of the library does).
#[no_mangle]
pub extern "C" fn tg_canceller_new() -> *mut tg_canceller {
    ffi_boundary_value(std::ptr::null_mut(), || {
        into_handle(tg_canceller {
            canceller: Canceller::new(),
        })
    })
}

/// Cancels every dispatch given `canceller`, running or to come. It only marks the
/// canceller and wakes the dispatches waiting on it: each dispatch then cancels its
/// calls, and runs their `tg_running_call_on_cancel` callbacks, on its own thread.
/// It does not wait for them, nor for any handler.
///
/// Errors: `TG_ERR_NULL` (`canceller` NULL).
///
/// # Safety
/// `canceller` is NULL or a live `tg_canceller`.
#[no_mangle]
pub unsafe extern "C" fn tg_canceller_cancel(canceller: *const tg_canceller) -> tg_status {
    ffi_boundary("tg_canceller_cancel", std::ptr::null_mut(), || {
        // SAFETY: `canceller` is NULL or a live handle, as this function's `# Safety`
        // requires: what `arg_ref` needs.
        let canceller = unsafe { arg_ref(canceller, "canceller")? };
        canceller.canceller.cancel();
        Ok(())
    })
}

/// Frees a canceller. NULL is a no-op.
///
/// # Safety
/// `canceller` is NULL or a live `tg_canceller` not freed before, which no running
/// dispatch uses.
#[no_mangle]
pub unsafe extern "C" fn tg_canceller_free(canceller: *mut tg_canceller) {
    // SAFETY: `canceller` is NULL or a handle this library returned and nobody freed
    // or uses any more, as this function's `# Safety` requires: what `ffi_free` needs.
    unsafe { ffi_free(canceller) }
}

impl tg_canceller {
    /// The core's canceller.
    pub(crate) fn core(&self) -> &Canceller {
        &self.canceller
    }
}
