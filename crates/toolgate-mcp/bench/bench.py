"""The gateway's cost: `tools/call` round trips of the official MCP Python SDK's client
to the SDK test server (tests/upstream.py, its `echo` tool), directly and through
toolgate-mcp, with arguments of 100 B and 10 KB; and the memory the gateway holds per
listed tool (its resident set with 10,000 tools listed, less with none, divided).

    python bench.py TOOLGATE_MCP_BIN [--calls N]

Prints a Markdown table. Not run in CI (it takes a minute or two).
"""

import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

import anyio
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

UPSTREAM = Path(__file__).resolve().parent.parent / "tests" / "upstream.py"


async def round_trips(params, arguments, calls):
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            for _ in range(min(200, calls // 5)):  # warm up
                await session.call_tool("echo", arguments)
            times = []
            start = time.perf_counter()
            for _ in range(calls):
                t = time.perf_counter()
                result = await session.call_tool("echo", arguments)
                times.append(time.perf_counter() - t)
                assert not result.is_error, result
            total = time.perf_counter() - start
    times.sort()
    return {
        "cps": calls / total,
        "p50": times[len(times) // 2] * 1e6,
        "p99": times[int(len(times) * 0.99)] * 1e6,
        "mean": statistics.fmean(times) * 1e6,
    }


def rss_after_listing(gateway, tools):
    """The gateway's VmRSS (KiB) once it has read an upstream's list of `tools` extra tools."""
    args = [sys.executable, str(UPSTREAM)] + (["--tools", str(tools)] if tools else [])
    proc = subprocess.Popen([gateway, "--", *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)

    def send(msg):
        proc.stdin.write(json.dumps(msg).encode() + b"\n")
        proc.stdin.flush()

    def recv():
        return json.loads(proc.stdout.readline())

    send({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "bench", "version": "1"}}})
    recv()
    send({"jsonrpc": "2.0", "method": "notifications/initialized"})
    # A call waits until the gateway has read and compiled the whole list.
    send({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "echo", "arguments": {"text": "x"}}})
    recv()
    with open(f"/proc/{proc.pid}/status") as f:
        rss = next(int(line.split()[1]) for line in f if line.startswith("VmRSS:"))
    proc.stdin.close()
    proc.wait(timeout=30)
    return rss


def main():
    gateway = sys.argv[1]
    calls = int(sys.argv[sys.argv.index("--calls") + 1]) if "--calls" in sys.argv else 2000
    direct = StdioServerParameters(command=sys.executable, args=[str(UPSTREAM)])
    through = StdioServerParameters(command=gateway, args=["--", sys.executable, str(UPSTREAM)])
    print("| arguments | path | calls/s | p50 (µs) | p99 (µs) | gateway's share at p50 |")
    print("|---|---|---:|---:|---:|---|")
    for label, size in [("100 B", 100), ("10 KB", 10_000)]:
        # `text` padded so the arguments object is `size` bytes as JSON.
        arguments = {"text": "x" * (size - len('{"text":""}'))}
        assert len(json.dumps(arguments, separators=(",", ":"))) == size
        d = anyio.run(round_trips, direct, arguments, calls)
        g = anyio.run(round_trips, through, arguments, calls)
        added = g["p50"] - d["p50"]
        budget = max(0.10 * d["p50"], 50.0)
        verdict = "met" if added <= budget else "MISS"
        print(f"| {label} | direct | {d['cps']:.0f} | {d['p50']:.0f} | {d['p99']:.0f} | |")
        print(
            f"| {label} | through toolgate-mcp | {g['cps']:.0f} | {g['p50']:.0f} | {g['p99']:.0f} | "
            f"+{added:.0f} µs ({100 * added / d['p50']:.1f} %; budget {budget:.0f} µs: {verdict}) |"
        )
    base = rss_after_listing(gateway, 0)
    full = rss_after_listing(gateway, 10_000)
    print()
    print(f"gateway RSS: {base} KiB with the 7 tools of the test server, {full} KiB with 10,007: "
          f"{(full - base) * 1024 / 10_000:.0f} bytes per listed tool")


if __name__ == "__main__":
    main()
