//! `tg_result`: the outcome of `tg_registry_call`, its details, and the provider's
//! item that answers the call.

use std::ffi::c_char;
use std::sync::OnceLock;

use super::boundary::{
    arg_ref, arg_slice, ffi_boundary, ffi_boundary_value, ffi_free, into_handle, out_ptr,
    text_accessor, value_accessor, CText, CallTexts,
};
use super::dialect::{dialect, RawDialect};
use super::error::tg_error;
use super::errors::tg_errors;
use super::status::tg_status;
use super::text::tg_text;
use toolgate_core::registry::{tool_message_json, CallDetails, CallOutcome, CallResult};
use toolgate_core::ValidationError;
use toolgate_dialect::{result_json, results_message_json, ResultView};

/// What became of a call (`int32_t` in C): `tg_result_outcome`. Every value but
/// `TG_OUTCOME_ANSWERED` is an error result. Values are explicit and never reused.
#[repr(i32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum tg_outcome {
    /// The handler answered (and its answer passed the tool's output schema, if the
    /// tool has one).
    TG_OUTCOME_ANSWERED = 0,
    /// No tool of that name is registered.
    TG_OUTCOME_UNKNOWN_TOOL = 1,
    /// The arguments were over the size limit, malformed or invalid; the handler did
    /// not run. `tg_result_violations` lists why.
    TG_OUTCOME_INVALID_ARGUMENTS = 2,
    /// The handler reported an error (or ended without an answer).
    TG_OUTCOME_HANDLER_FAILED = 3,
    /// The handler answered with text its tool's output schema refuses (malformed
    /// JSON, over the size limit, or invalid): `tg_result_violations` lists why and
    /// `tg_result_invalid_result` holds the answer, which the content does not.
    TG_OUTCOME_INVALID_RESULT = 4,
    /// A failure of the registry itself (a panic inside toolgate was caught).
    TG_OUTCOME_INTERNAL = 5,
    /// A dispatched call whose deadline passed before its handler answered
    /// (`error: tool NAME timed out after N ms`); its answer, if it comes, is dropped.
    TG_OUTCOME_TIMED_OUT = 6,
    /// A dispatched call that was not run though nothing is wrong with it alone: the
    /// batch over its size limit, a call id used twice, or another call of an
    /// all-or-nothing batch refused.
    TG_OUTCOME_NOT_RUN = 7,
    /// A dispatched call its host cancelled (`tg_canceller_cancel`) before it answered
    /// (`error: call cancelled`): not run if it had not started, its answer dropped if
    /// it had.
    TG_OUTCOME_CANCELLED = 8,
}

/// The name of `outcome`, as every host spells it: `"answered"`, `"unknown_tool"`,
/// `"invalid_arguments"`, `"handler_failed"`, `"invalid_result"`, `"internal"`,
/// `"timed_out"`, `"not_run"`, `"cancelled"`; NULL for a value that is not a
/// `tg_outcome`.
///
/// Ownership: the returned string is static and NUL-terminated; do not free it.
/// Thread-safety: may be called from any thread at any time.
#[no_mangle]
pub extern "C" fn tg_outcome_name(outcome: RawOutcome) -> *const c_char {
    static NAMES: OnceLock<Vec<std::ffi::CString>> = OnceLock::new();
    ffi_boundary_value(std::ptr::null(), || {
        let names = NAMES.get_or_init(|| {
            CallOutcome::ALL
                .iter()
                .map(|o| std::ffi::CString::new(o.name()).expect("names hold no NUL"))
                .collect()
        });
        CallOutcome::ALL
            .iter()
            .position(|&o| tg_outcome::from(o) as RawOutcome == outcome)
            .map_or(std::ptr::null(), |i| names[i].as_ptr())
    })
}

/// An outcome as C reads it: `int32_t`. Rendered `tg_outcome` in the header.
pub type RawOutcome = i32;

impl From<CallOutcome> for tg_outcome {
    fn from(outcome: CallOutcome) -> tg_outcome {
        match outcome {
            CallOutcome::Answered => tg_outcome::TG_OUTCOME_ANSWERED,
            CallOutcome::UnknownTool => tg_outcome::TG_OUTCOME_UNKNOWN_TOOL,
            CallOutcome::InvalidArguments => tg_outcome::TG_OUTCOME_INVALID_ARGUMENTS,
            CallOutcome::HandlerFailed => tg_outcome::TG_OUTCOME_HANDLER_FAILED,
            CallOutcome::InvalidResult => tg_outcome::TG_OUTCOME_INVALID_RESULT,
            CallOutcome::Internal => tg_outcome::TG_OUTCOME_INTERNAL,
            CallOutcome::TimedOut => tg_outcome::TG_OUTCOME_TIMED_OUT,
            CallOutcome::NotRun => tg_outcome::TG_OUTCOME_NOT_RUN,
            CallOutcome::Cancelled => tg_outcome::TG_OUTCOME_CANCELLED,
        }
    }
}

