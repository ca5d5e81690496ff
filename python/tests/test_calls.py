"""call(): handlers, argument passing, results and refusals."""

import json

import pytest

import toolgate
from toolgate import CallResult

from conftest import WEATHER_SCHEMA, echo


@pytest.fixture
def weather(registry):
    registry.register("get_weather", WEATHER_SCHEMA, lambda city, days=1, unit="c": f"{city}: sunny for {days} days")
    return registry


def test_valid_call_runs_the_handler_with_keyword_arguments(weather):
    result = weather.call("call_1", "get_weather", '{"city": "Paris", "days": 3}')
    assert result == CallResult("call_1", "get_weather", "Paris: sunny for 3 days", False)
    assert result.message() == {"role": "tool", "tool_call_id": "call_1", "content": "Paris: sunny for 3 days"}


def test_get_weather_refusal_text(weather):
    calls = []
    weather.register("get_weather", WEATHER_SCHEMA, lambda **kw: calls.append(kw), override=True)
    result = weather.call("c", "get_weather", '{"days": "3", "unit": "kelvin", "country": "FR"}')
    assert result.is_error
    assert result.content == (
        "error: invalid arguments for get_weather:\n"
        '$: missing required property "city"\n'
        '$: unexpected property "country"\n'
        "$.days: expected integer, got string\n"
        '$.unit: "kelvin" is not one of ["c","f"]'
    )
    assert calls == []  # the handler did not run


def test_unknown_tool(weather):
    weather.register("get_time", None, echo)
    result = weather.call("c", "nope", "{}")
    assert result.is_error and result.name == "nope"
    assert result.content.startswith('error: unknown tool "nope"; available tools: get_time, get_weather')


def test_malformed_json(weather):
    result = weather.call("c", "get_weather", '{"city": "Paris",}')
    assert result.is_error
    assert result.content.startswith("error: invalid arguments for get_weather: malformed JSON at line 1 column ")


def test_empty_arguments_mean_empty_object(registry):
    registry.register("noargs", None, lambda **kw: f"got {kw!r}")
    for empty in ["", "  \n", b"", {}]:
        assert registry.call("c", "noargs", empty).content == "got {}"


def test_non_string_results_are_json_encoded(registry):
    registry.register("d", None, lambda: {"temp": 21.5, "ok": True, "city": "Zürich"})
    registry.register("l", None, lambda: [1, None])
    registry.register("n", None, lambda: None)
    registry.register("i", None, lambda: 12345678901234567890)
    registry.register("s", None, lambda: "plain text")
    registry.register("b", None, lambda: b"raw \xff bytes")
    assert registry.call("c", "d", "").content == '{"temp":21.5,"ok":true,"city":"Zürich"}'
    assert registry.call("c", "l", "").content == "[1,null]"
    assert registry.call("c", "n", "").content == "null"
    assert registry.call("c", "i", "").content == "12345678901234567890"
    assert registry.call("c", "s", "").content == "plain text"
    assert registry.call("c", "b", "").content == "raw \ufffd bytes"  # invalid UTF-8 replaced


def test_unserializable_result_is_an_error_result(registry):
    registry.register("nan", None, lambda: float("nan"))
    registry.register("obj", None, lambda: object())
    assert registry.call("c", "nan", "").is_error
    result = registry.call("c", "obj", "")
    assert result.is_error and "not JSON serializable" in result.content


# Handler exceptions.
def test_handler_exception_becomes_error_result(registry):
    def boom(**kw):
        raise RuntimeError("database unavailable")

    registry.register("boom", None, boom)
    result = registry.call("c9", "boom", "{}")
    assert result == CallResult("c9", "boom", "error: database unavailable", True)
    assert result.message()["content"] == "error: database unavailable"


def test_handler_exception_without_message(registry):
    def boom():
        raise ValueError()

    registry.register("db.boom", None, boom)
    assert registry.call("c", "db.boom", "").content == "error: tool db.boom failed"


def test_handler_exception_whose_str_fails(registry):
    class Weird(Exception):
        def __str__(self):
            raise RuntimeError("no")

    def boom():
        raise Weird()

    registry.register("boom", None, boom)
    assert registry.call("c", "boom", "").content == "error: tool boom failed"


def test_handler_signature_mismatch_is_an_error_result(registry):
    registry.register("one", {"type": "object"}, lambda a: a)
    result = registry.call("c", "one", {"b": 1})
    assert result.is_error and "unexpected keyword argument 'b'" in result.content


def test_keyboard_interrupt_in_handler_is_reraised_after_the_c_call(registry):
    def stop():
        raise KeyboardInterrupt

    registry.register("stop", None, stop)
    with pytest.raises(KeyboardInterrupt):
        registry.call("c", "stop", "")
    # The registry is intact afterwards.
    registry.register("fine", None, lambda: "fine")
    assert registry.call("c", "fine", "").content == "fine"


def test_system_exit_in_handler_is_reraised(registry):
    registry.register("quit", None, lambda: (_ for _ in ()).throw(SystemExit(3)))
    with pytest.raises(SystemExit):
        registry.call("c", "quit", "")


