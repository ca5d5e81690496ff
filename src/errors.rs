//! `tg_errors`: the list of violations a validation found.

use std::ffi::c_char;
use std::sync::OnceLock;

use super::boundary::{
    ffi_boundary, ffi_free, text_accessor, value_accessor, CText, Failure, FfiResult,
};
use super::status::tg_status;
use toolgate_core::schema::ValidationError;

/// The violations found by `tg_schema_validate` or `tg_registry_validate`, sorted by
/// path then message (count 0 means the instance is valid), or those of a refused call
/// (`tg_result_violations`).
///
/// Each violation has a `path` (`$`, `$.days`, `$["a.b"]`, `$.tags[1]`), a
/// `pointer` (RFC 6901, where the fix goes: `/id` for a missing required `id`), the
/// failing `keyword`, a terse `message` and the `schema_location` of the failing rule
/// (`#/properties/days/type`).
///
/// A list made by `tg_schema_validate` or `tg_registry_validate` is the caller's, freed
/// with `tg_errors_free`; the list of a result (`tg_result_violations`) is borrowed
/// from the result and never freed by the caller.
///
/// Thread-safety: immutable; may be read from several threads at once.
pub struct tg_errors {
    /// The core's violations, which render the list's text and JSON.
    errors: Vec<ValidationError>,
    /// The same, each text with its NUL, for the per-violation accessors.
    items: Vec<Item>,
    text: OnceLock<CText>,
    json: OnceLock<CText>,
}

struct Item {
    path: CText,
    pointer: CText,
    keyword: CText,
    message: CText,
    schema_location: CText,
}

impl tg_errors {
    pub(crate) fn new(errors: Vec<ValidationError>) -> tg_errors {
        let items = errors
            .iter()
            .map(|e| Item {
                path: CText::from(e.path.as_str()),
                pointer: CText::from(e.pointer.as_str()),
                keyword: CText::from(e.keyword),
                message: CText::from(e.message.as_str()),
                schema_location: CText::from(e.schema_location.as_str()),
            })
            .collect();
        tg_errors {
            errors,
            items,
            text: OnceLock::new(),
            json: OnceLock::new(),
        }
    }

    /// The number of violations.
    pub(crate) fn count(&self) -> usize {
        self.items.len()
    }

    /// The core's violations, for a result's dialect items.
    pub(crate) fn core(&self) -> &[ValidationError] {
        &self.errors
    }

    fn item(&self, index: usize) -> FfiResult<&Item> {
        self.items.get(index).ok_or_else(|| {
            Failure::argument(
                tg_status::TG_ERR_RANGE,
                "index",
                &format!(
                    "is {index}, past the {} errors of the list",
                    self.items.len()
                ),
            )
        })
    }

    /// `path: message` lines joined by `\n`, no trailing newline (the core's text).
    fn text(&self) -> &CText {
        self.text
            .get_or_init(|| CText::new(ValidationError::join_lines(&self.errors)))
    }

    /// The violations as a compact JSON array (the core's text).
    fn json(&self) -> &CText {
        self.json
            .get_or_init(|| CText::new(ValidationError::json_array(&self.errors)))
    }
}

/// The number of violations; 0 means the instance is valid.
///
/// On success writes the count to `*value_out`. Errors: `TG_ERR_NULL` when an
/// argument is NULL. Ownership: `errors` is borrowed. Thread-safety: any thread.
///
/// # Safety
/// `errors` is NULL or a live `tg_errors`; `value_out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn tg_errors_count(
    errors: *const tg_errors,
    value_out: *mut usize,
) -> tg_status {
    ffi_boundary("tg_errors_count", std::ptr::null_mut(), || {
        // SAFETY: `errors` is NULL or live, and the out-parameter NULL or writable, as
        // this function's `# Safety` requires: what `value_accessor` needs.
        unsafe { value_accessor(errors, "errors", value_out, |e| e.items.len()) }
    })
}

/// The body of the four per-item accessors.
///
/// # Safety
/// As the accessors.
unsafe fn item_text(
    func: &'static str,
    errors: *const tg_errors,
    index: usize,
    text_out: *mut *const c_char,
    len_out: *mut usize,
    field: fn(&Item) -> &CText,
) -> tg_status {
    ffi_boundary(func, std::ptr::null_mut(), || {
        // SAFETY: `errors` is NULL or a live list, and the out-parameters NULL or
        // writable, as this function's `# Safety` requires: what `text_accessor` needs.
        unsafe {
            text_accessor(errors, "errors", text_out, len_out, |e| {
                Ok(field(e.item(index)?))
            })
        }
    })
}

