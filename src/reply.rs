//! `tg_reply` and the C handler: how a C function becomes a tool.

use std::ffi::{c_char, c_void};

use super::boundary::{arg_bytes, arg_mut, ffi_boundary};
use super::status::{tg_status, RawStatus};
use toolgate_core::registry::{message, CallContext, Handler, Written};

/// A tool's handler, called by `tg_registry_call` (and `tg_registry_dispatch`) for a
/// call whose arguments passed the tool's schema.
///
/// - `user_data`: the pointer given to `tg_registry_register`, unchanged.
/// - `call_ctx`: the `call_ctx` given to `tg_registry_call` or `tg_registry_dispatch`,
///   unchanged (e.g. a Go `context.Context` handle).
/// - `args[0..args_len)`: the exact argument bytes of the call (`{}` when the call
///   sent empty arguments); not NUL-terminated; borrowed until the handler returns
///   (for a dispatched call, the library's own copy, valid that long even when the
///   dispatch has returned).
/// - `reply`: where the handler writes its answer (`tg_reply_ok`) or its error
///   message (`tg_reply_error`); valid only until the handler returns.
///
/// Return `TG_OK` on success. The result is then the text given to `tg_reply_ok`
/// (empty if none), or, if the handler called `tg_reply_error`, an error
/// `error: MESSAGE`. Return any other value (`TG_ERR_HANDLER` is meant for this) to
/// report a failure: the result is `error: MESSAGE` with the text given to
/// `tg_reply_error`, or `error: tool NAME failed` if the handler gave none (text given
/// to `tg_reply_ok` is then discarded).
///
/// Thread-safety: the handler is called from every thread that calls the registry,
/// and from the registry's worker threads for `tg_registry_dispatch` (never on the
/// thread that called it), several at once with the same `user_data`: it must be
/// thread-safe. It may call into the registry (register, unregister, call another
/// tool, dispatch) but must not free it. It must not unwind (C++ exception, longjmp)
/// out of the call.
///
/// Deadlines: a dispatched handler is never stopped. Past its call's deadline (or
/// once the host cancelled the dispatch) its result is already written and
/// `tg_registry_dispatch` may have returned, but the handler keeps running on its
/// worker until it returns; what it replies then is dropped. Until it returns, its
/// `user_data` stays valid (the tool's destructor waits for it, even when the tool is
/// unregistered or its registry freed), and the host must keep `call_ctx` valid. A
/// handler that may block should learn of its deadline and cancellation through
/// `tg_running_call_current` (on the thread it was called on) and return early.
pub type tg_handler_fn = Option<
    unsafe extern "C" fn(
        user_data: *mut c_void,
        call_ctx: *mut c_void,
        args: *const c_char,
        args_len: usize,
        reply: *mut tg_reply,
    ) -> RawStatus,
>;

/// Releases a tool's `user_data`. Called exactly once per registration: when the tool
/// is replaced, unregistered or its registry freed (always after every call still
/// running on it has returned), or when `tg_registry_register` fails (whatever the
/// reason, even a NULL argument). It may run on any thread (for a dispatched handler
/// still running past its deadline when the tool went away: on that handler's worker
/// thread, when the handler returns, possibly after `tg_registry_free` has returned);
/// it must not call into the registry the tool belonged to.
pub type tg_destroy_fn = Option<unsafe extern "C" fn(user_data: *mut c_void)>;

/// Where a handler writes its answer or error. Owned by the library; valid only
/// during the handler call it was passed to. Each `tg_reply_ok`/`tg_reply_error`
/// replaces what an earlier one wrote.
pub struct tg_reply {
    /// The call's content buffer, lent by `CHandler::call_into` for the handler call:
    /// text is copied straight into it, so a reused `tg_result` gets the answer with
    /// no allocation of its own.
    text: String,
    /// What `text` holds, once the handler has written one.
    written: Option<Written>,
    /// The handler ended without an answer (`tg_reply_exited`): outranks `written`.
    exited: bool,
}

/// Sets the tool's answer: the library copies `text[0..len)` (not NUL-terminated; NULL
/// with `len` 0 is the empty answer). Invalid UTF-8 sequences are replaced with
/// U+FFFD. Replaces any earlier reply.
///
/// Errors: `TG_ERR_NULL` (`reply` NULL, or `text` NULL with `len` > 0).
/// Ownership: `text` is borrowed for the call only. Thread-safety: only from the
/// handler that received `reply`, during that call.
///
/// # Safety
/// `reply` is NULL or the `reply` of a handler call still running; `text` is NULL or
/// points to `len` readable bytes.
#[no_mangle]
pub unsafe extern "C" fn tg_reply_ok(
    reply: *mut tg_reply,
    text: *const c_char,
    len: usize,
) -> tg_status {
    // SAFETY: `reply` is NULL or the reply of a running handler call, and the text NULL
    // or readable for its length, as this function's `# Safety` requires: what
    // `set_reply` needs.
    unsafe { set_reply("tg_reply_ok", reply, text, len, Written::Answer) }
}

