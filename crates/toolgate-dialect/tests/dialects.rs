//! The registry's dialect views: definitions per provider (exact bytes, computed once
//! per change, fingerprinted), the lint of the registered tools, and target dialects
//! that refuse a tool without changing what is registered.

use std::sync::Arc;

use toolgate_core::{RegisterErrorKind, Registry, RegistryOptions, ToolSpec};
use toolgate_dialect::{fingerprint, Dialect, RegistryExt, RegistryOptionsExt, Target};

fn spec(name: &str, parameters: &str) -> ToolSpec {
    ToolSpec {
        name: name.into(),
        description: format!("The {name} tool"),
        parameters: Some(parameters.as_bytes().to_vec()),
        idempotent: name == "read",
        timeout_ms: 0,
    }
}

fn register(registry: &Registry, spec: ToolSpec) -> Result<(), toolgate_core::RegisterError> {
    registry.register(
        spec,
        Box::new(|_: &[u8], _: usize| Ok(String::new())),
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
        (
            Dialect::Gemini,
            format!(
                r#"{{"functionDeclarations":[{{"name":"read","description":"The read tool","parametersJsonSchema":{CLOSED}}},{{"name":"write","description":"The write tool","parametersJsonSchema":{OPEN}}}]}}"#
            ),
        ),
    ];
    for (dialect, json) in expect {
        let defs = registry.definitions(dialect);
        assert_eq!(&**defs.json(), json, "{dialect}");
        assert_eq!(
            defs.fingerprint(),
            fingerprint(json.as_bytes()),
            "{dialect}"
        );
    }
}

#[test]
fn definitions_are_computed_once_per_change() {
    let registry = Registry::default();
    register(&registry, spec("read", CLOSED)).unwrap();
    let first = registry.definitions(Dialect::Mcp);
    let again = registry.definitions(Dialect::Mcp);
    // The same text, not an equal copy: nothing was rebuilt.
    assert!(Arc::ptr_eq(first.json(), again.json()));
    register(&registry, spec("write", OPEN)).unwrap();
    let changed = registry.definitions(Dialect::Mcp);
    assert_ne!(changed.fingerprint(), first.fingerprint());
    registry.unregister("write");
    let back = registry.definitions(Dialect::Mcp);
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
    let before = registry.definitions(Dialect::OpenAiChat);
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
            Box::new(|_: &[u8], _: usize| Ok(String::new())),
            true
        )
        .is_err());
    assert_eq!(registry.names(), ["read"]);
    assert_eq!(registry.definitions(Dialect::OpenAiChat), before);
    // With the strict targets, the strict dialects say so on every tool.
    assert!(
        before.json().ends_with(r#""strict":true}}]"#),
        "{}",
        before.json()
    );
    assert!(registry
        .definitions(Dialect::Anthropic)
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
    let handler =
        || -> Box<dyn toolgate_core::Handler> { Box::new(|_: &[u8], _: usize| Ok(String::new())) };
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
