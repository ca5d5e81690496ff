"""Output schemas: what a tool answers is checked too, on every call path (call, acall,
and the core's own path). A conforming answer is passed on unchanged and marked
structured; any other (malformed, over the size limit, invalid) is an INVALID_RESULT
whose content lists the violations, the answer kept in invalid_result; a handler that
raises is never checked. The texts are the shared ones of tests/registry_texts.json."""

import asyncio
import json

import pytest

import toolgate
from toolgate import CallOutcome, CallResult

from conftest import REPO_ROOT, WEATHER_SCHEMA

FORECAST = {
    "type": "object",
    "properties": {"high": {"type": "integer"}, "sky": {"enum": ["sun", "rain"]}},
    "required": ["high"],
    "additionalProperties": False,
}

TEXTS = json.loads((REPO_ROOT / "tests" / "registry_texts.json").read_text(encoding="utf-8"))


def answering(answer):
    """A handler that answers with `answer` whatever the arguments."""
    return lambda **kw: answer


def sync_and_async(reg, name, args="{}"):
    """The result of `call`, after checking that `acall` and the core's own path
    give the same one, field for field."""
    result = reg.call("c1", name, args)
    for other in (asyncio.run(reg.acall("c1", name, args)), reg._call_in_core("c1", name, args)):
        assert fields(other) == fields(result)
    return result


def fields(result):
    violations = [(v.path, v.keyword, v.message, v.schema_location, v.location) for v in result.violations]
    return (result.call_id, result.name, result.content, result.is_error, result.outcome,
            result.structured, violations, result.invalid_result)


@pytest.fixture
def reg():
    with toolgate.ToolRegistry(names="default") as registry:
        yield registry


# -- conforming answers -------------------------------------------------------------

@pytest.mark.parametrize("schema", [FORECAST, json.dumps(FORECAST), json.dumps(FORECAST).encode()],
                         ids=["dict", "str", "bytes"])
def test_a_conforming_answer_is_passed_on_unchanged_and_structured(reg, schema):
    answer = '{ "high" : 21,\n "sky": "sun" }'
    reg.register("forecast", None, answering(answer), output_schema=schema)
    result = sync_and_async(reg, "forecast")
    assert result.content == answer  # byte for byte, not re-serialized
    assert (result.outcome, result.structured, result.is_error) == (CallOutcome.ANSWERED, True, False)
    assert (result.violations, result.invalid_result) == ([], None)


def test_a_python_value_is_written_as_json_and_checked(reg):
    reg.register("forecast", None, answering({"high": 21, "sky": "rain"}), output_schema=FORECAST)
    result = sync_and_async(reg, "forecast")
    assert result.content == '{"high":21,"sky":"rain"}'
    assert result.structured and result.outcome is CallOutcome.ANSWERED


@pytest.mark.parametrize(
    "schema, answer, content",
    [
        ({"type": "integer"}, 3, "3"),
        ({"type": "array", "items": {"type": "string"}}, ["a"], '["a"]'),
        ({"type": "null"}, None, "null"),
        ({"type": "string"}, '"text"', '"text"'),
        ({}, "[1, {}]", "[1, {}]"),
    ],
)
def test_any_schema_may_be_the_root(reg, schema, answer, content):
    reg.register("t", None, answering(answer), output_schema=schema)
    result = sync_and_async(reg, "t")
    assert (result.content, result.structured, result.outcome) == (content, True, CallOutcome.ANSWERED)


def test_a_tool_without_output_schema_answers_unchecked(reg):
    reg.register("free", None, answering("not json at all"))
    result = sync_and_async(reg, "free")
    assert result.content == "not json at all"
    assert (result.outcome, result.structured) == (CallOutcome.ANSWERED, False)


def test_async_handlers_are_checked_once_awaited(reg):
    async def forecast():
        await asyncio.sleep(0)
        return {"high": "warm"}

    reg.register("forecast", None, forecast, output_schema=FORECAST)
    for result in (reg.call("c1", "forecast", ""), asyncio.run(reg.acall("c1", "forecast", ""))):
        assert result.outcome is CallOutcome.INVALID_RESULT
        assert result.invalid_result == '{"high":"warm"}'
        assert [v.schema_location for v in result.violations] == ["#/properties/high/type"]


