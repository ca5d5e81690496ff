//! The lint rules table of `docs/dialects.md`, generated: each rule has an example
//! tool, the example is linted against every target, and the table shows which targets
//! report the rule and what they say. The test compares the table with the page's
//! generated block and fails when they differ; `TOOLGATE_BLESS=1` rewrites the block.
//!
//! The list must hold every rule the lint can report: the rule names are read from
//! `src/lint.rs` (the literals passed to its `push`) and compared with it, so a new
//! rule without a row fails here.

#[path = "../../toolgate-core/tests/support/generated_doc.rs"]
mod generated_doc;

use std::collections::BTreeSet;
use std::fmt::Write as _;

use toolgate_dialect::{lint_tool, Target};

const COMMAND: &str = "cargo test -p toolgate-dialect --test lint_rules_doc";

/// A closed object with one string property `a`: what every strict mode accepts, to
/// build examples that break one rule at a time.
const CLOSED: &str = r#"{"type":"object","properties":{"a":{"type":"string"}},"required":["a"],"additionalProperties":false}"#;

/// One rule: its name, what the providers require, an example tool (name, parameters),
/// where in the parameters the example breaks the rule, and how to show an example too
/// long to print.
struct Rule {
    rule: &'static str,
    requires: &'static str,
    name: &'static str,
    parameters: String,
    at: String,
    about: Option<&'static str>,
}

/// A closed object whose property `a` is `schema`.
fn with_property(schema: &str) -> String {
    format!(
        r#"{{"type":"object","properties":{{"a":{schema}}},"required":["a"],"additionalProperties":false}}"#
    )
}

