//! Every case of the official JSON-Schema-Test-Suite's `optional/format/` folders
//! of draft 2020-12 and draft-07, through the predicates alone: each group whose
//! schema is `{"format": NAME}` (with or without `$schema`) and each of its cases,
//! strings through `is_valid_str`, numbers through `is_valid_number` when the
//! format checks numbers, every other value valid.
//!
//! The suite is read from `TOOLGATE_SUITE` or `../shared/testdata/
//! json-schema-test-suite` beside the crate; without it the test says "SKIPPED"
//! loudly, and fails when `TOOLGATE_REQUIRE_SUITE=1`.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use serde_json::Value;

use super::{Format, FormatDraft};
use crate::test_data::{suite_or_skip, Suite};

/// The `regex` cases the syntax check gets wrong, by file and description: none since
/// the pattern module's ECMA-262 parser decides (a case that changes either way is
/// reported).
const REGEX_STAND_IN_MISSES: &[(&str, &str)] = &[];

fn format_dir(suite: &Suite, draft: &str) -> PathBuf {
    suite.tests.join(draft).join("optional/format")
}

#[derive(Default)]
struct Count {
    groups: usize,
    cases: usize,
    passed: usize,
    unknown_groups: usize,
}

/// Runs one file; returns its count, and pushes `(file, description, data)` for each
/// case whose verdict differs.
fn run_file(
    path: &Path,
    label: &str,
    draft: FormatDraft,
    failures: &mut Vec<(String, String, String)>,
    covered: &mut BTreeSet<(&'static str, &'static str)>,
    dir_name: &'static str,
) -> Count {
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let groups: Value =
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut count = Count::default();
    for group in groups
        .as_array()
        .expect("a suite file is an array of groups")
    {
        let schema = group["schema"].as_object().expect("a group has a schema");
        let name = schema.get("format").and_then(Value::as_str);
        let only_format = schema.keys().all(|k| k == "format" || k == "$schema");
        let (Some(name), true) = (name, only_format) else {
            panic!(
                "{label}: group {:?} is not {{\"format\": NAME}}: {schema:?}",
                group["description"]
            );
        };
        let Some(format) = Format::json_schema(name, draft) else {
            // unknown.json: a format no draft defines, which the full profile refuses
            // at compile time; there is no predicate to run.
            count.unknown_groups += 1;
            continue;
        };
        count.groups += 1;
        covered.insert((dir_name, format.name()));
        for case in group["tests"].as_array().expect("a group has tests") {
            let data = &case["data"];
            let want = case["valid"].as_bool().expect("a case says valid");
            let got = match data {
                Value::String(s) => format.is_valid_str(s),
                Value::Number(n) if format.applies_to_numbers() => {
                    format.is_valid_number(n.to_string().as_bytes())
                }
                _ => true,
            };
            count.cases += 1;
            if got == want {
                count.passed += 1;
            } else {
                let description = case["description"].as_str().unwrap_or("").to_string();
                failures.push((label.to_string(), description, data.to_string()));
            }
        }
    }
    count
}

#[test]
fn official_suite_format_cases() {
    let Some(suite) = suite_or_skip("format cases", &["tests/draft2020-12/optional/format"]) else {
        return;
    };
    let drafts = [
        ("draft2020-12", FormatDraft::Draft2020_12),
        ("draft7", FormatDraft::Draft7),
    ];

    let mut failures = Vec::new();
    // Which formats of each draft had a group, so that a partial suite fails.
    let mut covered = BTreeSet::new();
    let mut table: BTreeMap<String, Count> = BTreeMap::new();
    for (dir_name, draft) in drafts {
        let dir = format_dir(&suite, dir_name);
        let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
            .map(|e| e.expect("directory entry").path())
            .filter(|p| p.extension().is_some_and(|x| x == "json"))
            .collect();
        files.sort();
        assert!(!files.is_empty(), "no format files in {}", dir.display());
        for path in files {
            let file = path.file_name().unwrap().to_string_lossy();
            let label = format!("{dir_name}/{file}");
            let count = run_file(&path, &label, draft, &mut failures, &mut covered, dir_name);
            table.insert(label, count);
        }
    }
    // Draft-07's list predates `duration` and `uuid`, so its directory has no file for
    // them; the full profile asserts them there too, with the same predicates, checked
    // on draft 2020-12's cases.
    for name in ["duration", "uuid"] {
        let path = format_dir(&suite, "draft2020-12").join(format!("{name}.json"));
        let label = format!("draft7/{name}.json (draft2020-12's)");
        let count = run_file(
            &path,
            &label,
            FormatDraft::Draft7,
            &mut failures,
            &mut covered,
            "draft7",
        );
        table.insert(label, count);
    }

    let mut out =
        String::from("\nformat cases of the JSON-Schema-Test-Suite, through the predicates:\n");
    out += &format!(
        "{:<44} {:>6} {:>6} {:>7}\n",
        "file", "groups", "cases", "passed"
    );
    let mut total = Count::default();
    for (label, c) in &table {
        let note = if c.unknown_groups > 0 {
            format!(
                "  ({} group of an unknown format: refused at compile)",
                c.unknown_groups
            )
        } else {
            String::new()
        };
        out += &format!(
            "{label:<44} {:>6} {:>6} {:>7}{note}\n",
            c.groups, c.cases, c.passed
        );
        total.groups += c.groups;
        total.cases += c.cases;
        total.passed += c.passed;
        total.unknown_groups += c.unknown_groups;
    }
    out += &format!(
        "{:<44} {:>6} {:>6} {:>7}\n",
        "total", total.groups, total.cases, total.passed
    );
    eprintln!("{out}");

    let (regex_misses, others): (Vec<_>, Vec<_>) = failures.iter().partition(|(file, _, _)| {
        file.ends_with("/regex.json") || file.ends_with("/ecmascript-regex.json")
    });
    for (file, description, data) in &regex_misses {
        eprintln!("regex stand-in: {file}: {description}: {data}");
    }
    assert!(
        others.is_empty(),
        "{} format cases disagree with the suite:\n{}",
        others.len(),
        others
            .iter()
            .map(|(f, d, v)| format!("  {f}: {d}: {v}"))
            .collect::<Vec<_>>()
            .join("\n")
    );
    let mut got: Vec<(&str, &str)> = regex_misses
        .iter()
        .map(|(f, d, _)| (f.as_str(), d.as_str()))
        .collect();
    got.sort();
    let mut want = REGEX_STAND_IN_MISSES.to_vec();
    want.sort();
    assert_eq!(
        got, want,
        "the regex cases the stand-in misses changed (see REGEX_STAND_IN_MISSES)"
    );
    for (dir_name, draft) in drafts {
        let missing: Vec<&str> = Format::names(draft)
            .iter()
            .copied()
            .filter(|name| !covered.contains(&(dir_name, *name)))
            .collect();
        assert!(
            missing.is_empty(),
            "{dir_name}: no suite group for {missing:?}"
        );
    }
}
