//! Output schemas: what a tool returns is checked too. A conforming answer is passed on
//! byte for byte and marked structured; any other (malformed, too long, invalid) is an
//! error of its own outcome whose content lists the violations, the answer kept for the
//! host; a handler's error is never checked. Every call path (call, call_into,
//! outcome_into, prepare) applies the same rule.

use toolgate_core::registry::CallRefusalKind;
use toolgate_core::CallContext;
use toolgate_core::{
    CallOutcome, CallResult, Handler, RegisterErrorKind, Registry, RegistryOptions, Status,
    ToolSpec, ValidationError,
};

const FORECAST_OUTPUT: &str = r#"{"type": "object",
 "properties": {"high": {"type": "integer"}, "sky": {"enum": ["sun", "rain"]}},
 "required": ["high"], "additionalProperties": false}"#;

fn spec(name: &str, output: Option<&str>) -> ToolSpec {
    ToolSpec {
        name: name.to_owned(),
        output_schema: output.map(|o| o.as_bytes().to_vec()),
        ..ToolSpec::default()
    }
}

/// A tool whose handler answers with `answer` (its arguments ignored).
fn answering(registry: &Registry, name: &str, output: Option<&str>, answer: &'static str) {
    let handler = move |_: &[u8], _: &CallContext| Ok(answer.to_owned());
    registry
        .register(spec(name, output), Box::new(handler), false)
        .unwrap();
}

#[test]
fn a_conforming_answer_is_passed_on_byte_for_byte_and_structured() {
    let registry = Registry::default();
    let answer = "{ \"high\" : 21,\n \"sky\": \"sun\" }";
    answering(&registry, "forecast", Some(FORECAST_OUTPUT), answer);
    let result = registry.call("c1", "forecast", b"{}");
    assert_eq!(result.content, answer);
    assert_eq!(result.outcome, CallOutcome::Answered);
    assert!(result.structured && !result.is_error);
    assert!(result.violations.is_empty() && result.invalid_result.is_none());
}

#[test]
fn a_tool_without_output_schema_answers_unchecked_and_unstructured() {
    let registry = Registry::default();
    answering(&registry, "free", None, "not json at all");
    let result = registry.call("c1", "free", b"{}");
    assert_eq!(result.content, "not json at all");
    assert_eq!(result.outcome, CallOutcome::Answered);
    assert!(!result.structured && !result.is_error);
}

#[test]
fn an_invalid_answer_is_refused_with_every_violation_and_kept_for_the_host() {
    let registry = Registry::default();
    let answer = r#"{"high":"warm","sky":"snow","wind":3}"#;
    answering(&registry, "forecast", Some(FORECAST_OUTPUT), answer);
    let result = registry.call("c1", "forecast", b"{}");
    assert_eq!(
        result.content,
        "error: tool forecast returned an invalid result:\n\
         $: unexpected property \"wind\"\n\
         $.high: expected integer, got string\n\
         $.sky: \"snow\" is not one of [\"sun\",\"rain\"]"
    );
    assert_eq!(result.outcome, CallOutcome::InvalidResult);
    assert!(result.is_error && !result.structured);
    assert_eq!(result.invalid_result.as_deref(), Some(answer));
    let keywords: Vec<&str> = result.violations.iter().map(|v| v.keyword).collect();
    assert_eq!(keywords, ["additionalProperties", "type", "enum"]);
    let locations: Vec<&str> = result
        .violations
        .iter()
        .map(|v| v.schema_location.as_str())
        .collect();
    assert_eq!(
        locations,
        [
            "#/additionalProperties",
            "#/properties/high/type",
            "#/properties/sky/enum"
        ]
    );
}