/// Sets the tool's error message: the call's result becomes `error: ` followed by a
/// copy of `text[0..len)` (invalid UTF-8 replaced with U+FFFD), whatever the handler
/// returns. Replaces any earlier reply. Same rules as `tg_reply_ok`.
///
/// # Safety
/// As `tg_reply_ok`.
#[no_mangle]
pub unsafe extern "C" fn tg_reply_error(
    reply: *mut tg_reply,
    text: *const c_char,
    len: usize,
) -> tg_status {
    // SAFETY: `reply` is NULL or the reply of a running handler call, and the text NULL
    // or readable for its length, as this function's `# Safety` requires: what
    // `set_reply` needs.
    unsafe { set_reply("tg_reply_error", reply, text, len, Written::Error) }
}

/// Reports that the handler ended without an answer: it neither replied nor failed in
/// the ordinary way (a Go tool that called `runtime.Goexit`, as `t.Fatal` does). The
/// call's result is `error: tool NAME exited without an answer`, whatever the handler
/// returns or replied before; the text is the library's, as every host shows it.
///
/// Errors: `TG_ERR_NULL` (`reply` NULL). Thread-safety: only from the handler that
/// received `reply`, during that call.
///
/// # Safety
/// `reply` is NULL or the `reply` of a handler call still running.
#[no_mangle]
pub unsafe extern "C" fn tg_reply_exited(reply: *mut tg_reply) -> tg_status {
    ffi_boundary("tg_reply_exited", std::ptr::null_mut(), || {
        // SAFETY: `reply` is NULL or the reply of a handler call still running (only
        // that handler's thread uses it), as this function's `# Safety` requires: what
        // `arg_mut` needs.
        let reply = unsafe { arg_mut(reply, "reply")? };
        reply.exited = true;
        Ok(())
    })
}

/// # Safety
/// As `tg_reply_ok`.
unsafe fn set_reply(
    func: &'static str,
    reply: *mut tg_reply,
    text: *const c_char,
    len: usize,
    written: Written,
) -> tg_status {
    ffi_boundary(func, std::ptr::null_mut(), || {
        // SAFETY: `reply` is NULL or the reply of a handler call still running (only
        // that handler's thread uses it), as this function's `# Safety` requires: what
        // `arg_mut` needs.
        let reply = unsafe { arg_mut(reply, "reply")? };
        // SAFETY: `text` is NULL or points to its length's readable bytes, unchanged
        // during the call, as this function's `# Safety` requires: what `arg_bytes`
        // needs.
        let text = unsafe { arg_bytes(text, len, "text")? };
        let text = match std::str::from_utf8(text).ok() {
            Some(valid) => std::borrow::Cow::Borrowed(valid),
            None => String::from_utf8_lossy(text),
        };
        // One spare byte: the result keeps the text NUL-terminated without a realloc.
        let room = text.len() + 1;
        if reply.text.capacity() < room {
            // A new call's empty buffer, or a reused one too small: one allocation of
            // the right size (`reserve` would take the slower growth path).
            reply.text = String::with_capacity(room);
        }
        reply.text.clear();
        reply.text.push_str(&text);
        reply.written = Some(written);
        Ok(())
    })
}

/// A C function registered as a tool. Dropping it runs the destructor, which is how
/// "exactly once, after the last call" is kept: the registry drops its handler once
/// the tool is gone and no call holds it any more.
pub(crate) struct CHandler {
    name: String,
    func: tg_handler_fn,
    user_data: *mut c_void,
    destroy: tg_destroy_fn,
}

// SAFETY: `user_data` is only ever passed back to the caller's handler and destructor,
// which the caller documented (tg_handler_fn, tg_destroy_fn) to be callable from any
// thread, concurrently for the handler. The function pointers are plain code.
unsafe impl Send for CHandler {}
// SAFETY: as for Send: `&CHandler` only lets threads call the thread-safe handler.
unsafe impl Sync for CHandler {}

impl CHandler {
    /// Takes responsibility for `user_data` at once: from here on, dropping the value
    /// (for any reason, including a failed registration) runs `destroy`.
    pub(crate) fn new(
        func: tg_handler_fn,
        user_data: *mut c_void,
        destroy: tg_destroy_fn,
    ) -> CHandler {
        CHandler {
            name: String::new(),
            func,
            user_data,
            destroy,
        }
    }

    pub(crate) fn has_func(&self) -> bool {
        self.func.is_some()
    }

    /// The tool name, for the `tool NAME failed` message.
    pub(crate) fn set_name(&mut self, name: &str) {
        name.clone_into(&mut self.name);
    }
}

