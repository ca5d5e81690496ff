"""Streamed arguments: ``Schema.stream()`` and ``ToolRegistry.stream_call`` validate
JSON as its chunks arrive, refuse it at the first byte after which no continuation can
be valid, and finish with exactly what the whole-bytes validation (``validate``) or
call (``call`` / ``acall``) gives. The shared vectors are fed byte by byte and in
chunks."""

import asyncio
import gc
import json

import pytest

import toolgate

from conftest import vectors_file

PATH = vectors_file()
VECTORS = json.loads(PATH.read_text(encoding="utf-8")) if PATH.is_file() else []

N_SCHEMA = {
    "type": "object",
    "properties": {"n": {"type": "integer"}, "tag": {"type": "string"}},
    "additionalProperties": False,
}


def pieces(data, size):
    return [data[i : i + size] for i in range(0, len(data), size)]


def feed_all(stream, chunks):
    """Feeds every chunk; the index of the chunk that was first refused, or None."""
    first = None
    for i, chunk in enumerate(chunks):
        if stream.feed(chunk) is not None and first is None:
            first = i
    return first


def error_keys(errors):
    return [(e.location, e.path, e.keyword, e.message, e.schema_location) for e in errors]


@pytest.mark.parametrize("vector", VECTORS, ids=[v["name"] for v in VECTORS])
@pytest.mark.parametrize("size", [1, 3, 7, None], ids=["bytes", "3", "7", "whole"])
def test_vector_streamed(vector, size):
    """finish() is validate()'s answer for the whole bytes when nothing refused before;
    a refusal is final, its errors among the whole's, and never on a valid instance."""
    with toolgate.compile(vector["schema"]) as schema:
        data = vector["instance"].encode("utf-8", "surrogatepass")
        whole = schema.validate(data)
        stream = schema.stream()
        first = feed_all(stream, pieces(data, size or max(len(data), 1)))
        assert stream.bytes_read == len(data)
        got = stream.finish()
        if first is None:
            assert not stream.refused and stream.bytes_before_refusal is None
            if whole is toolgate.OK:
                assert got is toolgate.OK
            else:
                assert error_keys(got) == error_keys(whole)
            return
        # Refused early: never a valid instance, and the refusal is what finish gives.
        assert vector["valid"] is False or vector.get("as") == "arguments"
        assert whole is not toolgate.OK
        assert stream.refused
        assert isinstance(got, list) and got
        located = {(e.path, e.keyword, e.schema_location) for e in whole}
        if not any(e.keyword == "json" for e in whole):
            assert all((e.path, e.keyword, e.schema_location) in located for e in got)


@pytest.mark.parametrize("vector", [v for v in VECTORS if v["valid"]], ids=lambda v: v["name"])
def test_no_prefix_of_a_valid_instance_is_refused(vector):
    with toolgate.compile(vector["schema"]) as schema:
        data = vector["instance"].encode("utf-8", "surrogatepass")
        if vector.get("as") == "arguments" and not data.strip():
            data = b"{}"  # empty arguments mean {}: a document stream reads the {}
        stream = schema.stream()
        for i in range(len(data)):
            assert stream.feed(data[i : i + 1]) is None, f"refused after {i + 1} bytes"
        assert stream.finish() is toolgate.OK


def refused_at(schema, text):
    """Feeds `text` byte by byte: the number of bytes read when it was refused, the
    errors, and whether every earlier feed said None."""
    stream = toolgate.compile(schema).stream()
    data = text.encode()
    for i in range(len(data)):
        errors = stream.feed(data[i : i + 1])
        if errors is not None:
            assert stream.bytes_before_refusal == i + 1
            return i + 1, errors, stream
    raise AssertionError(f"{text!r} was never refused")


def test_an_integer_given_a_string_is_refused_at_the_quote():
    at, errors, stream = refused_at(N_SCHEMA, '{"n": "five"}')
    assert at == len('{"n": "')
    assert error_keys(errors) == [
        ("$.n", "/n", "type", "expected integer, got string", "#/properties/n/type")
    ]
    # Final: the rest of the bytes change nothing.
    assert error_keys(stream.feed('five"}')) == error_keys(errors)
    assert error_keys(stream.finish()) == error_keys(errors)


def test_an_unexpected_property_is_refused_at_its_closing_quote():
    at, errors, _ = refused_at(N_SCHEMA, '{"n": 1, "extra": true}')
    assert at == len('{"n": 1, "extra"')
    assert [(e.keyword, e.message) for e in errors] == [
        ("additionalProperties", 'unexpected property "extra"')
    ]