/// The path of violation `index`: `$` is the whole value, `.name` a
/// property (`["a.b"]` when the name is not an identifier), `[i]` an element.
///
/// On success writes pointer and length (in bytes, without the terminating NUL) to
/// `*text_out` and `*len_out`; the text is UTF-8, also NUL-terminated, owned by
/// `errors` and valid until `tg_errors_free(errors)`.
///
/// Errors: `TG_ERR_NULL` when a pointer argument is NULL, `TG_ERR_RANGE` when
/// `index >= count`. Thread-safety: any thread.
///
/// # Safety
/// `errors` is NULL or a live `tg_errors`; `text_out` and `len_out` are NULL or
/// writable.
#[no_mangle]
pub unsafe extern "C" fn tg_errors_path(
    errors: *const tg_errors,
    index: usize,
    text_out: *mut *const c_char,
    len_out: *mut usize,
) -> tg_status {
    // SAFETY: `errors` is NULL or a live list, and the out-parameters NULL or writable,
    // as this function's `# Safety` requires: what `item_text` needs.
    unsafe {
        item_text("tg_errors_path", errors, index, text_out, len_out, |i| {
            &i.path
        })
    }
}

/// The RFC 6901 JSON Pointer of violation `index`, to where the fix goes (`/id` for
/// a missing required property `id`; `""` is the whole value).
///
/// On success writes pointer and length (in bytes, without the terminating NUL) to
/// `*text_out` and `*len_out`; the text is UTF-8, also NUL-terminated, owned by
/// `errors` and valid until `tg_errors_free(errors)`.
///
/// Errors: `TG_ERR_NULL` when a pointer argument is NULL, `TG_ERR_RANGE` when
/// `index >= count`. Thread-safety: any thread.
///
/// # Safety
/// `errors` is NULL or a live `tg_errors`; `text_out` and `len_out` are NULL or
/// writable.
#[no_mangle]
pub unsafe extern "C" fn tg_errors_pointer(
    errors: *const tg_errors,
    index: usize,
    text_out: *mut *const c_char,
    len_out: *mut usize,
) -> tg_status {
    // SAFETY: `errors` is NULL or a live list, and the out-parameters NULL or writable,
    // as this function's `# Safety` requires: what `item_text` needs.
    unsafe {
        item_text("tg_errors_pointer", errors, index, text_out, len_out, |i| {
            &i.pointer
        })
    }
}

/// The schema keyword that failed for violation `index` (`json` for malformed input).
///
/// On success writes pointer and length (in bytes, without the terminating NUL) to
/// `*text_out` and `*len_out`; the text is UTF-8, also NUL-terminated, owned by
/// `errors` and valid until `tg_errors_free(errors)`.
///
/// Errors: `TG_ERR_NULL` when a pointer argument is NULL, `TG_ERR_RANGE` when
/// `index >= count`. Thread-safety: any thread.
///
/// # Safety
/// `errors` is NULL or a live `tg_errors`; `text_out` and `len_out` are NULL or
/// writable.
#[no_mangle]
pub unsafe extern "C" fn tg_errors_keyword(
    errors: *const tg_errors,
    index: usize,
    text_out: *mut *const c_char,
    len_out: *mut usize,
) -> tg_status {
    // SAFETY: `errors` is NULL or a live list, and the out-parameters NULL or writable,
    // as this function's `# Safety` requires: what `item_text` needs.
    unsafe {
        item_text("tg_errors_keyword", errors, index, text_out, len_out, |i| {
            &i.keyword
        })
    }
}

/// The terse message of violation `index`, e.g. `expected integer, got string`.
///
/// On success writes pointer and length (in bytes, without the terminating NUL) to
/// `*text_out` and `*len_out`; the text is UTF-8, also NUL-terminated, owned by
/// `errors` and valid until `tg_errors_free(errors)`.
///
/// Errors: `TG_ERR_NULL` when a pointer argument is NULL, `TG_ERR_RANGE` when
/// `index >= count`. Thread-safety: any thread.
///
/// # Safety
/// `errors` is NULL or a live `tg_errors`; `text_out` and `len_out` are NULL or
/// writable.
#[no_mangle]
pub unsafe extern "C" fn tg_errors_message(
    errors: *const tg_errors,
    index: usize,
    text_out: *mut *const c_char,
    len_out: *mut usize,
) -> tg_status {
    // SAFETY: `errors` is NULL or a live list, and the out-parameters NULL or writable,
    // as this function's `# Safety` requires: what `item_text` needs.
    unsafe {
        item_text("tg_errors_message", errors, index, text_out, len_out, |i| {
            &i.message
        })
    }
}

