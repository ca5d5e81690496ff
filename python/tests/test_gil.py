"""Arguments over 64 KiB are validated with the GIL released, so other threads run
meanwhile (and validate in parallel). Shown by order, not by time: the interpreter
is told not to switch threads on its own, so the main thread can run while a worker
is inside the core only if the module released the GIL there."""

import sys
import threading

import pytest

import toolgate
from toolgate import _native

SCHEMA = {"type": "object", "properties": {"notes": {"type": "array", "items": {"type": "string"}}}}
# About 8 MB: well over the threshold, and long enough to validate that the worker is
# still at it when the main thread looks.
BIG = '{"notes": [' + ",".join(['"' + "y" * 1000 + '"'] * 8000) + "]}"
ROUNDS = 40


def runs_beside(work):
    """True when the main thread ran while `work` was running in another thread."""
    started = threading.Event()
    state = {"done": False}

    def worker():
        started.set()
        work()
        state["done"] = True

    previous = sys.getswitchinterval()
    sys.setswitchinterval(1000.0)
    try:
        thread = threading.Thread(target=worker)
        thread.start()
        started.wait()
        ran_beside = not state["done"]
        thread.join()
    finally:
        sys.setswitchinterval(previous)
    assert state["done"]
    return ran_beside


def test_the_threshold():
    assert _native.GIL_HELD_MAX_BYTES == 64 * 1024
    assert len(BIG) > 100 * _native.GIL_HELD_MAX_BYTES


def test_schema_validation_releases_the_gil():
    schema = toolgate.compile(SCHEMA)

    def work():
        for _ in range(ROUNDS):
            assert schema.is_valid(BIG)
            assert schema.validate(BIG) is toolgate.OK

    assert runs_beside(work)


@pytest.mark.parametrize("how", ["validate", "call"])
def test_registry_validation_releases_the_gil(how):
    with toolgate.ToolRegistry(max_argument_bytes=None) as reg:
        reg.register("notes", SCHEMA, lambda text: len(text), arguments="json")

        def work():
            for _ in range(ROUNDS):
                if how == "validate":
                    assert reg.validate("notes", BIG) is toolgate.OK
                else:
                    assert reg.call("c", "notes", BIG).content == str(len(BIG))

        assert runs_beside(work)


def test_small_arguments_keep_the_gil():
    # The other side of the threshold: a small validation never lets another thread in.
    schema = toolgate.compile(SCHEMA)
    small = '{"notes": ["a", "b"]}'

    def work():
        for _ in range(20000):
            assert schema.is_valid(small)

    assert not runs_beside(work)
