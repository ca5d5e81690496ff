//! `tg_schema`: a compiled schema.

use std::ffi::c_char;

use super::boundary::{
    arg_bytes, arg_ref, ffi_boundary, ffi_free, into_handle, out_ptr, text_accessor, CText, Failure,
};
use super::error::tg_error;
use super::errors::tg_errors;
use super::options::{compile_options, read_compile_options, tg_compile_options};
use super::status::tg_status;
use toolgate_core::schema::{CompileError, Options, Schema};
use toolgate_core::ValidationError;

/// The default nesting limit for schemas and instances (`max_depth` 0 means this).
pub const TG_DEFAULT_MAX_DEPTH: usize = 128;
/// The largest nesting limit; larger `max_depth` values are clamped to it.
pub const TG_MAX_DEPTH_LIMIT: usize = 1024;

/// The most violations a registry lists in a refusal, and a good `max` for
/// `tg_schema_validate_at_most` when the list goes back to a model.
pub const TG_LISTED_VIOLATIONS: usize = 100;

const _: () = assert!(TG_DEFAULT_MAX_DEPTH == Options::DEFAULT_MAX_DEPTH);
const _: () = assert!(TG_LISTED_VIOLATIONS == Schema::LISTED_VIOLATIONS);
const _: () = assert!(TG_MAX_DEPTH_LIMIT == Options::MAX_DEPTH_LIMIT);

/// A compiled JSON Schema. Created by `tg_schema_compile` (core profile) or
/// `tg_schema_compile_with` (the profile and options the caller chose); the caller owns
/// it and frees it with `tg_schema_free`.
///
/// Thread-safety: immutable; validate with it from any number of threads at once.
pub struct tg_schema {
    schema: Schema,
    json: CText,
}

impl tg_schema {
    /// The schema behind the handle, for the other C modules.
    pub(crate) fn core(&self) -> &Schema {
        &self.schema
    }
}

pub(crate) fn compile_failure(error: CompileError) -> Failure {
    let message = error.to_string();
    Failure::new(tg_status::TG_ERR_SCHEMA, message).at(&error.pointer, &error.keyword)
}

/// Compiles the schema in `json[0..json_len)` (UTF-8 JSON, not NUL-terminated) in
/// the core profile; `tg_schema_compile_with` chooses the profile and the other
/// options.
///
/// `max_depth` bounds nesting, of the schema now and of instances at validation:
/// 0 means the default (`TG_DEFAULT_MAX_DEPTH`, 128); values above
/// `TG_MAX_DEPTH_LIMIT` are clamped to it.
///
/// On success writes a new schema to `*schema_out`; the caller owns it and frees it
/// with `tg_schema_free`. On failure `*schema_out` is untouched and, when `error_out`
/// is not NULL, `*error_out` receives a new `tg_error` (free it with
/// `tg_error_free`) whose message says what is wrong and whose pointer and keyword
/// say where.
///
/// Errors: `TG_ERR_NULL` (`json` NULL with `json_len` > 0, or `schema_out` NULL),
/// `TG_ERR_SCHEMA` (not JSON, not a schema, an unsupported keyword such as `format`,
/// an unknown type, a bad pattern, an empty enum, ...).
///
/// Ownership: `json` is borrowed for the call only. Thread-safety: any thread.
///
/// # Safety
/// `json` is NULL or points to `json_len` readable bytes; `schema_out` is NULL or
/// writable; `error_out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn tg_schema_compile(
    json: *const c_char,
    json_len: usize,
    max_depth: usize,
    schema_out: *mut *mut tg_schema,
    error_out: *mut *mut tg_error,
) -> tg_status {
    ffi_boundary("tg_schema_compile", error_out, || {
        // SAFETY: `json` is NULL or points to its length's readable bytes, unchanged
        // during the call, as this function's `# Safety` requires: what `arg_bytes`
        // needs.
        let json = unsafe { arg_bytes(json, json_len, "json")? };
        // SAFETY: `schema_out` is NULL or writable, as this function's `# Safety`
        // requires: what `out_ptr` needs.
        let schema_out = unsafe { out_ptr(schema_out, "schema_out")? };
        let options = Options::default().with_max_depth(max_depth);
        let schema = Schema::compile_with(json, &options).map_err(compile_failure)?;
        let json = CText::from(schema.to_json());
        schema_out.write(into_handle(tg_schema { schema, json }));
        Ok(())
    })
}

