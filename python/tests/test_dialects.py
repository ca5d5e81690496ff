"""Provider dialects: definitions per provider (exact bytes, fingerprint) and the lint."""

import hashlib
import json

import pytest

import toolgate

SEARCH = {"type": "object", "properties": {"q": {"type": "string"}}}
SEARCH_JSON = json.dumps(SEARCH, separators=(",", ":"))


@pytest.fixture
def search():
    with toolgate.ToolRegistry() as registry:
        registry.register("search", SEARCH, lambda q="": q)
        yield registry


def test_definitions_per_dialect_exact_bytes(search):
    want = {
        "openai-chat": '[{"type":"function","function":{"name":"search","description":"","parameters":%s}}]',
        "openai-responses": '[{"type":"function","name":"search","description":"","parameters":%s}]',
        "anthropic": '[{"name":"search","description":"","input_schema":%s}]',
        "mcp": '[{"name":"search","description":"","inputSchema":%s,"annotations":{"idempotentHint":false}}]',
        "gemini": '{"functionDeclarations":[{"name":"search","description":"","parametersJsonSchema":%s}]}',
    }
    for dialect, shape in want.items():
        text, fingerprint = search.dialect_definitions(dialect)
        assert text == shape % SEARCH_JSON, dialect
        assert fingerprint == hashlib.sha256(text.encode()).hexdigest(), dialect


def test_lint(search):
    assert search.lint("openai-strict") == [
        {"tool": "search", "pointer": "", "rule": "additional-properties",
         "message": 'an object must set "additionalProperties": false'},
        {"tool": "search", "pointer": "/properties/q", "rule": "required-all",
         "message": 'property "q" must be listed in "required" (to keep it optional, make it nullable)'},
    ]
    assert search.lint("gemini") == []


def test_unknown_names_raise_value_error(search):
    with pytest.raises(ValueError, match=r'unknown dialect "openai" \(known: openai-chat'):
        search.dialect_definitions("openai")
    with pytest.raises(ValueError, match=r'unknown lint target "mcp"'):
        search.lint("mcp")
