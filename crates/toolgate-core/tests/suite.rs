//! Conformance on the official JSON-Schema-Test-Suite, in both profiles.
//!
//! **Core profile**, `tests/draft2020-12/` (optional/ and optional/format/ included):
//! a group whose schema uses only core keywords must compile and every case must get
//! the expected verdict through both `is_valid` and `validate_json`; a group that needs
//! any other keyword, or holds a value the core refuses outright (a boolean root, an
//! empty `enum`, a negative or fractional length bound, an unknown type name), must be
//! refused at compile: the profile never promises more than it checks.
//!
//! **Full profile**, `tests/draft2020-12/` and `tests/draft7/` (required, `optional/`,
//! `optional/format/`), with every file of `remotes/` registered as a resource
//! (`remotes/X` as `http://localhost:1234/X`) and the folder's draft as the default
//! draft: every case of every group must pass through both `is_valid` and
//! `validate_json`, except the groups this file expects to be refused, each for a
//! reason it can name:
//!
//! - a keyword that no vocabulary of the draft defines (names starting with `x-`,
//!   `discriminator` and `definitions` excepted, as the full profile keeps them);
//! - a documented rule: `$schema` (of the schema or of a resource it references) names
//!   draft 2020-12 or draft-07 and nothing else; an unknown `format` name is refused.
//!
//! A refused group passes only when the compile error names that keyword, format or
//! URI; a group expected to compile that does not, fails with its schema and error.
//! One more documented rule changes a verdict instead of refusing a group: the full
//! profile asserts `format`, so draft 2020-12's "only an annotation by default" cases
//! must be invalid, with a `format` error ([`CASE_RULES`]; the tables count them "by
//! rule").
//!
//! Every invalid verdict from `validate_json` must come with at least one well-formed
//! error (a path starting with `$`, a pointer empty or starting with `/`, a keyword
//! and a message that are not empty), sorted by path then message.
//!
//! The suite lives in `../shared/testdata/json-schema-test-suite/` next to the crate;
//! `TOOLGATE_SUITE` overrides the location (`scripts/test-all.sh` sets it to what
//! `scripts/fetch-suite.sh` finds or fetches). When it is missing the tests are skipped
//! loudly, unless `TOOLGATE_REQUIRE_SUITE=1` (set by `scripts/test-all.sh`) makes that a
//! failure. `TOOLGATE_SUITE_FILTER=text` runs only the files whose path contains
//! `text` (and compares no table).
//!
//! Each test prints its tables straight to stderr (so they show in `cargo test` output
//! with or without `-- --nocapture`) and compares its markdown tables (per folder, per
//! file) with its generated block of `docs/suite.md`, failing when they differ;
//! `TOOLGATE_BLESS=1` rewrites the block instead. A block records the contents digest
//! of the suite copy it was made from; a run on another copy says so and leaves the
//! block alone.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::io::Write as _;
use std::panic::{self, AssertUnwindSafe};
use std::path::{Path, PathBuf};

use serde_json::Value;
use toolgate_core::{CompileError, Draft, Options, Profile, Schema, ValidationError};

#[path = "support/generated_doc.rs"]
mod generated_doc;
#[path = "support/test_data.rs"]
mod test_data;

/// Writes to the process's stderr directly: libtest captures `print!`/`eprint!`, not
/// this, so the tables show in every `cargo test` run.
macro_rules! say {
    ($($arg:tt)*) => {{
        let mut err = std::io::stderr().lock();
        let _ = writeln!(err, $($arg)*);
    }};
}

// ---------------------------------------------------------------------------------
// What each profile and draft defines
// ---------------------------------------------------------------------------------

/// Keywords the core profile validates.
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
const CORE_ANNOTATIONS: &[&str] = &[
    "title",
    "description",
    "default",
    "examples",
    "$schema",
    "$comment",
];

/// Every keyword of draft 2020-12's vocabularies (core, applicator, unevaluated,
/// validation, meta-data, format, content).
const KEYWORDS_2020_12: &[&str] = &[
    "$schema",
    "$id",
    "$ref",
    "$anchor",
    "$dynamicRef",
    "$dynamicAnchor",
    "$vocabulary",
    "$comment",
    "$defs",
    "prefixItems",
    "items",
    "contains",
    "additionalProperties",
    "properties",
    "patternProperties",
    "dependentSchemas",
    "propertyNames",
    "if",
    "then",
    "else",
    "allOf",
    "anyOf",
    "oneOf",
    "not",
    "unevaluatedItems",
    "unevaluatedProperties",
    "type",
    "const",
    "enum",
    "multipleOf",
    "maximum",
    "exclusiveMaximum",
    "minimum",
    "exclusiveMinimum",
    "maxLength",
    "minLength",
    "pattern",
    "maxItems",
    "minItems",
    "uniqueItems",
    "maxContains",
    "minContains",
    "maxProperties",
    "minProperties",
    "required",
    "dependentRequired",
    "title",
    "description",
    "default",
    "deprecated",
    "readOnly",
    "writeOnly",
    "examples",
    "format",
    "contentEncoding",
    "contentMediaType",
    "contentSchema",
    // Not a 2020-12 vocabulary keyword (the draft split it into dependentRequired and
    // dependentSchemas), but toolgate reads it with its draft-07 meaning in every
    // draft, as older schemas still write it.
    "dependencies",
];

