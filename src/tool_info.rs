//! `tg_tool_info`: what `tg_registry_describe` reports about one tool.

use std::ffi::c_char;

use super::boundary::{ffi_boundary, ffi_free, text_accessor, value_accessor, CText};
use super::status::tg_status;
use toolgate_core::registry::ToolInfo;

/// One registered tool as `tg_registry_describe` saw it (a snapshot: later changes to
/// the registry do not affect it). The caller owns it and frees it with
/// `tg_tool_info_free`.
///
/// Thread-safety: immutable; may be read from several threads at once.
pub struct tg_tool_info {
    name: CText,
    description: CText,
    parameters: CText,
    output_schema: Option<CText>,
    idempotent: bool,
    timeout_ms: u64,
}

impl tg_tool_info {
    pub(crate) fn new(info: ToolInfo) -> tg_tool_info {
        tg_tool_info {
            name: CText::new(info.name),
            description: CText::new(info.description),
            parameters: CText::new(info.parameters),
            output_schema: info.output_schema.map(CText::new),
            idempotent: info.idempotent,
            timeout_ms: info.timeout_ms,
        }
    }
}

/// The tool's name.
///
/// On success writes pointer and length (in bytes, without the terminating NUL) to
/// `*text_out` and `*len_out`; the text is UTF-8, also NUL-terminated, owned by `info`
/// and valid until `tg_tool_info_free(info)`. Errors: `TG_ERR_NULL`.
/// Thread-safety: any thread.
///
/// # Safety
/// `info` is NULL or a live `tg_tool_info`; `text_out` and `len_out` are NULL or
/// writable.
#[no_mangle]
pub unsafe extern "C" fn tg_tool_info_name(
    info: *const tg_tool_info,
    text_out: *mut *const c_char,
    len_out: *mut usize,
) -> tg_status {
    ffi_boundary("tg_tool_info_name", std::ptr::null_mut(), || {
        // SAFETY: `info` is NULL or live, and the out-parameters NULL or writable, as
        // this function's `# Safety` requires: what `text_accessor` needs.
        unsafe { text_accessor(info, "info", text_out, len_out, |i| Ok(&i.name)) }
    })
}

/// The tool's description (empty when it has none). Same rules as `tg_tool_info_name`.
///
/// # Safety
/// As `tg_tool_info_name`.
#[no_mangle]
pub unsafe extern "C" fn tg_tool_info_description(
    info: *const tg_tool_info,
    text_out: *mut *const c_char,
    len_out: *mut usize,
) -> tg_status {
    ffi_boundary("tg_tool_info_description", std::ptr::null_mut(), || {
        // SAFETY: `info` is NULL or live, and the out-parameters NULL or writable, as
        // this function's `# Safety` requires: what `text_accessor` needs.
        unsafe { text_accessor(info, "info", text_out, len_out, |i| Ok(&i.description)) }
    })
}

/// The tool's parameters schema as compact JSON, keys in the author's order
/// (`{"type":"object"}` when it was registered without one). Same rules as
/// `tg_tool_info_name`.
///
/// # Safety
/// As `tg_tool_info_name`.
#[no_mangle]
pub unsafe extern "C" fn tg_tool_info_parameters(
    info: *const tg_tool_info,
    text_out: *mut *const c_char,
    len_out: *mut usize,
) -> tg_status {
    ffi_boundary("tg_tool_info_parameters", std::ptr::null_mut(), || {
        // SAFETY: `info` is NULL or live, and the out-parameters NULL or writable, as
        // this function's `# Safety` requires: what `text_accessor` needs.
        unsafe { text_accessor(info, "info", text_out, len_out, |i| Ok(&i.parameters)) }
    })
}

/// The tool's output schema as compact JSON, keys in the author's order, when it was
/// registered with one (`tg_tool_spec.output_schema`); when it was not, `*text_out` is
/// NULL and `*len_out` 0. Otherwise the same rules as `tg_tool_info_name`.
///
/// # Safety
/// As `tg_tool_info_name`.
#[no_mangle]
pub unsafe extern "C" fn tg_tool_info_output_schema(
    info: *const tg_tool_info,
    text_out: *mut *const c_char,
    len_out: *mut usize,
) -> tg_status {
    ffi_boundary("tg_tool_info_output_schema", std::ptr::null_mut(), || {
        // SAFETY: `info` is NULL or live, and the out-parameters NULL or writable, as
        // this function's `# Safety` requires: what `text_accessor` needs.
        unsafe {
            text_accessor(info, "info", text_out, len_out, |i| {
                Ok(i.output_schema.as_ref())
            })
        }
    })
}

/// Whether the tool was registered as idempotent: on success writes it to
/// `*value_out`. Errors: `TG_ERR_NULL`. Thread-safety: any thread.
///
/// # Safety
/// `info` is NULL or a live `tg_tool_info`; `value_out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn tg_tool_info_idempotent(
    info: *const tg_tool_info,
    value_out: *mut bool,
) -> tg_status {
    ffi_boundary("tg_tool_info_idempotent", std::ptr::null_mut(), || {
        // SAFETY: `info` is NULL or live, and the out-parameter NULL or writable, as
        // this function's `# Safety` requires: what `value_accessor` needs.
        unsafe { value_accessor(info, "info", value_out, |i| i.idempotent) }
    })
}

/// The tool's timeout in milliseconds (0 means none): on success writes it to
/// `*value_out`. Errors: `TG_ERR_NULL`. Thread-safety: any thread.
///
/// # Safety
/// `info` is NULL or a live `tg_tool_info`; `value_out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn tg_tool_info_timeout_ms(
    info: *const tg_tool_info,
    value_out: *mut u64,
) -> tg_status {
    ffi_boundary("tg_tool_info_timeout_ms", std::ptr::null_mut(), || {
        // SAFETY: `info` is NULL or live, and the out-parameter NULL or writable, as
        // this function's `# Safety` requires: what `value_accessor` needs.
        unsafe { value_accessor(info, "info", value_out, |i| i.timeout_ms) }
    })
}

/// Frees a `tg_tool_info`. NULL is a no-op.
///
/// Ownership: takes ownership of `info`; texts obtained from it are invalid
/// afterwards. Thread-safety: must not race with other uses of `info`.
///
/// # Safety
/// `info` is NULL or a live `tg_tool_info` not freed before.
#[no_mangle]
pub unsafe extern "C" fn tg_tool_info_free(info: *mut tg_tool_info) {
    // SAFETY: `info` is NULL or a handle this library returned and nobody freed or uses
    // any more, as this function's `# Safety` requires: what `ffi_free` needs.
    unsafe { ffi_free(info) }
}
