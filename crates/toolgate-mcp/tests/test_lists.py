"""Tool lists: a large one, hostile schemas, and the provider-mode lint, through the
gateway between the official MCP Python SDK's client and the SDK server (upstream.py)."""

from test_sdk import run

HOSTILE = [
    "deep_refs",
    "ref_cycle",
    "huge_pattern",
    "backtracking_pattern",
    "long_pattern",
    "deep_nesting",
    "wide_composition",
]


def test_an_upstream_listing_10000_tools_is_compiled_whole():
    async def body(session):
        listed = await session.list_tools()
        ok = await session.call_tool("gen_09999", {"id": "g9999-abc", "count": 10000, "mode": "m9999"})
        refused = await session.call_tool("gen_04321", {"id": "g4322-abc"})
        return listed, ok, refused

    listed, ok, refused = run(body, upstream_args=("--tools", "10000"))
    names = [t.name for t in listed.tools]
    assert len([n for n in names if n.startswith("gen_")]) == 10000
    assert ok.content[0].text == "gen_09999 reached"
    assert refused.is_error
    assert refused.content[0].text.startswith("error: invalid arguments for gen_04321:")


def test_hostile_schemas_are_compiled_within_the_limits_or_withheld(tmp_path):
    async def body(session):
        listed = await session.list_tools()
        names = {t.name for t in listed.tools}
        called = {}
        for name in HOSTILE:
            if name in names:
                called[name] = await session.call_tool(name, {"a": "a" * 64})
        return names, called

    with open(tmp_path / "stderr", "w") as errlog:
        names, called = run(body, upstream_args=("--hostile",), errlog=errlog)
    log = (tmp_path / "stderr").read_text()
    for name in HOSTILE:
        if name in names:
            # Compiled: a call is checked and answered.
            result = called[name]
            assert result.content[0].text == f"{name} reached" or result.is_error, (name, result)
        else:
            # (A tool too deep to read at all is named as well as it could be read.)
            assert f"tool {name} withheld from the host:" in log or f'tool "{name}" withheld from the host:' in log, (
                name,
                log,
            )
    # Deeper than the depth limit is never compiled: the registry says why.
    assert "deep_nesting" not in names
    assert 'tool deep_nesting withheld from the host: invalid parameters for "deep_nesting"' in log, log
    assert "echo" in names


def test_a_target_reports_the_lint_of_each_tool_at_list_time(tmp_path):
    async def body(session):
        return await session.list_tools()

    with open(tmp_path / "stderr", "w") as errlog:
        listed = run(body, "--target", "openai-strict", errlog=errlog)
    log = (tmp_path / "stderr").read_text()
    assert "echo" in [t.name for t in listed.tools]
    assert "toolgate-mcp: tool echo: " in log and "for openai-strict:" in log, log
    assert "echo#/properties/n: " in log and "[required-all]" in log, log
    # Logged once, though both the gateway and the host read the list.
    assert log.count("toolgate-mcp: tool echo: ") == 1, log


def test_an_enforced_target_withholds_the_tools_it_refuses(tmp_path):
    async def body(session):
        listed = await session.list_tools()
        refused = await session.call_tool("echo", {"text": "x"})
        return listed, refused

    with open(tmp_path / "stderr", "w") as errlog:
        listed, refused = run(body, "--target", "openai-strict", "--enforce-target", errlog=errlog)
    log = (tmp_path / "stderr").read_text()
    names = [t.name for t in listed.tools]
    assert "echo" not in names
    assert "toolgate-mcp: tool echo withheld from the host: openai-strict refuses it (--enforce-target):" in log
    assert refused.is_error and refused.content[0].text.startswith('error: unknown tool "echo"')
