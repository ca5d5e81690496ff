//! Conformance on the official JSON-Schema-Test-Suite, draft 2020-12 (SPEC §5).
//!
//! Every `.json` file under `tests/draft2020-12/` (optional/ and optional/format/
//! included) is read. For each group:
//!
//! - a schema that uses only keywords of the core profile must compile, and every case
//!   must get the expected verdict through both `is_valid` and `validate_json`; an
//!   invalid verdict must come with at least one well-formed error;
//! - a schema that needs any other keyword, or that SPEC §1 refuses outright (a root
//!   that is not an object, an empty `enum`, a negative or fractional length bound, an
//!   unknown type name), must be refused by `Schema::compile`: the profile never
//!   promises more than it checks.
//!
//! The suite lives in `../shared/testdata/json-schema-test-suite/` next to the crate;
//! `TOOLGATE_SUITE` overrides the location (`scripts/test-all.sh` sets it to what
//! `scripts/fetch-suite.sh` finds or fetches). When it is missing the test is skipped
//! loudly, unless `TOOLGATE_REQUIRE_SUITE=1` (set by `scripts/test-all.sh`) makes that a
//! failure.
//!
//! The per-file table is written straight to stderr (so it shows in `cargo test`
//! output with or without `-- --nocapture`) and, as markdown, to
//! `target/suite-table.md` for the README.

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::io::Write as _;
use std::panic::{self, AssertUnwindSafe};
use std::path::{Path, PathBuf};

use serde_json::Value;
use toolgate::{Schema, ValidationError};

/// Keywords the core profile validates (SPEC §1).
const CORE_KEYWORDS: &[&str] = &[
    "type",
    "enum",
    "const",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "minItems",
    "maxItems",
    "minLength",
    "maxLength",
    "pattern",
    "minimum",
    "maximum",
    "anyOf",
];

/// Annotations the core profile accepts and ignores.
const ANNOTATIONS: &[&str] = &[
    "title",
    "description",
    "default",
    "examples",
    "$schema",
    "$comment",
];

/// Writes to the process's stderr directly: libtest captures `print!`/`eprint!`, not
/// this, so the table shows in every `cargo test` run.
macro_rules! say {
    ($($arg:tt)*) => {{
        let mut err = std::io::stderr().lock();
        let _ = writeln!(err, $($arg)*);
    }};
}

/// Where the suite is: `TOOLGATE_SUITE`, else `../shared/testdata/json-schema-test-suite`
/// relative to the crate root. Returns (root as given, draft2020-12 directory).
fn suite_location() -> (PathBuf, PathBuf) {
    let root = match std::env::var_os("TOOLGATE_SUITE") {
        Some(p) if !p.is_empty() => PathBuf::from(p),
        _ => {
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/testdata/json-schema-test-suite")
        }
    };
    // Accept the suite root, its tests/ directory, or the draft directory itself.
    let candidates = [
        root.join("tests").join("draft2020-12"),
        root.join("draft2020-12"),
        root.clone(),
    ];
    for c in &candidates {
        if c.file_name().map(|n| n == "draft2020-12").unwrap_or(false) && c.is_dir() {
            return (root, c.clone());
        }
    }
    (root.clone(), candidates[0].clone())
}

fn collect_json_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|e| e.expect("directory entry").path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            collect_json_files(&p, out);
        } else if p.extension().map(|x| x == "json").unwrap_or(false) {
            out.push(p);
        }
    }
}

/// RFC 6901 escaping of one reference token.
fn escape_token(s: &str) -> String {
    s.replace('~', "~0").replace('/', "~1")
}