/// Compiles the schema in `json[0..json_len)` (UTF-8 JSON, not NUL-terminated) as
/// `options` say: the profile (`TG_PROFILE_FULL` for JSON Schema draft 2020-12 and
/// draft-07), the draft of a schema without `$schema`, the nesting limit, the resources
/// references may reach and the format names taken as annotations. Zeroed options
/// (`{ .size = sizeof options }`) compile as `tg_schema_compile(json, json_len, 0, ...)`
/// does.
///
/// ```c
/// tg_compile_options options = { .size = sizeof options };
/// options.profile = TG_PROFILE_FULL;
/// tg_schema *schema = NULL;
/// tg_error *err = NULL;
/// tg_status s = tg_schema_compile_with(json, json_len, &options, &schema, &err);
/// ```
///
/// On success writes a new schema to `*schema_out`; the caller owns it and frees it
/// with `tg_schema_free`. On failure `*schema_out` is untouched and, when `error_out`
/// is not NULL, `*error_out` receives a new `tg_error` (free it with
/// `tg_error_free`) whose message says what is wrong and whose pointer and keyword
/// say where.
///
/// Errors: `TG_ERR_NULL` (`json` NULL with `json_len` > 0, `options` or `schema_out`
/// NULL, an array of the options NULL with a non-zero count, a text of it NULL with a
/// non-zero length), `TG_ERR_ARGUMENT` (`options->size` not the size of any version
/// of the struct, non-zero bytes beyond the fields this library knows, a `profile` or
/// `default_draft` that is none of its values), `TG_ERR_UTF8` (a resource URI or a
/// format name not UTF-8), `TG_ERR_SCHEMA` (a resource that is not JSON; the schema
/// is not JSON, not a schema, or uses what its profile refuses).
///
/// Ownership: `json`, `options` and everything it points to are borrowed for the call
/// only (the schema keeps copies of the resources). Thread-safety: any thread.
///
/// # Safety
/// `json` is NULL or points to `json_len` readable bytes; `options` is NULL or points
/// to `options->size` readable bytes whose arrays and texts are NULL or readable for
/// their counts and lengths; `schema_out` and `error_out` are NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn tg_schema_compile_with(
    json: *const c_char,
    json_len: usize,
    options: *const tg_compile_options,
    schema_out: *mut *mut tg_schema,
    error_out: *mut *mut tg_error,
) -> tg_status {
    ffi_boundary("tg_schema_compile_with", error_out, || {
        // SAFETY: `json` is NULL or points to its length's readable bytes, unchanged
        // during the call, as this function's `# Safety` requires: what `arg_bytes`
        // needs.
        let json = unsafe { arg_bytes(json, json_len, "json")? };
        // SAFETY: `options` is NULL or points to a readable options struct of at least
        // its `size` bytes, as this function's `# Safety` requires.
        let raw = unsafe { read_compile_options(options, "options")? };
        // SAFETY: `schema_out` is NULL or writable, as this function's `# Safety`
        // requires: what `out_ptr` needs.
        let schema_out = unsafe { out_ptr(schema_out, "schema_out")? };
        // SAFETY: the options' arrays and texts are NULL or readable for their counts
        // and lengths, as this function's `# Safety` requires: what `compile_options`
        // needs.
        let options = unsafe { compile_options(&raw, raw.max_depth, "options")? };
        let schema = Schema::compile_with(json, &options).map_err(compile_failure)?;
        let json = CText::from(schema.to_json());
        schema_out.write(into_handle(tg_schema { schema, json }));
        Ok(())
    })
}

