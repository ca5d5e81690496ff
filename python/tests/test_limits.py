"""Registry options (the name policy, the argument size limit, the nesting limit) and
the registration refusals, whose texts are the core's."""

import threading

import pytest

import toolgate

from conftest import USER_SCHEMA, echo


def test_the_defaults():
    with toolgate.ToolRegistry() as reg:
        assert reg.policy == "dotted"
        assert reg.max_argument_bytes == toolgate.DEFAULT_MAX_ARGUMENT_BYTES == 4 * 1024 * 1024
        assert reg.max_depth == toolgate.DEFAULT_MAX_DEPTH == 128


def test_arguments_over_the_limit_are_refused_unread():
    calls = []
    with toolgate.ToolRegistry(max_argument_bytes=10) as reg:
        reg.register("echo", None, lambda **kw: calls.append(kw) or "ran")
        assert reg.call("c", "echo", '{"a":"12"}').content == "ran"
        result = reg.call("c", "echo", '{"a":"123"}')
        assert (result.content, result.is_error) == (
            "error: invalid arguments for echo: 11 bytes is more than the limit of 10",
            True,
        )
        assert result == __import__("asyncio").run(reg.acall("c", "echo", '{"a":"123"}'))
        (error,) = reg.validate("echo", '{"a":"123"}')
        assert (error.path, error.keyword, error.message, error.location) == (
            "",
            "size",
            "11 bytes is more than the limit of 10",
            "$",
        )
        # A dict is measured as the JSON text it is written as.
        assert reg.call("c", "echo", {"a": "123"}).is_error
        # The limit counts bytes, not characters.
        assert reg.call("c", "echo", '{"a":"é"}').content == "ran"
        assert reg.call("c", "echo", '{"a":"éé"}').is_error
    assert len(calls) == 2


def test_the_default_limit_and_no_limit():
    big = '{"text": "' + "x" * (5 << 20) + '"}'
    with toolgate.ToolRegistry() as reg:
        reg.register("echo", None, lambda text: len(text))
        assert reg.call("c", "echo", big).content == (
            f"error: invalid arguments for echo: {len(big)} bytes is more than the limit of 4194304"
        )
    with toolgate.ToolRegistry(max_argument_bytes=None) as reg:
        assert reg.max_argument_bytes is None
        reg.register("echo", None, lambda text: len(text))
        assert reg.call("c", "echo", big).content == str(5 << 20)


@pytest.mark.parametrize("bad", [-1, 1.5, "10", True])
def test_bad_limits_are_refused(bad):
    with pytest.raises(toolgate.InvalidArgumentError) as info:
        toolgate.ToolRegistry(max_argument_bytes=bad)
    assert "max_argument_bytes must be None or an int >= 0" in str(info.value)
    with pytest.raises(toolgate.InvalidArgumentError):
        toolgate.ToolRegistry(max_depth=bad)
    with pytest.raises(toolgate.InvalidArgumentError):
        toolgate.compile({}, max_depth=bad)


def test_the_nesting_limit_per_registry():
    with toolgate.ToolRegistry(max_depth=3) as reg:
        assert reg.max_depth == 3
        reg.register("t", None, lambda **kw: "ran")
        assert reg.call("c", "t", '{"a":{"b":[]}}').content == "ran"
        assert reg.call("c", "t", '{"a":{"b":[[]]}}').content == (
            "error: invalid arguments for t: malformed JSON at line 1 column 12: nesting deeper than 3 levels"
        )
        deep = {"type": "object", "properties": {"a": {"properties": {"b": {"items": {}}}}}}
        with pytest.raises(toolgate.SchemaError) as info:
            reg.register("deep", deep, echo)
        assert "nesting deeper than 3 levels" in str(info.value)


