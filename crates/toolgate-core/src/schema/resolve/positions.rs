//! Which keywords hold subschemas, per draft: where `$id`, `$anchor` and
//! `$dynamicAnchor` count, and where every walker of a schema document (the
//! resolver, the OpenAPI input, the provider dialects' lint and strict conversion)
//! looks for subschemas. A value under any other keyword (`enum`, `const`,
//! `default`, `examples`, an unknown keyword) is data, and an `$id` inside it
//! identifies nothing.

use crate::json::Doc;
use crate::schema::Draft;

/// How a keyword's value holds subschemas.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Holds {
    /// The value is a schema (`not`, `additionalProperties`, ...).
    Schema,
    /// The value is an object whose member values are schemas (`properties`, `$defs`).
    Map,
    /// The value is an array of schemas (`allOf`, `prefixItems`).
    Array,
    /// Draft-07's `items`: a schema, or an array of schemas.
    SchemaOrArray,
    /// Draft-07's `dependencies`: an object whose member values are schemas or
    /// arrays of property names.
    MapOfSchemasOrNames,
}

/// How `keyword`'s value holds subschemas in `draft`, or with `None` in any draft
/// toolgate implements (their union, for a walker that does not know the draft and
/// must miss nothing: `items` then holds a schema or an array of them). `None` when
/// it holds none.
///
/// ```
/// use toolgate_core::schema::{subschemas_of, Draft, Holds};
/// assert_eq!(subschemas_of(Some(Draft::Draft2020_12), "prefixItems"), Some(Holds::Array));
/// assert_eq!(subschemas_of(Some(Draft::Draft7), "prefixItems"), None);
/// assert_eq!(subschemas_of(None, "items"), Some(Holds::SchemaOrArray));
/// assert_eq!(subschemas_of(None, "contentSchema"), Some(Holds::Schema));
/// assert_eq!(subschemas_of(None, "enum"), None);
/// ```
pub fn subschemas_of(draft: Option<Draft>, keyword: &str) -> Option<Holds> {
    use Holds::*;
    let Some(draft) = draft else {
        return match (
            holds(Draft::Draft2020_12, keyword),
            holds(Draft::Draft7, keyword),
        ) {
            (a, None) => a,
            (None, b) => b,
            (Some(a), Some(b)) if a == b => Some(a),
            (Some(Schema | SchemaOrArray | Array), Some(Schema | SchemaOrArray | Array)) => {
                Some(SchemaOrArray)
            }
            (Some(_), Some(_)) => Some(MapOfSchemasOrNames),
        };
    };
    holds(draft, keyword)
}

/// How `keyword`'s value holds subschemas in `draft`; None when it holds none.
pub(super) fn holds(draft: Draft, keyword: &str) -> Option<Holds> {
    use Holds::*;
    // `definitions` in every draft: OpenAI's and zod's converters write it without
    // `$schema`, and references point into it.
    if keyword == "definitions" {
        return Some(Map);
    }
    match draft {
        Draft::Draft2020_12 => match keyword {
            "$defs" | "properties" | "patternProperties" | "dependentSchemas" => Some(Map),
            "additionalProperties"
            | "propertyNames"
            | "items"
            | "contains"
            | "not"
            | "if"
            | "then"
            | "else"
            | "unevaluatedItems"
            | "unevaluatedProperties"
            | "contentSchema" => Some(Schema),
            "prefixItems" | "allOf" | "anyOf" | "oneOf" => Some(Array),
            _ => None,
        },
        Draft::Draft7 => match keyword {
            "properties" | "patternProperties" => Some(Map),
            "dependencies" => Some(MapOfSchemasOrNames),
            "additionalProperties"
            | "propertyNames"
            | "additionalItems"
            | "contains"
            | "not"
            | "if"
            | "then"
            | "else" => Some(Schema),
            "items" => Some(SchemaOrArray),
            "allOf" | "anyOf" | "oneOf" => Some(Array),
            _ => None,
        },
    }
}

/// A schema: an object, or a boolean (`true` accepts everything, `false` nothing).
pub fn is_schema(v: &Doc<'_>) -> bool {
    matches!(v, Doc::Object(_) | Doc::Bool(_))
}

/// Where a subschema sits in its keyword's value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Place<'v> {
    /// The value itself is the schema.
    Itself,
    /// The member of that name.
    Member(&'v str),
    /// The element at that index.
    Element(usize),
}

