//! The worked examples' tables against the core validator: the get_weather validate
//! table and compile refusals, the error-path table (pointer and keyword of each
//! error), and the registry behaviours a Python user is taught to expect.

use toolgate_core::{Schema, ValidationError};

const WEATHER: &str = r#"{"type": "object",
 "properties": {"city": {"type": "string", "minLength": 1},
                "days": {"type": "integer", "minimum": 1, "maximum": 7},
                "unit": {"enum": ["c", "f"]}},
 "required": ["city"], "additionalProperties": false}"#;

fn schema(s: &str) -> Schema {
    Schema::compile(s.as_bytes()).unwrap_or_else(|e| panic!("{s} should compile: {e}"))
}

fn lines(errs: &[ValidationError]) -> Vec<String> {
    errs.iter().map(|e| e.to_string()).collect()
}

/// Checks both paths agree, and returns the rendered errors.
fn check(s: &Schema, instance: &str) -> Vec<String> {
    let errs = s.validate_json(instance.as_bytes());
    assert_eq!(
        s.is_valid(instance.as_bytes()),
        errs.is_empty(),
        "is_valid and validate_json disagree on {instance}: {errs:?}"
    );
    lines(&errs)
}

#[test]
fn hand_worked_example() {
    let s = schema(WEATHER);
    assert_eq!(
        check(&s, r#"{"days": "3", "unit": "kelvin", "country": "FR"}"#),
        [
            r#"$: missing required property "city""#,
            r#"$: unexpected property "country""#,
            r#"$.days: expected integer, got string"#,
            r#"$.unit: "kelvin" is not one of ["c","f"]"#,
        ]
    );
    assert!(check(&s, r#"{"city":"Paris","days":3}"#).is_empty());
}

#[test]
fn validate_table() {
    let rows: &[(&str, &str, &[&str])] = &[
        // integer and number
        (r#"{"type":"integer"}"#, "3", &[]),
        (r#"{"type":"integer"}"#, "3.0", &[]),
        (r#"{"type":"integer"}"#, "1e2", &[]),
        (r#"{"type":"integer"}"#, "3.5", &["$: expected integer, got number"]),
        (r#"{"type":"integer"}"#, "true", &["$: expected integer, got boolean"]),
        (r#"{"type":"number"}"#, "3", &[]),
        (r#"{"type":"number"}"#, "false", &["$: expected number, got boolean"]),
        (r#"{"type":"number"}"#, r#""3""#, &["$: expected number, got string"]),
        // unions
        (r#"{"type":["string","null"]}"#, "null", &[]),
        (r#"{"type":["string","null"]}"#, "1", &["$: expected string or null, got integer"]),
        (r#"{"type":["string","number","null"]}"#, "[]", &["$: expected string, number or null, got array"]),
        // inclusive bounds
        (r#"{"minimum":1,"maximum":7}"#, "1", &[]),
        (r#"{"minimum":1,"maximum":7}"#, "7", &[]),
        (r#"{"minimum":1,"maximum":7}"#, "0", &["$: 0 is less than the minimum 1"]),
        (r#"{"minimum":1,"maximum":7}"#, "7.5", &["$: 7.5 is greater than the maximum 7"]),
        // length in characters
        (r#"{"maxLength":5}"#, r#""héllo""#, &[]),
        (r#"{"maxLength":4}"#, r#""héllo""#, &["$: expected at most 4 characters, got 5"]),
        (r#"{"minLength":1}"#, r#""""#, &["$: expected at least 1 character, got 0"]),
        (r#"{"maxLength":1}"#, r#""\ud83d\ude00""#, &[]),
        // unanchored patterns
        (r#"{"pattern":"[0-9]{3}"}"#, r#""ab123cd""#, &[]),
        (r#"{"pattern":"^[0-9]{3}$"}"#, r#""ab123cd""#, &[r#"$: "ab123cd" does not match pattern "^[0-9]{3}$""#]),
        // enum by value
        (r#"{"enum":[1]}"#, "1.0", &[]),
        (r#"{"enum":[1, "a"]}"#, "true", &["$: true is not one of [1,\"a\"]"]),
        (r#"{"const":{"a":1,"b":[1,2]}}"#, r#"{"b":[1,2.0],"a":1}"#, &[]),
        (r#"{"const":"c"}"#, r#""d""#, &[r#"$: "d" is not equal to "c""#]),
        // error paths with indexes
        (
            r#"{"type":"object","properties":{"tags":{"type":"array","items":{"type":"string"}}}}"#,
            r#"{"tags":["a",2,"c",null]}"#,
            &["$.tags[1]: expected string, got integer", "$.tags[3]: expected string, got null"],
        ),
        (r#"{"properties":{"a.b":{"type":"string"}}}"#, r#"{"a.b":1}"#, &[r#"$["a.b"]: expected string, got integer"#]),
        // additionalProperties as a schema
        (
            r#"{"type":"object","properties":{"a":{}},"additionalProperties":{"type":"integer"}}"#,
            r#"{"a":"x","b":1,"c":"no"}"#,
            &["$.c: expected integer, got string"],
        ),
        // items bounds
        (r#"{"minItems":2}"#, "[1]", &["$: expected at least 2 items, got 1"]),
        (r#"{"maxItems":1}"#, "[1,2]", &["$: expected at most 1 item, got 2"]),
        // anyOf
        (r#"{"anyOf":[{"type":"string"},{"type":"integer"}]}"#, "3", &[]),
        (
            r#"{"anyOf":[{"type":"string"},{"type":"integer"}]}"#,
            "true",
            &["$: does not match any schema in anyOf: [0] expected string, got boolean; [1] expected integer, got boolean"],
        ),
        // malformed JSON
        (r#"{"type":"object"}"#, r#"{"x": "unterminated"#, &["$: malformed JSON at line 1 column 20: unexpected end of input"]),
        (r#"{"type":"object"}"#, r#"{"a":1,}"#, &["$: malformed JSON at line 1 column 8: trailing comma"]),
        (r#"{"type":"object"}"#, "{\"a\":1,\n\"a\":2}", &[r#"$: malformed JSON at line 2 column 1: duplicate property "a""#]),
    ];
    for (sch, inst, want) in rows {
        let s = schema(sch);
        assert_eq!(check(&s, inst), *want, "schema {sch} instance {inst}");
    }
}

#[test]
fn compile_rejects_unsupported() {
    let refused: &[(&str, &str, &str)] = &[
        (r#"{"type":"string","format":"email"}"#, "/format", "format"),
        (r#"{"oneOf":[{"type":"string"}]}"#, "/oneOf", "oneOf"),
        (r##"{"$ref":"#/x"}"##, "/$ref", "$ref"),
        (r#"{"type":"strin"}"#, "/type", "type"),
        (r#"{"pattern":"("}"#, "/pattern", "pattern"),
        (r#"{"enum":[]}"#, "/enum", "enum"),
        (r#""string""#, "", ""),
        ("[]", "", ""),
        ("42", "", ""),
        (r#"{"minLength":-1}"#, "/minLength", "minLength"),
        (r#"{"maxItems":1.5}"#, "/maxItems", "maxItems"),
        (
            r#"{"properties":{"a":{"properties":{"b":{"format":"x"}}}}}"#,
            "/properties/a/properties/b/format",
            "format",
        ),
    ];
    for (sch, pointer, keyword) in refused {
        let e = Schema::compile(sch.as_bytes()).expect_err(sch);
        assert_eq!(
            (e.pointer.as_str(), e.keyword.as_str()),
            (*pointer, *keyword),
            "{sch}: {e}"
        );
    }
    let accepted = r#"{"title":"t","description":"d","default":{},"examples":[{}],
        "$schema":"https://json-schema.org/draft/2020-12/schema","$comment":"c","type":"object"}"#;
    assert!(Schema::compile(accepted.as_bytes()).is_ok());
    assert_eq!(
        Schema::compile(br#"{"type":"string","format":"email"}"#)
            .unwrap_err()
            .to_string(),
        r#"#/format: unsupported keyword "format""#
    );
}

const GET_USER: &str = r#"{
    "type": "object",
    "required": ["id"],
    "properties": {
        "id": {"type": "integer"},
        "fields": {"type": "array", "items": {"type": "string", "enum": ["id", "name", "email"]}}
    }
}"#;

/// The error-path table: the path is the product.
#[test]
fn get_user_violations_point_at_the_offending_value() {
    let s = schema(GET_USER);
    let cases: &[(&str, &[(&str, &str)])] = &[
        (r#"{"id": 42, "fields": ["id", "name"]}"#, &[]),
        (r#"{"id": "forty-two"}"#, &[("/id", "type")]),
        (r#"{"fields": ["id"]}"#, &[("/id", "required")]),
        (
            r#"{"id": 1, "fields": ["id", "phone"]}"#,
            &[("/fields/1", "enum")],
        ),
        (r#"{"id": true}"#, &[("/id", "type")]),
    ];
    for (inst, want) in cases {
        let got: Vec<(String, String)> = s
            .validate_json(inst.as_bytes())
            .into_iter()
            .map(|e| (e.pointer, e.keyword.to_string()))
            .collect();
        let want: Vec<(String, String)> = want
            .iter()
            .map(|(p, k)| (p.to_string(), k.to_string()))
            .collect();
        assert_eq!(got, want, "{inst}");
    }
}

/// The registry behaviours a Python user is taught, where the answer is the
/// validator's behaviour.
#[test]
fn booleans_nested_paths_refused_keywords_and_no_coercion() {
    // Booleans are not integers.
    let s = schema(r#"{"type":"integer"}"#);
    assert_eq!(check(&s, "true"), ["$: expected integer, got boolean"]);
    // {'user': {'email': 0}} against user.email: string → /user/email.
    let s = schema(
        r#"{"type":"object","properties":{"user":{"type":"object","properties":{"email":{"type":"string"}}}}}"#,
    );
    let e = s.validate_json(br#"{"user": {"email": 0}}"#);
    assert_eq!(e.len(), 1);
    assert_eq!(
        (e[0].pointer.as_str(), e[0].path.as_str()),
        ("/user/email", "$.user.email")
    );
    // oneOf, allOf, $ref are outside the subset: refused at compile.
    for kw in ["oneOf", "allOf", "$ref"] {
        let sch = format!(r#"{{"{kw}": [{{"type":"string"}}]}}"#);
        assert!(Schema::compile(sch.as_bytes()).is_err(), "{kw}");
    }
    // No coercion: "42" is not a number.
    assert_eq!(
        check(&schema(r#"{"type":"number"}"#), r#""42""#),
        ["$: expected number, got string"]
    );
}
