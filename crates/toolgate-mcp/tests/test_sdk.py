"""The gateway between the official MCP Python SDK's client and a server written with
the same SDK (upstream.py): what the host sees through it."""

import json

import anyio
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

from conftest import UPSTREAM, gateway_bin

import sys


def run(body, *gateway_args, upstream_args=(), errlog=None):
    """Runs `body(session)` with an SDK client connected through the gateway (its
    stderr to `errlog`, a file, when given)."""

    async def main():
        params = StdioServerParameters(
            command=gateway_bin(),
            args=[*gateway_args, "--", sys.executable, str(UPSTREAM), *upstream_args],
        )
        async with stdio_client(params, **({"errlog": errlog} if errlog else {})) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                return await body(session)

    return anyio.run(main)


def violations(result):
    return (result.meta or {}).get("toolgate/violations")


async def upstream_calls(session) -> int:
    """How many tools/call frames reached the upstream (the counting call excluded)."""
    result = await session.call_tool("calls", {})
    return int(result.content[0].text)


def test_the_tool_whose_schema_does_not_compile_is_withheld_from_the_list():
    async def body(session):
        return await session.list_tools()

    listed = run(body)
    names = [t.name for t in listed.tools]
    assert names == ["echo", "calls", "bad_result", "slow", "crash", "big", "changed", "legacy"]
    echo = listed.tools[0]
    assert echo.output_schema["required"] == ["raw"]


def test_a_valid_call_reaches_the_upstream_with_its_arguments_unchanged():
    async def body(session):
        return await session.call_tool("echo", {"text": "h\u00e9 \"q\"", "n": 3, "extra": [1.5, None]})

    result = run(body)
    assert not result.is_error
    raw = result.structured_content["raw"]
    received = json.loads(raw)
    assert received["method"] == "tools/call"
    assert received["params"]["arguments"] == {"text": "h\u00e9 \"q\"", "n": 3, "extra": [1.5, None]}
    assert list(received["params"]["arguments"]) == ["text", "n", "extra"]


def test_a_wrong_typed_call_is_refused_with_the_violations_and_never_reaches_the_upstream():
    async def body(session):
        before = await upstream_calls(session)
        refused = await session.call_tool("echo", {"text": 5})
        after = await upstream_calls(session)
        return refused, after - before

    refused, reached = run(body)
    assert refused.is_error
    assert refused.content[0].text == "error: invalid arguments for echo:\n$.text: expected string, got integer"
    assert violations(refused) == [
        {
            "pointer": "/text",
            "keyword": "type",
            "message": "expected string, got integer",
            "schemaLocation": "#/properties/text/type",
        }
    ]
    # Only the counting call itself reached the upstream in between.
    assert reached == 1


def test_an_unknown_tool_gets_the_did_you_mean_text():
    async def body(session):
        return await session.call_tool("ecoh", {"text": "x"})

    result = run(body)
    assert result.is_error
    text = result.content[0].text
    assert text.startswith('error: unknown tool "ecoh"'), text
    assert "echo" in text


def test_a_tool_withheld_for_its_schema_cannot_be_called():
    async def body(session):
        return await session.call_tool("broken_schema", {"a": "x"})

    result = run(body)
    assert result.is_error
    assert result.content[0].text.startswith('error: unknown tool "broken_schema"')


def test_pass_unchecked_lists_and_relays_the_tool_whose_schema_does_not_compile():
    async def body(session):
        listed = await session.list_tools()
        called = await session.call_tool("broken_schema", {"a": 1})
        return [t.name for t in listed.tools], called

    names, called = run(body, "--pass-unchecked")
    assert "broken_schema" in names
    # The upstream answered (it has no such handler, and says so).
    assert called.content[0].text == "no tool broken_schema"


def test_a_draft_07_schema_is_read_as_draft_07():
    async def body(session):
        refused = await session.call_tool("legacy", {"a": 1})
        passed = await session.call_tool("legacy", {"a": 1, "b": 2})
        return refused, passed

    refused, passed = run(body)
    assert refused.is_error and violations(refused)[0]["keyword"] == "dependencies"
    assert passed.content[0].text == "no tool legacy"


def test_structured_content_that_breaks_the_output_schema_becomes_an_error_result():
    async def body(session):
        return await session.call_tool("bad_result", {})

    result = run(body)
    assert result.is_error
    assert result.content[0].text == (
        "error: tool bad_result returned an invalid result:\n$.temperature: expected number, got string"
    )
    assert result.structured_content is None
    assert violations(result)[0]["pointer"] == "/temperature"


def test_resources_and_prompts_pass_through_unchanged():
    async def body(session):
        resources = await session.list_resources()
        read = await session.read_resource("test://greeting")
        prompts = await session.list_prompts()
        prompt = await session.get_prompt("hello")
        await session.send_ping()
        return resources, read, prompts, prompt

    resources, read, prompts, prompt = run(body)
    assert [str(r.uri) for r in resources.resources] == ["test://greeting"]
    assert read.contents[0].text == "hello, resource"
    assert [p.name for p in prompts.prompts] == ["hello"]
    assert prompt.messages[0].content.text == "hello, prompt"


def test_64_calls_in_flight_at_once_are_each_answered():
    async def body(session):
        results = {}

        async def one(i):
            if i < 0:
                results[i] = await session.call_tool("echo", {"text": i})
            elif i % 2:
                results[i] = await session.call_tool("slow", {"seconds": 0.5})
            else:
                results[i] = await session.call_tool("echo", {"text": str(i)})

        async with anyio.create_task_group() as tg:
            for i in range(64):
                tg.start_soon(one, i)
            # One refused call among them, answered by the gateway meanwhile.
            tg.start_soon(one, -1)
        return results

    results = run(body)
    assert len(results) == 65
    assert results.pop(-1).is_error
    for i, result in results.items():
        if i % 2:
            assert result.content[0].text == "done"
        else:
            assert json.loads(result.structured_content["raw"])["params"]["arguments"] == {"text": str(i)}


def test_a_list_change_reaches_the_host_and_calls_are_checked_against_the_list_read_again():
    async def body(session):
        sent = await session.call_tool("changed", {})
        refused = await session.call_tool("echo", {"text": 1})
        passed = await session.call_tool("echo", {"text": "1"})
        return sent, refused, passed

    sent, refused, passed = run(body)
    assert sent.content[0].text == "sent"
    assert refused.is_error and violations(refused)[0]["keyword"] == "type"
    assert not passed.is_error
