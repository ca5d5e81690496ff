//! Every `$ref` (and `$dynamicRef`, read statically) of the official
//! JSON-Schema-Test-Suite's `tests/draft2020-12` and `tests/draft7` folders resolves
//! to a schema that exists, with the suite's `remotes/` registered under
//! `http://localhost:1234/` as its README says; and so does every reference of each
//! document those references reach (the remotes, the meta-schemas), transitively.
//! The groups that test a refusal (a reference into a draft toolgate does not
//! implement) must fail with the message that says so. The validation itself is the
//! compiler's; this proves resolution.
//!
//! The suite is read from `TOOLGATE_SUITE` or `../shared/testdata/
//! json-schema-test-suite` beside the crate; without it the test says "SKIPPED"
//! loudly, and fails when `TOOLGATE_REQUIRE_SUITE=1`.

use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::positions::{subschemas, Place};
use super::*;

/// The files whose references the resolver must handle, by name: each must be
/// present and hold at least one reference.
const REQUIRED_FILES: &[&str] = &[
    "draft2020-12/ref.json",
    "draft2020-12/refRemote.json",
    "draft2020-12/anchor.json",
    "draft2020-12/defs.json",
    "draft2020-12/dynamicRef.json",
    "draft2020-12/optional/anchor.json",
    "draft2020-12/optional/id.json",
    "draft2020-12/optional/cross-draft.json",
    "draft7/ref.json",
    "draft7/refRemote.json",
    "draft7/definitions.json",
    "draft7/optional/id.json",
];

/// The references that must be refused, by file, group and reference: each points
/// into a draft-2019-09 document.
const EXPECTED_REFUSALS: &[(&str, &str, &str)] = &[
    (
        "draft2020-12/optional/cross-draft.json",
        "refs to historic drafts are processed as historic drafts",
        "http://localhost:1234/draft2019-09/ignore-prefixItems.json",
    ),
    (
        "draft7/optional/cross-draft.json",
        "refs to future drafts are processed as future drafts",
        "http://localhost:1234/draft2019-09/dependentRequired.json",
    ),
];

const DEPTH: usize = crate::schema::Options::MAX_DEPTH_LIMIT;

fn read_json(path: &Path) -> OwnedDoc {
    let bytes =
        std::fs::read(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    OwnedDoc::parse(&bytes, DEPTH)
        .unwrap_or_else(|e| panic!("{}: {}", path.display(), e.message(&bytes)))
}

fn json_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()))
        .map(|e| e.expect("directory entry").path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            json_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "json") {
            out.push(p);
        }
    }
}

/// The suite's `remotes/`, each under `http://localhost:1234/` and its path.
fn remotes(root: &Path) -> Vec<Resource> {
    let dir = root.join("remotes");
    let mut files = Vec::new();
    json_files(&dir, &mut files);
    files
        .iter()
        .map(|p| {
            let rel = p.strip_prefix(&dir).expect("under remotes/");
            let rel = rel.to_string_lossy().replace('\\', "/");
            Resource {
                uri: format!("http://localhost:1234/{rel}"),
                doc: Arc::new(read_json(p)),
            }
        })
        .collect()
}

fn member<'v>(v: &'v Doc<'v>, name: &str) -> Option<&'v Doc<'v>> {
    match v {
        Doc::Object(m) => super::member(m, name),
        _ => None,
    }
}

fn string<'v>(v: Option<&Doc<'v>>) -> Option<&'v str> {
    match v {
        Some(Doc::String(s)) => Some(s),
        _ => None,
    }
}

