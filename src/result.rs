//! `tg_result`: the outcome of `tg_registry_call`.

use std::ffi::c_char;
use std::sync::OnceLock;

use super::boundary::{
    ffi_boundary, ffi_free, into_handle, out_ptr, text_accessor, value_accessor, CText, CallTexts,
};
use super::error::tg_error;
use super::status::tg_status;
use toolgate_core::registry::tool_message_json;

/// The outcome of one `tg_registry_call`: call id, tool name, content (the tool's
/// answer, or `error: ...` text), whether it is an error, and the tool message to send
/// back to the model. The caller owns it and frees it with `tg_result_free`.
///
/// A result can also be made empty (`tg_result_new`) and filled, again and again, by
/// `tg_registry_call_into`, which reuses its buffers.
///
/// Thread-safety: may be read from several threads at once, while no
/// `tg_registry_call_into` is refilling it.
pub struct tg_result {
    /// The content, the call id and the tool name, in one buffer.
    texts: CallTexts,
    is_error: bool,
    tool_message: OnceLock<CText>,
}

/// Bytes of content a result made for one call has room for before its buffer must
/// grow: most tool answers the model reads are short, and a longer one costs one
/// reallocation.
const FRESH_ROOM: usize = 256;

impl tg_result {
    /// The result of one call: `call` writes the content into an empty buffer and
    /// returns the error flag.
    pub(crate) fn new(
        call_id: &str,
        name: &str,
        call: impl FnOnce(&mut String) -> bool,
    ) -> tg_result {
        tg_result::with_room(call_id, name, FRESH_ROOM, call)
    }

    /// A result with empty texts, for `tg_registry_call_into` to fill.
    fn empty() -> tg_result {
        tg_result::with_room("", "", 0, |_| false)
    }

    fn with_room(
        call_id: &str,
        name: &str,
        room: usize,
        call: impl FnOnce(&mut String) -> bool,
    ) -> tg_result {
        let mut texts = CallTexts::default();
        let is_error = texts.rewrite(call_id, name, room, call);
        tg_result {
            texts,
            is_error,
            tool_message: OnceLock::new(),
        }
    }

    /// Overwrites the result with a new call's: `call` writes the content into the
    /// (emptied) buffer and returns the error flag. The buffer keeps its capacity, so
    /// refilling a result of similar size allocates nothing.
    pub(crate) fn refill(
        &mut self,
        call_id: &str,
        name: &str,
        call: impl FnOnce(&mut String) -> bool,
    ) {
        // Dropped rather than kept: most callers of the reusing path never ask for it.
        self.tool_message.take();
        // Until the call has written its outcome: were anything to unwind through
        // here, a half-written content would not read as a success.
        self.is_error = true;
        self.is_error = self.texts.rewrite(call_id, name, 0, call);
    }

    fn tool_message(&self) -> &CText {
        self.tool_message.get_or_init(|| {
            CText::new(tool_message_json(
                self.texts.call_id().as_str(),
                self.texts.content().as_str(),
            ))
        })
    }
}

/// Makes an empty result (empty texts, not an error) for `tg_registry_call_into` to
/// fill: a loop that reuses one result allocates nothing per call once its buffers
/// have grown to fit.
///
/// On success writes it to `*result_out`; the caller owns it and frees it with
/// `tg_result_free`. Errors: `TG_ERR_NULL` (`result_out` NULL), with the message
/// through `error_out` (when not NULL). Thread-safety: any thread.
///
/// # Safety
/// `result_out` and `error_out` are NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn tg_result_new(
    result_out: *mut *mut tg_result,
    error_out: *mut *mut tg_error,
) -> tg_status {
    ffi_boundary("tg_result_new", error_out, || {
        // SAFETY: `result_out` is NULL or writable, as this function's `# Safety`
        // requires: what `out_ptr` needs.
        let result_out = unsafe { out_ptr(result_out, "result_out")? };
        result_out.write(into_handle(tg_result::empty()));
        Ok(())
    })
}