/// Every keyword of draft-07 (core and validation meta-schemas).
const KEYWORDS_DRAFT7: &[&str] = &[
    "$schema",
    "$id",
    "$ref",
    "$comment",
    "definitions",
    "title",
    "description",
    "default",
    "readOnly",
    "writeOnly",
    "examples",
    "multipleOf",
    "maximum",
    "exclusiveMaximum",
    "minimum",
    "exclusiveMinimum",
    "maxLength",
    "minLength",
    "pattern",
    "additionalItems",
    "items",
    "maxItems",
    "minItems",
    "uniqueItems",
    "contains",
    "maxProperties",
    "minProperties",
    "required",
    "additionalProperties",
    "properties",
    "patternProperties",
    "dependencies",
    "propertyNames",
    "const",
    "enum",
    "type",
    "format",
    "contentMediaType",
    "contentEncoding",
    "if",
    "then",
    "else",
    "allOf",
    "anyOf",
    "oneOf",
    "not",
];

/// Keywords the full profile keeps in every draft although no vocabulary defines them:
/// `discriminator` (written beside a `oneOf` whose branches already decide, kept as an
/// annotation) and `definitions` (a container of subschemas `$ref` may point into).
/// Names starting with `x-` are vendor extensions, kept as annotations too.
const FULL_EXTRAS: &[&str] = &["discriminator", "definitions"];

/// Draft-07's format names.
const FORMATS_DRAFT7: &[&str] = &[
    "date-time",
    "date",
    "time",
    "email",
    "idn-email",
    "hostname",
    "idn-hostname",
    "ipv4",
    "ipv6",
    "uri",
    "uri-reference",
    "iri",
    "iri-reference",
    "uri-template",
    "json-pointer",
    "relative-json-pointer",
    "regex",
];

/// The format names the full profile knows: draft-07's, and `duration` and `uuid` in
/// both drafts (the names have one meaning, and draft-07 schemas in the wild use them).
fn format_known(_draft: Draft, name: &str) -> bool {
    FORMATS_DRAFT7.contains(&name) || matches!(name, "duration" | "uuid")
}

fn keyword_defined(draft: Draft, key: &str) -> bool {
    let list = match draft {
        Draft::Draft7 => KEYWORDS_DRAFT7,
        Draft::Draft2020_12 => KEYWORDS_2020_12,
    };
    list.contains(&key) || FULL_EXTRAS.contains(&key) || key.starts_with("x-")
}

/// Where a keyword's value holds subschemas, in `draft`.
enum Holds {
    /// One subschema.
    One,
    /// An array of subschemas.
    Array,
    /// An object whose member values are subschemas.
    Map,
    /// Draft-07's `items`: one subschema or an array of them.
    OneOrArray,
    /// Draft-07's `dependencies`: member values are subschemas or arrays of names.
    MapOfSchemaOrNames,
    /// Data or a scalar.
    Nothing,
}

fn holds(draft: Draft, key: &str) -> Holds {
    match (draft, key) {
        (_, "properties" | "patternProperties" | "definitions") => Holds::Map,
        (Draft::Draft2020_12, "$defs" | "dependentSchemas") => Holds::Map,
        (_, "allOf" | "anyOf" | "oneOf") => Holds::Array,
        (Draft::Draft2020_12, "prefixItems") => Holds::Array,
        (Draft::Draft7, "items") => Holds::OneOrArray,
        (_, "dependencies") => Holds::MapOfSchemaOrNames,
        (_, "additionalProperties" | "contains" | "propertyNames" | "not" | "if" | "then")
        | (_, "else") => Holds::One,
        (Draft::Draft7, "additionalItems") => Holds::One,
        (Draft::Draft2020_12, "items" | "unevaluatedItems" | "unevaluatedProperties") => Holds::One,
        (Draft::Draft2020_12, "contentSchema") => Holds::One,
        _ => Holds::Nothing,
    }
}

fn draft_label(draft: Draft) -> &'static str {
    match draft {
        Draft::Draft7 => "draft7",
        Draft::Draft2020_12 => "draft2020-12",
    }
}

// ---------------------------------------------------------------------------------
// Why a group is expected to be refused
// ---------------------------------------------------------------------------------

/// A reason for a group to be refused at compile.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Reason {
    /// Core profile: a keyword outside the core, or a value the core refuses. Any
    /// compile error will do (the core's own tests check its texts).
    OutsideCore(String),
    /// A keyword no vocabulary of the draft defines, at a pointer into the schema.
    UnknownKeyword { keyword: String, at: String },
    /// Rule: `$schema` names draft 2020-12 or draft-07, nothing else.
    OtherMetaSchema { uri: String },
    /// Rule: a format name the draft does not define is refused.
    UnknownFormat { name: String },
}

impl Reason {
    /// The label of the reason in the tables: the keyword, or the rule in brackets.
    fn label(&self) -> String {
        match self {
            Reason::OutsideCore(k) => k.clone(),
            Reason::UnknownKeyword { keyword, .. } => format!("`{keyword}`"),
            Reason::OtherMetaSchema { .. } => "(rule: other $schema)".to_string(),
            Reason::UnknownFormat { name } => format!("(rule: unknown format \"{name}\")"),
        }
    }