/// Where the failing rule of violation `index` is written in the schema, as a URI
/// fragment: `#` and the RFC 6901 pointer to the keyword (`#/properties/days/type`,
/// `#/required`; `#/$defs/x/minimum` for a rule reached through `$ref`); a rule in a
/// registered resource is that resource's URI followed by `#` and the pointer.
/// Malformed input and the size limit, which no keyword states, are `#`.
///
/// On success writes pointer and length (in bytes, without the terminating NUL) to
/// `*text_out` and `*len_out`; the text is UTF-8, also NUL-terminated, owned by
/// `errors` and valid until `tg_errors_free(errors)` (for the list of a result, as
/// long as the list).
///
/// Errors: `TG_ERR_NULL` when a pointer argument is NULL, `TG_ERR_RANGE` when
/// `index >= count`. Thread-safety: any thread.
///
/// # Safety
/// `errors` is NULL or a live `tg_errors`; `text_out` and `len_out` are NULL or
/// writable.
#[no_mangle]
pub unsafe extern "C" fn tg_errors_schema_location(
    errors: *const tg_errors,
    index: usize,
    text_out: *mut *const c_char,
    len_out: *mut usize,
) -> tg_status {
    // SAFETY: `errors` is NULL or a live list, and the out-parameters NULL or writable,
    // as this function's `# Safety` requires: what `item_text` needs.
    unsafe {
        item_text(
            "tg_errors_schema_location",
            errors,
            index,
            text_out,
            len_out,
            |i| &i.schema_location,
        )
    }
}

/// Every violation as one line `path: message`, lines joined by `\n` (no trailing
/// newline; empty when there are none): exactly the lines the registry puts under
/// `error: invalid arguments for NAME:`.
///
/// On success writes pointer and length (in bytes, without the terminating NUL) to
/// `*text_out` and `*len_out`; the text is UTF-8, also NUL-terminated, owned by
/// `errors` and valid until `tg_errors_free(errors)`.
///
/// Errors: `TG_ERR_NULL` when an argument is NULL. Thread-safety: any thread.
///
/// # Safety
/// `errors` is NULL or a live `tg_errors`; `text_out` and `len_out` are NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn tg_errors_text(
    errors: *const tg_errors,
    text_out: *mut *const c_char,
    len_out: *mut usize,
) -> tg_status {
    ffi_boundary("tg_errors_text", std::ptr::null_mut(), || {
        // SAFETY: `errors` is NULL or live, and the out-parameters NULL or writable, as
        // this function's `# Safety` requires: what `text_accessor` needs.
        unsafe { text_accessor(errors, "errors", text_out, len_out, |e| Ok(e.text())) }
    })
}

/// Every violation as a compact JSON array of objects
/// `{"path":..,"pointer":..,"keyword":..,"message":..,"schemaLocation":..}` in list
/// order (`[]` when there are none); `schemaLocation` is where the failing rule is
/// written in the schema (`#/properties/days/type`, `#` for malformed input). Same
/// ownership and rules as `tg_errors_text`.
///
/// # Safety
/// As `tg_errors_text`.
#[no_mangle]
pub unsafe extern "C" fn tg_errors_json(
    errors: *const tg_errors,
    text_out: *mut *const c_char,
    len_out: *mut usize,
) -> tg_status {
    ffi_boundary("tg_errors_json", std::ptr::null_mut(), || {
        // SAFETY: `errors` is NULL or live, and the out-parameters NULL or writable, as
        // this function's `# Safety` requires: what `text_accessor` needs.
        unsafe { text_accessor(errors, "errors", text_out, len_out, |e| Ok(e.json())) }
    })
}

/// Frees a violation list. NULL is a no-op.
///
/// Ownership: takes ownership of `errors`; every text obtained from it is invalid
/// afterwards. Thread-safety: must not race with other uses of `errors`.
///
/// # Safety
/// `errors` is NULL or a live `tg_errors` not freed before.
#[no_mangle]
pub unsafe extern "C" fn tg_errors_free(errors: *mut tg_errors) {
    // SAFETY: `errors` is NULL or a handle this library returned and nobody freed or
    // uses any more, as this function's `# Safety` requires: what `ffi_free` needs.
    unsafe { ffi_free(errors) }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(path: &str, pointer: &str, keyword: &'static str, message: &str) -> ValidationError {
        ValidationError {
            path: path.into(),
            pointer: pointer.into(),
            keyword,
            message: message.into(),
            schema_location: format!("#/{keyword}"),
        }
    }

    #[test]
    fn text_and_json_render_every_item() {
        let list = tg_errors::new(vec![
            err(
                "$",
                "/city",
                "required",
                "missing required property \"city\"",
            ),
            err("$.days", "/days", "type", "expected integer, got string"),
        ]);
        assert_eq!(
            list.text().as_str(),
            "$: missing required property \"city\"\n$.days: expected integer, got string"
        );
        assert_eq!(
            list.json().as_str(),
            r##"[{"path":"$","pointer":"/city","keyword":"required","message":"missing required property \"city\"","schemaLocation":"#/required"},{"path":"$.days","pointer":"/days","keyword":"type","message":"expected integer, got string","schemaLocation":"#/type"}]"##
        );
        let empty = tg_errors::new(Vec::new());
        assert_eq!(empty.text().as_str(), "");
        assert_eq!(empty.json().as_str(), "[]");
    }
}
