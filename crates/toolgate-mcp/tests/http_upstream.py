"""A test upstream served over streamable HTTP, written with the official MCP Python
SDK's MCPServer: `python http_upstream.py PORT`, or over HTTPS with
`python http_upstream.py PORT CERT.pem KEY.pem` (served by uvicorn). Its tool: `echo` (inputSchema: text
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
    port = int(sys.argv[1])
    if len(sys.argv) == 4:
        import uvicorn

        app = server.streamable_http_app(host="127.0.0.1")
        uvicorn.run(
            app, host="127.0.0.1", port=port, ssl_certfile=sys.argv[2], ssl_keyfile=sys.argv[3], log_level="warning"
        )
    else:
        server.run(transport="streamable-http", host="127.0.0.1", port=port)
