"""The shared conformance vectors (tests/vectors.json at the repository root): the
same file is run by the Rust, C, Go and Python tests, so every host sees identical
bytes. Each vector's instance is raw JSON text and is passed to the library as is."""

import json

import pytest

import toolgate

from conftest import vectors_file

PATH = vectors_file()
VECTORS = json.loads(PATH.read_text(encoding="utf-8")) if PATH.is_file() else []


def test_vectors_present():
    # The vectors ship in the repository: a missing file is a failure, never a skip.
    assert PATH.is_file(), f"{PATH} not found (set TOOLGATE_VECTORS)"
    assert len(VECTORS) >= 40, "the vector file lost cases"
    # Every violation says where in the schema its keyword is.
    assert all("schemaLocation" in e for v in VECTORS for e in v["errors"])


@pytest.mark.parametrize("vector", VECTORS, ids=[v["name"] for v in VECTORS])
def test_vector(vector):
    with toolgate.compile(vector["schema"]) as schema:
        instance = vector["instance"]
        # "arguments": tool-call arguments (empty means {}); else a JSON document.
        if vector.get("as") == "arguments":
            validate, is_valid = schema.validate_arguments, schema.is_valid_arguments
        else:
            validate, is_valid = schema.validate, schema.is_valid
        got = validate(instance)
        want = vector["errors"]
        assert is_valid(instance) is vector["valid"]
        assert is_valid(instance.encode("utf-8", "surrogatepass")) is vector["valid"]
        if vector["valid"]:
            assert got is toolgate.OK
            assert want == []
            return
        assert isinstance(got, list)
        assert [(e.path, e.keyword, e.message) for e in got] == [
            (w["pointer"], w["keyword"], w["message"]) for w in want
        ]
        assert [e.location for e in got] == [w["path"] for w in want]
        assert [e.schema_location for e in got] == [w["schemaLocation"] for w in want]
        for e in got:
            if e.keyword == "type":
                assert e.expected_type and e.message.startswith(f"expected {e.expected_type}, got ")
            else:
                assert e.expected_type is None


@pytest.mark.parametrize(
    "vector",
    [
        v
        for v in VECTORS
        if isinstance(v["schema"], dict) and v["schema"].get("type") == "object"
        # A registry validates tool-call arguments: a document vector is not one.
        and v.get("as") != "document"
    ],
    ids=lambda v: v["name"],
)
def test_vector_through_the_registry(vector):
    """The registry reports the same violations, and its call text is their lines."""
    with toolgate.ToolRegistry(names="default") as reg:
        reg.register("t", vector["schema"], lambda **kw: "ran")
        got = reg.validate("t", vector["instance"])
        result = reg.call("id", "t", vector["instance"])
        if vector["valid"]:
            assert got is toolgate.OK
            assert (result.content, result.is_error) == ("ran", False)
            assert (result.outcome, result.violations) == (toolgate.CallOutcome.ANSWERED, [])
            return
        assert [(e.path, e.keyword, e.message, e.schema_location) for e in got] == [
            (w["pointer"], w["keyword"], w["message"], w["schemaLocation"]) for w in vector["errors"]
        ]
        assert result.is_error
        assert result.outcome is toolgate.CallOutcome.INVALID_ARGUMENTS
        # The refused call carries the same violations as the validation.
        assert [(e.path, e.keyword, e.message, e.schema_location, e.location) for e in result.violations] == [
            (e.path, e.keyword, e.message, e.schema_location, e.location) for e in got
        ]
        if got[0].keyword == "json":
            assert result.content == f"error: invalid arguments for t: {got[0].message}"
        else:
            lines = "\n".join(f"{w['path']}: {w['message']}" for w in vector["errors"])
            assert result.content == f"error: invalid arguments for t:\n{lines}"
