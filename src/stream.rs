//! `tg_stream`: a value, or a tool call's arguments, validated as the chunks arrive.

use std::ffi::{c_char, c_void};

use super::boundary::{
    arg_bytes, arg_mut, arg_ref, arg_str, ffi_boundary, ffi_free, into_handle, out_ptr, Failure,
};
use super::error::tg_error;
use super::errors::tg_errors;
use super::registry::tg_registry;
use super::reply::CallPointer;
use super::result::tg_result;
use super::schema::tg_schema;
use super::status::tg_status;
use toolgate_core::registry::{CallFeed, CallStream};
use toolgate_core::schema::{Feed, SchemaStream};
use toolgate_core::CallContext;

/// A stream: an instance of a schema (`tg_schema_stream_new`) or the arguments of a
/// tool call (`tg_registry_stream_call_new`) fed in chunks with `tg_stream_feed`, which
/// says as soon as no continuation can be valid; `tg_stream_finish` (schema) or
/// `tg_stream_finish_call` (call) gives the verdict on the whole bytes. A call's tool
/// runs only in `tg_stream_finish_call`: a stream freed unfinished runs nothing.
///
/// The schema or registry it was made from must stay alive until the stream is freed.
/// Thread-safety: one thread at a time.
pub struct tg_stream {
    kind: Kind,
}

enum Kind {
    Schema(SchemaStream<'static>),
    Call(CallStream<'static>),
    /// Finished: only `tg_stream_free` remains.
    Spent,
}

/// Starts a stream of an instance of `schema`.
///
/// On success writes a new stream to `*stream_out`; the caller owns it and frees it with
/// `tg_stream_free`. Errors: `TG_ERR_NULL`.
///
/// Ownership: `schema` is borrowed until the stream is freed. Thread-safety: any thread.
///
/// # Safety
/// `schema` is NULL or a live `tg_schema` that outlives the stream; `stream_out` and
/// `error_out` are NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn tg_schema_stream_new(
    schema: *const tg_schema,
    stream_out: *mut *mut tg_stream,
    error_out: *mut *mut tg_error,
) -> tg_status {
    // SAFETY: this function's `# Safety` is `schema_stream`'s.
    unsafe {
        schema_stream(
            "tg_schema_stream_new",
            schema,
            usize::MAX,
            stream_out,
            error_out,
        )
    }
}

/// The body of the two schema stream constructors.
///
/// # Safety
/// `schema` is NULL or a live `tg_schema` that outlives the stream; `stream_out` and
/// `error_out` are NULL or writable.
unsafe fn schema_stream(
    function: &'static str,
    schema: *const tg_schema,
    max: usize,
    stream_out: *mut *mut tg_stream,
    error_out: *mut *mut tg_error,
) -> tg_status {
    ffi_boundary(function, error_out, || {
        // SAFETY: `schema` is NULL or a live handle that outlives the stream, as this
        // function's `# Safety` requires: what `arg_ref` needs, for the stream's life.
        let schema: &'static tg_schema = unsafe { arg_ref(schema, "schema")? };
        // SAFETY: `stream_out` is NULL or writable, as this function's `# Safety`
        // requires: what `out_ptr` needs.
        let stream_out = unsafe { out_ptr(stream_out, "stream_out")? };
        let kind = Kind::Schema(schema.core().stream().at_most(max));
        stream_out.write(into_handle(tg_stream { kind }));
        Ok(())
    })
}

/// `tg_schema_stream_new` for a stream listing at most `max` violations, as
/// `tg_schema_validate_at_most`: a refusal lists the first `max` and then, when there
/// were more, one last violation at `$` (keyword `violations`) that says so, and
/// `tg_stream_finish` lists exactly what `tg_schema_validate_at_most` lists for the
/// whole bytes. For untrusted bytes whose violations go back to a model or a log
/// (`TG_LISTED_VIOLATIONS` is the registry's limit).
///
/// On success writes a new stream to `*stream_out`; the caller owns it and frees it with
/// `tg_stream_free`. Errors: `TG_ERR_NULL`.
///
/// Ownership: `schema` is borrowed until the stream is freed. Thread-safety: any thread.
///
/// # Safety
/// `schema` is NULL or a live `tg_schema` that outlives the stream; `stream_out` and
/// `error_out` are NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn tg_schema_stream_new_at_most(
    schema: *const tg_schema,
    max: usize,
    stream_out: *mut *mut tg_stream,
    error_out: *mut *mut tg_error,
) -> tg_status {
    // SAFETY: this function's `# Safety` is `schema_stream`'s.
    unsafe {
        schema_stream(
            "tg_schema_stream_new_at_most",
            schema,
            max,
            stream_out,
            error_out,
        )
    }
}

