//! `tg_error`: the message of a failed call, handed back through that call's
//! `error_out` parameter.

use std::ffi::c_char;

use super::boundary::{
    arg_ref, ffi_boundary, ffi_boundary_value, ffi_free, text_accessor, CText, Failure,
};
use super::status::tg_status;

/// Why a call failed: its status, a message, and for schema errors the location in
/// the schema. Created by a failing call that was given a non-NULL `error_out`; the
/// caller owns it and frees it with `tg_error_free`.
///
/// Thread-safety: immutable; may be read from several threads at once.
pub struct tg_error {
    status: tg_status,
    message: CText,
    pointer: CText,
    keyword: CText,
}

impl tg_error {
    pub(crate) fn from_failure(func: &str, failure: Failure) -> tg_error {
        let message = if failure.name_call {
            format!("{func}: {}", failure.message)
        } else {
            failure.message
        };
        tg_error {
            status: failure.status,
            message: CText::new(message),
            pointer: CText::new(failure.pointer),
            keyword: CText::new(failure.keyword),
        }
    }
}

/// The status of the call that produced `error` (never `TG_OK`); `TG_ERR_NULL` when
/// `error` is NULL.
///
/// Ownership: `error` is borrowed. Thread-safety: any thread.
///
/// # Safety
/// `error` is NULL or a live `tg_error`.
#[no_mangle]
pub unsafe extern "C" fn tg_error_status(error: *const tg_error) -> tg_status {
    ffi_boundary_value(tg_status::TG_ERR_PANIC, || {
        // SAFETY: per this function's contract `error` is NULL or a live tg_error.
        unsafe { arg_ref(error, "error") }.map_or_else(|failure| failure.status, |e| e.status)
    })
}

/// The error's message, e.g. `tool name "a b" does not match ^[A-Za-z0-9_-]{1,64}$`
/// or `#/properties/x: unsupported keyword "format"`.
///
/// On success writes pointer and length (in bytes, without the terminating NUL) to
/// `*text_out` and `*len_out`. The text is UTF-8, also NUL-terminated, owned by
/// `error` and valid until `tg_error_free(error)`.
///
/// Errors: `TG_ERR_NULL` when any argument is NULL. Thread-safety: any thread.
///
/// # Safety
/// `error` is NULL or a live `tg_error`; `text_out` and `len_out` are NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn tg_error_message(
    error: *const tg_error,
    text_out: *mut *const c_char,
    len_out: *mut usize,
) -> tg_status {
    ffi_boundary("tg_error_message", std::ptr::null_mut(), || {
        // SAFETY: `error` is NULL or live, and the out-parameters NULL or writable, as
        // this function's `# Safety` requires: what `text_accessor` needs.
        unsafe { text_accessor(error, "error", text_out, len_out, |e| Ok(&e.message)) }
    })
}

/// For a schema compile error (`TG_ERR_SCHEMA`): the RFC 6901 JSON Pointer into the
/// schema document where the offending keyword is (`""` is the root). Empty for
/// other errors. Same ownership and rules as `tg_error_message`.
///
/// # Safety
/// As `tg_error_message`.
#[no_mangle]
pub unsafe extern "C" fn tg_error_pointer(
    error: *const tg_error,
    text_out: *mut *const c_char,
    len_out: *mut usize,
) -> tg_status {
    ffi_boundary("tg_error_pointer", std::ptr::null_mut(), || {
        // SAFETY: `error` is NULL or live, and the out-parameters NULL or writable, as
        // this function's `# Safety` requires: what `text_accessor` needs.
        unsafe { text_accessor(error, "error", text_out, len_out, |e| Ok(&e.pointer)) }
    })
}

/// For a schema compile error (`TG_ERR_SCHEMA`): the offending keyword (`format`,
/// `pattern`, ...; empty when the schema itself is not JSON or not a schema). Empty for
/// other errors. Same ownership and rules as `tg_error_message`.
///
/// # Safety
/// As `tg_error_message`.
#[no_mangle]
pub unsafe extern "C" fn tg_error_keyword(
    error: *const tg_error,
    text_out: *mut *const c_char,
    len_out: *mut usize,
) -> tg_status {
    ffi_boundary("tg_error_keyword", std::ptr::null_mut(), || {
        // SAFETY: `error` is NULL or live, and the out-parameters NULL or writable, as
        // this function's `# Safety` requires: what `text_accessor` needs.
        unsafe { text_accessor(error, "error", text_out, len_out, |e| Ok(&e.keyword)) }
    })
}

/// Frees an error returned through an `error_out` parameter. NULL is a no-op.
///
/// Ownership: takes ownership of `error`; it and every text obtained from it are
/// invalid afterwards. Thread-safety: must not race with other uses of `error`.
///
/// # Safety
/// `error` is NULL or a live `tg_error` not freed before.
#[no_mangle]
pub unsafe extern "C" fn tg_error_free(error: *mut tg_error) {
    // SAFETY: `error` is NULL or a handle this library returned and nobody freed or
    // uses any more, as this function's `# Safety` requires: what `ffi_free` needs.
    unsafe { ffi_free(error) }
}
