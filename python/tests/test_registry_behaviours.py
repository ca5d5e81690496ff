"""What a Python user is taught to expect of a tool registry, checked: schemas apart
from handlers, precise error paths, no silent re-registration, bool is not integer,
keywords outside the core profile refused, and what validation does not promise."""

import pytest

import toolgate
from toolgate import (
    OK,
    DuplicateToolError,
    InvalidNameError,
    Ok,
    SchemaError,
    ToolgateError,
    ToolNotFoundError,
    ToolRecord,
    ValidationError,
)

from conftest import USER_SCHEMA, echo


# A typed registry of tool name -> schema -> handler that the
# dispatcher can ask once and trust afterwards.
def test_registry_holds_name_schema_handler(registry):
    def get_user(id, fields=()):
        return {"id": id}

    returned = registry.register(
        "db.get_user",
        USER_SCHEMA,
        get_user,
        description="Look a user up.",
        idempotent=True,
        timeout_ms=250,
    )
    record = registry.get("db.get_user")
    assert record == returned
    assert isinstance(record, ToolRecord)
    assert record.name == "db.get_user"
    assert record.description == "Look a user up."
    assert record.schema is USER_SCHEMA  # the dict the user gave
    assert record.handler is get_user
    assert record.idempotent is True
    assert record.timeout_ms == 250
    with pytest.raises(Exception):
        record.name = "other"  # frozen


def test_record_defaults(registry):
    registry.register("plain", None, echo)
    record = registry.get("plain")
    assert record.schema == {"type": "object"}
    assert record.description == ""
    assert record.idempotent is False
    assert record.timeout_ms is None


def test_schema_as_json_text_is_recorded_parsed(registry):
    registry.register("t", '{"type":"object","properties":{"a":{"type":"string"}}}', echo)
    assert registry.get("t").schema == {"type": "object", "properties": {"a": {"type": "string"}}}


def test_definitions_keep_the_schema_for_the_model(registry):
    registry.register("b.tool", USER_SCHEMA, echo, description="B")
    registry.register("a.tool", None, echo, description="A")
    defs = registry.definitions()
    assert [d["name"] for d in defs] == ["a.tool", "b.tool"]  # sorted for the model
    assert defs[1] == {"name": "b.tool", "description": "B", "parameters": USER_SCHEMA}
    assert registry.definitions_json() == registry.definitions_json()


# Schema registered separately from the handler, so the validator stays pure
# data and the handler opaque code: validation never calls the handler.
def test_validate_does_not_call_the_handler(registry):
    calls = []
    registry.register("db.get_user", USER_SCHEMA, lambda **kw: calls.append(kw))
    assert registry.validate("db.get_user", {"id": 1}) is OK
    assert registry.validate("db.get_user", {"id": "x"}) != OK
    assert calls == []


# The validator is pure: the same input gives the same answer, every time.
def test_validator_is_pure_and_repeatable(users):
    args = '{"id": "forty-two", "fields": ["phone"]}'
    first = users.validate("db.get_user", args)
    for _ in range(50):
        assert users.validate("db.get_user", args) == first


# The subset's keywords (type, properties, required, enum, minLength,
# maxLength, pattern, items) each enforced.
@pytest.mark.parametrize(
    "schema, good, bad, keyword, path",
    [
        ({"properties": {"a": {"type": "string"}}}, {"a": "x"}, {"a": 1}, "type", "/a"),
        ({"properties": {"a": {"type": "number"}}}, {"a": 1.5}, {"a": "1.5"}, "type", "/a"),
        ({"properties": {"a": {"type": "boolean"}}}, {"a": False}, {"a": 0}, "type", "/a"),
        ({"properties": {"a": {"type": "null"}}}, {"a": None}, {"a": "null"}, "type", "/a"),
        ({"properties": {"a": {"type": "array"}}}, {"a": []}, {"a": {}}, "type", "/a"),
        ({"properties": {"a": {"type": "object"}}}, {"a": {}}, {"a": []}, "type", "/a"),
        ({"required": ["a"]}, {"a": 1}, {"b": 1}, "required", "/a"),
        ({"properties": {"a": {"enum": ["x", "y"]}}}, {"a": "y"}, {"a": "z"}, "enum", "/a"),
        ({"properties": {"a": {"minLength": 2}}}, {"a": "ab"}, {"a": "a"}, "minLength", "/a"),
        ({"properties": {"a": {"maxLength": 2}}}, {"a": "ab"}, {"a": "abc"}, "maxLength", "/a"),
        ({"properties": {"a": {"pattern": "^[a-z]+$"}}}, {"a": "ab"}, {"a": "aB"}, "pattern", "/a"),
        (
            {"properties": {"a": {"items": {"type": "integer"}}}},
            {"a": [1, 2]},
            {"a": [1, "2"]},
            "type",
            "/a/1",
        ),
        ({"properties": {"a": {"properties": {"b": {"type": "string"}}}}}, {"a": {"b": "x"}}, {"a": {"b": 1}}, "type", "/a/b"),
    ],
)
def test_each_keyword_of_the_subset(registry, schema, good, bad, keyword, path):
    registry.register("t", {"type": "object", **schema}, echo)
    assert registry.validate("t", good) is OK
    errors = registry.validate("t", bad)
    assert [(e.path, e.keyword) for e in errors] == [(path, keyword)]


