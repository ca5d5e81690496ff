//! `tg_registry`: tools by name, validated calls.

use std::ffi::{c_char, c_void};
use std::sync::Arc;

use super::boundary::{
    arg_bytes, arg_mut, arg_options, arg_ref, arg_slice, arg_str, ffi_boundary, ffi_boundary_value,
    ffi_free, into_handle, not_a_value, out_ptr, Failure, FfiResult, OptionsStruct,
};
use super::error::tg_error;
use super::errors::tg_errors;
use super::observer::{tg_observer_fn, CObserver};
use super::options::{compile_options, read_compile_options, tg_compile_options};
use super::reply::{tg_destroy_fn, tg_handler_fn, CHandler, CallPointer};
use super::result::tg_result;
use super::schema::compile_failure;
use super::status::tg_status;
use super::text::tg_text;
use super::tool_info::tg_tool_info;
use super::tool_spec::{read_spec, tg_tool_binding, tg_tool_spec};
use toolgate_core::registry::{
    message, CallContext, CallDetails, NamePolicy, RegisterError, RegisterErrorKind, Registry,
    RegistryOptions, ToolSpec,
};
use toolgate_dialect::RegistryOptionsExt;

/// Which tool names a registry accepts, chosen at creation (`int32_t` in C).
#[repr(i32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum tg_name_policy {
    /// `^[A-Za-z0-9_-]{1,64}$`: what OpenAI and Anthropic accept.
    TG_NAMES_DEFAULT = 0,
    /// Lowercase alphanumeric and underscore segments separated by dots
    /// (`db.get_user`), at most 64 characters.
    TG_NAMES_DOTTED = 1,
    /// MCP: `^[A-Za-z0-9_.-]{1,128}$`.
    TG_NAMES_MCP = 2,
}

/// A name policy as it arrives from C: any `int32_t`. Rendered `tg_name_policy` in the
/// header.
pub type RawNamePolicy = i32;

/// `tg_registry_register` flag: replace a tool of the same name instead of failing
/// with `TG_ERR_DUPLICATE`.
pub const TG_REGISTER_OVERRIDE: u32 = 1;

/// A tool to register. Every text is pointer + length (not NUL-terminated), borrowed
/// for the duration of `tg_registry_register` only (the library copies it).
///
/// The struct has no `size` field, so it never grows: hosts built against it keep
/// working unchanged. A tool with an output schema (or any field added since) is
/// described by a `tg_tool_spec` and registered with `tg_registry_register_tool` or
/// `tg_registry_register_tools`.
#[repr(C)]
pub struct tg_tool_def {
    /// The tool name (UTF-8), checked against the registry's name policy.
    pub name: *const c_char,
    /// Length of `name` in bytes.
    pub name_len: usize,
    /// What the model reads to decide when to use the tool (UTF-8; NULL with length 0
    /// for none).
    pub description: *const c_char,
    /// Length of `description` in bytes.
    pub description_len: usize,
    /// The parameters JSON Schema; it must require an object (`"type": "object"`).
    /// NULL means `{"type":"object"}` (and `parameters_len` is ignored).
    pub parameters: *const c_char,
    /// Length of `parameters` in bytes.
    pub parameters_len: usize,
    /// Stored and exposed for the dispatcher (retry decisions).
    pub idempotent: bool,
    /// Stored and exposed for the dispatcher; 0 means none.
    pub timeout_ms: u64,
}

/// A registry of tools. Created by `tg_registry_new`; the caller owns it and frees it
/// with `tg_registry_free`.
///
/// Thread-safety: every function except `tg_registry_free` may be called on the same
/// registry from any number of threads at once, and from inside a handler.
pub struct tg_registry {
    registry: Registry,
}

impl tg_registry {
    /// The registry behind the handle, for the other C modules.
    pub(crate) fn core(&self) -> &Registry {
        &self.registry
    }
}

fn register_failure(error: RegisterError) -> Failure {
    let status = tg_status::from(error.status());
    match &error.kind {
        RegisterErrorKind::InvalidName
        | RegisterErrorKind::Duplicate
        | RegisterErrorKind::NotObject => {}
        RegisterErrorKind::InvalidSchema(compile)
        | RegisterErrorKind::InvalidOutputSchema(compile) => {
            let located = compile_failure((**compile).clone());
            return Failure::new(status, error.message).at(&located.pointer, &located.keyword);
        }
        // A target dialect refused the parameters: a schema refusal, located at the
        // first problem (its rule as the keyword).
        RegisterErrorKind::Refused(problems) => {
            let first = problems.first();
            let (pointer, rule) = first.map_or(("", ""), |p| (p.pointer.as_str(), p.rule));
            return Failure::new(status, error.message.clone()).at(pointer, rule);
        }
    }
    Failure::new(status, error.message)
}

fn not_found(name: &str) -> Failure {
    Failure::new(
        tg_status::TG_ERR_NOT_FOUND,
        message::unknown_tool_name(name),
    )
}