    /// Whether `e` names this reason, so that a group refused for something else
    /// does not count as refused for the expected reason.
    fn named_by(&self, e: &CompileError) -> bool {
        let quoted = |s: &str| format!("\"{s}\"");
        let any = |f: &dyn Fn(&toolgate_core::SchemaProblem) -> bool| e.problems.iter().any(f);
        match self {
            Reason::OutsideCore(_) => true,
            Reason::UnknownKeyword { keyword, .. } => {
                any(&|p| p.keyword == *keyword || p.message.contains(&quoted(keyword)))
            }
            Reason::OtherMetaSchema { uri } => any(&|p| p.message.contains(uri.as_str())),
            Reason::UnknownFormat { name } => {
                any(&|p| p.keyword == "format" && p.message.contains(&quoted(name)))
            }
        }
    }
}

/// RFC 6901 escaping of one reference token.
fn escape_token(s: &str) -> String {
    s.replace('~', "~0").replace('/', "~1")
}

/// Core profile: every keyword outside the core found at a schema position, and every
/// core keyword whose value the core refuses, as (label, pointer into the schema).
/// Subschema positions: each member of `properties`, `additionalProperties`, `items`,
/// each element of `anyOf`. The values of `enum`, `const`, `default` and `examples`
/// are data, never walked.
fn foreign_keywords(schema: &Value, pointer: &str, out: &mut Vec<(String, String)>) {
    let Value::Object(map) = schema else {
        // Booleans are valid subschemas; anything else is the compiler's business.
        return;
    };
    for (key, value) in map {
        let here = format!("{pointer}/{}", escape_token(key));
        let k = key.as_str();
        if CORE_ANNOTATIONS.contains(&k) {
            continue;
        }
        if !CORE_KEYWORDS.contains(&k) {
            out.push((key.clone(), here));
            continue;
        }
        if let Some(label) = core_refused_value(k, value) {
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

/// A core keyword whose value the core refuses at compile (an empty `enum`, a
/// negative or fractional length bound, an unknown type name), as a label for the
/// table, e.g. `(empty enum)`.
fn core_refused_value(keyword: &str, value: &Value) -> Option<String> {
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

/// Core profile: why a group must be refused, or `None` for a core-only group.
fn core_expectation(schema: &Value) -> Vec<Reason> {
    if !schema.is_object() {
        return vec![Reason::OutsideCore("(boolean root)".to_string())];
    }
    let mut found = Vec::new();
    foreign_keywords(schema, "", &mut found);
    let labels: BTreeSet<String> = found.into_iter().map(|(k, _)| k).collect();
    labels.into_iter().map(Reason::OutsideCore).collect()
}

/// The registered resources (`remotes/`), by URI, for the full profile's expectation:
/// a `$ref` to one whose `$schema` names another draft makes the group refused.
type Remotes = BTreeMap<String, Value>;

/// Full profile: every reason for `schema` (in a folder of `draft`) to be refused.
fn full_expectation(schema: &Value, draft: Draft, remotes: &Remotes) -> Vec<Reason> {
    // A boolean root compiles in the full profile, as the drafts say.
    let mut out = Vec::new();
    let mut refs = Vec::new();
    full_walk(schema, draft, "", &mut out, &mut refs);
    // Remote resources the schema reaches through absolute references, followed
    // transitively. Relative references inside the remotes resolve to other remotes of
    // the same draft folder, whose `$schema` is the folder's, so absolute ones suffice.
    let mut seen = BTreeSet::new();
    while let Some(r) = refs.pop() {
        let uri = r.split('#').next().unwrap_or("").to_string();
        if !seen.insert(uri.clone()) {
            continue;
        }
        let Some(doc) = remotes.get(&uri) else {
            continue;
        };
        let mut inner = Vec::new();
        let doc_draft = match doc.get("$schema").and_then(Value::as_str) {
            Some(s) => match Draft::from_uri(s) {
                Some(d) => d,
                None => {
                    out.push(Reason::OtherMetaSchema { uri: s.to_string() });
                    continue;
                }
            },
            None => draft,
        };
        full_walk(doc, doc_draft, "", &mut inner, &mut refs);
        out.extend(inner);
    }
    out.sort();
    out.dedup();
    out
}

/// Records the full profile's refusal reasons under `schema`, and every absolute
/// `$ref` (to follow into the registered resources).
fn full_walk(
    schema: &Value,
    draft: Draft,
    pointer: &str,
    out: &mut Vec<Reason>,
    refs: &mut Vec<String>,
) {
    let Value::Object(map) = schema else {
        return;
    };
    // An embedded resource may name its own draft.
    let draft = match map.get("$schema").and_then(Value::as_str) {
        Some(s) => match Draft::from_uri(s) {
            Some(d) => d,
            None => {
                out.push(Reason::OtherMetaSchema { uri: s.to_string() });
                draft
            }
        },
        None => draft,
    };
    for (key, value) in map {
        let here = format!("{pointer}/{}", escape_token(key));
        if !keyword_defined(draft, key) {
            out.push(Reason::UnknownKeyword {
                keyword: key.clone(),
                at: here,
            });
            continue;
        }
        if key.starts_with("x-") || key == "discriminator" {
            continue;
        }
        match key.as_str() {
            "$ref" | "$dynamicRef" => {
                if let Some(r) = value.as_str().filter(|r| r.starts_with("http")) {
                    refs.push(r.to_string());
                }
            }
            "format" => {
                if let Some(name) = value.as_str().filter(|n| !format_known(draft, n)) {
                    out.push(Reason::UnknownFormat {
                        name: name.to_string(),
                    });
                }
            }
            _ => {}
        }
        let sub = |v: &Value, at: String, out: &mut Vec<Reason>, refs: &mut Vec<String>| {
            full_walk(v, draft, &at, out, refs)
        };
        match holds(draft, key) {
            Holds::One => sub(value, here, out, refs),
            Holds::Array | Holds::OneOrArray if value.is_array() => {
                for (i, v) in value.as_array().into_iter().flatten().enumerate() {
                    sub(v, format!("{here}/{i}"), out, refs);
                }
            }
            Holds::OneOrArray => sub(value, here, out, refs),
            Holds::Map | Holds::MapOfSchemaOrNames => {
                for (name, v) in value.as_object().into_iter().flatten() {
                    if !v.is_array() {
                        sub(v, format!("{here}/{}", escape_token(name)), out, refs);
                    }
                }
            }
            Holds::Array | Holds::Nothing => {}
        }
    }
}

// ---------------------------------------------------------------------------------
// Running the groups
// ---------------------------------------------------------------------------------

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

/// Every file of `remotes/`, as (`http://localhost:1234/X`, bytes).
fn remote_files(root: &Path) -> Vec<(String, Vec<u8>)> {
    let dir = root.join("remotes");
    assert!(
        dir.is_dir(),
        "{} is missing: the suite checkout is incomplete",
        dir.display()
    );
    let mut files = Vec::new();
    collect_json_files(&dir, &mut files);
    files
        .iter()
        .map(|p| {
            let rel = p.strip_prefix(&dir).expect("under remotes/");
            let uri = format!(
                "http://localhost:1234/{}",
                rel.to_string_lossy().replace('\\', "/")
            );
            let bytes = std::fs::read(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
            (uri, bytes)
        })
        .collect()
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

thread_local! {
    /// Set while [`guarded`] runs the library: its panics are reported as failures,
    /// so the panic hook stays quiet about them.
    static GUARDED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Runs `f`, turning a panic into an `Err` with its message, so one bad case never
/// hides the others.
fn guarded<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    static QUIET_HOOK: std::sync::Once = std::sync::Once::new();
    QUIET_HOOK.call_once(|| {
        let previous = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            if !GUARDED.with(|g| g.get()) {
                previous(info);
            }
        }));
    });
    GUARDED.with(|g| g.set(true));
    let outcome = panic::catch_unwind(AssertUnwindSafe(f)).map_err(panic_text);
    GUARDED.with(|g| g.set(false));
    outcome
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

/// What is wrong with the shape or the order of `errors`.
fn error_shape_problems(errors: &[ValidationError]) -> Vec<String> {
    let mut out = Vec::new();
    for e in errors {
        if !e.path.starts_with('$') {
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
        if e.keyword.is_empty() {
            out.push(format!("error keyword is empty ({e:?})"));
        }
        if e.message.is_empty() {
            out.push(format!("error message is empty ({e:?})"));
        }
    }
    for w in errors.windows(2) {
        let (a, b) = (&w[0], &w[1]);
        if (a.path.as_str(), a.message.as_str()) > (b.path.as_str(), b.message.as_str()) {
            out.push(format!(
                "errors not sorted by path then message: {:?} before {:?}",
                a.to_string(),
                b.to_string()
            ));
        }
    }
    out
}

/// The three folders of a draft.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Folder {
    Required,
    Optional,
    OptionalFormat,
}

impl Folder {
    fn of(display: &str) -> Folder {
        if display.starts_with("optional/format/") {
            Folder::OptionalFormat
        } else if display.starts_with("optional/") {
            Folder::Optional
        } else {
            Folder::Required
        }
    }

    fn label(self) -> &'static str {
        match self {
            Folder::Required => "required",
            Folder::Optional => "optional",
            Folder::OptionalFormat => "optional/format",
        }
    }
}

/// Counts for one file, or summed over a folder or a run.
#[derive(Default, Clone)]
struct Stats {
    files: usize,
    groups: usize,
    /// Groups expected to compile, and those of them whose every case passed.
    compiled_groups: usize,
    compiled_groups_passed: usize,
    /// Every case of the file, and those that passed (in compiled groups), among them
    /// those whose verdict a documented rule sets.
    cases: usize,
    cases_passed: usize,
    cases_by_rule: usize,
    /// Groups expected to be refused, those refused for the expected reason, and
    /// their cases.
    refuse_expected: usize,
    refused_ok: usize,
    refused_cases: usize,
    /// The reasons' labels.
    reasons: BTreeSet<String>,
}

impl Stats {
    fn add(&mut self, o: &Stats) {
        self.files += o.files;
        self.groups += o.groups;
        self.compiled_groups += o.compiled_groups;
        self.compiled_groups_passed += o.compiled_groups_passed;
        self.cases += o.cases;
        self.cases_passed += o.cases_passed;
        self.cases_by_rule += o.cases_by_rule;
        self.refuse_expected += o.refuse_expected;
        self.refused_ok += o.refused_ok;
        self.refused_cases += o.refused_cases;
        self.reasons.extend(o.reasons.iter().cloned());
    }
}

/// One run: a profile over a draft's folder.
struct Run<'a> {
    profile: Profile,
    draft: Draft,
    options: Options,
    remotes: &'a Remotes,
}

/// A documented rule that gives some cases of the suite the other verdict.
struct CaseRule {
    profile: Profile,
    draft: Draft,
    /// The file, relative to the draft's folder.
    file: &'static str,
    /// A part of the case's description.
    description: &'static str,
    rule: &'static str,
    /// The verdict under the rule, and the keyword an invalid verdict must report.
    verdict: bool,
    keyword: &'static str,
}

/// Draft 2020-12 makes `format` an annotation unless a meta-schema turns assertion on;
/// the full profile asserts it (a schema must never promise more than it checks), so
/// the required folder's "only an annotation by default" cases are invalid there.
const CASE_RULES: &[CaseRule] = &[CaseRule {
    profile: Profile::Full,
    draft: Draft::Draft2020_12,
    file: "format.json",
    description: "is only an annotation by default",
    rule: "format asserted",
    verdict: false,
    keyword: "format",
}];

impl Run<'_> {
    fn case_rule(&self, file: &str, description: &str) -> Option<&'static CaseRule> {
        CASE_RULES.iter().find(|r| {
            r.profile == self.profile
                && r.draft == self.draft
                && r.file == file
                && description.contains(r.description)
        })
    }

    fn expectation(&self, schema: &Value) -> Vec<Reason> {
        match self.profile {
            Profile::Core => core_expectation(schema),
            Profile::Full => full_expectation(schema, self.draft, self.remotes),
        }
    }

    fn name(&self) -> String {
        format!(
            "{} profile, {}",
            match self.profile {
                Profile::Core => "core",
                Profile::Full => "full",
            },
            draft_label(self.draft)
        )
    }
}

