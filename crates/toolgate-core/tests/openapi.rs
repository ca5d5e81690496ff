//! OpenAPI 3.0 schema objects in: each spelling OpenAPI 3.0 has and JSON Schema has
//! not, compiled to what the OpenAPI document means.

use toolgate_core::{Options, Schema, SchemaDialect};

fn openapi() -> Options {
    Options::default().with_schema_dialect(SchemaDialect::OpenApi3_0)
}

fn compile(schema: &str) -> Schema {
    Schema::compile_with(schema.as_bytes(), &openapi()).unwrap_or_else(|e| panic!("{schema}: {e}"))
}

fn refusal(schema: &str) -> String {
    Schema::compile_with(schema.as_bytes(), &openapi())
        .expect_err(schema)
        .to_string()
}

#[test]
fn nullable_adds_null_to_the_type() {
    let s = compile(r#"{"type":"string","nullable":true}"#);
    assert!(s.is_valid(b"null") && s.is_valid(br#""a""#) && !s.is_valid(b"1"));
    let not = compile(r#"{"type":"string","nullable":false}"#);
    assert!(!not.is_valid(b"null"));
    // An enum must list null to admit it (OpenAPI 3.0.3's clarification).
    let e = compile(r#"{"type":"string","nullable":true,"enum":["a"]}"#);
    assert!(!e.is_valid(b"null") && e.is_valid(br#""a""#));
    assert!(
        refusal(r#"{"type":"string","nullable":"yes"}"#).contains("\"nullable\" must be a boolean")
    );
    // The text a definition sends stays as written.
    assert_eq!(
        compile(r#"{"type":"string","nullable":true}"#).to_json(),
        r#"{"type":"string","nullable":true}"#
    );
}

#[test]
fn boolean_exclusive_bounds() {
    let s = compile(
        r#"{"type":"number","minimum":0,"exclusiveMinimum":true,"maximum":10,"exclusiveMaximum":false}"#,
    );
    assert!(!s.is_valid(b"0") && s.is_valid(b"0.5") && s.is_valid(b"10") && !s.is_valid(b"10.5"));
    let max = compile(r#"{"type":"number","maximum":10,"exclusiveMaximum":true}"#);
    assert!(!max.is_valid(b"10") && max.is_valid(b"9.99"));
    assert!(refusal(r#"{"exclusiveMinimum":true}"#)
        .contains("\"exclusiveMinimum\": true needs \"minimum\""));
    assert!(refusal(r#"{"minimum":1,"exclusiveMinimum":1}"#).contains("is a boolean"));
}

#[test]
fn annotations_assert_nothing() {
    let s = compile(
        r#"{"type":"object","example":{"a":1},"x-internal":true,"discriminator":{"propertyName":"kind"},"properties":{"kind":{"type":"string","example":"cat","readOnly":true}}}"#,
    );
    assert!(s.is_valid(br#"{"kind":"dog"}"#));
    assert!(!s.is_valid(br#"{"kind":1}"#));
    assert!(refusal(r#"{"discriminator":{"mapping":{}}}"#).contains("propertyName"));
}

#[test]
fn openapi_formats() {
    let int32 = compile(r#"{"type":"integer","format":"int32"}"#);
    assert!(int32.is_valid(b"2147483647") && !int32.is_valid(b"2147483648"));
    let int64 = compile(r#"{"type":"integer","format":"int64"}"#);
    assert!(int64.is_valid(b"-9223372036854775808") && !int64.is_valid(b"9223372036854775808"));
    let float = compile(r#"{"type":"number","format":"float"}"#);
    assert!(float.is_valid(b"3.4028235e38") && !float.is_valid(b"3.5e38"));
    let double = compile(r#"{"type":"number","format":"double"}"#);
    assert!(double.is_valid(b"1e308") && !double.is_valid(b"1e309"));
    let byte = compile(r#"{"type":"string","format":"byte"}"#);
    assert!(byte.is_valid(br#""aGk=""#) && !byte.is_valid(br#""aGk""#));
    for annotation in ["binary", "password"] {
        let s = compile(&format!(r#"{{"type":"string","format":"{annotation}"}}"#));
        assert!(s.is_valid(br#""anything at all""#), "{annotation}");
    }
    // The JSON Schema formats OpenAPI shares still assert.
    let date = compile(r#"{"type":"string","format":"date"}"#);
    assert!(date.is_valid(br#""2026-12-01""#) && !date.is_valid(br#""2026-13-01""#));
}

#[test]
fn json_schema_only_spellings_are_refused() {
    assert!(refusal(r#"{"type":["string","null"]}"#)
        .contains(r#"in OpenAPI 3.0 "type" is one type name (for null, write "nullable": true)"#));
    assert!(refusal(r#"{"const":1}"#)
        .contains("\"const\" is not a keyword of OpenAPI 3.0 schema objects"));
    let nested = Schema::compile_with(
        br#"{"type":"object","properties":{"a":{"$defs":{}}}}"#,
        &openapi(),
    )
    .unwrap_err();
    assert_eq!(nested.pointer, "/properties/a");
    assert_eq!(nested.keyword, "$defs");
}

#[test]
fn the_default_dialect_is_unchanged() {
    // Without the option, OpenAPI's spellings are what JSON Schema makes of them.
    let core = Schema::compile(br#"{"type":"string","nullable":true}"#);
    assert!(
        core.is_err(),
        "the core profile refuses unknown keywords as before"
    );
    assert_eq!(
        Options::default().schema_dialect(),
        SchemaDialect::JsonSchema
    );
}