/// The outcome of one `tg_registry_call`: call id, tool name, content (the tool's
/// answer, or `error: ...` text), what became of the call (`tg_result_outcome`,
/// `tg_result_is_error`), whether the answer is structured, the violations of a
/// refused call, a refused answer, and the item that answers the call in each
/// provider's shape. The caller owns it and frees it with `tg_result_free`.
///
/// A result can also be made empty (`tg_result_new`) and filled, again and again, by
/// `tg_registry_call_into`, which reuses its buffers.
///
/// Thread-safety: may be read from several threads at once, while no
/// `tg_registry_call_into` is refilling it.
pub struct tg_result {
    /// The content, the call id and the tool name, in one buffer.
    texts: CallTexts,
    /// The outcome and whether the answer is structured; its violations and invalid
    /// answer are moved to the two fields below once the call is done, so that these
    /// are empty (and allocate nothing) for the next call.
    details: CallDetails,
    /// The violations of a refused call (an empty list otherwise).
    violations: tg_errors,
    /// The answer an output schema refused, with its NUL.
    invalid_result: Option<CText>,
    tool_message: OnceLock<CText>,
}

/// Bytes of content a result made for one call has room for before its buffer must
/// grow: most tool answers the model reads are short, and a longer one costs one
/// reallocation.
const FRESH_ROOM: usize = 256;

impl tg_result {
    /// The C result of a call the core answered as a whole [`CallResult`] (a
    /// dispatched call, a finished stream): the same texts and details as
    /// `tg_registry_call` makes.
    pub(crate) fn of_call_result(result: CallResult) -> tg_result {
        let CallResult {
            call_id,
            name,
            content: text,
            outcome,
            structured,
            violations,
            invalid_result,
            attempts,
            ..
        } = result;
        tg_result::new(&call_id, &name, |content, details| {
            content.push_str(&text);
            details.outcome = outcome;
            details.structured = structured;
            details.violations = violations;
            details.invalid_result = invalid_result;
            details.attempts = attempts;
        })
    }

    /// The result of one call: `call` writes the content into an empty buffer and what
    /// became of the call into the details.
    pub(crate) fn new(
        call_id: &str,
        name: &str,
        call: impl FnOnce(&mut String, &mut CallDetails),
    ) -> tg_result {
        tg_result::with_room(call_id, name, FRESH_ROOM, call)
    }

    /// A result with empty texts, answered (not an error), for `tg_registry_call_into`
    /// to fill.
    fn empty() -> tg_result {
        tg_result::with_room("", "", 0, |_, details| {
            details.outcome = CallOutcome::Answered;
        })
    }

    fn with_room(
        call_id: &str,
        name: &str,
        room: usize,
        call: impl FnOnce(&mut String, &mut CallDetails),
    ) -> tg_result {
        let mut result = tg_result {
            texts: CallTexts::default(),
            details: CallDetails::default(),
            violations: tg_errors::new(Vec::new()),
            invalid_result: None,
            tool_message: OnceLock::new(),
        };
        result.fill(call_id, name, room, call);
        result
    }

    /// Overwrites the result with a new call's: `call` writes the content into the
    /// (emptied) buffer and what became of the call into the details. The buffer keeps
    /// its capacity, so refilling a result of similar size allocates nothing (nor do
    /// the details of a call that was answered).
    pub(crate) fn refill(
        &mut self,
        call_id: &str,
        name: &str,
        call: impl FnOnce(&mut String, &mut CallDetails),
    ) {
        self.fill(call_id, name, 0, call);
    }

    fn fill(
        &mut self,
        call_id: &str,
        name: &str,
        room: usize,
        call: impl FnOnce(&mut String, &mut CallDetails),
    ) {
        // Dropped rather than kept: most callers of the reusing path never ask for it.
        self.tool_message.take();
        if self.violations.count() != 0 {
            self.violations = tg_errors::new(Vec::new());
        }
        self.invalid_result = None;
        // Until the call has written its outcome: were anything to unwind through
        // here, a half-written content would not read as a success.
        self.details.outcome = CallOutcome::Internal;
        self.details.structured = false;
        self.details.attempts = 0;
        let details = &mut self.details;
        self.texts
            .rewrite(call_id, name, room, |content| call(content, details));
        if !self.details.violations.is_empty() {
            self.violations = tg_errors::new(std::mem::take(&mut self.details.violations));
        }
        self.invalid_result = self.details.invalid_result.take().map(CText::new);
    }