fn run_file(run: &Run<'_>, path: &Path, display: &str, failures: &mut Vec<String>) -> Stats {
    let mut st = Stats {
        files: 1,
        ..Stats::default()
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
        let schema_text = String::from_utf8_lossy(&schema_bytes).into_owned();
        let compiled = guarded(|| Schema::compile_with(&schema_bytes, &run.options));
        let tests: &[Value] = group
            .get("tests")
            .and_then(Value::as_array)
            .map(Vec::as_slice)
            .unwrap_or(&[]);
        st.cases += tests.len();

        let reasons = run.expectation(schema);
        if !reasons.is_empty() {
            st.refuse_expected += 1;
            st.refused_cases += tests.len();
            st.reasons.extend(reasons.iter().map(Reason::label));
            let why: Vec<String> = reasons
                .iter()
                .map(|r| match r {
                    Reason::UnknownKeyword { keyword, at } => format!("`{keyword}` at #{at}"),
                    Reason::OtherMetaSchema { uri } => format!("$schema {uri}"),
                    other => other.label(),
                })
                .collect();
            match compiled {
                Err(p) => failures.push(format!(
                    "{gname}: compile panicked: {p}\n    schema: {}",
                    shorten(&schema_text, 400)
                )),
                Ok(Ok(_)) => failures.push(format!(
                    "{gname}: compiled, but must be refused ({})\n    schema: {}",
                    why.join(", "),
                    shorten(&schema_text, 400)
                )),
                Ok(Err(e)) if reasons.iter().any(|r| r.named_by(&e)) => st.refused_ok += 1,
                Ok(Err(e)) => failures.push(format!(
                    "{gname}: refused, but the error names none of the expected reasons ({}):\n    got: {}\n    schema: {}",
                    why.join(", "),
                    problems_text(&e),
                    shorten(&schema_text, 400)
                )),
            }
            continue;
        }

        st.compiled_groups += 1;
        let compiled_schema = match compiled {
            Ok(Ok(s)) => s,
            Ok(Err(e)) => {
                failures.push(format!(
                    "{gname}: refused at compile; its {} case(s) count as failed\n    got: {}\n    schema: {}",
                    tests.len(),
                    problems_text(&e),
                    shorten(&schema_text, 400)
                ));
                continue;
            }
            Err(p) => {
                failures.push(format!(
                    "{gname}: compile panicked: {p}; its {} case(s) count as failed\n    schema: {}",
                    tests.len(),
                    shorten(&schema_text, 400)
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
            // A documented rule may give the case the other verdict.
            let rule = run.case_rule(display, cdesc);
            let expected = match rule {
                Some(r) => {
                    st.reasons.insert(format!("(rule: {})", r.rule));
                    r.verdict
                }
                None => expected,
            };
            let mut problems = check_case(&compiled_schema, &data_bytes, expected);
            if let Some(r) = rule {
                let errors =
                    guarded(|| compiled_schema.validate_json(&data_bytes)).unwrap_or_default();
                if !expected && !errors.iter().any(|e| e.keyword == r.keyword) {
                    problems.push(format!(
                        "no `{}` error, as the rule {:?} gives",
                        r.keyword, r.rule
                    ));
                }
            }
            if problems.is_empty() {
                st.cases_passed += 1;
                if rule.is_some() {
                    st.cases_by_rule += 1;
                }
            } else {
                group_ok = false;
                failures.push(format!(
                    "{cname}: expected {}, got {}\n    schema:   {}\n    instance: {}",
                    if expected { "valid" } else { "invalid" },
                    problems.join("; "),
                    shorten(&schema_text, 400),
                    shorten(&String::from_utf8_lossy(&data_bytes), 400),
                ));
            }
        }
        if group_ok {
            st.compiled_groups_passed += 1;
        }
    }
    st
}

/// What is wrong with `schema`'s answers on one case (empty when it passed).
fn check_case(schema: &Schema, data: &[u8], expected: bool) -> Vec<String> {
    let mut problems = Vec::new();
    match guarded(|| schema.is_valid(data)) {
        Ok(v) if v == expected => {}
        Ok(v) => problems.push(format!("is_valid {v}")),
        Err(p) => problems.push(format!("is_valid panicked: {p}")),
    }
    match guarded(|| schema.validate_json(data)) {
        Ok(errors) => {
            if errors.is_empty() != expected {
                if expected {
                    let listed: Vec<String> = errors
                        .iter()
                        .take(4)
                        .map(|e| format!("{e} [{}]", e.keyword))
                        .collect();
                    problems.push(format!(
                        "validate_json {} error(s): {}",
                        errors.len(),
                        listed.join("; ")
                    ));
                } else {
                    problems.push("validate_json no error".to_string());
                }
            }
            problems.extend(error_shape_problems(&errors));
        }
        Err(p) => problems.push(format!("validate_json panicked: {p}")),
    }
    problems
}

fn problems_text(e: &CompileError) -> String {
    let lines: Vec<String> = e
        .problems
        .iter()
        .map(|p| format!("{p} [{}]", p.keyword))
        .collect();
    lines.join(" | ")
}

// ---------------------------------------------------------------------------------
// Tables
// ---------------------------------------------------------------------------------

fn reasons_column(reasons: &BTreeSet<String>, max: usize) -> String {
    let mut v: Vec<&str> = reasons.iter().map(String::as_str).collect();
    let extra = v.len().saturating_sub(max);
    v.truncate(max);
    let mut s = v.join(", ");
    if extra > 0 {
        let _ = write!(s, " +{extra}");
    }
    s
}

fn cases_column(s: &Stats) -> String {
    if s.cases_by_rule > 0 {
        format!(
            "{}/{} ({} by rule)",
            s.cases_passed, s.cases, s.cases_by_rule
        )
    } else {
        format!("{}/{}", s.cases_passed, s.cases)
    }
}

fn refused_column(s: &Stats) -> String {
    if s.refuse_expected == 0 {
        "0".to_string()
    } else if s.refused_ok == s.refuse_expected {
        format!("{} ({} cases)", s.refuse_expected, s.refused_cases)
    } else {
        format!(
            "{}/{} as expected ({} cases)",
            s.refused_ok, s.refuse_expected, s.refused_cases
        )
    }
}

fn render_text(title: &str, files: &[(String, Stats)], total: &Stats) -> String {
    let w = files
        .iter()
        .map(|(f, _)| f.len())
        .max()
        .unwrap_or(4)
        .max(24);
    let mut out = format!("{title}\n");
    let _ = writeln!(
        out,
        "{:<w$}  {:>6}  {:>9}  {:>11}  {:>22}  refused for, rules",
        "file", "groups", "groups ok", "cases", "groups refused"
    );
    let row = |out: &mut String, name: &str, s: &Stats| {
        let _ = writeln!(
            out,
            "{:<w$}  {:>6}  {:>9}  {:>11}  {:>22}  {}",
            name,
            s.groups,
            format!("{}/{}", s.compiled_groups_passed, s.compiled_groups),
            cases_column(s),
            refused_column(s),
            reasons_column(&s.reasons, 6)
        );
    };
    for (f, s) in files {
        row(&mut out, f, s);
    }
    row(&mut out, &format!("TOTAL ({} files)", total.files), total);
    out
}

fn md_escape(s: &str) -> String {
    s.replace('|', "\\|")
}

fn render_markdown_files(title: &str, files: &[(String, Stats)], total: &Stats) -> String {
    let mut out = format!("### {title}, per file\n\n");
    let _ = writeln!(
        out,
        "| file | groups | groups passed | cases passed | groups refused | refused for, rules |"
    );
    let _ = writeln!(out, "|---|---:|---:|---:|---:|---|");
    for (f, s) in files {
        let _ = writeln!(
            out,
            "| `{f}` | {} | {}/{} | {} | {} | {} |",
            s.groups,
            s.compiled_groups_passed,
            s.compiled_groups,
            cases_column(s),
            refused_column(s),
            md_escape(&reasons_column(&s.reasons, 8))
        );
    }
    let _ = writeln!(
        out,
        "| **total ({} files)** | **{}** | **{}/{}** | **{}** | **{}** | |",
        total.files,
        total.groups,
        total.compiled_groups_passed,
        total.compiled_groups,
        cases_column(total),
        refused_column(total),
    );
    out
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
            Some(format!("`{repo}` at `{}`", &commit[..commit.len().min(12)]))
        })
        .unwrap_or_else(|| "a copy without SOURCE.txt".to_string())
}

/// FNV-1a (64 bits) of every file a run read, path and bytes, in order: which copy of
/// the suite a table was made from, so that a run on another copy (the one
/// `scripts/fetch-suite.sh` fetches is an older revision) is not compared with it.
fn contents_digest(files: &[(String, Vec<u8>)]) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut eat = |bytes: &[u8]| {
        for &b in bytes {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    };
    for (name, bytes) in files {
        eat(name.as_bytes());
        eat(&[0]);
        eat(&(bytes.len() as u64).to_le_bytes());
        eat(bytes);
    }
    format!("fnv1a64:{h:016x}")
}

/// The file the per-file tables are generated into.
const SUITE_DOC: &str = "suite.md";

/// How to regenerate the tables, for the messages that ask for it.
const SUITE_COMMAND: &str = "cargo test -p toolgate-core --test suite";

/// The digest a generated block was made from (`digest `...``), if it names one.
fn recorded_digest(block: &str) -> Option<&str> {
    let rest = &block[block.find("digest `")? + "digest `".len()..];
    Some(&rest[..rest.find('`')?])
}

/// This run's block of docs/suite.md: the per-folder summary, then the per-file table.
fn render_block(
    run_name: &str,
    source: &str,
    digest: &str,
    folders: &BTreeMap<Folder, Stats>,
    files: &[(String, Stats)],
    total: &Stats,
) -> String {
    let mut out = format!(
        "## {run_name}

"
    );
    let _ = writeln!(
        out,
        "Generated from {source} (contents digest `{digest}`).\n"
    );
    let _ = writeln!(
        out,
        "| folder | groups | cases passed | groups refused | refused for, rules |"
    );
    let _ = writeln!(out, "|---|---:|---:|---:|---|");
    for (folder, s) in folders {
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} |",
            folder.label(),
            s.groups,
            cases_column(s),
            refused_column(s),
            md_escape(&reasons_column(&s.reasons, 12))
        );
    }
    out.push('\n');
    out.push_str(&render_markdown_files(run_name, files, total));
    out
}

