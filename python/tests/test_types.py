"""The result types the native module makes are ordinary frozen dataclasses: equal to
ones made in Python, immutable, picklable, usable with the dataclasses functions."""

import dataclasses
import pickle
import weakref

import pytest

import toolgate
from toolgate import OK, CallResult, ValidationError

from conftest import WEATHER_SCHEMA


@pytest.fixture
def made():
    schema = toolgate.compile(WEATHER_SCHEMA)
    (error,) = schema.validate('{"city": "Paris", "days": "3"}')
    with toolgate.ToolRegistry(names="default") as reg:
        reg.register("get_weather", WEATHER_SCHEMA, lambda **kw: "sunny")
        result = reg.call("c1", "get_weather", '{"city": "Paris"}')
    return error, result


def test_equal_to_the_same_values_made_in_python(made):
    error, result = made
    assert error == ValidationError("/days", "type", "expected integer, got string", "integer", "$.days")
    assert error.location == "$.days" and str(error) == "$.days: expected integer, got string"
    assert repr(error) == "ValidationError(path='/days', keyword='type', message='expected integer, got string', expected_type='integer')"
    assert result == CallResult("c1", "get_weather", "sunny", False)
    assert hash(result) == hash(CallResult("c1", "get_weather", "sunny", False))
    assert type(error) is ValidationError and type(result) is CallResult


def test_frozen(made):
    error, result = made
    with pytest.raises(dataclasses.FrozenInstanceError):
        error.path = "/x"
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.content = "changed"


def test_pickle_and_dataclass_functions(made):
    error, result = made
    for value in (error, result):
        copy = pickle.loads(pickle.dumps(value))
        assert copy == value and type(copy) is type(value)
        assert weakref.ref(value)() is value
    assert pickle.loads(pickle.dumps(error)).location == "$.days"
    assert pickle.loads(pickle.dumps(OK)) is OK
    assert dataclasses.is_dataclass(error) and dataclasses.is_dataclass(result)
    assert dataclasses.asdict(result) == {
        "call_id": "c1",
        "name": "get_weather",
        "content": "sunny",
        "is_error": False,
        "outcome": toolgate.CallOutcome.ANSWERED,
        "structured": False,
        "violations": [],
        "invalid_result": None,
        "attempts": 1,
    }
    assert dataclasses.replace(result, call_id="c2").call_id == "c2"
    assert [f.name for f in dataclasses.fields(error)] == [
        "path", "keyword", "message", "expected_type", "location", "schema_location"
    ]
    assert pickle.loads(pickle.dumps(error)).schema_location == "#/properties/days/type"


def test_status_numbers_are_the_cores():
    """toolgate.Status is Python source (so the errors load without the native module);
    its names and numbers must be the core's."""
    from toolgate import Status, _native

    assert {s.name: int(s) for s in Status} == {name: code for name, code, _ in _native.STATUSES}