/// Whether `instance[0..instance_len)` is well-formed JSON that satisfies `schema`:
/// the fast path, which allocates nothing on valid input. Empty input (no bytes, or
/// only whitespace) is malformed JSON, so not valid; for tool-call arguments, where
/// empty means `{}`, use `tg_schema_is_valid_arguments`.
///
/// On success writes the answer to `*valid_out`. Errors: `TG_ERR_NULL`.
/// Ownership: everything is borrowed for the call. Thread-safety: any thread,
/// concurrently with other validations on the same schema.
///
/// # Safety
/// `schema` is NULL or a live `tg_schema`; `instance` is NULL or points to
/// `instance_len` readable bytes; `valid_out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn tg_schema_is_valid(
    schema: *const tg_schema,
    instance: *const c_char,
    instance_len: usize,
    valid_out: *mut bool,
) -> tg_status {
    ffi_boundary("tg_schema_is_valid", std::ptr::null_mut(), || {
        // SAFETY: `schema` is NULL or a live handle for the whole call, as this
        // function's `# Safety` requires: what `arg_ref` needs.
        let schema = unsafe { arg_ref(schema, "schema")? };
        // SAFETY: `instance` is NULL or points to its length's readable bytes,
        // unchanged during the call, as this function's `# Safety` requires: what
        // `arg_bytes` needs.
        let instance = unsafe { arg_bytes(instance, instance_len, "instance")? };
        // SAFETY: `valid_out` is NULL or writable, as this function's `# Safety`
        // requires: what `out_ptr` needs.
        let valid_out = unsafe { out_ptr(valid_out, "valid_out")? };
        valid_out.write(schema.schema.is_valid(instance));
        Ok(())
    })
}

/// Validates `instance[0..instance_len)` against `schema` and lists every violation,
/// sorted by path then message. Malformed JSON is one violation at `$` (keyword
/// `json`) with line and column; empty input is malformed (`unexpected end of input`;
/// for tool-call arguments, where empty means `{}`, use `tg_schema_validate_arguments`).
/// An invalid instance is
/// not a failure of the call: it returns `TG_OK` with a non-empty list.
///
/// On success writes a new list to `*errors_out` (count 0 when valid); the caller owns
/// it and frees it with `tg_errors_free`. On failure `*errors_out` is untouched and
/// `*error_out` (when not NULL) receives a `tg_error` to free with `tg_error_free`.
///
/// Errors: `TG_ERR_NULL`. Ownership: `schema` and `instance` are borrowed for the
/// call only. Thread-safety: any thread, concurrently with other validations.
///
/// # Safety
/// `schema` is NULL or a live `tg_schema`; `instance` is NULL or points to
/// `instance_len` readable bytes; `errors_out` and `error_out` are NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn tg_schema_validate(
    schema: *const tg_schema,
    instance: *const c_char,
    instance_len: usize,
    errors_out: *mut *mut tg_errors,
    error_out: *mut *mut tg_error,
) -> tg_status {
    // SAFETY: this function's `# Safety` is `list_violations`'s.
    unsafe {
        list_violations(
            "tg_schema_validate",
            "instance",
            Schema::validate_json_at_most,
            schema,
            instance,
            instance_len,
            usize::MAX,
            errors_out,
            error_out,
        )
    }
}

/// The core's listing (`Schema::validate_json_at_most` or
/// `Schema::validate_arguments_at_most`), as a C function's body lists it.
type ListFn = fn(&Schema, &[u8], usize) -> Vec<ValidationError>;

/// The body of the four listing functions: `list` of the bytes, named `parameter` in
/// a NULL-argument error.
///
/// # Safety
/// `schema` is NULL or a live `tg_schema`; `instance` is NULL or points to `len`
/// readable bytes; `errors_out` and `error_out` are NULL or writable.
#[allow(clippy::too_many_arguments)]
unsafe fn list_violations(
    function: &'static str,
    parameter: &'static str,
    list: ListFn,
    schema: *const tg_schema,
    instance: *const c_char,
    len: usize,
    max: usize,
    errors_out: *mut *mut tg_errors,
    error_out: *mut *mut tg_error,
) -> tg_status {
    ffi_boundary(function, error_out, || {
        // SAFETY: `schema` is NULL or a live handle for the whole call, as this
        // function's `# Safety` requires: what `arg_ref` needs.
        let schema = unsafe { arg_ref(schema, "schema")? };
        // SAFETY: `instance` is NULL or points to its length's readable bytes,
        // unchanged during the call, as this function's `# Safety` requires: what
        // `arg_bytes` needs.
        let instance = unsafe { arg_bytes(instance, len, parameter)? };
        // SAFETY: `errors_out` is NULL or writable, as this function's `# Safety`
        // requires: what `out_ptr` needs.
        let errors_out = unsafe { out_ptr(errors_out, "errors_out")? };
        errors_out.write(into_handle(tg_errors::new(list(
            &schema.schema,
            instance,
            max,
        ))));
        Ok(())
    })
}