/// Compares this run's block of docs/suite.md with what it produced (or rewrites it
/// under `TOOLGATE_BLESS=1`). A block made from another copy of the suite is left
/// alone, loudly: its numbers are not this copy's to check.
fn check_doc_block(part: &str, block: &str, digest: &str) -> Result<(), String> {
    let file = generated_doc::docs_file(SUITE_DOC);
    let name = format!("suite-{part}");
    if !generated_doc::blessing() {
        if let Some(old) = generated_doc::current(&file, &name) {
            if let Some(recorded) = recorded_digest(&old).filter(|r| *r != digest) {
                say!(
                    "NOTE: {} describes the suite copy with contents digest {recorded}; this copy's is {digest}: its {name} table was not compared (TOOLGATE_BLESS=1 {SUITE_COMMAND} rewrites it for this copy)",
                    file.display()
                );
                return Ok(());
            }
        }
    }
    generated_doc::check(&file, &name, block, SUITE_COMMAND)
}

fn run_suite(profile: Profile, draft: Draft) {
    let draft_dir = draft_label(draft);
    let needed = format!("tests/{draft_dir}");
    let Some(test_data::Suite { root, tests }) =
        test_data::suite_or_skip(&format!("suite cases ({draft_dir})"), &[&needed])
    else {
        return;
    };
    let dir = tests.join(draft_dir);
    let filter = std::env::var("TOOLGATE_SUITE_FILTER")
        .ok()
        .filter(|f| !f.is_empty());

    let mut remotes = Remotes::new();
    let mut options = Options::default();
    if profile == Profile::Full {
        options = options
            .with_profile(Profile::Full)
            .with_default_draft(draft);
        for (uri, bytes) in remote_files(&root) {
            options = options
                .with_resource(&uri, &bytes)
                .unwrap_or_else(|e| panic!("with_resource({uri}) refused: {e:?}"));
            let value = serde_json::from_slice(&bytes)
                .unwrap_or_else(|e| panic!("remote {uri} is not JSON: {e}"));
            remotes.insert(uri, value);
        }
    }
    let run = Run {
        profile,
        draft,
        options,
        remotes: &remotes,
    };

    let mut files = Vec::new();
    collect_json_files(&dir, &mut files);
    assert!(
        !files.is_empty(),
        "no .json files under {} — is the suite checkout complete?",
        dir.display()
    );

    let mut failures = Vec::new();
    let mut per_file = Vec::new();
    let mut folders: BTreeMap<Folder, Stats> = BTreeMap::new();
    let mut total = Stats::default();
    for path in &files {
        let display = path
            .strip_prefix(&dir)
            .unwrap_or(path)
            .to_string_lossy()
            .replace('\\', "/");
        if filter
            .as_ref()
            .is_some_and(|f| !display.contains(f.as_str()))
        {
            continue;
        }
        let st = run_file(&run, path, &display, &mut failures);
        total.add(&st);
        folders.entry(Folder::of(&display)).or_default().add(&st);
        per_file.push((display, st));
    }

    let title = format!("JSON-Schema-Test-Suite, {} ({})", run.name(), dir.display());
    say!("\n{}", render_text(&title, &per_file, &total));
    for (folder, s) in &folders {
        let reasons = reasons_column(&s.reasons, usize::MAX);
        say!(
            "{} / {}: {} groups; cases {}; groups refused {}{}{}",
            run.name(),
            folder.label(),
            s.groups,
            cases_column(s),
            refused_column(s),
            if reasons.is_empty() {
                ""
            } else {
                "; refused for, rules: "
            },
            reasons
        );
    }
    // The docs page: compared (or rewritten) only for a whole run.
    let mut doc_failure = None;
    if filter.is_none() {
        let part = format!(
            "{}-{draft_dir}",
            if profile == Profile::Full {
                "full"
            } else {
                "core"
            }
        );
        let mut read: Vec<(String, Vec<u8>)> = files
            .iter()
            .map(|p| {
                let name = p
                    .strip_prefix(&root)
                    .unwrap_or(p)
                    .to_string_lossy()
                    .replace('\\', "/");
                (name, std::fs::read(p).unwrap_or_default())
            })
            .collect();
        if profile == Profile::Full {
            read.extend(remote_files(&root));
        }
        let digest = contents_digest(&read);
        let block = render_block(
            &run.name(),
            &source_note(&root),
            &digest,
            &folders,
            &per_file,
            &total,
        );
        doc_failure = check_doc_block(&part, &block, &digest).err();
    }

    if !failures.is_empty() {
        let mut msg = format!(
            "{}: {} failure(s) (cases {}, groups passed {}/{}, groups refused {}):\n",
            run.name(),
            failures.len(),
            cases_column(&total),
            total.compiled_groups_passed,
            total.compiled_groups,
            refused_column(&total),
        );
        for f in &failures {
            let _ = writeln!(msg, "  - {f}");
        }
        if let Some(d) = &doc_failure {
            let _ = writeln!(msg, "and the docs page: {d}");
        }
        panic!("{msg}");
    }
    if let Some(d) = doc_failure {
        panic!("{d}");
    }
}

