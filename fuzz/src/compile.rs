//! Arbitrary bytes as a schema, under every profile: compiling answers (no panic; the
//! target's `-timeout` and `-rss_limit_mb` catch a hang or unbounded memory), a
//! refusal says where, and a schema that compiles validates a few fixed instances
//! with its invariants, recompiles from its own compact JSON to the same verdicts,
//! and registers as a tool exactly when it requires an object.

use toolgate_core::{
    CallContext, NamePolicy, Options, RegisterErrorKind, Registry, Schema, ToolSpec,
};

/// A profile's name and how to make its options.
pub type Profile = (&'static str, fn() -> Options);

/// The profiles every schema is compiled under. The full profile joins with one line.
pub const PROFILES: &[Profile] = &[("core", Options::default), ("full", full)];

fn full() -> Options {
    Options::default().with_profile(toolgate_core::Profile::Full)
}

/// Instances of every JSON type, and strings the common patterns and formats take.
pub const INSTANCES: &[&str] = &[
    "null",
    "true",
    "0",
    "-1.5",
    "1e400",
    "-9223372036854775808",
    r#""""#,
    r#""héllo""#,
    r#""2026-01-01T10:00:00Z""#,
    r#""a@b.example""#,
    "[]",
    r#"[1,"a",null,[true],{"x":2}]"#,
    "{}",
    r#"{"a":1,"b":"x","c":[{"d":null}],"name":"n","id":7}"#,
    "[[[[[[[[[[0]]]]]]]]]]",
];

/// Every check on one schema text. Panics on any disagreement.
pub fn check(data: &[u8]) {
    let doc = serde_json::from_slice::<serde_json::Value>(data).ok();
    for (profile, options) in PROFILES {
        let options = options();
        match Schema::compile_with(data, &options) {
            Ok(schema) => compiled(profile, &schema, &options, data),
            Err(e) => {
                assert!(!e.message.is_empty(), "{profile}: empty message");
                assert!(
                    crate::errors::parse_pointer(&e.pointer).is_some(),
                    "{profile}: bad pointer {e:?}"
                );
                // A refusal of a keyword points at something in the document.
                if let (Some(doc), false) = (&doc, e.keyword.is_empty()) {
                    assert!(
                        doc.pointer(&e.pointer).is_some(),
                        "{profile}: pointer not in the schema: {e:?}"
                    );
                }
            }
        }
    }
}

fn compiled(profile: &str, schema: &Schema, options: &Options, data: &[u8]) {
    let again = Schema::compile_with(schema.to_json().as_bytes(), options)
        .unwrap_or_else(|e| panic!("{profile}: its own JSON does not compile: {e:?}"));
    assert_eq!(again.to_json(), schema.to_json(), "{profile}: to_json");
    for instance in INSTANCES {
        let parsed: serde_json::Value = serde_json::from_str(instance).expect("fixed instance");
        let verdict = crate::errors::check_schema_on(schema, instance.as_bytes(), Some(&parsed));
        assert_eq!(
            again.is_valid(instance.as_bytes()),
            verdict,
            "{profile}: recompiled schema differs on {instance}"
        );
        assert_eq!(
            again.validate_json(instance.as_bytes()),
            schema.validate_json(instance.as_bytes()),
            "{profile}: recompiled schema's errors differ on {instance}"
        );
    }
    if profile == "core" {
        let registry = Registry::new(NamePolicy::Default);
        let spec = ToolSpec {
            name: "t".into(),
            parameters: Some(data.to_vec()),
            ..ToolSpec::default()
        };
        let handler = |_: &[u8], _: &CallContext| -> Result<String, String> { Ok(String::new()) };
        match registry.register(spec, Box::new(handler), false) {
            Ok(()) => assert!(schema.requires_object(), "registered a non-object schema"),
            Err(e) => assert!(
                e.kind == RegisterErrorKind::NotObject && !schema.requires_object(),
                "registry refused a compiled schema: {e:?}"
            ),
        }
    }
}
