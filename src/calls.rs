//! `tg_calls`: the tool calls read from a provider's response (`tg_calls_read`).

use std::ffi::c_char;

use super::boundary::{
    arg_bytes, ffi_boundary, ffi_free, into_handle, out_ptr, text_accessor, value_accessor, CText,
    Failure, FfiResult, NulTerminated,
};
use super::dialect::{dialect, RawDialect};
use super::error::tg_error;
use super::status::tg_status;
use toolgate_dialect::{read_calls, ToolCall};

/// The tool calls a provider's response asks for, in the order the provider listed
/// them (count 0: a response without calls). Made by `tg_calls_read`; the caller owns
/// it and frees it with `tg_calls_free`.
///
/// Each call has an id (the one its result must carry: give it to `tg_registry_call`
/// as `call_id`; empty for a Gemini call without one; for MCP the JSON-RPC id's JSON
/// text, `7` or `"req-1"`), the tool's name as the provider sent it, and the argument
/// bytes exactly as the provider sent them (the decoded text of OpenAI's arguments
/// string, the bytes of the argument object elsewhere; empty when the call sent none,
/// which the registry reads as `{}`).
///
/// Thread-safety: immutable; may be read from several threads at once.
pub struct tg_calls {
    calls: Vec<Call>,
}

struct Call {
    id: CText,
    name: CText,
    arguments: CBytes,
}

/// Argument bytes with a NUL appended. Bytes, not text: the provider's arguments are
/// passed on as they came, to be validated (and refused, if need be) by the registry.
struct CBytes(Vec<u8>);

impl CBytes {
    fn new(mut bytes: Vec<u8>) -> CBytes {
        bytes.push(0);
        CBytes(bytes)
    }
}

/// One text of a call, as its accessor hands it to C: pointer and length of bytes
/// followed by a NUL, owned by the list.
#[derive(Clone, Copy)]
struct Field(*const c_char, usize);

impl NulTerminated for Field {
    fn ptr(&self) -> *const c_char {
        self.0
    }
    fn len(&self) -> usize {
        self.1
    }
}

impl Call {
    fn id(&self) -> Field {
        Field(self.id.ptr(), self.id.len())
    }
    fn name(&self) -> Field {
        Field(self.name.ptr(), self.name.len())
    }
    fn arguments(&self) -> Field {
        Field(self.arguments.0.as_ptr().cast(), self.arguments.0.len() - 1)
    }
}

impl tg_calls {
    fn new(calls: Vec<ToolCall>) -> tg_calls {
        tg_calls {
            calls: calls
                .into_iter()
                .map(|c| Call {
                    id: CText::new(c.id),
                    name: CText::new(c.name),
                    arguments: CBytes::new(c.arguments),
                })
                .collect(),
        }
    }

    fn call(&self, index: usize) -> FfiResult<&Call> {
        self.calls.get(index).ok_or_else(|| {
            Failure::argument(
                tg_status::TG_ERR_RANGE,
                "index",
                &format!(
                    "is {index}, past the {} calls of the list",
                    self.calls.len()
                ),
            )
        })
    }
}

