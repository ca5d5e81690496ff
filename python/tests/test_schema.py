"""compile(schema) -> Schema for standalone validation."""

import pytest

import toolgate
from toolgate import OK, SchemaError, ValidationError

from conftest import USER_SCHEMA, WEATHER_SCHEMA


def test_compile_and_validate():
    schema = toolgate.compile(WEATHER_SCHEMA)
    assert schema.validate('{"city": "Paris"}') is OK
    assert schema.is_valid(b'{"city": "Paris", "days": 7}')
    assert schema.is_valid({"city": "Paris", "unit": "f"})
    assert not schema.is_valid('{"city": "Paris", "days": 8}')
    assert schema.validate({"city": "Paris", "days": 8}) == [
        ValidationError("/days", "maximum", "8 is greater than the maximum 7", None)
    ]


def test_get_weather_errors_in_order():
    schema = toolgate.compile(WEATHER_SCHEMA)
    errors = schema.validate('{"days": "3", "unit": "kelvin", "country": "FR"}')
    assert [(e.path, e.keyword) for e in errors] == [
        ("/city", "required"),
        ("/country", "additionalProperties"),
        ("/days", "type"),
        ("/unit", "enum"),
    ]
    assert [str(e) for e in errors] == [
        '$: missing required property "city"',
        '$: unexpected property "country"',
        "$.days: expected integer, got string",
        '$.unit: "kelvin" is not one of ["c","f"]',
    ]
    assert errors[2].expected_type == "integer"


def test_expected_type_of_a_type_list():
    schema = toolgate.compile({"type": ["string", "null"]})
    (error,) = schema.validate("1")
    assert error.expected_type == "string or null"


def test_schema_text_and_value():
    raw = '{"type":"object","properties":{"b":{},"a":{}}}'
    schema = toolgate.compile(raw)
    assert schema.json == raw  # keys in the author's order
    assert schema.schema == {"type": "object", "properties": {"b": {}, "a": {}}}
    assert toolgate.compile(USER_SCHEMA).schema is USER_SCHEMA


@pytest.mark.parametrize(
    "schema, keyword, pointer",
    [
        ({"type": "object", "properties": {"x": {"format": "email"}}}, "format", "/properties/x/format"),
        ({"type": "strnig"}, "type", "/type"),
        ({"pattern": "("}, "pattern", "/pattern"),
        ({"enum": []}, "enum", "/enum"),
        ({"minLength": -1}, "minLength", "/minLength"),
    ],
)
def test_compile_errors_locate_the_keyword(schema, keyword, pointer):
    with pytest.raises(SchemaError) as info:
        toolgate.compile(schema)
    assert info.value.keyword == keyword
    assert info.value.pointer == pointer
    assert info.value.status == toolgate.Status.ERR_SCHEMA
    assert isinstance(info.value, ValueError)


def test_schema_that_is_not_json():
    with pytest.raises(SchemaError):
        toolgate.compile("{not json")
    with pytest.raises(TypeError):
        toolgate.compile(None)


def test_depth_limit():
    schema = toolgate.compile({}, max_depth=4)
    assert schema.is_valid("[[[1]]]")
    assert not schema.is_valid("[[[[[1]]]]]")
    (error,) = schema.validate("[[[[[1]]]]]")
    assert error.keyword == "json"
    deep = "[" * 100000 + "]" * 100000
    assert not toolgate.compile({}).is_valid(deep)  # refused, never a stack overflow


def test_empty_arguments_are_an_empty_object():
    schema = toolgate.compile({"type": "object", "required": ["a"]})
    assert [e.path for e in schema.validate_arguments("")] == ["/a"]
    assert [e.path for e in schema.validate_arguments(b"  ")] == ["/a"]
    assert not schema.is_valid_arguments("")
    assert toolgate.compile({"type": "object"}).is_valid_arguments(" ")