/// How a registry is set up, for `tg_registry_new_with`.
///
/// Every field's zero value means its default, so the way to make one is
/// `tg_registry_options options = { .size = sizeof options };` (C++:
/// `tg_registry_options options{}; options.size = sizeof options;`) and then to set only
/// the fields that differ. Fields are only ever appended: the library reads the first
/// `size` bytes (the size of this or of an earlier version of the struct), takes the
/// defaults for fields beyond them (a caller built with an older header), and refuses
/// non-zero bytes beyond the fields it knows (a caller built with a newer header asking
/// for an option this library cannot honour).
#[repr(C)]
#[derive(Clone, Copy)]
pub struct tg_registry_options {
    /// `sizeof(tg_registry_options)` as the caller compiled it.
    pub size: usize,
    /// Which tool names the registry accepts (`TG_NAMES_DEFAULT` is 0).
    pub name_policy: RawNamePolicy,
    /// The largest argument text a call or a validation reads, in bytes; longer
    /// arguments are refused unread with `error: invalid arguments for NAME: N bytes is
    /// more than the limit of M`. 0 means the default,
    /// `TG_DEFAULT_MAX_ARGUMENT_BYTES` (4 MiB); `SIZE_MAX` means no limit.
    pub max_argument_bytes: usize,
    /// The nesting limit, for the tools' parameters schemas and for the arguments of
    /// calls. 0 means the default (`TG_DEFAULT_MAX_DEPTH`, 128); values above
    /// `TG_MAX_DEPTH_LIMIT` are clamped to it. `schema->max_depth` says the same: set
    /// either (both only to the same value).
    pub max_depth: usize,
    /// How every tool's parameters schema is compiled (the profile, the draft, the
    /// resources references may reach, the format names taken as annotations), read
    /// during `tg_registry_new_with` only (the registry copies what it keeps). NULL
    /// means the defaults: the core profile.
    pub schema: *const tg_compile_options,
    /// The target dialects every tool must pass the lint of, as bits
    /// (`TG_TARGET_OPENAI_STRICT | TG_TARGET_GEMINI`; 0, the default, none): a tool one
    /// of them would refuse is refused with `TG_ERR_SCHEMA` and every problem, and the
    /// definitions of OpenAI (Anthropic) say `"strict": true` when its strict target is
    /// among them. Other bits are refused with `TG_ERR_ARGUMENT`.
    pub targets: u32,
    /// Not read: the padding that ended the earlier versions of the struct, whose
    /// bytes a caller built with their header may have left anything in.
    pub reserved: u32,
    /// Non-zero: no value of an instance appears in a violation's message, of
    /// arguments and of answers alike (where a message would quote one it says
    /// `value`), so that what a model or a tool sent never reaches a log or the model
    /// through them. 0, the default, quotes values. `schema->masked_values` says the
    /// same: either masks. An integer, not a `bool`, so that any byte a caller leaves
    /// here is a value.
    pub masked_values: u32,
    /// Not read: the padding that ended the fourth version of the struct, whose bytes
    /// a caller built with its header may have left anything in.
    pub reserved2: u32,
    /// The timeout of a dispatched call whose tool has none (`tg_tool_spec.timeout_ms`
    /// 0), in milliseconds: `tg_registry_dispatch` answers a call still running then
    /// with `error: tool NAME timed out after N ms`. 0, the default, means none.
    pub default_timeout_ms: u64,
    /// How many dispatched call ids the registry remembers, with their results (0,
    /// the default, none): a call whose id was run before, with the same tool name and
    /// argument bytes, gets the recorded result and the tool does not run again; with
    /// another name or other bytes it is refused (`error: call id "X" was already used
    /// with other arguments`), and while the first is still running in another
    /// dispatch (`error: call id "X" is still running in another dispatch`). Only
    /// calls whose handler ran are recorded: a refused call may be sent again.
    pub remember_call_ids: usize,
    /// Told about every call of every `tg_registry_dispatch`, refused ones included,
    /// as a `tg_call_event` (NULL, the default: none). Threading: called on the thread
    /// that called `tg_registry_dispatch`, before it returns, once every result of the
    /// batch is known, once per call in the batch's order; never for
    /// `tg_registry_call`. Dispatches on several threads call it on each at once, so it
    /// must be thread-safe. It must not call `tg_registry_free` on its registry.
    pub observer: tg_observer_fn,
    /// The pointer `observer` gets as its `data`, untouched by the library; it must
    /// stay valid as long as the registry lives.
    pub observer_data: *mut c_void,
}

/// `tg_registry_options.targets` bit of OpenAI strict mode (`1 << TG_LINT_OPENAI_STRICT`).
pub const TG_TARGET_OPENAI_STRICT: u32 = 1 << 0;
/// `tg_registry_options.targets` bit of Anthropic strict tool use.
pub const TG_TARGET_ANTHROPIC_STRICT: u32 = 1 << 1;
/// `tg_registry_options.targets` bit of Gemini's schema subset.
pub const TG_TARGET_GEMINI: u32 = 1 << 2;

/// The targets a `targets` bit set names, each bit `1 << tg_lint_target`.
fn targets(bits: u32) -> FfiResult<Vec<toolgate_dialect::Target>> {
    let known = (1u32 << toolgate_dialect::Target::ALL.len()) - 1;
    if bits & !known != 0 {
        return Err(Failure::argument(
            tg_status::TG_ERR_ARGUMENT,
            "options->targets",
            &format!("has unknown bits {:#x} (known: TG_TARGET_*)", bits & !known),
        ));
    }
    Ok(toolgate_dialect::Target::ALL
        .into_iter()
        .enumerate()
        .filter(|(i, _)| bits & (1 << i) != 0)
        .map(|(_, t)| t)
        .collect())
}

// SAFETY: `size` (a usize) is the first field, and every field is an integer, a raw
// pointer or an optional function pointer (NULL is None), for which every bit pattern
// is a value (`#[repr(C)]`, no references, no bool, the name policy as int32_t).
unsafe impl OptionsStruct for tg_registry_options {
    const NAME: &'static str = "tg_registry_options";
    /// The first version ended before `schema`, the second before `targets`, the
    /// third (its `targets` followed by padding) before `masked_values`, the fourth
    /// (its `masked_values` followed by padding) before `default_timeout_ms`.
    const VERSIONS: &'static [usize] = &[
        std::mem::offset_of!(tg_registry_options, schema),
        std::mem::offset_of!(tg_registry_options, targets),
        std::mem::offset_of!(tg_registry_options, masked_values),
        std::mem::offset_of!(tg_registry_options, default_timeout_ms),
        std::mem::size_of::<tg_registry_options>(),
    ];
}

/// The argument limit of a registry made without one (`max_argument_bytes` 0): 4 MiB.
pub const TG_DEFAULT_MAX_ARGUMENT_BYTES: usize = 4 << 20;

const _: () = assert!(TG_DEFAULT_MAX_ARGUMENT_BYTES == RegistryOptions::DEFAULT_MAX_ARGUMENT_BYTES);

fn name_policy(policy: RawNamePolicy, param: &str) -> FfiResult<NamePolicy> {
    match policy {
        p if p == tg_name_policy::TG_NAMES_DEFAULT as RawNamePolicy => Ok(NamePolicy::Default),
        p if p == tg_name_policy::TG_NAMES_DOTTED as RawNamePolicy => Ok(NamePolicy::Dotted),
        p if p == tg_name_policy::TG_NAMES_MCP as RawNamePolicy => Ok(NamePolicy::Mcp),
        other => Err(not_a_value(param, other, "tg_name_policy")),
    }
}

/// The regular expression a tool name of `policy` matches (the dotted policy also
/// bounds its length to 64, outside the expression), static and NUL-terminated, for a
/// host that checks names before registering them; NULL for a value that is not a
/// `tg_name_policy`. The registry checks names itself, with the same rule.
///
/// Ownership: static, never freed. Thread-safety: any thread at any time.
#[no_mangle]
pub extern "C" fn tg_name_policy_pattern(policy: RawNamePolicy) -> *const c_char {
    ffi_boundary_value(std::ptr::null(), || match name_policy(policy, "policy") {
        Ok(p) => pattern_text(p).as_ptr().cast(),
        Err(_) => std::ptr::null(),
    })
}

