"""A test upstream MCP server, written with the official MCP Python SDK (low-level Server).

Run as `python upstream.py [--tap FILE] [--pidfile FILE] [--ignore-eof] [--tools N]
[--hostile]`. Every frame it reads from stdin is first
written, as the exact bytes received, to a tap; the SDK reads the frames after that.
Its tools:

- `echo` (inputSchema: text string required, n integer, extra free) answers with the exact
  bytes of the `tools/call` frame it received, as `structuredContent.raw`;
- `calls` answers how many `tools/call` frames reached the server before it;
- `bad_result` declares an outputSchema and answers with structuredContent that breaks it;
- `slow` sleeps `seconds` before answering (for calls in flight and cancellation);
- `crash` exits the process without answering;
- `broken_schema` has an inputSchema that does not compile (an unknown type, and a
  reference to a document that is never fetched);
- `legacy` declares its inputSchema in draft-07 (`dependencies`);
- `big` answers with a text of `size` bytes;
- `changed` sends `notifications/tools/list_changed`, then answers.

`--tools N` adds N generated tools (`gen_00000`...), each with a schema of its own;
`--hostile` adds tools whose schemas attack a validator (see `HOSTILE`).

It also has one resource (`test://greeting`) and one prompt (`hello`).
"""

import json
import os
import sys
import threading

import anyio
import mcp.types as types
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server

RAW_CALLS: dict = {}
CALL_FRAMES = []
LOCK = threading.Lock()

TOOLS = [
    types.Tool(
        name="echo",
        description="Answers with the exact bytes of the call it received.",
        input_schema={
            "type": "object",
            "properties": {"text": {"type": "string"}, "n": {"type": "integer"}},
            "required": ["text"],
        },
        output_schema={
            "type": "object",
            "properties": {"raw": {"type": "string"}},
            "required": ["raw"],
        },
    ),
    types.Tool(
        name="calls",
        description="How many tools/call frames reached the server before this one.",
        input_schema={"type": "object", "additionalProperties": False},
    ),
    types.Tool(
        name="bad_result",
        description="Answers with a result that breaks its own outputSchema.",
        input_schema={"type": "object"},
        output_schema={
            "type": "object",
            "properties": {"temperature": {"type": "number"}},
            "required": ["temperature"],
        },
    ),
    types.Tool(
        name="slow",
        description="Sleeps, then answers.",
        input_schema={
            "type": "object",
            "properties": {"seconds": {"type": "number", "minimum": 0, "maximum": 30}},
            "required": ["seconds"],
        },
    ),
    types.Tool(
        name="crash",
        description="Exits without answering.",
        input_schema={"type": "object"},
    ),
    types.Tool(
        name="broken_schema",
        description="Its inputSchema does not compile.",
        input_schema={
            "type": "object",
            "properties": {
                "a": {"type": "strnig"},
                "b": {"$ref": "https://schemas.invalid/b.json"},
            },
        },
    ),
    types.Tool(
        name="big",
        description="Answers with a text of `size` bytes.",
        input_schema={"type": "object", "properties": {"size": {"type": "integer"}}, "required": ["size"]},
    ),
    types.Tool(
        name="changed",
        description="Says the tool list changed.",
        input_schema={"type": "object"},
    ),
    types.Tool(
        name="legacy",
        description="A draft-07 schema.",
        input_schema={
            "$schema": "http://json-schema.org/draft-07/schema#",
            "type": "object",
            "dependencies": {"a": ["b"]},
        },
    ),
]


def generated(n):
    """N tools, each with a schema of its own (a pattern, bounds and an enum numbered by it)."""
    return [
        types.Tool(
            name=f"gen_{i:05}",
            description=f"Generated tool {i}.",
            input_schema={
                "type": "object",
                "properties": {
                    "id": {"type": "string", "pattern": f"^g{i}-[a-z]+$"},
                    "count": {"type": "integer", "minimum": 0, "maximum": i + 1},
                    "mode": {"enum": ["a", "b", f"m{i}"]},
                },
                "required": ["id"],
                "additionalProperties": False,
            },
        )
        for i in range(n)
    ]


def nested(depth):
    schema = {"type": "string"}
    for _ in range(depth):
        schema = {"type": "object", "properties": {"a": schema}}
    return schema


HOSTILE = [
    # A chain of 2,000 references, each to the next.
    types.Tool(
        name="deep_refs",
        input_schema={
            "type": "object",
            "properties": {"a": {"$ref": "#/$defs/d0"}},
            "$defs": {
                **{f"d{i}": {"$ref": f"#/$defs/d{i + 1}"} for i in range(2000)},
                "d2000": {"type": "string"},
            },
        },
    ),
    # References that only lead to each other.
    types.Tool(
        name="ref_cycle",
        input_schema={
            "type": "object",
            "properties": {"a": {"$ref": "#/$defs/x"}},
            "$defs": {"x": {"$ref": "#/$defs/y"}, "y": {"$ref": "#/$defs/x"}},
        },
    ),
    # A pattern of a million repetitions, and one that backtracks exponentially elsewhere.
    types.Tool(
        name="huge_pattern",
        input_schema={
            "type": "object",
            "properties": {"a": {"type": "string", "pattern": "((a{1000}){1000}){1000}"}},
        },
    ),
    types.Tool(
        name="backtracking_pattern",
        input_schema={
            "type": "object",
            "properties": {"a": {"type": "string", "pattern": "^(a+)+$"}},
        },
    ),
    # A pattern of 200,000 characters.
    types.Tool(
        name="long_pattern",
        input_schema={
            "type": "object",
            "properties": {"a": {"type": "string", "pattern": "(?:" + "|".join(f"w{i}" for i in range(30000)) + ")"}},
        },
    ),
    # Nesting deeper than the depth limit (128): 141 levels.
    types.Tool(name="deep_nesting", input_schema={"type": "object", "properties": {"a": nested(70)}}),
    # Composition that multiplies: 20 levels of allOf pairs.
    types.Tool(
        name="wide_composition",
        input_schema={
            "type": "object",
            "properties": {"a": {"$ref": "#/$defs/c0"}},
            "$defs": {
                **{f"c{i}": {"allOf": [{"$ref": f"#/$defs/c{i + 1}"}, {"$ref": f"#/$defs/c{i + 1}"}]} for i in range(20)},
                "c20": {"type": "string"},
            },
        },
    ),
]


