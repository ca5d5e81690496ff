//! docs/limits.md lists every limit a host can hit with its refusal text; each text
//! quoted there is checked here against what the library produces for an input just
//! over that limit, so the page cannot drift from the library.
//!
//! A row's last cell is the refusal text in backticks, with placeholders in angle
//! brackets (`<name>`, `<n>`, ...); the probe for that row (found by the row's first
//! cell) gives the text the library produced and the placeholders' values for it.

use toolgate_core::{
    CallContext, NamePolicy, Options, Profile, Registry, RegistryOptions, Schema, ToolSpec,
};

/// A tool `name` with these parameters, in `registry`; the refusal text if refused.
fn register(registry: &Registry, name: &str, parameters: &str) -> Result<(), String> {
    let spec = ToolSpec {
        name: name.to_string(),
        description: String::new(),
        parameters: Some(parameters.as_bytes().to_vec()),
        output_schema: None,
        idempotent: false,
        timeout_ms: 0,
        exclusive: false,
    };
    let handler = |_: &[u8], _: &CallContext| -> Result<String, String> { Ok("ok".into()) };
    registry
        .register(spec, Box::new(handler), false)
        .map_err(|e| e.message)
}

fn full() -> Registry {
    Registry::with_options(
        RegistryOptions::default()
            .with_schema_options(Options::default().with_profile(Profile::Full)),
    )
}

/// The refusal a schema with this `pattern` gets at registration.
fn pattern_refusal(pattern: &str) -> String {
    let schema = serde_json::json!({
        "type": "object",
        "properties": {"p": {"type": "string", "pattern": pattern}}
    });
    register(
        &Registry::new(NamePolicy::Default),
        "t",
        &schema.to_string(),
    )
    .unwrap_err()
}

/// `depth` arrays nested around `0`.
fn nested(depth: usize) -> String {
    format!("{}0{}", "[".repeat(depth), "]".repeat(depth))
}

