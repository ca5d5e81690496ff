//! The built-in meta-schemas (data files in `meta/`, see its README): what the
//! resolver knows of each without parsing it (its URI, draft and dynamic anchor), and
//! the parsed document, made once per process on first use. Most compiles never
//! reach a meta-schema, so most never parse one.

use std::sync::OnceLock;

use crate::json::{Doc, OwnedDoc};
use crate::schema::Draft;

/// One built-in meta-schema. Each is exactly one schema resource (no embedded `$id`)
/// with no `$anchor` and at most one `$dynamicAnchor`, at its root: the official
/// documents are so, and a test checks every file against this table.
pub(super) struct Builtin {
    /// The document's `$id`, normalized (no empty fragment).
    pub uri: &'static str,
    pub draft: Draft,
    /// The `$dynamicAnchor` at the root, if any.
    pub dynamic_anchor: Option<&'static str>,
    pub text: &'static str,
    parsed: OnceLock<Option<OwnedDoc>>,
}

impl Builtin {
    const fn new(
        uri: &'static str,
        draft: Draft,
        dynamic_anchor: Option<&'static str>,
        text: &'static str,
    ) -> Builtin {
        Builtin {
            uri,
            draft,
            dynamic_anchor,
            text,
            parsed: OnceLock::new(),
        }
    }

    /// The parsed document, parsed on the first call in the process. None only if
    /// the embedded text were not JSON, which a test rules out.
    pub fn value(&self) -> Option<&Doc<'_>> {
        self.parsed
            .get_or_init(|| OwnedDoc::parse(self.text.as_bytes(), META_DEPTH).ok())
            .as_ref()
            .map(OwnedDoc::root)
    }
}

/// Nesting limit for parsing the meta-schemas (the deepest is 6 levels).
const META_DEPTH: usize = 64;

const D12: Draft = Draft::Draft2020_12;
const META: Option<&str> = Some("meta");

pub(super) static BUILTINS: [Builtin; 10] = [
    Builtin::new(
        "https://json-schema.org/draft/2020-12/schema",
        D12,
        META,
        include_str!("meta/draft2020-12.json"),
    ),
    Builtin::new(
        "https://json-schema.org/draft/2020-12/meta/core",
        D12,
        META,
        include_str!("meta/draft2020-12-core.json"),
    ),
    Builtin::new(
        "https://json-schema.org/draft/2020-12/meta/applicator",
        D12,
        META,
        include_str!("meta/draft2020-12-applicator.json"),
    ),
    Builtin::new(
        "https://json-schema.org/draft/2020-12/meta/unevaluated",
        D12,
        META,
        include_str!("meta/draft2020-12-unevaluated.json"),
    ),
    Builtin::new(
        "https://json-schema.org/draft/2020-12/meta/validation",
        D12,
        META,
        include_str!("meta/draft2020-12-validation.json"),
    ),
    Builtin::new(
        "https://json-schema.org/draft/2020-12/meta/meta-data",
        D12,
        META,
        include_str!("meta/draft2020-12-meta-data.json"),
    ),
    Builtin::new(
        "https://json-schema.org/draft/2020-12/meta/format-annotation",
        D12,
        META,
        include_str!("meta/draft2020-12-format-annotation.json"),
    ),
    Builtin::new(
        "https://json-schema.org/draft/2020-12/meta/format-assertion",
        D12,
        META,
        include_str!("meta/draft2020-12-format-assertion.json"),
    ),
    Builtin::new(
        "https://json-schema.org/draft/2020-12/meta/content",
        D12,
        META,
        include_str!("meta/draft2020-12-content.json"),
    ),
    Builtin::new(
        "http://json-schema.org/draft-07/schema",
        Draft::Draft7,
        None,
        include_str!("meta/draft-07.json"),
    ),
];

/// Other spellings of the two drafts' meta-schema URIs that `$schema` accepts
/// ([`Draft::from_uri`]): a `$ref` written the same way reaches the same document.
const ALIASES: [(&str, usize); 2] = [
    ("http://json-schema.org/draft/2020-12/schema", 0),
    ("https://json-schema.org/draft-07/schema", 9),
];

/// The built-in meta-schema with the normalized URI `uri`, by index in [`BUILTINS`].
pub(super) fn find(uri: &str) -> Option<usize> {
    BUILTINS
        .iter()
        .position(|b| b.uri == uri)
        .or_else(|| ALIASES.iter().find(|(a, _)| *a == uri).map(|&(_, i)| i))
}
