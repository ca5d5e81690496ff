"""The error-path table: what the registry returns to the model for the four argument sets."""

import json

import pytest

import toolgate
from toolgate import OK, Ok, ValidationError

from conftest import USER_SCHEMA

CASES = [
    ({"id": 42, "fields": ["id", "name"]}, None),
    ({"id": "forty-two"}, ("/id", "type")),
    ({"fields": ["id"]}, ("/id", "required")),
    ({"id": 1, "fields": ["id", "phone"]}, ("/fields/1", "enum")),
]


def get_user(id, fields=("id",)):
    return {"id": id, "fields": list(fields)}


@pytest.fixture
def registry():
    with toolgate.ToolRegistry() as reg:
        # The table's registration, as written.
        reg.register(name="db.get_user", schema=USER_SCHEMA, handler=get_user)
        yield reg


@pytest.mark.parametrize("as_text", [False, True], ids=["dict", "raw-json"])
@pytest.mark.parametrize("args, expected", CASES)
def test_error_path_table(registry, args, expected, as_text):
    result = registry.validate("db.get_user", json.dumps(args) if as_text else args)
    if expected is None:
        assert result is OK and isinstance(result, Ok) and bool(result)
    else:
        assert isinstance(result, list) and len(result) == 1  # one error
        (error,) = result
        assert (error.path, error.keyword) == expected


def test_error_path_table_exact_errors(registry):
    assert registry.validate("db.get_user", CASES[1][0]) == [
        ValidationError("/id", "type", "expected integer, got string", "integer")
    ]
    assert registry.validate("db.get_user", CASES[2][0]) == [
        ValidationError("/id", "required", 'missing required property "id"', None)
    ]
    assert registry.validate("db.get_user", CASES[3][0]) == [
        ValidationError("/fields/1", "enum", '"phone" is not one of ["id","name","email"]', None)
    ]
    # The path form of the same locations, used in call results.
    assert [str(e) for e in registry.validate("db.get_user", CASES[3][0])] == [
        '$.fields[1]: "phone" is not one of ["id","name","email"]'
    ]


def test_follow_up_boolean_id(registry):
    (error,) = registry.validate("db.get_user", {"id": True})
    assert (error.path, error.keyword, error.expected_type) == ("/id", "type", "integer")


def test_type_mismatch_stops_the_walk(registry):
    # The wrong type at /fields reports one error, not one per element.
    errors = registry.validate("db.get_user", {"id": 1, "fields": "id,phone,zip"})
    assert [(e.path, e.keyword) for e in errors] == [("/fields", "type")]


def test_what_the_model_gets_back_from_call(registry):
    ok = registry.call("call_1", "db.get_user", CASES[0][0])
    assert not ok.is_error
    assert json.loads(ok.content) == {"id": 42, "fields": ["id", "name"]}

    results = [registry.call(f"call_{i}", "db.get_user", args) for i, (args, _) in enumerate(CASES)]
    assert [r.is_error for r in results] == [False, True, True, True]
    assert results[1].content == "error: invalid arguments for db.get_user:\n$.id: expected integer, got string"
    assert results[2].content == 'error: invalid arguments for db.get_user:\n$: missing required property "id"'
    assert results[3].content == (
        'error: invalid arguments for db.get_user:\n$.fields[1]: "phone" is not one of ["id","name","email"]'
    )
    assert results[1].message() == {"role": "tool", "tool_call_id": "call_1", "content": results[1].content}
