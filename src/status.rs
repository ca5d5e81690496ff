//! `tg_status`: what every fallible call returns, and `tg_status_str`.

use std::ffi::c_char;

use super::boundary::ffi_boundary_value;

/// The outcome of a call. `TG_OK` is 0; every other value is a failure whose message
/// came back through the call's `error_out`. Values are explicit and never reused:
/// a new failure kind gets a new number.
///
/// In C the type is `int32_t` (in C++ an enum with `int32_t` underneath), so a status
/// read from anywhere, even an unknown value, is safe to pass to `tg_status_str`.
#[repr(i32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum tg_status {
    /// Success.
    TG_OK = 0,
    /// A required pointer argument was NULL (or a text pointer was NULL with a
    /// non-zero length).
    TG_ERR_NULL = 1,
    /// Text that must be UTF-8 (a tool name, a call id, a description) was not.
    TG_ERR_UTF8 = 2,
    /// An argument's value is outside its domain: an unknown name policy, unknown
    /// flag bits.
    TG_ERR_ARGUMENT = 3,
    /// An index past the end of a list.
    TG_ERR_RANGE = 4,
    /// A schema did not compile (the error's pointer and keyword say where).
    TG_ERR_SCHEMA = 5,
    /// A tool name does not satisfy the registry's name policy.
    TG_ERR_NAME = 6,
    /// A tool of that name is already registered and `TG_REGISTER_OVERRIDE` was not given.
    TG_ERR_DUPLICATE = 7,
    /// A tool's parameters schema does not require a JSON object (`"type": "object"`).
    TG_ERR_NOT_OBJECT = 8,
    /// No tool of that name is registered.
    TG_ERR_NOT_FOUND = 9,
    /// For handlers: return it (or any non-`TG_OK` value) to report that the tool failed.
    TG_ERR_HANDLER = 10,
    /// An internal error: a panic inside toolgate was caught at the boundary. Please
    /// report it; the process is unharmed.
    TG_ERR_PANIC = 11,
    /// A provider's response (an MCP request) is not JSON, not in its dialect's shape,
    /// or holds a malformed tool call (`tg_calls_read`; the message names the call).
    TG_ERR_RESPONSE = 12,
}

// The numbers are the core's (`toolgate_core::Status`, which every host numbers its
// failures by); cbindgen needs literals here, so each is checked against the core at
// compile time, and the texts by a test.
const _: () = {
    use toolgate_core::Status as S;
    let pairs = [
        (tg_status::TG_OK, S::Ok),
        (tg_status::TG_ERR_NULL, S::Null),
        (tg_status::TG_ERR_UTF8, S::Utf8),
        (tg_status::TG_ERR_ARGUMENT, S::Argument),
        (tg_status::TG_ERR_RANGE, S::Range),
        (tg_status::TG_ERR_SCHEMA, S::Schema),
        (tg_status::TG_ERR_NAME, S::Name),
        (tg_status::TG_ERR_DUPLICATE, S::Duplicate),
        (tg_status::TG_ERR_NOT_OBJECT, S::NotObject),
        (tg_status::TG_ERR_NOT_FOUND, S::NotFound),
        (tg_status::TG_ERR_HANDLER, S::Handler),
        (tg_status::TG_ERR_PANIC, S::Panic),
        (tg_status::TG_ERR_RESPONSE, S::Response),
    ];
    assert!(pairs.len() == S::ALL.len(), "one tg_status per core Status");
    let mut i = 0;
    while i < pairs.len() {
        assert!(
            pairs[i].0 as i32 == pairs[i].1 as i32,
            "tg_status numbers are the core's"
        );
        i += 1;
    }
};

impl From<toolgate_core::Status> for tg_status {
    fn from(status: toolgate_core::Status) -> tg_status {
        use toolgate_core::Status as S;
        match status {
            S::Ok => tg_status::TG_OK,
            S::Null => tg_status::TG_ERR_NULL,
            S::Utf8 => tg_status::TG_ERR_UTF8,
            S::Argument => tg_status::TG_ERR_ARGUMENT,
            S::Range => tg_status::TG_ERR_RANGE,
            S::Schema => tg_status::TG_ERR_SCHEMA,
            S::Name => tg_status::TG_ERR_NAME,
            S::Duplicate => tg_status::TG_ERR_DUPLICATE,
            S::NotObject => tg_status::TG_ERR_NOT_OBJECT,
            S::NotFound => tg_status::TG_ERR_NOT_FOUND,
            S::Handler => tg_status::TG_ERR_HANDLER,
            S::Panic => tg_status::TG_ERR_PANIC,
            S::Response => tg_status::TG_ERR_RESPONSE,
        }
    }
}

/// A status as it arrives from C (`tg_status_str`'s argument, a handler's return
/// value): any `int32_t`, not only the values of [`tg_status`]. Rendered `tg_status`
/// in the header.
pub type RawStatus = i32;

