"""Results and calls in the providers' shapes, against the shared vectors every host
reads: tests/results.json (a call's result written per dialect, and the message that
answers one model turn) and tests/calls.json (the tool calls read from a provider's
response). The bytes must be equal. Every MCP result the module writes is also checked
with the official MCP Python SDK."""

import json
import os
import sys

import pytest

import toolgate
from toolgate import CallOutcome, CallResult, ToolCall, ValidationError

from conftest import REPO_ROOT, WEATHER_SCHEMA

RESULTS_PATH = REPO_ROOT / "tests" / "results.json"
CALLS_PATH = REPO_ROOT / "tests" / "calls.json"
RESULTS = json.loads(RESULTS_PATH.read_text(encoding="utf-8")) if RESULTS_PATH.is_file() else {}
CALLS = json.loads(CALLS_PATH.read_text(encoding="utf-8")) if CALLS_PATH.is_file() else {}
DIALECTS = ["openai-chat", "openai-responses", "anthropic", "mcp", "gemini"]

FORECAST = {
    "type": "object",
    "properties": {"high": {"type": "integer"}, "sky": {"enum": ["sun", "rain"]}},
    "required": ["high"],
    "additionalProperties": False,
}


def call_result(fields):
    """A CallResult from a vector's result fields (those of a result view)."""
    violations = [
        ValidationError(v["pointer"], v["keyword"], v["message"], schema_location=v["schema_location"])
        for v in fields["violations"]
    ]
    return CallResult(
        fields["call_id"],
        fields["name"],
        fields["content"],
        fields["is_error"],
        structured=fields["structured"],
        violations=violations,
    )


def test_the_files_are_there():
    # They ship in the repository: a missing file is a failure, never a skip.
    assert RESULTS_PATH.is_file() and CALLS_PATH.is_file()
    assert len(RESULTS["results"]) >= 5 and len(RESULTS["messages"]) >= 2
    assert len(CALLS["cases"]) >= 10
    for entry in RESULTS["results"] + RESULTS["messages"]:
        assert sorted(entry["expected"]) == sorted(DIALECTS), entry["case"]


@pytest.mark.parametrize("entry", RESULTS.get("results", []), ids=lambda e: e["case"])
@pytest.mark.parametrize("dialect", DIALECTS)
def test_result_bytes(entry, dialect):
    assert call_result(entry["result"]).result_json(dialect) == entry["expected"][dialect]


@pytest.mark.parametrize("entry", RESULTS.get("messages", []), ids=lambda e: e["case"])
@pytest.mark.parametrize("dialect", DIALECTS)
def test_results_message_bytes(entry, dialect):
    results = [call_result(r) for r in entry["results"]]
    assert toolgate.results_message_json(dialect, results) == entry["expected"][dialect]
    # Any iterable of results.
    assert toolgate.results_message_json(dialect, iter(results)) == entry["expected"][dialect]


def test_openai_chat_is_the_tool_message(registry):
    registry.register("t", None, lambda: 'say "hi"\n')
    result = registry.call("id\u00e9", "t", "")
    assert json.loads(result.result_json("openai-chat")) == result.message()


def test_a_registry_result_is_written_with_its_violations_and_structure():
    with toolgate.ToolRegistry(names="default") as reg:
        reg.register("get_weather", WEATHER_SCHEMA, lambda **kw: {"high": 21}, output_schema=FORECAST)
        ok = reg.call("call_1", "get_weather", '{"city": "Paris"}')
        assert ok.result_json("gemini") == (
            '{"functionResponse":{"id":"call_1","name":"get_weather","response":{"output":{"high":21}}}}')
        assert json.loads(ok.result_json("mcp"))["structuredContent"] == {"high": 21}
        refused = reg.call("call_4", "get_weather", '{"days": "3"}')
        meta = json.loads(refused.result_json("mcp"))["_meta"]["toolgate/violations"]
        assert meta == [
            {"pointer": "/city", "keyword": "required", "message": 'missing required property "city"',
             "schemaLocation": "#/required"},
            {"pointer": "/days", "keyword": "type", "message": "expected integer, got string",
             "schemaLocation": "#/properties/days/type"},
        ]


def test_unknown_dialects_and_wrong_types_raise():
    result = CallResult("c", "t", "x", False)
    with pytest.raises(toolgate.InvalidArgumentError, match=r'unknown dialect "openai" \(known: openai-chat'):
        result.result_json("openai")
    with pytest.raises(ValueError):
        toolgate.results_message_json("claude", [result])
    with pytest.raises(ValueError):
        toolgate.read_calls("openai", "{}")
    with pytest.raises(TypeError, match="call_id must be str"):
        CallResult(1, "t", "x", False).result_json("mcp")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="response must be the response's JSON text"):
        toolgate.read_calls("mcp", {"jsonrpc": "2.0"})  # type: ignore[arg-type]
    assert toolgate.results_message_json("anthropic", []) == '{"role":"user","content":[]}'


# -- calls read from a provider's response ------------------------------------------

@pytest.mark.parametrize("case", CALLS.get("cases", []), ids=lambda c: c["case"])
def test_calls(case):
    response = case["response"]
    if "error" in case:
        for given in (response, response.encode()):
            with pytest.raises(toolgate.InvalidResponseError) as info:
                toolgate.read_calls(case["dialect"], given)
            assert str(info.value) == case["error"]["message"]
            assert info.value.index == case["error"]["index"]
            assert isinstance(info.value, ValueError)
            assert info.value.status == toolgate.Status.ERR_RESPONSE
        return
    want = [ToolCall(c["id"], c["name"], c["arguments"]) for c in case["calls"]]
    assert toolgate.read_calls(case["dialect"], response) == want
    assert toolgate.read_calls(case["dialect"], response.encode()) == want
    assert toolgate.read_calls(case["dialect"], bytearray(response.encode())) == want