/// `tg_schema_validate` listing at most `max` violations, for a list that goes back to
/// a model or a log: the first `max` the validation meets in the instance, sorted by
/// path then message, then, when there were more, one last violation at `$` (keyword
/// `violations`, schema location `#`) that says so. Validation stops at the first
/// violation past `max`, so an instance that breaks a rule a million times costs about
/// what a valid one does (every violation carries its path: the whole list can be the
/// instance's length times its nesting). Malformed JSON is still the one violation,
/// wherever it is. A registry lists at most `TG_LISTED_VIOLATIONS` (100) in a refusal.
///
/// On success writes a new list to `*errors_out` (count 0 when valid; at most `max + 1`
/// violations); the caller owns it and frees it with `tg_errors_free`. On failure
/// `*errors_out` is untouched and `*error_out` (when not NULL) receives a `tg_error` to
/// free with `tg_error_free`.
///
/// Errors: `TG_ERR_NULL`. Ownership: `schema` and `instance` are borrowed for the
/// call only. Thread-safety: any thread, concurrently with other validations.
///
/// # Safety
/// `schema` is NULL or a live `tg_schema`; `instance` is NULL or points to
/// `instance_len` readable bytes; `errors_out` and `error_out` are NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn tg_schema_validate_at_most(
    schema: *const tg_schema,
    instance: *const c_char,
    instance_len: usize,
    max: usize,
    errors_out: *mut *mut tg_errors,
    error_out: *mut *mut tg_error,
) -> tg_status {
    // SAFETY: this function's `# Safety` is `list_violations`'s.
    unsafe {
        list_violations(
            "tg_schema_validate_at_most",
            "instance",
            Schema::validate_json_at_most,
            schema,
            instance,
            instance_len,
            max,
            errors_out,
            error_out,
        )
    }
}

/// `tg_schema_is_valid` for tool-call arguments: empty arguments (no bytes, or only
/// whitespace) mean `{}`, as in `tg_registry_call` and `tg_registry_validate`. For a
/// host that validates arguments outside a registry.
///
/// On success writes the answer to `*valid_out`. Errors: `TG_ERR_NULL`.
/// Ownership: everything is borrowed for the call. Thread-safety: any thread,
/// concurrently with other validations on the same schema.
///
/// # Safety
/// `schema` is NULL or a live `tg_schema`; `args` is NULL or points to `args_len`
/// readable bytes; `valid_out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn tg_schema_is_valid_arguments(
    schema: *const tg_schema,
    args: *const c_char,
    args_len: usize,
    valid_out: *mut bool,
) -> tg_status {
    ffi_boundary("tg_schema_is_valid_arguments", std::ptr::null_mut(), || {
        // SAFETY: `schema` is NULL or a live handle for the whole call, as this
        // function's `# Safety` requires: what `arg_ref` needs.
        let schema = unsafe { arg_ref(schema, "schema")? };
        // SAFETY: `args` is NULL or points to its length's readable bytes, unchanged
        // during the call, as this function's `# Safety` requires: what `arg_bytes`
        // needs.
        let args = unsafe { arg_bytes(args, args_len, "args")? };
        // SAFETY: `valid_out` is NULL or writable, as this function's `# Safety`
        // requires: what `out_ptr` needs.
        let valid_out = unsafe { out_ptr(valid_out, "valid_out")? };
        valid_out.write(schema.schema.is_valid_arguments(args));
        Ok(())
    })
}

