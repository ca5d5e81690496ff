//! The shared vectors of calls and results, which every host's tests read:
//! `tests/results.json` (a result view and the exact bytes each dialect writes for it,
//! one result and whole turns) and `tests/calls.json` (provider responses and the calls
//! read from them, or the error).
//!
//! The examples of results in `docs/dialects.md` are generated from `tests/results.json`
//! by this test, which fails when the page differs (`TOOLGATE_BLESS=1` rewrites it).

#[path = "../../toolgate-core/tests/support/generated_doc.rs"]
mod generated_doc;

use std::fmt::Write as _;
use std::path::PathBuf;

use serde_json::Value as Json;
use toolgate_dialect::{read_calls, result_json, results_message_json, Dialect};
use toolgate_dialect::{ResultView, Violation};

const COMMAND: &str = "cargo test -p toolgate-dialect --test call_vectors";

fn vectors(name: &str) -> Json {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests")
        .join(name);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn str_of<'a>(v: &'a Json, key: &str) -> &'a str {
    v[key]
        .as_str()
        .unwrap_or_else(|| panic!("{key:?} is not a string in {v}"))
}

/// A vector's result, with its violations held beside it (the view borrows them).
struct Owned<'a> {
    json: &'a Json,
    violations: Vec<Violation<'a>>,
}

impl<'a> Owned<'a> {
    fn new(json: &'a Json) -> Owned<'a> {
        let violations = json["violations"]
            .as_array()
            .expect("violations")
            .iter()
            .map(|v| Violation {
                pointer: str_of(v, "pointer"),
                keyword: str_of(v, "keyword"),
                message: str_of(v, "message"),
                schema_location: str_of(v, "schema_location"),
            })
            .collect();
        Owned { json, violations }
    }

    fn view(&self) -> ResultView<'_> {
        ResultView {
            call_id: str_of(self.json, "call_id"),
            name: str_of(self.json, "name"),
            content: str_of(self.json, "content"),
            is_error: self.json["is_error"].as_bool().expect("is_error"),
            structured: self.json["structured"].as_bool().expect("structured"),
            violations: &self.violations,
        }
    }
}

/// Every expected text of an entry is compact JSON and names every dialect.
fn expected(entry: &Json, dialect: Dialect) -> &str {
    let text = str_of(&entry["expected"], dialect.name());
    let parsed: Json = serde_json::from_str(text)
        .unwrap_or_else(|e| panic!("{dialect} of {:?} is not JSON: {e}", entry["case"]));
    assert!(parsed.is_object() || parsed.is_array());
    text
}

#[test]
fn results_in_every_dialect() {
    let doc = vectors("results.json");
    let entries = doc["results"].as_array().expect("results");
    assert!(entries.len() >= 8);
    for entry in entries {
        let owned = Owned::new(&entry["result"]);
        let view = owned.view();
        for dialect in Dialect::ALL {
            assert_eq!(
                result_json(dialect, &view),
                expected(entry, dialect),
                "{dialect}: {}",
                entry["case"]
            );
        }
        // The chat dialect is the core's own tool message.
        assert_eq!(
            result_json(Dialect::OpenAiChat, &view),
            toolgate_core::registry::tool_message_json(view.call_id, view.content)
        );
    }
}

#[test]
fn result_messages_in_every_dialect() {
    let doc = vectors("results.json");
    for entry in doc["messages"].as_array().expect("messages") {
        let owned: Vec<Owned<'_>> = entry["results"]
            .as_array()
            .expect("results")
            .iter()
            .map(Owned::new)
            .collect();
        let views: Vec<ResultView<'_>> = owned.iter().map(Owned::view).collect();
        for dialect in Dialect::ALL {
            assert_eq!(
                results_message_json(dialect, &views),
                expected(entry, dialect),
                "{dialect}: {}",
                entry["case"]
            );
        }
    }
}

#[test]
fn calls_from_every_dialect() {
    let doc = vectors("calls.json");
    let cases = doc["cases"].as_array().expect("cases");
    for dialect in Dialect::ALL {
        let (ok, err) = cases
            .iter()
            .filter(|c| c["dialect"] == dialect.name())
            .partition::<Vec<_>, _>(|c| c.get("calls").is_some());
        assert!(
            !ok.is_empty() && !err.is_empty(),
            "{dialect}: calls and errors"
        );
    }
    for case in cases {
        let name = &case["case"];
        let dialect: Dialect = str_of(case, "dialect").parse().expect("dialect");
        let got = read_calls(dialect, str_of(case, "response").as_bytes());
        if let Some(calls) = case.get("calls") {
            let got = got.unwrap_or_else(|e| panic!("{name}: {e}"));
            let want = calls.as_array().expect("calls");
            assert_eq!(got.len(), want.len(), "{name}");
            for (g, w) in got.iter().zip(want) {
                assert_eq!(g.id, str_of(w, "id"), "{name}");
                assert_eq!(g.name, str_of(w, "name"), "{name}");
                assert_eq!(
                    String::from_utf8(g.arguments.clone()).unwrap(),
                    str_of(w, "arguments"),
                    "{name}"
                );
            }
        } else {
            let e = got.expect_err(&name.to_string());
            let want = &case["error"];
            assert_eq!(e.message, str_of(want, "message"), "{name}");
            assert_eq!(
                e.index,
                want["index"].as_u64().map(|i| i as usize),
                "{name}"
            );
        }
    }
}

/// The docs' examples: for each dialect, one line per kind of result.
fn examples() -> String {
    let doc = vectors("results.json");
    let entries = doc["results"].as_array().expect("results");
    let pick = |prefix: &str| {
        entries
            .iter()
            .find(|e| str_of(e, "case").starts_with(prefix))
            .unwrap_or_else(|| panic!("no result vector whose case starts with {prefix:?}"))
    };
    let kinds = [
        ("valid", pick("valid: a structured answer (")),
        ("refused", pick("refused: invalid arguments")),
        ("handler error", pick("handler error")),
        ("invalid result", pick("invalid result")),
    ];
    let mut out = String::new();
    for dialect in Dialect::ALL {
        writeln!(out, "`{dialect}`:\n\n```json").unwrap();
        for (_, entry) in kinds {
            writeln!(out, "{}", expected(entry, dialect)).unwrap();
        }
        writeln!(out, "```\n").unwrap();
    }
    out.push_str("The results shown, in that order:\n\n");
    for (kind, entry) in kinds {
        let r = &entry["result"];
        let pointers: Vec<String> = r["violations"]
            .as_array()
            .expect("violations")
            .iter()
            .map(|v| format!("`{}`", str_of(v, "pointer")))
            .collect();
        let violations = if pointers.is_empty() {
            String::new()
        } else {
            format!(", violations at {}", pointers.join(", "))
        };
        writeln!(
            out,
            "- {kind}: call `{}` of `{}`, content `{}`{}{}{violations}",
            str_of(r, "call_id"),
            str_of(r, "name"),
            str_of(r, "content").replace('\n', "\\n"),
            if r["is_error"] == true {
                ", a failure"
            } else {
                ""
            },
            if r["structured"] == true {
                ", structured"
            } else {
                ""
            },
        )
        .unwrap();
    }
    out
}

#[test]
fn docs_examples_are_the_vectors() {
    let file = generated_doc::docs_file("dialects.md");
    if let Err(e) = generated_doc::check(&file, "call-results", &examples(), COMMAND) {
        panic!("{e}");
    }
}