def test_malformed_json_is_refused_at_its_byte():
    at, errors, _ = refused_at(N_SCHEMA, '{"n": 1,}')
    assert at == len('{"n": 1,}')
    whole = toolgate.compile(N_SCHEMA).validate('{"n": 1,}')
    assert error_keys(errors) == error_keys(whole)
    at, _, _ = refused_at(N_SCHEMA, '{"n": 1} x')
    assert at == len('{"n": 1} x')


def test_chunks_may_split_a_character_and_str_and_bytes_mix():
    schema = toolgate.compile({"type": "object", "properties": {"s": {"maxLength": 2}}})
    data = '{"s": "é€"}'.encode()
    stream = schema.stream()
    assert feed_all(stream, [data[:8], data[8:9], data[9:].decode()]) is None
    assert stream.finish() is toolgate.OK
    stream = schema.stream()
    assert stream.feed(bytearray(b'{"s": "')) is None
    assert stream.feed(memoryview("é€𝄞".encode())) is not None


def test_a_stream_at_most_lists_the_first_violations():
    schema = toolgate.compile({"type": "object", "required": ["a", "b", "c"]})
    stream = schema.stream(at_most=2)
    errors = stream.feed("{}")
    assert [(e.keyword, e.message) for e in errors] == [
        ("required", 'missing required property "a"'),
        ("required", 'missing required property "b"'),
        ("violations", "more violations not listed (the first 2 are)"),
    ]
    truncated = schema.stream(at_most=1)
    assert truncated.feed('{"a":1') is None
    assert error_keys(truncated.finish()) == error_keys(schema.validate('{"a":1', at_most=1))


def test_a_schema_stream_is_finished_once():
    schema = toolgate.compile(N_SCHEMA)
    stream = schema.stream()
    assert repr(stream) == "<toolgate.SchemaStream open, 0 bytes read>"
    stream.feed('{"n": 1}')
    assert stream.finish() is toolgate.OK
    assert stream.finished and stream.bytes_read == 8
    with pytest.raises(ValueError, match="the stream is finished"):
        stream.feed("")
    with pytest.raises(ValueError, match="the stream is finished"):
        stream.finish()
    with pytest.raises(TypeError, match="chunk must be str or bytes, not dict"):
        schema.stream().feed({"n": 1})


def test_a_stream_outlives_its_closed_schema():
    schema = toolgate.compile(N_SCHEMA)
    stream = schema.stream()
    schema.close()
    with pytest.raises(ValueError, match="the schema is closed"):
        schema.stream()
    assert stream.feed('{"n": 1') is None
    assert stream.feed("}") is None
    assert stream.finish() is toolgate.OK


# Call streams.


@pytest.fixture
def runs():
    return []


@pytest.fixture
def reg(registry, runs):
    def record(args):
        runs.append(args)
        return args

    registry.register("t.run", N_SCHEMA, record, arguments="json")
    return registry


def test_a_call_stream_runs_the_handler_once_with_the_bytes_unchanged(reg, runs):
    text = '{ "n" : 12,\n "tag": "a\\u00e9é" }'
    for size in (1, 5, len(text)):
        runs.clear()
        stream = reg.stream_call("c1", "t.run")
        assert (stream.call_id, stream.name) == ("c1", "t.run")
        data = text.encode()
        assert feed_all(stream, pieces(data, size)) is None
        assert runs == [] and not stream.refused
        result = stream.finish()
        assert runs == [text]
        assert result == reg.call("c1", "t.run", text)
        assert (result.content, result.outcome) == (text, toolgate.CallOutcome.ANSWERED)
        assert stream.finished and stream.bytes_read == len(data)


def test_empty_arguments_finish_as_call_finishes_them(reg, runs):
    # Empty arguments mean {}, as for call.
    result = reg.stream_call("c1", "t.run").finish()
    assert runs == ["{}"]
    assert result == reg.call("c1", "t.run", "")


def test_a_refused_call_is_refused_as_call_refuses_it_and_never_runs(reg, runs):
    stream = reg.stream_call("c1", "t.run")
    assert stream.feed('{"n": ') is None
    refusal = stream.feed('"1')
    assert refusal is not None and stream.refused
    assert stream.bytes_before_refusal == len('{"n": "')
    assert refusal.outcome == toolgate.CallOutcome.INVALID_ARGUMENTS
    whole = reg.call("c1", "t.run", '{"n": "1"}')
    assert (refusal.call_id, refusal.name, refusal.content, refusal.is_error) == (
        whole.call_id,
        whole.name,
        whole.content,
        whole.is_error,
    )
    assert refusal.violations == whole.violations
    assert stream.feed('"}') == refusal
    assert stream.finish() == refusal
    assert runs == []