# -- refused answers ----------------------------------------------------------------

def test_an_invalid_answer_lists_every_violation_and_keeps_the_answer(reg):
    answer = {"high": "warm", "sky": "snow", "wind": 3}
    reg.register("forecast", None, answering(answer), output_schema=FORECAST)
    result = sync_and_async(reg, "forecast")
    assert result.content == (
        "error: tool forecast returned an invalid result:\n"
        '$: unexpected property "wind"\n'
        "$.high: expected integer, got string\n"
        '$.sky: "snow" is not one of ["sun","rain"]'
    )
    assert (result.is_error, result.outcome, result.structured) == (True, CallOutcome.INVALID_RESULT, False)
    assert result.invalid_result == '{"high":"warm","sky":"snow","wind":3}'
    assert [(v.path, v.keyword, v.schema_location) for v in result.violations] == [
        ("/wind", "additionalProperties", "#/additionalProperties"),
        ("/high", "type", "#/properties/high/type"),
        ("/sky", "enum", "#/properties/sky/enum"),
    ]
    assert [str(v) for v in result.violations] == result.content.split("\n")[1:]
    assert result.violations[1].expected_type == "integer"


@pytest.mark.parametrize(
    "answer, content",
    [
        ("{'high':1}", "error: tool t returned an invalid result: malformed JSON at line 1 column 2: "
                       "expected a property name in double quotes, found '''"),
        ("", "error: tool t returned an invalid result: malformed JSON at line 1 column 1: unexpected end of input"),
        (b"{\"high\":", "error: tool t returned an invalid result: malformed JSON at line 1 column 9: "
                        "unexpected end of input"),
    ],
    ids=["single-quotes", "empty", "bytes-cut-short"],
)
def test_a_malformed_answer_is_refused_on_one_line(reg, answer, content):
    reg.register("t", None, answering(answer), output_schema={"type": "object"})
    result = sync_and_async(reg, "t")
    assert result.content == content
    assert result.outcome is CallOutcome.INVALID_RESULT
    (violation,) = result.violations
    assert (violation.keyword, violation.schema_location) == ("json", "#")
    assert result.invalid_result == (answer.decode() if isinstance(answer, bytes) else answer)


def test_an_answer_over_the_size_limit_is_refused_unread():
    with toolgate.ToolRegistry(names="default", max_argument_bytes=16) as reg:
        reg.register("long", None, answering('"' + "a" * 32 + '"'), output_schema={"type": "string"})
        result = sync_and_async(reg, "long")
        assert result.content == "error: tool long returned an invalid result: 34 bytes is more than the limit of 16"
        assert [(v.keyword, v.schema_location) for v in result.violations] == [("size", "#")]
        assert result.invalid_result == '"' + "a" * 32 + '"'