async def list_tools(ctx, params):
    tools = list(TOOLS)
    if "--hostile" in sys.argv:
        tools += HOSTILE
    if "--tools" in sys.argv:
        tools += GENERATED
    return types.ListToolsResult(tools=tools)


async def call_tool(ctx, params):
    name = params.name
    args = params.arguments or {}
    if name == "echo":
        with LOCK:
            raw = RAW_CALLS.get(json.dumps(ctx.request_id), "")
        return types.CallToolResult(
            content=[types.TextContent(type="text", text=raw)],
            structured_content={"raw": raw},
        )
    if name == "calls":
        with LOCK:
            count = len(CALL_FRAMES) - 1
        return types.CallToolResult(content=[types.TextContent(type="text", text=str(count))])
    if name == "bad_result":
        return types.CallToolResult(
            content=[types.TextContent(type="text", text="warm")],
            structured_content={"temperature": "warm"},
        )
    if name == "slow":
        await anyio.sleep(float(args.get("seconds", 0)))
        return types.CallToolResult(content=[types.TextContent(type="text", text="done")])
    if name == "crash":
        os._exit(3)
    if name == "changed":
        await ctx.session.send_tool_list_changed()
        return types.CallToolResult(content=[types.TextContent(type="text", text="sent")])
    if name == "big":
        return types.CallToolResult(content=[types.TextContent(type="text", text="x" * int(args["size"]))])
    if name in {t.name for t in HOSTILE}:
        return types.CallToolResult(content=[types.TextContent(type="text", text=f"{name} reached")])
    if name.startswith("gen_"):
        return types.CallToolResult(content=[types.TextContent(type="text", text=f"{name} reached")])
    return types.CallToolResult(
        content=[types.TextContent(type="text", text=f"no tool {name}")], is_error=True
    )


async def list_resources(ctx, params):
    return types.ListResourcesResult(
        resources=[types.Resource(uri="test://greeting", name="greeting", mime_type="text/plain")]
    )


async def read_resource(ctx, params):
    return types.ReadResourceResult(
        contents=[types.TextResourceContents(uri=str(params.uri), mime_type="text/plain", text="hello, resource")]
    )


async def list_prompts(ctx, params):
    return types.ListPromptsResult(prompts=[types.Prompt(name="hello", description="Says hello")])


async def get_prompt(ctx, params):
    return types.GetPromptResult(
        messages=[types.PromptMessage(role="user", content=types.TextContent(type="text", text="hello, prompt"))]
    )


def tap(source, sink, log):
    """Copies stdin to the SDK's pipe, recording each tools/call frame's exact bytes."""
    for line in iter(source.readline, b""):
        raw = line.rstrip(b"\r\n").decode("utf-8")
        if log:
            log.write(raw + "\n")
            log.flush()
        try:
            msg = json.loads(raw)
        except ValueError:
            msg = None
        if isinstance(msg, dict) and msg.get("method") == "tools/call":
            with LOCK:
                CALL_FRAMES.append(raw)
                RAW_CALLS[json.dumps(msg.get("id"))] = raw
        sink.write(line)
        sink.flush()
    sink.close()


GENERATED = generated(int(sys.argv[sys.argv.index("--tools") + 1])) if "--tools" in sys.argv else []


async def main():
    log = None
    if "--tap" in sys.argv:
        log = open(sys.argv[sys.argv.index("--tap") + 1], "a", encoding="utf-8")
    read_fd, write_fd = os.pipe()
    sink = os.fdopen(write_fd, "wb")
    threading.Thread(target=tap, args=(sys.stdin.buffer, sink, log), daemon=True).start()
    stdin = anyio.wrap_file(os.fdopen(read_fd, "r", encoding="utf-8", newline="\n"))
    stdout = anyio.wrap_file(open(sys.stdout.fileno(), "w", encoding="utf-8", closefd=False))
    server = Server(
        "toolgate-test-upstream",
        on_list_tools=list_tools,
        on_call_tool=call_tool,
        on_list_resources=list_resources,
        on_read_resource=read_resource,
        on_list_prompts=list_prompts,
        on_get_prompt=get_prompt,
    )
    if "--pidfile" in sys.argv:
        with open(sys.argv[sys.argv.index("--pidfile") + 1], "w") as f:
            f.write(str(os.getpid()))
    async with stdio_server(stdin=stdin, stdout=stdout) as (read_stream, write_stream):
        await server.run(read_stream, write_stream, server.create_initialization_options())
    if "--ignore-eof" in sys.argv:
        # A server that does not exit when its input closes: only a kill ends it.
        while True:
            await anyio.sleep(3600)


if __name__ == "__main__":
    anyio.run(main)
