//! Keywords that assert nothing: `title`, `description`, `default`, `examples`,
//! `$schema` and `$comment` in every profile; in the full profile also `deprecated`,
//! `readOnly`, `writeOnly` (meta-data), `contentEncoding`, `contentMediaType` and
//! `contentSchema` (draft 2020-12 makes the content vocabulary annotations only),
//! vendor extensions (`x-...`) and `discriminator` (which pydantic writes beside a
//! `oneOf` whose branches already decide). Their values are still checked for shape
//! (`title` must be a string), so a schema that gets one wrong is refused, not ignored.

use crate::json::Doc;

use super::super::compile::Compiler;
use super::super::options::{Draft, Profile};

/// An annotation keyword.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Annotation {
    Title,
    Description,
    Comment,
    Schema,
    Default,
    Examples,
    Deprecated,
    ReadOnly,
    WriteOnly,
    ContentEncoding,
    ContentMediaType,
    ContentSchema,
    Discriminator,
    Vendor,
}

impl Annotation {
    pub(crate) fn lookup(name: &str, profile: Profile, draft: Draft) -> Option<Annotation> {
        let core = match name {
            "title" => Some(Annotation::Title),
            "description" => Some(Annotation::Description),
            "$comment" => Some(Annotation::Comment),
            "$schema" => Some(Annotation::Schema),
            "default" => Some(Annotation::Default),
            "examples" => Some(Annotation::Examples),
            _ => None,
        };
        if core.is_some() || profile == Profile::Core {
            return core;
        }
        Some(match (name, draft) {
            ("deprecated", Draft::Draft2020_12) => Annotation::Deprecated,
            ("readOnly", _) => Annotation::ReadOnly,
            ("writeOnly", _) => Annotation::WriteOnly,
            ("contentEncoding", _) => Annotation::ContentEncoding,
            ("contentMediaType", _) => Annotation::ContentMediaType,
            ("contentSchema", Draft::Draft2020_12) => Annotation::ContentSchema,
            ("discriminator", _) => Annotation::Discriminator,
            (n, _) if n.starts_with("x-") => Annotation::Vendor,
            _ => return None,
        })
    }

    /// Checks the value's shape.
    pub(crate) fn check(self, c: &mut Compiler<'_>, v: &Doc<'_>) {
        let name = match self {
            Annotation::Title => "title",
            Annotation::Description => "description",
            Annotation::Comment => "$comment",
            Annotation::Schema => "$schema",
            Annotation::ContentEncoding => "contentEncoding",
            Annotation::ContentMediaType => "contentMediaType",
            Annotation::Examples => "examples",
            Annotation::Deprecated => "deprecated",
            Annotation::ReadOnly => "readOnly",
            Annotation::WriteOnly => "writeOnly",
            Annotation::ContentSchema => {
                // A schema (for the content once decoded), compiled for its problems;
                // it asserts nothing on the string itself.
                c.subschema(v);
                return;
            }
            Annotation::Default | Annotation::Discriminator | Annotation::Vendor => return,
        };
        let ok = match self {
            Annotation::Examples => matches!(v, Doc::Array(_)),
            Annotation::Deprecated | Annotation::ReadOnly | Annotation::WriteOnly => {
                matches!(v, Doc::Bool(_))
            }
            _ => matches!(v, Doc::String(_)),
        };
        if !ok {
            let what = match self {
                Annotation::Examples => "an array",
                Annotation::Deprecated | Annotation::ReadOnly | Annotation::WriteOnly => {
                    "a boolean"
                }
                _ => "a string",
            };
            c.problem(name, format!("\"{name}\" must be {what}"));
        }
    }
}
