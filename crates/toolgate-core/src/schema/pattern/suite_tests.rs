//! The official JSON-Schema-Test-Suite's regular-expression cases, run straight
//! through this module (the keyword-level run is `tests/suite.rs`):
//!
//! - `optional/format/regex.json` and `optional/format/ecmascript-regex.json`: every
//!   string case through [`is_valid_ecma_regex`];
//! - `optional/ecmascript-regex.json`, `optional/non-bmp-regex.json`, `pattern.json`,
//!   `patternProperties.json`: every case of a schema that is `pattern` or
//!   `patternProperties` (with the `type` and `additionalProperties` beside them),
//!   its verdict computed from [`compile_matcher`]'s matches;
//!
//! of draft 2020-12 and draft 7. The suite is read from
//! `../shared/testdata/json-schema-test-suite` next to the crate, or from
//! `TOOLGATE_SUITE`; when it is missing the tests say so loudly and pass, unless
//! `TOOLGATE_REQUIRE_SUITE=1` makes that a failure.

use std::path::{Path, PathBuf};

use serde_json::Value;

use super::{compile_matcher, is_valid_ecma_regex, Matcher};

const DRAFTS: [&str; 2] = ["draft2020-12", "draft7"];

/// The draft's directory of the suite, or `None` (said loudly) when it is missing.
fn draft_dir(draft: &str) -> Option<PathBuf> {
    let needed = format!("tests/{draft}");
    let suite = crate::test_data::suite_or_skip(
        &format!("pattern module suite cases ({draft})"),
        &[&needed],
    )?;
    Some(suite.tests.join(draft))
}

/// The groups of a suite file.
fn groups(dir: &Path, file: &str) -> Vec<Value> {
    let path = dir.join(file);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    match serde_json::from_str(&text) {
        Ok(Value::Array(groups)) => groups,
        other => panic!("{}: not an array of groups: {other:?}", path.display()),
    }
}

/// The schema's keywords other than these.
fn other_keywords<'v>(schema: &'v Value, known: &[&str]) -> Vec<&'v str> {
    schema
        .as_object()
        .map(|m| {
            m.keys()
                .map(String::as_str)
                .filter(|k| !known.contains(k))
                .collect()
        })
        .unwrap_or_default()
}

/// How many `format: "regex"` string cases a copy of the suite holds per draft, and
/// whether its draft-07 has `optional/format/ecmascript-regex.json`: the copy's own
/// numbers, so that every case it holds must be checked and none may go missing.
struct RegexCases {
    draft2020_12: usize,
    draft7: usize,
    draft7_ecmascript_file: bool,
}

/// The official suite (a checkout of 2026-08 or later): 14 cases in each draft.
const OFFICIAL: RegexCases = RegexCases {
    draft2020_12: 14,
    draft7: 14,
    draft7_ecmascript_file: true,
};

/// The copy the Python package jsonschema 4.26.0 vendors (what scripts/fetch-suite.sh
/// fetches when no checkout is at hand): older, so fewer cases, and no
/// `ecmascript-regex.json` under draft7's formats.
const JSONSCHEMA_4_26_0: RegexCases = RegexCases {
    draft2020_12: 3,
    draft7: 2,
    draft7_ecmascript_file: false,
};

/// The numbers of the copy at `root`: by the `SOURCE.txt` scripts/fetch-suite.sh writes
/// beside the copy it unpacked; any other copy is held to the official suite's.
fn regex_cases_of(root: &Path) -> &'static RegexCases {
    let source = std::fs::read_to_string(root.join("SOURCE.txt")).unwrap_or_default();
    if source.starts_with("PyPI:jsonschema-4.26.0/json ") {
        &JSONSCHEMA_4_26_0
    } else {
        &OFFICIAL
    }
}