type Probe = (String, Vec<(&'static str, String)>);

/// What the library says just over the limit named `limit`, and the placeholders'
/// values in it.
fn probe(limit: &str) -> Option<Probe> {
    let name = |n: &str| ("<name>", n.to_string());
    Some(match limit {
        "Argument bytes" => {
            let registry = Registry::new(NamePolicy::Default);
            register(&registry, "t", r#"{"type":"object"}"#).unwrap();
            let limit = RegistryOptions::DEFAULT_MAX_ARGUMENT_BYTES;
            let args = format!("{{}}{}", " ".repeat(limit - 1));
            let content = registry.call("c", "t", args.as_bytes()).content;
            let n = args.len().to_string();
            (
                content,
                vec![name("t"), ("<n>", n), ("<limit>", limit.to_string())],
            )
        }
        "Argument nesting" => {
            let registry = Registry::new(NamePolicy::Default);
            register(&registry, "t", r#"{"type":"object"}"#).unwrap();
            let args = format!(r#"{{"a":{}}}"#, nested(Options::DEFAULT_MAX_DEPTH));
            let content = registry.call("c", "t", args.as_bytes()).content;
            // `{"a":` then the arrays: the one past the limit is the 128th `[`.
            let column = (5 + Options::DEFAULT_MAX_DEPTH).to_string();
            let limit = Options::DEFAULT_MAX_DEPTH.to_string();
            let at = vec![
                ("<line>", "1".into()),
                ("<column>", column),
                ("<limit>", limit),
            ];
            (content, [vec![name("t")], at].concat())
        }
        "Schema nesting" => {
            let mut schema = r#"{"type":"object"}"#.to_string();
            for _ in 0..Options::DEFAULT_MAX_DEPTH {
                schema = format!(r#"{{"type":"object","properties":{{"a":{schema}}}}}"#);
            }
            let refusal = register(&Registry::new(NamePolicy::Default), "t", &schema);
            // Each level of `{"type":"object","properties":{"a":` (35 bytes) opens two
            // objects: the one past the limit opens level 65, at its first byte.
            let column = (35 * Options::DEFAULT_MAX_DEPTH / 2 + 1).to_string();
            let limit = Options::DEFAULT_MAX_DEPTH.to_string();
            let at = vec![
                ("<line>", "1".into()),
                ("<column>", column),
                ("<limit>", limit),
            ];
            (refusal.unwrap_err(), [vec![name("t")], at].concat())
        }
        "Alternatives" => {
            let branches = vec![r#"{"type":"integer"}"#; 4097].join(",");
            let schema = format!(r#"{{"anyOf":[{branches}]}}"#);
            let schema = format!(r#"{{"type":"object","properties":{{"a":{schema}}}}}"#);
            let refusal = register(&full(), "t", &schema).unwrap_err();
            (refusal, vec![name("t"), ("<limit>", "4096".into())])
        }
        "Pattern size" => {
            let pattern = r"^\p{L}{1,64}@\p{L}{1,64}$";
            let quoted = serde_json::Value::String(pattern.into()).to_string();
            (
                pattern_refusal(pattern),
                vec![name("t"), ("<pattern>", quoted)],
            )
        }
        "Pattern sets" => {
            let pattern = r"[\p{L}\P{L}]".repeat(1200);
            let quoted = serde_json::Value::String(pattern.clone()).to_string();
            (
                pattern_refusal(&pattern),
                vec![name("t"), ("<pattern>", quoted)],
            )
        }
        "Pattern nesting" => {
            let pattern = format!("{}a{}", "(?:b|".repeat(101), ")".repeat(101));
            let quoted = serde_json::Value::String(pattern.clone()).to_string();
            (
                pattern_refusal(&pattern),
                vec![name("t"), ("<pattern>", quoted)],
            )
        }
        "`multipleOf` exponent" => {
            let schema =
                r#"{"type":"object","properties":{"a":{"multipleOf":1e-10000000000000000000}}}"#;
            (register(&full(), "t", schema).unwrap_err(), vec![name("t")])
        }
        "Tool name (default policy)" | "Tool name (dotted policy)" | "Tool name (MCP policy)" => {
            let (policy, over) = match limit {
                "Tool name (default policy)" => (NamePolicy::Default, 65),
                "Tool name (dotted policy)" => (NamePolicy::Dotted, 65),
                _ => (NamePolicy::Mcp, 129),
            };
            let long = "a".repeat(over);
            let refusal = register(&Registry::new(policy), &long, r#"{"type":"object"}"#);
            let quoted = serde_json::Value::String(long).to_string();
            (refusal.unwrap_err(), vec![("<quoted name>", quoted)])
        }
        _ => return None,
    })
}

/// The table's rows: (first cell, last cell), header and rule left out.
fn rows(page: &str) -> Vec<(String, String)> {
    page.lines()
        .filter(|l| l.starts_with('|') && !l.starts_with("|---") && !l.starts_with("| Limit "))
        .map(|l| {
            let cells: Vec<&str> = l.trim_matches('|').split(" | ").map(str::trim).collect();
            (cells[0].to_string(), cells[cells.len() - 1].to_string())
        })
        .collect()
}

#[test]
fn every_refusal_text_in_the_limits_page_is_the_librarys() {
    let page =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/limits.md"))
            .expect("docs/limits.md");
    let rows = rows(&page);
    assert!(rows.len() >= 10, "{} rows", rows.len());
    for (limit, text) in &rows {
        let template = text
            .strip_prefix('`')
            .and_then(|t| t.strip_suffix('`'))
            .unwrap_or_else(|| panic!("{limit}: the refusal text is one code span: {text}"));
        let Some((actual, values)) = probe(limit) else {
            panic!("no probe for the limit {limit:?}: add one here");
        };
        let mut want = template.to_string();
        for (placeholder, value) in &values {
            assert!(
                want.contains(placeholder),
                "{limit}: {placeholder} not in {template}"
            );
            want = want.replace(placeholder, value);
        }
        assert_eq!(actual, want, "{limit}: the page says {template}");
    }
}

/// The probes cover what the rows name and nothing else: a limit removed from the
/// page must go from here too.
#[test]
fn every_probe_has_its_row() {
    let page =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/limits.md"))
            .expect("docs/limits.md");
    let named: Vec<String> = rows(&page).into_iter().map(|(l, _)| l).collect();
    for limit in [
        "Argument bytes",
        "Argument nesting",
        "Schema nesting",
        "Alternatives",
        "Pattern size",
        "Pattern sets",
        "Pattern nesting",
        "`multipleOf` exponent",
        "Tool name (default policy)",
        "Tool name (dotted policy)",
        "Tool name (MCP policy)",
    ] {
        assert!(probe(limit).is_some(), "{limit}");
        assert!(named.iter().any(|n| n == limit), "{limit} has no row");
    }
}

/// A schema compiled on its own (no registry) is refused with the same text after
/// the pointer; this is what the page's schema rows say for `Schema::compile_with`.
#[test]
fn schema_compile_refusals_match_the_registrys() {
    let error = Schema::compile_with(
        br#"{"pattern":"^\\p{L}{1,64}@\\p{L}{1,64}$"}"#,
        &Options::default(),
    )
    .unwrap_err();
    assert!(
        error.to_string().ends_with("pattern is too large"),
        "{error}"
    );
}
