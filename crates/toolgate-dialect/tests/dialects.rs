//! The registry's dialect views: definitions per provider (exact bytes, computed once
//! per change, fingerprinted), the lint of the registered tools, and target dialects
//! that refuse a tool without changing what is registered.

use std::sync::Arc;
use toolgate_core::CallContext;

use toolgate_core::{RegisterErrorKind, Registry, RegistryOptions, ToolSpec};
use toolgate_dialect::{fingerprint, Dialect, RegistryExt, RegistryOptionsExt, Target};

fn spec(name: &str, parameters: &str) -> ToolSpec {
    ToolSpec {
        name: name.into(),
        description: format!("The {name} tool"),
        parameters: Some(parameters.as_bytes().to_vec()),
        output_schema: None,
        idempotent: name == "read",
        timeout_ms: 0,
        exclusive: false,
    }
}

fn register(registry: &Registry, spec: ToolSpec) -> Result<(), toolgate_core::RegisterError> {
    registry.register(
        spec,
        Box::new(|_: &[u8], _: &CallContext| Ok(String::new())),
        false,
    )
}

const CLOSED: &str = r#"{"type":"object","properties":{"path":{"type":"string"}},"required":["path"],"additionalProperties":false}"#;
const OPEN: &str =
    r#"{"type":"object","properties":{"path":{"type":"string"},"n":{"type":"integer"}}}"#;

#[test]
fn definitions_per_dialect_exact_bytes() {
    let registry = Registry::default();
    register(&registry, spec("write", OPEN)).unwrap();
    register(&registry, spec("read", CLOSED)).unwrap();
    let expect = [
        (
            Dialect::OpenAiChat,
            format!(
                r#"[{{"type":"function","function":{{"name":"read","description":"The read tool","parameters":{CLOSED}}}}},{{"type":"function","function":{{"name":"write","description":"The write tool","parameters":{OPEN}}}}}]"#
            ),
        ),
        (
            Dialect::OpenAiResponses,
            format!(
                r#"[{{"type":"function","name":"read","description":"The read tool","parameters":{CLOSED}}},{{"type":"function","name":"write","description":"The write tool","parameters":{OPEN}}}]"#
            ),
        ),
        (
            Dialect::Anthropic,
            format!(
                r#"[{{"name":"read","description":"The read tool","input_schema":{CLOSED}}},{{"name":"write","description":"The write tool","input_schema":{OPEN}}}]"#
            ),
        ),
        (
            Dialect::Mcp,
            format!(
                r#"[{{"name":"read","description":"The read tool","inputSchema":{CLOSED},"annotations":{{"idempotentHint":true}}}},{{"name":"write","description":"The write tool","inputSchema":{OPEN},"annotations":{{"idempotentHint":false}}}}]"#
            ),
        ),
    ];
    for (dialect, json) in expect {
        let defs = registry.definitions(dialect).unwrap();
        assert_eq!(&**defs.json(), json, "{dialect}");
        assert_eq!(
            defs.fingerprint(),
            fingerprint(json.as_bytes()),
            "{dialect}"
        );
    }
    // Gemini's parametersJsonSchema takes JSON Schema as written, closed objects too.
    let json = format!(
        r#"{{"functionDeclarations":[{{"name":"read","description":"The read tool","parametersJsonSchema":{CLOSED}}},{{"name":"write","description":"The write tool","parametersJsonSchema":{OPEN}}}]}}"#
    );
    let defs = registry.definitions(Dialect::Gemini).unwrap();
    assert_eq!(&**defs.json(), json);
    assert_eq!(defs.fingerprint(), fingerprint(json.as_bytes()));
}