/// `NamePolicy::pattern` with a NUL (a test checks they agree).
fn pattern_text(policy: NamePolicy) -> &'static str {
    match policy {
        NamePolicy::Default => "^[A-Za-z0-9_-]{1,64}$\0",
        NamePolicy::Dotted => "^[a-z0-9_]+(\\.[a-z0-9_]+)*$\0",
        NamePolicy::Mcp => "^[A-Za-z0-9_.-]{1,128}$\0",
    }
}

/// The nesting limit of a registry: its own `max_depth` or its schema options' (0 in
/// both: the default). Two different non-zero limits are a caller's mistake, not a
/// choice for the library to make.
fn nesting_limit(registry: usize, schema: usize) -> FfiResult<usize> {
    match (registry, schema) {
        (0, d) | (d, 0) => Ok(d),
        (r, s) if r == s => Ok(r),
        (r, s) => Err(Failure::argument(
            tg_status::TG_ERR_ARGUMENT,
            "options->max_depth",
            &format!("is {r} and `options->schema->max_depth` is {s}: set one of them"),
        )),
    }
}

/// Reads a caller's `tg_registry_options` (see its doc for the size rule) and the
/// compile options it points to.
///
/// # Safety
/// `options` is NULL or points to at least `options->size` readable bytes (its first
/// field), not written during the call; within them, a non-NULL `schema` points to a
/// `tg_compile_options` readable as `tg_schema_compile_with` requires, and a non-NULL
/// `observer` may be called with `observer_data` as `tg_registry_new_with` requires.
unsafe fn read_options(options: *const tg_registry_options) -> FfiResult<RegistryOptions> {
    // SAFETY: `options` is NULL or points to a readable struct of at least its `size`
    // bytes, as this function's `# Safety` requires: what `arg_options` needs.
    let o = unsafe { arg_options(options, "options")? };
    let mut out =
        RegistryOptions::default().with_names(name_policy(o.name_policy, "options->name_policy")?);
    if o.max_argument_bytes != 0 {
        out = out.with_max_argument_bytes(o.max_argument_bytes);
    }
    out = out.with_targets(targets(o.targets)?);
    if !o.schema.is_null() {
        // SAFETY: `schema` is NULL or points to a readable options struct of at least
        // its `size` bytes, as this function's `# Safety` requires.
        let raw = unsafe { read_compile_options(o.schema, "options->schema")? };
        let max_depth = nesting_limit(o.max_depth, raw.max_depth)?;
        // SAFETY: the options' arrays and texts are NULL or readable for their counts
        // and lengths, as this function's `# Safety` requires: what `compile_options`
        // needs.
        let schema = unsafe { compile_options(&raw, max_depth, "options->schema")? };
        out = out.with_schema_options(schema);
    } else {
        out = out.with_max_depth(o.max_depth);
    }
    // After the schema options, which would replace it: either field masks.
    if o.masked_values != 0 {
        out = out.with_masked_values(true);
    }
    if o.default_timeout_ms != 0 {
        out = out.with_default_timeout_ms(o.default_timeout_ms);
    }
    if o.remember_call_ids != 0 {
        out = out.with_remember_call_ids(o.remember_call_ids);
    }
    if let Some(observer) = CObserver::new(o.observer, o.observer_data) {
        out = out.with_observer(Arc::new(observer));
    }
    Ok(out)
}

/// Creates an empty registry whose tool names follow `policy`, with the other options
/// at their defaults (see `tg_registry_new_with`).
///
/// On success writes the new registry to `*registry_out`; the caller owns it and frees
/// it with `tg_registry_free`. On failure `*registry_out` is untouched and
/// `*error_out` (when not NULL) receives a `tg_error` to free with `tg_error_free`.
///
/// Errors: `TG_ERR_NULL` (`registry_out` NULL), `TG_ERR_ARGUMENT` (`policy` is not a
/// `tg_name_policy` value). Thread-safety: any thread.
///
/// # Safety
/// `registry_out` and `error_out` are NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn tg_registry_new(
    policy: RawNamePolicy,
    registry_out: *mut *mut tg_registry,
    error_out: *mut *mut tg_error,
) -> tg_status {
    ffi_boundary("tg_registry_new", error_out, || {
        // SAFETY: the caller promises a NULL or writable `registry_out`.
        let registry_out = unsafe { out_ptr(registry_out, "registry_out")? };
        let policy = name_policy(policy, "policy")?;
        registry_out.write(into_handle(tg_registry {
            registry: Registry::new(policy),
        }));
        Ok(())
    })
}

/// Creates an empty registry set up by `options`: its name policy, the largest
/// arguments it reads, its nesting limit and how its tools' schemas are compiled.
///
/// ```c
/// tg_compile_options full = { .size = sizeof full };
/// full.profile = TG_PROFILE_FULL;
/// tg_registry_options options = { .size = sizeof options };   // the rest: defaults
/// options.max_argument_bytes = 64 * 1024;
/// options.max_depth = 32;
/// options.schema = &full;
/// tg_registry *reg = NULL;
/// tg_status s = tg_registry_new_with(&options, &reg, &err);
/// ```
///
/// On success writes the new registry to `*registry_out`; the caller owns it and frees
/// it with `tg_registry_free`. On failure `*registry_out` is untouched and
/// `*error_out` (when not NULL) receives a `tg_error` to free with `tg_error_free`.
///
/// Errors: `TG_ERR_NULL` (`options` or `registry_out` NULL), `TG_ERR_ARGUMENT`
/// (`options->size` or `options->schema->size` not the size of any version of its
/// struct, non-zero bytes beyond the fields this library knows, a `name_policy`,
/// `profile` or `default_draft` that is none of its values, `max_depth` and
/// `schema->max_depth` both set and different), and for `options->schema` the errors
/// of `tg_schema_compile_with` (`TG_ERR_NULL`, `TG_ERR_UTF8`, `TG_ERR_SCHEMA` for a
/// resource that is not JSON).
///
/// Ownership: `options`, `options->schema` and everything it points to are borrowed
/// for the call only; `observer_data` is kept, untouched, and handed to `observer`
/// for as long as the registry lives. Thread-safety: any thread.
///
/// # Safety
/// `options` is NULL or points to `options->size` readable bytes; within them, a
/// non-NULL `schema` points to a `tg_compile_options` readable as
/// `tg_schema_compile_with` requires, and a non-NULL `observer` is a function that
/// may be called with `observer_data` from every thread that dispatches on the
/// registry, as long as it lives; `registry_out` and `error_out` are NULL or
/// writable.
#[no_mangle]
pub unsafe extern "C" fn tg_registry_new_with(
    options: *const tg_registry_options,
    registry_out: *mut *mut tg_registry,
    error_out: *mut *mut tg_error,
) -> tg_status {
    ffi_boundary("tg_registry_new_with", error_out, || {
        // SAFETY: the caller promises `options` readable for its `size` bytes.
        let options = unsafe { read_options(options)? };
        // SAFETY: the caller promises a NULL or writable `registry_out`.
        let registry_out = unsafe { out_ptr(registry_out, "registry_out")? };
        registry_out.write(into_handle(tg_registry {
            registry: Registry::with_options(options),
        }));
        Ok(())
    })
}