/// Every `$ref` and `$dynamicRef` (2020-12) in the schema positions under `loc`:
/// `(where, keyword, reference)`.
fn references(d: &Documents, loc: &Location, out: &mut Vec<(Location, &'static str, String)>) {
    let Some(Doc::Object(members)) = d.value(loc) else {
        return;
    };
    let draft = d.draft(loc);
    for keyword in ["$ref", "$dynamicRef"] {
        if keyword == "$dynamicRef" && draft != Draft::Draft2020_12 {
            continue;
        }
        if let Some(r) = string(super::member(members, keyword)) {
            out.push((loc.clone(), keyword, r.to_owned()));
        }
    }
    for (keyword, value) in members.iter() {
        for (place, _) in subschemas(draft, keyword, value) {
            let mut pointer = loc.pointer.clone();
            push_pointer_token(&mut pointer, keyword);
            match place {
                Place::Itself => {}
                Place::Member(name) => push_pointer_token(&mut pointer, name),
                Place::Element(i) => pointer.push_str(&format!("/{i}")),
            }
            let child = Location {
                doc: loc.doc,
                pointer,
            };
            references(d, &child, out);
        }
    }
}

#[derive(Default)]
struct Tally {
    groups: usize,
    resolved: usize,
    refused: usize,
}

/// One group: index it, then resolve every reference reachable from its schema.
/// Returns the refusals (reference, message) and the unexpected failures.
fn run_group(
    schema: &Doc<'_>,
    folder_draft: Draft,
    registered: &[Resource],
    tally: &mut Tally,
) -> Result<Vec<(String, String)>, String> {
    let root_draft = string(member(schema, "$schema"))
        .and_then(Draft::from_uri)
        .unwrap_or(folder_draft);
    let d = Documents::new(*schema, None, root_draft, folder_draft, registered)
        .map_err(|p| format!("indexing failed: {p:#?}"))?;
    let mut refusals = Vec::new();
    let mut walked: HashSet<Location> = HashSet::new();
    let mut queue = vec![Location::root()];
    while let Some(start) = queue.pop() {
        if !walked.insert(start.clone()) {
            continue;
        }
        let mut refs = Vec::new();
        references(&d, &start, &mut refs);
        for (from, keyword, reference) in refs {
            match d.resolve(&from, &reference) {
                Ok(to) => {
                    let value = d.value(&to).ok_or_else(|| {
                        format!("{keyword} {reference:?} at {from:?} resolved to {to:?}, where nothing is")
                    })?;
                    if !is_schema(value) {
                        return Err(format!(
                            "{keyword} {reference:?} at {from:?} resolved to a {}",
                            value.type_name()
                        ));
                    }
                    // A plain-name `$dynamicRef` whose target declares that dynamic
                    // anchor: the resource declares it for the dynamic scope too.
                    if keyword == "$dynamicRef" {
                        if let Some(name) = reference.rsplit_once('#').map(|(_, f)| f) {
                            if d.dynamic_anchor_at(&to) == Some(name) {
                                let declared = d.dynamic_anchor(d.resource(&to), name);
                                if declared.as_ref() != Some(&to) {
                                    return Err(format!(
                                        "dynamic anchor {name:?} at {to:?}, but its resource gives {declared:?}"
                                    ));
                                }
                            }
                        }
                    }
                    tally.resolved += 1;
                    queue.push(to);
                }
                Err(message) => {
                    tally.refused += 1;
                    refusals.push((reference, message));
                }
            }
        }
    }
    Ok(refusals)
}

#[test]
fn every_suite_reference_resolves() {
    let Some(suite) =
        crate::test_data::suite_or_skip("resolver suite cases", &["tests", "remotes"])
    else {
        return;
    };
    let registered = remotes(&suite.root);
    assert!(
        registered.len() > 50,
        "remotes/ holds {} documents",
        registered.len()
    );
    let mut failures = Vec::new();
    let mut refusals_seen = Vec::new();
    let mut per_file: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    let mut total = Tally::default();
    for (folder, draft) in [
        ("draft2020-12", Draft::Draft2020_12),
        ("draft7", Draft::Draft7),
    ] {
        let dir = suite.tests.join(folder);
        let mut files = Vec::new();
        json_files(&dir, &mut files);
        for path in files {
            let label = format!(
                "{folder}/{}",
                path.strip_prefix(&dir)
                    .unwrap()
                    .to_string_lossy()
                    .replace('\\', "/")
            );
            let doc = read_json(&path);
            let Doc::Array(groups) = doc.root() else {
                panic!("{label}: not an array of groups");
            };
            let mut tally = Tally::default();
            for group in groups.iter() {
                let description = string(member(group, "description"))
                    .unwrap_or("?")
                    .to_owned();
                let schema = member(group, "schema")
                    .unwrap_or_else(|| panic!("{label}: {description}: no schema"));
                tally.groups += 1;
                match run_group(schema, draft, &registered, &mut tally) {
                    Err(e) => failures.push(format!("{label}: {description}: {e}")),
                    Ok(refusals) => {
                        for (reference, message) in refusals {
                            let expected = EXPECTED_REFUSALS
                                .iter()
                                .any(|&(f, g, r)| f == label && g == description && r == reference);
                            if expected && message.contains("a draft that is not supported") {
                                refusals_seen.push((label.clone(), description.clone()));
                            } else {
                                failures.push(format!(
                                    "{label}: {description}: {reference:?} refused: {message}"
                                ));
                            }
                        }
                    }
                }
            }
            let entry = per_file.entry(label).or_default();
            entry.0 += tally.resolved;
            entry.1 += tally.refused;
            total.groups += tally.groups;
            total.resolved += tally.resolved;
            total.refused += tally.refused;
        }
    }
    for &(file, group, _) in EXPECTED_REFUSALS {
        if !refusals_seen.iter().any(|(f, g)| f == file && g == group) {
            failures.push(format!("{file}: {group}: expected a refusal, none came"));
        }
    }
    for file in REQUIRED_FILES {
        match per_file.get(*file) {
            None => failures.push(format!("{file}: missing from the suite")),
            Some((0, 0)) => failures.push(format!("{file}: no reference found")),
            Some(_) => {}
        }
    }
    eprintln!(
        "resolver on the suite: {} groups, {} references resolved, {} refused as expected",
        total.groups, total.resolved, total.refused
    );
    for file in REQUIRED_FILES {
        if let Some((ok, no)) = per_file.get(*file) {
            eprintln!("  {file}: {ok} resolved, {no} refused");
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
