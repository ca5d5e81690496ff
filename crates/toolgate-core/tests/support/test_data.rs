//! Where the test data kept outside the repository is, and what a test does when it is
//! missing:
//!
//! - JSON-Schema-Test-Suite: `TOOLGATE_SUITE` (the suite's root or its `tests/`
//!   folder), else `../shared/testdata/json-schema-test-suite` beside the repository;
//!   `TOOLGATE_REQUIRE_SUITE=1` makes its absence a failure;
//! - every other data set (JSONTestSuite, realworld-tools): a folder of
//!   `TOOLGATE_TESTDATA`, else of `../shared/testdata` beside the repository;
//!   `TOOLGATE_REQUIRE_TESTDATA=1` makes its absence a failure.
//!
//! Without the requirement, a test whose data is missing prints a loud SKIPPED banner
//! and passes. The banner is written to the process's standard error directly: libtest
//! captures `eprintln!` but not that, so a skip shows in every `cargo test` run.
//!
//! The one copy: the core's unit tests use it as `crate::test_data`, its integration
//! tests as `support::test_data`, and the command's tests and the benchmarks include it
//! through `#[path]`.

#![allow(dead_code)]

use std::io::Write as _;
use std::path::{Path, PathBuf};

/// Writes `text` and a newline to the process's standard error, past libtest's capture.
pub fn say(text: &str) {
    let _ = writeln!(std::io::stderr().lock(), "{text}");
}

/// The repository holding the crate under test: the nearest folder above the crate's
/// manifest that holds the core crate (every crate of the repository is below it).
fn repository() -> PathBuf {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    manifest
        .ancestors()
        .find(|dir| dir.join("crates/toolgate-core/Cargo.toml").is_file())
        .unwrap_or(manifest)
        .to_path_buf()
}

/// `../shared/testdata` beside the repository, the default home of every data set.
fn shared_testdata() -> PathBuf {
    repository().join("../shared/testdata")
}

fn env_path(var: &str) -> Option<PathBuf> {
    std::env::var_os(var)
        .filter(|p| !p.is_empty())
        .map(PathBuf::from)
}

fn required(var: &str) -> bool {
    std::env::var(var).as_deref() == Ok("1")
}

/// Panics when `require_var` is `1`, else prints the SKIPPED banner: `what` could not
/// run because `missing` is not there; `hint` says how to provide it.
fn skip_or_fail(what: &str, missing: &str, require_var: &str, hint: &str) {
    if required(require_var) {
        panic!("{what}: {missing} ({require_var}=1 makes this a failure; {hint})");
    }
    let banner = "*".repeat(78);
    say(&format!(
        "\n{banner}\n*** SKIPPED: {what}: {missing}\n*** ({hint}; CI sets {require_var}=1)\n{banner}\n"
    ));
}

/// JSON-Schema-Test-Suite's root (holding `tests/` and `remotes/`) and its `tests/`
/// folder.
pub struct Suite {
    pub root: PathBuf,
    pub tests: PathBuf,
}

/// Where JSON-Schema-Test-Suite is said to be (whether or not it is there).
pub fn suite_location() -> Suite {
    let root = env_path("TOOLGATE_SUITE")
        .unwrap_or_else(|| shared_testdata().join("json-schema-test-suite"));
    if !root.join("tests").is_dir() && root.file_name().is_some_and(|n| n == "tests") {
        let parent = root.parent().map(Path::to_path_buf).unwrap_or_default();
        return Suite {
            root: parent,
            tests: root,
        };
    }
    Suite {
        tests: root.join("tests"),
        root,
    }
}

/// The suite, when every path of `needed` (relative to its root: `tests/draft7`,
/// `remotes`) is there; else `None` after a loud skip of `what`, or a panic when
/// `TOOLGATE_REQUIRE_SUITE=1`.
pub fn suite_or_skip(what: &str, needed: &[&str]) -> Option<Suite> {
    let suite = suite_location();
    let missing = needed
        .iter()
        .map(|p| suite.root.join(p))
        .find(|p| !p.exists());
    let Some(missing) = missing else {
        return Some(suite);
    };
    skip_or_fail(
        what,
        &format!("JSON-Schema-Test-Suite not found at {}", missing.display()),
        "TOOLGATE_REQUIRE_SUITE",
        "set TOOLGATE_SUITE=/path/to/JSON-Schema-Test-Suite, or \
         TOOLGATE_SUITE=$(scripts/fetch-suite.sh); scripts/test-all.sh does that",
    );
    None
}

/// The `testdata` folder: `TOOLGATE_TESTDATA`, else `../shared/testdata` beside the
/// repository.
pub fn testdata_dir() -> PathBuf {
    env_path("TOOLGATE_TESTDATA").unwrap_or_else(shared_testdata)
}

/// `relative` inside [`testdata_dir`] (`json-test-suite/test_parsing`,
/// `realworld-tools/tools.jsonl`) when it is there; else `None` after a loud skip of
/// `what`, or a panic when `TOOLGATE_REQUIRE_TESTDATA=1`.
pub fn testdata_or_skip(what: &str, relative: &str) -> Option<PathBuf> {
    let path = testdata_dir().join(relative);
    if path.exists() {
        return Some(path);
    }
    let top = relative.split('/').next().unwrap_or(relative);
    skip_or_fail(
        what,
        &format!("{} not found", path.display()),
        "TOOLGATE_REQUIRE_TESTDATA",
        &format!("set TOOLGATE_TESTDATA to the folder holding {top}/"),
    );
    None
}

/// The documents of nst/JSONTestSuite's `test_parsing/`, sorted by name, or `None`
/// (after a loud skip, or a failure where the data is required) when it is absent.
#[allow(dead_code)] // Not every test file that includes this module reads the suite.
pub fn json_test_suite_documents() -> Option<Vec<PathBuf>> {
    let dir = testdata_or_skip("JSONTestSuite", "json-test-suite/test_parsing")?;
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    Some(files)
}