/// The first subschema that `value` (the value of `keyword`, in a schema of
/// `draft`) holds at position `from` or after (positions count a map's members or
/// an array's elements; a single schema is at 0): its position, its place and
/// itself. Values that are not schemas (a draft-07 dependency's list of names, a
/// malformed keyword value) are skipped: the compiler refuses what is malformed.
pub(super) fn next_subschema<'v>(
    draft: Draft,
    keyword: &str,
    value: &'v Doc<'v>,
    from: usize,
) -> Option<(usize, Place<'v>, &'v Doc<'v>)> {
    match (holds(draft, keyword)?, value) {
        (Holds::Schema | Holds::SchemaOrArray, v) if is_schema(v) => {
            (from == 0).then_some((0, Place::Itself, v))
        }
        (Holds::Map | Holds::MapOfSchemasOrNames, Doc::Object(members)) => members
            .iter()
            .enumerate()
            .skip(from)
            .find(|(_, (_, v))| is_schema(v))
            .map(|(i, (name, v))| (i, Place::Member(name), v)),
        (Holds::Array | Holds::SchemaOrArray, Doc::Array(items)) => items
            .iter()
            .enumerate()
            .skip(from)
            .find(|(_, v)| is_schema(v))
            .map(|(i, v)| (i, Place::Element(i), v)),
        _ => None,
    }
}

/// Every subschema `value` (the value of `keyword`) holds, in order.
#[cfg(test)]
pub(super) fn subschemas<'v>(
    draft: Draft,
    keyword: &str,
    value: &'v Doc<'v>,
) -> Vec<(Place<'v>, &'v Doc<'v>)> {
    let mut out = Vec::new();
    let mut from = 0;
    while let Some((at, place, v)) = next_subschema(draft, keyword, value, from) {
        out.push((place, v));
        from = at + 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_keywords_of_each_draft() {
        let d12 = Draft::Draft2020_12;
        let d7 = Draft::Draft7;
        assert_eq!(holds(d12, "$defs"), Some(Holds::Map));
        assert_eq!(holds(d7, "$defs"), None, "draft-07 has no $defs");
        assert_eq!(holds(d7, "definitions"), Some(Holds::Map));
        assert_eq!(holds(d12, "definitions"), Some(Holds::Map));
        assert_eq!(holds(d12, "items"), Some(Holds::Schema));
        assert_eq!(holds(d7, "items"), Some(Holds::SchemaOrArray));
        assert_eq!(holds(d12, "prefixItems"), Some(Holds::Array));
        assert_eq!(holds(d7, "prefixItems"), None);
        assert_eq!(holds(d7, "additionalItems"), Some(Holds::Schema));
        assert_eq!(holds(d12, "additionalItems"), None);
        assert_eq!(holds(d7, "dependencies"), Some(Holds::MapOfSchemasOrNames));
        assert_eq!(holds(d12, "dependentSchemas"), Some(Holds::Map));
        assert_eq!(holds(d7, "unevaluatedProperties"), None);
        for data in [
            "enum", "const", "examples", "default", "x-thing", "required",
        ] {
            assert_eq!(holds(d12, data), None, "{data}");
            assert_eq!(holds(d7, data), None, "{data}");
        }
    }

    #[test]
    fn subschemas_skip_what_is_not_a_schema() {
        let arena = bumpalo::Bump::new();
        let parse = |json: &'static [u8]| Doc::parse_compact(json, 8, &arena).unwrap().0;
        let v = parse(br#"{"a": {"type": "string"}, "b": ["c"], "d": true}"#);
        let places: Vec<Place> = subschemas(Draft::Draft7, "dependencies", &v)
            .into_iter()
            .map(|(p, _)| p)
            .collect();
        assert_eq!(places, [Place::Member("a"), Place::Member("d")]);
        let items = parse(br#"[{}, 3, false]"#);
        let places: Vec<Place> = subschemas(Draft::Draft7, "items", &items)
            .into_iter()
            .map(|(p, _)| p)
            .collect();
        assert_eq!(places, [Place::Element(0), Place::Element(2)]);
        assert!(
            subschemas(Draft::Draft2020_12, "items", &items).is_empty(),
            "2020-12's items is one schema, not an array"
        );
        let one = parse(br#"{"type": "string"}"#);
        assert_eq!(
            subschemas(Draft::Draft2020_12, "not", &one),
            [(Place::Itself, &one)]
        );
        assert!(subschemas(Draft::Draft2020_12, "enum", &items).is_empty());
    }
}