fn rules() -> Vec<Rule> {
    let rule = |rule, requires, name, parameters: String| Rule {
        rule,
        requires,
        name,
        parameters,
        at: String::new(),
        about: None,
    };
    let at = |r: Rule, at: &str| Rule {
        at: at.to_string(),
        ..r
    };
    let about = |r: Rule, about: &'static str| Rule {
        about: Some(about),
        ..r
    };
    // Objects nested 11 levels deep, each closed.
    let mut deep = r#"{"type":"string"}"#.to_string();
    for _ in 0..11 {
        deep = with_property(&deep);
    }
    let many_properties = |count: usize, name_len: usize| {
        let names: Vec<String> = (0..count)
            .map(|i| format!("p{i:0>width$}", width = name_len.saturating_sub(1)))
            .collect();
        let props: Vec<String> = names
            .iter()
            .map(|n| format!(r#""{n}":{{"type":"string"}}"#))
            .collect();
        let required: Vec<String> = names.iter().map(|n| format!("\"{n}\"")).collect();
        format!(
            r#"{{"type":"object","properties":{{{}}},"required":[{}],"additionalProperties":false}}"#,
            props.join(","),
            required.join(",")
        )
    };
    let string_enum = |count: usize, len: usize| {
        let values: Vec<String> = (0..count)
            .map(|i| format!("\"v{i:0>width$}\"", width = len - 1))
            .collect();
        with_property(&format!(
            r#"{{"type":"string","enum":[{}]}}"#,
            values.join(",")
        ))
    };
    let nested = "/properties/a".repeat(10);
    vec![
        rule(
            "tool-name",
            "OpenAI and Anthropic: `^[a-zA-Z0-9_-]{1,64}$`; Gemini: a letter or `_`, then letters, digits, `_ . : -`, at most 64",
            "get weather",
            CLOSED.to_string(),
        ),
        rule(
            "json",
            "the parameters are JSON",
            "t",
            r#"{"type":"object",}"#.to_string(),
        ),
        rule(
            "root-object",
            "the root is `\"type\": \"object\"` and not `anyOf`",
            "t",
            format!(r#"{{"anyOf":[{CLOSED}]}}"#),
        ),
        rule(
            "additional-properties",
            "`\"additionalProperties\": false` on every object",
            "t",
            r#"{"type":"object","properties":{"a":{"type":"string"}},"required":["a"]}"#.to_string(),
        ),
        at(
            rule(
                "required-all",
                "every property listed in `required` (an optional one is written as required and nullable)",
                "t",
                r#"{"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":false}"#.to_string(),
            ),
            "/properties/a",
        ),
        at(
            rule(
                "unsupported-keyword",
                "only the keywords the provider documents",
                "t",
                with_property(r#"{"not":{"type":"string"}}"#),
            ),
            "/properties/a/not",
        ),
        at(
            rule(
                "unsupported-format",
                "only the formats the provider documents",
                "t",
                with_property(r#"{"type":"string","format":"uri-template"}"#),
            ),
            "/properties/a/format",
        ),
        at(
            rule(
                "boolean-schema",
                "no `true`/`false` subschemas",
                "t",
                with_property("true"),
            ),
            "/properties/a",
        ),
        about(
            rule(
                "total-properties",
                "at most 5,000 object properties in all",
                "t",
                many_properties(5001, 5),
            ),
            "an object of 5,001 string properties",
        ),
        about(
            at(
                rule(
                    "nesting-depth",
                    "at most 10 levels of object nesting",
                    "t",
                    deep,
                ),
                &nested,
            ),
            "objects nested 11 levels deep, each with the one property `a`",
        ),
        about(
            at(
                rule(
                    "enum-values",
                    "at most 1,000 enum values in all",
                    "t",
                    string_enum(1001, 4),
                ),
                "",
            ),
            "a property whose `enum` lists 1,001 strings",
        ),
        about(
            at(
                rule(
                    "enum-size",
                    "an enum of more than 250 strings has at most 15,000 characters",
                    "t",
                    string_enum(251, 60),
                ),
                "/properties/a/enum",
            ),
            "a property whose `enum` lists 251 strings of 60 characters",
        ),
        about(
            rule(
                "string-size",
                "at most 120,000 characters of property names, definition names, enum and const values",
                "t",
                many_properties(200, 700),
            ),
            "an object of 200 properties with names of 700 characters",
        ),
        at(
            rule(
                "external-ref",
                "references stay inside the schema (`#...`)",
                "t",
                with_property(r#"{"$ref":"https://example.com/a.json"}"#),
            ),
            "/properties/a/$ref",
        ),
        about(
            at(
                rule(
                    "recursive-ref",
                    "no recursive schemas",
                    "t",
                    r##"{"type":"object","properties":{"head":{"$ref":"#/$defs/node"}},"required":["head"],"additionalProperties":false,"$defs":{"node":{"type":"object","properties":{"next":{"anyOf":[{"$ref":"#/$defs/node"},{"type":"null"}]}},"required":["next"],"additionalProperties":false}}}"##.to_string(),
                ),
                "/$defs/node/properties/next/anyOf/0/$ref",
            ),
            "a linked list: `$defs/node` has a property `next` that is a node or null",
        ),
        at(
            rule(
                "min-items",
                "`minItems` only 0 or 1",
                "t",
                with_property(r#"{"type":"array","items":{"type":"string"},"minItems":2}"#),
            ),
            "/properties/a/minItems",
        ),
        at(
            rule(
                "pattern-feature",
                "no backreferences, lookaround or `\\b` in `pattern`",
                "t",
                with_property(r#"{"type":"string","pattern":"^(?!admin)"}"#),
            ),
            "/properties/a/pattern",
        ),
        at(
            rule(
                "enum-value",
                "Anthropic: enum values are strings, numbers, booleans or null; Gemini: strings",
                "t",
                with_property(r#"{"enum":[1,{"a":1}]}"#),
            ),
            "/properties/a/enum",
        ),
        at(
            rule(
                "type-list",
                "`type` is one type name (`nullable` for null)",
                "t",
                with_property(r#"{"type":["string","null"]}"#),
            ),
            "/properties/a/type",
        ),
    ]
}

/// Every rule name `src/lint.rs` passes to `push` (its second argument, a literal).
fn rules_in_source() -> BTreeSet<String> {
    let source = include_str!("../src/lint.rs");
    let mut out = BTreeSet::new();
    for (at, _) in source.match_indices("push(") {
        let rest = &source[at + "push(".len()..];
        // Skip the first argument: up to the comma at depth 0.
        let mut depth = 0i32;
        let mut in_string = false;
        let mut comma = None;
        let mut prev = ' ';
        for (i, c) in rest.char_indices() {
            match c {
                '"' if prev != '\\' => in_string = !in_string,
                _ if in_string => {}
                '(' | '[' | '{' => depth += 1,
                ')' | ']' | '}' if depth == 0 => break,
                ')' | ']' | '}' => depth -= 1,
                ',' if depth == 0 => {
                    comma = Some(i);
                    break;
                }
                _ => {}
            }
            prev = c;
        }
        let Some(comma) = comma else { continue };
        let second = rest[comma + 1..].trim_start();
        if let Some(literal) = second.strip_prefix('"') {
            let name = &literal[..literal.find('"').expect("a closed literal")];
            if !name.is_empty() && name.bytes().all(|b| b.is_ascii_lowercase() || b == b'-') {
                out.insert(name.to_string());
            }
        }
    }
    out
}

fn code(s: &str) -> String {
    format!("`{}`", s.replace('|', "\\|"))
}

fn table() -> String {
    let mut out = String::new();
    out.push_str("| rule | requires | targets | example | pointer | what the lint says |\n");
    out.push_str("|---|---|---|---|---|---|\n");
    for r in rules() {
        let mut messages: Vec<(Target, String)> = Vec::new();
        for target in Target::ALL {
            let found = lint_tool(target, r.name, &r.parameters);
            if let Some(p) = found.iter().find(|p| p.rule == r.rule && p.pointer == r.at) {
                messages.push((target, p.message.clone()));
            }
        }
        assert!(
            !messages.is_empty(),
            "the example of rule {} ({} with {}) is reported at {:?} by no target",
            r.rule,
            r.name,
            r.parameters,
            r.at
        );
        let same = messages.iter().all(|(_, m)| *m == messages[0].1);
        let message = if same {
            code(&messages[0].1)
        } else {
            messages
                .iter()
                .map(|(t, m)| format!("{}: {}", t.name(), code(m)))
                .collect::<Vec<_>>()
                .join("<br>")
        };
        let targets: Vec<&str> = messages.iter().map(|(t, _)| t.name()).collect();
        let mut example = match r.about {
            Some(about) => about.to_string(),
            None => code(&r.parameters),
        };
        if r.rule == "tool-name" {
            example = format!("the name {} (parameters {example})", code(r.name));
        }
        let _ = writeln!(
            out,
            "| `{}` | {} | {} | {} | {} | {} |",
            r.rule,
            r.requires,
            targets.join(", "),
            example,
            if r.at.is_empty() {
                "`\"\"`".to_string()
            } else {
                code(&r.at)
            },
            message
        );
    }
    out
}

#[test]
fn every_rule_of_the_lint_has_a_row() {
    let listed: BTreeSet<String> = rules().iter().map(|r| r.rule.to_string()).collect();
    let in_source = rules_in_source();
    assert!(
        in_source.len() >= 10,
        "read only {in_source:?} from src/lint.rs: has the way it reports problems changed?"
    );
    let missing: Vec<&String> = in_source.difference(&listed).collect();
    let stale: Vec<&String> = listed.difference(&in_source).collect();
    assert!(
        missing.is_empty() && stale.is_empty(),
        "rules in src/lint.rs without a row in tests/lint_rules_doc.rs: {missing:?}; rows for rules src/lint.rs no longer reports: {stale:?}"
    );
}

#[test]
fn docs_dialects_rules_are_what_the_lint_reports() {
    let file = generated_doc::docs_file("dialects.md");
    if let Err(e) = generated_doc::check(&file, "lint-rules", &table(), COMMAND) {
        panic!("{e}");
    }
}
