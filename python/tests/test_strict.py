"""Strict conversion and the lint of one schema, target dialects on a registry, and
definitions that never hold what a provider refuses: the shared texts of
tests/registry_texts.json (the file every host checks) and the dotted-name rewrite."""

import json

import pytest

import toolgate
from conftest import REPO_ROOT

CASES = json.loads((REPO_ROOT / "tests" / "registry_texts.json").read_text(encoding="utf-8"))


def _registry(case):
    registry = toolgate.ToolRegistry(case["policy"])
    for tool in case["tools"]:
        registry.register(tool["name"], tool["parameters"], lambda **_: "ran")
    return registry


@pytest.mark.parametrize(
    "case", [c for c in CASES if c["what"] == "definitions_refused"], ids=lambda c: c["dialect"]
)
def test_refused_definitions_are_the_shared_texts(case):
    registry = _registry(case)
    error = toolgate.InvalidNameError if case["kind"] == "name" else toolgate.SchemaError
    with pytest.raises(error) as info:
        registry.dialect_definitions(case["dialect"])
    assert str(info.value) == case["message"]
    assert info.value.pointer == case["pointer"]
    assert info.value.keyword == case["keyword"]


def test_renamed_definitions_and_calls_by_the_provider_spelling():
    (case,) = [c for c in CASES if c["what"] == "definitions_renamed"]
    registry = _registry(case)
    definitions, fingerprint = registry.dialect_definitions(case["dialect"])
    assert definitions == case["definitions"]
    assert len(fingerprint) == 64
    result = registry.call("c1", case["call"], "{}")
    assert (result.content, result.is_error) == ("ran", False)
    # MCP takes the dotted name as it is.
    assert '"name":"db.get_user"' in registry.dialect_definitions("mcp")[0]


def test_strict_schema_converts_or_names_every_reason():
    (converted,) = [c for c in CASES if c["what"] == "strict_converted"]
    got = toolgate.strict_schema(converted["target"], converted["schema"])
    assert got == {
        "schema": json.loads(converted["converted"]),
        "nullable": converted["nullable"],
        "closed": converted["closed"],
    }
    # JSON text is taken as well as a value.
    assert toolgate.strict_schema(converted["target"], json.dumps(converted["schema"])) == got
    (refused,) = [c for c in CASES if c["what"] == "strict_refused"]
    with pytest.raises(toolgate.SchemaError) as info:
        toolgate.strict_schema(refused["target"], refused["schema"])
    assert str(info.value) == refused["message"]
    assert (info.value.pointer, info.value.keyword) == (refused["pointer"], refused["keyword"])
    with pytest.raises(toolgate.InvalidArgumentError, match="unknown lint target"):
        toolgate.strict_schema("openai", {"type": "object"})


def test_lint_schema_names_no_tool():
    problems = toolgate.lint_schema(
        "openai-strict", {"type": "object", "properties": {"q": {"type": "string"}}}
    )
    assert [p["rule"] for p in problems] == ["additional-properties", "required-all"]
    assert {p["tool"] for p in problems} == {""}
    assert toolgate.lint_schema("anthropic-strict", '{"type":')[0]["rule"] == "json"
    assert toolgate.lint_schema("gemini", {"type": "object"}) == []


def test_targets_refuse_a_tool_and_mark_definitions_strict():
    registry = toolgate.ToolRegistry("default", targets=["openai-strict"])
    with pytest.raises(toolgate.SchemaError) as info:
        registry.register("open", {"type": "object"}, lambda: "x")
    assert str(info.value) == (
        'tool "open" is refused by openai-strict:\n'
        'open#: an object must set "additionalProperties": false [additional-properties]'
    )
    registry.register(
        "closed", {"type": "object", "properties": {}, "additionalProperties": False}, lambda: "x"
    )
    assert registry.dialect_definitions("openai-chat")[0].endswith('"strict":true}}]')
    with pytest.raises(toolgate.InvalidArgumentError, match="unknown lint target"):
        toolgate.ToolRegistry(targets=["mcp"])


def test_targets_take_dotted_names_as_sent():
    # Python's default policy is dotted: the strict lint checks "db_get_user", the name
    # OpenAI is sent, and a call by that name reaches the tool.
    registry = toolgate.ToolRegistry(targets=["openai-strict"])
    registry.register(
        "db.get_user",
        {"type": "object", "properties": {}, "additionalProperties": False},
        lambda: "user",
    )
    assert registry.lint("openai-strict") == []
    definitions, _ = registry.dialect_definitions("openai-chat")
    assert '"name":"db_get_user"' in definitions
    assert registry.call("c1", "db_get_user", "{}").content == "user"
