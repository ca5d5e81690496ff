//! Strict conversion: each rewrite's exact output, and each refusal.

use super::strict::strict_schema;
use super::Target::{AnthropicStrict, Gemini, OpenAiStrict};

fn rules_of(result: Result<super::StrictSchema, Vec<super::LintProblem>>) -> Vec<String> {
    result
        .expect_err("refused")
        .into_iter()
        .map(|p| format!("{} {}", p.pointer, p.rule))
        .collect()
}

#[test]
fn optional_becomes_required_and_nullable_and_objects_close() {
    let s = strict_schema(
        OpenAiStrict,
        "t",
        r#"{"type":"object","properties":{"q":{"type":"string"},"n":{"type":"integer","default":3},"mode":{"enum":["a","b"]}},"required":["q"]}"#,
    )
    .unwrap();
    assert_eq!(
        s.schema,
        r#"{"type":"object","properties":{"q":{"type":"string"},"n":{"type":["integer","null"]},"mode":{"anyOf":[{"enum":["a","b"]},{"type":"null"}]}},"required":["q","n","mode"],"additionalProperties":false}"#
    );
    assert_eq!(s.nullable, ["/properties/mode", "/properties/n"]);
    assert_eq!(s.closed, [""]);
}

#[test]
fn a_schema_that_passes_is_unchanged() {
    let clean = r#"{"type":"object","properties":{"a":{"type":"string"}},"required":["a"],"additionalProperties":false}"#;
    for target in [OpenAiStrict, AnthropicStrict] {
        let s = strict_schema(target, "t", clean).unwrap();
        assert_eq!(s.schema, clean);
        assert!(s.nullable.is_empty() && s.closed.is_empty());
    }
}

#[test]
fn anthropic_keeps_optional_properties() {
    let s = strict_schema(
        AnthropicStrict,
        "t",
        r#"{"type":"object","properties":{"a":{"type":"string"}}}"#,
    )
    .unwrap();
    assert_eq!(
        s.schema,
        r#"{"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":false}"#
    );
    assert!(s.nullable.is_empty());
}

#[test]
fn one_of_becomes_any_of_only_when_disjoint() {
    let tagged = r#"{"type":"object","properties":{"x":{"oneOf":[
        {"type":"object","properties":{"kind":{"const":"a"},"v":{"type":"string"}},"required":["kind","v"],"additionalProperties":false},
        {"type":"object","properties":{"kind":{"const":"b"}},"required":["kind"],"additionalProperties":false}]}},"required":["x"],"additionalProperties":false}"#;
    let s = strict_schema(OpenAiStrict, "t", tagged).unwrap();
    assert!(s.schema.contains(r#"{"x":{"anyOf":["#), "{}", s.schema);
    let typed = r#"{"type":"object","properties":{"x":{"oneOf":[{"type":"string"},{"type":"integer"}]}},"required":["x"],"additionalProperties":false}"#;
    assert!(strict_schema(OpenAiStrict, "t", typed)
        .unwrap()
        .schema
        .contains("anyOf"));
    // An integer is a number: both branches match 1.
    let overlapping = r#"{"type":"object","properties":{"x":{"oneOf":[{"type":"number"},{"type":"integer"}]}},"required":["x"],"additionalProperties":false}"#;
    assert!(rules_of(strict_schema(OpenAiStrict, "t", overlapping))
        .contains(&"/properties/x/oneOf one-of".to_string()));
    // The same const twice is no discriminator.
    let same = tagged.replace(r#"{"const":"b"}"#, r#"{"const":"a"}"#);
    assert!(rules_of(strict_schema(OpenAiStrict, "t", &same))
        .contains(&"/properties/x/oneOf one-of".to_string()));
}

#[test]
fn assertions_are_never_dropped() {
    // minLength is unsupported by OpenAI strict: it stays, and is the reason.
    let s =
        r#"{"type":"object","properties":{"a":{"type":"string","minLength":2}},"required":["a"]}"#;
    assert_eq!(
        rules_of(strict_schema(OpenAiStrict, "t", s)),
        ["/properties/a/minLength unsupported-keyword"]
    );
    // An open object whose extra properties have a schema cannot be closed.
    let open = r#"{"type":"object","additionalProperties":{"type":"string"}}"#;
    assert_eq!(
        rules_of(strict_schema(OpenAiStrict, "t", open)),
        [" additional-properties"]
    );
}

#[test]
fn annotations_are_dropped() {
    let s = strict_schema(
        OpenAiStrict,
        "t",
        r#"{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","x-internal":1,"examples":[{}],"$comment":"c","properties":{},"additionalProperties":false}"#,
    )
    .unwrap();
    assert_eq!(
        s.schema,
        r#"{"type":"object","properties":{},"additionalProperties":false}"#
    );
}

#[test]
fn gemini_spellings_and_inlined_references() {
    let s = strict_schema(
        Gemini,
        "t",
        r##"{"type":"object","properties":{"a":{"type":["string","null"]},"b":{"$ref":"#/$defs/b","description":"B"},"c":{"const":"x"}},"$defs":{"b":{"type":"integer","description":"inner"}}}"##,
    )
    .unwrap();
    assert_eq!(
        s.schema,
        r#"{"type":"object","properties":{"a":{"type":"string","nullable":true},"b":{"type":"integer","description":"B"},"c":{"enum":["x"]}}}"#
    );
    let recursive =
        r##"{"type":"object","properties":{"kids":{"type":"array","items":{"$ref":"#"}}}}"##;
    assert_eq!(
        rules_of(strict_schema(Gemini, "t", recursive)),
        ["/properties/kids/items/$ref recursive-ref"]
    );
    let siblings = r##"{"type":"object","properties":{"b":{"$ref":"#/$defs/b","minimum":1}},"$defs":{"b":{"type":"integer"}}}"##;
    assert_eq!(
        rules_of(strict_schema(Gemini, "t", siblings)),
        ["/properties/b/$ref ref-siblings"]
    );
}

#[test]
fn inlining_cannot_grow_exponentially() {
    // Each definition names the previous one twice: 2^30 copies if inlined.
    let mut defs = vec![r#""d0":{"type":"string"}"#.to_string()];
    for i in 1..30 {
        defs.push(format!(
            r##""d{i}":{{"type":"object","properties":{{"l":{{"$ref":"#/$defs/d{p}"}},"r":{{"$ref":"#/$defs/d{p}"}}}}}}"##,
            p = i - 1
        ));
    }
    let schema = format!(
        r##"{{"type":"object","properties":{{"top":{{"$ref":"#/$defs/d29"}}}},"$defs":{{{}}}}}"##,
        defs.join(",")
    );
    let rules = rules_of(strict_schema(Gemini, "t", &schema));
    assert_eq!(rules.len(), 1, "{rules:?}");
    assert!(rules[0].ends_with(" inline-size"), "{rules:?}");
}
