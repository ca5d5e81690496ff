"""The gateway frame by frame, with a raw host writing exact bytes to it and the SDK
server (upstream.py) behind it: exact bytes, bad frames, and faults."""

import json
import os
import time

from conftest import upstream_command


def test_arguments_reach_the_upstream_byte_for_byte(raw_host):
    host = raw_host()
    host.initialize()
    frame = (
        b'{"jsonrpc":"2.0","id":"e1","method":"tools/call","params":{"name":"echo",'
        b'"arguments":{ "z" : 1.0e0,"text":"h\\u00e9\\/",  "a":[ 10E-1 ,-0.0]}}}'
    )
    host.send(frame)
    answer = host.recv()
    assert answer["id"] == "e1"
    assert answer["result"]["isError"] is False
    assert answer["result"]["structuredContent"]["raw"] == frame.decode()


def test_malformed_and_oversized_frames_get_an_error_and_the_gateway_goes_on(raw_host):
    host = raw_host("--max-frame-bytes", "2048")
    host.initialize()
    host.send(b'{"jsonrpc":"2.0","id":1,"method":')
    error = host.recv()
    assert error["id"] is None and error["error"]["code"] == -32700
    assert "malformed JSON-RPC frame" in error["error"]["message"]
    host.send(b'{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"text":"' + b"x" * 4096 + b'"}}}')
    error = host.recv()
    assert error["id"] is None and error["error"]["code"] == -32600
    assert "more than the limit of 2048" in error["error"]["message"]
    host.send(b'{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo","arguments":{"text":"a","text":"b"}}}')
    dup = host.recv()
    assert dup["id"] == 3 and dup["result"]["isError"] is True
    assert "duplicate" in dup["result"]["content"][0]["text"]
    host.send({"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {"name": "echo", "arguments": {"text": "ok"}}})
    ok = host.recv()
    assert ok["id"] == 4 and ok["result"]["isError"] is False


def test_an_upstream_crash_answers_the_pending_calls_and_the_gateway_exits_non_zero(raw_host):
    host = raw_host()
    host.initialize()
    host.send({"jsonrpc": "2.0", "id": 10, "method": "tools/call", "params": {"name": "slow", "arguments": {"seconds": 30}}})
    time.sleep(0.5)
    host.send({"jsonrpc": "2.0", "id": 11, "method": "tools/call", "params": {"name": "crash", "arguments": {}}})
    answers = {host.recv()["id"]: None for _ in range(2)}
    assert set(answers) == {10, 11}
    assert host.proc.wait(timeout=20) != 0
    assert host.stderr_has("upstream server exited"), "".join(host.stderr)


def test_an_upstream_crash_gives_errors_with_the_request_ids(raw_host):
    host = raw_host()
    host.initialize()
    host.send({"jsonrpc": "2.0", "id": "c", "method": "tools/call", "params": {"name": "crash", "arguments": {}}})
    error = host.recv()
    assert error == {
        "jsonrpc": "2.0",
        "id": "c",
        "error": {"code": -32603, "message": "toolgate-mcp: the upstream server exited before answering"},
    }


def test_a_host_that_disconnects_leaves_no_upstream_behind(raw_host, tmp_path):
    pidfile = tmp_path / "pid"
    host = raw_host(upstream=upstream_command("--pidfile", str(pidfile), "--ignore-eof"))
    host.initialize()
    pid = int(pidfile.read_text())
    os.kill(pid, 0)  # running
    host.proc.stdin.close()
    assert host.proc.wait(timeout=20) == 0
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return
        # A killed child the gateway has reaped is gone; one not reaped is a zombie.
        try:
            with open(f"/proc/{pid}/stat") as f:
                if f.read().split(") ")[1].startswith("Z"):
                    return
        except FileNotFoundError:
            return
        time.sleep(0.1)
    raise AssertionError(f"the upstream {pid} outlived its host")


def test_a_cancelled_slow_call_is_never_answered_and_the_gateway_keeps_serving(raw_host):
    host = raw_host()
    host.initialize()
    host.send({"jsonrpc": "2.0", "id": 20, "method": "tools/call", "params": {"name": "slow", "arguments": {"seconds": 1.5}}})
    time.sleep(0.3)
    host.send({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 20, "reason": "test"}})
    host.send({"jsonrpc": "2.0", "id": 21, "method": "ping"})
    assert host.recv() == {"jsonrpc": "2.0", "id": 21, "result": {}}
    # Past the time the slow call would have taken, the gateway still serves, and the
    # only answers the host got are to its own later requests.
    time.sleep(2)
    host.send({"jsonrpc": "2.0", "id": 22, "method": "tools/call", "params": {"name": "echo", "arguments": {"text": "after"}}})
    answer = host.recv()
    assert answer["id"] == 22 and answer["result"]["isError"] is False
    host.send({"jsonrpc": "2.0", "id": 23, "method": "ping"})
    assert host.recv()["id"] == 23
    assert host.lines.empty()


def test_an_answer_over_the_frame_limit_becomes_an_error_for_its_request(raw_host):
    host = raw_host("--max-frame-bytes", "65536")
    host.initialize()
    host.send({"jsonrpc": "2.0", "id": "b", "method": "tools/call", "params": {"name": "big", "arguments": {"size": 200000}}})
    error = host.recv()
    assert error["id"] == "b" and error["error"]["code"] == -32603, error
    assert "more than the limit of 65536" in error["error"]["message"]
    host.send({"jsonrpc": "2.0", "id": "s", "method": "tools/call", "params": {"name": "big", "arguments": {"size": 100}}})
    small = host.recv()
    assert small["id"] == "s" and small["result"]["content"][0]["text"] == "x" * 100


def test_restart_starts_the_upstream_again_and_answers_the_pending_calls(raw_host, tmp_path):
    pidfile = tmp_path / "pid"
    host = raw_host("--on-upstream-exit", "restart", upstream=upstream_command("--pidfile", str(pidfile)))
    host.initialize()
    call = lambda i, name, args: host.send(
        {"jsonrpc": "2.0", "id": i, "method": "tools/call", "params": {"name": name, "arguments": args}}
    )
    call(1, "echo", {"text": "first"})
    assert host.recv()["id"] == 1
    first_pid = pidfile.read_text()
    call(2, "slow", {"seconds": 30})
    time.sleep(0.3)
    call(3, "crash", {})
    errors = {}
    for _ in range(2):
        answer = host.recv()
        errors[answer["id"]] = answer["error"]["message"]
    assert errors == {
        2: "toolgate-mcp: the upstream server exited before answering",
        3: "toolgate-mcp: the upstream server exited before answering",
    }
    # The host goes on with the same session; the new server was initialized by the
    # gateway, and has seen no call before this one.
    call(4, "calls", {})
    answer = host.recv()
    assert answer["id"] == 4 and answer["result"]["content"][0]["text"] == "0", answer
    assert pidfile.read_text() != first_pid
    assert host.proc.poll() is None
    assert host.stderr_has("starting the upstream server again"), "".join(host.stderr)


def test_a_host_of_the_revision_without_initialize_is_served_in_its_protocol_version(raw_host, tmp_path):
    # 2026-07-28: no initialize; every request carries its protocol context in _meta.
    tap = tmp_path / "tap"
    host = raw_host(upstream=upstream_command("--tap", str(tap)))
    meta = {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": {"name": "modern-host", "version": "1"},
    }
    host.send({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "echo", "arguments": {"text": "x"}, "_meta": meta}})
    answer = host.recv()
    assert answer["id"] == 1 and answer["result"]["isError"] is False, answer
    host.send({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "echo", "arguments": {"text": 5}, "_meta": meta}})
    assert host.recv()["result"]["isError"] is True
    # The gateway's own tools/list carried the host's protocol context.
    own = [json.loads(line) for line in tap.read_text().splitlines() if "toolgate-mcp/tools/" in line]
    assert own and own[0]["method"] == "tools/list"
    assert own[0]["params"]["_meta"] == meta
