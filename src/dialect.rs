//! Provider dialects over C: a registry's definitions in each provider's shape with
//! their fingerprint, and the lint of its tools against a provider's strict mode.

use std::ffi::c_char;

use super::boundary::{
    arg_ref, arg_str, ffi_boundary, into_handle, not_a_value, out_ptr, Failure, FfiResult,
};
use super::error::tg_error;
use super::registry::tg_registry;
use super::status::tg_status;
use super::text::tg_text;
use toolgate_dialect::{
    lint_schema, strict_parameters, strict_refusal, DefinitionsRefused, Dialect, LintProblem,
    RegistryExt, Target,
};

/// A provider's shape for a tool list (`int32_t` in C).
#[repr(i32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum tg_dialect {
    /// OpenAI Chat Completions:
    /// `[{"type":"function","function":{"name","description","parameters","strict"?}}]`.
    TG_DIALECT_OPENAI_CHAT = 0,
    /// OpenAI Responses: `[{"type":"function","name","description","parameters","strict"?}]`.
    TG_DIALECT_OPENAI_RESPONSES = 1,
    /// Anthropic Messages: `[{"name","description","input_schema","strict"?}]`.
    TG_DIALECT_ANTHROPIC = 2,
    /// The `tools` array of an MCP `tools/list` result.
    TG_DIALECT_MCP = 3,
    /// Gemini: `{"functionDeclarations":[{"name","description","parametersJsonSchema"}]}`.
    TG_DIALECT_GEMINI = 4,
}

/// A dialect as it arrives from C: any `int32_t`. Rendered `tg_dialect` in the header.
pub type RawDialect = i32;

/// What a lint checks tools against (`int32_t` in C).
#[repr(i32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum tg_lint_target {
    /// OpenAI function calling with `"strict": true`.
    TG_LINT_OPENAI_STRICT = 0,
    /// Anthropic strict tool use.
    TG_LINT_ANTHROPIC_STRICT = 1,
    /// Gemini's `parameters` (the OpenAPI 3.0 subset).
    TG_LINT_GEMINI = 2,
}

/// A lint target as it arrives from C: any `int32_t`. Rendered `tg_lint_target`.
pub type RawLintTarget = i32;

pub(crate) fn dialect(raw: RawDialect) -> FfiResult<Dialect> {
    usize::try_from(raw)
        .ok()
        .and_then(|i| Dialect::ALL.get(i).copied())
        .ok_or_else(|| not_a_value("dialect", raw, "tg_dialect"))
}

pub(crate) fn target(raw: RawLintTarget) -> FfiResult<Target> {
    usize::try_from(raw)
        .ok()
        .and_then(|i| Target::ALL.get(i).copied())
        .ok_or_else(|| not_a_value("target", raw, "tg_lint_target"))
}