# Precise json-pointer error paths. Example: {'user': {'email': 0}}.
def test_nested_error_path_is_a_json_pointer(registry):
    schema = {
        "type": "object",
        "properties": {
            "user": {
                "type": "object",
                "required": ["email"],
                "properties": {"email": {"type": "string"}},
            }
        },
    }
    registry.register("users.update", schema, echo)
    errors = registry.validate("users.update", {"user": {"email": 0}})
    assert errors == [ValidationError("/user/email", "type", "expected string, got integer", "string")]
    assert errors[0].expected_type == "string"


def test_lesson_pointer_example(registry):
    # {"a": {"b": [1, 2, "x"]}} -> /a/b/2
    schema = {
        "type": "object",
        "properties": {"a": {"type": "object", "properties": {"b": {"type": "array", "items": {"type": "integer"}}}}},
    }
    registry.register("t", schema, echo)
    assert [e.path for e in registry.validate("t", {"a": {"b": [1, 2, "x"]}})] == ["/a/b/2"]


def test_pointer_escapes_tilde_and_slash(registry):
    registry.register("t", {"type": "object", "properties": {"a/b~c": {"type": "string"}}}, echo)
    (error,) = registry.validate("t", {"a/b~c": 1})
    assert error.path == "/a~1b~0c"


# "It does not coerce types (a string "42" does not pass a number schema)."
def test_no_coercion(registry):
    registry.register("t", {"type": "object", "properties": {"n": {"type": "number"}}}, echo)
    (error,) = registry.validate("t", {"n": "42"})
    assert (error.path, error.keyword, error.expected_type) == ("/n", "type", "number")


# Re-registration rejected without explicit override.
def test_duplicate_rejected_without_override(registry):
    registry.register("db.get_user", USER_SCHEMA, echo)
    with pytest.raises(DuplicateToolError) as info:
        registry.register("db.get_user", USER_SCHEMA, echo)
    assert isinstance(info.value, ToolgateError)
    assert isinstance(info.value, ValueError)
    assert str(info.value) == 'tool "db.get_user" is already registered'
    assert info.value.status == toolgate.Status.ERR_DUPLICATE
    assert registry.get("db.get_user").handler is echo  # unchanged


def test_override_replaces_and_keeps_position(registry):
    registry.register("a", None, lambda: "old a")
    registry.register("b", None, lambda: "b")
    record = registry.register("a", USER_SCHEMA, lambda **kw: "new a", override=True, description="new")
    assert registry.get("a") is record
    assert registry.get("a").description == "new"
    assert registry.names() == ["a", "b"]
    assert registry.call("1", "a", {"id": 1}).content == "new a"
    # The new schema is the one enforced.
    assert registry.call("2", "a", {}).is_error


def test_override_of_absent_name_registers(registry):
    registry.register("fresh", None, lambda: "x", override=True)
    assert registry.names() == ["fresh"]


# bool is not integer.
def test_boolean_is_not_integer(users):
    assert users.validate("db.get_user", {"id": True}) == [
        ValidationError("/id", "type", "expected integer, got boolean", "integer")
    ]
    assert users.validate("db.get_user", '{"id": true}') == users.validate("db.get_user", {"id": True})