/// Records every keyword outside the core profile found at a schema position, and every
/// core keyword whose value SPEC §1 refuses, as (label, pointer into the schema). Subschema positions: each member of
/// `properties`, `additionalProperties`, `items`, each element of `anyOf`. The values
/// of `enum`, `const`, `default` and `examples` are data, never walked.
fn foreign_keywords(schema: &Value, pointer: &str, out: &mut Vec<(String, String)>) {
    let Value::Object(map) = schema else {
        // Booleans are valid subschemas; anything else is the compiler's business.
        return;
    };
    for (key, value) in map {
        let here = format!("{pointer}/{}", escape_token(key));
        let k = key.as_str();
        if ANNOTATIONS.contains(&k) {
            continue;
        }
        if !CORE_KEYWORDS.contains(&k) {
            out.push((key.clone(), here));
            continue;
        }
        if let Some(label) = spec_refused_value(k, value) {
            out.push((label, here.clone()));
        }
        match k {
            "properties" => {
                if let Value::Object(props) = value {
                    for (name, sub) in props {
                        foreign_keywords(sub, &format!("{here}/{}", escape_token(name)), out);
                    }
                }
            }
            "additionalProperties" | "items" => foreign_keywords(value, &here, out),
            "anyOf" => {
                if let Value::Array(subs) = value {
                    for (i, sub) in subs.iter().enumerate() {
                        foreign_keywords(sub, &format!("{here}/{i}"), out);
                    }
                }
            }
            _ => {}
        }
    }
}

/// A core keyword whose value SPEC §1 refuses at compile ("an empty `enum`", "a
/// negative or fractional length bound", "an unknown type name"), as a label for the
/// table, e.g. `(empty enum)`.
fn spec_refused_value(keyword: &str, value: &Value) -> Option<String> {
    const TYPES: &[&str] = &[
        "null", "boolean", "object", "array", "number", "integer", "string",
    ];
    match keyword {
        "enum" if value.as_array().map(Vec::is_empty).unwrap_or(false) => {
            Some("(empty enum)".to_string())
        }
        "minLength" | "maxLength" | "minItems" | "maxItems" => match value {
            Value::Number(n) => {
                let negative = n.to_string().starts_with('-') && n.as_f64() != Some(0.0);
                let fractional = n.as_f64().map(|f| f.fract() != 0.0).unwrap_or(false);
                (negative || fractional).then(|| format!("({keyword} {n})"))
            }
            _ => None,
        },
        "type" => {
            let unknown = |v: &Value| v.as_str().map(|t| !TYPES.contains(&t)).unwrap_or(false);
            let bad = match value {
                Value::Array(list) => list.iter().any(unknown),
                other => unknown(other),
            };
            bad.then(|| format!("(type {value})"))
        }
        _ => None,
    }
}

/// Why a group is expected to be refused at compile, or `None` for a core-only group.
fn refusal_reason(schema: &Value) -> Option<(String, BTreeSet<String>)> {
    if !schema.is_object() {
        // SPEC §1: "a non-object schema" is refused; booleans only as subschemas.
        let mut k = BTreeSet::new();
        k.insert("(boolean root)".to_string());
        return Some((format!("root schema is {schema}, not an object"), k));
    }
    let mut found = Vec::new();
    foreign_keywords(schema, "", &mut found);
    if found.is_empty() {
        return None;
    }
    let kws: BTreeSet<String> = found.iter().map(|(k, _)| k.clone()).collect();
    let at: Vec<String> = found
        .iter()
        .take(4)
        .map(|(k, p)| format!("{k} at #{p}"))
        .collect();
    Some((format!("needs {}", at.join(", ")), kws))
}

fn panic_text(payload: Box<dyn std::any::Any + Send>) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "(non-string panic payload)".to_string()
    }
}

/// Runs `f`, turning a panic into an `Err` with its message, so one bad case never
/// hides the others.
fn guarded<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    panic::catch_unwind(AssertUnwindSafe(f)).map_err(panic_text)
}

fn shorten(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        s.to_string()
    } else {
        let mut t: String = s.chars().take(max).collect();
        t.push('…');
        t
    }
}

/// Checks the shape of each error: a `$` path and a pointer that is "" or starts
/// with "/".
fn error_shape_problems(errors: &[ValidationError]) -> Vec<String> {
    let mut out = Vec::new();
    for e in errors {
        if e.path.is_empty() || !e.path.starts_with('$') {
            out.push(format!(
                "error path {:?} does not start with `$` ({e:?})",
                e.path
            ));
        }
        if !(e.pointer.is_empty() || e.pointer.starts_with('/')) {
            out.push(format!(
                "error pointer {:?} is neither \"\" nor starts with \"/\" ({e:?})",
                e.pointer
            ));
        }
    }
    out
}

#[derive(Default)]
struct FileStats {
    file: String,
    groups: usize,
    core_groups: usize,
    core_groups_passed: usize,
    cases: usize,
    cases_passed: usize,
    refuse_expected: usize,
    refused_ok: usize,
    needs: BTreeSet<String>,
}