def test_validate_at_most_lists_the_first_violations_and_says_there_were_more():
    schema = toolgate.compile({"type": "array", "items": {"type": "string"}})
    errors = schema.validate("[1,2,3]", at_most=2)
    assert [(e.path, e.keyword, e.message) for e in errors] == [
        ("/0", "type", "expected string, got integer"),
        ("/1", "type", "expected string, got integer"),
        ("", "violations", "more violations not listed (the first 2 are)"),
    ]
    assert schema.validate("[1,2,3]", at_most=toolgate.LISTED_VIOLATIONS) == schema.validate("[1,2,3]")
    assert toolgate.LISTED_VIOLATIONS == 100
    (malformed,) = schema.validate("[1,2,3,", at_most=1)
    assert malformed.keyword == "json"
    assert schema.validate('["a"]', at_most=0) is OK
    required = toolgate.compile({"type": "object", "required": ["a"]})
    assert [e.path for e in required.validate_arguments("", at_most=1)] == ["/a"]
    with pytest.raises((OverflowError, TypeError)):
        schema.validate("[1]", at_most=-1)


def test_an_empty_document_is_malformed():
    # A document is never empty (a validator of model outputs must not take "" for {}).
    schema = toolgate.compile({})
    for empty in ["", b"  "]:
        assert not schema.is_valid(empty)
        [error] = schema.validate(empty)
        assert error.keyword == "json"
        assert error.message.endswith(": unexpected end of input")


def test_bytearray_and_memoryview_are_raw_text():
    schema = toolgate.compile({"type": "object", "properties": {"a": {"type": "integer"}}})
    assert schema.is_valid(bytearray(b'{"a": 1}'))
    assert schema.validate(memoryview(b'{"a": "1"}'))[0].path == "/a"


def test_ok_is_a_singleton():
    assert toolgate.Ok() is OK and bool(OK) and repr(OK) == "Ok"


def test_large_input_takes_the_gil_releasing_path():
    from toolgate import _native

    schema = toolgate.compile({"type": "object", "properties": {"a": {"type": "array", "items": {"type": "integer"}}}})
    items = ",".join(["1"] * (_native.GIL_HELD_MAX_BYTES // 2)) + ',"x"'
    text = '{"a": [' + items + "]}"
    assert len(text) > _native.GIL_HELD_MAX_BYTES
    assert not schema.is_valid(text)
    (error,) = schema.validate(text)
    assert error.path == f"/a/{_native.GIL_HELD_MAX_BYTES // 2}"
    with toolgate.ToolRegistry() as reg:
        reg.register("t", schema.schema, lambda **kw: "ran")
        assert reg.validate("t", text) == [error]


def test_the_full_profile_is_opt_in():
    pydantic_like = {
        "$defs": {"Address": {"type": "object", "properties": {"city": {"type": "string"}},
                              "required": ["city"]}},
        "type": "object",
        "properties": {
            "when": {"type": "string", "format": "date-time"},
            "where": {"$ref": "#/$defs/Address"},
            "count": {"type": "integer", "exclusiveMinimum": 0},
        },
        "required": ["when", "where"],
    }
    with pytest.raises(toolgate.SchemaError):
        toolgate.compile(pydantic_like)
    schema = toolgate.compile(pydantic_like, profile="full")
    assert schema.is_valid({"when": "2025-07-01T09:30:00Z", "where": {"city": "Paris"}})
    errors = schema.validate({"when": "2025-13-01", "where": {}, "count": 0})
    assert sorted((e.path, e.keyword) for e in errors) == [
        ("/count", "exclusiveMinimum"),
        ("/when", "format"),
        ("/where/city", "required"),
    ]
    with pytest.raises(toolgate.InvalidArgumentError):
        toolgate.compile({}, profile="fast")


def test_full_profile_resources_and_annotation_formats():
    schema = toolgate.compile(
        {"$ref": "https://example.com/id.json", "format": "password"},
        profile="full",
        resources={"https://example.com/id.json": {"type": "string", "minLength": 3}},
        annotation_formats=["password"],
    )
    assert schema.is_valid('"abc"') and not schema.is_valid('"ab"')


def test_a_registry_of_full_profile_tools():
    reg = toolgate.ToolRegistry(names="default", profile="full")
    reg.register("pick", {"type": "object", "properties": {"v": {"oneOf": [
        {"type": "integer"}, {"type": "string"}]}}, "required": ["v"]}, lambda v: f"got {v}")
    assert reg.call("c1", "pick", '{"v": 3}').content == "got 3"
    refused = reg.call("c2", "pick", '{"v": true}')
    assert refused.is_error and "oneOf" in refused.content
