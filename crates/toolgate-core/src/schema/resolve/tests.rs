//! The resolver on small documents: base changes, anchors, draft-07's fragment ids
//! and `$ref` siblings, pointers, identifiers outside schema positions, the
//! problems indexing reports, registered documents and the built-in meta-schemas.

use std::sync::Arc;

use super::*;
use crate::json::Value;

const D12: Draft = Draft::Draft2020_12;
const D7: Draft = Draft::Draft7;

/// A test document, kept for the rest of the test run.
fn parse(json: &str) -> Doc<'static> {
    let owned =
        OwnedDoc::parse(json.as_bytes(), 128).unwrap_or_else(|e| panic!("bad test JSON: {e:?}"));
    *Box::leak(Box::new(owned)).root()
}

fn resource(uri: &str, json: &str) -> Resource {
    Resource {
        uri: uri.to_owned(),
        doc: Arc::new(OwnedDoc::parse(json.as_bytes(), 128).expect("test JSON")),
    }
}

fn docs_in(draft: Draft, json: &str, registered: &[Resource]) -> Documents<'static> {
    match Documents::new(parse(json), None, draft, draft, registered) {
        Ok(d) => d,
        Err(problems) => panic!("unexpected problems: {problems:#?}"),
    }
}

fn docs(json: &str) -> Documents<'static> {
    docs_in(D12, json, &[])
}

fn problems_in(draft: Draft, json: &str, registered: &[Resource]) -> Vec<Problem> {
    match Documents::new(parse(json), None, draft, draft, registered) {
        Ok(_) => panic!("expected problems in {json}"),
        Err(p) => p,
    }
}

fn at(pointer: &str) -> Location {
    Location {
        doc: 0,
        pointer: pointer.to_owned(),
    }
}

/// The pointer in document 0 that `reference`, written at `from`, resolves to.
fn target(d: &Documents, from: &str, reference: &str) -> String {
    match d.resolve(&at(from), reference) {
        Ok(loc) if loc.doc == 0 => loc.pointer,
        Ok(loc) => panic!("{reference:?} resolved into document {}", loc.doc),
        Err(e) => panic!("{reference:?} from {from:?}: {e}"),
    }
}

fn refusal(d: &Documents, from: &str, reference: &str) -> String {
    match d.resolve(&at(from), reference) {
        Ok(loc) => panic!("{reference:?} resolved to {loc:?}, expected a refusal"),
        Err(e) => e,
    }
}

/// Draft 2020-12's identification example (core, 8.2.1 and appendix A), with one
/// schema per base.
const SPEC_EXAMPLE: &str = r##"{
    "$id": "https://example.com/root.json",
    "$defs": {
        "A": { "$anchor": "foo" },
        "B": {
            "$id": "other.json",
            "$defs": {
                "X": { "$anchor": "bar" },
                "Y": { "$id": "t/inner.json", "$anchor": "bar" }
            }
        },
        "C": { "$id": "urn:uuid:ee564b8a-7a87-4125-8c96-e9f123d6766f" }
    }
}"##;

#[test]
fn nested_ids_change_the_base() {
    let d = docs(SPEC_EXAMPLE);
    assert_eq!(d.base(&at("")), "https://example.com/root.json");
    assert_eq!(d.base(&at("/$defs/A")), "https://example.com/root.json");
    assert_eq!(d.base(&at("/$defs/B")), "https://example.com/other.json");
    assert_eq!(
        d.base(&at("/$defs/B/$defs/X")),
        "https://example.com/other.json"
    );
    assert_eq!(
        d.base(&at("/$defs/B/$defs/Y")),
        "https://example.com/t/inner.json"
    );
    assert_eq!(
        d.base(&at("/$defs/C")),
        "urn:uuid:ee564b8a-7a87-4125-8c96-e9f123d6766f"
    );
    // Each of the example's URIs, from the root.
    for (reference, pointer) in [
        ("https://example.com/root.json", ""),
        ("https://example.com/root.json#", ""),
        ("#", ""),
        ("#foo", "/$defs/A"),
        ("https://example.com/root.json#/$defs/A", "/$defs/A"),
        ("other.json", "/$defs/B"),
        ("other.json#bar", "/$defs/B/$defs/X"),
        ("other.json#/$defs/X", "/$defs/B/$defs/X"),
        (
            "https://example.com/root.json#/$defs/B/$defs/X",
            "/$defs/B/$defs/X",
        ),
        ("t/inner.json", "/$defs/B/$defs/Y"),
        ("t/inner.json#bar", "/$defs/B/$defs/Y"),
        ("other.json#/$defs/Y", "/$defs/B/$defs/Y"),
        ("urn:uuid:ee564b8a-7a87-4125-8c96-e9f123d6766f", "/$defs/C"),
    ] {
        assert_eq!(target(&d, "", reference), pointer, "{reference}");
    }
    // Relative references resolve against the base where they are written.
    assert_eq!(target(&d, "/$defs/B/$defs/X", "#bar"), "/$defs/B/$defs/X");
    assert_eq!(target(&d, "/$defs/B/$defs/Y", "#bar"), "/$defs/B/$defs/Y");
    assert_eq!(
        target(&d, "/$defs/B/$defs/Y", "../root.json#foo"),
        "/$defs/A"
    );
    assert_eq!(target(&d, "/$defs/B", "t/inner.json"), "/$defs/B/$defs/Y");
    // An empty reference, or an empty fragment, is the resource in effect.
    assert_eq!(target(&d, "/$defs/B/$defs/X", ""), "/$defs/B");
    assert_eq!(target(&d, "/$defs/B/$defs/X", "#"), "/$defs/B");
    assert_eq!(target(&d, "/$defs/A", "#"), "");
    // A pointer into an embedded resource lands in it: its base is the resource's.
    let y = d.resolve(&at(""), "#/$defs/B/$defs/Y").unwrap();
    assert_eq!(d.base(&y), "https://example.com/t/inner.json");
    assert_eq!(d.resource(&y), d.resource(&at("/$defs/B/$defs/Y")));
    assert_ne!(d.resource(&y), d.resource(&at("/$defs/B")));
    assert_eq!(
        d.resource_uri(d.resource(&y)),
        "https://example.com/t/inner.json"
    );
    assert_eq!(
        d.resource_root(d.resource(&at("/$defs/B/$defs/X"))),
        at("/$defs/B")
    );
    // A pointer is read from the resource it is relative to.
    assert_eq!(
        refusal(&d, "/$defs/B", "#/$defs/A"),
        r##"cannot resolve "#/$defs/A": nothing at "/$defs/A""##
    );
    assert_eq!(
        refusal(&d, "", "other.json#foo"),
        r##"cannot resolve "other.json#foo": no anchor "foo" in "https://example.com/other.json""##
    );
}

