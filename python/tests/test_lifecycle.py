"""Native handles: close(), context managers, the garbage collector; the library lookup."""

import gc
import os
import re
import subprocess
import sys
import weakref

import pytest

import toolgate
from toolgate import _native, _registry

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
    assert not tokens & set(_registry._LIVE)


def test_failed_registration_leaves_nothing_behind(registry):
    before = (dict(registry._tools), set(_registry._LIVE))
    for bad in [lambda: registry.register("Bad", None, echo), lambda: registry.register("t", {"oneOf": []}, echo)]:
        with pytest.raises(toolgate.ToolgateError):
            bad()
    registry.register("t", None, echo)
    with pytest.raises(toolgate.DuplicateToolError):
        registry.register("t", None, echo)
    assert len(registry._tools) == len(before[0]) + 1
    assert len(set(_registry._LIVE) - before[1]) == 1


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
    assert reg.call("c", "closer", "").content == "closed"
    assert reg.closed and reg._ptr is None


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


# The library lookup.
def _import_in_subprocess(env_changes):
    env = dict(os.environ)
    # Import the same package this test run imported.
    package_parent = os.path.dirname(os.path.dirname(toolgate.__file__))
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [package_parent, env.get("PYTHONPATH")]))
    env.update(env_changes)
    return subprocess.run(
        [sys.executable, "-c", "import toolgate; print(toolgate.library_path)"],
        env=env,
        capture_output=True,
        text=True,
        cwd=str(REPO_ROOT.parent),
    )


def test_toolgate_lib_is_used_when_set():
    proc = _import_in_subprocess({"TOOLGATE_LIB": toolgate.library_path})
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == toolgate.library_path


def test_bad_toolgate_lib_is_an_import_error_naming_it(tmp_path):
    missing = str(tmp_path / "nowhere" / "libtoolgate.so")
    proc = _import_in_subprocess({"TOOLGATE_LIB": missing})
    assert proc.returncode != 0
    assert "LibraryNotFoundError" in proc.stderr
    assert missing in proc.stderr


def test_not_found_names_every_place(monkeypatch, tmp_path):
    monkeypatch.delenv("TOOLGATE_LIB", raising=False)
    monkeypatch.setattr(
        _native,
        "_candidates",
        lambda: [("copy shipped in the package", str(tmp_path / "a.so")), ("repository target/release", str(tmp_path / "b.so"))],
    )
    monkeypatch.setattr(_native.ctypes.util, "find_library", lambda name: None)
    monkeypatch.setattr(_native, "_SYSTEM_NAMES", ["libtoolgate-test-absent.so.0"])
    with pytest.raises(toolgate.LibraryNotFoundError) as info:
        _native._load()
    assert isinstance(info.value, ImportError)
    message = str(info.value)
    for expected in ["TOOLGATE_LIB", str(tmp_path / "a.so"), str(tmp_path / "b.so"), "find_library", "libtoolgate-test-absent.so.0", "cargo build --release"]:
        assert expected in message
    assert len(info.value.tried) == 5
