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
