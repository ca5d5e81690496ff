"""Shared parts of the gateway's tests: where the gateway, the test upstream and the
published filesystem server are, and a raw stdio host for the frame-level tests."""

import json
import os
import queue
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
UPSTREAM = HERE / "upstream.py"


def gateway_bin() -> str:
    path = os.environ.get("TOOLGATE_MCP_BIN")
    if not path or not Path(path).is_file():
        pytest.fail("TOOLGATE_MCP_BIN must name the built toolgate-mcp (crates/toolgate-mcp/ci.sh sets it)")
    return path


def upstream_command(*extra: str) -> list:
    return [sys.executable, str(UPSTREAM), *extra]


class RawHost:
    """A host that writes frames to the gateway's stdin as given and reads its stdout."""

    def __init__(self, gateway_args, upstream):
        self.proc = subprocess.Popen(
            [gateway_bin(), *gateway_args, "--", *upstream],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        self.lines: "queue.Queue[bytes]" = queue.Queue()
        self.stderr: list = []
        threading.Thread(target=self._read, args=(self.proc.stdout, self.lines), daemon=True).start()
        threading.Thread(target=self._err, daemon=True).start()

    @staticmethod
    def _read(stream, sink):
        for line in iter(stream.readline, b""):
            sink.put(line)
        sink.put(b"")

    def _err(self):
        for line in iter(self.proc.stderr.readline, b""):
            self.stderr.append(line.decode("utf-8", "replace"))

    def stderr_has(self, text, timeout=10.0) -> bool:
        """Whether a line of the gateway's stderr holds `text`, waiting up to `timeout`
        seconds for it: a thread of its own reads the lines, and may not have read the
        last ones when the host has already seen what follows them (or the exit)."""
        deadline = time.monotonic() + timeout
        while True:
            if any(text in line for line in list(self.stderr)):
                return True
            if time.monotonic() >= deadline:
                return False
            time.sleep(0.02)

    def send(self, frame):
        if not isinstance(frame, bytes):
            frame = json.dumps(frame).encode()
        self.proc.stdin.write(frame + b"\n")
        self.proc.stdin.flush()

    def recv(self, timeout=20.0) -> dict:
        line = self.lines.get(timeout=timeout)
        assert line, "the gateway closed its output; stderr:\n" + "".join(self.stderr)
        return json.loads(line)

    def initialize(self):
        self.send(
            {
                "jsonrpc": "2.0",
                "id": 0,
                "method": "initialize",
                "params": {
                    "protocolVersion": "2025-11-25",
                    "capabilities": {},
                    "clientInfo": {"name": "raw-host", "version": "1"},
                },
            }
        )
        answer = self.recv()
        assert answer["id"] == 0 and "result" in answer, answer
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        return answer

    def close(self):
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(timeout=10)


@pytest.fixture
def raw_host():
    hosts = []

    def make(*gateway_args, upstream=None):
        host = RawHost(list(gateway_args), upstream or upstream_command())
        hosts.append(host)
        return host

    yield make
    for host in hosts:
        host.close()


def filesystem_server() -> str:
    path = os.environ.get("TOOLGATE_MCP_FS_SERVER")
    if path and Path(path).exists():
        return path
    if os.environ.get("CI") or os.environ.get("TOOLGATE_REQUIRE_TESTDATA"):
        pytest.fail("the published filesystem server is not installed (TOOLGATE_MCP_FS_SERVER)")
    pytest.skip("SKIPPED: the published filesystem server is not installed (crates/toolgate-mcp/ci.sh installs it)")