def test_a_large_answer_is_checked_as_a_small_one(reg):
    # Above the size at which the check releases the GIL.
    items = list(range(toolgate._native.GIL_HELD_MAX_BYTES // 4))
    reg.register("big", None, answering(items), output_schema={"type": "array", "items": {"type": "integer"}})
    assert sync_and_async(reg, "big").structured
    reg.register("bad", None, answering(items + ["x"]), output_schema={"type": "array", "items": {"type": "integer"}})
    bad = sync_and_async(reg, "bad")
    assert [v.path for v in bad.violations] == [f"/{len(items)}"]


def test_a_handler_failure_is_never_checked(reg):
    def fails():
        raise RuntimeError('{"high": 1}')

    reg.register("fails", None, fails, output_schema=FORECAST)
    result = sync_and_async(reg, "fails")
    assert result.content == 'error: {"high": 1}'
    assert (result.outcome, result.structured, result.violations, result.invalid_result) == (
        CallOutcome.HANDLER_FAILED, False, [], None)


def test_an_answer_with_no_json_form_is_a_handler_failure(reg):
    reg.register("odd", None, answering({1, 2}), output_schema={"type": "array"})
    result = reg.call("c1", "odd", "")
    assert result.content == "error: tool odd returned a value of type set, which is not JSON serializable"
    assert (result.outcome, result.invalid_result) == (CallOutcome.HANDLER_FAILED, None)
    assert asyncio.run(reg.acall("c1", "odd", "")).outcome is CallOutcome.HANDLER_FAILED


def test_the_arguments_are_checked_before_the_answer(reg):
    ran = []
    reg.register("w", WEATHER_SCHEMA, lambda **kw: ran.append(kw) or {"high": 1}, output_schema=FORECAST)
    result = sync_and_async(reg, "w", '{"city": 3}')
    assert result.outcome is CallOutcome.INVALID_ARGUMENTS and ran == []
    assert result.content.startswith("error: invalid arguments for w:")


# -- outcomes -----------------------------------------------------------------------

def test_every_outcome_a_call_can_have(reg):
    reg.register("w", WEATHER_SCHEMA, lambda **kw: "sunny")
    reg.register("boom", None, lambda: 1 / 0)
    reg.register("out", None, answering("x"), output_schema={"type": "integer"})
    cases = {
        ("w", '{"city": "Paris"}'): CallOutcome.ANSWERED,
        ("nope", "{}"): CallOutcome.UNKNOWN_TOOL,
        ("w", '{"city": 1}'): CallOutcome.INVALID_ARGUMENTS,
        ("w", "{"): CallOutcome.INVALID_ARGUMENTS,
        ("boom", ""): CallOutcome.HANDLER_FAILED,
        ("out", ""): CallOutcome.INVALID_RESULT,
    }
    for (name, args), outcome in cases.items():
        result = sync_and_async(reg, name, args)
        assert result.outcome is outcome, (name, args)
        assert result.is_error is (outcome is not CallOutcome.ANSWERED)
        has_violations = outcome in (CallOutcome.INVALID_ARGUMENTS, CallOutcome.INVALID_RESULT)
        assert bool(result.violations) is has_violations


def test_the_outcome_is_a_str_enum():
    assert [o.value for o in CallOutcome] == [
        "answered", "unknown_tool", "invalid_arguments", "handler_failed", "invalid_result", "internal",
        "timed_out", "not_run", "cancelled"]
    assert CallOutcome.INVALID_RESULT == "invalid_result"
    assert str(CallOutcome.INVALID_RESULT) == "invalid_result"
    assert f"{CallOutcome.ANSWERED}" == "answered"
    assert json.dumps({"outcome": CallOutcome.UNKNOWN_TOOL}) == '{"outcome": "unknown_tool"}'
    assert CallOutcome("handler_failed") is CallOutcome.HANDLER_FAILED


def test_new_fields_keep_equality_to_what_the_model_reads():
    plain = CallResult("c1", "t", "error: x", True)
    assert plain.outcome is CallOutcome.ANSWERED and plain.violations == [] and plain.invalid_result is None
    detailed = CallResult("c1", "t", "error: x", True, CallOutcome.HANDLER_FAILED)
    assert detailed == plain and hash(detailed) == hash(plain)


# -- registration -------------------------------------------------------------------

def test_the_record_holds_the_output_schema_as_given(reg):
    assert reg.register("a", None, answering(1)).output_schema is None
    assert reg.register("b", None, answering(1), output_schema=FORECAST).output_schema is FORECAST
    assert reg.register("c", None, answering(1), output_schema=json.dumps(FORECAST)).output_schema == FORECAST
    assert reg.get("b").output_schema is FORECAST


def test_an_output_schema_that_does_not_compile_is_refused_and_nothing_is_lost(reg):
    reg.register("forecast", None, answering({"high": 1}), output_schema=FORECAST)
    for bad in ({"type": "integr"}, '{"type": ', {"minimum": "1"}):
        with pytest.raises(toolgate.SchemaError) as info:
            reg.register("forecast", None, answering(2), output_schema=bad, override=True)
        assert type(info.value) is toolgate.SchemaError
        assert info.value.status == toolgate.Status.ERR_SCHEMA
        assert str(info.value).startswith('invalid output schema for "forecast": ')
        with pytest.raises(toolgate.SchemaError):
            reg.register("other", None, answering(2), output_schema=bad)
    assert reg.names() == ["forecast"] and reg._library_names() == ["forecast"]
    assert reg.get("forecast").output_schema is FORECAST
    assert reg.call("c1", "forecast", "").content == '{"high":1}'


def test_register_all_takes_output_schemas_and_refuses_all_or_nothing(reg):
    reg.register("keep", None, answering("kept"))
    good = {"name": "a", "schema": None, "handler": answering(1), "output_schema": {"type": "integer"}}
    bad = {"name": "b", "schema": None, "handler": answering(1), "output_schema": {"type": "integr"}}
    with pytest.raises(toolgate.SchemaError, match=r'^invalid output schema for "b": #/type: unknown type "integr"'):
        reg.register_all([good, bad])
    assert reg.names() == ["keep"] and reg._library_names() == ["keep"]
    (record,) = reg.register_all([good])
    assert record.output_schema == {"type": "integer"}
    assert reg.call("c1", "a", "").structured


def test_the_schema_s_own_rules_for_an_output_schema_are_not_the_parameters(reg):
    # A parameters schema must require an object; an output schema need not.
    with pytest.raises(toolgate.NotObjectSchemaError):
        reg.register("p", {"type": "integer"}, answering(1))
    reg.register("o", None, answering(1), output_schema={"type": "integer"})


# -- masked values ------------------------------------------------------------------

def test_masked_values_keep_the_arguments_and_the_answer_out_of_every_text():
    with toolgate.ToolRegistry(names="default", masked_values=True) as reg:
        assert reg.masked_values is True
        reg.register("w", WEATHER_SCHEMA, answering({"high": 21, "sky": "snow"}), output_schema=FORECAST)
        refused = reg.call("c1", "w", '{"city": "Paris", "unit": "kelvin"}')
        assert refused.content == 'error: invalid arguments for w:\n$.unit: value is not one of ["c","f"]'
        assert [v.message for v in reg.validate("w", '{"city": "Paris", "unit": "kelvin"}')] == [
            'value is not one of ["c","f"]']
        answered = sync_and_async(reg, "w", '{"city": "Paris"}')
        assert answered.content == 'error: tool w returned an invalid result:\n$.sky: value is not one of ["sun","rain"]'
        assert "snow" not in answered.violations[0].message
        # The host still has the answer.
        assert answered.invalid_result == '{"high":21,"sky":"snow"}'
        malformed = reg.call("c2", "w", "{'city': 'Paris'}")
        assert "Paris" not in malformed.content and "'" not in malformed.content
    with toolgate.ToolRegistry() as reg:
        assert reg.masked_values is False


def test_compile_masks_values_when_asked():
    plain = toolgate.compile({"enum": ["c", "f"]})
    masked = toolgate.compile({"enum": ["c", "f"]}, masked_values=True)
    assert [e.message for e in plain.validate('"kelvin"')] == ['"kelvin" is not one of ["c","f"]']
    assert [e.message for e in masked.validate('"kelvin"')] == ['value is not one of ["c","f"]']
    assert masked.validate('"c"') is toolgate.OK
    assert "kelvin" not in str(toolgate.Schema({"type": "integer"}, masked_values=True).validate('"kelvin"'))


# -- the shared texts ---------------------------------------------------------------

@pytest.mark.parametrize("case", [c for c in TEXTS if c["what"] == "invalid_result"],
                         ids=lambda c: ("masked " if c.get("masked") else "") + c["answer"])
def test_shared_invalid_result(case):
    with toolgate.ToolRegistry(names="default", masked_values=case.get("masked", False)) as reg:
        reg.register(case["tool"], None, answering(case["answer"]), output_schema=case["output_schema"])
        result = sync_and_async(reg, case["tool"])
        assert result.content == case["content"]
        assert result.outcome is CallOutcome.INVALID_RESULT
        assert result.invalid_result == case["answer"]
        assert [v.schema_location for v in result.violations] == case["schema_locations"]


@pytest.mark.parametrize("case", [c for c in TEXTS if c["what"] == "output_schema_refused"], ids=lambda c: c["tool"])
def test_shared_output_schema_refused(case):
    assert case["kind"] == "schema"
    with toolgate.ToolRegistry(names="default") as reg:
        with pytest.raises(toolgate.SchemaError) as info:
            reg.register(case["tool"], None, answering(1), output_schema=case["output_schema"])
        assert str(info.value) == case["message"]
        assert (info.value.pointer, info.value.keyword) == (case["pointer"], case["keyword"])
        assert len(reg) == 0


def test_the_shared_file_has_the_output_schema_cases():
    whats = [c["what"] for c in TEXTS]
    assert whats.count("invalid_result") >= 3 and "output_schema_refused" in whats