# Arguments: raw text passed through unchanged; Python values serialized losslessly.
def test_raw_arguments_reach_the_handler_byte_for_byte(registry):
    # arguments="json": the handler receives the text the model sent, as validated.
    seen = []
    registry.register("t", None, lambda text: seen.append(text) or "ok", arguments="json")
    raw = '{ "b" : 1.50 ,\n"a":"\\u00e9\\n", "big": 123456789012345678901234567890 }'
    result = registry.call("c", "t", raw)
    assert not result.is_error
    assert seen == [raw]
    registry.call("c", "t", raw.encode())
    assert seen[1] == raw
    registry.call("c", "t", "")
    assert seen[2] == "{}"  # empty arguments mean {}


def test_handler_sees_the_parsed_arguments(registry):
    registry.register("t", None, lambda **kw: repr(sorted((k, type(v).__name__, v) for k, v in kw.items())))
    raw = '{"big": 123456789012345678901234567890, "f": 1.5, "t": true, "s": "h\\u00e9", "n": null}'
    content = registry.call("c", "t", raw).content
    assert content == repr(
        sorted(
            [
                ("big", "int", 123456789012345678901234567890),
                ("f", "float", 1.5),
                ("t", "bool", True),
                ("s", "str", "hé"),
                ("n", "NoneType", None),
            ]
        )
    )


def test_non_identifier_keys_reach_the_handler(registry):
    registry.register("t", None, lambda **kw: kw)
    assert json.loads(registry.call("c", "t", '{"a b": 1, "class": 2, "é": 3}').content) == {"a b": 1, "class": 2, "é": 3}


def test_duplicate_keys_are_refused_as_malformed(registry):
    calls = []
    registry.register("t", None, lambda **kw: calls.append(kw))
    result = registry.call("c", "t", '{"amount": 1, "amount": 1000000}')
    assert result.is_error
    assert 'duplicate property "amount"' in result.content
    assert calls == []
    (error,) = registry.validate("t", b'{"amount": 1, "amount": 1000000}')
    assert error.keyword == "json" and error.path == ""


def test_python_values_are_serialized_without_loss(registry):
    schema = {
        "type": "object",
        "properties": {"flag": {"type": "boolean"}, "n": {"type": "integer", "minimum": 18446744073709551616}},
    }
    registry.register("t", schema, echo)
    assert registry.validate("t", {"flag": True, "n": 18446744073709551616}) is toolgate.OK
    # True stays a boolean: it is not the integer 1.
    (error,) = registry.validate("t", {"n": True})
    assert (error.path, error.expected_type) == ("/n", "integer")
    # A big integer is compared exactly (2**64 - 1 < minimum 2**64).
    (error,) = registry.validate("t", {"n": 18446744073709551615})
    assert error.keyword == "minimum"
    assert json.loads(registry.call("c", "t", {"n": 2**64 + 1}).content) == {"n": 2**64 + 1}


def test_unserializable_args_raise(registry):
    registry.register("t", None, echo)
    with pytest.raises(ValueError):
        registry.validate("t", {"x": float("nan")})
    with pytest.raises(TypeError):
        registry.call("c", "t", {"x": object()})


def test_lone_surrogates_in_text_are_malformed_not_a_crash(registry):
    registry.register("t", None, echo)
    result = registry.call("c", "t", '{"a": "\ud800"}')
    assert result.is_error and "invalid UTF-8" in result.content
    result = registry.call("c", "t", b'{"a": "\xff"}')
    assert result.is_error and "malformed JSON" in result.content


def test_call_id_and_names_are_text(registry):
    registry.register("t", None, echo)
    with pytest.raises(TypeError):
        registry.call(1, "t", "{}")
    with pytest.raises(toolgate.InvalidTextError):
        registry.call("\ud800", "t", "{}")
    result = registry.call('id "quoted"\n', "t", "{}")
    assert result.call_id == 'id "quoted"\n'


# Handlers may use the registry.
def test_handler_may_call_the_registry(registry):
    registry.register("double", {"type": "object", "properties": {"x": {"type": "integer"}}}, lambda x: x * 2)
    registry.register("quad", None, lambda x: registry.call("inner", "double", {"x": int(registry.call("i", "double", {"x": x}).content)}).content)
    assert registry.call("c", "quad", {"x": 5}).content == "20"


def test_handler_may_register_and_unregister(registry):
    def installer():
        registry.register("installed", None, lambda: "hi", override=True)
        return "ok"

    def remover():
        registry.unregister("remover")
        return "gone"

    registry.register("installer", None, installer)
    registry.register("remover", None, remover)
    assert registry.call("c", "installer", "").content == "ok"
    assert registry.call("c", "installed", "").content == "hi"
    assert registry.call("c", "remover", "").content == "gone"
    assert registry.names() == ["installer", "installed"]


def test_sync_call_of_an_async_handler(registry):
    async def slow(x):
        return x + 1

    registry.register("slow", None, slow)
    assert registry.call("c", "slow", {"x": 1}).content == "2"
