//! The registration refusals of the shared file `tests/registration_refusals.json`,
//! checked against the core. The Go tests check the same file against the binding, so
//! a host shows the core's bytes for every refusal: the name policy, a duplicate, a
//! schema that does not compile and parameters that do not require an object.
//!
//! Each case registers `tool` with `parameters` (raw text; `null` for none) in a
//! registry of `policy` (`default`, `dotted`, `mcp`), after registering it once with no
//! parameters when `duplicate` is true, and expects the refusal of `kind` (`name`,
//! `duplicate`, `schema`, `not_object`) with exactly `message` (and, for `schema`,
//! `pointer` and `keyword` into the schema).

use serde_json::Value;
use toolgate_core::{CallContext, NamePolicy, RegisterErrorKind, Registry, ToolSpec};

fn spec(name: &str, parameters: Option<&str>) -> ToolSpec {
    ToolSpec {
        name: name.into(),
        parameters: parameters.map(|p| p.as_bytes().to_vec()),
        ..Default::default()
    }
}

#[test]
fn registration_refusals_are_the_shared_texts() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/registration_refusals.json"
    );
    let cases: Vec<Value> = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let mut kinds = std::collections::BTreeSet::new();
    let mut failures = Vec::new();
    for case in &cases {
        let field = |k: &str| case[k].as_str().unwrap_or_else(|| panic!("{case}: no {k}"));
        let policy = match field("policy") {
            "default" => NamePolicy::Default,
            "dotted" => NamePolicy::Dotted,
            "mcp" => NamePolicy::Mcp,
            other => panic!("unknown policy {other}"),
        };
        let registry = Registry::new(policy);
        let tool = field("tool");
        let handler = || Box::new(|_: &[u8], _: &CallContext| Ok(String::from("ran")));
        if case["duplicate"].as_bool().unwrap_or(false) {
            registry
                .register(spec(tool, None), handler(), false)
                .unwrap();
        }
        let refusal = registry
            .register(spec(tool, case["parameters"].as_str()), handler(), false)
            .expect_err(&format!("{case}: registered"));
        let (kind, pointer, keyword) = match &refusal.kind {
            RegisterErrorKind::InvalidName => ("name", "", ""),
            RegisterErrorKind::Duplicate => ("duplicate", "", ""),
            RegisterErrorKind::NotObject => ("not_object", "", ""),
            RegisterErrorKind::InvalidSchema(e) => {
                ("schema", e.pointer.as_str(), e.keyword.as_str())
            }
            // The table registers parameters only (tests/output_schema.rs has these).
            RegisterErrorKind::InvalidOutputSchema(e) => {
                ("output_schema", e.pointer.as_str(), e.keyword.as_str())
            }
            // The table's registries have no target dialects (tests/dialects.rs has them).
            RegisterErrorKind::Refused(p) => ("refused", p[0].pointer.as_str(), p[0].rule),
        };
        kinds.insert(kind);
        let want = (
            field("kind"),
            field("message"),
            case["pointer"].as_str().unwrap_or(""),
            case["keyword"].as_str().unwrap_or(""),
        );
        if (kind, refusal.message.as_str(), pointer, keyword) != want {
            failures.push(format!(
                "{tool:?}:\n  got  {:?}\n  want {want:?}",
                (kind, &refusal.message, pointer, keyword)
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_eq!(
        kinds.into_iter().collect::<Vec<_>>(),
        ["duplicate", "name", "not_object", "schema"],
        "every kind of refusal has a case"
    );
}