    fn is_error(&self) -> bool {
        self.details.outcome.is_error()
    }

    fn tool_message(&self) -> &CText {
        self.tool_message.get_or_init(|| {
            CText::new(tool_message_json(
                self.texts.call_id().as_str(),
                self.texts.content().as_str(),
            ))
        })
    }

    /// The result as the provider dialects write it: every field borrowed.
    fn view(&self) -> ResultView<'_, ValidationError> {
        ResultView {
            call_id: self.texts.call_id().as_str(),
            name: self.texts.name().as_str(),
            content: self.texts.content().as_str(),
            is_error: self.is_error(),
            structured: self.details.structured,
            violations: self.violations.core(),
        }
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

/// Whether the call failed (unknown tool, invalid arguments, handler error, an answer
/// its output schema refused, internal error; every outcome but
/// `TG_OUTCOME_ANSWERED`): on success writes it to `*value_out`. Errors: `TG_ERR_NULL`. Thread-safety: any thread.
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
        unsafe { value_accessor(result, "result", value_out, |r| r.is_error()) }
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

/// What became of the call (a `tg_outcome`): on success writes it to `*value_out`.
/// Errors: `TG_ERR_NULL`. Thread-safety: any thread.
///
/// # Safety
/// `result` is NULL or a live `tg_result`; `value_out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn tg_result_outcome(
    result: *const tg_result,
    value_out: *mut RawOutcome,
) -> tg_status {
    ffi_boundary("tg_result_outcome", std::ptr::null_mut(), || {
        // SAFETY: `result` is NULL or live, and the out-parameter NULL or writable, as
        // this function's `# Safety` requires: what `value_accessor` needs.
        unsafe {
            value_accessor(result, "result", value_out, |r| {
                tg_outcome::from(r.details.outcome) as RawOutcome
            })
        }
    })
}

/// How many times the handler ran for this call: 0 when it did not (a refusal, a call
/// not run), 1 for a `tg_registry_call` whose handler ran, and up to
/// `tg_dispatch_options.max_attempts` for a dispatched call that was retried (a
/// remembered call id given its recorded result again keeps the recorded count); on
/// success writes it to `*value_out`.
/// Errors: `TG_ERR_NULL`. Thread-safety: any thread.
///
/// # Safety
/// `result` is NULL or a live `tg_result`; `value_out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn tg_result_attempts(
    result: *const tg_result,
    value_out: *mut u32,
) -> tg_status {
    ffi_boundary("tg_result_attempts", std::ptr::null_mut(), || {
        // SAFETY: `result` is NULL or live, and the out-parameter NULL or writable, as
        // this function's `# Safety` requires: what `value_accessor` needs.
        unsafe { value_accessor(result, "result", value_out, |r| r.details.attempts) }
    })
}

/// Whether the content is the tool's answer checked against its output schema, so
/// JSON text of that shape (false for a tool without one, and for every error): on
/// success writes it to `*value_out`. Errors: `TG_ERR_NULL`. Thread-safety: any thread.
///
/// # Safety
/// `result` is NULL or a live `tg_result`; `value_out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn tg_result_structured(
    result: *const tg_result,
    value_out: *mut bool,
) -> tg_status {
    ffi_boundary("tg_result_structured", std::ptr::null_mut(), || {
        // SAFETY: `result` is NULL or live, and the out-parameter NULL or writable, as
        // this function's `# Safety` requires: what `value_accessor` needs.
        unsafe { value_accessor(result, "result", value_out, |r| r.details.structured) }
    })
}

