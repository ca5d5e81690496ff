//! `tg_registry_dispatch`: the calls of one model turn run together on the core's
//! worker threads, under deadlines, with retries where they are safe.

use std::ffi::{c_char, c_void};
use std::sync::Arc;
use std::time::Duration;

use super::boundary::{
    arg_bytes, arg_options, arg_ref, arg_slice, arg_str, ffi_boundary, into_handle, Failure,
    FfiResult, OptionsStruct,
};
use super::error::tg_error;
use super::registry::tg_registry;
use super::reply::CallPointer;
use super::result::tg_result;
use super::running_call::tg_canceller;
use super::status::tg_status;
use toolgate_core::registry::{Call, DispatchOptions, DispatchPolicy};

/// `tg_dispatch_options.policy`: every valid call runs; each refused one (unknown tool,
/// invalid arguments, a call id used twice) gets its refusal. The default.
pub const TG_DISPATCH_ISOLATE: u32 = 0;
/// `tg_dispatch_options.policy`: one refused call and no call runs: the refused calls
/// get their refusals, the others `error: not run: call "ID" to tool "NAME" in the same
/// batch was refused` (outcome `TG_OUTCOME_NOT_RUN`), naming the first refused call.
pub const TG_DISPATCH_ALL_OR_NOTHING: u32 = 1;

/// One call of a model's turn, for `tg_registry_dispatch`. Every text is pointer +
/// length (not NUL-terminated; NULL with length 0 is the empty text), borrowed for the
/// dispatch only (the library copies what its worker threads need).
#[repr(C)]
#[derive(Clone, Copy)]
pub struct tg_call {
    /// The call's id (`tool_call_id`, UTF-8); the empty id is never checked for
    /// duplicates nor remembered (a provider that sends no ids).
    pub id: *const c_char,
    /// Length of `id` in bytes.
    pub id_len: usize,
    /// The tool's name (UTF-8).
    pub name: *const c_char,
    /// Length of `name` in bytes.
    pub name_len: usize,
    /// The argument bytes (JSON text; empty means `{}`).
    pub args: *const c_char,
    /// Length of `args` in bytes.
    pub args_len: usize,
}

/// How one `tg_registry_dispatch` runs its calls.
///
/// Every field's zero value means its default, so the way to make one is
/// `tg_dispatch_options options = { .size = sizeof options };` (C++:
/// `tg_dispatch_options options{}; options.size = sizeof options;`) and then to set
/// only the fields that differ. As for `tg_registry_options`, fields are only ever
/// appended: the library reads the first `size` bytes, takes the defaults for fields
/// beyond them (a caller built with an older header), and refuses non-zero bytes
/// beyond the fields it knows (a caller built with a newer header asking for an option
/// this library cannot honour).
///
/// ```c
/// tg_dispatch_options options = { .size = sizeof options };
/// options.policy = TG_DISPATCH_ALL_OR_NOTHING;
/// options.timeout_ms = 30000;
/// ```
#[repr(C)]
#[derive(Clone, Copy)]
pub struct tg_dispatch_options {
    /// `sizeof(tg_dispatch_options)` as the caller compiled it.
    pub size: usize,
    /// What a refused call does to the rest of the batch: `TG_DISPATCH_ISOLATE` (0,
    /// the default) or `TG_DISPATCH_ALL_OR_NOTHING`; any other value is refused with
    /// `TG_ERR_ARGUMENT`.
    pub policy: u32,
    /// How many calls run at once; the others wait their turn in the batch's order.
    /// 0 means the default, 8.
    pub max_concurrency: u32,
    /// The most calls one batch may hold: a longer batch runs none, and every call
    /// gets `error: the batch holds N calls, more than the limit of M`. 0 means the
    /// default, 128.
    pub max_batch: u32,
    /// Not read: the padding before `timeout_ms`, named so that no byte of the struct
    /// is padding.
    pub reserved: u32,
    /// A deadline for the whole dispatch, in milliseconds from its start: a call
    /// still running then (or not yet started) gets `error: tool NAME timed out after
    /// N ms` (outcome `TG_OUTCOME_TIMED_OUT`). The earliest of it, the tool's
    /// `timeout_ms` and the registry's default applies. 0 means none.
    pub timeout_ms: u64,
    /// How many times a call may run, the first included. Only a tool registered
    /// `idempotent` whose handler failed runs again, and only when the
    /// handler marked the failure transient (`tg_running_call_retry_later`). 0 means
    /// the default, 3.
    pub max_attempts: u32,
    /// Not read: the padding before `backoff_ms`, named so that no byte of the struct
    /// is padding.
    pub reserved2: u32,
    /// The pause before the first retry, in milliseconds, doubled before each next
    /// one; a pause ends early when the call's deadline passes. 0 means the default,
    /// 100.
    pub backoff_ms: u64,
    /// The host's canceller (`tg_canceller_new`), or NULL for none: cancelling it ends
    /// the dispatch at once, every call not yet answered with `error: call cancelled`
    /// (outcome `TG_OUTCOME_CANCELLED`). Borrowed for the dispatch.
    pub canceller: *const tg_canceller,
}

