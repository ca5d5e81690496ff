//! `tg_text`: a string the library allocated for the caller (definitions, names).

use std::ffi::c_char;

use super::boundary::{ffi_boundary, ffi_free, text_accessor, CText};
use super::status::tg_status;

/// A string allocated by the library for the caller (`tg_registry_definitions`,
/// `tg_registry_names`). The caller owns it and frees it with `tg_text_free`.
///
/// Thread-safety: immutable; may be read from several threads at once.
pub struct tg_text {
    text: CText,
}

impl tg_text {
    pub(crate) fn new(text: &str) -> tg_text {
        tg_text {
            text: CText::from(text),
        }
    }
}

/// The text's bytes: on success writes pointer and length (in bytes, without the
/// terminating NUL) to `*text_out` and `*len_out`. The text is UTF-8, also
/// NUL-terminated, owned by `text` and valid until `tg_text_free(text)`.
///
/// Errors: `TG_ERR_NULL` when any argument is NULL. Thread-safety: any thread.
///
/// # Safety
/// `text` is NULL or a live `tg_text`; `text_out` and `len_out` are NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn tg_text_data(
    text: *const tg_text,
    text_out: *mut *const c_char,
    len_out: *mut usize,
) -> tg_status {
    ffi_boundary("tg_text_data", std::ptr::null_mut(), || {
        // SAFETY: `text` is NULL or live, and the out-parameters NULL or writable, as
        // this function's `# Safety` requires: what `text_accessor` needs.
        unsafe { text_accessor(text, "text", text_out, len_out, |t| Ok(&t.text)) }
    })
}

/// Frees a `tg_text`. NULL is a no-op.
///
/// Ownership: takes ownership of `text`; pointers obtained from `tg_text_data` are
/// invalid afterwards. Thread-safety: must not race with other uses of `text`.
///
/// # Safety
/// `text` is NULL or a live `tg_text` not freed before.
#[no_mangle]
pub unsafe extern "C" fn tg_text_free(text: *mut tg_text) {
    // SAFETY: `text` is NULL or a handle this library returned and nobody freed or uses
    // any more, as this function's `# Safety` requires: what `ffi_free` needs.
    unsafe { ffi_free(text) }
}