#[test]
fn a_malformed_or_empty_answer_is_refused_on_one_line() {
    let registry = Registry::default();
    answering(&registry, "bad", Some(r#"{"type":"object"}"#), "{'high':1}");
    answering(&registry, "empty", Some(r#"{"type":"object"}"#), "");
    let bad = registry.call("c1", "bad", b"{}");
    assert_eq!(
        bad.content,
        "error: tool bad returned an invalid result: malformed JSON at line 1 column 2: \
         expected a property name in double quotes, found '''"
    );
    assert_eq!(bad.outcome, CallOutcome::InvalidResult);
    assert_eq!(bad.violations[0].keyword, "json");
    assert_eq!(bad.violations[0].schema_location, "#");
    let empty = registry.call("c2", "empty", b"{}");
    assert_eq!(
        empty.content,
        "error: tool empty returned an invalid result: malformed JSON at line 1 column 1: \
         unexpected end of input"
    );
    assert_eq!(empty.invalid_result.as_deref(), Some(""));
}

#[test]
fn an_answer_over_the_size_limit_is_refused_unread() {
    let registry = Registry::with_options(RegistryOptions::default().with_max_argument_bytes(16));
    answering(
        &registry,
        "long",
        Some(r#"{"type":"string"}"#),
        "\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\"",
    );
    let result = registry.call("c1", "long", b"{}");
    assert_eq!(
        result.content,
        "error: tool long returned an invalid result: 34 bytes is more than the limit of 16"
    );
    assert_eq!(result.violations[0].keyword, "size");
    assert_eq!(result.outcome, CallOutcome::InvalidResult);
}

#[test]
fn any_schema_may_be_the_root_of_an_output_schema() {
    let registry = Registry::default();
    answering(&registry, "count", Some(r#"{"type":"integer"}"#), "3");
    answering(
        &registry,
        "list",
        Some(r#"{"type":"array","items":{"type":"string"}}"#),
        r#"["a"]"#,
    );
    assert!(registry.call("c1", "count", b"{}").structured);
    assert!(registry.call("c2", "list", b"{}").structured);
}

#[test]
fn a_handler_error_or_panic_is_never_checked() {
    let registry = Registry::default();
    let failing =
        |_: &[u8], _: &CallContext| -> Result<String, String> { Err("no station".into()) };
    registry
        .register(
            spec("fails", Some(FORECAST_OUTPUT)),
            Box::new(failing),
            false,
        )
        .unwrap();
    let panicking = |_: &[u8], _: &CallContext| -> Result<String, String> { panic!("boom") };
    registry
        .register(
            spec("panics", Some(FORECAST_OUTPUT)),
            Box::new(panicking),
            false,
        )
        .unwrap();
    let failed = registry.call("c1", "fails", b"{}");
    assert_eq!(failed.content, "error: no station");
    assert_eq!(failed.outcome, CallOutcome::HandlerFailed);
    assert!(failed.violations.is_empty() && failed.invalid_result.is_none());
    let panicked = registry.call("c2", "panics", b"{}");
    assert_eq!(panicked.content, "error: tool panics panicked");
    assert_eq!(panicked.outcome, CallOutcome::HandlerFailed);
}

#[test]
fn refusals_before_the_handler_have_their_outcomes() {
    let registry = Registry::default();
    let schema = r#"{"type":"object","properties":{"n":{"type":"integer"}}}"#;
    let tool = ToolSpec {
        name: "t".into(),
        parameters: Some(schema.as_bytes().to_vec()),
        ..ToolSpec::default()
    };
    registry
        .register(
            tool,
            Box::new(|_: &[u8], _: &CallContext| Ok("ok".into())),
            false,
        )
        .unwrap();
    let unknown = registry.call("c1", "u", b"{}");
    assert_eq!(unknown.outcome, CallOutcome::UnknownTool);
    assert!(unknown.is_error && unknown.violations.is_empty());
    let invalid = registry.call("c2", "t", br#"{"n":"x"}"#);
    assert_eq!(invalid.outcome, CallOutcome::InvalidArguments);
    assert_eq!(
        invalid.violations,
        [ValidationError {
            path: "$.n".into(),
            pointer: "/n".into(),
            keyword: "type",
            message: "expected integer, got string".into(),
            schema_location: "#/properties/n/type".into(),
        }]
    );
}

/// A handler that answers through its buffer: the first call's answer is invalid, the
/// next ones' valid.
struct Alternating;

impl Handler for Alternating {
    fn call(&self, args: &[u8], _: &CallContext) -> Result<String, String> {
        Ok(if args == b"{}" { r#"{"high":1}"# } else { "[]" }.to_owned())
    }
    fn call_into(&self, args: &[u8], _: &CallContext, out: &mut String) -> toolgate_core::Written {
        out.push_str(if args == b"{}" { r#"{"high":1}"# } else { "[]" });
        toolgate_core::Written::Answer
    }
}

#[test]
fn call_into_and_outcome_into_apply_the_same_rule_and_reset_every_field() {
    let registry = Registry::default();
    registry
        .register(
            spec("f", Some(FORECAST_OUTPUT)),
            Box::new(Alternating),
            false,
        )
        .unwrap();
    let mut result = CallResult::default();
    registry.call_into("c1", "f", br#"{"x":1}"#, &CallContext::NONE, &mut result);
    assert_eq!(result.outcome, CallOutcome::InvalidResult);
    assert_eq!(
        result.content,
        "error: tool f returned an invalid result:\n$: expected object, got array"
    );
    assert_eq!(result.invalid_result.as_deref(), Some("[]"));
    registry.call_into("c2", "f", b"{}", &CallContext::NONE, &mut result);
    assert_eq!(result.content, r#"{"high":1}"#);
    assert_eq!(result.outcome, CallOutcome::Answered);
    assert!(result.structured && !result.is_error);
    assert!(result.violations.is_empty() && result.invalid_result.is_none());

    let mut out = String::new();
    assert!(registry.outcome_into("f", br#"{"x":1}"#, &CallContext::NONE, &mut out));
    assert_eq!(
        out,
        "error: tool f returned an invalid result:\n$: expected object, got array"
    );
    let mut out = String::new();
    assert!(!registry.outcome_into("f", b"{}", &CallContext::NONE, &mut out));
    assert_eq!(out, r#"{"high":1}"#);
}

#[test]
fn a_prepared_call_checks_its_answer_as_call_does() {
    let registry = Registry::with_options(RegistryOptions::default().with_max_argument_bytes(64));
    answering(&registry, "f", Some(FORECAST_OUTPUT), "");
    answering(&registry, "free", None, "");
    let call = registry.prepare("f", b"{}").unwrap();
    assert!(call.output_schema().is_some());
    assert_eq!(call.check_result(br#"{"high":2}"#), Ok(true));
    let refused = call.check_result(br#"{"high":2.5}"#).unwrap_err();
    assert_eq!(
        refused.content,
        "error: tool f returned an invalid result:\n$.high: expected integer, got number"
    );
    assert_eq!(refused.violations.len(), 1);
    let long = vec![b' '; 65];
    let refused = call.check_result(&long).unwrap_err();
    assert_eq!(refused.violations[0].keyword, "size");
    let free = registry.prepare("free", b"{}").unwrap();
    assert!(free.output_schema().is_none());
    assert_eq!(free.check_result(b"anything"), Ok(false));
    // The refusal of arguments carries each violation's schema location too.
    let refusal = registry.prepare("f", b"[]").unwrap_err();
    let CallRefusalKind::InvalidArguments(errors) = refusal.kind else {
        panic!("{refusal:?}")
    };
    assert_eq!(errors[0].schema_location, "#/type");
}

#[test]
fn validate_result_checks_without_calling() {
    let registry = Registry::default();
    answering(&registry, "f", Some(FORECAST_OUTPUT), "");
    answering(&registry, "free", None, "");
    assert_eq!(
        registry.validate_result("f", br#"{"high":2}"#),
        Some(vec![])
    );
    let errors = registry.validate_result("f", b"{}").unwrap();
    assert_eq!(errors[0].message, "missing required property \"high\"");
    assert_eq!(registry.validate_result("free", b"{}"), None);
    assert_eq!(registry.validate_result("nope", b"{}"), None);
}

#[test]
fn an_output_schema_that_does_not_compile_refuses_the_registration() {
    let registry = Registry::default();
    answering(&registry, "kept", None, "ok");
    let bad = r#"{"type":"strin","properties":{"a":{"minimum":"x"}}}"#;
    let refused = registry
        .register(
            spec("kept", Some(bad)),
            Box::new(|_: &[u8], _: &CallContext| Ok(String::new())),
            true,
        )
        .unwrap_err();
    assert_eq!(
        refused.message,
        "invalid output schema for \"kept\": #/type: unknown type \"strin\" (expected null, \
         boolean, object, array, number, string or integer)\n\
         #/properties/a/minimum: \"minimum\" must be a number"
    );
    assert!(
        matches!(&refused.kind, RegisterErrorKind::InvalidOutputSchema(e) if e.problems.len() == 2)
    );
    assert_eq!(refused.status(), Status::Schema);
    // Nothing registered is lost: the old tool answers as before.
    assert_eq!(registry.call("c1", "kept", b"{}").content, "ok");
    assert_eq!(registry.describe("kept").unwrap().output_schema, None);

    let batch: Vec<(ToolSpec, Box<dyn Handler>)> = vec![
        (
            spec("a", None),
            Box::new(|_: &[u8], _: &CallContext| Ok(String::new())),
        ),
        (
            spec("b", Some("[]")),
            Box::new(|_: &[u8], _: &CallContext| Ok(String::new())),
        ),
    ];
    let refused = registry.register_batch(batch, false).unwrap_err();
    assert_eq!(
        refused.message,
        "invalid output schema for \"b\": #: a schema must be a JSON object, got array"
    );
    assert_eq!(registry.names(), ["kept"]);
}

#[test]
fn describe_shows_the_output_schema_compact_in_the_authors_order() {
    let registry = Registry::default();
    answering(&registry, "f", Some(FORECAST_OUTPUT), "");
    assert_eq!(
        registry.describe("f").unwrap().output_schema.as_deref(),
        Some(
            r#"{"type":"object","properties":{"high":{"type":"integer"},"sky":{"enum":["sun","rain"]}},"required":["high"],"additionalProperties":false}"#
        )
    );
}

/// The shared texts of tests/registry_texts.json that are the core's: an answer its
/// output schema refuses, and an output schema that does not compile.
#[test]
fn shared_registry_texts_of_output_schemas() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/registry_texts.json"
    );
    let cases: Vec<serde_json::Value> =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let text = |case: &serde_json::Value, key: &str| case[key].as_str().unwrap().to_owned();
    let mut checked = std::collections::BTreeSet::new();
    for case in &cases {
        let what = text(case, "what");
        match what.as_str() {
            "invalid_result" => {
                let masked = case["masked"].as_bool().unwrap_or(false);
                let registry =
                    Registry::with_options(RegistryOptions::default().with_masked_values(masked));
                let answer = text(case, "answer");
                let spec = ToolSpec {
                    name: text(case, "tool"),
                    output_schema: Some(case["output_schema"].to_string().into_bytes()),
                    ..ToolSpec::default()
                };
                let handler = move |_: &[u8], _: &CallContext| Ok(answer.clone());
                registry.register(spec, Box::new(handler), false).unwrap();
                let result = registry.call("c1", &text(case, "tool"), b"{}");
                assert_eq!(result.content, text(case, "content"));
                assert_eq!(result.outcome, CallOutcome::InvalidResult);
                assert_eq!(result.invalid_result, Some(text(case, "answer")));
                let locations: Vec<String> = result
                    .violations
                    .iter()
                    .map(|v| v.schema_location.clone())
                    .collect();
                let want: Vec<String> = case["schema_locations"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|l| l.as_str().unwrap().to_owned())
                    .collect();
                assert_eq!(locations, want);
            }
            "output_schema_refused" => {
                let registry = Registry::default();
                let spec = ToolSpec {
                    name: text(case, "tool"),
                    output_schema: Some(case["output_schema"].to_string().into_bytes()),
                    ..ToolSpec::default()
                };
                let handler = |_: &[u8], _: &CallContext| Ok(String::new());
                let refused = registry
                    .register(spec, Box::new(handler), false)
                    .unwrap_err();
                assert_eq!(refused.message, text(case, "message"));
                assert_eq!(text(case, "kind"), "schema");
                assert_eq!(refused.status(), Status::Schema);
                let RegisterErrorKind::InvalidOutputSchema(e) = refused.kind else {
                    panic!("{refused:?}")
                };
                assert_eq!(e.pointer, text(case, "pointer"));
                assert_eq!(e.keyword, text(case, "keyword"));
            }
            _ => continue,
        }
        checked.insert(what);
    }
    assert_eq!(
        checked.len(),
        2,
        "both kinds of case are in the file: {checked:?}"
    );
}