// SAFETY: `size` (a usize) is the first field, and every field is an integer or a raw
// pointer, for which every bit pattern is a value (`#[repr(C)]`, no references, no
// bool, no enum).
unsafe impl OptionsStruct for tg_dispatch_options {
    const NAME: &'static str = "tg_dispatch_options";
    const VERSIONS: &'static [usize] = &[
        // Before `canceller`.
        std::mem::offset_of!(tg_dispatch_options, canceller),
        std::mem::size_of::<tg_dispatch_options>(),
    ];
}

/// The core's options for a caller's `tg_dispatch_options` (NULL: the defaults), with
/// `call_ctx` as every handler's context pointer.
///
/// # Safety
/// `options` is NULL or points to `options->size` readable bytes, not written during
/// the call; its `canceller` is NULL or a live `tg_canceller` for the whole dispatch.
unsafe fn read_options(
    options: *const tg_dispatch_options,
    call_ctx: *mut c_void,
) -> FfiResult<DispatchOptions> {
    let out = DispatchOptions::default().with_data(Arc::new(CallPointer(call_ctx)));
    if options.is_null() {
        return Ok(out);
    }
    // SAFETY: `options` is a readable struct of at least its `size` bytes, as this
    // function's `# Safety` requires: what `arg_options` needs.
    let o = unsafe { arg_options(options, "options")? };
    let policy = match o.policy {
        TG_DISPATCH_ISOLATE => DispatchPolicy::Isolate,
        TG_DISPATCH_ALL_OR_NOTHING => DispatchPolicy::AllOrNothing,
        other => {
            return Err(Failure::argument(
                tg_status::TG_ERR_ARGUMENT,
                "options->policy",
                &format!("is {other}, not a TG_DISPATCH_* value"),
            ))
        }
    };
    let mut out = out.with_policy(policy);
    if o.max_concurrency != 0 {
        out = out.with_max_concurrency(o.max_concurrency as usize);
    }
    if o.max_batch != 0 {
        out = out.with_max_batch(o.max_batch as usize);
    }
    if o.timeout_ms != 0 {
        out = out.with_timeout(Duration::from_millis(o.timeout_ms));
    }
    if o.max_attempts != 0 {
        out = out.with_max_attempts(o.max_attempts);
    }
    if o.backoff_ms != 0 {
        out = out.with_backoff(Duration::from_millis(o.backoff_ms));
    }
    if !o.canceller.is_null() {
        // SAFETY: a non-NULL `canceller` is a live handle for the whole dispatch, as
        // this function's `# Safety` requires.
        let canceller = unsafe { &*o.canceller };
        out = out.with_canceller(canceller.core());
    }
    Ok(out)
}