# Keywords outside the subset. toolgate's core profile
# implements anyOf but refuses oneOf, $ref and allOf at registration.
@pytest.mark.parametrize(
    "keyword, fragment",
    [
        ("oneOf", {"oneOf": [{"type": "string"}, {"type": "integer"}]}),
        ("$ref", {"$ref": "#/$defs/x"}),
        ("allOf", {"allOf": [{"type": "string"}]}),
        ("format", {"type": "string", "format": "email"}),
        ("if", {"if": {"type": "string"}, "then": {"minLength": 1}}),
    ],
)
def test_keywords_outside_the_profile_are_refused_at_register(registry, keyword, fragment):
    schema = {"type": "object", "properties": {"x": fragment}}
    with pytest.raises(SchemaError) as info:
        registry.register("t", schema, echo)
    assert info.value.keyword == keyword
    assert info.value.pointer.startswith("/properties/x")
    assert keyword in str(info.value)
    assert registry.names() == []
    with pytest.raises(SchemaError):
        toolgate.compile(schema)


def test_any_of_is_supported(registry):
    schema = {"type": "object", "properties": {"x": {"anyOf": [{"type": "string"}, {"type": "integer"}]}}}
    registry.register("t", schema, echo)
    assert registry.validate("t", {"x": "a"}) is OK
    assert registry.validate("t", {"x": 3}) is OK
    (error,) = registry.validate("t", {"x": 1.5})
    assert (error.path, error.keyword) == ("/x", "anyOf")


def test_parameters_must_require_an_object(registry):
    with pytest.raises(toolgate.NotObjectSchemaError) as info:
        registry.register("t", {"type": "string"}, echo)
    assert isinstance(info.value, SchemaError)


# The registry's three read methods.
def test_names_in_registration_order(registry):
    for name in ["zeta", "alpha", "mid.tool", "beta"]:
        registry.register(name, None, echo)
    assert registry.names() == ["zeta", "alpha", "mid.tool", "beta"]
    assert sorted(registry._library_names()) == sorted(registry.names())
    registry.unregister("alpha")
    assert registry.names() == ["zeta", "mid.tool", "beta"]
    registry.register("alpha", None, echo)
    assert registry.names() == ["zeta", "mid.tool", "beta", "alpha"]
    assert len(registry) == 4 and "beta" in registry and "gamma" not in registry


def test_get_raises_key_error(registry):
    with pytest.raises(KeyError):
        registry.get("nope")
    with pytest.raises(ToolNotFoundError) as info:
        registry.get("nope")
    assert str(info.value) == 'unknown tool "nope"'


def test_unregister_unknown_raises_key_error(registry):
    with pytest.raises(KeyError):
        registry.unregister("nope")


def test_validate_unknown_tool_raises_key_error(registry):
    with pytest.raises(KeyError):
        registry.validate("nope", {})


def test_validate_returns_ok_or_non_empty_list(users):
    assert isinstance(users.validate("db.get_user", {"id": 1}), Ok)
    result = users.validate("db.get_user", {})
    assert isinstance(result, list) and result and all(isinstance(e, ValidationError) for e in result)


# Not a security boundary: a handler can still misbehave after validation
# passes; the registry reports it as an error result rather than crashing.
def test_handler_can_misbehave_after_validation(users):
    users.register("db.get_user", USER_SCHEMA, lambda **kw: 1 / 0, override=True)
    result = users.call("c1", "db.get_user", {"id": 1})
    assert result.is_error and result.content == "error: division by zero"


# Dotted names (the lesson's naming rule), the registry's default policy.
@pytest.mark.parametrize("name", ["db.get_user", "snake_case.segment.case", "a", "x1.y2", "a" * 64])
def test_dotted_names_accepted(registry, name):
    registry.register(name, None, echo)
    assert registry.names() == [name]


@pytest.mark.parametrize(
    "name", ["", "DB.get_user", "db..get", ".db", "db.", "db-get", "db get", "a" * 65, "db/get", "é"]
)
def test_dotted_names_refused(registry, name):
    with pytest.raises(InvalidNameError) as info:
        registry.register(name, None, echo)
    assert isinstance(info.value, ValueError)
    assert str(info.value).startswith("invalid tool name ")
    assert registry.names() == []


def test_other_policies():
    with toolgate.ToolRegistry(names="default") as reg:
        reg.register("Get-User_2", None, echo)
        with pytest.raises(InvalidNameError):
            reg.register("db.get_user", None, echo)
    with toolgate.ToolRegistry(names="mcp") as reg:
        reg.register("db.Get-User", None, echo)
        reg.register("a" * 128, None, echo)
        with pytest.raises(InvalidNameError):
            reg.register("a" * 129, None, echo)
    with pytest.raises(ValueError):
        toolgate.ToolRegistry(names="strict")
