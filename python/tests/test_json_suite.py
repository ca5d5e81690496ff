"""The kwargs a handler receives are what `json.loads` gives for the same text: every
document of the JSON test suite the core accepts, put in an object as a property's
value, reaches a handler equal to `json.loads`, types and all."""

import json
import os

import pytest

import toolgate

from conftest import REPO_ROOT

SUITE = REPO_ROOT.parent / "shared" / "testdata" / "json-test-suite" / "test_parsing"


def documents():
    if not SUITE.is_dir():
        return []
    return sorted(p for p in SUITE.iterdir() if p.suffix == ".json" and p.name[:2] in ("y_", "i_"))


DOCUMENTS = documents()


def same(a, b):
    """Equal, with the same types at every level (1 is not 1.0, True is not 1)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return a == b or (a != a and b != b)


def test_the_suite_is_there():
    if not DOCUMENTS:
        message = f"SKIPPED: the JSON test suite is not at {SUITE}"
        print(message)
        if os.environ.get("TOOLGATE_REQUIRE_TESTDATA") == "1":
            pytest.fail(message)
        pytest.skip(message)
    assert len(DOCUMENTS) > 100


@pytest.mark.skipif(not DOCUMENTS, reason="the JSON test suite is absent (see test_the_suite_is_there)")
def test_kwargs_equal_json_loads():
    received = []
    with toolgate.ToolRegistry(names="default", max_argument_bytes=None) as reg:
        reg.register("doc", None, lambda arguments: received.append(arguments) or "ok", arguments="dict")
        reg.register("kw", None, lambda **kw: received.append(kw) or "ok")
        checked = 0
        for path in DOCUMENTS:
            text = path.read_bytes()
            wrapped = b'{"v": ' + text + b"}"
            if not toolgate.compile({}).is_valid(text):
                continue  # refused as a document: the suite's i_ cases the core declines
            try:
                expected = json.loads(wrapped)
            except (ValueError, RecursionError):
                continue  # beyond Python's own reader (too deep, too many digits)
            for tool in ("doc", "kw"):
                del received[:]
                result = reg.call("c", tool, wrapped)
                assert (result.content, result.is_error) == ("ok", False), (path.name, result)
                assert same(received[0], expected), path.name
            checked += 1
    assert checked > 90


def generated_documents(count):
    """Documents of every JSON shape, nested up to 40 levels: strings with escapes,
    surrogate pairs and non-ASCII, integers past 64 bits, floats in every spelling,
    written compact or spaced."""
    import random

    rng = random.Random(23)
    strings = ["", "a", "caf\u00e9", "\U0001f600", 'q"b\\s', "\x00\x1f\n\t", "\ud7ff\ue000", "x" * 40]
    numbers = ["0", "-0", "7", "-12", "9223372036854775807", "9223372036854775808", "-99999999999999999999",
               "1.5", "-0.0", "1e3", "1E-3", "2.5e+10", "1e400", "123456789012345678901234567890.5"]

    def value(depth):
        kind = rng.randrange(8 if depth < 40 else 5)
        if kind == 0:
            return "null"
        if kind == 1:
            return rng.choice(["true", "false"])
        if kind == 2:
            return rng.choice(numbers)
        if kind in (3, 4):
            s = rng.choice(strings)
            return json.dumps(s, ensure_ascii=rng.random() < 0.5)
        if kind == 5:
            return "[" + ",".join(value(depth + 1) for _ in range(rng.randrange(4))) + "]"
        keys = rng.sample(strings + ["k%d" % i for i in range(6)], rng.randrange(4))
        space = rng.choice(["", " ", "\n  "])
        return "{" + ("," + space).join(json.dumps(k) + ":" + space + value(depth + 1) for k in keys) + "}"

    return [value(0) for _ in range(count)]


def test_generated_documents_reach_the_handler_as_json_loads_reads_them():
    received = []
    with toolgate.ToolRegistry(max_depth=64) as reg:
        reg.register("kw", None, lambda **kw: received.append(kw) or "ok")
        for text in generated_documents(400):
            wrapped = '{"v": ' + text + "}"
            del received[:]
            result = reg.call("c", "kw", wrapped)
            assert (result.content, result.is_error) == ("ok", False), (text, result)
            assert same(received[0], json.loads(wrapped)), text


def test_the_deepest_arguments_reach_the_handler():
    depth = toolgate._native.MAX_DEPTH_LIMIT
    text = '{"v": ' + "[" * (depth - 1) + "]" * (depth - 1) + "}"
    received = []
    with toolgate.ToolRegistry(max_depth=depth) as reg:
        reg.register("kw", None, lambda **kw: received.append(kw) or "ok")
        assert reg.call("c", "kw", text).content == "ok"
    inner, levels = received[0]["v"], 1
    while inner:
        inner, levels = inner[0], levels + 1
    assert levels == depth - 1
