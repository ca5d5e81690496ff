"""Loading ``libtoolgate`` and declaring its C API for ctypes.

Everything that touches a raw pointer lives here or in the two modules that own
handles (``_schema`` and ``_registry``). Every function of ``include/toolgate.h``
used by the binding gets its ``argtypes`` and ``restype`` once, at import.

Conventions (see the header):

* Input text is passed as ``bytes`` (``c_char_p``: no copy) plus its length, never
  relied on to be NUL-terminated.
* Text owned by a library handle comes back through a ``const char **`` declared
  as ``POINTER(c_void_p)`` plus a ``size_t *``; it is read with
  ``ctypes.string_at(ptr, len)`` (so embedded NULs survive) *before* the handle is
  freed with the handle's own free function.
* Failures come back through the ``tg_error **error_out`` of the same call.

Where the library is looked for, in order (the first that exists is loaded):

1. the file named by the environment variable ``TOOLGATE_LIB`` (when set, it is the
   only candidate: a configured path that cannot be loaded is an error, not a
   reason to load something else);
2. the copy shipped inside this package (``toolgate/libtoolgate.so``), put there by
   ``pip install`` when ``target/release/libtoolgate.so`` existed at build time;
3. ``target/release`` then ``target/debug`` of the repository this package sits in
   (a development checkout: ``python/toolgate/`` is two levels below the root);
4. ``ctypes.util.find_library("toolgate")``, then the plain names
   ``libtoolgate.so.0`` / ``libtoolgate.so`` through the dynamic loader's standard
   search (``LD_LIBRARY_PATH``, the ld.so cache, ...).

When none loads, :class:`LibraryNotFoundError` (an ``ImportError``) names every
place that was tried and why each one failed.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import sys
from ctypes import (
    CFUNCTYPE,
    POINTER,
    Structure,
    c_bool,
    c_char_p,
    c_int32,
    c_size_t,
    c_uint32,
    c_uint64,
    c_void_p,
)
from pathlib import Path
from typing import List, Tuple

from ._errors import LibraryNotFoundError

# The C API this binding is written against (include/toolgate.h). A library whose
# MAJOR.MINOR differs is refused at import (0.x: a minor bump may break the ABI).
ABI_VERSION: Tuple[int, int] = (0, 1)

ENV_VAR = "TOOLGATE_LIB"

if sys.platform == "darwin":
    _FILE_NAMES = ["libtoolgate.dylib"]
elif sys.platform == "win32":
    _FILE_NAMES = ["toolgate.dll"]
else:
    _FILE_NAMES = ["libtoolgate.so"]
_SYSTEM_NAMES = ["libtoolgate.so.0", "libtoolgate.so"] if sys.platform.startswith("linux") else list(_FILE_NAMES)

_PACKAGE_DIR = Path(__file__).resolve().parent
_REPO_ROOT = _PACKAGE_DIR.parent.parent


def _candidates() -> List[Tuple[str, str]]:
    """(what, path-or-name) pairs, in search order (after TOOLGATE_LIB)."""
    out: List[Tuple[str, str]] = []
    for fname in _FILE_NAMES:
        out.append(("copy shipped in the package", str(_PACKAGE_DIR / fname)))
    for profile in ("release", "debug"):
        for fname in _FILE_NAMES:
            out.append(
                (f"repository target/{profile}", str(_REPO_ROOT / "target" / profile / fname))
            )
    return out


def _load() -> Tuple[ctypes.CDLL, str]:
    tried: List[str] = []
    env = os.environ.get(ENV_VAR)
    if env:
        try:
            return ctypes.CDLL(env), env
        except OSError as exc:
            raise LibraryNotFoundError(
                f"cannot load libtoolgate from ${ENV_VAR}={env!r}: {exc}\n"
                f"(unset {ENV_VAR} to search the default places)",
                tried=[f"${ENV_VAR}={env}: {exc}"],
            ) from None
    tried.append(f"${ENV_VAR}: not set")

    for what, path in _candidates():
        if not os.path.isfile(path):
            tried.append(f"{what}: {path}: no such file")
            continue
        try:
            return ctypes.CDLL(path), path
        except OSError as exc:
            tried.append(f"{what}: {path}: {exc}")

    found = ctypes.util.find_library("toolgate")
    names: List[str] = []
    if found:
        names.append(found)
    else:
        tried.append('ctypes.util.find_library("toolgate"): nothing found')
    names.extend(n for n in _SYSTEM_NAMES if n not in names)
    for name in names:
        try:
            return ctypes.CDLL(name), name
        except OSError as exc:
            tried.append(f"dynamic loader search for {name}: {exc}")

    raise LibraryNotFoundError(
        "cannot find the toolgate shared library. Looked in:\n  - "
        + "\n  - ".join(tried)
        + f"\nBuild it with `cargo build --release` at the repository root and reinstall "
        f"the package (`pip install ./python`), or set {ENV_VAR} to the library's path.",
        tried=tried,
    )


lib, path = _load()

# ---------------------------------------------------------------------------
# Types


class ToolDef(Structure):
    """``struct tg_tool_def``."""

    _fields_ = [
        ("name", c_char_p),
        ("name_len", c_size_t),
        ("description", c_char_p),
        ("description_len", c_size_t),
        ("parameters", c_char_p),
        ("parameters_len", c_size_t),
        ("idempotent", c_bool),
        ("timeout_ms", c_uint64),
    ]


# tg_status (*)(void *user_data, void *call_ctx, const char *args, size_t len, tg_reply *)
# `args` is declared as a void pointer so ctypes does not turn it into NUL-terminated
# bytes: the handler reads exactly `len` bytes with string_at.
HANDLER_FN = CFUNCTYPE(c_int32, c_void_p, c_void_p, c_void_p, c_size_t, c_void_p)
# void (*)(void *user_data)
DESTROY_FN = CFUNCTYPE(None, c_void_p)

status_t = c_int32
handle_t = c_void_p
handle_out = POINTER(c_void_p)
text_out = POINTER(c_void_p)  # const char ** (library-owned text)
size_out = POINTER(c_size_t)

TG_OK = 0
TG_ERR_HANDLER = 10
TG_REGISTER_OVERRIDE = 1

# ---------------------------------------------------------------------------
# Prototypes: (name, restype, argtypes)

_PROTOTYPES = [
    ("tg_version", c_char_p, []),
    ("tg_status_str", c_char_p, [status_t]),
    # tg_error
    ("tg_error_status", status_t, [handle_t]),
    ("tg_error_message", status_t, [handle_t, text_out, size_out]),
    ("tg_error_pointer", status_t, [handle_t, text_out, size_out]),
    ("tg_error_keyword", status_t, [handle_t, text_out, size_out]),
    ("tg_error_free", None, [handle_t]),
    # tg_errors
    ("tg_errors_count", status_t, [handle_t, size_out]),
    ("tg_errors_path", status_t, [handle_t, c_size_t, text_out, size_out]),
    ("tg_errors_pointer", status_t, [handle_t, c_size_t, text_out, size_out]),
    ("tg_errors_keyword", status_t, [handle_t, c_size_t, text_out, size_out]),
    ("tg_errors_message", status_t, [handle_t, c_size_t, text_out, size_out]),
    ("tg_errors_text", status_t, [handle_t, text_out, size_out]),
    ("tg_errors_json", status_t, [handle_t, text_out, size_out]),
    ("tg_errors_free", None, [handle_t]),
    # tg_schema
    ("tg_schema_compile", status_t, [c_char_p, c_size_t, c_size_t, handle_out, handle_out]),
    ("tg_schema_is_valid", status_t, [handle_t, c_char_p, c_size_t, POINTER(c_bool)]),
    ("tg_schema_validate", status_t, [handle_t, c_char_p, c_size_t, handle_out, handle_out]),
    ("tg_schema_is_valid_arguments", status_t, [handle_t, c_char_p, c_size_t, POINTER(c_bool)]),
    ("tg_schema_validate_arguments", status_t, [handle_t, c_char_p, c_size_t, handle_out, handle_out]),
    ("tg_schema_json", status_t, [handle_t, text_out, size_out]),
    ("tg_schema_free", None, [handle_t]),
    # tg_registry
    ("tg_registry_new", status_t, [c_int32, handle_out, handle_out]),
    ("tg_registry_free", None, [handle_t]),
    (
        "tg_registry_register",
        status_t,
        [handle_t, POINTER(ToolDef), HANDLER_FN, c_void_p, DESTROY_FN, c_uint32, handle_out],
    ),
    ("tg_registry_unregister", status_t, [handle_t, c_char_p, c_size_t, handle_out]),
    ("tg_registry_describe", status_t, [handle_t, c_char_p, c_size_t, handle_out, handle_out]),
    ("tg_registry_names", status_t, [handle_t, handle_out, handle_out]),
    ("tg_registry_definitions", status_t, [handle_t, handle_out, handle_out]),
    (
        "tg_registry_validate",
        status_t,
        [handle_t, c_char_p, c_size_t, c_char_p, c_size_t, handle_out, handle_out],
    ),
    (
        "tg_registry_call",
        status_t,
        [
            handle_t,
            c_char_p,
            c_size_t,
            c_char_p,
            c_size_t,
            c_char_p,
            c_size_t,
            c_void_p,
            handle_out,
            handle_out,
        ],
    ),
    # tg_reply (called from inside a handler)
    ("tg_reply_ok", status_t, [c_void_p, c_char_p, c_size_t]),
    ("tg_reply_error", status_t, [c_void_p, c_char_p, c_size_t]),
    # tg_result
    ("tg_result_call_id", status_t, [handle_t, text_out, size_out]),
    ("tg_result_name", status_t, [handle_t, text_out, size_out]),
    ("tg_result_content", status_t, [handle_t, text_out, size_out]),
    ("tg_result_is_error", status_t, [handle_t, POINTER(c_bool)]),
    ("tg_result_tool_message", status_t, [handle_t, text_out, size_out]),
    ("tg_result_free", None, [handle_t]),
    # tg_text
    ("tg_text_data", status_t, [handle_t, text_out, size_out]),
    ("tg_text_free", None, [handle_t]),
    # tg_tool_info
    ("tg_tool_info_name", status_t, [handle_t, text_out, size_out]),
    ("tg_tool_info_description", status_t, [handle_t, text_out, size_out]),
    ("tg_tool_info_parameters", status_t, [handle_t, text_out, size_out]),
    ("tg_tool_info_idempotent", status_t, [handle_t, POINTER(c_bool)]),
    ("tg_tool_info_timeout_ms", status_t, [handle_t, POINTER(c_uint64)]),
    ("tg_tool_info_free", None, [handle_t]),
]


def _declare() -> None:
    missing = []
    for name, restype, argtypes in _PROTOTYPES:
        try:
            fn = getattr(lib, name)
        except AttributeError:
            missing.append(name)
            continue
        fn.restype = restype
        fn.argtypes = argtypes
    if missing:
        raise LibraryNotFoundError(
            f"{path} is not a compatible libtoolgate: missing symbols {', '.join(missing)}",
            tried=[path],
        )


_declare()

# The same functions through a PyDLL: called *without releasing the GIL*. Only
# functions that never call back into Python are declared here, and the binding
# uses them for short work only (validating small inputs, reading results), where
# releasing and re-taking the GIL would cost more than the call itself. Large
# inputs go through `lib`, which releases the GIL so other threads run meanwhile.
glib = ctypes.PyDLL(path, handle=lib._handle)
_GIL_HELD = {
    "tg_schema_is_valid",
    "tg_schema_validate",
    "tg_schema_is_valid_arguments",
    "tg_schema_validate_arguments",
    "tg_registry_validate",
    "tg_errors_count",
    "tg_errors_json",
    "tg_errors_free",
}
for _name, _restype, _argtypes in _PROTOTYPES:
    if _name in _GIL_HELD:
        _fn = getattr(glib, _name)
        _fn.restype = _restype
        _fn.argtypes = _argtypes

#: Inputs up to this many bytes are validated without releasing the GIL.
GIL_HELD_MAX_BYTES = 64 * 1024


def _check_version() -> str:
    raw = lib.tg_version()
    version = raw.decode("ascii", "replace") if raw else "?"
    try:
        major, minor = (int(p) for p in version.split(".")[:2])
    except ValueError:
        major = minor = -1
    if (major, minor) != ABI_VERSION:
        raise LibraryNotFoundError(
            f"{path} is libtoolgate {version}, but this package needs "
            f"{ABI_VERSION[0]}.{ABI_VERSION[1]}.x; rebuild the library or reinstall the package",
            tried=[path],
        )
    return version


version = _check_version()


# ---------------------------------------------------------------------------
# Helpers shared by the handle-owning modules


def read_text(getter, handle, *extra) -> bytes:
    """Bytes of a text owned by `handle`, through an accessor like tg_error_message."""
    ptr = c_void_p()
    size = c_size_t()
    status = getter(handle, *extra, ctypes.byref(ptr), ctypes.byref(size))
    if status != TG_OK:
        raise RuntimeError(f"{getter.__name__} failed: {status_str(status)}")
    if not size.value:
        return b""
    return ctypes.string_at(ptr.value, size.value)


def status_str(status: int) -> str:
    raw = lib.tg_status_str(status)
    return raw.decode("utf-8", "replace") if raw else f"status {status}"


def take_error(status: int, err: c_void_p) -> Tuple[int, str, str, str]:
    """(status, message, pointer, keyword) of a failed call; frees the tg_error."""
    handle = err.value
    if not handle:
        return status, status_str(status), "", ""
    try:
        message = read_text(lib.tg_error_message, handle).decode("utf-8", "replace")
        pointer = read_text(lib.tg_error_pointer, handle).decode("utf-8", "replace")
        keyword = read_text(lib.tg_error_keyword, handle).decode("utf-8", "replace")
    finally:
        lib.tg_error_free(handle)
    return status, message, pointer, keyword


def text_handle(handle: int) -> bytes:
    """Bytes of a tg_text; frees it."""
    try:
        return read_text(lib.tg_text_data, handle)
    finally:
        lib.tg_text_free(handle)


def encode_text(value, what: str) -> bytes:
    """A name, call id or description as UTF-8 bytes.

    Lone surrogates are kept (``surrogatepass``), so text that is not valid Unicode
    reaches the library, which refuses it with TG_ERR_UTF8, instead of failing here
    with a different error.
    """
    if isinstance(value, str):
        return value.encode("utf-8", "surrogatepass")
    raise TypeError(f"{what} must be str, not {type(value).__name__}")

