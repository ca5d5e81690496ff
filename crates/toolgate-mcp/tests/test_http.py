"""Streamable HTTP at both ends of the gateway, with the official MCP Python SDK: its
streamable-HTTP client as the host through `--listen`, and a server it serves over
streamable HTTP (http_upstream.py) behind `--upstream-url`."""

import socket
import subprocess
import sys
import time

import anyio
import pytest
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client

from conftest import HERE, gateway_bin, upstream_command


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for_port(port, proc, timeout=20.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        assert proc.poll() is None, "the process exited"
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            return
        except OSError:
            time.sleep(0.1)
    raise AssertionError(f"nothing listens on {port}")


@pytest.fixture
def process():
    procs = []

    def start(args):
        proc = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        procs.append(proc)
        return proc

    yield start
    for proc in procs:
        proc.kill()
        proc.wait(timeout=10)


def test_the_sdks_streamable_http_client_through_listen(process):
    port = free_port()
    gateway = process([gateway_bin(), "--listen", str(port), "--", *upstream_command()])
    wait_for_port(port, gateway)

    async def main():
        async with streamable_http_client(f"http://127.0.0.1:{port}/mcp") as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                listed = await session.list_tools()
                echoed = await session.call_tool("echo", {"text": "over http", "n": 2})
                refused = await session.call_tool("echo", {"text": 5})
                resource = await session.read_resource("test://greeting")
                return listed, echoed, refused, resource

    listed, echoed, refused, resource = anyio.run(main)
    names = [t.name for t in listed.tools]
    assert "echo" in names and "broken_schema" not in names
    assert not echoed.is_error
    assert '"arguments":{"text":"over http","n":2}' in echoed.structured_content["raw"]
    assert refused.is_error
    assert refused.content[0].text == "error: invalid arguments for echo:\n$.text: expected string, got integer"
    assert resource.contents[0].text == "hello, resource"


def test_a_foreign_origin_is_refused(process):
    import http.client

    port = free_port()
    gateway = process([gateway_bin(), "--listen", str(port), "--", *upstream_command()])
    wait_for_port(port, gateway)
    conn = http.client.HTTPConnection("127.0.0.1", port)
    conn.request("POST", "/mcp", body=b"{}", headers={"Origin": "https://evil.example", "Content-Type": "application/json"})
    assert conn.getresponse().status == 403


def test_an_sdk_server_over_streamable_http_behind_upstream_url(process):
    port = free_port()
    upstream = process([sys.executable, str(HERE / "http_upstream.py"), str(port)])
    wait_for_port(port, upstream)

    async def main():
        params = StdioServerParameters(command=gateway_bin(), args=["--upstream-url", f"http://127.0.0.1:{port}/mcp"])
        async with stdio_client(params) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                listed = await session.list_tools()
                echoed = await session.call_tool("echo", {"text": "hi"})
                refused = await session.call_tool("echo", {"text": 1})
                calls = [session.call_tool("echo", {"text": str(i)}) for i in range(16)]
                results = []

                async def one(call):
                    results.append(await call)

                async with anyio.create_task_group() as tg:
                    for call in calls:
                        tg.start_soon(one, call)
                return listed, echoed, refused, results

    listed, echoed, refused, results = anyio.run(main)
    assert [t.name for t in listed.tools] == ["echo"]
    assert listed.tools[0].output_schema["required"] == ["got"]
    assert not echoed.is_error and echoed.structured_content == {"got": "hi"}
    assert refused.is_error
    assert refused.content[0].text == "error: invalid arguments for echo:\n$.text: expected string, got integer"
    # Calls in flight at once, each answered on its own POST.
    assert sorted(int(r.structured_content["got"]) for r in results) == list(range(16))


def test_a_cancelled_call_over_listen_ends_its_post_and_the_gateway_keeps_serving(process):
    import http.client
    import json
    import threading

    port = free_port()
    gateway = process([gateway_bin(), "--listen", str(port), "--", *upstream_command()])
    wait_for_port(port, gateway)
    headers = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}

    def post(message, session=None):
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        h = dict(headers, **({"Mcp-Session-Id": session} if session else {}))
        conn.request("POST", "/mcp", body=json.dumps(message).encode(), headers=h)
        response = conn.getresponse()
        return response.status, response.getheader("Mcp-Session-Id"), response.read()

    init = {
        "jsonrpc": "2.0",
        "id": 0,
        "method": "initialize",
        "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}},
    }
    status, session, _ = post(init)
    assert status == 200 and session
    assert post({"jsonrpc": "2.0", "method": "notifications/initialized"}, session)[0] == 202
    # Without the session id, a request is refused.
    assert post({"jsonrpc": "2.0", "id": 1, "method": "ping"})[0] == 400
    slow = {}
    thread = threading.Thread(
        target=lambda: slow.update(
            answer=post({"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {"name": "slow", "arguments": {"seconds": 30}}}, session)
        )
    )
    thread.start()
    time.sleep(0.5)
    cancel = {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 7}}
    assert post(cancel, session)[0] == 202
    thread.join(timeout=20)
    assert not thread.is_alive(), "the cancelled call's POST never ended"
    assert slow["answer"][0] == 202 and slow["answer"][2] == b""
    status, _, body = post({"jsonrpc": "2.0", "id": 8, "method": "ping"}, session)
    assert status == 200 and json.loads(body) == {"jsonrpc": "2.0", "id": 8, "result": {}}


def test_the_servers_own_messages_reach_the_hosts_get_stream_over_listen(process):
    import http.client
    import json
    import queue
    import threading

    port = free_port()
    gateway = process([gateway_bin(), "--listen", str(port), "--", *upstream_command()])
    wait_for_port(port, gateway)
    headers = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}

    def post(message, session=None):
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        h = dict(headers, **({"Mcp-Session-Id": session} if session else {}))
        conn.request("POST", "/mcp", body=json.dumps(message).encode(), headers=h)
        response = conn.getresponse()
        return response.status, response.getheader("Mcp-Session-Id"), response.read()

    init = {
        "jsonrpc": "2.0",
        "id": 0,
        "method": "initialize",
        "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}},
    }
    _, session, _ = post(init)
    post({"jsonrpc": "2.0", "method": "notifications/initialized"}, session)
    stream = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    stream.request("GET", "/mcp", headers={"Accept": "text/event-stream", "Mcp-Session-Id": session})
    response = stream.getresponse()
    assert response.status == 200 and response.getheader("Content-Type") == "text/event-stream"
    events: "queue.Queue[bytes]" = queue.Queue()

    def read():
        for line in iter(response.readline, b""):
            if line.startswith(b"data: "):
                events.put(line[6:].strip())

    threading.Thread(target=read, daemon=True).start()
    call = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "changed", "arguments": {}}}
    status, _, body = post(call, session)
    assert status == 200 and json.loads(body)["result"]["content"][0]["text"] == "sent"
    assert json.loads(events.get(timeout=20)) == {"jsonrpc": "2.0", "method": "notifications/tools/list_changed"}
    # The gateway read the list again; calls are still checked against it.
    echo = {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "echo", "arguments": {"text": 1}}}
    status, _, body = post(echo, session)
    assert json.loads(body)["result"]["isError"] is True