/// Reads the tool calls of `response[0..len)`, a provider's response in `dialect`'s
/// shape, read strictly (RFC 8259 JSON, duplicate keys refused):
///
/// - `TG_DIALECT_OPENAI_CHAT`: a Chat Completions response (`choices[0].message`) or
///   the assistant message itself;
/// - `TG_DIALECT_OPENAI_RESPONSES`: a response (its `function_call` output items) or
///   its `output` array;
/// - `TG_DIALECT_ANTHROPIC`: a Messages response or the assistant message (its
///   `tool_use` blocks);
/// - `TG_DIALECT_GEMINI`: a `GenerateContentResponse` (`candidates[0].content`) or a
///   `Content` (its `functionCall` parts);
/// - `TG_DIALECT_MCP`: a `tools/call` request, or a JSON array of JSON-RPC messages.
///
/// A response without calls (text only) gives an empty list. The arguments are not
/// checked here: `tg_registry_call` validates them and its result answers the call.
///
/// On success writes a new `tg_calls` to `*calls_out`; the caller frees it with
/// `tg_calls_free`. Errors: `TG_ERR_NULL`, `TG_ERR_ARGUMENT` (`dialect` is not a
/// `tg_dialect` value), `TG_ERR_RESPONSE` (the response is not JSON, not the dialect's
/// shape, or a call in it is malformed: the message names the call, e.g.
/// `tool call 1 (openai-chat): missing "id"`), with the message through `error_out`
/// (when not NULL).
///
/// Ownership: `response` is borrowed for the call (the calls copy what they keep).
/// Thread-safety: any thread.
///
/// # Safety
/// `response` is NULL or points to `len` readable bytes; `calls_out` and `error_out`
/// are NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn tg_calls_read(
    dialect: RawDialect,
    response: *const c_char,
    len: usize,
    calls_out: *mut *mut tg_calls,
    error_out: *mut *mut tg_error,
) -> tg_status {
    ffi_boundary("tg_calls_read", error_out, || {
        // SAFETY: `response` is NULL or points to `len` readable bytes, unchanged
        // during the call, as this function's `# Safety` requires: what `arg_bytes`
        // needs.
        let response = unsafe { arg_bytes(response, len, "response")? };
        // SAFETY: `calls_out` is NULL or writable, as this function's `# Safety`
        // requires: what `out_ptr` needs.
        let calls_out = unsafe { out_ptr(calls_out, "calls_out")? };
        let dialect = self::dialect(dialect)?;
        let calls = read_calls(dialect, response)
            .map_err(|e| Failure::new(tg_status::TG_ERR_RESPONSE, e.message))?;
        calls_out.write(into_handle(tg_calls::new(calls)));
        Ok(())
    })
}

/// The number of calls: on success writes it to `*value_out`. Errors: `TG_ERR_NULL`.
/// Thread-safety: any thread.
///
/// # Safety
/// `calls` is NULL or a live `tg_calls`; `value_out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn tg_calls_count(
    calls: *const tg_calls,
    value_out: *mut usize,
) -> tg_status {
    ffi_boundary("tg_calls_count", std::ptr::null_mut(), || {
        // SAFETY: `calls` is NULL or live, and the out-parameter NULL or writable, as
        // this function's `# Safety` requires: what `value_accessor` needs.
        unsafe { value_accessor(calls, "calls", value_out, |c| c.calls.len()) }
    })
}

/// The body of the three per-call accessors.
///
/// # Safety
/// As the accessors.
unsafe fn call_text(
    func: &'static str,
    calls: *const tg_calls,
    index: usize,
    text_out: *mut *const c_char,
    len_out: *mut usize,
    field: fn(&Call) -> Field,
) -> tg_status {
    ffi_boundary(func, std::ptr::null_mut(), || {
        // SAFETY: `calls` is NULL or a live list, and the out-parameters NULL or
        // writable, as this function's `# Safety` requires: what `text_accessor` needs.
        unsafe {
            text_accessor(calls, "calls", text_out, len_out, |c| {
                Ok(field(c.call(index)?))
            })
        }
    })
}

/// The id of call `index`, the one its result must carry (`call_id` of
/// `tg_registry_call`): empty for a Gemini call without one; for MCP the JSON-RPC id's
/// JSON text (`7`, `"req-1"`).
///
/// On success writes pointer and length (in bytes, without the terminating NUL) to
/// `*text_out` and `*len_out`; the text is UTF-8, also NUL-terminated, owned by
/// `calls` and valid until `tg_calls_free(calls)`.
///
/// Errors: `TG_ERR_NULL` when a pointer argument is NULL, `TG_ERR_RANGE` when
/// `index >= count`. Thread-safety: any thread.
///
/// # Safety
/// `calls` is NULL or a live `tg_calls`; `text_out` and `len_out` are NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn tg_calls_id(
    calls: *const tg_calls,
    index: usize,
    text_out: *mut *const c_char,
    len_out: *mut usize,
) -> tg_status {
    // SAFETY: `calls` is NULL or a live list, and the out-parameters NULL or writable,
    // as this function's `# Safety` requires: what `call_text` needs.
    unsafe { call_text("tg_calls_id", calls, index, text_out, len_out, Call::id) }
}