impl tg_status {
    /// The static, NUL-terminated text for a raw status value.
    fn text(raw: RawStatus) -> &'static str {
        const TABLE: &[(tg_status, &str)] = &[
            (tg_status::TG_OK, "TG_OK: success\0"),
            (
                tg_status::TG_ERR_NULL,
                "TG_ERR_NULL: a required pointer argument is NULL\0",
            ),
            (
                tg_status::TG_ERR_UTF8,
                "TG_ERR_UTF8: text that must be UTF-8 is not\0",
            ),
            (
                tg_status::TG_ERR_ARGUMENT,
                "TG_ERR_ARGUMENT: an argument value is outside its domain\0",
            ),
            (
                tg_status::TG_ERR_RANGE,
                "TG_ERR_RANGE: index out of range\0",
            ),
            (
                tg_status::TG_ERR_SCHEMA,
                "TG_ERR_SCHEMA: the schema does not compile\0",
            ),
            (
                tg_status::TG_ERR_NAME,
                "TG_ERR_NAME: the tool name is not allowed by the registry's policy\0",
            ),
            (
                tg_status::TG_ERR_DUPLICATE,
                "TG_ERR_DUPLICATE: a tool of that name is already registered\0",
            ),
            (
                tg_status::TG_ERR_NOT_OBJECT,
                "TG_ERR_NOT_OBJECT: the parameters schema does not require an object\0",
            ),
            (
                tg_status::TG_ERR_NOT_FOUND,
                "TG_ERR_NOT_FOUND: no tool of that name is registered\0",
            ),
            (
                tg_status::TG_ERR_HANDLER,
                "TG_ERR_HANDLER: the tool's handler failed\0",
            ),
            (
                tg_status::TG_ERR_PANIC,
                "TG_ERR_PANIC: internal error (a panic was caught)\0",
            ),
            (
                tg_status::TG_ERR_RESPONSE,
                "TG_ERR_RESPONSE: the tool calls of the provider's response cannot be read\0",
            ),
        ];
        TABLE
            .iter()
            .find(|(status, _)| *status as RawStatus == raw)
            .map_or("unknown tg_status value\0", |(_, text)| text)
    }
}

/// Static text naming and describing `status`, e.g. `"TG_ERR_NULL: a required pointer
/// argument is NULL"`; for a value that is not a `tg_status`,
/// `"unknown tg_status value"`.
///
/// Ownership: the returned string is static, NUL-terminated, never NULL; do not free it.
/// Thread-safety: may be called from any thread at any time.
#[no_mangle]
pub extern "C" fn tg_status_str(status: RawStatus) -> *const c_char {
    const FALLBACK: &str = "unknown tg_status value\0";
    ffi_boundary_value(FALLBACK.as_ptr().cast(), || {
        tg_status::text(status).as_ptr().cast()
    })
}

/// `"error: call cancelled"`: the content a binding gives a call its host cancelled
/// before the tool ran (a Go `context` already cancelled or past its deadline), so
/// that every host shows the library's text for it.
///
/// Ownership: the returned string is static, NUL-terminated, never NULL; do not free it.
/// Thread-safety: may be called from any thread at any time.
#[no_mangle]
pub extern "C" fn tg_call_cancelled_content() -> *const c_char {
    const TEXT: &str = "error: call cancelled\0";
    const _: () = assert!(
        TEXT.len() == toolgate_core::registry::message::CALL_CANCELLED.len() + 1,
        "TEXT is CALL_CANCELLED and a NUL"
    );
    ffi_boundary_value(TEXT.as_ptr().cast(), || TEXT.as_ptr().cast())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_text_is_nul_terminated_and_unknown_values_have_text() {
        for raw in -3..40 {
            let text = tg_status::text(raw);
            assert!(text.ends_with('\0'));
            assert_eq!(text.matches('\0').count(), 1);
        }
        assert!(tg_status::text(0).starts_with("TG_OK"));
        assert!(tg_status::text(11).starts_with("TG_ERR_PANIC"));
        assert!(tg_status::text(12).starts_with("TG_ERR_RESPONSE"));
        assert_eq!(tg_status::text(13), "unknown tg_status value\0");
        assert_eq!(tg_status::text(-1), "unknown tg_status value\0");
    }

    #[test]
    fn every_text_is_the_core_name_and_description() {
        for status in toolgate_core::Status::ALL {
            assert_eq!(
                tg_status::text(status.code()),
                format!("TG_{}: {}\0", status.name(), status.description())
            );
            assert_eq!(tg_status::from(status) as i32, status.code());
        }
    }

    #[test]
    fn the_cancelled_content_is_the_catalogue_text() {
        // SAFETY: the pointer is static and NUL-terminated (the function's contract).
        let text = unsafe { std::ffi::CStr::from_ptr(tg_call_cancelled_content()) };
        assert_eq!(
            text.to_str().unwrap(),
            toolgate_core::registry::message::CALL_CANCELLED
        );
    }
}