#[test]
fn draft7_ids_with_fragments_are_anchors() {
    // Draft-07's identification example (core, 8.2.4), plus an `$id` that names a
    // resource and an anchor in it.
    let d = docs_in(
        D7,
        r##"{
            "$id": "http://example.com/root.json",
            "definitions": {
                "A": { "$id": "#foo" },
                "B": {
                    "$id": "other.json",
                    "definitions": {
                        "X": { "$id": "#bar" },
                        "Y": { "$id": "t/inner.json" }
                    }
                },
                "C": { "$id": "urn:uuid:ee564b8a-7a87-4125-8c96-e9f123d6766f" },
                "D": { "$id": "http://example.com/d.json#baz" }
            }
        }"##,
        &[],
    );
    for (reference, pointer) in [
        ("#foo", "/definitions/A"),
        ("http://example.com/root.json#foo", "/definitions/A"),
        ("other.json", "/definitions/B"),
        ("other.json#bar", "/definitions/B/definitions/X"),
        ("t/inner.json", "/definitions/B/definitions/Y"),
        (
            "urn:uuid:ee564b8a-7a87-4125-8c96-e9f123d6766f",
            "/definitions/C",
        ),
        ("d.json", "/definitions/D"),
        ("d.json#baz", "/definitions/D"),
    ] {
        assert_eq!(target(&d, "", reference), pointer, "{reference}");
    }
    // "#foo" named a location, not a resource: the base there is the root's.
    assert_eq!(
        d.base(&at("/definitions/A")),
        "http://example.com/root.json"
    );
    assert_eq!(d.draft(&at("/definitions/A")), D7);
    // The same `$id`s in draft 2020-12 are problems: it names locations with
    // `$anchor` only.
    let p = problems_in(
        D12,
        r##"{"$defs": {"A": {"$id": "#foo"}, "D": {"$id": "d.json#baz"}}}"##,
        &[],
    );
    assert_eq!(p.len(), 2, "{p:#?}");
    assert_eq!(p[0].at, at("/$defs/A"));
    assert_eq!(p[0].keyword, "$id");
    assert_eq!(
        p[0].message,
        r##""$id" must not have a fragment, got "#foo"; name a location with "$anchor""##
    );
    // An empty fragment is no fragment, in both drafts.
    let d = docs(r##"{"$id": "http://example.com/e.json#", "$defs": {"a": {"$id": "a.json#"}}}"##);
    assert_eq!(d.base(&at("")), "http://example.com/e.json");
    assert_eq!(target(&d, "", "a.json"), "/$defs/a");
    // A draft-07 fragment that is not a plain name is a problem.
    let p = problems_in(
        D7,
        r##"{"definitions": {"a": {"$id": "#/definitions/a"}}}"##,
        &[],
    );
    assert_eq!(p.len(), 1);
    assert_eq!(
        p[0].message,
        r##""$id" fragment must be a plain name (a letter, then letters, digits, "-", "_", ":", "."), got "#/definitions/a""##
    );
}

