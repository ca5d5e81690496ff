//! What a violation reports beside its message: where its rule is written (the schema
//! location), and, with values masked, messages that quote nothing of the instance.

use super::{Options, Profile, Schema};

fn full() -> Options {
    Options::default().with_profile(Profile::Full)
}

/// (schema location, message) of every violation.
fn report(schema: &str, opts: &Options, instance: &str) -> Vec<(String, String)> {
    Schema::compile_with(schema.as_bytes(), opts)
        .unwrap()
        .validate_json(instance.as_bytes())
        .into_iter()
        .map(|e| (e.schema_location, e.message))
        .collect()
}

fn locations(schema: &str, opts: &Options, instance: &str) -> Vec<String> {
    report(schema, opts, instance)
        .into_iter()
        .map(|(l, _)| l)
        .collect()
}

/// The one message of a violation with values masked.
fn masked(schema: &str, instance: &str) -> String {
    let opts = full().with_masked_values(true);
    let all = report(schema, &opts, instance);
    assert_eq!(all.len(), 1, "{schema} {instance}: {all:?}");
    all.into_iter().next().unwrap().1
}

#[test]
fn a_rule_is_located_where_its_keyword_is_written() {
    let weather = r#"{"type":"object","properties":{"days":{"type":"integer","minimum":1},"unit":{"enum":["c"]}},"required":["city"],"additionalProperties":false}"#;
    assert_eq!(
        locations(
            weather,
            &Options::default(),
            r#"{"days":0,"unit":"k","x":1}"#
        ),
        [
            "#/required",
            "#/additionalProperties",
            "#/properties/days/minimum",
            "#/properties/unit/enum"
        ]
    );
    assert_eq!(
        locations(weather, &Options::default(), r#"{"days":"3","city":"P"}"#),
        ["#/additionalProperties", "#/properties/days/type"]
    );
    // A name that needs escaping in a pointer keeps its RFC 6901 escapes.
    assert_eq!(
        locations(
            r#"{"properties":{"a/b~c":{"type":"string"}}}"#,
            &Options::default(),
            r#"{"a/b~c":1}"#
        ),
        ["#/properties/a~1b~0c/type"]
    );
}

#[test]
fn false_is_its_own_location() {
    assert_eq!(
        locations(
            r#"{"properties":{"a":false},"items":false}"#,
            &Options::default(),
            r#"{"a":1}"#
        ),
        ["#/properties/a"]
    );
    assert_eq!(
        locations(r#"{"items":false}"#, &Options::default(), "[1]"),
        ["#/items"]
    );
}

#[test]
fn a_rule_reached_through_a_reference_is_located_at_its_target() {
    let schema = r##"{"$defs":{"n":{"maximum":7},"s":{"type":"string"}},"properties":{"n":{"$ref":"#/$defs/n"},"s":{"$ref":"#/$defs/s","minLength":2}}}"##;
    assert_eq!(
        locations(schema, &full(), r#"{"n":8,"s":"x"}"#),
        ["#/$defs/n/maximum", "#/properties/s/minLength"]
    );
    assert_eq!(locations(schema, &full(), r#"{"s":1}"#), ["#/$defs/s/type"]);
    // A recursive reference to the root.
    let tree = r##"{"type":"object","properties":{"child":{"$ref":"#"},"v":{"type":"integer"}}}"##;
    assert_eq!(
        locations(tree, &full(), r#"{"child":{"child":{"v":"x"}}}"#),
        ["#/properties/v/type"]
    );
}

#[test]
fn a_rule_in_another_document_is_located_by_its_uri() {
    let opts = full()
        .with_resource(
            "https://example.com/unit.json",
            br#"{"$defs":{"u":{"enum":["c","f"]}}}"#,
        )
        .unwrap();
    let schema = r#"{"properties":{"u":{"$ref":"https://example.com/unit.json#/$defs/u"}}}"#;
    assert_eq!(
        locations(schema, &opts, r#"{"u":"k"}"#),
        ["https://example.com/unit.json#/$defs/u/enum"]
    );
}

#[test]
fn applicators_and_property_names_are_located() {
    assert_eq!(
        locations(
            r#"{"anyOf":[{"type":"string"}],"not":{"type":"integer"},"oneOf":[{"minimum":9}]}"#,
            &full(),
            "3"
        ),
        ["#/anyOf", "#/oneOf", "#/not"]
    );
    // propertyNames passes on the location of the rule inside it.
    assert_eq!(
        locations(
            r#"{"propertyNames":{"maxLength":2}}"#,
            &full(),
            r#"{"abc":1}"#
        ),
        ["#/propertyNames/maxLength"]
    );
    assert_eq!(
        locations(
            r#"{"allOf":[{"required":["a"]}],"unevaluatedProperties":false}"#,
            &full(),
            r#"{"b":1}"#
        ),
        ["#/allOf/0/required", "#/unevaluatedProperties"]
    );
}

#[test]
fn two_schemas_asking_the_same_are_one_violation_located_at_the_first() {
    let errors = Schema::compile_with(
        br#"{"allOf":[{"type":"string"},{"type":"string"}]}"#,
        &full(),
    )
    .unwrap()
    .validate_json(b"1");
    assert_eq!(errors.len(), 1);
    assert_eq!(errors[0].schema_location, "#/allOf/0/type");
}

#[test]
fn malformed_input_is_located_at_the_whole_schema() {
    assert_eq!(
        locations(r#"{"type":"object"}"#, &Options::default(), "{"),
        ["#"]
    );
}

#[test]
fn masked_messages_quote_no_instance_value() {
    assert_eq!(
        masked(r#"{"enum":["c","f"]}"#, r#""kelvin""#),
        r#"value is not one of ["c","f"]"#
    );
    assert_eq!(
        masked(r#"{"const":"c"}"#, r#""d""#),
        r#"value is not equal to "c""#
    );
    assert_eq!(
        masked(r#"{"pattern":"^a$"}"#, r#""x""#),
        r#"value does not match pattern "^a$""#
    );
    assert_eq!(
        masked(r#"{"format":"date"}"#, r#""2025-13-01""#),
        "value is not a valid date"
    );
    assert_eq!(
        masked(r#"{"minimum":5}"#, "3"),
        "value is less than the minimum 5"
    );
    assert_eq!(
        masked(r#"{"maximum":5}"#, "7"),
        "value is greater than the maximum 5"
    );
    assert_eq!(
        masked(r#"{"exclusiveMinimum":5}"#, "5"),
        "value is not greater than the exclusive minimum 5"
    );
    assert_eq!(
        masked(r#"{"exclusiveMaximum":5}"#, "5"),
        "value is not less than the exclusive maximum 5"
    );
    assert_eq!(
        masked(r#"{"multipleOf":5}"#, "7"),
        "value is not a multiple of 5"
    );
    assert_eq!(
        masked(
            r#"{"propertyNames":{"pattern":"^[a-z]+$"}}"#,
            r#"{"Foo":1}"#
        ),
        r#"property name "Foo": value does not match pattern "^[a-z]+$""#
    );
    // An explanation of a failed anyOf is masked too.
    assert_eq!(
        masked(r#"{"anyOf":[{"enum":["a"]},{"const":"b"}]}"#, r#""z""#),
        r#"does not match any schema in anyOf: [0] value is not one of ["a"]; [1] value is not equal to "b""#
    );
    let draft7 = Options::default()
        .with_profile(Profile::Full)
        .with_default_draft(super::Draft::Draft7)
        .with_masked_values(true);
    assert_eq!(
        report(r#"{"contentEncoding":"base64"}"#, &draft7, r#""%%""#)[0].1,
        "value is not valid base64"
    );
    assert_eq!(
        report(
            r#"{"contentMediaType":"application/json"}"#,
            &draft7,
            r#""{:}""#
        )[0]
        .1,
        "value is not a valid application/json document"
    );
    // OpenAPI's numeric formats.
    let openapi = Options::default()
        .with_schema_dialect(super::SchemaDialect::OpenApi3_0)
        .with_masked_values(true);
    assert_eq!(
        report(
            r#"{"type":"integer","format":"int32"}"#,
            &openapi,
            "2147483648"
        )[0]
        .1,
        "value is not a valid int32"
    );
}

#[test]
fn masked_messages_keep_what_is_not_a_value() {
    // Types, counts, names, keys and the schema's own values stay.
    assert_eq!(
        masked(r#"{"type":"integer"}"#, r#""3""#),
        "expected integer, got string"
    );
    assert_eq!(
        masked(r#"{"minLength":3}"#, r#""ab""#),
        "expected at least 3 characters, got 2"
    );
    assert_eq!(
        masked(
            r#"{"properties":{"city":{}},"additionalProperties":false}"#,
            r#"{"cty":1}"#
        ),
        r#"unexpected property "cty"; did you mean "city"?"#
    );
    assert_eq!(
        masked(r#"{"uniqueItems":true}"#, "[1,1]"),
        "items [0] and [1] are equal"
    );
}

#[test]
fn masked_malformed_json_names_no_character_found() {
    let opts = Options::default().with_masked_values(true);
    let message = |input: &str| report("{}", &opts, input)[0].1.clone();
    assert_eq!(
        message("{'a':1}"),
        "malformed JSON at line 1 column 2: expected a property name in double quotes"
    );
    assert_eq!(
        message(r#"{"a" 1}"#),
        "malformed JSON at line 1 column 6: expected ':'"
    );
    assert_eq!(
        message("[1 x]"),
        "malformed JSON at line 1 column 4: expected ',' or ']'"
    );
    assert_eq!(
        message("{\"a\":1 x"),
        "malformed JSON at line 1 column 8: expected ',' or '}'"
    );
    assert_eq!(
        message("x"),
        "malformed JSON at line 1 column 1: expected a value"
    );
    assert_eq!(
        message("1 x"),
        "malformed JSON at line 1 column 3: unexpected data after the value"
    );
    assert_eq!(
        message(r#"{"a":1,"a":2}"#),
        r#"malformed JSON at line 1 column 8: duplicate property "a""#
    );
}

#[test]
fn masking_is_off_by_default() {
    assert!(!Options::default().masked_values());
    assert_eq!(
        report(r#"{"enum":["c"]}"#, &Options::default(), r#""k""#)[0].1,
        r#""k" is not one of ["c"]"#
    );
}

#[test]
fn an_unexpected_property_names_the_declared_one_it_is_closest_to() {
    let message = |schema: &str, instance: &str| {
        report(schema, &full(), instance)
            .into_iter()
            .map(|(_, m)| m)
            .collect::<Vec<_>>()
    };
    let uneval = r#"{"properties":{"city":{},"days":{}},"unevaluatedProperties":false}"#;
    assert_eq!(
        message(uneval, r#"{"cty":1,"dayz":2,"zip":3}"#),
        [
            r#"unexpected property "cty"; did you mean "city"?"#,
            r#"unexpected property "dayz"; did you mean "days"?"#,
            r#"unexpected property "zip""#,
        ]
    );
    // Two declared names equally close: which was meant cannot be told.
    let two = r#"{"properties":{"city":{},"cite":{}},"additionalProperties":false}"#;
    assert_eq!(
        message(two, r#"{"cit":1}"#),
        [r#"unexpected property "cit""#]
    );
    // Only `properties` count, not names `required` alone lists.
    let required = r#"{"properties":{"a":{}},"required":["city"],"additionalProperties":false}"#;
    assert_eq!(
        message(required, r#"{"a":1,"cty":1}"#),
        [
            r#"missing required property "city""#,
            r#"unexpected property "cty""#
        ]
    );
}