/// Frees a registry and every tool in it: each tool's destructor runs once, here.
/// NULL is a no-op.
///
/// Dispatched handlers still running past their deadlines (a `tg_registry_dispatch`
/// that has returned does not wait for them): this function stops the registry's idle
/// worker threads, waits up to 5 seconds for those handlers to return, then returns
/// without them; each such handler's tool is destroyed on its worker thread when the
/// handler returns, and the worker then ends.
///
/// Ownership: takes ownership of `registry`. Results, lists and texts obtained from it
/// are independent and stay valid. Thread-safety: no other call on `registry` may be
/// running or start (in particular not from inside a handler): a `tg_registry_dispatch`
/// on it, from any thread, must have returned first.
///
/// # Safety
/// `registry` is NULL or a live `tg_registry` not freed before, not in use by another
/// call.
#[no_mangle]
pub unsafe extern "C" fn tg_registry_free(registry: *mut tg_registry) {
    // SAFETY: `registry` is NULL or a handle this library returned and nobody freed or
    // uses any more, as this function's `# Safety` requires: what `ffi_free` needs.
    unsafe { ffi_free(registry) }
}

/// Registers a tool: `def` describes it, `handler(user_data, ...)` runs its calls.
///
/// `flags` is 0 or `TG_REGISTER_OVERRIDE` (replace a tool of the same name; the old
/// one's destructor runs once its running calls have returned).
///
/// Ownership: `def` and its texts are borrowed for the call (copied). `user_data`
/// belongs to the registration from the moment of this call: `destroy(user_data)`
/// (when `destroy` is not NULL) runs exactly once, when the tool is replaced,
/// unregistered or the registry freed, after every call still running on it has
/// returned, or, if this call fails for any reason (a NULL argument included),
/// before it returns.
///
/// On failure the registry is unchanged and `*error_out` (when not NULL) receives a
/// `tg_error` to free with `tg_error_free`.
///
/// Errors: `TG_ERR_NULL` (`registry`, `def` or `handler` NULL; a text pointer NULL
/// with a non-zero length), `TG_ERR_UTF8` (name or description not UTF-8),
/// `TG_ERR_ARGUMENT` (unknown `flags` bits), `TG_ERR_NAME` (name refused by the
/// policy), `TG_ERR_DUPLICATE`, `TG_ERR_SCHEMA` (parameters do not compile; the error
/// has the pointer and keyword), `TG_ERR_NOT_OBJECT` (parameters do not require an
/// object).
///
/// Thread-safety: any thread, concurrently with every registry call but
/// `tg_registry_free`, also from inside a handler.
///
/// # Safety
/// `registry` is NULL or a live `tg_registry`; `def` is NULL or a readable
/// `tg_tool_def` whose text pointers follow their documented rules; `handler` and
/// `destroy` follow `tg_handler_fn` and `tg_destroy_fn`; `error_out` is NULL or
/// writable.
#[no_mangle]
pub unsafe extern "C" fn tg_registry_register(
    registry: *mut tg_registry,
    def: *const tg_tool_def,
    handler: tg_handler_fn,
    user_data: *mut c_void,
    destroy: tg_destroy_fn,
    flags: u32,
    error_out: *mut *mut tg_error,
) -> tg_status {
    // First thing: from here on dropping `handler` (a refusal, an early return, even a
    // panic unwinding through the boundary) runs `destroy(user_data)` exactly once.
    let handler = CHandler::new(handler, user_data, destroy);
    ffi_boundary("tg_registry_register", error_out, move || {
        // SAFETY: `registry` is NULL or a live handle for the whole call, as this
        // function's `# Safety` requires: what `arg_ref` needs.
        let registry = unsafe { arg_ref(registry, "registry")? };
        // SAFETY: `def` is NULL or a live handle for the whole call, as this function's
        // `# Safety` requires: what `arg_ref` needs.
        let def = unsafe { arg_ref(def, "def")? };
        register_one(registry, handler, flags, || {
            // SAFETY: `def`'s text pointers follow their documented rules, as this
            // function's `# Safety` requires: what `read_def` needs.
            unsafe { read_def(def, "def->") }
        })
    })
}

/// Registers a tool that `spec` describes (a `tg_tool_spec`, whose fields include the
/// output schema): `tg_registry_register` for a `tg_tool_spec`, with the same
/// arguments, ownership and rules, and these besides:
///
/// - `spec->size` follows the size rule of `tg_tool_spec` (`TG_ERR_ARGUMENT` for a
///   size no version has, or non-zero bytes beyond the fields this library knows);
/// - an output schema that does not compile refuses the registration with
///   `TG_ERR_SCHEMA` (`invalid output schema for "NAME": ...`, the error's pointer and
///   keyword in the output schema), and the registry is unchanged: a tool of the same
///   name stays registered, even with `TG_REGISTER_OVERRIDE`.
///
/// On failure `destroy(user_data)` (when not NULL) runs before this returns, as for
/// `tg_registry_register`. Thread-safety: as `tg_registry_register`.
///
/// # Safety
/// `registry` is NULL or a live `tg_registry`; `spec` is NULL or points to
/// `spec->size` readable bytes whose text pointers follow their documented rules;
/// `handler` and `destroy` follow `tg_handler_fn` and `tg_destroy_fn`; `error_out` is
/// NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn tg_registry_register_tool(
    registry: *mut tg_registry,
    spec: *const tg_tool_spec,
    handler: tg_handler_fn,
    user_data: *mut c_void,
    destroy: tg_destroy_fn,
    flags: u32,
    error_out: *mut *mut tg_error,
) -> tg_status {
    // First thing, as in `tg_registry_register`: `destroy(user_data)` runs exactly once.
    let handler = CHandler::new(handler, user_data, destroy);
    ffi_boundary("tg_registry_register_tool", error_out, move || {
        // SAFETY: `registry` is NULL or a live handle for the whole call, as this
        // function's `# Safety` requires: what `arg_ref` needs.
        let registry = unsafe { arg_ref(registry, "registry")? };
        register_one(registry, handler, flags, || {
            // SAFETY: `spec` is NULL or readable for its `size` bytes, its texts
            // following their rules, as this function's `# Safety` requires: what
            // `read_spec` needs.
            unsafe { read_spec(spec, "spec") }
        })
    })
}

