//! No input makes validation blow up: for each shape of work a schema can ask for, the
//! work (values walked against a node, values compared) is counted and bounded by a
//! constant times the input, on inputs built to make a naive validator exponential or
//! quadratic. Counted, never timed.

use std::cell::Cell;

use super::equal::COMPARISONS;
use super::walk::VISITS;
use super::{Options, Profile, Schema};

fn full(schema: &str) -> Schema {
    Schema::compile_with(
        schema.as_bytes(),
        &Options::default().with_profile(Profile::Full),
    )
    .unwrap_or_else(|e| panic!("{schema}: {e}"))
}

/// Runs `f` and returns what it returned with the values it walked.
fn visits<T>(f: impl FnOnce() -> T) -> (T, u64) {
    VISITS.with(|v| v.set(0));
    let out = f();
    (out, VISITS.with(|v| v.get()))
}

/// `depth` nested nodes `{"b":1,"kids":[...]}`.
fn chain(depth: usize) -> String {
    let mut s = String::from(r#"{"b":1}"#);
    for _ in 0..depth {
        s = format!(r#"{{"b":1,"kids":[{s}]}}"#);
    }
    s
}

/// A tree of objects under `anyOf`, each branch recursing through `kids` and
/// requiring a member of its own (`a` or `b`).
fn tree_under_any_of() -> Schema {
    full(
        r##"{"$defs":{"node":{"type":"object","anyOf":[
            {"required":["a"],"properties":{"kids":{"type":"array","items":{"$ref":"#/$defs/node"}}}},
            {"required":["b"],"properties":{"kids":{"type":"array","items":{"$ref":"#/$defs/node"}}}}
        ]}},"$ref":"#/$defs/node"}"##,
    )
}

/// A tree of objects under anyOf whose first branch fails only after walking the whole
/// subtree (its `required` is checked at the end): each level tries two branches that
/// both recurse, 2^depth walks without the memo.
#[test]
fn recursion_under_any_of_stays_linear() {
    let schema = tree_under_any_of();
    for depth in [10, 30, 60] {
        let doc = chain(depth);
        let (valid, n) = visits(|| schema.is_valid(doc.as_bytes()));
        assert!(valid, "depth {depth}");
        assert!(
            n <= 20 * depth as u64,
            "is_valid walked {n} values at depth {depth}"
        );
        let (errors, n) = visits(|| schema.validate_json(doc.as_bytes()));
        assert!(errors.is_empty(), "{errors:?}");
        assert!(
            n <= 40 * depth as u64,
            "validate_json walked {n} values at depth {depth}"
        );
    }
    // An invalid leaf deep down: still linear, with its violation found.
    let bad = chain(60).replacen(r#"{"b":1}"#, r#"{"c":1}"#, 1);
    let (valid, n) = visits(|| schema.is_valid(bad.as_bytes()));
    assert!(!valid);
    assert!(n <= 2000, "is_valid walked {n} values");
    let (errors, n) = visits(|| schema.validate_json(bad.as_bytes()));
    assert!(!errors.is_empty());
    assert!(n <= 40_000, "validate_json walked {n} values");
}

/// Two in-place references to the same recursive node at each level (`allOf` of both)
/// would double the work per level; each (node, value) is walked once.
#[test]
fn recursion_under_all_of_stays_linear() {
    let schema = full(
        r##"{"$defs":{"node":{"type":"object","properties":{"kids":{"type":"array","items":{"allOf":[{"$ref":"#/$defs/node"},{"$ref":"#/$defs/node"}]}}}}},"$ref":"#/$defs/node"}"##,
    );
    let doc = chain(60);
    let (valid, n) = visits(|| schema.is_valid(doc.as_bytes()));
    assert!(valid);
    assert!(n <= 2000, "is_valid walked {n} values");
    let (errors, n) = visits(|| schema.validate_json(doc.as_bytes()));
    assert!(errors.is_empty());
    assert!(n <= 4000, "validate_json walked {n} values");
}

/// A first-error walk keeps no verdicts for its first recursive nodes (a call that
/// recurses a few levels does not pay for the table) and keeps them from then on:
/// on either side of that point, and across it, the verdict is the collecting walk's
/// and the work stays linear in the depth.
#[test]
fn recursion_is_linear_before_and_after_the_memo_starts() {
    let schema = tree_under_any_of();
    for depth in 0..48 {
        let valid = chain(depth);
        // The leaf (innermost) or the root (outermost) breaks both branches.
        let bad_leaf = valid.replacen(r#"{"b":1}"#, r#"{"c":1}"#, 1);
        let bad_root = valid.replacen(r#"{"b":1"#, r#"{"c":1"#, 1);
        for (doc, expected) in [(&valid, true), (&bad_leaf, false), (&bad_root, false)] {
            let (verdict, n) = visits(|| schema.is_valid(doc.as_bytes()));
            assert_eq!(verdict, expected, "depth {depth}: {doc}");
            assert_eq!(
                verdict,
                schema.validate_json(doc.as_bytes()).is_empty(),
                "depth {depth}: {doc}"
            );
            let bound = 300 + 20 * depth as u64;
            assert!(n <= bound, "is_valid walked {n} values at depth {depth}");
        }
    }
}

/// Two resources that both declare the dynamic anchor, each applying both to the next
/// level: a value `k` levels down is reached by 2^k paths, whose dynamic scopes differ
/// only in the order they re-entered resources already in scope. That order decides no
/// dynamic reference's target, so every path shares one memo entry per position.
#[test]
fn re_entered_resources_keep_one_dynamic_scope() {
    let level =
        r##"{"allOf":[{"$ref":"https://example.com/a"},{"$ref":"https://example.com/b"}]}"##;
    let schema = full(&format!(
        r##"{{"$id":"https://example.com/a","$dynamicAnchor":"node",
        "properties":{{"k":{level},"d":{{"$dynamicRef":"#node"}}}},
        "$defs":{{"b":{{"$id":"https://example.com/b","$dynamicAnchor":"node","type":"object",
          "properties":{{"k":{level},"d":{{"$dynamicRef":"#node"}}}}}}}}}}"##
    ));
    let chain = |depth: usize, leaf: &str| {
        let mut s = leaf.to_string();
        for _ in 0..depth {
            s = format!(r#"{{"k":{s}}}"#);
        }
        s
    };
    for (depth, bound) in [(10, 200), (20, 400), (40, 800)] {
        let doc = chain(depth, "{}");
        let (valid, n) = visits(|| schema.is_valid(doc.as_bytes()));
        assert!(valid, "depth {depth}");
        assert!(n <= bound, "is_valid walked {n} values at depth {depth}");
        let (errors, m) = visits(|| schema.validate_json(doc.as_bytes()));
        eprintln!("depth {depth}: is_valid walked {n} values, validate_json {m}");
        assert!(errors.is_empty(), "{errors:?}");
        assert!(
            m <= bound,
            "validate_json walked {m} values at depth {depth}"
        );
        // A leaf that "b" refuses: found, once, by both walks.
        let bad = chain(depth, "[]");
        assert!(!schema.is_valid(bad.as_bytes()));
        let (errors, m) = visits(|| schema.validate_json(bad.as_bytes()));
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert!(
            m <= bound,
            "validate_json walked {m} values at depth {depth}"
        );
    }
}

/// A `oneOf` that fails at every level, whose branch recurses into the value, where
/// `allOf` recurses on (so that the explanation of each level's failure would walk
/// every level below): the explanations' work is bounded by the input, and the
/// failures are all still reported.
#[test]
fn explanations_of_failures_at_every_level_stay_linear() {
    let schema = Schema::compile_with(
        br##"{"$defs":{"node":{"type":"object",
            "allOf":[{"properties":{"k":{"$ref":"#/$defs/node"}}}],
            "oneOf":[{"$ref":"#/$defs/branch"},{"required":["never"]}]},
          "branch":{"properties":{"k":{"$ref":"#/$defs/node"}},"required":["x"]}},
        "$ref":"#/$defs/node"}"##,
        &Options::default()
            .with_profile(Profile::Full)
            .with_max_depth(Options::MAX_DEPTH_LIMIT),
    )
    .unwrap();
    let chain = |depth: usize| {
        let mut s = String::from("{}");
        for _ in 0..depth {
            s = format!(r#"{{"k":{s}}}"#);
        }
        s
    };
    let mut per_byte = Vec::new();
    for depth in [100, 200, 400, 800] {
        let doc = chain(depth);
        assert!(!schema.is_valid(doc.as_bytes()));
        let (errors, m) = visits(|| schema.validate_json(doc.as_bytes()));
        // One failed oneOf per level, each explained.
        assert_eq!(errors.len(), depth + 1, "depth {depth}");
        assert!(errors.iter().all(|e| e.keyword == "oneOf"), "{errors:?}");
        per_byte.push(m as f64 / doc.len() as f64);
    }
    eprintln!("values walked per byte at depths 100, 200, 400, 800: {per_byte:.1?}");
    // Linear: the work per byte does not grow with the depth.
    assert!(
        per_byte[3] <= per_byte[1] * 1.5,
        "values walked per byte: {per_byte:?}"
    );
}

