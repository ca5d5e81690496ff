//! `tg_compile_options`: how a schema is compiled (profile, draft, nesting limit,
//! resources for references, annotation-only format names), for
//! `tg_schema_compile_with` and for every tool of a registry (`tg_registry_options`).

use std::ffi::c_char;

use super::boundary::{
    arg_bytes, arg_options, arg_slice, arg_str, not_a_value, FfiResult, OptionsStruct,
};
use super::schema::compile_failure;
use toolgate_core::schema::{Draft, Options, Profile};

/// Which keywords a schema may use (`int32_t` in C).
#[repr(i32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum tg_profile {
    /// The core profile, the default: `type`, `enum`, `const`, `properties`, `required`,
    /// `additionalProperties`, `items`, `minItems`, `maxItems`, `minLength`,
    /// `maxLength`, `pattern`, `minimum`, `maximum`, `anyOf` and the annotations
    /// (`title`, `description`, `default`, `examples`, `$schema`, `$comment`). Any other
    /// keyword is refused.
    TG_PROFILE_CORE = 0,
    /// JSON Schema draft 2020-12 (or draft-07, when `$schema` names it or
    /// `default_draft` is `TG_DRAFT_7`), every vocabulary: references (`$ref`, `$defs`,
    /// `$id`, `$anchor`, `$dynamicRef`), every applicator, `unevaluated*`, every
    /// validation keyword, and `format` asserted. Keywords no vocabulary defines are
    /// still refused (names starting with `x-` are kept as annotations). References
    /// never reach the network: they resolve inside the schema, to the drafts'
    /// meta-schemas, or to the `resources` of the options.
    TG_PROFILE_FULL = 1,
}

/// The draft of a full-profile schema without `$schema` (`int32_t` in C).
#[repr(i32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum tg_draft {
    /// The default: draft 2020-12.
    TG_DRAFT_DEFAULT = 0,
    /// Draft-07 (`http://json-schema.org/draft-07/schema#`).
    TG_DRAFT_7 = 1,
    /// Draft 2020-12 (`https://json-schema.org/draft/2020-12/schema`).
    TG_DRAFT_2020_12 = 2,
}

/// A profile as it arrives from C: any `int32_t`. Rendered `tg_profile` in the header.
pub type RawProfile = i32;
/// A draft as it arrives from C: any `int32_t`. Rendered `tg_draft` in the header.
pub type RawDraft = i32;

/// A borrowed text: pointer + length (not NUL-terminated; NULL with length 0 is the
/// empty text).
#[repr(C)]
#[derive(Clone, Copy)]
pub struct tg_str {
    /// The text's first byte.
    pub ptr: *const c_char,
    /// Its length in bytes.
    pub len: usize,
}

/// A schema document that references may point to, registered under an absolute URI
/// (`"$ref": "https://example.com/address.json"` reaches the resource registered as
/// `https://example.com/address.json`; a fragment after it points inside).
#[repr(C)]
#[derive(Clone, Copy)]
pub struct tg_resource {
    /// The URI (UTF-8).
    pub uri: *const c_char,
    /// Length of `uri` in bytes.
    pub uri_len: usize,
    /// The document (JSON).
    pub json: *const c_char,
    /// Length of `json` in bytes.
    pub json_len: usize,
}

/// How a schema is compiled, for `tg_schema_compile_with`, and for every tool of a
/// registry through `tg_registry_options.schema`.
///
/// Every field's zero value means its default, so the way to make one is
/// `tg_compile_options options = { .size = sizeof options };` (C++:
/// `tg_compile_options options{}; options.size = sizeof options;`) and then to set only
/// the fields that differ. As for `tg_registry_options`, fields are only ever
/// appended: the library reads the first `size` bytes, takes the defaults for fields
/// beyond them (a caller built with an older header), and refuses non-zero bytes beyond
/// the fields it knows (a caller built with a newer header asking for an option this
/// library cannot honour).
///
/// ```c
/// tg_resource address = { .uri = "https://example.com/address.json", .uri_len = 32,
///                         .json = address_json, .json_len = strlen(address_json) };
/// tg_str openapi[] = { { "password", 8 }, { "binary", 6 } };
/// tg_compile_options options = { .size = sizeof options };
/// options.profile = TG_PROFILE_FULL;
/// options.resources = &address;
/// options.resource_count = 1;
/// options.annotation_formats = openapi;
/// options.annotation_format_count = 2;
/// ```
///
/// The texts the arrays point to are borrowed for the call that reads the options only:
/// the library copies what it keeps.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct tg_compile_options {
    /// `sizeof(tg_compile_options)` as the caller compiled it.
    pub size: usize,
    /// Which keywords a schema may use: `TG_PROFILE_CORE` (0, the default) or
    /// `TG_PROFILE_FULL`.
    pub profile: RawProfile,
    /// The draft of a schema without `$schema`, in the full profile: 0 (the default,
    /// draft 2020-12), `TG_DRAFT_7` or `TG_DRAFT_2020_12`. A schema's own `$schema`
    /// wins. The core profile does not read it.
    pub default_draft: RawDraft,
    /// The nesting limit, of the schema (and its resources) at compile time and of
    /// instances at validation. 0 means the default (`TG_DEFAULT_MAX_DEPTH`, 128);
    /// values above `TG_MAX_DEPTH_LIMIT` are clamped to it.
    pub max_depth: usize,
    /// `resource_count` schema documents that the full profile's references may point
    /// to, each under its URI; NULL with count 0 for none. A resource that is not JSON
    /// is refused (`TG_ERR_SCHEMA`: `resource "URI" is not valid JSON: ...`).
    pub resources: *const tg_resource,
    /// The number of `resources`.
    pub resource_count: usize,
    /// `annotation_format_count` format names (UTF-8) that the full profile accepts as
    /// annotations only, unchecked, beside the formats it asserts (for example
    /// OpenAPI's `password` and `binary`); any other unknown format is refused. NULL
    /// with count 0 for none.
    pub annotation_formats: *const tg_str,
    /// The number of `annotation_formats`.
    pub annotation_format_count: usize,
    /// Non-zero: no value of the instance appears in a violation's message (where a
    /// message would quote one, it says `value`; what comes from the schema, paths,
    /// pointers and keywords stay), for values that must not reach a log or a model's
    /// context. 0, the default, quotes values. An integer, not a `bool`, so that any
    /// byte a caller leaves here is a value.
    pub masked_values: u32,
}