/// The body of the two one-tool registrations, once the registry is read: the handler
/// checked, the flags, then the tool `read` copies, registered.
fn register_one(
    registry: &tg_registry,
    mut handler: CHandler,
    flags: u32,
    read: impl FnOnce() -> FfiResult<ToolSpec>,
) -> FfiResult<()> {
    if !handler.has_func() {
        return Err(Failure::argument(
            tg_status::TG_ERR_NULL,
            "handler",
            "is NULL",
        ));
    }
    check_register_flags(flags)?;
    let spec = read()?;
    handler.set_name(&spec.name);
    registry
        .registry
        .register(spec, Box::new(handler), flags & TG_REGISTER_OVERRIDE != 0)
        .map_err(register_failure)
}

/// Refuses `flags` bits other than `TG_REGISTER_OVERRIDE`.
fn check_register_flags(flags: u32) -> FfiResult<()> {
    if flags & !TG_REGISTER_OVERRIDE != 0 {
        return Err(Failure::argument(
            tg_status::TG_ERR_ARGUMENT,
            "flags",
            &format!("has unknown bits 0x{:x}", flags & !TG_REGISTER_OVERRIDE),
        ));
    }
    Ok(())
}

/// The tool `def` describes, its texts copied; `prefix` names `def` in errors
/// (`def->`, `tools[3].def.`).
///
/// # Safety
/// `def`'s text pointers are NULL or point to their lengths' readable bytes, unchanged
/// during the call.
unsafe fn read_def(def: &tg_tool_def, prefix: &str) -> FfiResult<ToolSpec> {
    let param = |field: &str| format!("{prefix}{field}");
    // SAFETY: `name` is NULL or points to its length's readable bytes, unchanged during
    // the call, as this function's `# Safety` requires: what `arg_str` needs.
    let name = unsafe { arg_str(def.name, def.name_len, &param("name"))? };
    // SAFETY: as above.
    let description =
        unsafe { arg_str(def.description, def.description_len, &param("description"))? };
    let parameters = if def.parameters.is_null() {
        None
    } else {
        // SAFETY: as above.
        Some(
            unsafe { arg_bytes(def.parameters, def.parameters_len, &param("parameters"))? }
                .to_vec(),
        )
    };
    Ok(ToolSpec {
        name: name.to_owned(),
        description: description.to_owned(),
        parameters,
        output_schema: None,
        idempotent: def.idempotent,
        timeout_ms: def.timeout_ms,
        exclusive: false,
    })
}

/// One tool of `tg_registry_register_batch`: what `tg_registry_register` takes for one
/// tool, in one struct.
#[repr(C)]
pub struct tg_tool_entry {
    /// The tool, as for `tg_registry_register` (its texts borrowed for the call).
    pub def: tg_tool_def,
    /// Runs the tool's calls; must not be NULL.
    pub handler: tg_handler_fn,
    /// Passed to `handler` and `destroy`; belongs to the registration (see
    /// `tg_registry_register_batch`).
    pub user_data: *mut c_void,
    /// Releases `user_data`, or NULL.
    pub destroy: tg_destroy_fn,
}

/// Registers the `count` tools of `tools` at once, all or none: each is checked as
/// `tg_registry_register` checks one, a name listed twice in the batch is refused
/// (`TG_ERR_DUPLICATE`, whatever `flags` says), and on the first refusal, in array
/// order, nothing is registered and the error names the tool. The registry publishes
/// one new set of tools for the whole batch, so loading many tools costs one copy of
/// the set instead of one per tool; a concurrent call sees all of the batch or none.
///
/// `flags` is 0 or `TG_REGISTER_OVERRIDE` (replace registered tools of the same
/// names). `count` 0 is an empty batch: nothing changes, `TG_OK`.
///
/// Ownership: `tools` and their texts are borrowed for the call (copied). Every
/// entry's `user_data` belongs to the registration from the moment of this call: on
/// success as for `tg_registry_register`; if this call fails for any reason, every
/// entry's `destroy(user_data)` (when not NULL) runs exactly once before it returns.
/// (The one exception: with `tools` NULL and `count` non-zero there are no entries to
/// read, so nothing is destroyed.)
///
/// Errors: those of `tg_registry_register` (a text or handler NULL is named like
/// `tools[2].def.name`, `tools[2].handler`), and `TG_ERR_NULL` for `tools` NULL with a
/// non-zero `count`. `*error_out` (when not NULL) receives a `tg_error` to free with
/// `tg_error_free`.
///
/// Thread-safety: as `tg_registry_register`.
///
/// # Safety
/// `registry` is NULL or a live `tg_registry`; `tools` is NULL or points to `count`
/// readable `tg_tool_entry`, unchanged during the call, each of whose `def` follows
/// `tg_tool_def`'s rules and whose `handler` and `destroy` follow `tg_handler_fn` and
/// `tg_destroy_fn`; `error_out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn tg_registry_register_batch(
    registry: *mut tg_registry,
    tools: *const tg_tool_entry,
    count: usize,
    flags: u32,
    error_out: *mut *mut tg_error,
) -> tg_status {
    ffi_boundary("tg_registry_register_batch", error_out, move || {
        // SAFETY: `tools` is NULL or points to `count` readable entries, unchanged
        // during the call, as this function's `# Safety` requires: what `arg_slice`
        // needs.
        let entries = unsafe { arg_slice(tools, count, "tools")? };
        // First thing after reading the array: from here on dropping `handlers` (a
        // refusal, an early return, a panic unwinding through the boundary) runs every
        // entry's `destroy(user_data)` exactly once.
        let handlers: Vec<CHandler> = entries
            .iter()
            .map(|e| CHandler::new(e.handler, e.user_data, e.destroy))
            .collect();
        // SAFETY: `registry` is NULL or a live handle for the whole call, as this
        // function's `# Safety` requires: what `arg_ref` needs.
        let registry = unsafe { arg_ref(registry, "registry")? };
        register_many(registry, handlers, flags, |i| {
            // SAFETY: each entry's `def` follows `tg_tool_def`'s rules, as this
            // function's `# Safety` requires: what `read_def` needs.
            unsafe { read_def(&entries[i].def, &format!("tools[{i}].def.")) }
        })
    })
}