# The registration refusals: the core's texts, byte for byte, as C, C++ and Go show them.
@pytest.mark.parametrize(
    "names, name, text",
    [
        ("dotted", "db get", 'invalid tool name "db get": must be lowercase [a-z0-9_] segments separated by dots, at most 64 characters'),
        ("default", "has space", 'invalid tool name "has space": must match ^[A-Za-z0-9_-]{1,64}$'),
        ("default", "", 'invalid tool name "": must match ^[A-Za-z0-9_-]{1,64}$'),
        ("mcp", "a/b", 'invalid tool name "a/b": must match ^[A-Za-z0-9_.-]{1,128}$'),
        ("dotted", 'q"\n', 'invalid tool name "q\\"\\n": must be lowercase [a-z0-9_] segments separated by dots, at most 64 characters'),
    ],
)
def test_name_policy_refusals(names, name, text):
    with toolgate.ToolRegistry(names=names) as reg:
        with pytest.raises(toolgate.InvalidNameError) as info:
            reg.register(name, None, echo)
        assert str(info.value) == text
        assert info.value.status == toolgate.Status.ERR_NAME


def test_schema_refusals(registry):
    with pytest.raises(toolgate.NotObjectSchemaError) as info:
        registry.register("t", {"type": "string"}, echo)
    assert str(info.value) == 'parameters for "t" must declare "type": "object"'
    assert info.value.status == toolgate.Status.ERR_NOT_OBJECT
    with pytest.raises(toolgate.SchemaError) as info:
        registry.register("t", {"type": "object", "properties": {"x": {"format": "email"}}}, echo)
    assert str(info.value).startswith('invalid parameters for "t": #/properties/x/format: ')
    assert (info.value.pointer, info.value.keyword) == ("/properties/x/format", "format")
    with pytest.raises(toolgate.SchemaError) as info:
        registry.register("t", "{not json", echo)
    assert str(info.value).startswith('invalid parameters for "t": #: schema is not valid JSON: ')
    registry.register("t", USER_SCHEMA, echo)
    with pytest.raises(toolgate.DuplicateToolError) as info:
        registry.register("t", USER_SCHEMA, echo)
    assert str(info.value) == 'tool "t" is already registered'


def test_text_that_is_not_unicode_is_refused(registry):
    for call in [
        lambda: registry.register("t\ud800", None, echo),
        lambda: registry.register("t", None, echo, description="\udfff"),
        lambda: registry.call("\ud800", "t", "{}"),
    ]:
        with pytest.raises(toolgate.InvalidTextError) as info:
            call()
        assert info.value.status == toolgate.Status.ERR_UTF8
        assert str(info.value).endswith(" is not valid UTF-8")


def test_threads_call_while_another_registers_and_unregisters():
    """One registry, readers and writers at once: every result is one of the outcomes
    the registry can give at some instant, the order of names is consistent with the
    core's, and every replaced registration is released."""
    reg = toolgate.ToolRegistry()
    reg.register("stable", USER_SCHEMA, lambda id, fields=(): f"user {id}")
    stop = threading.Event()
    failures = []

    def writer(w):
        i = 0
        while not stop.is_set():
            name = f"tmp.w{w}_{i % 4}"
            try:
                reg.register(name, None, lambda: "tmp", override=True)
                if i % 3:
                    reg.unregister(name)
            except Exception as exc:  # reported below
                failures.append(exc)
            i += 1

    def reader(n):
        for i in range(n):
            r = reg.call(f"c{i}", "stable", {"id": i})
            if (r.content, r.is_error) != (f"user {i}", False):
                failures.append(r)
            r = reg.call(f"c{i}", f"tmp.w{i % 2}_{i % 4}", "")
            if r.content != "tmp" and not r.content.startswith('error: unknown tool "tmp.w'):
                failures.append(r)
            if reg.validate("stable", {"id": "x"})[0].keyword != "type":
                failures.append("validate")

    writers = [threading.Thread(target=writer, args=(w,)) for w in range(2)]
    readers = [threading.Thread(target=reader, args=(1500,)) for _ in range(3)]
    for t in writers + readers:
        t.start()
    for t in readers:
        t.join()
    stop.set()
    for t in writers:
        t.join()
    assert failures == []
    assert sorted(reg.names()) == reg._library_names()
    assert len(reg._tools) == len(reg.names())
    reg.close()
    assert reg._tools == {}
