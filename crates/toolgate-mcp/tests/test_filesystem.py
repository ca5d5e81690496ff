"""The published filesystem MCP server behind the gateway, with the SDK's client."""

import anyio
import pytest
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

from conftest import filesystem_server, gateway_bin


@pytest.fixture
def folder(tmp_path):
    (tmp_path / "note.txt").write_text("hello through the gateway\n")
    return tmp_path


def run(folder, body):
    server = filesystem_server()

    async def main():
        params = StdioServerParameters(command=gateway_bin(), args=["--", server, str(folder)])
        async with stdio_client(params) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                return await body(session)

    return anyio.run(main)


def test_its_tools_are_listed_with_their_schemas(folder):
    async def body(session):
        return await session.list_tools()

    names = [t.name for t in run(folder, body).tools]
    assert "read_text_file" in names
    assert "list_directory" in names


def test_a_file_is_read_through_the_gateway(folder):
    async def body(session):
        return await session.call_tool("read_text_file", {"path": str(folder / "note.txt")})

    result = run(folder, body)
    assert not result.is_error, result
    assert "hello through the gateway" in result.content[0].text


def test_a_call_with_a_wrong_type_is_refused_before_it_reaches_the_server(folder):
    async def body(session):
        return await session.call_tool("read_text_file", {"path": 42})

    result = run(folder, body)
    assert result.is_error
    assert result.content[0].text.startswith("error: invalid arguments for read_text_file:")
    # Only the gateway writes these: the server never saw the call.
    assert result.meta["toolgate/violations"][0]["pointer"] == "/path"