/// The violations of a refused call: of its arguments against the tool's parameters
/// (`TG_OUTCOME_INVALID_ARGUMENTS`) or of the tool's answer against its output schema
/// (`TG_OUTCOME_INVALID_RESULT`), in the order the content lists them, each with its
/// schema location (`tg_errors_schema_location`); an empty list for every other
/// outcome. Read with the `tg_errors_*` accessors.
///
/// On success writes the list to `*errors_out`. The list is borrowed, not a copy: it
/// belongs to `result` and is valid until `tg_result_free(result)` or until
/// `tg_registry_call_into` refills `result`; do not pass it to `tg_errors_free`.
/// Errors: `TG_ERR_NULL`. Thread-safety: any thread.
///
/// # Safety
/// `result` is NULL or a live `tg_result`; `errors_out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn tg_result_violations(
    result: *const tg_result,
    errors_out: *mut *const tg_errors,
) -> tg_status {
    ffi_boundary("tg_result_violations", std::ptr::null_mut(), || {
        // SAFETY: `result` is NULL or live, and the out-parameter NULL or writable, as
        // this function's `# Safety` requires: what `value_accessor` needs.
        unsafe {
            value_accessor(result, "result", errors_out, |r| {
                &r.violations as *const tg_errors
            })
        }
    })
}

/// For `TG_OUTCOME_INVALID_RESULT`: the handler's answer that the tool's output schema
/// refused (the content holds the refusal instead), for the host to log or inspect.
/// For every other outcome there is none: `*text_out` is NULL and `*len_out` 0 (an
/// empty answer that was refused is a non-NULL empty text).
///
/// Otherwise the same rules as `tg_result_call_id`: the text is also NUL-terminated
/// (but may contain NUL bytes: use the length) and owned by `result`.
///
/// # Safety
/// As `tg_result_call_id`.
#[no_mangle]
pub unsafe extern "C" fn tg_result_invalid_result(
    result: *const tg_result,
    text_out: *mut *const c_char,
    len_out: *mut usize,
) -> tg_status {
    ffi_boundary("tg_result_invalid_result", std::ptr::null_mut(), || {
        // SAFETY: `result` is NULL or a live result, and the out-parameters NULL or
        // writable, as this function's `# Safety` requires: what `text_accessor` needs.
        unsafe {
            text_accessor(result, "result", text_out, len_out, |r| {
                Ok(r.invalid_result.as_ref())
            })
        }
    })
}

/// The item that answers the call in `dialect`'s shape, compact JSON, the same bytes
/// in every host:
///
/// - `TG_DIALECT_OPENAI_CHAT`: the tool message, byte for byte
///   `tg_result_tool_message`'s;
/// - `TG_DIALECT_OPENAI_RESPONSES`: a `function_call_output` item;
/// - `TG_DIALECT_ANTHROPIC`: a `tool_result` block (`"is_error":true` for a failure);
/// - `TG_DIALECT_MCP`: a `CallToolResult` (`structuredContent` for a structured answer
///   that is an object; the violations of a refused call under `_meta`);
/// - `TG_DIALECT_GEMINI`: a `functionResponse` part (a structured answer as JSON).
///
/// On success writes a new `tg_text` to `*json_out`; the caller frees it with
/// `tg_text_free`. Errors: `TG_ERR_NULL`, `TG_ERR_ARGUMENT` (`dialect` is not a
/// `tg_dialect` value), with the message through `error_out` (when not NULL).
/// Thread-safety: any thread.
///
/// # Safety
/// `result` is NULL or a live `tg_result`; `json_out` and `error_out` are NULL or
/// writable.
#[no_mangle]
pub unsafe extern "C" fn tg_result_dialect_json(
    result: *const tg_result,
    dialect: RawDialect,
    json_out: *mut *mut tg_text,
    error_out: *mut *mut tg_error,
) -> tg_status {
    ffi_boundary("tg_result_dialect_json", error_out, || {
        // SAFETY: `result` is NULL or a live handle for the whole call, as this
        // function's `# Safety` requires: what `arg_ref` needs.
        let result = unsafe { arg_ref(result, "result")? };
        // SAFETY: `json_out` is NULL or writable, as this function's `# Safety`
        // requires: what `out_ptr` needs.
        let json_out = unsafe { out_ptr(json_out, "json_out")? };
        let dialect = self::dialect(dialect)?;
        json_out.write(into_handle(tg_text::new(&result_json(
            dialect,
            &result.view(),
        ))));
        Ok(())
    })
}