/// Each keyword that applies a subschema, over a recursion into the value, with a
/// leaf that fails (or passes) at the bottom of a chain 50, 100 and 200 levels deep:
/// the values both walks take per byte of the input do not grow with the depth.
#[test]
fn every_applicator_over_a_recursion_stays_linear() {
    // (shape, schema whose node is #/$defs/n, one level of the instance with @ for
    // the level below, the innermost value)
    let cases: &[(&str, &str, &str, &str)] = &[
        (
            "anyOf beside allOf",
            r##"{"$defs":{"n":{"allOf":[{"properties":{"k":{"$ref":"#/$defs/n"}}}],"anyOf":[{"properties":{"k":{"$ref":"#/$defs/n"}},"required":["x"]},{"required":["y"]}]}},"$ref":"#/$defs/n"}"##,
            r#"{"k":@}"#,
            "{}",
        ),
        (
            "anyOf failing",
            r##"{"$defs":{"n":{"anyOf":[{"properties":{"k":{"$ref":"#/$defs/n"}},"required":["a"]},{"properties":{"k":{"$ref":"#/$defs/n"}},"required":["b"]}]}},"$ref":"#/$defs/n"}"##,
            r#"{"k":@}"#,
            "{}",
        ),
        (
            "oneOf, both passing",
            r##"{"$defs":{"n":{"oneOf":[{"properties":{"k":{"$ref":"#/$defs/n"}}},{"properties":{"k":{"$ref":"#/$defs/n"}}}]}},"$ref":"#/$defs/n"}"##,
            r#"{"k":@}"#,
            "{}",
        ),
        (
            "if/then/else",
            r##"{"$defs":{"n":{"if":{"properties":{"k":{"$ref":"#/$defs/n"}}},"then":{"properties":{"k":{"$ref":"#/$defs/n"}},"required":["x"]},"else":{"properties":{"k":{"$ref":"#/$defs/n"}}}}},"$ref":"#/$defs/n"}"##,
            r#"{"k":@}"#,
            "{}",
        ),
        (
            "not beside allOf",
            r##"{"$defs":{"n":{"allOf":[{"properties":{"k":{"$ref":"#/$defs/n"}}}],"not":{"properties":{"k":{"$ref":"#/$defs/n"}}}}},"$ref":"#/$defs/n"}"##,
            r#"{"k":@}"#,
            "{}",
        ),
        (
            "unevaluatedProperties over anyOf",
            r##"{"$defs":{"n":{"anyOf":[{"properties":{"k":{"$ref":"#/$defs/n"}}},{"properties":{"j":{"$ref":"#/$defs/n"}}}],"unevaluatedProperties":false}},"$ref":"#/$defs/n"}"##,
            r#"{"k":@,"z":1}"#,
            "{}",
        ),
        (
            "unevaluatedProperties over a failing oneOf",
            r##"{"$defs":{"n":{"oneOf":[{"properties":{"k":{"$ref":"#/$defs/n"}}},{"properties":{"k":{"$ref":"#/$defs/n"}},"required":["q"]}],"unevaluatedProperties":false}},"$ref":"#/$defs/n"}"##,
            r#"{"k":@}"#,
            r#"{"z":1}"#,
        ),
        (
            "contains beside items",
            r##"{"$defs":{"n":{"type":"array","contains":{"$ref":"#/$defs/n"},"items":{"$ref":"#/$defs/n"}}},"$ref":"#/$defs/n"}"##,
            "[@]",
            "[]",
        ),
        (
            "dependentSchemas",
            r##"{"$defs":{"n":{"properties":{"k":{"$ref":"#/$defs/n"}},"dependentSchemas":{"k":{"properties":{"k":{"$ref":"#/$defs/n"}},"required":["x"]}}}},"$ref":"#/$defs/n"}"##,
            r#"{"k":@}"#,
            "{}",
        ),
        (
            "patternProperties beside properties",
            r##"{"$defs":{"n":{"properties":{"k":{"$ref":"#/$defs/n"}},"patternProperties":{"^k":{"$ref":"#/$defs/n"}},"additionalProperties":false}},"$ref":"#/$defs/n"}"##,
            r#"{"k":@}"#,
            r#"{"z":1}"#,
        ),
        (
            "propertyNames",
            r##"{"$defs":{"n":{"propertyNames":{"$ref":"#/$defs/s"},"additionalProperties":{"$ref":"#/$defs/n"}},"s":{"anyOf":[{"maxLength":1},{"pattern":"^x"}]}},"$ref":"#/$defs/n"}"##,
            r#"{"kk":@}"#,
            "{}",
        ),
    ];
    let options = Options::default()
        .with_profile(Profile::Full)
        .with_max_depth(Options::MAX_DEPTH_LIMIT);
    for &(shape, schema, level, leaf) in cases {
        let schema = Schema::compile_with(schema.as_bytes(), &options)
            .unwrap_or_else(|e| panic!("{shape}: {e}"));
        let per_byte = |depth: usize| {
            let mut doc = leaf.to_string();
            for _ in 0..depth {
                doc = level.replace('@', &doc);
            }
            let (valid, n) = visits(|| schema.is_valid(doc.as_bytes()));
            let (errors, m) = visits(|| schema.validate_json(doc.as_bytes()));
            assert_eq!(valid, errors.is_empty(), "{shape} at depth {depth}");
            let len = doc.len() as f64;
            (n as f64 / len, m as f64 / len)
        };
        let rows = [per_byte(50), per_byte(100), per_byte(200)];
        for (walk, first, last) in [
            ("is_valid", rows[0].0, rows[2].0),
            ("validate_json", rows[0].1, rows[2].1),
        ] {
            assert!(
                last <= first * 1.5 + 0.5,
                "{shape}: {walk} walked {first:.1} values per byte at depth 50, {last:.1} at 200"
            );
        }
    }
}

