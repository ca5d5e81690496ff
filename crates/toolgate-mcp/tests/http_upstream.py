"""A test upstream served over streamable HTTP, written with the official MCP Python
SDK's MCPServer: `python http_upstream.py PORT`. Its tool: `echo` (inputSchema: text
string required; outputSchema: an object with a string `got`). (The SDK's MCPServer
checks its own results, so a result breaking its outputSchema is tested with the stdio
server, upstream.py.)"""

import sys

from pydantic import BaseModel

from mcp.server.mcpserver import MCPServer

server = MCPServer("toolgate-test-http-upstream")


class Echoed(BaseModel):
    got: str


@server.tool()
def echo(text: str) -> Echoed:
    """Answers with the text it received."""
    return Echoed(got=text)


if __name__ == "__main__":
    server.run(transport="streamable-http", host="127.0.0.1", port=int(sys.argv[1]))