#[test]
fn core_profile_draft2020_12() {
    run_suite(Profile::Core, Draft::Draft2020_12);
}

#[test]
fn full_profile_draft2020_12() {
    run_suite(Profile::Full, Draft::Draft2020_12);
}

#[test]
fn full_profile_draft7() {
    run_suite(Profile::Full, Draft::Draft7);
}

/// The expectation itself, on schemas whose answer is known, so that a mistake in the
/// walk cannot silently let a group through or refuse one.
#[test]
fn full_expectation_finds_what_is_refused() {
    let remotes: Remotes = [(
        "http://localhost:1234/old.json".to_string(),
        serde_json::json!({"$schema": "https://json-schema.org/draft/2019-09/schema"}),
    )]
    .into_iter()
    .collect();
    let expect = |schema: Value, draft: Draft| full_expectation(&schema, draft, &remotes);
    assert_eq!(
        expect(serde_json::json!({"type": "object"}), Draft::Draft2020_12),
        vec![]
    );
    assert_eq!(
        expect(
            serde_json::json!({"x-vendor": {"types": 1}, "discriminator": {"propertyName": "k"}, "definitions": {"a": {"type": "string"}}}),
            Draft::Draft2020_12
        ),
        vec![]
    );
    assert_eq!(
        expect(
            serde_json::json!({"properties": {"a": {"not": {"types": "string"}}}}),
            Draft::Draft2020_12
        ),
        vec![Reason::UnknownKeyword {
            keyword: "types".to_string(),
            at: "/properties/a/not/types".to_string()
        }]
    );
    // A keyword of one draft is unknown in the other (`dependencies` is read in both).
    assert_eq!(
        expect(
            serde_json::json!({"dependentRequired": {"a": ["b"]}}),
            Draft::Draft7
        )
        .len(),
        1
    );
    assert_eq!(
        expect(
            serde_json::json!({"dependencies": {"a": ["b"]}}),
            Draft::Draft2020_12
        ),
        vec![]
    );
    assert_eq!(
        expect(
            serde_json::json!({"dependencies": {"a": ["b"], "c": {"minimum": 1}}}),
            Draft::Draft7
        ),
        vec![]
    );
    assert_eq!(
        expect(serde_json::json!({"prefixItems": [{}]}), Draft::Draft7).len(),
        1
    );
    // Data is not walked.
    assert_eq!(
        expect(
            serde_json::json!({"enum": [{"types": 1}], "const": {"nope": 1}, "default": {"x": 1}}),
            Draft::Draft2020_12
        ),
        vec![]
    );
    assert_eq!(expect(serde_json::json!(true), Draft::Draft7), vec![]);
    assert_eq!(
        expect(serde_json::json!({"format": "duration"}), Draft::Draft7),
        vec![]
    );
    assert_eq!(
        expect(serde_json::json!({"format": "uuid"}), Draft::Draft7),
        vec![]
    );
    assert_eq!(
        expect(
            serde_json::json!({"format": "no-such-format"}),
            Draft::Draft7
        ),
        vec![Reason::UnknownFormat {
            name: "no-such-format".to_string()
        }]
    );
    assert_eq!(
        expect(
            serde_json::json!({"format": "duration"}),
            Draft::Draft2020_12
        ),
        vec![]
    );
    assert_eq!(
        expect(
            serde_json::json!({"allOf": [{"$ref": "http://localhost:1234/old.json#/x"}]}),
            Draft::Draft2020_12
        ),
        vec![Reason::OtherMetaSchema {
            uri: "https://json-schema.org/draft/2019-09/schema".to_string()
        }]
    );
    // An embedded draft-07 resource is walked with draft-07's keywords.
    assert_eq!(
        expect(
            serde_json::json!({"$defs": {"old": {"$schema": "http://json-schema.org/draft-07/schema#", "additionalItems": false}}}),
            Draft::Draft2020_12
        ),
        vec![]
    );
}
