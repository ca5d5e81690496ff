//! A failing and a passing case for every lint rule.

use super::lint::lint_tool;
use super::Target::{self, AnthropicStrict, Gemini, OpenAiStrict};

/// The rules `target` reports for `schema` (tool `ok`), as `pointer rule` lines.
fn rules(target: Target, schema: &str) -> Vec<String> {
    lint_tool(target, "ok", schema)
        .into_iter()
        .map(|p| format!("{} {}", p.pointer, p.rule))
        .collect()
}

/// A schema each target accepts as it is.
const CLEAN_OPENAI: &str = r#"{"type":"object","properties":{"a":{"type":["string","null"],"format":"date"}},"required":["a"],"additionalProperties":false}"#;

fn has(target: Target, schema: &str, line: &str) -> bool {
    rules(target, schema).iter().any(|l| l == line)
}

#[test]
fn clean_schemas_pass() {
    assert_eq!(rules(OpenAiStrict, CLEAN_OPENAI), Vec::<String>::new());
    assert_eq!(
        rules(
            AnthropicStrict,
            r#"{"type":"object","properties":{"a":{"type":"string","format":"uri"}},"additionalProperties":false}"#
        ),
        Vec::<String>::new()
    );
    assert_eq!(
        rules(
            Gemini,
            r#"{"type":"object","properties":{"a":{"type":"integer","format":"int32","nullable":true,"minimum":0}},"required":["a"]}"#
        ),
        Vec::<String>::new()
    );
}