/// `tg_schema_validate` for tool-call arguments: empty arguments (no bytes, or only
/// whitespace) mean `{}`, as in `tg_registry_call` and `tg_registry_validate`.
///
/// On success writes a new list to `*errors_out` (count 0 when valid); the caller owns
/// it and frees it with `tg_errors_free`. On failure `*errors_out` is untouched and
/// `*error_out` (when not NULL) receives a `tg_error` to free with `tg_error_free`.
///
/// Errors: `TG_ERR_NULL`. Ownership: `schema` and `args` are borrowed for the call
/// only. Thread-safety: any thread, concurrently with other validations.
///
/// # Safety
/// `schema` is NULL or a live `tg_schema`; `args` is NULL or points to `args_len`
/// readable bytes; `errors_out` and `error_out` are NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn tg_schema_validate_arguments(
    schema: *const tg_schema,
    args: *const c_char,
    args_len: usize,
    errors_out: *mut *mut tg_errors,
    error_out: *mut *mut tg_error,
) -> tg_status {
    // SAFETY: this function's `# Safety` is `list_violations`'s.
    unsafe {
        list_violations(
            "tg_schema_validate_arguments",
            "args",
            Schema::validate_arguments_at_most,
            schema,
            args,
            args_len,
            usize::MAX,
            errors_out,
            error_out,
        )
    }
}

/// `tg_schema_validate_at_most` for tool-call arguments: empty arguments (no bytes, or
/// only whitespace) mean `{}`, as in `tg_registry_call`, which lists what this lists
/// with `max` = `TG_LISTED_VIOLATIONS`.
///
/// On success writes a new list to `*errors_out` (count 0 when valid; at most `max + 1`
/// violations); the caller owns it and frees it with `tg_errors_free`. On failure
/// `*errors_out` is untouched and `*error_out` (when not NULL) receives a `tg_error` to
/// free with `tg_error_free`.
///
/// Errors: `TG_ERR_NULL`. Ownership: `schema` and `args` are borrowed for the call
/// only. Thread-safety: any thread, concurrently with other validations.
///
/// # Safety
/// `schema` is NULL or a live `tg_schema`; `args` is NULL or points to `args_len`
/// readable bytes; `errors_out` and `error_out` are NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn tg_schema_validate_arguments_at_most(
    schema: *const tg_schema,
    args: *const c_char,
    args_len: usize,
    max: usize,
    errors_out: *mut *mut tg_errors,
    error_out: *mut *mut tg_error,
) -> tg_status {
    // SAFETY: this function's `# Safety` is `list_violations`'s.
    unsafe {
        list_violations(
            "tg_schema_validate_arguments_at_most",
            "args",
            Schema::validate_arguments_at_most,
            schema,
            args,
            args_len,
            max,
            errors_out,
            error_out,
        )
    }
}

/// The schema as compact JSON, keys in the author's order (what a tool definition
/// sends to the model).
///
/// On success writes pointer and length (in bytes, without the terminating NUL) to
/// `*text_out` and `*len_out`; the text is UTF-8, also NUL-terminated, owned by
/// `schema` and valid until `tg_schema_free(schema)`.
///
/// Errors: `TG_ERR_NULL`. Thread-safety: any thread.
///
/// # Safety
/// `schema` is NULL or a live `tg_schema`; `text_out` and `len_out` are NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn tg_schema_json(
    schema: *const tg_schema,
    text_out: *mut *const c_char,
    len_out: *mut usize,
) -> tg_status {
    ffi_boundary("tg_schema_json", std::ptr::null_mut(), || {
        // SAFETY: `schema` is NULL or live, and the out-parameters NULL or writable, as
        // this function's `# Safety` requires: what `text_accessor` needs.
        unsafe { text_accessor(schema, "schema", text_out, len_out, |s| Ok(&s.json)) }
    })
}

/// Frees a compiled schema. NULL is a no-op.
///
/// Ownership: takes ownership of `schema`; texts obtained from it are invalid
/// afterwards (lists it produced are independent and stay valid). Thread-safety: must
/// not race with other uses of `schema`.
///
/// # Safety
/// `schema` is NULL or a live `tg_schema` not freed before.
#[no_mangle]
pub unsafe extern "C" fn tg_schema_free(schema: *mut tg_schema) {
    // SAFETY: `schema` is NULL or a handle this library returned and nobody freed or
    // uses any more, as this function's `# Safety` requires: what `ffi_free` needs.
    unsafe { ffi_free(schema) }
}
