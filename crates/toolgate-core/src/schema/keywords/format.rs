//! `format`, asserted (full profile): a string (or, for OpenAPI's numeric formats, a
//! number) must be a valid instance of the named format; values of other types pass.
//! An unknown format name is refused, listing the known ones, unless the caller
//! declared it an annotation (`Options::with_annotation_formats`).

use crate::json::Doc;

use super::super::compile::Compiler;
use super::super::format::{Format, FormatDraft};
use super::super::message::{push_value, quoted, quoted_len};
use super::super::options::Draft;
use super::super::program::Loc;
use super::super::sink::{At, Member, Sink, W};

/// A format to check.
#[derive(Clone, Copy)]
pub(crate) struct FormatRule {
    pub format: Format,
}

/// The format `v` names, or `None` when it is an annotation only or after recording a
/// problem.
pub(crate) fn compile(c: &mut Compiler<'_>, v: &Doc<'_>) -> Option<FormatRule> {
    let Doc::String(name) = v else {
        c.problem("format", "\"format\" must be a string");
        return None;
    };
    let draft = match c.draft() {
        Draft::Draft7 => FormatDraft::Draft7,
        Draft::Draft2020_12 => FormatDraft::Draft2020_12,
    };
    if c.is_openapi() {
        // OpenAPI's own formats first (int32 is a range there), its annotations, then
        // the JSON Schema formats it shares.
        if let Some(format) = Format::openapi(name) {
            return Some(FormatRule { format });
        }
        if Format::OPENAPI_ANNOTATIONS.contains(name) {
            return None;
        }
    }
    if let Some(format) = Format::json_schema(name, draft) {
        return Some(FormatRule { format });
    }
    if c.is_annotation_format(name) {
        return None;
    }
    c.problem(
        "format",
        format!(
            "unknown format {} (known: {}; declare others as annotations with the annotation formats option)",
            quoted(name),
            Format::names(draft).join(", ")
        ),
    );
    None
}

const NOT_VALID: &str = " is not a valid ";

/// `"2025-13-01" is not a valid date-time`: the value as written (`span`, a string
/// token with its quotes or a number), then the format.
#[cold]
pub(crate) fn report_format<'a, S: Sink<'a>>(
    sink: &mut S,
    at: Loc,
    span: &[u8],
    rule: &FormatRule,
) -> W {
    let name = rule.format.name();
    let capacity = quoted_len(span.len()) + NOT_VALID.len() + name.len();
    sink.report("format", At::Object(at), Member::None, capacity, |m| {
        push_value(m, span);
        m.push_str(NOT_VALID);
        m.push_str(name);
    })
}