/// Starts a stream of the call `call_id[0..call_id_len)` of the tool
/// `name[0..name_len)`, whose arguments will be fed in chunks. An unknown tool is
/// refused at once: the first `tg_stream_feed` says so, and `tg_stream_finish_call`
/// gives the result `tg_registry_call` gives.
///
/// On success writes a new stream to `*stream_out`; the caller owns it and frees it with
/// `tg_stream_free`. Errors: `TG_ERR_NULL`, `TG_ERR_UTF8`.
///
/// Ownership: `registry` is borrowed until the stream is freed; the texts for the call.
/// Thread-safety: any thread.
///
/// # Safety
/// `registry` is NULL or a live `tg_registry` that outlives the stream; each text
/// pointer is NULL or points to its length in readable bytes; `stream_out` and
/// `error_out` are NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn tg_registry_stream_call_new(
    registry: *const tg_registry,
    call_id: *const c_char,
    call_id_len: usize,
    name: *const c_char,
    name_len: usize,
    stream_out: *mut *mut tg_stream,
    error_out: *mut *mut tg_error,
) -> tg_status {
    ffi_boundary("tg_registry_stream_call_new", error_out, || {
        // SAFETY: `registry` is NULL or a live handle that outlives the stream, as this
        // function's `# Safety` requires: what `arg_ref` needs, for the stream's life.
        let registry: &'static tg_registry = unsafe { arg_ref(registry, "registry")? };
        // SAFETY: `call_id` is NULL or points to its length's readable bytes, unchanged
        // during the call, as this function's `# Safety` requires: what `arg_str` needs.
        let call_id = unsafe { arg_str(call_id, call_id_len, "call_id")? };
        // SAFETY: as for `call_id`.
        let name = unsafe { arg_str(name, name_len, "name")? };
        // SAFETY: `stream_out` is NULL or writable, as this function's `# Safety`
        // requires: what `out_ptr` needs.
        let stream_out = unsafe { out_ptr(stream_out, "stream_out")? };
        let kind = Kind::Call(registry.core().stream_call(call_id, name));
        stream_out.write(into_handle(tg_stream { kind }));
        Ok(())
    })
}

fn spent() -> Failure {
    Failure::argument(tg_status::TG_ERR_ARGUMENT, "stream", "is finished")
}

/// Feeds `bytes[0..len)`, the next part of the stream's instance or arguments, and
/// writes to `*refused_out` whether no continuation can be valid any more. A refusal is
/// final: later feeds say the same, and `tg_stream_finish` / `tg_stream_finish_call`
/// give its errors or result (a refused call never runs its tool).
///
/// Errors: `TG_ERR_NULL`, `TG_ERR_ARGUMENT` (the stream is finished).
/// Ownership: `bytes` is borrowed for the call. Thread-safety: not concurrently with
/// other uses of `stream`.
///
/// # Safety
/// `stream` is NULL or a live `tg_stream` nothing else uses during the call; `bytes`
/// is NULL or points to `len` readable bytes; `refused_out` and `error_out` are NULL or
/// writable.
#[no_mangle]
pub unsafe extern "C" fn tg_stream_feed(
    stream: *mut tg_stream,
    bytes: *const c_char,
    len: usize,
    refused_out: *mut bool,
    error_out: *mut *mut tg_error,
) -> tg_status {
    ffi_boundary("tg_stream_feed", error_out, || {
        // SAFETY: `stream` is NULL or a live handle used by this call alone, as this
        // function's `# Safety` requires: what `arg_mut` needs.
        let stream = unsafe { arg_mut(stream, "stream")? };
        // SAFETY: `bytes` is NULL or points to its length's readable bytes, unchanged
        // during the call, as this function's `# Safety` requires: what `arg_bytes`
        // needs.
        let bytes = unsafe { arg_bytes(bytes, len, "bytes")? };
        // SAFETY: `refused_out` is NULL or writable, as this function's `# Safety`
        // requires: what `out_ptr` needs.
        let refused_out = unsafe { out_ptr(refused_out, "refused_out")? };
        let refused = match &mut stream.kind {
            Kind::Schema(s) => matches!(s.feed(bytes), Feed::Refused(_)),
            Kind::Call(c) => matches!(c.feed(bytes), CallFeed::Refused(_)),
            Kind::Spent => return Err(spent()),
        };
        refused_out.write(refused);
        Ok(())
    })
}