def test_an_unknown_tool_is_refused_at_once(reg, runs):
    stream = reg.stream_call("c9", "t.rn")
    assert stream.refused and stream.bytes_read == 0
    refusal = stream.feed("{}")
    assert refusal == reg.call("c9", "t.rn", "{}")
    assert refusal.outcome == toolgate.CallOutcome.UNKNOWN_TOOL
    assert stream.finish() == refusal
    assert runs == []


def test_arguments_over_the_size_limit_are_refused_once_over(runs):
    with toolgate.ToolRegistry(max_argument_bytes=8) as reg:
        reg.register("t.run", None, lambda args: runs.append(args), arguments="json")
        stream = reg.stream_call("c", "t.run")
        assert stream.feed('{"a":') is None
        refusal = stream.feed('"bcdef"}')
        assert refusal == reg.call("c", "t.run", '{"a":"bcdef"}')
        assert stream.finish() == refusal
    assert runs == []


def test_a_stream_never_finished_runs_nothing(reg, runs):
    stream = reg.stream_call("c1", "t.run")
    assert stream.feed('{"n": 1}') is None
    del stream
    gc.collect()
    assert runs == []


def test_a_call_stream_is_finished_once(reg, runs):
    stream = reg.stream_call("c1", "t.run")
    stream.finish()
    with pytest.raises(ValueError, match="the stream is finished"):
        stream.feed("{}")
    with pytest.raises(ValueError, match="the stream is finished"):
        stream.finish()
    with pytest.raises(ValueError, match="the stream is finished"):
        stream.afinish()
    assert runs == ["{}"]
    with pytest.raises(TypeError, match="name must be str"):
        reg.stream_call("c", 3)


def test_feeding_after_the_registry_closed_raises(runs):
    reg = toolgate.ToolRegistry()
    reg.register("t.run", None, lambda args: runs.append(args), arguments="json")
    stream = reg.stream_call("c", "t.run")
    reg.close()
    with pytest.raises(ValueError, match="the registry is closed"):
        stream.feed("{}")
    with pytest.raises(ValueError, match="the registry is closed"):
        reg.stream_call("c", "t.run")
    assert runs == []


def test_afinish_awaits_an_async_handler_as_acall_does(registry):
    seen = []

    async def slow(n, tag="x"):
        await asyncio.sleep(0)
        seen.append(n)
        return {"n": n, "tag": tag}

    registry.register("t.slow", N_SCHEMA, slow)

    async def main():
        stream = registry.stream_call("c2", "t.slow")
        for chunk in ('{"n"', ": 4}"):
            assert stream.feed(chunk) is None
        result = await stream.afinish()
        assert result == await registry.acall("c2", "t.slow", '{"n": 4}')
        refused = registry.stream_call("c3", "t.slow")
        refusal = refused.feed('{"x"')
        assert await refused.afinish() == refusal
        return result

    result = asyncio.run(main())
    assert result.content == '{"n":4,"tag":"x"}'
    assert seen == [4, 4]


def test_acall_deltas_stops_consuming_the_deltas_at_the_refusal(reg, runs):
    consumed = []

    async def deltas(parts):
        for part in parts:
            consumed.append(part)
            await asyncio.sleep(0)
            yield part

    parts = ['{"n"', ": 1, ", '"ex', 'tra"', ": 2", "}"]
    result = asyncio.run(reg.acall_deltas("c1", "t.run", deltas(parts)))
    assert consumed == parts[:4]
    assert result.outcome == toolgate.CallOutcome.INVALID_ARGUMENTS
    assert result.content == reg.call("c1", "t.run", "".join(parts)).content
    assert runs == []

    consumed.clear()
    result = asyncio.run(reg.acall_deltas("c1", "t.run", deltas(['{"n": 1', "}"])))
    assert runs == ['{"n": 1}'] and result.content == '{"n": 1}'

    consumed.clear()
    result = asyncio.run(reg.acall_deltas("c1", "nope", deltas(["{}"])))
    assert consumed == [] and result.outcome == toolgate.CallOutcome.UNKNOWN_TOOL


def test_call_deltas_feeds_an_iterable(reg, runs):
    consumed = []

    def deltas(parts):
        for part in parts:
            consumed.append(part)
            yield part

    result = reg.call_deltas("c1", "t.run", deltas(["{", '"n":', '"x"', "}"]))
    assert consumed == ["{", '"n":', '"x"'] and runs == []
    assert result.outcome == toolgate.CallOutcome.INVALID_ARGUMENTS
    assert reg.call_deltas("c1", "t.run", ['{"n":', b" 2}"]).content == '{"n": 2}'
    assert asyncio.run(reg.acall_deltas("c1", "t.run", ["{}"])).content == "{}"
    assert runs == ['{"n": 2}', "{}"]