/// A value nested `depth` levels, each level `level` with `@` for the level below,
/// around a 100 KB array of distinct numbers.
fn nested_around_a_large_array(level: &str, depth: usize) -> String {
    let numbers: Vec<String> = (100_000..116_667).map(|n| n.to_string()).collect();
    let mut doc = format!("[{}]", numbers.join(","));
    for _ in 0..depth {
        doc = level.replace('@', &doc);
    }
    doc
}

/// Values no keyword at a level looks into are skipped, and each in-place applicator
/// reads its value again: at every level of a recursion, the members a subschema does
/// not descend into hold all the levels below. Past a few times the input, skips
/// remember where each container ends and read none twice: the bytes skips read stay
/// a few per byte of input at any depth, in both walks (without that, a level's skips
/// read the whole value below it, 120 per byte at depth 120).
#[test]
fn values_skipped_at_every_level_are_read_once() {
    use crate::json::SKIPPED;
    // (shape, schema, one level of the instance with @ for the level below)
    let cases: &[(&str, &str, &str)] = &[
        (
            "anyOf of requireds",
            r##"{"$defs":{"n":{"properties":{"k":{"$ref":"#/$defs/n"}},"anyOf":[{"required":["k"]},{"required":["end"]}]}},"$ref":"#/$defs/n"}"##,
            r#"{"k":@,"x":1}"#,
        ),
        (
            "allOf of a type",
            r##"{"$defs":{"n":{"properties":{"k":{"$ref":"#/$defs/n"}},"allOf":[{"type":"object"}]}},"$ref":"#/$defs/n"}"##,
            r#"{"k":@}"#,
        ),
        (
            "not",
            r##"{"$defs":{"n":{"properties":{"k":{"$ref":"#/$defs/n"}},"not":{"required":["zz"]}}},"$ref":"#/$defs/n"}"##,
            r#"{"k":@}"#,
        ),
        (
            "if/then",
            r##"{"$defs":{"n":{"properties":{"k":{"$ref":"#/$defs/n"}},"if":{"required":["k"]},"then":{"required":["k"]}}},"$ref":"#/$defs/n"}"##,
            r#"{"k":@}"#,
        ),
        (
            "dependentSchemas",
            r##"{"$defs":{"n":{"properties":{"k":{"$ref":"#/$defs/n"}},"dependentSchemas":{"k":{"required":["k"]}}}},"$ref":"#/$defs/n"}"##,
            r#"{"k":@}"#,
        ),
        (
            "unevaluatedProperties over anyOf",
            r##"{"$defs":{"n":{"anyOf":[{"properties":{"k":{"$ref":"#/$defs/n"},"x":true}},{"required":["zz"]}],"unevaluatedProperties":false}},"$ref":"#/$defs/n"}"##,
            r#"{"k":@,"x":1}"#,
        ),
        (
            "unevaluatedItems over contains",
            r##"{"$defs":{"n":{"prefixItems":[{"$ref":"#/$defs/n"}],"contains":{"type":"array"},"unevaluatedItems":false}},"$ref":"#/$defs/n"}"##,
            "[@]",
        ),
    ];
    for &(shape, schema, level) in cases {
        let schema = full(schema);
        for depth in [8, 32, 120] {
            let doc = nested_around_a_large_array(level, depth);
            SKIPPED.with(|s| s.set(0));
            let valid = schema.is_valid(doc.as_bytes());
            let (read_valid, _) = (SKIPPED.with(|s| s.get()), SKIPPED.with(|s| s.set(0)));
            let errors = schema.validate_json(doc.as_bytes());
            let read_all = SKIPPED.with(|s| s.get());
            assert_eq!(
                valid,
                errors.is_empty(),
                "{shape} at depth {depth}: {errors:?}"
            );
            let len = doc.len() as u64;
            eprintln!(
                "{shape}, depth {depth}: skips read {:.1} / {:.1} bytes per byte",
                read_valid as f64 / len as f64,
                read_all as f64 / len as f64
            );
            for (walk, read) in [("is_valid", read_valid), ("validate_json", read_all)] {
                assert!(
                    read <= 7 * len,
                    "{shape} at depth {depth}: {walk}'s skips read {read} bytes of {len}"
                );
            }
        }
    }
}