/// What answers all the calls of one model turn, in `dialect`'s shape and in the
/// order of `results[0..count)`, compact JSON:
///
/// - `TG_DIALECT_OPENAI_CHAT`: a JSON array of tool messages (append each to
///   `messages`);
/// - `TG_DIALECT_OPENAI_RESPONSES`: a JSON array of `function_call_output` items
///   (append each to `input`);
/// - `TG_DIALECT_ANTHROPIC`: one user message, `{"role":"user","content":[...]}`;
/// - `TG_DIALECT_GEMINI`: one `Content`, `{"role":"user","parts":[...]}`;
/// - `TG_DIALECT_MCP`: a JSON array of JSON-RPC responses, one per call (send each as
///   its own message).
///
/// `count` 0 (with `results` NULL or not) is a turn without calls. On success writes
/// a new `tg_text` to `*json_out`; the caller frees it with `tg_text_free`. Errors:
/// `TG_ERR_NULL` (`results` NULL with a non-zero `count`, or one of its `count`
/// pointers NULL: the message names it), `TG_ERR_ARGUMENT` (`dialect` is not a
/// `tg_dialect` value), with the message through `error_out` (when not NULL).
///
/// Ownership: the results are borrowed for the call. Thread-safety: any thread, while
/// no `tg_registry_call_into` refills one of the results.
///
/// # Safety
/// `results` is NULL or points to `count` readable pointers, each NULL or a live
/// `tg_result`; `json_out` and `error_out` are NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn tg_results_message_json(
    dialect: RawDialect,
    results: *const *const tg_result,
    count: usize,
    json_out: *mut *mut tg_text,
    error_out: *mut *mut tg_error,
) -> tg_status {
    ffi_boundary("tg_results_message_json", error_out, || {
        // SAFETY: `results` is NULL or points to `count` readable pointers, unchanged
        // during the call, as this function's `# Safety` requires: what `arg_slice`
        // needs.
        let pointers = unsafe { arg_slice(results, count, "results")? };
        // SAFETY: `json_out` is NULL or writable, as this function's `# Safety`
        // requires: what `out_ptr` needs.
        let json_out = unsafe { out_ptr(json_out, "json_out")? };
        let dialect = self::dialect(dialect)?;
        let mut views = Vec::with_capacity(pointers.len());
        for (i, &pointer) in pointers.iter().enumerate() {
            // SAFETY: each pointer is NULL or a live result for the whole call, as this
            // function's `# Safety` requires: what `arg_ref` needs.
            let result = unsafe { arg_ref(pointer, &format!("results[{i}]"))? };
            views.push(result.view());
        }
        json_out.write(into_handle(tg_text::new(&results_message_json(
            dialect, &views,
        ))));
        Ok(())
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The C numbers are fixed: each core outcome has its own, in the core's order.
    #[test]
    fn every_outcome_has_its_number() {
        let all = [
            (CallOutcome::Answered, 0),
            (CallOutcome::UnknownTool, 1),
            (CallOutcome::InvalidArguments, 2),
            (CallOutcome::HandlerFailed, 3),
            (CallOutcome::InvalidResult, 4),
            (CallOutcome::Internal, 5),
        ];
        for (outcome, number) in all {
            assert_eq!(tg_outcome::from(outcome) as RawOutcome, number);
            assert_eq!(outcome.is_error(), number != 0);
        }
    }

    /// A refill leaves nothing of the call before: its violations, its refused answer,
    /// its tool message.
    #[test]
    fn a_refill_replaces_every_detail() {
        let violation = ValidationError {
            path: "$".into(),
            pointer: String::new(),
            keyword: "type",
            message: "expected number, got string".into(),
            schema_location: "#/type".into(),
        };
        let mut result = tg_result::new("c1", "t", |content, details| {
            content.push_str("error: refused");
            details.outcome = CallOutcome::InvalidResult;
            details.violations.push(violation.clone());
            details.invalid_result = Some("\"x\"".into());
        });
        assert_eq!(result.violations.count(), 1);
        assert_eq!(
            result.invalid_result.as_ref().map(CText::as_str),
            Some("\"x\"")
        );
        assert!(result.is_error());
        let before = result.tool_message().as_str().to_owned();
        result.refill("c2", "t", |content, details| {
            content.push('1');
            details.outcome = CallOutcome::Answered;
            details.structured = true;
        });
        assert_eq!(result.violations.count(), 0);
        assert!(result.invalid_result.is_none());
        assert!(!result.is_error() && result.details.structured);
        assert_ne!(result.tool_message().as_str(), before);
        let view = result.view();
        assert_eq!((view.call_id, view.content), ("c2", "1"));
        // A refill that unwinds leaves an error, never a half-written success.
        let unwound = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            result.refill("c3", "t", |content, _| {
                content.push_str("half");
                panic!("in the middle of a call")
            })
        }));
        assert!(unwound.is_err());
        assert!(result.is_error() && !result.details.structured);
    }
}
