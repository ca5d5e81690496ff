"""Native handles: close(), context managers, the garbage collector; the library lookup."""

import gc
import os
import re
import subprocess
import sys
import weakref

import pytest

import toolgate
from toolgate import _native

from conftest import REPO_ROOT, USER_SCHEMA, echo


class Handler:
    def __call__(self, **kw):
        return "ok"


def test_close_is_idempotent_and_final():
    reg = toolgate.ToolRegistry()
    reg.register("t", None, echo)
    reg.close()
    reg.close()
    assert reg.closed
    for op in (
        lambda: reg.register("u", None, echo),
        lambda: reg.call("c", "t", "{}"),
        lambda: reg.validate("t", "{}"),
        lambda: reg.unregister("t"),
        lambda: reg.definitions(),
    ):
        with pytest.raises(ValueError, match="closed"):
            op()


def test_context_manager_closes():
    with toolgate.ToolRegistry() as reg:
        reg.register("t", None, echo)
    assert reg.closed
    with toolgate.compile(USER_SCHEMA) as schema:
        assert schema.is_valid('{"id": 1}')
    assert schema.closed
    with pytest.raises(ValueError):
        schema.is_valid("{}")


@pytest.mark.parametrize("how", ["unregister", "override", "close", "del"])
def test_handler_released_once_the_library_destroys_it(how):
    reg = toolgate.ToolRegistry()
    handler = Handler()
    ref = weakref.ref(handler)
    reg.register("t", None, handler)
    del handler
    gc.collect()
    assert ref() is not None  # held while the library can call it
    assert reg.call("c", "t", "").content == "ok"
    tokens = set(reg._tools)
    assert len(tokens) == 1
    if how == "unregister":
        reg.unregister("t")
    elif how == "override":
        reg.register("t", None, echo, override=True)
        reg.get("t")  # the record is the new one
    elif how == "close":
        reg.close()
    else:
        del reg
    gc.collect()
    assert ref() is None
    if how != "del":
        assert not tokens & set(reg._tools)


def test_failed_registration_leaves_nothing_behind(registry):
    before = dict(registry._tools)
    for bad in [lambda: registry.register("Bad", None, echo), lambda: registry.register("t", {"oneOf": []}, echo)]:
        with pytest.raises(toolgate.ToolgateError):
            bad()
    assert registry._tools == before
    registry.register("t", None, echo)
    with pytest.raises(toolgate.DuplicateToolError):
        registry.register("t", None, echo)
    assert len(registry._tools) == len(before) + 1


def test_registry_in_a_reference_cycle_is_collected():
    reg = toolgate.ToolRegistry()
    handler = Handler()
    handler.registry = reg  # handler -> registry -> tools -> handler
    reg.register("t", None, handler)
    ref = weakref.ref(reg)
    handler_ref = weakref.ref(handler)
    del reg, handler
    gc.collect()
    assert ref() is None and handler_ref() is None


def test_close_from_inside_a_handler_waits_for_the_call():
    reg = toolgate.ToolRegistry()

    def closer():
        reg.close()
        # The registry is closed to new operations but still alive under this call.
        with pytest.raises(ValueError):
            reg.call("c", "other", "")
        return "closed"

    reg.register("closer", None, closer)
    reg.register("other", None, echo)
    assert len(reg._tools) == 2
    assert reg.call("c", "closer", "").content == "closed"
    # Freed once the call returned: no registration is left.
    assert reg.closed and reg._tools == {}


def test_schema_handle_freed():
    schema = toolgate.compile(USER_SCHEMA)
    ref = weakref.ref(schema)
    del schema
    gc.collect()
    assert ref() is None


def test_library_version_matches_the_header():
    header = REPO_ROOT / "include" / "toolgate.h"
    assert re.fullmatch(r"\d+\.\d+\.\d+", toolgate.library_version)
    if header.is_file():
        m = re.search(r'#define TOOLGATE_VERSION "([^"]+)"', header.read_text())
        assert m and m.group(1) == toolgate.library_version


# The native module.
def test_the_native_module_is_loaded_from_the_package():
    package_dir = os.path.dirname(toolgate.__file__)
    assert os.path.dirname(toolgate.library_path) == package_dir
    assert os.path.basename(toolgate.library_path).startswith("_native.")
    assert _native.version == toolgate.library_version


def test_a_package_without_its_native_module_is_an_import_error_naming_it(tmp_path):
    # The pure-Python part alone, as a checkout that was never built would have it.
    package = tmp_path / "toolgate"
    package.mkdir()
    source = os.path.dirname(toolgate.__file__)
    for name in os.listdir(source):
        if name.endswith(".py"):
            (package / name).write_bytes(open(os.path.join(source, name), "rb").read())
    proc = subprocess.run(
        [sys.executable, "-c", "import toolgate"],
        env={**os.environ, "PYTHONPATH": str(tmp_path)},
        capture_output=True,
        text=True,
        cwd=str(tmp_path),
    )
    assert proc.returncode != 0
    assert "LibraryNotFoundError" in proc.stderr
    assert "toolgate._native" in proc.stderr
    assert "pip install ./python" in proc.stderr