/// The tool name of call `index`, as the provider sent it (`name` of
/// `tg_registry_call`, which also reaches a dotted tool by the spelling a provider
/// that refuses dots was given). Same rules as `tg_calls_id`.
///
/// # Safety
/// As `tg_calls_id`.
#[no_mangle]
pub unsafe extern "C" fn tg_calls_name(
    calls: *const tg_calls,
    index: usize,
    text_out: *mut *const c_char,
    len_out: *mut usize,
) -> tg_status {
    // SAFETY: `calls` is NULL or a live list, and the out-parameters NULL or writable,
    // as this function's `# Safety` requires: what `call_text` needs.
    unsafe { call_text("tg_calls_name", calls, index, text_out, len_out, Call::name) }
}

/// The argument bytes of call `index` exactly as the provider sent them (`args` of
/// `tg_registry_call`): the decoded text of OpenAI's arguments string, the bytes of
/// the argument object for Anthropic, Gemini and MCP; empty when the call sent none.
/// They are bytes to validate, not text this library vouches for: they may be
/// malformed JSON, and are then refused by the call. Also NUL-terminated, owned by
/// `calls` and valid until `tg_calls_free(calls)`; same errors as `tg_calls_id`.
///
/// # Safety
/// As `tg_calls_id`.
#[no_mangle]
pub unsafe extern "C" fn tg_calls_arguments(
    calls: *const tg_calls,
    index: usize,
    text_out: *mut *const c_char,
    len_out: *mut usize,
) -> tg_status {
    // SAFETY: `calls` is NULL or a live list, and the out-parameters NULL or writable,
    // as this function's `# Safety` requires: what `call_text` needs.
    unsafe {
        call_text(
            "tg_calls_arguments",
            calls,
            index,
            text_out,
            len_out,
            Call::arguments,
        )
    }
}

/// Frees a list of calls. NULL is a no-op.
///
/// Ownership: takes ownership of `calls`; every text obtained from it is invalid
/// afterwards. Thread-safety: must not race with other uses of `calls`.
///
/// # Safety
/// `calls` is NULL or a live `tg_calls` not freed before.
#[no_mangle]
pub unsafe extern "C" fn tg_calls_free(calls: *mut tg_calls) {
    // SAFETY: `calls` is NULL or a handle this library returned and nobody freed or
    // uses any more, as this function's `# Safety` requires: what `ffi_free` needs.
    unsafe { ffi_free(calls) }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(dialect: RawDialect, response: &str) -> (tg_status, *mut tg_calls) {
        let mut calls = std::ptr::null_mut();
        // SAFETY: `response` is readable for its length; `calls` is a local.
        let status = unsafe {
            tg_calls_read(
                dialect,
                response.as_ptr().cast(),
                response.len(),
                &mut calls,
                std::ptr::null_mut(),
            )
        };
        (status, calls)
    }

    /// The argument bytes are the provider's, NUL-terminated after their length, even
    /// when they hold a NUL of their own (an escaped `\u0000` in OpenAI's string).
    #[test]
    fn arguments_are_bytes_with_a_nul_after_them() {
        let (status, calls) = read(
            0,
            r#"{"role":"assistant","tool_calls":[{"id":"c","type":"function","function":{"name":"t","arguments":"{\"a\":\"\u0000\"}"}}]}"#,
        );
        assert_eq!(status, tg_status::TG_OK);
        let (mut p, mut n) = (std::ptr::null(), 0);
        // SAFETY: `calls` is live; the out-parameters are locals.
        let status = unsafe { tg_calls_arguments(calls, 0, &mut p, &mut n) };
        assert_eq!(status, tg_status::TG_OK);
        // SAFETY: the accessor's text has `n` bytes and a NUL after them.
        let bytes = unsafe { std::slice::from_raw_parts(p.cast::<u8>(), n + 1) };
        assert_eq!(bytes, b"{\"a\":\"\0\"}\0");
        // SAFETY: `calls` came from tg_calls_read and is freed once.
        unsafe { tg_calls_free(calls) };
    }

    #[test]
    fn a_malformed_response_is_its_own_status() {
        let (status, calls) = read(2, "{");
        assert_eq!(status, tg_status::TG_ERR_RESPONSE);
        assert!(calls.is_null());
        let (status, _) = read(9, "{}");
        assert_eq!(status, tg_status::TG_ERR_ARGUMENT);
    }
}