// SAFETY: `size` (a usize) is the first field, and every field is an integer or a raw
// pointer, for which every bit pattern is a value (`#[repr(C)]`, no references, no
// bool, enums as int32_t).
unsafe impl OptionsStruct for tg_compile_options {
    const NAME: &'static str = "tg_compile_options";
    /// The first version ended before `masked_values`.
    const VERSIONS: &'static [usize] = &[
        std::mem::offset_of!(tg_compile_options, masked_values),
        std::mem::size_of::<tg_compile_options>(),
    ];
}

fn profile(raw: RawProfile, param: &str) -> FfiResult<Profile> {
    match raw {
        p if p == tg_profile::TG_PROFILE_CORE as RawProfile => Ok(Profile::Core),
        p if p == tg_profile::TG_PROFILE_FULL as RawProfile => Ok(Profile::Full),
        other => Err(not_a_value(param, other, "tg_profile")),
    }
}

fn draft(raw: RawDraft, param: &str) -> FfiResult<Draft> {
    match raw {
        d if d == tg_draft::TG_DRAFT_DEFAULT as RawDraft => Ok(Draft::default()),
        d if d == tg_draft::TG_DRAFT_7 as RawDraft => Ok(Draft::Draft7),
        d if d == tg_draft::TG_DRAFT_2020_12 as RawDraft => Ok(Draft::Draft2020_12),
        other => Err(not_a_value(param, other, "tg_draft")),
    }
}

/// Reads a caller's `tg_compile_options` (see its doc for the size rule); its arrays
/// are read by [`compile_options`].
///
/// # Safety
/// `options` is NULL or points to `options->size` readable bytes, not written during
/// the call.
pub(crate) unsafe fn read_compile_options(
    options: *const tg_compile_options,
    param: &str,
) -> FfiResult<tg_compile_options> {
    // SAFETY: `options` is NULL or points to a readable struct of at least its `size`
    // bytes, as this function's `# Safety` requires: what `arg_options` needs.
    unsafe { arg_options(options, param) }
}

/// The core's [`Options`] for the caller's `raw` options, with the nesting limit
/// `max_depth` (0: the default; the registry decides it from both of its fields):
/// every enum value checked, every resource parsed (under that limit) and every text
/// copied. `param` names the struct in messages (`options`, `options->schema`).
///
/// # Safety
/// `raw.resources` and `raw.annotation_formats` are NULL or point to their counts of
/// readable elements, and each element's texts follow the text rule (NULL or
/// readable for their lengths), none written during the call.
pub(crate) unsafe fn compile_options(
    raw: &tg_compile_options,
    max_depth: usize,
    param: &str,
) -> FfiResult<Options> {
    let mut out = Options::default()
        .with_max_depth(max_depth)
        .with_masked_values(raw.masked_values != 0)
        .with_profile(profile(raw.profile, &format!("{param}->profile"))?)
        .with_default_draft(draft(
            raw.default_draft,
            &format!("{param}->default_draft"),
        )?);
    // SAFETY: `resources` is NULL or points to `resource_count` readable entries, as
    // the options' contract (this function's `# Safety`) requires: what `arg_slice`
    // needs.
    let resources = unsafe {
        arg_slice(
            raw.resources,
            raw.resource_count,
            &format!("{param}->resources"),
        )?
    };
    for (i, resource) in resources.iter().enumerate() {
        // SAFETY: each resource's texts are NULL or readable for their lengths, as the
        // options' contract (this function's `# Safety`) requires: what `arg_str`
        // needs.
        let uri = unsafe {
            arg_str(
                resource.uri,
                resource.uri_len,
                &format!("{param}->resources[{i}].uri"),
            )?
        };
        // SAFETY: as above.
        let json = unsafe {
            arg_bytes(
                resource.json,
                resource.json_len,
                &format!("{param}->resources[{i}].json"),
            )?
        };
        out = out.with_resource(uri, json).map_err(compile_failure)?;
    }
    // SAFETY: `resources` is NULL or points to `resource_count` readable entries, as
    // the options' contract (this function's `# Safety`) requires: what `arg_slice`
    // needs.
    let formats = unsafe {
        arg_slice(
            raw.annotation_formats,
            raw.annotation_format_count,
            &format!("{param}->annotation_formats"),
        )?
    };
    let mut names = Vec::with_capacity(formats.len());
    for (i, name) in formats.iter().enumerate() {
        // SAFETY: each resource's texts are NULL or readable for their lengths, as the
        // options' contract (this function's `# Safety`) requires: what `arg_str`
        // needs.
        names.push(unsafe {
            arg_str(
                name.ptr,
                name.len,
                &format!("{param}->annotation_formats[{i}]"),
            )?
        });
    }
    Ok(out.with_annotation_formats(names))
}