#[derive(Default)]
struct Totals {
    files: usize,
    groups: usize,
    core_groups: usize,
    core_groups_passed: usize,
    cases: usize,
    cases_passed: usize,
    refuse_expected: usize,
    refused_ok: usize,
}

fn run_file(path: &Path, display: &str, failures: &mut Vec<String>) -> FileStats {
    let mut st = FileStats {
        file: display.to_string(),
        ..FileStats::default()
    };
    let text = match std::fs::read(path) {
        Ok(t) => t,
        Err(e) => {
            failures.push(format!("{display}: cannot read: {e}"));
            return st;
        }
    };
    let groups: Vec<Value> = match serde_json::from_slice(&text) {
        Ok(Value::Array(g)) => g,
        Ok(_) => {
            failures.push(format!("{display}: not an array of groups"));
            return st;
        }
        Err(e) => {
            failures.push(format!("{display}: not JSON: {e}"));
            return st;
        }
    };
    for (gi, group) in groups.iter().enumerate() {
        st.groups += 1;
        let gdesc = group
            .get("description")
            .and_then(Value::as_str)
            .unwrap_or("(no description)");
        let gname = format!("{display} / group {gi} \"{gdesc}\"");
        let Some(schema) = group.get("schema") else {
            failures.push(format!("{gname}: no schema"));
            continue;
        };
        let schema_bytes = serde_json::to_vec(schema).expect("serialize schema");
        let compiled = guarded(|| Schema::compile(&schema_bytes));
        let tests: &[Value] = group
            .get("tests")
            .and_then(Value::as_array)
            .map(Vec::as_slice)
            .unwrap_or(&[]);

        if let Some((why, kws)) = refusal_reason(schema) {
            st.refuse_expected += 1;
            st.needs.extend(kws);
            match compiled {
                Err(p) => failures.push(format!(
                    "{gname}: compile panicked: {p} (schema {})",
                    shorten(&String::from_utf8_lossy(&schema_bytes), 200)
                )),
                Ok(Ok(_)) => failures.push(format!(
                    "{gname}: compiled, but the core profile must refuse it ({why}); schema {}",
                    shorten(&String::from_utf8_lossy(&schema_bytes), 200)
                )),
                Ok(Err(_)) => st.refused_ok += 1,
            }
            continue;
        }

        st.core_groups += 1;
        st.cases += tests.len();
        let schema_c = match compiled {
            Ok(Ok(s)) => s,
            Ok(Err(e)) => {
                failures.push(format!(
                    "{gname}: core-only schema refused at compile: {e} [keyword {:?}] (schema {}); its {} case(s) count as failed",
                    e.keyword,
                    shorten(&String::from_utf8_lossy(&schema_bytes), 200),
                    tests.len()
                ));
                continue;
            }
            Err(p) => {
                failures.push(format!(
                    "{gname}: compile panicked: {p}; its {} case(s) count as failed",
                    tests.len()
                ));
                continue;
            }
        };
        let mut group_ok = true;
        for (ci, case) in tests.iter().enumerate() {
            let cdesc = case
                .get("description")
                .and_then(Value::as_str)
                .unwrap_or("(no description)");
            let cname = format!("{gname} / case {ci} \"{cdesc}\"");
            let (Some(data), Some(expected)) =
                (case.get("data"), case.get("valid").and_then(Value::as_bool))
            else {
                failures.push(format!("{cname}: malformed test case"));
                group_ok = false;
                continue;
            };
            let data_bytes = serde_json::to_vec(data).expect("serialize data");
            let shown = shorten(&String::from_utf8_lossy(&data_bytes), 120);
            let mut problems = Vec::new();

            match guarded(|| schema_c.is_valid(&data_bytes)) {
                Ok(v) if v == expected => {}
                Ok(v) => problems.push(format!("is_valid gave {v}, expected {expected}")),
                Err(p) => problems.push(format!("is_valid panicked: {p}")),
            }
            match guarded(|| schema_c.validate_json(&data_bytes)) {
                Ok(errors) => {
                    if errors.is_empty() != expected {
                        if expected {
                            let listed: Vec<String> = errors
                                .iter()
                                .take(3)
                                .map(|e| format!("{} [{}]", e, e.keyword))
                                .collect();
                            problems.push(format!(
                                "validate_json gave {} error(s), expected none: {}",
                                errors.len(),
                                listed.join("; ")
                            ));
                        } else {
                            problems.push(
                                "validate_json gave no error, expected at least one".to_string(),
                            );
                        }
                    }
                    problems.extend(error_shape_problems(&errors));
                }
                Err(p) => problems.push(format!("validate_json panicked: {p}")),
            }

            if problems.is_empty() {
                st.cases_passed += 1;
            } else {
                group_ok = false;
                failures.push(format!(
                    "{cname}: data {shown}: {}  (schema {})",
                    problems.join("; "),
                    shorten(&String::from_utf8_lossy(&schema_bytes), 160)
                ));
            }
        }
        if group_ok {
            st.core_groups_passed += 1;
        }
    }
    st
}