/// `uniqueItems` at every level of nested arrays hashes each element, which holds all
/// the levels below: past a few times the input, the hashes of the containers read are
/// remembered, and the values hashed stay a few per value of the input at any depth
/// (without that, 120 per value at depth 120).
#[test]
fn unique_items_at_every_level_hashes_each_value_a_few_times() {
    use super::equal::VALUES_READ;
    let schema = full(
        r##"{"$defs":{"n":{"uniqueItems":true,"items":{"$ref":"#/$defs/n"}}},"$ref":"#/$defs/n"}"##,
    );
    for depth in [8, 32, 120] {
        let doc = nested_around_a_large_array("[@,0]", depth);
        let values = doc.matches(',').count() as u64 + 1;
        VALUES_READ.with(|v| v.set(0));
        let valid = schema.is_valid(doc.as_bytes());
        let hashed = VALUES_READ.with(|v| v.get());
        assert!(valid);
        eprintln!(
            "uniqueItems at depth {depth}: {:.1} values hashed per value",
            hashed as f64 / values as f64
        );
        assert!(hashed <= 8 * values, "{hashed} values hashed of {values}");
    }
}

/// A message quotes the value it refuses, cut to a readable length: a value nested
/// `depth` levels that fails at each level is quoted `depth` times, and each quote
/// reads a bounded prefix of its value, not the whole value (the levels below).
#[test]
fn quoting_a_value_that_fails_at_every_level_reads_a_prefix() {
    use crate::json::QUOTED;
    let schema = full(
        r##"{"$defs":{"n":{"properties":{"k":{"$ref":"#/$defs/n"}},"enum":[{"k":1},2]}},"$ref":"#/$defs/n"}"##,
    );
    let doc = nested_around_a_large_array(r#"{"k":@}"#, 120);
    QUOTED.with(|q| q.set(0));
    let errors = schema.validate_json(doc.as_bytes());
    let quoted = QUOTED.with(|q| q.get());
    assert_eq!(errors.len(), 121, "{errors:?}");
    assert!(errors
        .iter()
        .all(|e| e.message.ends_with(r#"is not one of [{"k":1},2]"#)));
    assert!(
        quoted <= 121 * 80 * 64,
        "{quoted} bytes read to quote 121 values of a {} byte document",
        doc.len()
    );
}

/// Every violation has its path, as long as its nesting: a value 120 levels deep
/// that breaks a rule in each of its 100,000 elements has 100,000 of them, the size
/// times the depth in text. A listing cut to `max` stops the walk at the violation
/// past it: the values walked are a few past the `max` violations and the levels
/// above them, not the whole value.
#[test]
fn a_listing_of_at_most_max_violations_stops_the_walk() {
    let schema = full(
        r##"{"$defs":{"n":{"type":["array","string"],"items":{"$ref":"#/$defs/n"}}},"$ref":"#/$defs/n"}"##,
    );
    let mut doc = format!("[{}1]", "1,".repeat(99_999));
    for _ in 0..120 {
        doc = format!("[{doc}]");
    }
    let (errors, walked) = visits(|| schema.validate_json_at_most(doc.as_bytes(), 100));
    assert_eq!(errors.len(), 101);
    assert_eq!(errors[100].keyword, "violations");
    assert!(errors[..100].iter().all(|e| e.keyword == "type"));
    assert!(walked <= 300, "{walked} values walked for 100 violations");
    let (all, walked) = visits(|| schema.validate_json(doc.as_bytes()));
    assert_eq!(all.len(), 100_000);
    assert!(walked > 100_000);
    // The listed ones are the first 100 elements' (sorted as paths, `[10]` before
    // `[2]`), each among every violation.
    let mut first: Vec<String> = (0..100).map(|i| format!("[{i}]")).collect();
    first.sort();
    for (e, index) in errors.iter().zip(&first) {
        assert!(e.path.ends_with(&format!("]{index}")), "{}", e.path.len());
        assert!(all.contains(e));
    }
}

/// Two keywords that refuse the same member with the same message (`additionalProperties`
/// and, through a `$ref`, `unevaluatedProperties`: `unexpected property "a"`) are two
/// violations in the whole list, and so two in a listing: one past its limit says there
/// are more (it took the second for a repeat of the first, and left the line out).
#[test]
fn a_listing_counts_two_keywords_alike_as_the_whole_list_does() {
    let schema = full(
        r##"{"additionalProperties":false,"$ref":"#/$defs/d","$defs":{"d":{"unevaluatedProperties":false}}}"##,
    );
    let doc = br#"{"a":0,"b":0}"#;
    let all = schema.validate_json(doc);
    assert_eq!(all.len(), 4, "{all:?}");
    for max in 1..4 {
        let listed = schema.validate_json_at_most(doc, max);
        assert_eq!(listed.len(), max + 1, "at most {max}: {listed:?}");
        assert_eq!(
            listed[max].keyword, "violations",
            "at most {max}: {listed:?}"
        );
        assert!(listed[..max].iter().all(|e| all.contains(e)));
    }
    assert_eq!(schema.validate_json_at_most(doc, 4), all);
}

/// Identical violations count once in a listing, as in the whole list: a listing of
/// at most one violation of a value that two keywords refuse alike is that one, with
/// no line saying there are more.
#[test]
fn a_listing_counts_identical_violations_once() {
    let schema = full(r#"{"allOf":[{"type":"string"},{"type":"string"}],"minimum":5}"#);
    let all = schema.validate_json(b"1");
    assert_eq!(all.len(), 2, "{all:?}");
    let listed = schema.validate_json_at_most(b"1", 2);
    assert_eq!(listed, all);
    let listed = schema.validate_json_at_most(b"1", 1);
    assert_eq!(listed.len(), 2, "{listed:?}");
    assert_eq!(listed[1].keyword, "violations");
    let one = full(r#"{"allOf":[{"type":"string"},{"type":"string"}]}"#);
    assert_eq!(one.validate_json_at_most(b"1", 1), one.validate_json(b"1"));
    assert_eq!(one.validate_json(b"1").len(), 1);
}

/// Remembering where containers end and their hashes changes no verdict and no
/// error: every schema and instance of the official suite's draft 2020-12 and
/// draft-07 folders (the optional ones included; those whose schema needs a remote
/// document or is refused are passed over), in both walks, with skips and hashes
/// remembering from the first byte and as usual.
#[test]
fn remembered_skips_and_hashes_change_no_verdict() {
    use super::walk::REMEMBER_FROM_THE_START;
    use crate::schema::Draft;
    let Some(suite) = crate::test_data::suite_or_skip(
        "remembered skips against the suite",
        &["tests/draft2020-12", "tests/draft7"],
    ) else {
        return;
    };
    let mut files = Vec::new();
    for (draft, dir) in [
        (Draft::Draft2020_12, "draft2020-12"),
        (Draft::Draft7, "draft7"),
    ] {
        for sub in ["", "optional"] {
            let Ok(entries) = std::fs::read_dir(suite.tests.join(dir).join(sub)) else {
                continue;
            };
            for entry in entries.flatten() {
                let path = entry.path();
                if path.extension().is_some_and(|e| e == "json") {
                    let text = std::fs::read_to_string(&path).unwrap();
                    files.push((draft, path.display().to_string(), text));
                }
            }
        }
    }
    files.sort_by(|a, b| a.1.cmp(&b.1));
    // And containers hashed for `uniqueItems` at one level and not at another, whose
    // remembered hash must equal the one computed afresh.
    let nested_unique = r#"[{"description":"nested uniqueItems","schema":{"uniqueItems":true,"prefixItems":[{"uniqueItems":true},{}],"items":{"uniqueItems":true}},"tests":[
        {"data":[[[1]],[[1]]],"valid":false},{"data":[[[1]],[[1.0]]],"valid":false},
        {"data":[[[1],{"a":[2]}],[[1],{"a":[2]}]],"valid":false},
        {"data":[[[1],{"a":[2]}],[{"a":[2]},[1]]],"valid":true},
        {"data":[[{"a":[1]}],[{"a":[2]}],[{"a":[1]}]],"valid":false}]}]"#;
    files.push((Draft::Draft2020_12, "nested".into(), nested_unique.into()));
    let (mut cases, mut containers) = (0, 0);
    for (draft, path, text) in files {
        let groups: serde_json::Value = serde_json::from_str(&text).unwrap();
        let options = Options::default()
            .with_profile(Profile::Full)
            .with_default_draft(draft);
        for group in groups.as_array().unwrap() {
            let schema_text = group["schema"].to_string();
            let Ok(schema) = Schema::compile_with(schema_text.as_bytes(), &options) else {
                continue;
            };
            for case in group["tests"].as_array().unwrap() {
                let data = case["data"].to_string();
                let usual = (
                    schema.is_valid(data.as_bytes()),
                    schema.validate_json(data.as_bytes()),
                );
                REMEMBER_FROM_THE_START.with(|r| r.set(true));
                let remembered = (
                    schema.is_valid(data.as_bytes()),
                    schema.validate_json(data.as_bytes()),
                );
                REMEMBER_FROM_THE_START.with(|r| r.set(false));
                if let Some(valid) = case["valid"].as_bool().filter(|_| path == "nested") {
                    assert_eq!(usual.0, valid, "{data}");
                }
                assert_eq!(usual, remembered, "{path}: {data} against {schema_text}");
                cases += 1;
                containers += usize::from(data.starts_with(['[', '{']));
            }
        }
    }
    eprintln!("{cases} cases compared, {containers} of them arrays or objects");
    assert!(
        cases > 2000 && containers > 1000,
        "{cases} cases, {containers} containers"
    );
}

/// 100,000 elements cost 100,000 hashes, and equal ones are compared only with the
/// distinct values before them: distinct elements, all equal elements, and equal
/// elements far apart.
#[test]
fn unique_items_is_linear_in_the_elements() {
    let schema = full(r#"{"type":"array","uniqueItems":true}"#);
    let count = |doc: &str| {
        COMPARISONS.with(|c| c.set(0));
        let valid = schema.is_valid(doc.as_bytes());
        (valid, COMPARISONS.with(|c| c.get()))
    };
    let distinct: Vec<String> = (0..100_000).map(|i| i.to_string()).collect();
    let doc = format!("[{}]", distinct.join(","));
    let (valid, n) = count(&doc);
    assert!(valid);
    assert!(n <= 100, "{n} comparisons for distinct elements");
    let equal = format!("[{}]", vec!["{\"a\":[1,2]}"; 100_000].join(","));
    let (valid, n) = count(&equal);
    assert!(!valid);
    assert!(n <= 10, "{n} comparisons for equal elements");
    let errors = schema.validate_json(equal.as_bytes());
    assert_eq!(errors[0].message, "items [0] and [1] are equal");
    let far = format!("[{},0]", distinct.join(","));
    let (valid, _) = count(&far);
    assert!(!valid);
    assert_eq!(
        schema.validate_json(far.as_bytes())[0].message,
        "items [0] and [100000] are equal"
    );
}

thread_local! {
    /// Bytes handed to a pattern matcher or a format check, in tests.
    static SCANNED: Cell<u64> = const { Cell::new(0) };
}

/// Called by the matchers and the format checks (in tests) with the length of each
/// string they are given.
pub(crate) fn count_scan(len: usize) {
    SCANNED.with(|s| s.set(s.get() + len as u64));
}

/// Long strings against `pattern` and `format`: each string is handed to its matcher
/// and to its format check once, whole (no matching again from every position), and
/// every one of those is a single pass by construction — the automata take one step per
/// byte, the fixed-width and shape checks one comparison per byte, the `regex` crate's
/// search is linear in the input (its documented guarantee), the format checks are
/// byte scanners — so the work is linear in the string. The bytes scanned are counted.
#[test]
fn long_strings_cost_one_pass_per_check() {
    let schema = full(
        r#"{"type":"object","properties":{
            "a":{"type":"string","pattern":"^[a-z]+(-[a-z]+)*$"},
            "b":{"type":"string","pattern":"(x+x+)+y"},
            "c":{"type":"string","format":"hostname"},
            "d":{"type":"string","format":"email"},
            "e":{"type":"string","format":"date-time","pattern":"^[0-9]"},
            "f":{"type":"string","format":"uri"}}}"#,
    );
    for n in [1_000usize, 100_000, 1_000_000] {
        let long = "a".repeat(n);
        let x = "x".repeat(n);
        let doc = format!(
            r#"{{"a":"{long}-b","b":"{x}","c":"{long}.com","d":"{long}@example.com","e":"2{long}","f":"http://e/{long}"}}"#
        );
        SCANNED.with(|s| s.set(0));
        let valid = schema.is_valid(doc.as_bytes());
        let scanned = SCANNED.with(|s| s.get());
        // "(x+x+)+y" never matches a run of x (the catastrophic case of a backtracking
        // engine); the long host name and e-mail break their length limits.
        assert!(!valid);
        assert!(
            scanned <= 8 * n as u64 + 200,
            "{scanned} bytes scanned for n = {n}"
        );
        SCANNED.with(|s| s.set(0));
        let errors = schema.validate_json(doc.as_bytes());
        let scanned = SCANNED.with(|s| s.get());
        assert!(
            scanned <= 8 * n as u64 + 200,
            "{scanned} bytes scanned for n = {n}"
        );
        let keywords: Vec<&str> = errors.iter().map(|e| e.keyword).collect();
        assert!(keywords.contains(&"pattern"), "{errors:?}");
        assert!(keywords.contains(&"format"), "{errors:?}");
    }
}

/// `$defs` d0..dL, each an `allOf` of two references to the next, the last an
/// integer: 2^L walks of one value without the memo.
fn reference_chain(levels: usize, root: &str) -> String {
    let mut defs: Vec<String> = (0..levels)
        .map(|i| {
            let next = i + 1;
            format!(r##""d{i}":{{"allOf":[{{"$ref":"#/$defs/d{next}"}},{{"$ref":"#/$defs/d{next}"}}]}}"##)
        })
        .collect();
    defs.push(format!(r#""d{levels}":{{"type":"integer"}}"#));
    format!(r#"{{"$defs":{{{}}},{root}}}"#, defs.join(","))
}

/// Asserts that doubling the input at most doubles the work: `small` and `large` are
/// the work at some size and at twice it.
fn at_most_doubles(what: &str, small: u64, large: u64) {
    assert!(
        large <= 2 * small + 8,
        "{what}: {small} values walked, then {large} for twice the input"
    );
}

/// Two references to the next level, chained: each (node, position) is walked once,
/// so the work grows with the chain's length, not 2^length.
#[test]
fn reference_chains_under_all_of_stay_linear() {
    let walked = |levels: usize| {
        let schema = full(&reference_chain(levels, r##""$ref":"#/$defs/d0""##));
        let (valid, n) = visits(|| schema.is_valid(b"1"));
        assert!(valid);
        let (errors, m) = visits(|| schema.validate_json(b"\"x\""));
        let listed: Vec<(&str, &str, &str)> = errors
            .iter()
            .map(|e| (e.path.as_str(), e.keyword, e.message.as_str()))
            .collect();
        assert_eq!(listed, [("$", "type", "expected integer, got string")]);
        (n, m)
    };
    let (n8, m8) = walked(8);
    let (n16, m16) = walked(16);
    at_most_doubles("is_valid", n8, n16);
    at_most_doubles("validate_json", m8, m16);
    // 250 elements, then 500.
    let schema = full(&reference_chain(
        16,
        r##""type":"array","items":{"$ref":"#/$defs/d0"}"##,
    ));
    let elements = |count: usize, last: &str| {
        let mut items = vec!["1"; count];
        items[count - 1] = last;
        format!("[{}]", items.join(","))
    };
    let (valid, n250) = visits(|| schema.is_valid(elements(250, "1").as_bytes()));
    assert!(valid);
    let (valid, n500) = visits(|| schema.is_valid(elements(500, "1").as_bytes()));
    assert!(valid);
    at_most_doubles("500 elements", n250, n500);
    let errors = schema.validate_json(elements(500, "1.5").as_bytes());
    let listed: Vec<(&str, &str)> = errors
        .iter()
        .map(|e| (e.path.as_str(), e.message.as_str()))
        .collect();
    assert_eq!(listed, [("$[499]", "expected integer, got number")]);
}

/// Draft 2020-12's strict tree: a `$dynamicRef` to the outermost `node`, which is
/// the root with `unevaluatedProperties: false`. Its targets are walked once per
/// position, and what they evaluate is gathered once.
#[test]
fn dynamic_references_stay_linear() {
    let schema = full(
        r##"{"$id":"https://example.com/strict-tree","$dynamicAnchor":"node","$ref":"tree","unevaluatedProperties":false,
        "$defs":{"tree":{"$id":"https://example.com/tree","$dynamicAnchor":"node","type":"object",
          "properties":{"data":true,"children":{"type":"array","items":{"$dynamicRef":"#node"}}}}}}"##,
    );
    let tree = |depth: usize, leaf: &str| {
        let mut s = leaf.to_string();
        for _ in 0..depth {
            s = format!(r#"{{"data":1,"children":[{s}]}}"#);
        }
        s
    };
    let walked = |depth: usize| {
        let doc = tree(depth, r#"{"data":1}"#);
        let (valid, n) = visits(|| schema.is_valid(doc.as_bytes()));
        assert!(valid, "depth {depth}");
        let (errors, m) = visits(|| schema.validate_json(doc.as_bytes()));
        assert!(errors.is_empty(), "{errors:?}");
        (n, m)
    };
    let (n8, m8) = walked(8);
    let (n16, m16) = walked(16);
    at_most_doubles("is_valid", n8, n16);
    at_most_doubles("validate_json", m8, m16);
    // A misspelled member at the bottom: refused there, once; and since a subschema
    // that fails evaluates nothing, each level's "data" and "children" are then
    // unevaluated too, each reported once.
    let doc = tree(2, r#"{"daat":1}"#);
    assert!(!schema.is_valid(doc.as_bytes()));
    let errors = schema.validate_json(doc.as_bytes());
    let listed: Vec<(&str, &str)> = errors
        .iter()
        .map(|e| (e.pointer.as_str(), e.message.as_str()))
        .collect();
    assert_eq!(
        listed,
        [
            ("/children", "unexpected property \"children\""),
            ("/data", "unexpected property \"data\""),
            ("/children/0/children", "unexpected property \"children\""),
            ("/children/0/data", "unexpected property \"data\""),
            (
                "/children/0/children/0/daat",
                "unexpected property \"daat\""
            ),
        ]
    );
}

/// `depth` arrays around `0`.
fn nested_arrays(depth: usize) -> String {
    format!("{}0{}", "[".repeat(depth), "]".repeat(depth))
}

/// `{"a":...}` `depth` deep around `1`.
fn nested_members(depth: usize) -> String {
    format!("{}1{}", r#"{"a":"#.repeat(depth), "}".repeat(depth))
}

/// Tiny schemas that apply one recursive target twice (or three times) to one value:
/// walked once per position, and each violation reported once.
#[test]
fn a_target_applied_twice_at_one_position_is_walked_once() {
    // `if` walks `contains` (which recurses) and `unevaluatedItems` gathers the same
    // again: three walks per level without the memo.
    let schema = full(r##"{"if":{"contains":{"$ref":"#","minimum":0}},"unevaluatedItems":false}"##);
    let walked = |depth: usize| {
        let doc = nested_arrays(depth);
        let (valid, n) = visits(|| schema.is_valid(doc.as_bytes()));
        assert!(valid);
        let (errors, m) = visits(|| schema.validate_json(doc.as_bytes()));
        assert!(errors.is_empty(), "{errors:?}");
        (n, m)
    };
    let (n8, m8) = walked(8);
    let (n16, m16) = walked(16);
    at_most_doubles("is_valid", n8, n16);
    at_most_doubles("validate_json", m8, m16);
    // `-1` fails `minimum`, so `contains` matches nothing in `[-1]`, whose one element
    // is then unevaluated: `[-1]` fails, and so each level up, to the outermost
    // element, reported once.
    let errors = schema.validate_json(b"[[[-1]]]");
    let listed: Vec<(&str, &str)> = errors
        .iter()
        .map(|e| (e.path.as_str(), e.keyword))
        .collect();
    assert_eq!(listed, [("$[0]", "false")]);

    // `properties` and `patternProperties` (or `dependentSchemas`) both apply the root
    // to member "a".
    for (twice, required) in [
        (r##""patternProperties":{"a":{"$ref":"#"}}"##, ""),
        (
            r##""patternProperties":{"a":{"$ref":"#"}}"##,
            r#","required":["b"]"#,
        ),
        (
            r##""dependentSchemas":{"a":{"properties":{"a":{"$ref":"#"}}}}"##,
            r#","required":["b"]"#,
        ),
        (
            r##""patternProperties":{"^a$":{"$dynamicRef":"#"}}"##,
            r#","required":["b"]"#,
        ),
    ] {
        let schema = full(&format!(
            r##"{{"properties":{{"a":{{"$ref":"#"}}}},{twice}{required}}}"##
        ));
        let walked = |depth: usize| {
            let doc = nested_members(depth);
            let (valid, n) = visits(|| schema.is_valid(doc.as_bytes()));
            assert_eq!(valid, required.is_empty(), "{twice}{required}");
            let (errors, m) = visits(|| schema.validate_json(doc.as_bytes()));
            // One "b" missing per object, each once: not 2^(depth+1) - 1 of them.
            let expected = if required.is_empty() { 0 } else { depth };
            assert_eq!(errors.len(), expected, "{twice}{required}");
            (n, m)
        };
        let (n11, m11) = walked(11);
        let (n22, m22) = walked(22);
        at_most_doubles(twice, n11, n22);
        at_most_doubles(twice, m11, m22);
    }
    let schema = full(
        r##"{"properties":{"a":{"$ref":"#"}},"patternProperties":{"a":{"$ref":"#"}},"required":["b"]}"##,
    );
    let errors = schema.validate_json(nested_members(2).as_bytes());
    let listed: Vec<(&str, &str, &str)> = errors
        .iter()
        .map(|e| (e.path.as_str(), e.pointer.as_str(), e.message.as_str()))
        .collect();
    assert_eq!(
        listed,
        [
            ("$", "/b", "missing required property \"b\""),
            ("$.a", "/a/b", "missing required property \"b\""),
        ]
    );
}

/// The same violation from two keywords at one place is reported once; different
/// ones at one place all are.
#[test]
fn identical_violations_are_reported_once() {
    let schema = full(r#"{"allOf":[{"minimum":5},{"minimum":5},{"maximum":0}]}"#);
    let errors = schema.validate_json(b"1");
    let listed: Vec<(&str, &str)> = errors
        .iter()
        .map(|e| (e.keyword, e.message.as_str()))
        .collect();
    assert_eq!(
        listed,
        [
            ("maximum", "1 is greater than the maximum 0"),
            ("minimum", "1 is less than the minimum 5")
        ]
    );
}

/// Runs `f` on a thread with a 256 KiB stack, the smallest a host is assumed to give:
/// an overflow there aborts the test process.
fn on_small_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(f)
        .expect("a thread")
        .join()
        .expect("no panic")
}

/// `{"items":...}` `depth` deep around `{}`.
fn nested_schema(depth: usize) -> String {
    format!("{}{{}}{}", r#"{"items":"#.repeat(depth), "}".repeat(depth))
}

/// The deepest schema each profile takes, at the default limit and at the largest one,
/// compiles on a 256 KiB thread; one level more is refused, not a crash.
#[test]
fn the_deepest_schemas_compile_on_a_small_stack() {
    let results = on_small_stack(|| {
        let mut out = Vec::new();
        for (profile, limit) in [
            (Profile::Core, Options::DEFAULT_MAX_DEPTH),
            (Profile::Full, Options::DEFAULT_MAX_DEPTH),
            (Profile::Core, Options::MAX_DEPTH_LIMIT),
            (Profile::Full, Options::MAX_DEPTH_LIMIT),
        ] {
            let opts = Options::default()
                .with_profile(profile)
                .with_max_depth(limit);
            // The outermost object is one level, each `items` one more.
            let deepest = Schema::compile_with(nested_schema(limit - 1).as_bytes(), &opts);
            let deeper = Schema::compile_with(nested_schema(limit).as_bytes(), &opts);
            let dialect = opts.with_schema_dialect(super::SchemaDialect::OpenApi3_0);
            let openapi = Schema::compile_with(nested_schema(limit - 1).as_bytes(), &dialect);
            out.push((
                profile,
                limit,
                deepest.map(|s| s.is_valid(b"[[[]]]")),
                deeper.map_err(|e| e.to_string()),
                openapi.is_ok(),
            ));
        }
        out
    });
    for (profile, limit, deepest, deeper, openapi) in results {
        assert_eq!(deepest, Ok(true), "{profile:?} at {limit}");
        let refusal = deeper.expect_err("one level too deep");
        assert!(
            refusal.contains(&format!("nesting deeper than {limit} levels")),
            "{refusal}"
        );
        assert!(openapi, "{profile:?} at {limit} as OpenAPI");
    }
}

/// Arguments nested to the deepest limit validate on a 256 KiB thread, against schemas
/// that walk every level (through references, `unevaluatedItems` and the annotations
/// it gathers) and against one that skips them.
#[test]
fn the_deepest_arguments_validate_on_a_small_stack() {
    let verdicts = on_small_stack(|| {
        let mut out = Vec::new();
        let limit = Options::MAX_DEPTH_LIMIT;
        let opts = Options::default()
            .with_profile(Profile::Full)
            .with_max_depth(limit);
        for schema in [
            r##"{"items":{"$ref":"#"}}"##,
            r##"{"anyOf":[{"prefixItems":[{"$ref":"#"}]}],"unevaluatedItems":false}"##,
            r##"{"if":{"contains":{"$ref":"#"}},"unevaluatedItems":false}"##,
            r##"{"$ref":"#/$defs/a","unevaluatedItems":false,"$defs":{"a":{"items":{"$ref":"#"}}}}"##,
            r#"{"type":"array"}"#,
        ] {
            let s = Schema::compile_with(schema.as_bytes(), &opts).expect("compiles");
            let deepest = nested_arrays(limit);
            let deeper = nested_arrays(limit + 1);
            out.push((
                schema,
                s.is_valid(deepest.as_bytes()),
                s.validate_json(deepest.as_bytes()).len(),
                s.validate_json(deeper.as_bytes())[0].keyword,
            ));
        }
        let core = Schema::compile(br#"{"type":"array","items":{"type":"array"}}"#).unwrap();
        let deepest = nested_arrays(Options::DEFAULT_MAX_DEPTH);
        out.push((
            "core",
            core.is_valid(deepest.as_bytes()),
            core.validate_json(deepest.as_bytes()).len(),
            "json",
        ));
        (out, crate::stack::THREADS_STARTED.with(|n| n.get()))
    });
    let (verdicts, threads) = verdicts;
    for (schema, valid, errors, deeper) in verdicts {
        assert!(valid, "{schema}");
        assert_eq!(errors, 0, "{schema}");
        assert_eq!(deeper, "json", "{schema}");
    }
    // The small stack had no room for that nesting: the walk went on on threads of
    // its own.
    assert!(threads > 0);
}

/// Arguments and schemas as deep as tool calls nest compile and validate on the
/// calling thread when it has the room (here a test thread's 2 MiB, whose end the
/// system tells): no thread is started for them. (The recursive schema's levels take
/// some tens of KiB each in a debug build; a release build's take some hundred bytes.)
#[cfg(any(target_os = "linux", target_os = "android"))]
#[test]
fn ordinary_nestings_start_no_thread() {
    use crate::stack::THREADS_STARTED;
    let started = THREADS_STARTED.with(|n| n.get());
    let opts = Options::default().with_profile(Profile::Full);
    let s = Schema::compile_with(nested_schema(24).as_bytes(), &opts).expect("compiles");
    assert!(s.is_valid(nested_arrays(24).as_bytes()));
    let recursive = full(r##"{"anyOf":[{"items":{"$ref":"#"}}],"unevaluatedItems":false}"##);
    assert!(recursive.is_valid(nested_arrays(16).as_bytes()));
    assert_eq!(
        recursive.validate_json(nested_arrays(16).as_bytes()),
        vec![]
    );
    assert_eq!(THREADS_STARTED.with(|n| n.get()), started);
}

/// A walk or a compile whose every level moves to a new thread (as a nesting past the
/// stack's room does) decides, reports and counts exactly what one on a single thread
/// does: the verdicts, the errors in their order, the compile's refusals and the
/// values walked.
#[test]
fn levels_moved_to_new_threads_change_nothing() {
    use crate::stack::MOVE_EVERY_LEVEL;
    let schemas = [
        r##"{"items":{"$ref":"#"}}"##,
        r##"{"type":"object","properties":{"a":{"$ref":"#"},"b":{"type":"integer","maximum":3}},"additionalProperties":false}"##,
        r##"{"anyOf":[{"prefixItems":[{"$ref":"#"}]}],"unevaluatedItems":false}"##,
        r##"{"$ref":"#/$defs/a","unevaluatedItems":false,"$defs":{"a":{"items":{"$ref":"#"}}}}"##,
        r##"{"$defs":{"n":{"type":"object","anyOf":[{"required":["a"]},{"required":["b"]}],"properties":{"kids":{"items":{"$ref":"#/$defs/n"}}}}},"$ref":"#/$defs/n"}"##,
        r##"{"$dynamicAnchor":"t","oneOf":[{"type":"integer"},{"items":{"$dynamicRef":"#t"}}]}"##,
        r#"{"properties":{"a":{"properties":{"a":{"properties":{"a":{"type":"string"}}}}}}}"#,
        r#"{"items":{"items":{"items":{"type":"boolean"}}},"uniqueItems":true}"#,
        r##"{"items":{"$ref":"#/$defs/missing"}}"##,
        r#"{"properties":{"a":{"type":"nope"}}}"#,
    ];
    let instances = [
        nested_arrays(12),
        nested_members(12),
        r#"[[[true]],[[true]],[[1]]]"#.to_string(),
        r#"{"a":{"a":{"a":{"b":4,"c":1}}},"b":"x"}"#.to_string(),
        r#"{"kids":[{"a":1,"kids":[{"c":1},{"b":2,"kids":[{}]}]}]}"#.to_string(),
        r#"[[1,[2,["x"]]],{"a":[]}]"#.to_string(),
        "[[[[[[".to_string(),
    ];
    let run = |moving: bool| {
        MOVE_EVERY_LEVEL.with(|m| m.set(moving));
        let mut seen = Vec::new();
        for schema in schemas {
            let opts = Options::default().with_profile(Profile::Full);
            let compiled = Schema::compile_with(schema.as_bytes(), &opts);
            let compiled = match compiled {
                Ok(s) => s,
                Err(e) => {
                    seen.push(format!("{schema}: {e}"));
                    continue;
                }
            };
            for instance in &instances {
                let (outcome, walked) = visits(|| {
                    (
                        compiled.is_valid(instance.as_bytes()),
                        compiled.validate_json(instance.as_bytes()),
                    )
                });
                seen.push(format!("{schema} {instance}: {outcome:?} after {walked}"));
            }
        }
        MOVE_EVERY_LEVEL.with(|m| m.set(false));
        seen
    };
    let here = run(false);
    let moved = run(true);
    assert_eq!(here.len(), moved.len());
    for (here, moved) in here.iter().zip(&moved) {
        assert_eq!(here, moved);
    }
    assert!(here.iter().any(|s| s.contains("true")) && here.iter().any(|s| s.contains("false")));
}

/// A panic on the thread a level moved to goes on in the caller, as if the level had
/// run there; the counts made there come back with the outcome.
#[test]
fn a_moved_level_returns_its_outcome_counts_and_panics() {
    VISITS.with(|v| v.set(5));
    let out = crate::stack::on_new_thread(|_| {
        VISITS.with(|v| v.set(v.get() + 2));
        7
    });
    assert_eq!((out, VISITS.with(|v| v.get())), (7, 7));
    let panic =
        std::panic::catch_unwind(|| crate::stack::on_new_thread(|_| -> u8 { panic!("deep") }))
            .expect_err("the panic carries on");
    assert_eq!(panic.downcast_ref::<&str>(), Some(&"deep"));
}
