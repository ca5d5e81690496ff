"""The registration refusals of the shared file tests/registration_refusals.json (the
core's texts, which the Rust and Go tests check too): the Python binding raises each
with exactly the core's message, its kind's exception and, for schema errors, the
pointer and keyword into the schema."""

import json

import pytest

import toolgate

from conftest import REPO_ROOT

PATH = REPO_ROOT / "tests" / "registration_refusals.json"
CASES = json.loads(PATH.read_text(encoding="utf-8")) if PATH.is_file() else []

KINDS = {
    "name": (toolgate.InvalidNameError, toolgate.Status.ERR_NAME),
    "duplicate": (toolgate.DuplicateToolError, toolgate.Status.ERR_DUPLICATE),
    "schema": (toolgate.SchemaError, toolgate.Status.ERR_SCHEMA),
    "not_object": (toolgate.NotObjectSchemaError, toolgate.Status.ERR_NOT_OBJECT),
}


def test_the_file_is_there():
    # It ships in the repository: a missing file is a failure, never a skip.
    assert PATH.is_file(), f"{PATH} not found"
    assert {case["kind"] for case in CASES} == set(KINDS)


@pytest.mark.parametrize("case", CASES, ids=[f"{c['kind']}:{c['tool']!r}" for c in CASES])
def test_refusal(case):
    with toolgate.ToolRegistry(names=case["policy"]) as reg:
        if case.get("duplicate"):
            reg.register(case["tool"], None, lambda **kw: "ran")
        exception, status = KINDS[case["kind"]]
        with pytest.raises(toolgate.ToolgateError) as info:
            reg.register(case["tool"], case["parameters"], lambda **kw: "ran")
        assert type(info.value) is exception
        assert str(info.value) == case["message"]
        assert info.value.status == status
        assert (info.value.pointer, info.value.keyword) == (case.get("pointer", ""), case.get("keyword", ""))
