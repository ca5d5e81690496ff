//! Numbers read and compared exactly, seen through the validator: integers of any
//! size, and exponents of any length.

use toolgate_core::Schema;

fn schema(json: &str) -> Schema {
    Schema::compile(json.as_bytes()).unwrap_or_else(|e| panic!("{json}: {e}"))
}

/// The verdict of `is_valid`, checked against `validate_json`'s.
fn verdict(s: &Schema, instance: &str) -> bool {
    let valid = s.is_valid(instance.as_bytes());
    let errors = s.validate_json(instance.as_bytes());
    assert_eq!(valid, errors.is_empty(), "{instance}: {errors:?}");
    valid
}

#[test]
fn negative_integers_at_and_past_i64_min_are_read() {
    let any = schema("{}");
    for n in [
        "-9223372036854775808",
        "-9223372036854775809",
        "-27670116110564327424",
        "-9223372036854775808.5",
        "-9223372036854775808e0",
        "[-9223372036854775808]",
        r#"{"a":-9223372036854775808}"#,
    ] {
        assert!(verdict(&any, n), "{n}");
    }
    let int = schema(r#"{"type":"integer"}"#);
    assert!(verdict(&int, "-9223372036854775808"));
    assert!(verdict(&int, "-27670116110564327424"));
    assert!(!verdict(&int, "-9223372036854775808.5"));
}

#[test]
fn bounds_at_i64_min_compile_and_compare() {
    let min = schema(r#"{"minimum":-9223372036854775808}"#);
    assert!(verdict(&min, "-9223372036854775808"));
    assert!(verdict(&min, "-9223372036854775807"));
    assert!(verdict(&min, "0"));
    assert!(!verdict(&min, "-9223372036854775809"));
    assert!(!verdict(&min, "-9223372036854775808.5"));
    assert!(!verdict(&min, "-27670116110564327424"));

    let max = schema(r#"{"maximum":-9223372036854775808}"#);
    assert!(verdict(&max, "-9223372036854775808"));
    assert!(verdict(&max, "-27670116110564327424"));
    assert!(!verdict(&max, "-9223372036854775807"));

    let konst = schema(r#"{"const":-9223372036854775808}"#);
    assert!(verdict(&konst, "-9223372036854775808"));
    assert!(verdict(&konst, "-9223372036854775808.0"));
    assert!(!verdict(&konst, "-9223372036854775807"));
}

#[test]
fn exponents_past_two_to_the_52_are_compared_exactly() {
    // (schema, instance, valid)
    let cases = [
        (
            r#"{"const":1e4503599627370497}"#,
            "1e4503599627370498",
            false,
        ),
        (
            r#"{"const":1e4503599627370497}"#,
            "1e4503599627370497",
            true,
        ),
        (
            r#"{"const":1e4503599627370497}"#,
            "10e4503599627370496",
            true,
        ),
        (
            r#"{"const":1e4503599627370496}"#,
            "0.1e4503599627370497",
            true,
        ),
        (
            r#"{"const":1e4503599627370496}"#,
            "1e4503599627370497",
            false,
        ),
        (
            r#"{"maximum":1e4503599627370496}"#,
            "1e4503599627370497",
            false,
        ),
        (
            r#"{"maximum":1e4503599627370496}"#,
            "1e4503599627370496",
            true,
        ),
        (
            r#"{"maximum":1e4503599627370496}"#,
            "9.99e4503599627370495",
            true,
        ),
        (
            r#"{"minimum":1e4503599627370497}"#,
            "1e4503599627370496",
            false,
        ),
        (
            r#"{"minimum":1e4503599627370497}"#,
            "1e4503599627370498",
            true,
        ),
        (
            r#"{"minimum":-1e4503599627370497}"#,
            "-1e4503599627370498",
            false,
        ),
        (
            r#"{"minimum":-1e4503599627370497}"#,
            "-1e4503599627370496",
            true,
        ),
        (
            r#"{"maximum":1e-4503599627370497}"#,
            "1e-4503599627370496",
            false,
        ),
        (
            r#"{"maximum":1e-4503599627370497}"#,
            "1e-4503599627370498",
            true,
        ),
        (
            r#"{"minimum":1e-4503599627370497}"#,
            "1e-4503599627370498",
            false,
        ),
        (
            r#"{"const":1e-4503599627370497}"#,
            "1e-4503599627370498",
            false,
        ),
        (
            r#"{"const":1e-4503599627370497}"#,
            "0.1e-4503599627370496",
            true,
        ),
        (
            r#"{"enum":[1e4503599627370497]}"#,
            "1e4503599627370498",
            false,
        ),
        (
            r#"{"enum":[1e4503599627370497]}"#,
            "0.01e4503599627370499",
            true,
        ),
        (
            r#"{"enum":[[1e4503599627370497]]}"#,
            "[1e4503599627370498]",
            false,
        ),
        (
            r#"{"enum":[{"a":1e4503599627370497}]}"#,
            r#"{"a":1e4503599627370498}"#,
            false,
        ),
        (
            r#"{"anyOf":[{"const":1e4503599627370497},{"maximum":1e4503599627370496}]}"#,
            "1e4503599627370498",
            false,
        ),
        (
            r#"{"anyOf":[{"const":1e4503599627370497},{"maximum":1e4503599627370496}]}"#,
            "1e4503599627370497",
            true,
        ),
        // An exponent of any length, and one past i64.
        (
            r#"{"maximum":1e9223372036854775807}"#,
            "1e9223372036854775808",
            false,
        ),
        (
            r#"{"maximum":1e100000000000000000000000000000000000000}"#,
            "10e100000000000000000000000000000000000000",
            false,
        ),
        (
            r#"{"maximum":1e100000000000000000000000000000000000000}"#,
            "10e99999999999999999999999999999999999999",
            true,
        ),
        // Huge exponents decide integer-ness too.
        (r#"{"type":"integer"}"#, "1e4503599627370497", true),
        (r#"{"type":"integer"}"#, "1e-4503599627370497", false),
        (r#"{"type":"integer"}"#, "0e-99999999999999999999", true),
    ];
    for (schema_json, instance, want) in cases {
        let s = schema(schema_json);
        assert_eq!(verdict(&s, instance), want, "{schema_json} with {instance}");
    }
}

#[test]
fn length_bounds_of_any_exponent_compile_at_once() {
    // Zero with an exponent of any size or sign, and integers written with exponents.
    for (schema_json, instance, want) in [
        (r#"{"minLength":0.0e-9223372036854775808}"#, r#""""#, true),
        (r#"{"maxLength":0e9223372036854775807}"#, r#""""#, true),
        (r#"{"maxLength":0e9223372036854775807}"#, r#""a""#, false),
        (r#"{"maxItems":0e99999999999999999999999}"#, "[1]", false),
        (r#"{"maxItems":2e0}"#, "[1,2]", true),
        (r#"{"maxItems":0.2e1}"#, "[1,2,3]", false),
        (r#"{"minItems":1e99999999999999999999999}"#, "[1]", false),
        (r#"{"maxLength":18446744073709551616}"#, r#""abc""#, true),
    ] {
        let s = schema(schema_json);
        assert_eq!(verdict(&s, instance), want, "{schema_json} with {instance}");
    }
    for bad in [
        r#"{"minLength":1e-99999999999999999999999}"#,
        r#"{"minLength":-1e99999999999999999999999}"#,
        r#"{"maxItems":1.5}"#,
    ] {
        let e = Schema::compile(bad.as_bytes()).err();
        assert!(
            e.as_ref()
                .is_some_and(|e| e.to_string().contains("must be a non-negative integer")),
            "{bad}: {e:?}"
        );
    }
}