/// Registers the `count` tools of `tools` at once, all or none, each as
/// `tg_registry_register_tool` registers one: `tg_registry_register_batch` for
/// `tg_tool_spec`s, with its rules, ownership and errors (a `spec` NULL is
/// `TG_ERR_NULL` naming `tools[i].spec`; an output schema that does not compile
/// refuses the batch with `TG_ERR_SCHEMA`, naming the tool).
///
/// Thread-safety: as `tg_registry_register`.
///
/// # Safety
/// `registry` is NULL or a live `tg_registry`; `tools` is NULL or points to `count`
/// readable `tg_tool_binding`, unchanged during the call, each of whose `spec` is NULL
/// or points to `spec->size` readable bytes following `tg_tool_spec`'s rules, and
/// whose `handler` and `destroy` follow `tg_handler_fn` and `tg_destroy_fn`;
/// `error_out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn tg_registry_register_tools(
    registry: *mut tg_registry,
    tools: *const tg_tool_binding,
    count: usize,
    flags: u32,
    error_out: *mut *mut tg_error,
) -> tg_status {
    ffi_boundary("tg_registry_register_tools", error_out, move || {
        // SAFETY: `tools` is NULL or points to `count` readable entries, unchanged
        // during the call, as this function's `# Safety` requires: what `arg_slice`
        // needs.
        let entries = unsafe { arg_slice(tools, count, "tools")? };
        // First thing after reading the array, as in `tg_registry_register_batch`.
        let handlers: Vec<CHandler> = entries
            .iter()
            .map(|e| CHandler::new(e.handler, e.user_data, e.destroy))
            .collect();
        // SAFETY: `registry` is NULL or a live handle for the whole call, as this
        // function's `# Safety` requires: what `arg_ref` needs.
        let registry = unsafe { arg_ref(registry, "registry")? };
        register_many(registry, handlers, flags, |i| {
            // SAFETY: each entry's `spec` is NULL or readable for its `size` bytes,
            // its texts following their rules, as this function's `# Safety`
            // requires: what `read_spec` needs.
            unsafe { read_spec(entries[i].spec, &format!("tools[{i}].spec")) }
        })
    })
}

/// The body of the two batch registrations, once the registry is read: every handler
/// checked and every tool `read(i)` copies, in array order, then all registered at
/// once.
fn register_many(
    registry: &tg_registry,
    mut handlers: Vec<CHandler>,
    flags: u32,
    read: impl Fn(usize) -> FfiResult<ToolSpec>,
) -> FfiResult<()> {
    check_register_flags(flags)?;
    let mut specs = Vec::with_capacity(handlers.len());
    for (i, handler) in handlers.iter_mut().enumerate() {
        if !handler.has_func() {
            return Err(Failure::argument(
                tg_status::TG_ERR_NULL,
                &format!("tools[{i}].handler"),
                "is NULL",
            ));
        }
        let spec = read(i)?;
        handler.set_name(&spec.name);
        specs.push(spec);
    }
    let batch = specs
        .into_iter()
        .zip(handlers)
        .map(|(spec, handler)| {
            (
                spec,
                Box::new(handler) as Box<dyn toolgate_core::registry::Handler>,
            )
        })
        .collect();
    registry
        .registry
        .register_batch(batch, flags & TG_REGISTER_OVERRIDE != 0)
        .map_err(register_failure)
}

/// Removes the tool `name[0..name_len)`. Calls running on it finish; its destructor
/// runs once they have.
///
/// Errors: `TG_ERR_NULL`, `TG_ERR_UTF8`, `TG_ERR_NOT_FOUND` (no such tool; the
/// registry is unchanged); the message comes back through `error_out` (when not NULL;
/// free with `tg_error_free`).
///
/// Ownership: `name` is borrowed for the call. Thread-safety: any thread, also from
/// inside a handler (even the tool's own).
///
/// # Safety
/// `registry` is NULL or a live `tg_registry`; `name` is NULL or points to `name_len`
/// readable bytes; `error_out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn tg_registry_unregister(
    registry: *mut tg_registry,
    name: *const c_char,
    name_len: usize,
    error_out: *mut *mut tg_error,
) -> tg_status {
    ffi_boundary("tg_registry_unregister", error_out, || {
        // SAFETY: `registry` is NULL or a live handle for the whole call, as this
        // function's `# Safety` requires: what `arg_ref` needs.
        let registry = unsafe { arg_ref(registry, "registry")? };
        // SAFETY: `name` is NULL or points to its length's readable bytes, unchanged
        // during the call, as this function's `# Safety` requires: what `arg_str`
        // needs.
        let name = unsafe { arg_str(name, name_len, "name")? };
        if registry.registry.unregister(name) {
            Ok(())
        } else {
            Err(not_found(name))
        }
    })
}

/// Describes the tool `name[0..name_len)`: name, description, parameters and output
/// schema (compact JSON, keys in the author's order), idempotent, timeout_ms.
///
/// On success writes a new `tg_tool_info` to `*info_out`; the caller owns it and frees
/// it with `tg_tool_info_free`. Errors: `TG_ERR_NULL`, `TG_ERR_UTF8`,
/// `TG_ERR_NOT_FOUND`; the message comes back through `error_out` (when not NULL).
///
/// Ownership: `name` is borrowed for the call. Thread-safety: any thread.
///
/// # Safety
/// `registry` is NULL or a live `tg_registry`; `name` is NULL or points to `name_len`
/// readable bytes; `info_out` and `error_out` are NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn tg_registry_describe(
    registry: *const tg_registry,
    name: *const c_char,
    name_len: usize,
    info_out: *mut *mut tg_tool_info,
    error_out: *mut *mut tg_error,
) -> tg_status {
    ffi_boundary("tg_registry_describe", error_out, || {
        // SAFETY: `registry` is NULL or a live handle for the whole call, as this
        // function's `# Safety` requires: what `arg_ref` needs.
        let registry = unsafe { arg_ref(registry, "registry")? };
        // SAFETY: `name` is NULL or points to its length's readable bytes, unchanged
        // during the call, as this function's `# Safety` requires: what `arg_str`
        // needs.
        let name = unsafe { arg_str(name, name_len, "name")? };
        // SAFETY: `info_out` is NULL or writable, as this function's `# Safety`
        // requires: what `out_ptr` needs.
        let info_out = unsafe { out_ptr(info_out, "info_out")? };
        let info = registry
            .registry
            .describe(name)
            .ok_or_else(|| not_found(name))?;
        info_out.write(into_handle(tg_tool_info::new(info)));
        Ok(())
    })
}

