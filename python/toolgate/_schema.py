"""Standalone compiled schemas: ``toolgate.compile(schema) -> Schema``."""

from __future__ import annotations

import json
from ctypes import c_bool, c_size_t, c_void_p, string_at
from typing import Any, List, Union

from . import _native
from ._errors import InvalidArgumentError, error_for
from ._types import OK, Ok, ValidationError, args_bytes, errors_from_json, schema_bytes

_lib = _native.lib
_glib = _native.glib
_SMALL = _native.GIL_HELD_MAX_BYTES
_is_valid = _lib.tg_schema_is_valid
_is_valid_small = _glib.tg_schema_is_valid
_validate = _lib.tg_schema_validate
_validate_small = _glib.tg_schema_validate
# The same checks with the argument rule (empty arguments mean {}).
_is_valid_args = _lib.tg_schema_is_valid_arguments
_is_valid_args_small = _glib.tg_schema_is_valid_arguments
_validate_args = _lib.tg_schema_validate_arguments
_validate_args_small = _glib.tg_schema_validate_arguments
_errors_free = _glib.tg_errors_free
_errors_json = _glib.tg_errors_json
_read_text = _native.read_text


def take_errors(handle: int) -> Union[Ok, List[ValidationError]]:
    """OK or the list of violations of a tg_errors; frees it."""
    ptr = c_void_p()
    size = c_size_t()
    try:
        # Out-parameters are declared POINTER(...): ctypes passes their address.
        if _errors_json(handle, ptr, size) != 0:
            raise RuntimeError("tg_errors_json failed")
        text = string_at(ptr.value, size.value)
    finally:
        _errors_free(handle)
    if text == b"[]":
        return OK
    return errors_from_json(text)


class Schema:
    """A compiled JSON Schema (core profile), immutable and thread-safe.

    ``validate(args)`` returns :data:`OK` or a non-empty list of
    :class:`ValidationError`; ``is_valid(args)`` is the fast boolean path (no
    allocation on valid input). ``args`` is raw JSON text (``str``/``bytes``,
    validated exactly as given: empty text is malformed JSON) or a Python value
    (serialized losslessly). ``validate_arguments`` and ``is_valid_arguments`` check
    tool-call arguments as the registry does: empty text there means ``{}``.

    The native handle is released by :meth:`close`, by leaving a ``with`` block, or
    when the object is garbage-collected. Do not call ``close`` while another
    thread is still validating with the same object.
    """

    __slots__ = ("_ptr", "schema", "__weakref__")

    def __init__(self, schema: Any, *, max_depth: int = 0) -> None:
        self._ptr = None
        self.schema = None
        data = schema_bytes(schema)
        if data is None:
            raise TypeError("schema must be a JSON value or JSON text, not None")
        if not isinstance(max_depth, int) or max_depth < 0:
            raise InvalidArgumentError(f"max_depth must be a non-negative int, got {max_depth!r}")
        out = c_void_p()
        err = c_void_p()
        status = _lib.tg_schema_compile(data, len(data), max_depth, out, err)
        if status != 0:
            raise error_for(*_native.take_error(status, err))
        self._ptr = out.value
        # The schema as given; JSON text is parsed only once the library accepted it.
        self.schema = json.loads(data) if isinstance(schema, (str, bytes, bytearray, memoryview)) else schema

    # -- validation -----------------------------------------------------------

    def is_valid(self, args: Any) -> bool:
        """True when ``args`` is well-formed JSON that satisfies the schema."""
        return self._fast_check(args)[0]

    def is_valid_arguments(self, args: Any) -> bool:
        """:meth:`is_valid` for tool-call arguments: empty text means ``{}``."""
        return self._fast_check(args, True)[0]

    def validate_arguments(self, args: Any) -> Union[Ok, List[ValidationError]]:
        """:meth:`validate` for tool-call arguments: empty text means ``{}``."""
        return self.validate(args, _arguments=True)

    def _fast_check(self, args: Any, arguments: bool = False):
        """(verdict, handle, bytes): the library's allocation-free yes/no, and what
        ``validate`` needs to build the error list without encoding twice."""
        ptr = self._handle()
        t = type(args)
        if t is str:
            data = args.encode("utf-8", "surrogatepass")
        elif t is bytes:
            data = args
        else:
            data = args_bytes(args)
        ok = c_bool()  # passed to a POINTER(c_bool) parameter: ctypes takes its address
        n = len(data)
        if arguments:
            check = _is_valid_args_small if n <= _SMALL else _is_valid_args
        else:
            check = _is_valid_small if n <= _SMALL else _is_valid
        if check(ptr, data, n, ok):
            raise InvalidArgumentError("tg_schema_is_valid failed")
        return ok.value, ptr, data

    def validate(self, args: Any, *, _arguments: bool = False) -> Union[Ok, List[ValidationError]]:
        """:data:`OK`, or every violation sorted by path then message.

        The boolean fast path runs first; the error list is only built for input
        that fails it.
        """
        valid, ptr, data = self._fast_check(args, _arguments)
        if valid:
            return OK
        n = len(data)
        small = n <= _SMALL
        out = c_void_p()
        err = c_void_p()
        if _arguments:
            validate = _validate_args_small if small else _validate_args
        else:
            validate = _validate_small if small else _validate
        status = validate(ptr, data, n, out, err)
        if status != 0:
            raise error_for(*_native.take_error(status, err))
        result = take_errors(out.value)
        if result is OK:
            # is_valid and validate disagree: never report such input as valid.
            return [ValidationError("", "schema", "rejected by the schema", None, "$")]
        return result

    # -- the schema -----------------------------------------------------------

    @property
    def json(self) -> str:
        """The schema as compact JSON, keys in the author's order."""
        return _read_text(_lib.tg_schema_json, self._handle()).decode("utf-8")

    # -- lifetime -------------------------------------------------------------

    def _handle(self) -> int:
        ptr = self._ptr
        if ptr is None:
            raise ValueError("the schema is closed")
        return ptr

    @property
    def closed(self) -> bool:
        return self._ptr is None

    def close(self) -> None:
        """Frees the native schema (idempotent)."""
        ptr, self._ptr = self._ptr, None
        if ptr is not None:
            _lib.tg_schema_free(ptr)

    def __enter__(self) -> "Schema":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:  # interpreter shutdown: the library may be gone already
            pass

    def __repr__(self) -> str:
        state = "closed" if self._ptr is None else "compiled"
        return f"<toolgate.Schema {state}>"


def compile(schema: Any, *, max_depth: int = 0) -> Schema:  # noqa: A001 - the seed's name
    """Compiles ``schema`` (a JSON value, or JSON text as str/bytes).

    Raises :class:`SchemaError` (a ``ValueError``) naming the offending location
    (``.pointer``) and keyword (``.keyword``) for anything outside the core
    profile (``oneOf``, ``$ref``, ``format``, ...), an unknown type, a bad
    pattern, and so on. ``max_depth`` bounds nesting of the schema and of the
    instances it validates (0: the library's default, 128).
    """
    return Schema(schema, max_depth=max_depth)