/// Runs the `count` calls of one model turn together and writes one new result per
/// call to `results_out[0..count)`, in the batch's order (the caller provides the
/// array; it owns each result and frees it with `tg_result_free`).
///
/// Every call is first checked on the calling thread, as `tg_registry_call` checks it
/// (unknown tool, malformed JSON, schema violations: the same `error: ...` results,
/// byte for byte), and a call id used twice in the batch is refused. What a refusal
/// does to the other calls is `options->policy`'s: `TG_DISPATCH_ISOLATE` runs the
/// valid ones, `TG_DISPATCH_ALL_OR_NOTHING` runs none. The valid calls then run, at
/// most `options->max_concurrency` at once, and the answered ones have the same
/// results as `tg_registry_call` gives. A tool registered `exclusive` runs alone. A
/// call still running at its deadline (`options->timeout_ms`, the tool's
/// `timeout_ms`) gets `error: tool NAME timed out after N ms` (outcome
/// `TG_OUTCOME_TIMED_OUT`). `options` NULL means every default; `count` 0 runs
/// nothing and writes nothing (`calls` and `results_out` may then be NULL).
///
/// Threading: the handlers run on the core's worker threads (started by the
/// registry's first dispatch, stopped when it is freed), several at once, never on
/// the calling thread, which waits until every call has its result. Each handler
/// gets `call_ctx` as its `call_ctx`, unchanged, as `tg_registry_call` gives it; it
/// must be usable from those threads. A handler still running past its deadline is
/// not stopped: it keeps running on its worker after this function has returned,
/// with `call_ctx`, its `user_data` and its own copy of the arguments, and what it
/// replies is dropped. So `call_ctx` must stay valid until every handler of the
/// dispatch has returned, not only until the dispatch returns (the library keeps
/// `user_data` valid that long: the tool's destructor waits for its handlers). The
/// registry must not be freed while this function runs (from any thread);
/// `tg_registry_free` after it has returned waits a while for such late handlers.
///
/// Cancellation: a handler learns of its call's deadline and cancellation through
/// `tg_running_call_current` (called on the thread it was called on), and may mark a
/// failure transient there (`tg_running_call_retry_later`) so that an idempotent tool
/// is retried. The host cancels the whole dispatch from another thread with
/// `options->canceller`: the calls not yet answered get `error: call cancelled`
/// (outcome `TG_OUTCOME_CANCELLED`), a call still waiting for its turn
/// (`options->max_concurrency`, an exclusive tool) never runs, and this function
/// returns without waiting for the handlers still running (as past a deadline). The callbacks of `tg_running_call_on_cancel` run on the thread that
/// called this function, before it returns, when it cancels a call (at the call's
/// deadline, or once it sees the canceller cancelled).
///
/// Only the caller's own mistakes fail the call, and then no handler ran and
/// `results_out` is untouched: `TG_ERR_NULL` (`registry` NULL, `calls` or
/// `results_out` NULL with `count` > 0, a text NULL with a non-zero length),
/// `TG_ERR_UTF8` (an id or a name not UTF-8; arguments need not be UTF-8),
/// `TG_ERR_ARGUMENT` (`options` breaking the options-struct rules, an unknown
/// policy); the message comes back through `error_out` (when not NULL).
///
/// Ownership: `calls`, their texts and `options` are borrowed for the call;
/// `call_ctx` is not touched by the library. Thread-safety: any thread, dispatches run
/// in parallel, and a handler may dispatch too (the registry starts another worker
/// rather than let a call wait for one).
///
/// # Safety
/// `registry` is NULL or a live `tg_registry`; `calls` is NULL or points to `count`
/// readable `tg_call`s whose text pointers are NULL or point to their lengths in
/// readable bytes; `options` is NULL or points to `options->size` readable bytes, and
/// its `canceller` (when inside `size`) is NULL or a live `tg_canceller`;
/// `results_out` is NULL or points to `count` writable pointers; `error_out` is NULL
/// or writable.
#[no_mangle]
pub unsafe extern "C" fn tg_registry_dispatch(
    registry: *const tg_registry,
    calls: *const tg_call,
    count: usize,
    options: *const tg_dispatch_options,
    call_ctx: *mut c_void,
    results_out: *mut *mut tg_result,
    error_out: *mut *mut tg_error,
) -> tg_status {
    ffi_boundary("tg_registry_dispatch", error_out, || {
        // SAFETY: `registry` is NULL or a live handle for the whole call, as this
        // function's `# Safety` requires: what `arg_ref` needs.
        let registry = unsafe { arg_ref(registry, "registry")? };
        // SAFETY: `calls` is NULL or points to `count` readable calls, as this
        // function's `# Safety` requires: what `arg_slice` needs.
        let raw = unsafe { arg_slice(calls, count, "calls")? };
        if results_out.is_null() && count > 0 {
            return Err(Failure::argument(
                tg_status::TG_ERR_NULL,
                "results_out",
                "is NULL with a non-zero count",
            ));
        }
        let mut batch = Vec::with_capacity(raw.len());
        for (i, call) in raw.iter().enumerate() {
            // SAFETY: each call's texts are NULL or point to their lengths' readable
            // bytes, unchanged during the call, as this function's `# Safety`
            // requires: what `arg_str` and `arg_bytes` need.
            let (id, name, args) = unsafe {
                (
                    arg_str(call.id, call.id_len, &format!("calls[{i}].id"))?,
                    arg_str(call.name, call.name_len, &format!("calls[{i}].name"))?,
                    arg_bytes(call.args, call.args_len, &format!("calls[{i}].args"))?,
                )
            };
            batch.push(Call::new(id, name, args));
        }
        // SAFETY: `options` is NULL or readable for its `size`, as this function's
        // `# Safety` requires: what `read_options` needs.
        let options = unsafe { read_options(options, call_ctx)? };
        if batch.is_empty() {
            return Ok(());
        }
        let results = registry.core().dispatch(&batch, &options);
        for (i, result) in results.into_iter().enumerate() {
            // SAFETY: `results_out` is not NULL (checked above, `count` > 0) and
            // points to `count` writable pointers, as this function's `# Safety`
            // requires; the core answers every call, so `i` < `count`.
            unsafe {
                results_out
                    .add(i)
                    .write(into_handle(tg_result::of_call_result(result)))
            };
        }
        Ok(())
    })
}