#[test]
fn draft7_ref_makes_a_sibling_id_ignored() {
    // The suite's "$ref prevents a sibling $id from changing the base uri".
    let d7 = docs_in(
        D7,
        r##"{
            "$id": "http://localhost:1234/sibling_id/base/",
            "definitions": {
                "foo": {"$id": "http://localhost:1234/sibling_id/foo.json", "type": "string"},
                "base_foo": {"$id": "foo.json", "type": "number"}
            },
            "allOf": [{"$id": "http://localhost:1234/sibling_id/", "$ref": "foo.json"}]
        }"##,
        &[],
    );
    assert_eq!(
        d7.base(&at("/allOf/0")),
        "http://localhost:1234/sibling_id/base/"
    );
    assert_eq!(target(&d7, "/allOf/0", "foo.json"), "/definitions/base_foo");
    // The ignored `$id` names nothing.
    assert!(d7
        .resolve(&at(""), "http://localhost:1234/sibling_id/")
        .is_err());
    // In draft 2020-12 the sibling `$id` counts.
    let d12 = docs(
        r##"{
            "$id": "http://localhost:1234/sibling_id/base/",
            "$defs": {
                "foo": {"$id": "http://localhost:1234/sibling_id/foo.json", "type": "string"},
                "base_foo": {"$id": "foo.json", "type": "number"}
            },
            "allOf": [{"$id": "http://localhost:1234/sibling_id/", "$ref": "foo.json"}]
        }"##,
    );
    assert_eq!(
        d12.base(&at("/allOf/0")),
        "http://localhost:1234/sibling_id/"
    );
    assert_eq!(target(&d12, "/allOf/0", "foo.json"), "/$defs/foo");
    // Beside a draft-07 `$ref`, the definitions still count: generators write
    // them there and point into them.
    let d = docs_in(
        D7,
        r##"{"$ref": "#/definitions/a", "definitions": {"a": {"$id": "http://x.test/a.json"}}}"##,
        &[],
    );
    assert_eq!(target(&d, "", "http://x.test/a.json"), "/definitions/a");
    assert_eq!(target(&d, "", "#/definitions/a"), "/definitions/a");
}