/// The registry's tools in `dialect`'s shape, sorted by name, byte-stable, and the
/// SHA-256 of those exact bytes as 64 lowercase hex digits (a prompt-cache key that
/// changes when the tool set does). Computed once per change of the tool set.
///
/// Never what the provider would refuse: a dotted name (`db.get_user`) is written with
/// each `.` as `_` (`db_get_user`) for OpenAI, Anthropic and Gemini, and a call by that
/// spelling reaches the registered tool; anything else the provider's rules find (a
/// name no rewrite fixes, two tools under one spelling, a keyword outside Gemini's
/// subset) refuses the definitions, with a message of one line per problem
/// (`definitions for DIALECT refused:\nTOOL#POINTER: MESSAGE [RULE]`).
///
/// On success writes a new `tg_text` to `*definitions_out` and, when
/// `fingerprint_out` is not NULL, another to `*fingerprint_out`; the caller frees each
/// with `tg_text_free`. Errors: `TG_ERR_NULL`, `TG_ERR_ARGUMENT` (`dialect` is not a
/// `tg_dialect` value), `TG_ERR_NAME` (a refusal whose first problem is a tool name's:
/// rule `tool-name` or `name-collision`), `TG_ERR_SCHEMA` (a refusal whose first
/// problem is in a schema); the error's pointer and keyword are the first problem's
/// pointer and rule. Thread-safety: any thread.
///
/// # Safety
/// `registry` is NULL or a live `tg_registry`; `definitions_out`, `fingerprint_out`
/// and `error_out` are NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn tg_registry_dialect_definitions(
    registry: *const tg_registry,
    dialect: RawDialect,
    definitions_out: *mut *mut tg_text,
    fingerprint_out: *mut *mut tg_text,
    error_out: *mut *mut tg_error,
) -> tg_status {
    ffi_boundary("tg_registry_dialect_definitions", error_out, || {
        // SAFETY: `registry` is NULL or a live handle for the whole call, as this
        // function's `# Safety` requires: what `arg_ref` needs.
        let registry = unsafe { arg_ref(registry, "registry")? };
        // SAFETY: `definitions_out` is NULL or writable, as this function's `# Safety`
        // requires: what `out_ptr` needs.
        let definitions_out = unsafe { out_ptr(definitions_out, "definitions_out")? };
        let dialect = self::dialect(dialect)?;
        let definitions = registry
            .core()
            .definitions(dialect)
            .map_err(definitions_failure)?;
        if !fingerprint_out.is_null() {
            // SAFETY: `fingerprint_out` is non-NULL here and writable, as this
            // function's `# Safety` requires: what `out_ptr` needs.
            let fingerprint_out = unsafe { out_ptr(fingerprint_out, "fingerprint_out")? };
            fingerprint_out.write(into_handle(tg_text::new(definitions.fingerprint())));
        }
        definitions_out.write(into_handle(tg_text::new(definitions.json())));
        Ok(())
    })
}

/// Every problem `target` finds in the registered tools, as a compact JSON array of
/// `{"tool","pointer","rule","message"}` sorted by tool, pointer, rule and message
/// (`[]` when the provider accepts them all).
///
/// On success writes a new `tg_text` to `*lint_out`; the caller frees it with
/// `tg_text_free`. Errors: `TG_ERR_NULL`, `TG_ERR_ARGUMENT` (`target` is not a
/// `tg_lint_target` value). Thread-safety: any thread.
///
/// # Safety
/// `registry` is NULL or a live `tg_registry`; `lint_out` and `error_out` are NULL or
/// writable.
#[no_mangle]
pub unsafe extern "C" fn tg_registry_lint(
    registry: *const tg_registry,
    target: RawLintTarget,
    lint_out: *mut *mut tg_text,
    error_out: *mut *mut tg_error,
) -> tg_status {
    ffi_boundary("tg_registry_lint", error_out, || {
        // SAFETY: `registry` is NULL or a live handle for the whole call, as this
        // function's `# Safety` requires: what `arg_ref` needs.
        let registry = unsafe { arg_ref(registry, "registry")? };
        // SAFETY: `lint_out` is NULL or writable, as this function's `# Safety`
        // requires: what `out_ptr` needs.
        let lint_out = unsafe { out_ptr(lint_out, "lint_out")? };
        let target = self::target(target)?;
        let problems = registry.core().lint(target);
        lint_out.write(into_handle(tg_text::new(&LintProblem::json_array(
            &problems,
        ))));
        Ok(())
    })
}

/// A refusal of a dialect's definitions, located at its first problem.
fn definitions_failure(refused: DefinitionsRefused) -> Failure {
    let first = refused.problems.first();
    let (pointer, rule) = first.map_or(("", ""), |p| (p.pointer.as_str(), p.rule));
    let status = match rule {
        "tool-name" | "name-collision" => tg_status::TG_ERR_NAME,
        _ => tg_status::TG_ERR_SCHEMA,
    };
    Failure::new(status, refused.message).at(pointer, rule)
}