/// The id of the model's call this result answers (as given to `tg_registry_call`).
///
/// On success writes pointer and length (in bytes, without the terminating NUL) to
/// `*text_out` and `*len_out`; the text is UTF-8, also NUL-terminated, owned by
/// `result` and valid until `tg_result_free(result)`. Errors: `TG_ERR_NULL`.
/// Thread-safety: any thread.
///
/// # Safety
/// `result` is NULL or a live `tg_result`; `text_out` and `len_out` are NULL or
/// writable.
#[no_mangle]
pub unsafe extern "C" fn tg_result_call_id(
    result: *const tg_result,
    text_out: *mut *const c_char,
    len_out: *mut usize,
) -> tg_status {
    ffi_boundary("tg_result_call_id", std::ptr::null_mut(), || {
        // SAFETY: `result` is NULL or a live result, and the out-parameters NULL or
        // writable, as this function's `# Safety` requires: what `text_accessor` needs.
        unsafe {
            text_accessor(result, "result", text_out, len_out, |r| {
                Ok(r.texts.call_id())
            })
        }
    })
}

/// The name of the tool that was called (as given to `tg_registry_call`). Same rules
/// as `tg_result_call_id`.
///
/// # Safety
/// As `tg_result_call_id`.
#[no_mangle]
pub unsafe extern "C" fn tg_result_name(
    result: *const tg_result,
    text_out: *mut *const c_char,
    len_out: *mut usize,
) -> tg_status {
    ffi_boundary("tg_result_name", std::ptr::null_mut(), || {
        // SAFETY: `result` is NULL or live, and the out-parameters NULL or writable, as
        // this function's `# Safety` requires: what `text_accessor` needs.
        unsafe { text_accessor(result, "result", text_out, len_out, |r| Ok(r.texts.name())) }
    })
}

/// The content: the tool's answer, or for a failure `error: ` and a message the model
/// can act on. Same rules as `tg_result_call_id` (the content may contain NUL bytes if
/// a handler put them there: use the length).
///
/// # Safety
/// As `tg_result_call_id`.
#[no_mangle]
pub unsafe extern "C" fn tg_result_content(
    result: *const tg_result,
    text_out: *mut *const c_char,
    len_out: *mut usize,
) -> tg_status {
    ffi_boundary("tg_result_content", std::ptr::null_mut(), || {
        // SAFETY: `result` is NULL or a live result, and the out-parameters NULL or
        // writable, as this function's `# Safety` requires: what `text_accessor` needs.
        unsafe {
            text_accessor(result, "result", text_out, len_out, |r| {
                Ok(r.texts.content())
            })
        }
    })
}

/// Whether the call failed (unknown tool, invalid arguments, handler error): on
/// success writes it to `*value_out`. Errors: `TG_ERR_NULL`. Thread-safety: any thread.
///
/// # Safety
/// `result` is NULL or a live `tg_result`; `value_out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn tg_result_is_error(
    result: *const tg_result,
    value_out: *mut bool,
) -> tg_status {
    ffi_boundary("tg_result_is_error", std::ptr::null_mut(), || {
        // SAFETY: `result` is NULL or live, and the out-parameter NULL or writable, as
        // this function's `# Safety` requires: what `value_accessor` needs.
        unsafe { value_accessor(result, "result", value_out, |r| r.is_error) }
    })
}

/// The tool message answering the call, compact JSON
/// `{"role":"tool","tool_call_id":ID,"content":CONTENT}`. Same rules as
/// `tg_result_call_id`.
///
/// # Safety
/// As `tg_result_call_id`.
#[no_mangle]
pub unsafe extern "C" fn tg_result_tool_message(
    result: *const tg_result,
    text_out: *mut *const c_char,
    len_out: *mut usize,
) -> tg_status {
    ffi_boundary("tg_result_tool_message", std::ptr::null_mut(), || {
        // SAFETY: `result` is NULL or a live result, and the out-parameters NULL or
        // writable, as this function's `# Safety` requires: what `text_accessor` needs.
        unsafe {
            text_accessor(
                result,
                "result",
                text_out,
                len_out,
                |r| Ok(r.tool_message()),
            )
        }
    })
}

/// Frees a result. NULL is a no-op.
///
/// Ownership: takes ownership of `result`; texts obtained from it are invalid
/// afterwards. Thread-safety: must not race with other uses of `result`.
///
/// # Safety
/// `result` is NULL or a live `tg_result` not freed before.
#[no_mangle]
pub unsafe extern "C" fn tg_result_free(result: *mut tg_result) {
    // SAFETY: `result` is NULL or a handle this library returned and nobody freed or
    // uses any more, as this function's `# Safety` requires: what `ffi_free` needs.
    unsafe { ffi_free(result) }
}