/// The registered tool names, sorted in byte order, joined by `\n` (no trailing
/// newline; the empty text when there are no tools). No policy allows a newline in a
/// name, so splitting on `\n` is exact.
///
/// On success writes a new `tg_text` to `*names_out`; the caller owns it and frees it
/// with `tg_text_free`. Errors: `TG_ERR_NULL`. Thread-safety: any thread.
///
/// # Safety
/// `registry` is NULL or a live `tg_registry`; `names_out` and `error_out` are NULL or
/// writable.
#[no_mangle]
pub unsafe extern "C" fn tg_registry_names(
    registry: *const tg_registry,
    names_out: *mut *mut tg_text,
    error_out: *mut *mut tg_error,
) -> tg_status {
    ffi_boundary("tg_registry_names", error_out, || {
        // SAFETY: `registry` is NULL or a live handle for the whole call, as this
        // function's `# Safety` requires: what `arg_ref` needs.
        let registry = unsafe { arg_ref(registry, "registry")? };
        // SAFETY: `names_out` is NULL or writable, as this function's `# Safety`
        // requires: what `out_ptr` needs.
        let names_out = unsafe { out_ptr(names_out, "names_out")? };
        let names = registry.registry.names().join("\n");
        names_out.write(into_handle(tg_text::new(&names)));
        Ok(())
    })
}

/// The tool definitions to send to the model: a compact JSON array
/// `[{"name":..,"description":..,"parameters":{..}},...]` sorted by name, the same
/// bytes on every run for the same registrations (keys inside each schema keep the
/// author's order). Computed once per change of the tool set; this call copies it.
///
/// On success writes a new `tg_text` to `*definitions_out`; the caller owns it and
/// frees it with `tg_text_free`. Errors: `TG_ERR_NULL`. Thread-safety: any thread.
///
/// # Safety
/// `registry` is NULL or a live `tg_registry`; `definitions_out` and `error_out` are
/// NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn tg_registry_definitions(
    registry: *const tg_registry,
    definitions_out: *mut *mut tg_text,
    error_out: *mut *mut tg_error,
) -> tg_status {
    ffi_boundary("tg_registry_definitions", error_out, || {
        // SAFETY: `registry` is NULL or a live handle for the whole call, as this
        // function's `# Safety` requires: what `arg_ref` needs.
        let registry = unsafe { arg_ref(registry, "registry")? };
        // SAFETY: `definitions_out` is NULL or writable, as this function's `# Safety`
        // requires: what `out_ptr` needs.
        let definitions_out = unsafe { out_ptr(definitions_out, "definitions_out")? };
        let definitions = registry.registry.definitions_json();
        definitions_out.write(into_handle(tg_text::new(&definitions)));
        Ok(())
    })
}

/// Validates `args[0..args_len)` against the parameters schema of the tool
/// `name[0..name_len)` without running it (empty arguments are read as `{}`).
///
/// On success writes a new violation list to `*errors_out` (count 0 when valid); the
/// caller owns it and frees it with `tg_errors_free`. Errors: `TG_ERR_NULL`,
/// `TG_ERR_UTF8` (name), `TG_ERR_NOT_FOUND`; the message comes back through
/// `error_out` (when not NULL).
///
/// Ownership: `name` and `args` are borrowed for the call. Thread-safety: any thread.
///
/// # Safety
/// `registry` is NULL or a live `tg_registry`; `name`/`args` are NULL or point to
/// `name_len`/`args_len` readable bytes; `errors_out` and `error_out` are NULL or
/// writable.
#[no_mangle]
pub unsafe extern "C" fn tg_registry_validate(
    registry: *const tg_registry,
    name: *const c_char,
    name_len: usize,
    args: *const c_char,
    args_len: usize,
    errors_out: *mut *mut tg_errors,
    error_out: *mut *mut tg_error,
) -> tg_status {
    ffi_boundary("tg_registry_validate", error_out, || {
        // SAFETY: `registry` is NULL or a live handle for the whole call, as this
        // function's `# Safety` requires: what `arg_ref` needs.
        let registry = unsafe { arg_ref(registry, "registry")? };
        // SAFETY: `name` is NULL or points to its length's readable bytes, unchanged
        // during the call, as this function's `# Safety` requires: what `arg_str`
        // needs.
        let name = unsafe { arg_str(name, name_len, "name")? };
        // SAFETY: `args` is NULL or points to its length's readable bytes, unchanged
        // during the call, as this function's `# Safety` requires: what `arg_bytes`
        // needs.
        let args = unsafe { arg_bytes(args, args_len, "args")? };
        // SAFETY: `errors_out` is NULL or writable, as this function's `# Safety`
        // requires: what `out_ptr` needs.
        let errors_out = unsafe { out_ptr(errors_out, "errors_out")? };
        let errors = registry
            .registry
            .validate(name, args)
            .ok_or_else(|| not_found(name))?;
        errors_out.write(into_handle(tg_errors::new(errors)));
        Ok(())
    })
}