#[test]
fn pointers_unescape_tokens_and_percent_encoding() {
    let d = docs(
        r##"{
            "$defs": {
                "tilde~field": {"type": "integer"},
                "slash/field": {"type": "integer"},
                "percent%field": {"type": "integer"},
                "a%b": true,
                "foo\"bar": false,
                "": {"$defs": {"": {"type": "number"}}},
                "caf\u00e9": {}
            },
            "prefixItems": [{}, {"type": "string"}],
            "examples": [{"type": "string"}],
            "x-unknown": {"nested": {"type": "integer"}}
        }"##,
    );
    for (reference, pointer) in [
        ("#/$defs/tilde~0field", "/$defs/tilde~0field"),
        ("#/$defs/slash~1field", "/$defs/slash~1field"),
        ("#/$defs/percent%25field", "/$defs/percent%field"),
        ("#/$defs/a%25b", "/$defs/a%b"),
        ("#/$defs/foo%22bar", "/$defs/foo\"bar"),
        ("#/$defs//$defs/", "/$defs//$defs/"),
        ("#/$defs/caf%C3%A9", "/$defs/caf\u{e9}"),
        ("#/$defs/caf\u{e9}", "/$defs/caf\u{e9}"),
        ("#/prefixItems/1", "/prefixItems/1"),
        // Through keywords that hold no subschemas, as the suite does.
        ("#/examples/0", "/examples/0"),
        ("#/x-unknown/nested", "/x-unknown/nested"),
    ] {
        assert_eq!(target(&d, "", reference), pointer, "{reference}");
        let loc = at(pointer);
        assert!(d.value(&loc).is_some_and(is_schema), "{pointer}");
    }
    for (reference, why) in [
        ("#/$defs/missing", r##"nothing at "/$defs/missing""##),
        ("#/prefixItems/01", r##"nothing at "/prefixItems/01""##),
        ("#/prefixItems/-", r##"nothing at "/prefixItems/-""##),
        ("#/prefixItems/2", r##"nothing at "/prefixItems/2""##),
        (
            "#/$defs/a~2b",
            r##""/$defs/a~2b" is not a valid JSON pointer"##,
        ),
        (
            "#/$defs/tilde~",
            r##""/$defs/tilde~" is not a valid JSON pointer"##,
        ),
        (
            "#/$defs/tilde~0field/type",
            r##"the value at "/$defs/tilde~0field/type" is a string, not a schema"##,
        ),
        (
            "#/prefixItems",
            r##"the value at "/prefixItems" is an array, not a schema"##,
        ),
        ("#/$defs/a%ZZ", "not a URI reference"),
        ("#/$defs/%FF", "its fragment is not percent-encoded UTF-8"),
        ("#not an anchor", "not a URI reference"),
        (
            "#1x",
            r##"fragment "1x" is neither a JSON pointer nor an anchor name"##,
        ),
    ] {
        let e = refusal(&d, "", reference);
        assert!(e.ends_with(why) || e.contains(why), "{reference}: {e}");
    }
}

#[test]
fn anchors_and_dynamic_anchors() {
    let d = docs(
        r##"{
            "$id": "https://example.com/tree",
            "$dynamicAnchor": "node",
            "$defs": {
                "plain": {"$anchor": "items"},
                "both": {"$anchor": "same", "$dynamicAnchor": "same"},
                "list": {
                    "$id": "list",
                    "$defs": {"items": {"$dynamicAnchor": "items"}}
                }
            }
        }"##,
    );
    assert_eq!(target(&d, "", "#node"), "");
    assert_eq!(target(&d, "", "#items"), "/$defs/plain");
    assert_eq!(target(&d, "", "list#items"), "/$defs/list/$defs/items");
    assert_eq!(target(&d, "", "#same"), "/$defs/both");
    let root = d.resource(&at(""));
    let list = d.resource(&at("/$defs/list"));
    assert_eq!(d.dynamic_anchor(root, "node"), Some(at("")));
    assert_eq!(d.dynamic_anchor(root, "same"), Some(at("/$defs/both")));
    assert_eq!(
        d.dynamic_anchor(root, "items"),
        None,
        "an $anchor is not dynamic"
    );
    assert_eq!(
        d.dynamic_anchor(list, "items"),
        Some(at("/$defs/list/$defs/items"))
    );
    assert_eq!(d.dynamic_anchor(list, "node"), None);
    assert_eq!(d.dynamic_anchor_at(&at("")), Some("node"));
    assert_eq!(d.dynamic_anchor_at(&at("/$defs/both")), Some("same"));
    assert_eq!(d.dynamic_anchor_at(&at("/$defs/plain")), None);
    assert_eq!(
        d.dynamic_anchor_at(&at("/$defs/list/$defs/items")),
        Some("items")
    );
    let mut own: Vec<(ResourceId, &str)> = d
        .dynamic_anchors()
        .filter(|(r, _)| d.view(*r).doc == 0)
        .collect();
    own.sort();
    assert_eq!(own, [(root, "node"), (root, "same"), (list, "items")]);
    // The built-in meta-schemas declare theirs without being parsed.
    let meta = d
        .resolve(&at(""), "https://json-schema.org/draft/2020-12/meta/core")
        .unwrap();
    assert!(d
        .dynamic_anchors()
        .any(|(r, name)| r == d.resource(&meta) && name == "meta"));
    // A `$dynamicAnchor` inside a value that is not a schema is nothing.
    let d = docs(r##"{"const": {"$dynamicAnchor": "x"}, "examples": [{"$anchor": "y"}]}"##);
    assert_eq!(d.dynamic_anchor_at(&at("/const")), None);
    assert!(refusal(&d, "", "#x").ends_with(r##"no anchor "x""##));
    assert!(refusal(&d, "", "#y").ends_with(r##"no anchor "y""##));
}

#[test]
fn identifiers_outside_schema_positions_count_for_nothing() {
    // The suite's "$id inside an enum is not a real identifier", for every kind of
    // data keyword.
    for keyword in ["enum", "const", "examples", "default", "unknown-keyword"] {
        let wrap = |v: &str| match keyword {
            "enum" | "examples" => format!("[{v}]"),
            _ => v.to_owned(),
        };
        let json = format!(
            r##"{{"$defs": {{"data": {{"{keyword}": {}}}, "real": {{"$id": "https://localhost:1234/my_identifier.json"}}}}}}"##,
            wrap(r##"{"$id": "https://localhost:1234/my_identifier.json", "$anchor": "a"}"##)
        );
        let d = docs(&json);
        assert_eq!(
            target(&d, "", "https://localhost:1234/my_identifier.json"),
            "/$defs/real",
            "{keyword}"
        );
        assert!(d.resolve(&at(""), "#a").is_err(), "{keyword}");
    }
    // draft-07's `dependencies` hold schemas, or lists of names.
    let d = docs_in(
        D7,
        r##"{"dependencies": {"a": ["b"], "c": {"$id": "http://x.test/c"}}}"##,
        &[],
    );
    assert_eq!(target(&d, "", "http://x.test/c"), "/dependencies/c");
    // Subschemas of every applicator count, in each draft.
    let d = docs(
        r##"{"$id": "http://x.test/",
            "properties": {"p": {"$id": "p"}}, "patternProperties": {"^q": {"$id": "q"}},
            "dependentSchemas": {"r": {"$id": "r"}}, "additionalProperties": {"$id": "s"},
            "propertyNames": {"$id": "t"}, "items": {"$id": "u"}, "prefixItems": [{"$id": "v"}],
            "contains": {"$id": "w"}, "allOf": [{"$id": "x"}], "anyOf": [{"$id": "y"}],
            "oneOf": [{"$id": "z"}], "not": {"$id": "n"}, "if": {"$id": "i"}, "then": {"$id": "j"},
            "else": {"$id": "k"}, "unevaluatedItems": {"$id": "l"},
            "unevaluatedProperties": {"$id": "m"}, "contentSchema": {"$id": "o"},
            "definitions": {"d": {"$id": "d"}}}"##,
    );
    for name in "pqrstuvwxyznijklmod".chars() {
        let uri = format!("http://x.test/{name}");
        let loc = d.resolve(&at(""), &uri).unwrap();
        assert_eq!(d.base(&loc), uri);
    }
    let d = docs_in(
        D7,
        r##"{"$id": "http://x.test/", "items": [{"$id": "a"}], "additionalItems": {"$id": "b"},
            "contains": {"$id": "c"}, "if": {"$id": "d"}, "definitions": {"e": {"$id": "e"}},
            "$defs": {"f": {"$id": "f"}}}"##,
        &[],
    );
    for name in "abcde".chars() {
        assert!(
            d.resolve(&at(""), &format!("http://x.test/{name}")).is_ok(),
            "{name}"
        );
    }
    assert!(
        d.resolve(&at(""), "http://x.test/f").is_err(),
        "draft-07 has no $defs"
    );
}

#[test]
fn every_problem_is_reported_at_once() {
    let p = problems_in(
        D12,
        r##"{
            "$id": "http://x.test/root.json",
            "$defs": {
                "a": {"$id": "http://x.test/a.json"},
                "b": {"$id": "a.json"},
                "c": {"$id": "a b"},
                "d": {"$id": 5},
                "e": {"$anchor": "1st"},
                "f": {"$anchor": "dup"},
                "g": {"$anchor": "dup"},
                "h": {"$dynamicAnchor": {}},
                "i": {"$id": "root.json"}
            }
        }"##,
        &[],
    );
    let lines: Vec<(String, &str, String)> = p
        .iter()
        .map(|p| (p.at.pointer.clone(), p.keyword, p.message.clone()))
        .collect();
    let expect = |ptr: &str, kw: &'static str, msg: &str| (ptr.to_owned(), kw, msg.to_owned());
    assert_eq!(
        lines,
        [
            expect(
                "/$defs/b",
                "$id",
                r##""$id" names "http://x.test/a.json", already the URI of the schema at "/$defs/a""##
            ),
            expect(
                "/$defs/c",
                "$id",
                r##""$id" must be a URI reference, got "a b""##
            ),
            expect("/$defs/d", "$id", r##""$id" must be a string"##),
            expect(
                "/$defs/e",
                "$anchor",
                r##""$anchor" must be an anchor name (a letter or "_", then letters, digits, "-", "_", "."), got "1st""##
            ),
            expect(
                "/$defs/g",
                "$anchor",
                r##"anchor "dup" is already declared at "/$defs/f" in this resource"##
            ),
            expect(
                "/$defs/h",
                "$dynamicAnchor",
                r##""$dynamicAnchor" must be a string"##
            ),
            expect(
                "/$defs/i",
                "$id",
                r##""$id" names "http://x.test/root.json", already the URI of the root schema"##
            ),
        ]
    );
    // One anchor name in two resources is two anchors.
    let d = docs(r##"{"$defs": {"a": {"$anchor": "x"}, "b": {"$id": "b", "$anchor": "x"}}}"##);
    assert_eq!(target(&d, "", "#x"), "/$defs/a");
    assert_eq!(target(&d, "", "b#x"), "/$defs/b");
}

#[test]
fn registered_documents() {
    let registered = [
        resource(
            "http://localhost:1234/integer.json",
            r##"{"type": "integer"}"##,
        ),
        // Registered under one URI, declaring another: both name it, and its own
        // references resolve against its `$id`.
        resource(
            "http://localhost:1234/different-id.json",
            r##"{"$id": "http://localhost:1234/real-id.json", "$defs": {"bar": {"type": "string"}}, "$ref": "#/$defs/bar"}"##,
        ),
        resource(
            "http://localhost:1234/nested/foo-ref-string.json",
            r##"{"properties": {"foo": {"$ref": "string.json"}}}"##,
        ),
        resource(
            "http://localhost:1234/nested/string.json",
            r##"{"type": "string"}"##,
        ),
        resource(
            "http://localhost:1234/draft2019-09/x.json",
            r##"{"$schema": "https://json-schema.org/draft/2019-09/schema", "$defs": {"a": {"$id": "http://localhost:1234/only-in-2019.json"}}}"##,
        ),
        resource(
            "HTTP://LocalHost:1234/draft7/frag.json#",
            r##"{"$schema": "http://json-schema.org/draft-07/schema#", "definitions": {"a": {"$id": "#a"}}}"##,
        ),
    ];
    let d = docs_in(
        D12,
        r##"{"$id": "http://localhost:1234/root.json"}"##,
        &registered,
    );
    let resolve = |reference: &str| d.resolve(&at(""), reference);
    let integer = resolve("integer.json").unwrap();
    assert_eq!(integer.doc, 1);
    assert_eq!(integer.pointer, "");
    assert_eq!(d.value(&integer), Some(&parse(r##"{"type": "integer"}"##)));
    let by_retrieval = resolve("different-id.json").unwrap();
    let by_id = resolve("real-id.json").unwrap();
    assert_eq!(by_retrieval, by_id);
    assert_eq!(d.base(&by_id), "http://localhost:1234/real-id.json");
    assert_eq!(
        d.resolve(&by_id, "#/$defs/bar").unwrap(),
        Location {
            doc: 2,
            pointer: "/$defs/bar".to_owned()
        }
    );
    let foo = resolve("nested/foo-ref-string.json").unwrap();
    let inner = Location {
        doc: foo.doc,
        pointer: "/properties/foo".to_owned(),
    };
    assert_eq!(d.resolve(&inner, "string.json").unwrap().doc, 4);
    // A draft toolgate does not implement: indexed by its URI only, refused when
    // reached.
    let e = resolve("draft2019-09/x.json").unwrap_err();
    assert_eq!(
        e,
        r##"cannot resolve "draft2019-09/x.json": "http://localhost:1234/draft2019-09/x.json" declares "$schema": "https://json-schema.org/draft/2019-09/schema", a draft that is not supported (supported: "https://json-schema.org/draft/2020-12/schema", "http://json-schema.org/draft-07/schema#")"##
    );
    assert!(resolve("only-in-2019.json").is_err());
    // Its URI was normalized; its `$schema` made it draft-07.
    let frag = resolve("http://localhost:1234/draft7/frag.json#a").unwrap();
    assert_eq!(frag.pointer, "/definitions/a");
    assert_eq!(d.draft(&frag), D7);
    assert_eq!(d.draft(&integer), D12, "no $schema: the default draft");
    // References never reach the network: the error names the URI.
    assert_eq!(
        resolve("missing.json").unwrap_err(),
        r##"cannot resolve "missing.json": no schema or registered resource has URI "http://localhost:1234/missing.json""##
    );
    // Without `$id`, the base is the default one.
    let d = docs_in(D12, "{}", &registered);
    assert_eq!(d.base(&at("")), DEFAULT_BASE);
    assert_eq!(
        d.resolve(&at(""), "other.json").unwrap_err(),
        r##"cannot resolve "other.json": no schema or registered resource has URI "json-schema:///other.json""##
    );
    assert_eq!(
        d.resolve(&at(""), "http://localhost:1234/integer.json")
            .unwrap()
            .doc,
        1
    );
    // A registered document read in the default draft: draft-07's fragment ids
    // work when the default is draft-07.
    let legacy = [resource(
        "http://localhost:1234/legacy.json",
        r##"{"definitions": {"a": {"$id": "#foo"}}}"##,
    )];
    let d = Documents::new(parse("{}"), None, D12, D7, &legacy).unwrap();
    let foo = d
        .resolve(&at(""), "http://localhost:1234/legacy.json#foo")
        .unwrap();
    assert_eq!(foo.pointer, "/definitions/a");
    // Read in draft 2020-12, it is invalid: only a reference that reaches it is
    // refused, so one set of registered resources can serve schemas of both drafts.
    let d = Documents::new(parse("{}"), None, D12, D12, &legacy).unwrap();
    assert_eq!(d.registered_problems(1).len(), 1);
    assert_eq!(d.registered_problems(1)[0].at.pointer, "/definitions/a");
    assert_eq!(
        d.resolve(&at(""), "http://localhost:1234/legacy.json")
            .unwrap_err(),
        r##"cannot resolve "http://localhost:1234/legacy.json": the registered resource "http://localhost:1234/legacy.json" is refused at "/definitions/a": "$id" must not have a fragment, got "#foo"; name a location with "$anchor""##
    );
}

#[test]
fn registered_uris_must_be_absolute_and_distinct() {
    let registered = [
        resource("a.json", "{}"),
        resource("http://x.test/b.json#frag", "{}"),
        resource("not a uri", "{}"),
        resource("http://x.test/c.json", "{}"),
        resource("HTTP://X.TEST/./c.json", "{}"),
    ];
    let p = problems_in(D12, "{}", &registered);
    let messages: Vec<&str> = p.iter().map(|p| p.message.as_str()).collect();
    assert_eq!(
        messages,
        [
            r##"registered resource URI "a.json" is not absolute (it needs a scheme, as in "https://example.com/a.json")"##,
            r##"registered resource URI "http://x.test/b.json#frag" has a fragment"##,
            r##"registered resource URI "not a uri" is not a valid URI"##,
            r##"registered resource URI "HTTP://X.TEST/./c.json" is already the URI of the registered resource "http://x.test/c.json""##,
        ]
    );
    let docs: Vec<DocId> = p.iter().map(|p| p.at.doc).collect();
    assert_eq!(docs, [1, 2, 3, 5]);
    // An `$id` inside a registered document that another document has refuses
    // that document only.
    let registered = [
        resource("http://x.test/c.json", r##"{"type": "string"}"##),
        resource(
            "http://x.test/d.json",
            r##"{"$defs": {"e": {"$id": "c.json"}}}"##,
        ),
    ];
    let d = docs_in(D12, "{}", &registered);
    assert_eq!(d.resolve(&at(""), "http://x.test/c.json").unwrap().doc, 1);
    assert_eq!(
        d.resolve(&at(""), "http://x.test/d.json").unwrap_err(),
        r##"cannot resolve "http://x.test/d.json": the registered resource "http://x.test/d.json" is refused at "/$defs/e": "$id" names "http://x.test/c.json", already the URI of the registered resource "http://x.test/c.json""##
    );
    // The schema being compiled takes a URI a registered document has: compiling a
    // schema that is also registered is no conflict.
    let registered = [
        resource("http://x.test/root.json", r##"{"title": "registered"}"##),
        resource("http://x.test/other.json", r##"{"$id": "root.json"}"##),
    ];
    let d = docs_in(
        D12,
        r##"{"$id": "http://x.test/root.json", "title": "compiled"}"##,
        &registered,
    );
    assert_eq!(target(&d, "", "http://x.test/root.json"), "");
    assert_eq!(
        d.resolve(&at(""), "http://x.test/other.json").unwrap().doc,
        2
    );
}

#[test]
fn embedded_schema_changes_the_draft() {
    let d = docs(
        r##"{
            "$defs": {
                "legacy": {
                    "$id": "http://x.test/legacy.json",
                    "$schema": "http://json-schema.org/draft-07/schema#",
                    "definitions": {"a": {"$id": "#a"}},
                    "items": [{"$id": "item.json"}]
                },
                "not_a_root": {"$schema": "http://json-schema.org/draft-07/schema#", "$defs": {"b": {"$id": "http://x.test/b.json"}}},
                "future": {
                    "$id": "http://x.test/future.json",
                    "$schema": "https://json-schema.org/draft/2019-09/schema",
                    "$defs": {"c": {"$id": "http://x.test/c.json"}}
                }
            }
        }"##,
    );
    assert_eq!(d.draft(&at("/$defs/legacy")), D7);
    assert_eq!(d.draft(&at("/$defs/legacy/definitions/a")), D7);
    assert_eq!(
        d.draft(&at("/$defs/not_a_root")),
        D12,
        "$schema without $id"
    );
    assert_eq!(d.draft(&at("")), D12);
    assert_eq!(
        target(&d, "", "http://x.test/legacy.json#a"),
        "/$defs/legacy/definitions/a"
    );
    assert_eq!(
        target(&d, "", "http://x.test/item.json"),
        "/$defs/legacy/items/0"
    );
    assert_eq!(
        target(&d, "", "http://x.test/b.json"),
        "/$defs/not_a_root/$defs/b"
    );
    // A draft toolgate lacks: refused by URI and by pointer, never indexed inside.
    assert!(refusal(&d, "", "http://x.test/future.json").contains("a draft that is not supported"));
    assert!(refusal(&d, "", "#/$defs/future/$defs/c").contains("a draft that is not supported"));
    assert!(refusal(&d, "", "http://x.test/c.json").contains("no schema or registered resource"));
}

#[test]
fn uris_are_compared_normalized() {
    let d = docs(
        r##"{"$defs": {"a": {"$id": "HTTP://Example.COM:80/a.json"}, "u": {"$id": "urn:example:Caf%c3%a9"}}}"##,
    );
    assert_eq!(target(&d, "", "http://example.com/a.json"), "/$defs/a");
    assert_eq!(target(&d, "", "http://EXAMPLE.com/a.json#"), "/$defs/a");
    assert_eq!(
        target(&d, "", "http://example.com/./b/../a.json"),
        "/$defs/a"
    );
    assert_eq!(target(&d, "", "URN:example:Caf\u{e9}"), "/$defs/u");
    assert!(
        d.resolve(&at(""), "http://example.com/A.json").is_err(),
        "paths keep their case"
    );
}

#[test]
fn meta_schemas_are_built_in() {
    let d = docs(r##"{"$ref": "https://json-schema.org/draft/2020-12/schema"}"##);
    let meta = d
        .resolve(&at(""), "https://json-schema.org/draft/2020-12/schema")
        .unwrap();
    assert!(meta.doc as usize >= 1, "a document of its own");
    assert_eq!(meta.pointer, "");
    assert_eq!(d.draft(&meta), D12);
    assert_eq!(d.dynamic_anchor_at(&meta), Some("meta"));
    let Some(Doc::Object(members)) = d.value(&meta) else {
        panic!("the meta-schema is an object")
    };
    assert!(members.iter().any(|(k, _)| *k == "allOf"));
    // Its own references, relative to its URI.
    let core = d.resolve(&meta, "meta/core").unwrap();
    assert_eq!(
        d.base(&core),
        "https://json-schema.org/draft/2020-12/meta/core"
    );
    let anchor_string = d.resolve(&core, "#/$defs/anchorString").unwrap();
    assert!(d.value(&anchor_string).is_some());
    assert_eq!(d.resolve(&core, "#meta").unwrap(), core);
    let core_resource = d.resource(&core);
    assert_eq!(d.dynamic_anchor(core_resource, "meta"), Some(core.clone()));
    // The spellings `$schema` accepts reach the same documents.
    assert_eq!(
        d.resolve(&at(""), "http://json-schema.org/draft/2020-12/schema")
            .unwrap(),
        meta
    );
    let d7 = d
        .resolve(&at(""), "http://json-schema.org/draft-07/schema#")
        .unwrap();
    assert_eq!(
        d.resolve(&at(""), "https://json-schema.org/draft-07/schema")
            .unwrap(),
        d7
    );
    assert_eq!(d.draft(&d7), D7);
    let arr = d.resolve(&d7, "#/definitions/schemaArray").unwrap();
    assert!(matches!(d.value(&arr), Some(Doc::Object(_))));
    assert!(d.resolve(&d7, "#/definitions/nope").is_err());
    // A schema that declares a meta-schema's URI takes its place.
    let d = docs(r##"{"$id": "https://json-schema.org/draft/2020-12/schema", "title": "mine"}"##);
    assert_eq!(
        target(&d, "", "https://json-schema.org/draft/2020-12/schema"),
        ""
    );
}

#[test]
fn built_in_table_matches_the_documents() {
    // What the resolver knows of each meta-schema without parsing it is what the
    // document declares: its `$id`, its draft, one resource, its dynamic anchor and
    // no other anchor.
    for (i, b) in BUILTINS.iter().enumerate() {
        let value = b.value().unwrap_or_else(|| panic!("{} is not JSON", b.uri));
        let registered = [Resource {
            uri: b.uri.to_owned(),
            doc: Arc::new(OwnedDoc::parse(b.text.as_bytes(), 64).expect("a built-in is JSON")),
        }];
        let d = Documents::new(parse("{}"), None, D12, D12, &registered)
            .unwrap_or_else(|p| panic!("{}: {p:#?}", b.uri));
        let Doc::Object(members) = value else {
            panic!("{} is not an object", b.uri)
        };
        let id = member(members, "$id").and_then(|v| match v {
            Doc::String(s) => Some(s.trim_end_matches('#')),
            _ => None,
        });
        assert_eq!(id, Some(b.uri), "builtin {i}");
        let schema = member(members, "$schema").and_then(|v| match v {
            Doc::String(s) => Draft::from_uri(s),
            _ => None,
        });
        assert_eq!(schema, Some(b.draft), "{}", b.uri);
        assert_eq!(d.resources.len(), 2, "{}: one resource", b.uri);
        let anchors: Vec<(&str, &str, bool)> = d.resources[1]
            .anchors
            .iter()
            .map(|(n, a)| (n.as_str(), a.pointer.as_str(), a.dynamic))
            .collect();
        let expected: Vec<(&str, &str, bool)> = b
            .dynamic_anchor
            .map(|n| (n, "", true))
            .into_iter()
            .collect();
        assert_eq!(anchors, expected, "{}", b.uri);
        assert_eq!(meta::find(b.uri), Some(i));
    }
}

#[test]
fn locations_from_elsewhere_do_not_panic() {
    let d = docs(r##"{"$id": "http://x.test/"}"##);
    let stray = Location {
        doc: 999,
        pointer: "/nowhere".to_owned(),
    };
    assert_eq!(d.resource(&stray), 0);
    assert_eq!(d.base(&stray), "http://x.test/");
    assert_eq!(d.value(&stray), None);
    assert_eq!(d.dynamic_anchor_at(&stray), None);
    assert_eq!(d.dynamic_anchor(12345, "x"), None);
    assert!(d.resolve(&stray, "#/a").is_err());
}

#[test]
fn deep_documents_index_on_a_small_stack() {
    // As deep as the nesting limit allows, indexed on a thread with a small stack:
    // the walk keeps its own stack, so the depth costs heap, not thread stack. (The
    // value is built directly, then copied into an arena: this is about the index,
    // not the parser.)
    const DEPTH: usize = 1000;
    let obj = |members: Vec<(&str, Value)>| {
        Value::Object(
            members
                .into_iter()
                .map(|(k, v)| (k.to_owned(), v))
                .collect(),
        )
    };
    let string = |s: &str| Value::String(s.to_owned());
    let mut value = obj(vec![
        ("$id", string("deep.json")),
        ("$anchor", string("bottom")),
    ]);
    for _ in 0..DEPTH {
        value = obj(vec![("not", value)]);
    }
    let value = obj(vec![
        ("$id", string("http://x.test/root.json")),
        (
            "allOf",
            Value::Array(vec![obj(vec![("$id", string("a.json"))])]),
        ),
        ("not", value),
    ]);
    let arena: &'static bumpalo::Bump = Box::leak(Box::default());
    let value = Doc::from_value(&value, arena);
    let d = std::thread::Builder::new()
        .stack_size(64 * 1024)
        .spawn(move || Documents::new(value, None, D12, D12, &[]).map_err(|p| format!("{p:?}")))
        .unwrap()
        .join()
        .expect("indexing needs no deep stack")
        .unwrap();
    let bottom = d.resolve(&at(""), "deep.json#bottom").unwrap();
    assert_eq!(bottom.pointer, "/not".repeat(DEPTH + 1));
    assert_eq!(d.base(&bottom), "http://x.test/deep.json");
    let above = at(&"/not".repeat(DEPTH));
    assert_eq!(d.base(&above), "http://x.test/root.json");
    assert_eq!(d.resolve(&above, "a.json").unwrap(), at("/allOf/0"));
    assert_eq!(
        d.resolve(&above, &format!("#{}", "/not".repeat(DEPTH + 1)))
            .unwrap(),
        bottom
    );
}

#[test]
fn the_index_is_needed_by_references_and_identifiers_alone() {
    use IndexKeys::{Identifiers, Nothing, References};
    for (text, keys) in [
        // A key that declares a resource or an anchor, wherever it is, with
        // references or without.
        (r##"{"properties":{"a":{"$id":"a.json"}}}"##, Identifiers),
        (
            r##"{"$defs":{"x":{"$anchor":"x"}},"$ref":"#x"}"##,
            Identifiers,
        ),
        (
            r##"{"$ref":"#/$defs/m","items":{"$dynamicAnchor":"meta"}}"##,
            Identifiers,
        ),
        (r##"{"$id":"http://x.test/s"}"##, Identifiers),
        // References alone, wherever they are.
        (
            r##"{"$schema":"http://json-schema.org/draft-07/schema#","definitions":{"a":{"type":"string"}},"properties":{"b":{"$ref":"#/definitions/a"}}}"##,
            References,
        ),
        (
            r##"{"$defs":{"a":{"$comment":"x"}},"$ref":"#/$defs/a"}"##,
            References,
        ),
        (r##"{"items":{"$dynamicRef":"#meta"}}"##, References),
        // `$schema`, `$defs`, `$comment`, `$vocabulary`, look-alike names and a `$`
        // in a value: nothing.
        (
            r##"{"$schema":"http://json-schema.org/draft-07/schema#","definitions":{"a":{"type":"string"}}}"##,
            Nothing,
        ),
        (
            r##"{"$defs":{"a":{"$comment":"see $ref"}},"$vocabulary":{}}"##,
            Nothing,
        ),
        (
            r##"{"properties":{"$idea":{"pattern":"^\\$id$"},"$anchored":{},"$reference":{},"$dynamicRefs":{}}}"##,
            Nothing,
        ),
        (r##"{"description":"costs $5"}"##, Nothing),
        ("$ref", Nothing),
        // A value that ends in an escaped quote and the name reads the same: a
        // cautious answer (the index then finds nothing).
        (r##"{"description":"say \"$id"}"##, Identifiers),
        (r##"{"description":"say \"$ref"}"##, References),
        (r##"{"description":"say \"$id\""}"##, Nothing),
    ] {
        assert_eq!(index_keys(text), keys, "{text}");
    }
}
