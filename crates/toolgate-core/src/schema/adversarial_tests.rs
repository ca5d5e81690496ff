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

/// A tree of objects under anyOf whose first branch fails only after walking the whole
/// subtree (its `required` is checked at the end): each level tries two branches that
/// both recurse, 2^depth walks without the memo.
#[test]
fn recursion_under_any_of_stays_linear() {
    let schema = full(
        r##"{"$defs":{"node":{"type":"object","anyOf":[
            {"required":["a"],"properties":{"kids":{"type":"array","items":{"$ref":"#/$defs/node"}}}},
            {"required":["b"],"properties":{"kids":{"type":"array","items":{"$ref":"#/$defs/node"}}}}
        ]}},"$ref":"#/$defs/node"}"##,
    );
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