def test_calls_read_are_run_and_answered():
    response = json.dumps({
        "role": "assistant",
        "content": [
            {"type": "text", "text": "Checking."},
            {"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {"city": "Paris"}},
            {"type": "tool_use", "id": "toolu_2", "name": "get_weather", "input": {"days": 9}},
        ],
    })
    with toolgate.ToolRegistry(names="default") as reg:
        reg.register("get_weather", WEATHER_SCHEMA, lambda city, days=1, unit="c": f"{city}: sunny")
        calls = toolgate.read_calls("anthropic", response)
        assert [c.arguments for c in calls] == ['{"city": "Paris"}', '{"days": 9}']
        results = [reg.call(c.id, c.name, c.arguments) for c in calls]
    assert [r.outcome for r in results] == [CallOutcome.ANSWERED, CallOutcome.INVALID_ARGUMENTS]
    message = json.loads(toolgate.results_message_json("anthropic", results))
    assert message["role"] == "user"
    assert [b["tool_use_id"] for b in message["content"]] == ["toolu_1", "toolu_2"]
    assert [b.get("is_error", False) for b in message["content"]] == [False, True]


def test_a_malformed_response_pickles_with_its_index():
    import pickle

    with pytest.raises(toolgate.InvalidResponseError) as info:
        toolgate.read_calls("openai-chat", '{"role":"assistant","tool_calls":[{"type":"function"}]}')
    copy = pickle.loads(pickle.dumps(info.value))
    assert (type(copy), str(copy), copy.index) == (type(info.value), str(info.value), 0)


# -- the MCP SDK --------------------------------------------------------------------

def mcp_types():
    """`mcp.types` (the official MCP Python SDK), or a loud skip; a failure when the
    SDK is required (CI or TOOLGATE_REQUIRE_TESTDATA=1) on an interpreter it supports
    (Python 3.10 on)."""
    try:
        import mcp.types as types
    except ImportError:
        pass
    else:
        return types
    missing = f"the MCP SDK (the `mcp` package) is not installed for {sys.executable}"
    required = os.environ.get("TOOLGATE_REQUIRE_TESTDATA") == "1" or bool(os.environ.get("CI"))
    if required and sys.version_info >= (3, 10):
        pytest.fail(f"{missing}, and it is required here (CI or TOOLGATE_REQUIRE_TESTDATA=1)")
    print(f"SKIPPED: {missing}")
    pytest.skip(f"SKIPPED: {missing}")


def assert_kept(written, dumped, where):
    """Every member of `written` is in `dumped` with the same value, at every level (a
    member the SDK does not know would be dropped silently by validation alone)."""
    if isinstance(written, dict):
        assert isinstance(dumped, dict), where
        for key, value in written.items():
            assert key in dumped, f"{where}: the SDK drops {key!r}"
            assert_kept(value, dumped[key], f"{where}.{key}")
    elif isinstance(written, list):
        assert isinstance(dumped, list) and len(dumped) == len(written), where
        for i, (w, d) in enumerate(zip(written, dumped)):
            assert_kept(w, d, f"{where}[{i}]")
    else:
        assert (type(written), written) == (type(dumped), dumped), where


def registry_results():
    """A result of every outcome the registry gives a call, the answered ones
    structured or not, with violations of arguments and of answers."""
    with toolgate.ToolRegistry(names="default") as reg:
        reg.register("get_weather", WEATHER_SCHEMA, lambda **kw: {"high": 21, "sky": kw.get("unit")},
                     output_schema=FORECAST)
        reg.register("list", None, lambda: ["a"], output_schema={"type": "array"})
        reg.register("free", None, lambda: "free text")
        reg.register("boom", None, lambda: 1 / 0)
        return [
            reg.call("1", "get_weather", '{"city": "Paris"}'),
            reg.call("2", "get_weather", '{"city": "Paris", "unit": "c"}'),
            reg.call("3", "get_weather", '{"days": "3"}'),
            reg.call("4", "get_weather", "{"),
            reg.call("5", "list", ""),
            reg.call("6", "free", ""),
            reg.call("7", "boom", ""),
            reg.call("8", "nope", ""),
        ]


def test_every_mcp_result_validates_with_the_mcp_sdk():
    types = mcp_types()
    results = [call_result(e["result"]) for e in RESULTS["results"]]
    results += [call_result(r) for e in RESULTS["messages"] for r in e["results"]]
    results += registry_results()
    assert {r.outcome for r in results[-8:]} >= {
        CallOutcome.ANSWERED, CallOutcome.INVALID_ARGUMENTS, CallOutcome.INVALID_RESULT,
        CallOutcome.HANDLER_FAILED, CallOutcome.UNKNOWN_TOOL}
    for result in results:
        text = result.result_json("mcp")
        model = types.CallToolResult.model_validate_json(text)
        assert model.is_error is result.is_error
        assert [c.text for c in model.content] == [result.content]
        written = json.loads(text)
        if result.structured and not result.is_error and result.content.lstrip().startswith("{"):
            assert model.structured_content == json.loads(result.content)
        else:
            assert "structuredContent" not in written
        # Every member written is one the SDK keeps, with the same value.
        assert_kept(written, model.model_dump(by_alias=True, mode="json"), "$")
        violations = (written.get("_meta") or {}).get("toolgate/violations", [])
        assert [v["schemaLocation"] for v in violations] == [v.schema_location for v in result.violations]
    message = json.loads(toolgate.results_message_json("mcp", results))
    assert len(message) == len(results)
    for response in message:
        types.JSONRPCResponse.model_validate_json(json.dumps(response))
        types.CallToolResult.model_validate(response["result"])