fn needs_column(needs: &BTreeSet<String>) -> String {
    const MAX: usize = 5;
    let mut v: Vec<&str> = needs.iter().map(String::as_str).collect();
    let extra = v.len().saturating_sub(MAX);
    v.truncate(MAX);
    let mut s = v.join(", ");
    if extra > 0 {
        let _ = write!(s, " +{extra}");
    }
    s
}

fn ratio(a: usize, b: usize) -> String {
    format!("{a}/{b}")
}

fn render_text(stats: &[FileStats], t: &Totals) -> String {
    let w = stats.iter().map(|s| s.file.len()).max().unwrap_or(4).max(5);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{:<w$}  {:>6}  {:>10}  {:>9}  {:>9}  needs",
        "file", "groups", "core grp", "cases", "refused"
    );
    for s in stats {
        let _ = writeln!(
            out,
            "{:<w$}  {:>6}  {:>10}  {:>9}  {:>9}  {}",
            s.file,
            s.groups,
            ratio(s.core_groups_passed, s.core_groups),
            ratio(s.cases_passed, s.cases),
            ratio(s.refused_ok, s.refuse_expected),
            needs_column(&s.needs)
        );
    }
    let _ = writeln!(
        out,
        "{:<w$}  {:>6}  {:>10}  {:>9}  {:>9}",
        format!("TOTAL ({} files)", t.files),
        t.groups,
        ratio(t.core_groups_passed, t.core_groups),
        ratio(t.cases_passed, t.cases),
        ratio(t.refused_ok, t.refuse_expected),
    );
    out
}

fn render_markdown(stats: &[FileStats], t: &Totals, source: &str) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "<!-- generated by `cargo test --test suite` (tests/suite.rs); do not edit by hand -->"
    );
    let _ = writeln!(out, "JSON-Schema-Test-Suite, draft 2020-12{source}.\n");
    let _ = writeln!(
        out,
        "*Core groups* use only core-profile keywords: each must compile and pass every case \
         through both `is_valid` and `validate_json`. *Refused* groups need a keyword outside \
         the core profile, or hold what SPEC §1 refuses (a boolean root, an empty `enum`), \
         and must be refused at compile.\n"
    );
    let _ = writeln!(
        out,
        "| file | groups | core groups passed | cases passed | refused groups | refused for |"
    );
    let _ = writeln!(out, "|---|---:|---:|---:|---:|---|");
    for s in stats {
        let needs = needs_column(&s.needs).replace('|', "\\|");
        let _ = writeln!(
            out,
            "| `{}` | {} | {} | {} | {} | {} |",
            s.file,
            s.groups,
            ratio(s.core_groups_passed, s.core_groups),
            ratio(s.cases_passed, s.cases),
            ratio(s.refused_ok, s.refuse_expected),
            needs
        );
    }
    let _ = writeln!(
        out,
        "| **total ({} files)** | **{}** | **{}** | **{}** | **{}** | |",
        t.files,
        t.groups,
        ratio(t.core_groups_passed, t.core_groups),
        ratio(t.cases_passed, t.cases),
        ratio(t.refused_ok, t.refuse_expected),
    );
    out
}

fn target_dir() -> PathBuf {
    match std::env::var_os("CARGO_TARGET_DIR") {
        Some(d) if !d.is_empty() => {
            let d = PathBuf::from(d);
            if d.is_absolute() {
                d
            } else {
                Path::new(env!("CARGO_MANIFEST_DIR")).join(d)
            }
        }
        _ => Path::new(env!("CARGO_MANIFEST_DIR")).join("target"),
    }
}