impl Drop for CHandler {
    fn drop(&mut self) {
        if let Some(destroy) = self.destroy {
            // SAFETY: `destroy` and `user_data` were given together to
            // tg_registry_register, whose contract is that `destroy(user_data)` may be
            // called once, from any thread; Drop runs once.
            unsafe { destroy(self.user_data) };
        }
    }
}

/// The `call_ctx` pointer of one `tg_registry_call`, as the call's [`CallContext`]
/// carries it to the C handler (which gets it back unchanged).
pub(crate) struct CallPointer(pub(crate) *mut c_void);

// SAFETY: the library never dereferences the pointer: it only hands it back to the
// caller's handlers, on the threads `tg_registry_dispatch` documents they run on (the
// caller's promise that `call_ctx` is usable there).
unsafe impl Send for CallPointer {}
// SAFETY: as for Send: `&CallPointer` only lets threads copy the pointer out.
unsafe impl Sync for CallPointer {}

impl CallPointer {
    /// The pointer `cx` carries: the C caller's, or NULL for a call made without one
    /// (from Rust, with no context).
    fn of(cx: &CallContext<'_>) -> *mut c_void {
        cx.data::<CallPointer>()
            .map_or(std::ptr::null_mut(), |p| p.0)
    }
}

impl Handler for CHandler {
    fn call(&self, args: &[u8], cx: &CallContext<'_>) -> Result<String, String> {
        let mut out = String::new();
        match self.call_into(args, cx, &mut out) {
            Written::Answer => Ok(out),
            Written::Error => Err(out),
        }
    }

    #[inline]
    fn call_into(&self, args: &[u8], cx: &CallContext<'_>, out: &mut String) -> Written {
        let Some(func) = self.func else {
            // Registration refuses a NULL handler, so no registered CHandler gets here.
            return self.failed(out);
        };
        // The reply borrows the buffer (a move of three words, no copy) and gives it
        // back below, whatever the handler did.
        let mut reply = tg_reply {
            text: std::mem::take(out),
            written: None,
            exited: false,
        };
        // SAFETY: `func` is the caller's handler, called with what its contract
        // (tg_handler_fn) lists: the registration's user_data, the call's context
        // pointer given back as it came, the argument bytes (alive for the whole call)
        // and a reply that lives on this stack frame until the handler returns.
        // The handler may ask for its dispatched call (`tg_running_call_current`).
        let status = super::running_call::with_current(cx, || unsafe {
            func(
                self.user_data,
                CallPointer::of(cx),
                args.as_ptr().cast(),
                args.len(),
                &mut reply,
            )
        });
        *out = reply.text;
        if reply.exited {
            message::write_tool_exited(out, &self.name);
            return Written::Error;
        }
        match (status == tg_status::TG_OK as RawStatus, reply.written) {
            (_, Some(Written::Error)) => Written::Error,
            // With no reply, `out` is the empty buffer it arrived as: the empty answer.
            (true, _) => Written::Answer,
            (false, _) => self.failed(out),
        }
    }
}

impl CHandler {
    /// `tool NAME failed`: the error of a handler that failed without saying why.
    fn failed(&self, out: &mut String) -> Written {
        message::write_tool_failed(out, &self.name);
        Written::Error
    }
}

#[cfg(test)]
mod tests {
    use std::ffi::{c_char, c_void};

    use super::{tg_reply, tg_reply_exited, tg_reply_ok, CHandler};
    use crate::status::{tg_status, RawStatus};
    use toolgate_core::registry::{CallContext, Handler, Written};

    /// Answers, then reports that it ended without an answer, as a Go tool that wrote
    /// part of a reply before `runtime.Goexit` would.
    unsafe extern "C" fn answers_then_exits(
        _user_data: *mut c_void,
        _call_ctx: *mut c_void,
        _args: *const c_char,
        _args_len: usize,
        reply: *mut tg_reply,
    ) -> RawStatus {
        // SAFETY: `reply` is the live reply of this handler call.
        unsafe {
            tg_reply_ok(reply, b"partial".as_ptr().cast(), 7);
            tg_reply_exited(reply);
        }
        tg_status::TG_OK as RawStatus
    }

    /// The library writes the text, whatever the handler replied or returned.
    #[test]
    fn an_exited_handler_gets_the_librarys_text() {
        let mut handler = CHandler::new(Some(answers_then_exits), std::ptr::null_mut(), None);
        handler.set_name("t");
        let mut out = String::new();
        assert!(matches!(
            handler.call_into(b"{}", &CallContext::NONE, &mut out),
            Written::Error
        ));
        assert_eq!(out, "tool t exited without an answer");
        // SAFETY: NULL is what is being tested.
        let status = unsafe { tg_reply_exited(std::ptr::null_mut()) };
        assert_eq!(status, tg_status::TG_ERR_NULL);
    }
}
