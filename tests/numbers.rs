//! Numbers read and compared exactly, seen through the validator: integers of any
//! size, and exponents of any length.

use toolgate::Schema;

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