/// The suite's own revision line, when the copy carries one (SOURCE.txt).
fn source_note(root: &Path) -> String {
    std::fs::read_to_string(root.join("SOURCE.txt"))
        .ok()
        .and_then(|s| s.lines().next().map(str::to_owned))
        .and_then(|line| {
            let mut it = line.split_whitespace();
            let repo = it.next()?;
            let commit = it.next()?;
            Some(format!(
                " (`{repo}` at `{}`)",
                &commit[..commit.len().min(12)]
            ))
        })
        .unwrap_or_default()
}

#[test]
fn json_schema_test_suite_draft2020_12() {
    let (root, dir) = suite_location();
    if !dir.is_dir() {
        let require = std::env::var("TOOLGATE_REQUIRE_SUITE")
            .map(|v| v == "1")
            .unwrap_or(false);
        if require {
            panic!(
                "JSON-Schema-Test-Suite not found at {} (TOOLGATE_REQUIRE_SUITE=1 makes this a failure; set TOOLGATE_SUITE to its location, or run scripts/fetch-suite.sh, which prints it)",
                dir.display()
            );
        }
        let banner = "*".repeat(78);
        say!(
            "\n{banner}\n*** SKIPPED: JSON-Schema-Test-Suite not found at {}\n*** (set TOOLGATE_SUITE=/path/to/JSON-Schema-Test-Suite, or TOOLGATE_SUITE=$(scripts/fetch-suite.sh);\n*** scripts/test-all.sh does that and sets TOOLGATE_REQUIRE_SUITE=1)\n{banner}\n",
            dir.display()
        );
        return;
    }

    let mut files = Vec::new();
    collect_json_files(&dir, &mut files);
    assert!(
        !files.is_empty(),
        "no .json files under {} — is the suite checkout complete?",
        dir.display()
    );

    // The core is exercised under catch_unwind; keep the default hook from printing a
    // backtrace banner per panicking case (each panic is reported below instead).
    let previous_hook = panic::take_hook();
    panic::set_hook(Box::new(|_| {}));

    let mut failures = Vec::new();
    let mut stats = Vec::new();
    let mut totals = Totals::default();
    for path in &files {
        let display = path
            .strip_prefix(&dir)
            .unwrap_or(path)
            .to_string_lossy()
            .replace('\\', "/");
        let st = run_file(path, &display, &mut failures);
        totals.files += 1;
        totals.groups += st.groups;
        totals.core_groups += st.core_groups;
        totals.core_groups_passed += st.core_groups_passed;
        totals.cases += st.cases;
        totals.cases_passed += st.cases_passed;
        totals.refuse_expected += st.refuse_expected;
        totals.refused_ok += st.refused_ok;
        stats.push(st);
    }
    panic::set_hook(previous_hook);

    let text = render_text(&stats, &totals);
    say!(
        "\nJSON-Schema-Test-Suite draft2020-12 at {}\n{text}",
        dir.display()
    );
    say!(
        "suite totals: {} files, {} groups; core groups {}/{} passed; cases {}/{} passed; refused groups {}/{} refused as required",
        totals.files,
        totals.groups,
        totals.core_groups_passed,
        totals.core_groups,
        totals.cases_passed,
        totals.cases,
        totals.refused_ok,
        totals.refuse_expected
    );

    let md = render_markdown(&stats, &totals, &source_note(&root));
    let out_dir = target_dir();
    let md_path = out_dir.join("suite-table.md");
    match std::fs::create_dir_all(&out_dir).and_then(|_| std::fs::write(&md_path, &md)) {
        Ok(()) => say!("markdown table written to {}", md_path.display()),
        Err(e) => say!("could not write {}: {e}", md_path.display()),
    }

    if !failures.is_empty() {
        let mut msg = format!(
            "{} suite failure(s) (core groups {}/{}, cases {}/{}, refused {}/{}):\n",
            failures.len(),
            totals.core_groups_passed,
            totals.core_groups,
            totals.cases_passed,
            totals.cases,
            totals.refused_ok,
            totals.refuse_expected
        );
        for f in &failures {
            let _ = writeln!(msg, "  - {f}");
        }
        panic!("{msg}");
    }
}