/// Finishes a schema stream: writes to `*errors_out` a new list of the violations of
/// the whole bytes fed, exactly what `tg_schema_validate` lists for them (count 0 when
/// valid; what `tg_schema_validate_at_most` lists, for a stream made by
/// `tg_schema_stream_new_at_most`), or the refusal's errors when the stream was refused. The stream is spent:
/// free it with `tg_stream_free`.
///
/// Errors: `TG_ERR_NULL`, `TG_ERR_ARGUMENT` (a call stream, or finished already).
/// Ownership: the list is the caller's (`tg_errors_free`). Thread-safety: not
/// concurrently with other uses of `stream`.
///
/// # Safety
/// `stream` is NULL or a live `tg_stream` nothing else uses during the call;
/// `errors_out` and `error_out` are NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn tg_stream_finish(
    stream: *mut tg_stream,
    errors_out: *mut *mut tg_errors,
    error_out: *mut *mut tg_error,
) -> tg_status {
    ffi_boundary("tg_stream_finish", error_out, || {
        // SAFETY: `stream` is NULL or a live handle used by this call alone, as this
        // function's `# Safety` requires: what `arg_mut` needs.
        let stream = unsafe { arg_mut(stream, "stream")? };
        // SAFETY: `errors_out` is NULL or writable, as this function's `# Safety`
        // requires: what `out_ptr` needs.
        let errors_out = unsafe { out_ptr(errors_out, "errors_out")? };
        match std::mem::replace(&mut stream.kind, Kind::Spent) {
            Kind::Schema(s) => {
                errors_out.write(into_handle(tg_errors::new(s.finish())));
                Ok(())
            }
            other => {
                let call = matches!(other, Kind::Call(_));
                stream.kind = other;
                Err(match call {
                    true => Failure::argument(
                        tg_status::TG_ERR_ARGUMENT,
                        "stream",
                        "is a call stream (finish it with tg_stream_finish_call)",
                    ),
                    false => spent(),
                })
            }
        }
    })
}

/// Finishes a call stream: runs the call with every byte fed, exactly as
/// `tg_registry_call` runs it (`call_ctx` passed to the handler), and writes the new
/// result to `*result_out`; a refused stream's result is its refusal, and no tool runs.
/// The stream is spent: free it with `tg_stream_free`.
///
/// Errors: `TG_ERR_NULL`, `TG_ERR_ARGUMENT` (a schema stream, or finished already).
/// Ownership: the result is the caller's (`tg_result_free`). Thread-safety: not
/// concurrently with other uses of `stream`; no lock is held while the handler runs.
///
/// # Safety
/// `stream` is NULL or a live `tg_stream` nothing else uses during the call;
/// `result_out` and `error_out` are NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn tg_stream_finish_call(
    stream: *mut tg_stream,
    call_ctx: *mut c_void,
    result_out: *mut *mut tg_result,
    error_out: *mut *mut tg_error,
) -> tg_status {
    ffi_boundary("tg_stream_finish_call", error_out, || {
        // SAFETY: `stream` is NULL or a live handle used by this call alone, as this
        // function's `# Safety` requires: what `arg_mut` needs.
        let stream = unsafe { arg_mut(stream, "stream")? };
        // SAFETY: `result_out` is NULL or writable, as this function's `# Safety`
        // requires: what `out_ptr` needs.
        let result_out = unsafe { out_ptr(result_out, "result_out")? };
        match std::mem::replace(&mut stream.kind, Kind::Spent) {
            Kind::Call(c) => {
                let r = c.finish_with_context(&CallContext::with_data(&CallPointer(call_ctx)));
                result_out.write(into_handle(tg_result::of_call_result(r)));
                Ok(())
            }
            other => {
                let schema = matches!(other, Kind::Schema(_));
                stream.kind = other;
                Err(match schema {
                    true => Failure::argument(
                        tg_status::TG_ERR_ARGUMENT,
                        "stream",
                        "is a schema stream (finish it with tg_stream_finish)",
                    ),
                    false => spent(),
                })
            }
        }
    })
}

/// How many bytes were fed to `stream`, or 0 for NULL.
///
/// # Safety
/// `stream` is NULL or a live `tg_stream`.
#[no_mangle]
pub unsafe extern "C" fn tg_stream_bytes_read(stream: *const tg_stream) -> usize {
    super::boundary::ffi_boundary_value(0, || {
        // SAFETY: `stream` is NULL or a live handle, as this function's `# Safety`
        // requires.
        match unsafe { stream.as_ref() }.map(|s| &s.kind) {
            Some(Kind::Schema(s)) => s.bytes_read(),
            Some(Kind::Call(c)) => c.bytes_read(),
            _ => 0,
        }
    })
}

/// Frees a stream, finished or not; an unfinished call stream runs nothing. NULL is a
/// no-op.
///
/// # Safety
/// `stream` is NULL or a live `tg_stream` not freed before.
#[no_mangle]
pub unsafe extern "C" fn tg_stream_free(stream: *mut tg_stream) {
    // SAFETY: `stream` is NULL or a handle this library returned and nobody freed or
    // uses any more, as this function's `# Safety` requires: what `ffi_free` needs.
    unsafe { ffi_free(stream) }
}