/// Converts one parameters schema (`json[0..json_len)`, UTF-8 JSON) into the form
/// `target` accepts, keeping what it means except for what the conversion states:
/// optional properties become required and nullable (OpenAI strict), and objects that
/// did not say `additionalProperties` are closed. Nothing that asserts is dropped.
///
/// On success writes the converted schema (compact JSON) to `*schema_out` and, when
/// `report_out` is not NULL, `{"nullable":[POINTER...],"closed":[POINTER...]}` (pointers
/// into the original schema: the properties made nullable, the objects closed) to
/// `*report_out`; the caller frees each with `tg_text_free`.
///
/// Errors: `TG_ERR_NULL`, `TG_ERR_UTF8`, `TG_ERR_ARGUMENT` (`target` is not a
/// `tg_lint_target` value), `TG_ERR_SCHEMA` when no strict form exists (not JSON, a
/// keyword the target lacks, a `oneOf` that cannot become `anyOf`, ...): the message
/// is `TARGET cannot take the schema, even converted:` and one `#POINTER: MESSAGE
/// [RULE]` line per problem; the error's pointer and keyword are the first problem's
/// pointer and rule. Ownership: `json` is borrowed for the call only. Thread-safety: any
/// thread.
///
/// # Safety
/// `json` is NULL or points to `json_len` readable bytes; `schema_out`, `report_out`
/// and `error_out` are NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn tg_strict_schema(
    target: RawLintTarget,
    json: *const c_char,
    json_len: usize,
    schema_out: *mut *mut tg_text,
    report_out: *mut *mut tg_text,
    error_out: *mut *mut tg_error,
) -> tg_status {
    ffi_boundary("tg_strict_schema", error_out, || {
        // SAFETY: `json` is NULL or points to `json_len` readable bytes, as this
        // function's `# Safety` requires: what `arg_str` needs.
        let json = unsafe { arg_str(json, json_len, "json")? };
        // SAFETY: `schema_out` is NULL or writable, as this function's `# Safety`
        // requires: what `out_ptr` needs.
        let schema_out = unsafe { out_ptr(schema_out, "schema_out")? };
        let target = self::target(target)?;
        let converted = strict_parameters(target, json).map_err(|problems| {
            let first = problems.first();
            let (pointer, rule) = first.map_or(("", ""), |p| (p.pointer.as_str(), p.rule));
            Failure::new(tg_status::TG_ERR_SCHEMA, strict_refusal(target, &problems))
                .at(pointer, rule)
        })?;
        if !report_out.is_null() {
            // SAFETY: `report_out` is non-NULL here and writable, as this function's
            // `# Safety` requires: what `out_ptr` needs.
            let report_out = unsafe { out_ptr(report_out, "report_out")? };
            report_out.write(into_handle(tg_text::new(&converted.report_json())));
        }
        schema_out.write(into_handle(tg_text::new(&converted.schema)));
        Ok(())
    })
}

/// Every problem `target` finds in one parameters schema (`json[0..json_len)`) on its
/// own, before it is any tool's (no tool name to check), as a compact JSON array of
/// `{"tool":"","pointer","rule","message"}` sorted by pointer, rule and message (`[]`
/// when the provider accepts it). Text that is not JSON is one problem (rule `json`),
/// not a failure.
///
/// On success writes a new `tg_text` to `*lint_out`; the caller frees it with
/// `tg_text_free`. Errors: `TG_ERR_NULL`, `TG_ERR_UTF8`, `TG_ERR_ARGUMENT` (`target` is
/// not a `tg_lint_target` value). Ownership: `json` is borrowed for the call only.
/// Thread-safety: any thread.
///
/// # Safety
/// `json` is NULL or points to `json_len` readable bytes; `lint_out` and `error_out`
/// are NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn tg_schema_lint(
    target: RawLintTarget,
    json: *const c_char,
    json_len: usize,
    lint_out: *mut *mut tg_text,
    error_out: *mut *mut tg_error,
) -> tg_status {
    ffi_boundary("tg_schema_lint", error_out, || {
        // SAFETY: `json` is NULL or points to `json_len` readable bytes, as this
        // function's `# Safety` requires: what `arg_str` needs.
        let json = unsafe { arg_str(json, json_len, "json")? };
        // SAFETY: `lint_out` is NULL or writable, as this function's `# Safety`
        // requires: what `out_ptr` needs.
        let lint_out = unsafe { out_ptr(lint_out, "lint_out")? };
        let target = self::target(target)?;
        let problems = lint_schema(target, json);
        lint_out.write(into_handle(tg_text::new(&LintProblem::json_array(
            &problems,
        ))));
        Ok(())
    })
}