/// A dotted name is sent with `_` for each `.` to the providers that refuse dots (MCP
/// takes it as it is), and a call in that spelling reaches the registered tool; two
/// tools under one spelling refuse the definitions, naming both.
#[test]
fn dotted_names_are_rewritten_reversibly() {
    let registry = Registry::new(toolgate_core::NamePolicy::Mcp);
    registry
        .register(
            ToolSpec {
                name: "db.get_user".into(),
                ..ToolSpec::default()
            },
            Box::new(|args: &[u8], _: &CallContext| {
                Ok(format!("user {}", String::from_utf8_lossy(args)))
            }),
            false,
        )
        .unwrap();
    for dialect in [
        Dialect::OpenAiChat,
        Dialect::OpenAiResponses,
        Dialect::Anthropic,
        Dialect::Gemini,
    ] {
        let defs = registry.definitions(dialect).unwrap();
        assert!(
            defs.json().contains(r#""name":"db_get_user""#),
            "{dialect}: {}",
            defs.json()
        );
        assert!(
            !defs.json().contains("db.get_user"),
            "{dialect}: {}",
            defs.json()
        );
    }
    assert!(registry
        .definitions(Dialect::Mcp)
        .unwrap()
        .json()
        .contains(r#""name":"db.get_user""#));
    let call = registry.call("c1", "db_get_user", br#"{"id":1}"#);
    assert_eq!(call.content, r#"user {"id":1}"#);
    assert!(!call.is_error);
    assert_eq!(call.name, "db_get_user");
    assert!(registry.prepare("db_get_user", b"{}").is_ok());
    assert_eq!(
        registry.validate("db_get_user", b"[]").map(|e| e.len()),
        Some(1)
    );
    // Only a `.` becomes `_`: other near spellings stay unknown.
    assert!(registry.call("c2", "db-get_user", b"{}").is_error);

    // A tool registered under the spelling itself takes it over: the call reaches it,
    // and the definitions that would send both under one name are refused.
    register(&registry, spec("db_get_user", OPEN)).unwrap();
    assert_eq!(registry.call("c3", "db_get_user", b"{}").content, "");
    let refused = registry.definitions(Dialect::OpenAiChat).unwrap_err();
    assert_eq!(
        refused.message,
        "definitions for openai-chat refused:\n\
         db.get_user#: tool name \"db.get_user\" is written \"db_get_user\" for openai-chat, as tool \"db_get_user\" is: rename one [name-collision]\n\
         db_get_user#: tool name \"db_get_user\" is written \"db_get_user\" for openai-chat, as tool \"db.get_user\" is: rename one [name-collision]"
    );
    assert!(registry.definitions(Dialect::Mcp).is_ok());
}

#[test]
fn definitions_are_computed_once_per_change() {
    let registry = Registry::default();
    register(&registry, spec("read", CLOSED)).unwrap();
    let first = registry.definitions(Dialect::Mcp).unwrap();
    let again = registry.definitions(Dialect::Mcp).unwrap();
    // The same text, not an equal copy: nothing was rebuilt.
    assert!(Arc::ptr_eq(first.json(), again.json()));
    register(&registry, spec("write", OPEN)).unwrap();
    let changed = registry.definitions(Dialect::Mcp).unwrap();
    assert_ne!(changed.fingerprint(), first.fingerprint());
    registry.unregister("write");
    let back = registry.definitions(Dialect::Mcp).unwrap();
    assert!(!Arc::ptr_eq(back.json(), first.json()));
    assert_eq!(
        back, first,
        "the same tools give the same bytes and fingerprint"
    );
}

#[test]
fn lint_of_the_registry_is_sorted_by_tool() {
    let registry = Registry::default();
    register(&registry, spec("write", OPEN)).unwrap();
    register(&registry, spec("read", CLOSED)).unwrap();
    register(&registry, spec("append", OPEN)).unwrap();
    let lines: Vec<String> = registry
        .lint(Target::OpenAiStrict)
        .iter()
        .map(|p| format!("{} {} {}", p.tool, p.pointer, p.rule))
        .collect();
    assert_eq!(
        lines,
        [
            "append  additional-properties",
            "append /properties/n required-all",
            "append /properties/path required-all",
            "write  additional-properties",
            "write /properties/n required-all",
            "write /properties/path required-all",
        ]
    );
    assert!(registry
        .lint(Target::AnthropicStrict)
        .iter()
        .all(|p| p.tool != "read"));
}

#[test]
fn a_target_refuses_what_it_would_reject_and_keeps_what_is_registered() {
    let registry = Registry::with_options(
        RegistryOptions::default().with_targets([Target::OpenAiStrict, Target::AnthropicStrict]),
    );
    register(&registry, spec("read", CLOSED)).unwrap();
    let before = registry.definitions(Dialect::OpenAiChat).unwrap();
    let refused = register(&registry, spec("write", OPEN)).unwrap_err();
    let RegisterErrorKind::Refused(problems) = &refused.kind else {
        panic!("{refused:?}");
    };
    assert_eq!(problems.len(), 4, "{problems:?}");
    assert!(refused
        .message
        .starts_with("tool \"write\" is refused by openai-strict, anthropic-strict:\n"));
    assert!(refused.message.contains(
        "write#/properties/n: property \"n\" must be listed in \"required\" (to keep it optional, make it nullable) [required-all]"
    ));
    // Replacing a registered tool with one a target refuses leaves the old one.
    let mut replace = spec("read", OPEN);
    replace.description = "changed".into();
    assert!(registry
        .register(
            replace,
            Box::new(|_: &[u8], _: &CallContext| Ok(String::new())),
            true
        )
        .is_err());
    assert_eq!(registry.names(), ["read"]);
    assert_eq!(registry.definitions(Dialect::OpenAiChat).unwrap(), before);
    // With the strict targets, the strict dialects say so on every tool.
    assert!(
        before.json().ends_with(r#""strict":true}}]"#),
        "{}",
        before.json()
    );
    assert!(registry
        .definitions(Dialect::Anthropic)
        .unwrap()
        .json()
        .ends_with(r#""strict":true}]"#));
}

#[test]
fn a_bad_tool_name_for_a_target_is_refused() {
    let registry = Registry::with_options(
        RegistryOptions::default()
            .with_names(toolgate_core::NamePolicy::Mcp)
            .with_targets([Target::Gemini]),
    );
    let refused = register(&registry, spec("1st.tool", r#"{"type":"object"}"#)).unwrap_err();
    assert!(matches!(&refused.kind, RegisterErrorKind::Refused(p) if p[0].rule == "tool-name"));
    register(&registry, spec("first.tool", r#"{"type":"object"}"#)).unwrap();
    assert_eq!(registry.len(), 1);
}

#[test]
fn a_batch_is_refused_whole_when_a_target_rejects_one_of_its_tools() {
    let registry =
        Registry::with_options(RegistryOptions::default().with_targets([Target::OpenAiStrict]));
    register(&registry, spec("read", CLOSED)).unwrap();
    let handler = || -> Box<dyn toolgate_core::Handler> {
        Box::new(|_: &[u8], _: &CallContext| Ok(String::new()))
    };
    let refused = registry
        .register_batch(
            vec![
                (spec("fine", CLOSED), handler()),
                (spec("write", OPEN), handler()),
            ],
            false,
        )
        .unwrap_err();
    assert!(
        matches!(&refused.kind, RegisterErrorKind::Refused(p) if !p.is_empty()),
        "{refused:?}"
    );
    assert!(refused
        .message
        .starts_with("tool \"write\" is refused by openai-strict:\n"));
    assert_eq!(registry.names(), ["read"]);
    registry
        .register_batch(vec![(spec("fine", CLOSED), handler())], false)
        .unwrap();
    assert_eq!(registry.names(), ["fine", "read"]);
}

/// The texts of `tests/registry_texts.json` (which every host checks too): a cancelled
/// call, refused and renamed definitions, a strict conversion and its refusal.
#[test]
fn registry_texts_are_the_shared_ones() {
    use toolgate_dialect::{strict_parameters, strict_refusal};
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/registry_texts.json"
    );
    let cases: Vec<serde_json::Value> =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let text = |case: &serde_json::Value, key: &str| case[key].as_str().unwrap().to_owned();
    let registry_of = |case: &serde_json::Value| {
        let policy = match case["policy"].as_str().unwrap() {
            "default" => toolgate_core::NamePolicy::Default,
            "dotted" => toolgate_core::NamePolicy::Dotted,
            "mcp" => toolgate_core::NamePolicy::Mcp,
            other => panic!("policy {other}"),
        };
        let registry = Registry::new(policy);
        for tool in case["tools"].as_array().unwrap() {
            let spec = ToolSpec {
                name: tool["name"].as_str().unwrap().into(),
                parameters: Some(tool["parameters"].to_string().into_bytes()),
                ..ToolSpec::default()
            };
            register(&registry, spec).unwrap();
        }
        registry
    };
    let mut seen = std::collections::BTreeSet::new();
    for case in &cases {
        let what = text(case, "what");
        match what.as_str() {
            "call_cancelled" => assert_eq!(
                toolgate_core::registry::message::CALL_CANCELLED,
                text(case, "content")
            ),
            "definitions_refused" => {
                let dialect: Dialect = text(case, "dialect").parse().unwrap();
                let refused = registry_of(case).definitions(dialect).unwrap_err();
                assert_eq!(refused.message, text(case, "message"));
                assert_eq!(refused.problems[0].pointer, text(case, "pointer"));
                assert_eq!(refused.problems[0].rule, text(case, "keyword"));
            }
            "definitions_renamed" => {
                let dialect: Dialect = text(case, "dialect").parse().unwrap();
                let registry = registry_of(case);
                let defs = registry.definitions(dialect).unwrap();
                assert_eq!(&**defs.json(), text(case, "definitions"));
                assert!(!registry.call("c", &text(case, "call"), b"{}").is_error);
            }
            "strict_refused" => {
                let target: Target = text(case, "target").parse().unwrap();
                let problems = strict_parameters(target, &case["schema"].to_string()).unwrap_err();
                assert_eq!(strict_refusal(target, &problems), text(case, "message"));
                assert_eq!(problems[0].pointer, text(case, "pointer"));
                assert_eq!(problems[0].rule, text(case, "keyword"));
            }
            "strict_converted" => {
                let target: Target = text(case, "target").parse().unwrap();
                let converted = strict_parameters(target, &case["schema"].to_string()).unwrap();
                assert_eq!(converted.schema, text(case, "converted"));
                let list = |key: &str| -> Vec<String> {
                    case[key]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|p| p.as_str().unwrap().to_owned())
                        .collect()
                };
                assert_eq!(converted.nullable, list("nullable"));
                assert_eq!(converted.closed, list("closed"));
            }
            // The core's cases (output schemas): crates/toolgate-core/tests/output_schema.rs.
            "invalid_result" | "output_schema_refused" => continue,
            // The dispatcher's cases: crates/toolgate-core/tests/dispatch.rs.
            "dispatch" => continue,
            other => panic!("unknown case {other}"),
        }
        seen.insert(what);
    }
    assert_eq!(seen.len(), 5, "every kind of case is in the file: {seen:?}");
}

/// A dotted name is checked as the provider is sent it: a strict registry takes
/// `db.get_user` (sent as `db_get_user`), and its lint does not report the dot.
#[test]
fn targets_check_the_spelling_a_provider_is_sent() {
    let registry = Registry::with_options(
        RegistryOptions::default()
            .with_names(toolgate_core::NamePolicy::Dotted)
            .with_targets([Target::OpenAiStrict]),
    );
    register(&registry, spec("db.get_user", CLOSED)).unwrap();
    assert_eq!(registry.lint(Target::OpenAiStrict), []);
    let defs = registry.definitions(Dialect::OpenAiChat).unwrap();
    assert!(
        defs.json().contains(r#""name":"db_get_user""#),
        "{}",
        defs.json()
    );
    assert!(
        defs.json().ends_with(r#""strict":true}}]"#),
        "{}",
        defs.json()
    );
}

/// A tool's output schema is in MCP's definitions (`outputSchema`, as written) and in no
/// other dialect's, which have no field for it.
#[test]
fn output_schema_is_sent_to_mcp_only() {
    let registry = Registry::default();
    let output = r#"{"type":"object","properties":{"temp":{"type":"number"}},"required":["temp"]}"#;
    registry
        .register(
            ToolSpec {
                name: "weather".into(),
                output_schema: Some(output.as_bytes().to_vec()),
                ..ToolSpec::default()
            },
            Box::new(|_: &[u8], _: &CallContext| Ok(r#"{"temp":21}"#.to_string())),
            false,
        )
        .unwrap();
    let mcp = registry.definitions(Dialect::Mcp).unwrap();
    assert_eq!(
        &**mcp.json(),
        format!(
            r#"[{{"name":"weather","description":"","inputSchema":{{"type":"object"}},"outputSchema":{output},"annotations":{{"idempotentHint":false}}}}]"#
        )
    );
    for dialect in Dialect::ALL.into_iter().filter(|d| *d != Dialect::Mcp) {
        let defs = registry.definitions(dialect).unwrap();
        assert!(!defs.json().contains("temp"), "{dialect}: {}", defs.json());
    }
}