/// Calls the tool `name[0..name_len)` with the argument bytes `args[0..args_len)`
/// for the model's call `call_id[0..call_id_len)`.
///
/// Whatever the model sent, the call returns `TG_OK` and a result: the tool's answer
/// when the arguments passed its schema and the handler succeeded (the handler ran
/// once, with exactly these bytes; empty arguments are passed as `{}`), or an
/// `is_error` result whose content starts with `error: ` and that the model can read:
/// an unknown tool (`error: unknown tool "x"; available tools: a, b`), malformed JSON,
/// schema violations (`error: invalid arguments for NAME:` then one `path: message`
/// line per violation; the handler does not run), the handler's failure, or, for a
/// tool with an output schema, an answer that schema refuses (`error: tool NAME
/// returned an invalid result:` then one line per violation; a refusal lists at most
/// 100, then `$: more violations not listed (the first 100 are)`). `tg_result_outcome` says
/// which, `tg_result_violations` lists the violations. `call_ctx` is passed to the
/// handler unchanged.
///
/// On success writes a new result to `*result_out`; the caller owns it and frees it
/// with `tg_result_free`. Only the caller's own mistakes fail the call:
/// `TG_ERR_NULL`, `TG_ERR_UTF8` (`call_id` or `name` not UTF-8; `args` need not be
/// UTF-8: invalid bytes are reported as malformed JSON in the result); the message
/// comes back through `error_out` (when not NULL).
///
/// Ownership: `call_id`, `name` and `args` are borrowed for the call; `call_ctx` is
/// not touched by the library. Thread-safety: any thread, calls run in parallel; no
/// lock is held while the handler runs.
///
/// # Safety
/// `registry` is NULL or a live `tg_registry`; each text pointer is NULL or points to
/// its length in readable bytes; `result_out` and `error_out` are NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn tg_registry_call(
    registry: *const tg_registry,
    call_id: *const c_char,
    call_id_len: usize,
    name: *const c_char,
    name_len: usize,
    args: *const c_char,
    args_len: usize,
    call_ctx: *mut c_void,
    result_out: *mut *mut tg_result,
    error_out: *mut *mut tg_error,
) -> tg_status {
    ffi_boundary("tg_registry_call", error_out, || {
        // SAFETY: the registry, texts and out-parameters are NULL or valid as this
        // function's `# Safety` lists them: what `CallArgs::read` needs.
        let call = unsafe {
            CallArgs::read(
                registry,
                call_id,
                call_id_len,
                name,
                name_len,
                args,
                args_len,
            )?
        };
        // SAFETY: `result_out` is NULL or writable, as this function's `# Safety`
        // requires: what `out_ptr` needs.
        let result_out = unsafe { out_ptr(result_out, "result_out")? };
        result_out.write(into_handle(tg_result::new(
            call.call_id,
            call.name,
            |content, details| call.run(call_ctx, content, details),
        )));
        Ok(())
    })
}

/// The inputs of `tg_registry_call` and `tg_registry_call_into`, checked.
struct CallArgs<'a> {
    registry: &'a Registry,
    call_id: &'a str,
    name: &'a str,
    args: &'a [u8],
}

impl<'a> CallArgs<'a> {
    /// # Safety
    /// As `tg_registry_call` for these parameters.
    #[inline(always)]
    unsafe fn read(
        registry: *const tg_registry,
        call_id: *const c_char,
        call_id_len: usize,
        name: *const c_char,
        name_len: usize,
        args: *const c_char,
        args_len: usize,
    ) -> FfiResult<CallArgs<'a>> {
        // SAFETY: `registry` is NULL or a live handle for the whole call, as this
        // function's `# Safety` requires: what `arg_ref` needs.
        let registry = unsafe { arg_ref(registry, "registry")? };
        Ok(CallArgs {
            registry: &registry.registry,
            // SAFETY: `call_id` is NULL or points to its length's readable bytes,
            // unchanged during the call, as this function's `# Safety` requires: what
            // `arg_str` needs.
            call_id: unsafe { arg_str(call_id, call_id_len, "call_id")? },
            // SAFETY: `name` is NULL or points to its length's readable bytes,
            // unchanged during the call, as this function's `# Safety` requires: what
            // `arg_str` needs.
            name: unsafe { arg_str(name, name_len, "name")? },
            // SAFETY: `args` is NULL or points to its length's readable bytes,
            // unchanged during the call, as this function's `# Safety` requires: what
            // `arg_bytes` needs.
            args: unsafe { arg_bytes(args, args_len, "args")? },
        })
    }

    /// Runs the call, writing its content into `content` and what became of it into
    /// `details`.
    #[inline(always)]
    fn run(&self, call_ctx: *mut c_void, content: &mut String, details: &mut CallDetails) {
        self.registry.details_into(
            self.name,
            self.args,
            &CallContext::with_data(&CallPointer(call_ctx)),
            content,
            details,
        )
    }
}

/// `tg_registry_call` into a result the caller reuses: the same call, with the same
/// outcomes and statuses, but instead of a new result it overwrites `result` (made by
/// `tg_result_new` or an earlier `tg_registry_call`) whole: call id, name, content,
/// error flag and tool message. Its buffers keep their capacity, so a loop that
/// reuses one result per thread allocates nothing per call once they have grown to
/// fit: the handler's `tg_reply_ok` text is copied straight into the result.
///
/// Texts obtained from `result` before this call are invalid once it starts. On a
/// failure status (`TG_ERR_NULL`, `TG_ERR_UTF8`, as for `tg_registry_call`) nothing
/// ran and `result` is unchanged.
///
/// Ownership: `result` stays the caller's. Thread-safety: any thread, calls run in
/// parallel, but `result` must not be used by anything else until this returns: not
/// by another thread, and not by the handler this call runs (give each thread, and
/// each nesting level, its own result).
///
/// # Safety
/// `registry` is NULL or a live `tg_registry`; `result` is NULL or a live `tg_result`
/// that nothing else uses during the call; each text pointer is NULL or points to its
/// length in readable bytes; `error_out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn tg_registry_call_into(
    registry: *const tg_registry,
    call_id: *const c_char,
    call_id_len: usize,
    name: *const c_char,
    name_len: usize,
    args: *const c_char,
    args_len: usize,
    call_ctx: *mut c_void,
    result: *mut tg_result,
    error_out: *mut *mut tg_error,
) -> tg_status {
    ffi_boundary("tg_registry_call_into", error_out, || {
        // SAFETY: the registry, texts and out-parameters are NULL or valid as this
        // function's `# Safety` lists them: what `CallArgs::read` needs.
        let call = unsafe {
            CallArgs::read(
                registry,
                call_id,
                call_id_len,
                name,
                name_len,
                args,
                args_len,
            )?
        };
        // SAFETY: `result` is NULL or a live result that nothing else (not even the
        // handler) uses until this call returns, as this function's `# Safety`
        // requires: what `arg_mut` needs.
        let result = unsafe { arg_mut(result, "result")? };
        result.refill(call.call_id, call.name, |content, details| {
            call.run(call_ctx, content, details)
        });
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn name_patterns_are_the_cores_with_a_nul() {
        for (raw, policy) in [
            (tg_name_policy::TG_NAMES_DEFAULT, NamePolicy::Default),
            (tg_name_policy::TG_NAMES_DOTTED, NamePolicy::Dotted),
            (tg_name_policy::TG_NAMES_MCP, NamePolicy::Mcp),
        ] {
            let ptr = tg_name_policy_pattern(raw as RawNamePolicy);
            // SAFETY: a non-NULL result is a static NUL-terminated string.
            let text = unsafe { std::ffi::CStr::from_ptr(ptr) };
            assert_eq!(text.to_str().unwrap(), policy.pattern());
        }
        assert!(tg_name_policy_pattern(7).is_null());
    }
}
