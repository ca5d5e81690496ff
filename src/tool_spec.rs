//! `tg_tool_spec`: a tool to register, in a struct versioned by its `size` (the output
//! schema among its fields), for `tg_registry_register_tool` and
//! `tg_registry_register_tools`.
//!
//! `tg_tool_def` (of `tg_registry_register`) has no `size` field, so it can never grow:
//! it stays as it is for the hosts built against it, and every new field of a tool
//! goes here.

use std::ffi::{c_char, c_void};

use super::boundary::{arg_bytes, arg_options, arg_str, FfiResult, OptionsStruct};
use super::reply::{tg_destroy_fn, tg_handler_fn};
use toolgate_core::registry::ToolSpec;

/// A tool to register with `tg_registry_register_tool` (or, through a
/// `tg_tool_binding`, `tg_registry_register_tools`): what `tg_tool_def` says, and the
/// tool's output schema.
///
/// Every field's zero value means its default, so the way to make one is
/// `tg_tool_spec spec = { .size = sizeof spec };` (C++: `tg_tool_spec spec{};
/// spec.size = sizeof spec;`) and then to set the fields the tool has. As for
/// `tg_registry_options`, fields are only ever appended: the library reads the first
/// `size` bytes (the size of this or of an earlier version of the struct), takes the
/// defaults for fields beyond them, and refuses non-zero bytes beyond the fields it
/// knows.
///
/// ```c
/// tg_tool_spec spec = { .size = sizeof spec };
/// spec.name = "get_weather";
/// spec.name_len = strlen(spec.name);
/// spec.parameters = params;
/// spec.parameters_len = strlen(params);
/// spec.output_schema = "{\"type\":\"object\",\"required\":[\"temp\"]}";
/// spec.output_schema_len = strlen(spec.output_schema);
/// tg_status s = tg_registry_register_tool(reg, &spec, handler, data, destroy, 0, &err);
/// ```
///
/// Every text is pointer + length (not NUL-terminated), borrowed for the registering
/// call only (the library copies it).
#[repr(C)]
#[derive(Clone, Copy)]
pub struct tg_tool_spec {
    /// `sizeof(tg_tool_spec)` as the caller compiled it.
    pub size: usize,
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
    /// The JSON Schema of the tool's answer, or NULL for none (and
    /// `output_schema_len` is ignored). It is compiled with the registry's schema
    /// options (its root may accept any JSON value, not only objects); a schema that
    /// does not compile refuses the registration (`TG_ERR_SCHEMA`, `invalid output
    /// schema for "NAME": ...`). With one, every answer of the handler must be JSON
    /// text of that shape: a conforming answer is passed on unchanged and the result
    /// is structured (`tg_result_structured`), any other becomes a result with outcome
    /// `TG_OUTCOME_INVALID_RESULT` (`tg_result_invalid_result` keeps the answer).
    pub output_schema: *const c_char,
    /// Length of `output_schema` in bytes.
    pub output_schema_len: usize,
    /// Stored and exposed for the dispatcher; 0 means none.
    pub timeout_ms: u64,
    /// Non-zero: the tool is idempotent (stored and exposed for the dispatcher's retry
    /// decisions). An integer, not a `bool`, so that any byte a caller leaves here is
    /// a value.
    pub idempotent: u32,
    /// Not read: the padding that ended the first version of the struct, whose bytes
    /// a caller built with its header may have left anything in.
    pub reserved: u32,
    /// Non-zero: the tool runs alone in a `tg_registry_dispatch`: the calls before it
    /// finish first, and the calls after it wait for it. 0, the default, runs it
    /// beside the others. An integer, not a `bool`, so that any byte a caller leaves
    /// here is a value.
    pub exclusive: u32,
}

// SAFETY: `size` (a usize) is the first field, and every field is an integer or a raw
// pointer, for which every bit pattern is a value (`#[repr(C)]`, no references, no
// bool).
unsafe impl OptionsStruct for tg_tool_spec {
    const NAME: &'static str = "tg_tool_spec";
    /// The first version (its `idempotent` followed by padding) ended before
    /// `exclusive`.
    const VERSIONS: &'static [usize] = &[
        std::mem::offset_of!(tg_tool_spec, exclusive),
        std::mem::size_of::<tg_tool_spec>(),
    ];
}

/// One tool of `tg_registry_register_tools`: its spec and what runs its calls, as
/// `tg_registry_register_tool` takes them for one tool.
#[repr(C)]
pub struct tg_tool_binding {
    /// The tool (its own `size` says which version of `tg_tool_spec` it is); must not
    /// be NULL. Borrowed for the call, as its texts are.
    pub spec: *const tg_tool_spec,
    /// Runs the tool's calls; must not be NULL.
    pub handler: tg_handler_fn,
    /// Passed to `handler` and `destroy`; belongs to the registration (see
    /// `tg_registry_register_tools`).
    pub user_data: *mut c_void,
    /// Releases `user_data`, or NULL.
    pub destroy: tg_destroy_fn,
}

/// The tool a caller's `tg_tool_spec` describes, its texts copied; `param` names the
/// struct in errors (`spec`, `tools[3].spec`).
///
/// # Safety
/// `spec` is NULL or points to `spec->size` readable bytes, whose text pointers are
/// NULL or point to their lengths' readable bytes, none written during the call.
pub(crate) unsafe fn read_spec(spec: *const tg_tool_spec, param: &str) -> FfiResult<ToolSpec> {
    // SAFETY: `spec` is NULL or points to a readable struct of at least its `size`
    // bytes, as this function's `# Safety` requires: what `arg_options` needs.
    let s = unsafe { arg_options(spec, param)? };
    let field = |name: &str| format!("{param}->{name}");
    // SAFETY: the texts are NULL or point to their lengths' readable bytes, unchanged
    // during the call, as this function's `# Safety` requires: what `arg_str` needs.
    let name = unsafe { arg_str(s.name, s.name_len, &field("name"))? };
    // SAFETY: as above.
    let description = unsafe { arg_str(s.description, s.description_len, &field("description"))? };
    let schema = |ptr: *const c_char, len: usize, name: &str| -> FfiResult<Option<Vec<u8>>> {
        if ptr.is_null() {
            return Ok(None);
        }
        // SAFETY: `ptr` is not NULL and points to `len` readable bytes, as this
        // function's `# Safety` requires: what `arg_bytes` needs.
        Ok(Some(unsafe { arg_bytes(ptr, len, &field(name))? }.to_vec()))
    };
    Ok(ToolSpec {
        name: name.to_owned(),
        description: description.to_owned(),
        parameters: schema(s.parameters, s.parameters_len, "parameters")?,
        output_schema: schema(s.output_schema, s.output_schema_len, "output_schema")?,
        idempotent: s.idempotent != 0,
        timeout_ms: s.timeout_ms,
        exclusive: s.exclusive != 0,
    })
}