#[test]
fn format_regex_cases_of_the_suite() {
    for draft in DRAFTS {
        let Some(dir) = draft_dir(draft) else {
            continue;
        };
        let root = dir.parent().and_then(Path::parent).unwrap_or(&dir);
        let expected = regex_cases_of(root);
        let mut checked = 0;
        for file in [
            "optional/format/regex.json",
            "optional/format/ecmascript-regex.json",
        ] {
            if draft == "draft7"
                && file.ends_with("ecmascript-regex.json")
                && !expected.draft7_ecmascript_file
            {
                assert!(
                    !dir.join(file).exists(),
                    "{draft}/{file} is in a copy said to lack it: {}",
                    root.display()
                );
                eprintln!("{draft}/{file}: not in this copy of the suite");
                continue;
            }
            for group in groups(&dir, file) {
                let schema = &group["schema"];
                assert_eq!(schema["format"], "regex", "{draft}/{file}");
                for case in group["tests"].as_array().expect("tests") {
                    // Other values are the keyword's business (a format ignores them).
                    let Some(src) = case["data"].as_str() else {
                        continue;
                    };
                    let want = case["valid"].as_bool().expect("valid");
                    assert_eq!(
                        is_valid_ecma_regex(src),
                        want,
                        "{draft}/{file}: {} ({src:?})",
                        case["description"]
                    );
                    checked += 1;
                }
            }
        }
        let floor = match draft {
            "draft7" => expected.draft7,
            _ => expected.draft2020_12,
        };
        eprintln!("{draft}: {checked} format \"regex\" cases (this copy holds {floor} at least)");
        assert!(
            checked >= floor,
            "{draft}: only {checked} cases, the copy holds {floor}"
        );
    }
}

/// A compiled pattern of the suite.
fn matcher(p: &str) -> Matcher {
    compile_matcher(p).unwrap_or_else(|e| panic!("{p:?} is refused: {e}"))
}

/// Whether `value` is valid against one of the suite's `patternProperties`
/// subschemas: `true`, `false`, `{"type": T}` or `{"maximum": N}`.
fn holds(schema: &Value, value: &Value) -> bool {
    if let Some(b) = schema.as_bool() {
        return b;
    }
    let rules = schema.as_object().expect("a subschema");
    rules.iter().all(|(keyword, rule)| match keyword.as_str() {
        "type" => match rule.as_str().expect("a type name") {
            "integer" => value
                .as_f64()
                .is_some_and(|n| value.is_i64() || value.is_u64() || n.fract() == 0.0),
            "number" => value.is_number(),
            "string" => value.is_string(),
            "boolean" => value.is_boolean(),
            "null" => value.is_null(),
            other => panic!("type {other} in a test subschema"),
        },
        "maximum" => value
            .as_f64()
            .is_none_or(|n| n <= rule.as_f64().expect("a number")),
        other => panic!("keyword {other} in a test subschema"),
    })
}

#[test]
fn pattern_cases_of_the_suite() {
    for draft in DRAFTS {
        let Some(dir) = draft_dir(draft) else {
            continue;
        };
        let (mut strings, mut objects) = (0, 0);
        for file in [
            "optional/ecmascript-regex.json",
            "optional/non-bmp-regex.json",
            "pattern.json",
            "patternProperties.json",
        ] {
            for group in groups(&dir, file) {
                let schema = &group["schema"];
                let place = format!("{draft}/{file}: {}", group["description"]);
                let rest = other_keywords(
                    schema,
                    &[
                        "$schema",
                        "type",
                        "pattern",
                        "patternProperties",
                        "additionalProperties",
                    ],
                );
                assert!(rest.is_empty(), "{place}: also {rest:?}");
                let cases = group["tests"].as_array().expect("tests");
                if let Some(p) = schema["pattern"].as_str() {
                    let m = matcher(p);
                    for case in cases {
                        let Some(s) = case["data"].as_str() else {
                            continue;
                        };
                        let want = case["valid"].as_bool().expect("valid");
                        assert_eq!(m.is_match(s), want, "{place}: {p:?} on {s:?}");
                        strings += 1;
                    }
                }
                if let Some(props) = schema["patternProperties"].as_object() {
                    let compiled: Vec<(Matcher, &Value)> =
                        props.iter().map(|(p, sub)| (matcher(p), sub)).collect();
                    let closed = schema["additionalProperties"] == Value::Bool(false);
                    for case in cases {
                        let Some(data) = case["data"].as_object() else {
                            continue;
                        };
                        let verdict = data.iter().all(|(name, value)| {
                            let mut matched = false;
                            let all = compiled.iter().all(|(m, sub)| {
                                let hit = m.is_match(name);
                                matched |= hit;
                                !hit || holds(sub, value)
                            });
                            all && (matched || !closed)
                        });
                        let want = case["valid"].as_bool().expect("valid");
                        assert_eq!(verdict, want, "{place}: {}", case["data"]);
                        objects += 1;
                    }
                }
            }
        }
        eprintln!("{draft}: {strings} pattern cases, {objects} patternProperties cases");
        assert!(
            strings >= 60 && objects >= 30,
            "{draft}: {strings} and {objects} cases"
        );
    }
}