#[test]
fn tool_name() {
    for t in Target::ALL {
        let name_rules = |name: &str| {
            lint_tool(t, name, r#"{"type":"object"}"#)
                .into_iter()
                .filter(|p| p.rule == "tool-name")
                .count()
        };
        assert_eq!(name_rules("get_user-2"), 0, "{t}");
        assert_eq!(name_rules("a b"), 1, "{t}");
    }
    // Gemini also takes dots and colons, but not a leading digit.
    assert!(Gemini.accepts_name("ns:get.user"));
    assert!(!OpenAiStrict.accepts_name("ns:get.user"));
    assert!(!Gemini.accepts_name("1tool"));
    assert!(OpenAiStrict.accepts_name("1tool"));
    assert!(!Gemini.accepts_name(&"a".repeat(65)));
    assert!(Gemini.accepts_name(&"a".repeat(64)));
}

#[test]
fn root_object() {
    assert!(has(
        OpenAiStrict,
        r#"{"anyOf":[{"type":"object","additionalProperties":false}]}"#,
        " root-object"
    ));
    assert!(!has(OpenAiStrict, CLEAN_OPENAI, " root-object"));
}

#[test]
fn additional_properties() {
    let open = r#"{"type":"object","properties":{"o":{"type":"object","additionalProperties":false}},"required":["o"]}"#;
    for t in [OpenAiStrict, AnthropicStrict] {
        assert!(has(t, open, " additional-properties"), "{t}");
        assert!(!has(t, open, "/properties/o additional-properties"), "{t}");
    }
    assert!(!has(Gemini, open, " additional-properties"));
}

#[test]
fn required_all() {
    let optional = r#"{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"string"}},"required":["a"],"additionalProperties":false}"#;
    assert_eq!(
        rules(OpenAiStrict, optional),
        vec!["/properties/b required-all"]
    );
    assert!(rules(AnthropicStrict, optional).is_empty());
}

#[test]
fn unsupported_keyword() {
    let s = r#"{"type":"object","properties":{"a":{"type":"string","minLength":1}},"required":["a"],"additionalProperties":false}"#;
    assert!(has(
        OpenAiStrict,
        s,
        "/properties/a/minLength unsupported-keyword"
    ));
    assert!(has(
        AnthropicStrict,
        s,
        "/properties/a/minLength unsupported-keyword"
    ));
    assert!(!has(
        Gemini,
        s,
        "/properties/a/minLength unsupported-keyword"
    ));
    assert!(has(Gemini, s, "/additionalProperties unsupported-keyword"));
    let all_of = r#"{"type":"object","allOf":[],"additionalProperties":false}"#;
    assert!(has(OpenAiStrict, all_of, "/allOf unsupported-keyword"));
    assert!(!has(AnthropicStrict, all_of, "/allOf unsupported-keyword"));
}

#[test]
fn unsupported_format() {
    let with = |f: &str| {
        format!(
            r#"{{"type":"object","properties":{{"a":{{"type":"string","format":"{f}"}}}},"required":["a"],"additionalProperties":false}}"#
        )
    };
    assert!(has(
        OpenAiStrict,
        &with("uri"),
        "/properties/a/format unsupported-format"
    ));
    assert!(!has(
        AnthropicStrict,
        &with("uri"),
        "/properties/a/format unsupported-format"
    ));
    assert!(!has(
        OpenAiStrict,
        &with("uuid"),
        "/properties/a/format unsupported-format"
    ));
    assert!(has(
        Gemini,
        &with("uuid"),
        "/properties/a/format unsupported-format"
    ));
    assert!(!has(
        Gemini,
        &with("date-time"),
        "/properties/a/format unsupported-format"
    ));
}

#[test]
fn boolean_schema() {
    let s = r#"{"type":"object","properties":{"a":true},"required":["a"],"additionalProperties":false}"#;
    for t in Target::ALL {
        assert!(has(t, s, "/properties/a boolean-schema"), "{t}");
        assert!(!has(t, CLEAN_OPENAI, "/properties/a boolean-schema"), "{t}");
    }
}

/// An object with `n` required string properties.
fn wide(n: usize) -> String {
    let props: Vec<String> = (0..n)
        .map(|i| format!(r#""p{i}":{{"type":"string"}}"#))
        .collect();
    let names: Vec<String> = (0..n).map(|i| format!(r#""p{i}""#)).collect();
    format!(
        r#"{{"type":"object","properties":{{{}}},"required":[{}],"additionalProperties":false}}"#,
        props.join(","),
        names.join(",")
    )
}

#[test]
fn total_properties() {
    assert!(has(OpenAiStrict, &wide(5_001), " total-properties"));
    assert!(!has(OpenAiStrict, &wide(5_000), " total-properties"));
}

/// Objects nested `levels` deep, the root counting as one.
fn nested(levels: usize) -> String {
    let mut s = r#"{"type":"object","additionalProperties":false}"#.to_string();
    for _ in 1..levels {
        s = format!(
            r#"{{"type":"object","properties":{{"n":{s}}},"required":["n"],"additionalProperties":false}}"#
        );
    }
    s
}

#[test]
fn nesting_depth() {
    assert!(!has(OpenAiStrict, &nested(10), " nesting-depth"));
    let deep = rules(OpenAiStrict, &nested(11));
    assert_eq!(
        deep.iter().filter(|l| l.ends_with("nesting-depth")).count(),
        1,
        "{deep:?}"
    );
}

fn with_enum(values: &[String]) -> String {
    format!(
        r#"{{"type":"object","properties":{{"e":{{"type":"string","enum":[{}]}}}},"required":["e"],"additionalProperties":false}}"#,
        values
            .iter()
            .map(|v| format!("\"{v}\""))
            .collect::<Vec<_>>()
            .join(",")
    )
}

#[test]
fn enum_values() {
    let values = |n: usize| (0..n).map(|i| format!("v{i}")).collect::<Vec<_>>();
    assert!(has(
        OpenAiStrict,
        &with_enum(&values(1_001)),
        " enum-values"
    ));
    assert!(!has(
        OpenAiStrict,
        &with_enum(&values(1_000)),
        " enum-values"
    ));
}

#[test]
fn enum_size() {
    // 251 values of 60 characters: 15,060 characters; 250 of them are allowed any size.
    let long = |n: usize| (0..n).map(|i| format!("{i:060}")).collect::<Vec<_>>();
    assert!(has(
        OpenAiStrict,
        &with_enum(&long(251)),
        "/properties/e/enum enum-size"
    ));
    assert!(!has(
        OpenAiStrict,
        &with_enum(&long(250)),
        "/properties/e/enum enum-size"
    ));
}

#[test]
fn string_size() {
    // 900 values of 140 characters: 126,000 characters, under the 1,000-value limit.
    let long: Vec<String> = (0..200).map(|i| format!("{i:0600}")).collect();
    assert!(has(OpenAiStrict, &with_enum(&long), " string-size"));
    let short: Vec<String> = (0..200).map(|i| format!("{i:0500}")).collect();
    assert!(!has(OpenAiStrict, &with_enum(&short), " string-size"));
}

#[test]
fn external_ref() {
    let s = |r: &str| {
        format!(
            r##"{{"type":"object","properties":{{"a":{{"$ref":"{r}"}}}},"required":["a"],"additionalProperties":false,"$defs":{{"x":{{"type":"string"}}}}}}"##
        )
    };
    for t in [OpenAiStrict, AnthropicStrict] {
        assert!(
            has(
                t,
                &s("https://example.com/a.json"),
                "/properties/a/$ref external-ref"
            ),
            "{t}"
        );
        assert!(
            !has(t, &s("#/$defs/x"), "/properties/a/$ref external-ref"),
            "{t}"
        );
    }
}

#[test]
fn recursive_ref() {
    let tree = r##"{"type":"object","properties":{"kids":{"type":"array","items":{"$ref":"#"}}},"additionalProperties":false}"##;
    assert!(has(
        AnthropicStrict,
        tree,
        "/properties/kids/items/$ref recursive-ref"
    ));
    // Through two definitions.
    let pair = r##"{"type":"object","properties":{"a":{"$ref":"#/$defs/a"}},"additionalProperties":false,"$defs":{"a":{"type":"object","properties":{"b":{"$ref":"#/$defs/b"}},"additionalProperties":false},"b":{"type":"object","properties":{"a":{"$ref":"#/$defs/a"}},"additionalProperties":false}}}"##;
    assert!(has(
        AnthropicStrict,
        pair,
        "/$defs/a/properties/b/$ref recursive-ref"
    ));
    let flat = r##"{"type":"object","properties":{"a":{"$ref":"#/$defs/a"},"b":{"$ref":"#/$defs/a"}},"additionalProperties":false,"$defs":{"a":{"type":"string"}}}"##;
    assert!(
        rules(AnthropicStrict, flat).is_empty(),
        "{:?}",
        rules(AnthropicStrict, flat)
    );
}

#[test]
fn min_items() {
    let s = |n: u32| {
        format!(
            r#"{{"type":"object","properties":{{"a":{{"type":"array","minItems":{n}}}}},"additionalProperties":false}}"#
        )
    };
    assert!(has(
        AnthropicStrict,
        &s(2),
        "/properties/a/minItems min-items"
    ));
    assert!(!has(
        AnthropicStrict,
        &s(1),
        "/properties/a/minItems min-items"
    ));
}

#[test]
fn enum_value() {
    let s = |values: &str| {
        format!(
            r#"{{"type":"object","properties":{{"a":{{"enum":{values}}}}},"additionalProperties":false}}"#
        )
    };
    assert!(has(
        AnthropicStrict,
        &s(r#"[{"x":1}]"#),
        "/properties/a/enum enum-value"
    ));
    assert!(!has(
        AnthropicStrict,
        &s(r#"[1,"a",null]"#),
        "/properties/a/enum enum-value"
    ));
    assert!(has(
        Gemini,
        &s(r#"[1,"a"]"#),
        "/properties/a/enum enum-value"
    ));
    assert!(!has(
        Gemini,
        &s(r#"["a","b"]"#),
        "/properties/a/enum enum-value"
    ));
}

#[test]
fn pattern_feature() {
    let s = |p: &str| {
        format!(
            r#"{{"type":"object","properties":{{"a":{{"type":"string","pattern":"{p}"}}}},"additionalProperties":false}}"#
        )
    };
    for p in [r"(a)\\1", r"\\bword", "a(?=b)", "(?<!x)y"] {
        assert!(
            has(
                AnthropicStrict,
                &s(p),
                "/properties/a/pattern pattern-feature"
            ),
            "{p}"
        );
    }
    assert!(!has(
        AnthropicStrict,
        &s(r"^[a-z]+\\d$"),
        "/properties/a/pattern pattern-feature"
    ));
}

#[test]
fn type_list() {
    let s = |t: &str| format!(r#"{{"type":"object","properties":{{"a":{{"type":{t}}}}}}}"#);
    assert!(has(
        Gemini,
        &s(r#"["string","null"]"#),
        "/properties/a/type type-list"
    ));
    assert!(has(Gemini, &s(r#""text""#), "/properties/a/type type-list"));
    assert!(!has(
        Gemini,
        &s(r#""string""#),
        "/properties/a/type type-list"
    ));
}

#[test]
fn problems_are_sorted_and_name_the_tool() {
    let problems = lint_tool(
        OpenAiStrict,
        "t",
        r#"{"type":"object","properties":{"b":{"type":"string"},"a":{"type":"string"}}}"#,
    );
    let lines: Vec<String> = problems.iter().map(|p| p.line()).collect();
    assert_eq!(
        lines,
        [
            "t#: an object must set \"additionalProperties\": false [additional-properties]",
            "t#/properties/a: property \"a\" must be listed in \"required\" (to keep it optional, make it nullable) [required-all]",
            "t#/properties/b: property \"b\" must be listed in \"required\" (to keep it optional, make it nullable) [required-all]",
        ]
    );
}

#[test]
fn bad_json_is_one_problem() {
    let problems = lint_tool(OpenAiStrict, "t", "{");
    assert_eq!(problems.len(), 1);
    assert_eq!(problems[0].rule, "json");
    assert!(problems[0]
        .message
        .starts_with("parameters are not valid JSON: "));
}

#[test]
fn subschemas_are_found_where_the_core_says_any_draft_holds_them() {
    // contentSchema (2020-12) and dependencies (draft-07) hold schemas too; a list of
    // names under dependencies is data, not a schema.
    let schema = r#"{"type":"object","properties":{"a":{"type":"string","contentSchema":{"type":"object"}}},"dependencies":{"a":{"type":"object"},"b":["a"]},"required":["a"],"additionalProperties":false}"#;
    assert!(has(
        OpenAiStrict,
        schema,
        "/properties/a/contentSchema additional-properties"
    ));
    assert!(has(
        OpenAiStrict,
        schema,
        "/dependencies/a additional-properties"
    ));
    assert!(!rules(OpenAiStrict, schema)
        .iter()
        .any(|l| l.starts_with("/dependencies/b")));
}
