//! `tg_result`: the outcome of `tg_registry_call`.

use std::ffi::c_char;
use std::sync::OnceLock;

use super::boundary::{ffi_boundary, ffi_free, text_accessor, value_accessor, CText, CTextPair};
use super::status::tg_status;
use crate::registry::tool_message_json;

/// The outcome of one `tg_registry_call`: call id, tool name, content (the tool's
/// answer, or `error: ...` text), whether it is an error, and the tool message to send
/// back to the model. The caller owns it and frees it with `tg_result_free`.
///
/// Thread-safety: immutable; may be read from several threads at once.
pub struct tg_result {
    /// The call id, then the tool name.
    call_id_and_name: CTextPair,
    content: CText,
    is_error: bool,
    tool_message: OnceLock<CText>,
}

impl tg_result {
    pub(crate) fn new(call_id: &str, name: &str, content: String, is_error: bool) -> tg_result {
        tg_result {
            call_id_and_name: CTextPair::new(call_id, name),
            content: CText::new(content),
            is_error,
            tool_message: OnceLock::new(),
        }
    }

    fn tool_message(&self) -> &CText {
        self.tool_message.get_or_init(|| {
            CText::new(tool_message_json(
                self.call_id_and_name.first().as_str(),
                self.content.as_str(),
            ))
        })
    }
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
        // SAFETY: forwarded contract of this function.
        unsafe {
            text_accessor(result, "result", text_out, len_out, |r| {
                Ok(r.call_id_and_name.first())
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
        // SAFETY: forwarded contract of this function.
        unsafe {
            text_accessor(result, "result", text_out, len_out, |r| {
                Ok(r.call_id_and_name.second())
            })
        }
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
        // SAFETY: forwarded contract of this function.
        unsafe { text_accessor(result, "result", text_out, len_out, |r| Ok(&r.content)) }
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
        // SAFETY: forwarded contract of this function.
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
        // SAFETY: forwarded contract of this function.
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
    // SAFETY: forwarded contract of this function.
    unsafe { ffi_free(result) }
}
