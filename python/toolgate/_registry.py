"""``ToolRegistry``: seed 002's registry over the library's ``tg_registry``.

How Python handlers meet the C ABI
----------------------------------
There is one ctypes trampoline for every tool of every registry (``_HANDLER``) and
one destroy callback (``_DESTROY``), both module globals, so the ctypes callback
objects can never be collected while the library holds their address. Each
registration gets a fresh integer *token*, passed to the library as ``user_data``:

* the registry keeps the strong reference ``self._tools[token] -> _Tool`` and the
  module keeps ``_LIVE[token] -> weakref(_Tool)`` for the trampoline to look up;
* the library calls ``_DESTROY(token)`` exactly once, when the tool is replaced,
  unregistered, the registry freed (after its running calls returned), or the
  registration failed; that is when both entries are dropped.

A handler that refers to its registry therefore forms an ordinary reference cycle
(registry -> _tools -> handler -> registry) that the garbage collector can reclaim.

Each call gets a *call token* passed as the library's per-call ``call_ctx`` and
mapped to a ``_CallState`` in ``_CALLS``. Through it the trampoline can

* hand a ``KeyboardInterrupt``/``SystemExit`` raised by a handler back to the
  Python frame that called ``call`` (it is re-raised there once the C call has
  returned; nothing ever propagates through the C frames), and
* *defer* the handler for ``acall``: see :meth:`ToolRegistry.acall`.

No Python exception ever crosses the C boundary: the trampoline catches
``BaseException`` and reports through ``tg_reply_error``/its return status.
"""

from __future__ import annotations

import asyncio
import atexit
import inspect
import itertools
import json
import threading
import weakref
from ctypes import byref, c_bool, c_void_p, string_at
from typing import Any, Callable, Dict, Iterator, List, Optional, Union

from . import _native
from ._errors import InvalidArgumentError, Status, ToolNotFoundError, error_for
from ._schema import take_errors
from ._types import (
    CallResult,
    Ok,
    ToolRecord,
    ValidationError,
    args_bytes,
    schema_bytes,
)

_lib = _native.lib
_reply_ok = _lib.tg_reply_ok
_reply_error = _lib.tg_reply_error
_registry_call = _lib.tg_registry_call
_glib_validate = _native.glib.tg_registry_validate
_read_text = _native.read_text

TG_OK = _native.TG_OK
TG_ERR_HANDLER = _native.TG_ERR_HANDLER

POLICIES = {"default": 0, "dotted": 1, "mcp": 2}

DEFAULT_SCHEMA = {"type": "object"}

_tokens = itertools.count(1)  # next() on a count is atomic under the GIL
_LIVE: Dict[int, "weakref.ref[_Tool]"] = {}
_CALLS: Dict[int, "_CallState"] = {}
_SHUTTING_DOWN = [False]


@atexit.register
def _at_exit() -> None:
    # From here on a registry reached by __del__ is not freed: its destroy callbacks
    # would run Python code while the interpreter tears down. The OS reclaims it.
    _SHUTTING_DOWN[0] = True


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":"))


def _quote(name: str) -> str:
    return json.dumps(name, ensure_ascii=False)


def _content_bytes(value: Any) -> bytes:
    """What a handler returned, as the tool's answer: a str as is, bytes as raw text,
    anything else JSON-encoded (compact, non-ASCII kept)."""
    if isinstance(value, str):
        return value.encode("utf-8", "surrogatepass")
    if isinstance(value, (bytes, bytearray, memoryview)):
        return bytes(value)
    return _dumps(value).encode("utf-8", "surrogatepass")


def _lossy(data: bytes) -> str:
    """UTF-8 with invalid sequences replaced by U+FFFD, as the library copies replies."""
    return data.decode("utf-8", "replace")


def _exception_text(exc: BaseException) -> str:
    """The message of a handler's exception: ``str(exc)`` ("" when it has none or
    its ``__str__`` fails, and the library then says ``tool NAME failed``)."""
    try:
        return str(exc)
    except Exception:
        return ""


def _await_blocking(awaitable: Any) -> Any:
    """Runs an awaitable to completion from synchronous code (``call`` on an async
    handler): on a fresh event loop in this thread, or, when this thread already
    runs a loop, on a fresh loop in a helper thread (``call`` blocks either way)."""

    async def wait() -> Any:
        return await awaitable

    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(wait())
    box: Dict[str, Any] = {}

    def target() -> None:
        try:
            box["value"] = asyncio.run(wait())
        except BaseException as exc:  # handed back to the caller's thread
            box["error"] = exc

    thread = threading.Thread(target=target, name="toolgate-async-handler")
    thread.start()
    thread.join()
    if "error" in box:
        raise box["error"]
    return box["value"]


class _Tool:
    """One registration: its record and the registry table that holds it."""

    __slots__ = ("record", "owner", "__weakref__")

    def __init__(self, record: ToolRecord, owner: Dict[int, "_Tool"]) -> None:
        self.record = record
        self.owner = owner

    def start(self, args: bytes) -> Any:
        """Calls the handler with the arguments as keyword arguments."""
        kwargs = json.loads(args) if args else {}
        if not isinstance(kwargs, dict):  # the schema requires an object: cannot happen
            raise TypeError(f"arguments must be a JSON object, got {type(kwargs).__name__}")
        return self.record.handler(**kwargs)


class _CallState:
    __slots__ = ("defer", "tool", "args", "interrupt")

    def __init__(self, defer: bool) -> None:
        self.defer = defer
        self.tool: Optional[_Tool] = None
        self.args = b""
        self.interrupt: Optional[BaseException] = None


def _reply(fn, reply: int, data: bytes) -> None:
    fn(reply, data, len(data))


def _handler(user_data, call_ctx, args_ptr, args_len, reply):  # the C trampoline
    state = None
    try:
        ref = _LIVE.get(user_data)
        tool = ref() if ref is not None else None
        state = _CALLS.get(call_ctx) if call_ctx else None
        if tool is None:
            _reply(_reply_error, reply, b"tool is no longer registered")
            return TG_ERR_HANDLER
        args = string_at(args_ptr, args_len) if args_len else b""
        if state is not None and state.defer:
            # acall: the library validated the arguments and chose this tool; Python
            # runs the handler once the C call has returned.
            state.tool = tool
            state.args = args
            return TG_OK
        try:
            value = tool.start(args)
            if inspect.isawaitable(value):
                value = _await_blocking(value)
            data = _content_bytes(value)
        except Exception as exc:
            message = _exception_text(exc)
            if message:
                _reply(_reply_error, reply, message.encode("utf-8", "surrogatepass"))
            return TG_ERR_HANDLER
        _reply(_reply_ok, reply, data)
        return TG_OK
    except BaseException as exc:  # KeyboardInterrupt, SystemExit, ...: never into C
        try:
            if state is not None:
                state.interrupt = exc
        except BaseException:
            pass
        return TG_ERR_HANDLER


def _destroy(user_data) -> None:  # the C destroy callback
    try:
        ref = _LIVE.pop(user_data, None)
        tool = ref() if ref is not None else None
        if tool is not None:
            tool.owner.pop(user_data, None)
    except BaseException:
        pass


_HANDLER = _native.HANDLER_FN(_handler)
_DESTROY = _native.DESTROY_FN(_destroy)


def _take_result(handle: int, call_id: str, name: str) -> CallResult:
    try:
        content = _lossy(_read_text(_lib.tg_result_content, handle))
        flag = c_bool()
        if _lib.tg_result_is_error(handle, byref(flag)) != 0:
            raise RuntimeError("tg_result_is_error failed")
    finally:
        _lib.tg_result_free(handle)
    return CallResult(call_id, name, content, flag.value)


class ToolRegistry:
    """Tools by name: schema, handler, and validated calls.

    ``names`` is the name policy: ``"dotted"`` (default; seed 002: lowercase
    ``[a-z0-9_]`` segments separated by dots, at most 64 characters, e.g.
    ``db.get_user``), ``"default"`` (``^[A-Za-z0-9_-]{1,64}$``, what OpenAI and
    Anthropic accept) or ``"mcp"`` (``^[A-Za-z0-9_.-]{1,128}$``).

    Thread-safe: any method may be called from any thread, and from inside a
    handler. Release the native registry with :meth:`close` (or ``with``); the
    garbage collector is the backstop.
    """

    def __init__(self, names: str = "dotted") -> None:
        self._ptr: Optional[int] = None
        if names not in POLICIES:
            raise InvalidArgumentError(
                f"unknown name policy {names!r}; expected one of {', '.join(map(repr, POLICIES))}"
            )
        self.policy = names
        self._records: Dict[str, ToolRecord] = {}  # registration order
        self._tools: Dict[int, _Tool] = {}  # token -> registration, until destroyed
        self._write_lock = threading.Lock()  # register/unregister: library + _records
        self._state_lock = threading.Lock()  # _active, _closing, _ptr
        self._active = 0
        self._closing = False
        out = c_void_p()
        err = c_void_p()
        status = _lib.tg_registry_new(POLICIES[names], byref(out), byref(err))
        if status != 0:
            raise error_for(*_native.take_error(status, err))
        self._ptr = out.value

    # -- lifetime -------------------------------------------------------------

    def _enter(self) -> int:
        with self._state_lock:
            ptr = self._ptr
            if ptr is None or self._closing:
                raise ValueError("the registry is closed")
            self._active += 1
            return ptr

    def _exit(self) -> None:
        with self._state_lock:
            self._active -= 1
            if self._active or not self._closing:
                return
            ptr, self._ptr = self._ptr, None
        self._free(ptr)

    def _free(self, ptr: Optional[int]) -> None:
        if ptr is not None:
            # Runs every tool's destroy callback, which drops its _Tool entry.
            _lib.tg_registry_free(ptr)
        self._records.clear()

    def close(self) -> None:
        """Frees the native registry; every tool's handler is released.

        Idempotent. New operations raise ``ValueError`` from here on. When called
        while operations are still running (another thread's ``call``, or a handler
        closing its own registry), the registry is freed as soon as the last of them
        returns, never under them. Once freed, its records are dropped too
        (``names()`` is empty, ``get`` raises ``KeyError``).
        """
        with self._state_lock:
            if self._closing or self._ptr is None:
                self._closing = True
                return
            self._closing = True
            if self._active:
                return
            ptr, self._ptr = self._ptr, None
        self._free(ptr)

    @property
    def closed(self) -> bool:
        return self._closing or self._ptr is None

    def __enter__(self) -> "ToolRegistry":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def __del__(self) -> None:
        try:
            if _SHUTTING_DOWN[0] or getattr(self, "_ptr", None) is None:
                return
            self.close()
        except Exception:
            pass

    # -- registration ---------------------------------------------------------

    def register(
        self,
        name: str,
        schema: Any,
        handler: Callable[..., Any],
        *,
        description: str = "",
        idempotent: bool = False,
        timeout_ms: Optional[int] = None,
        override: bool = False,
    ) -> ToolRecord:
        """Registers ``handler`` as the tool ``name`` whose arguments follow ``schema``.

        ``schema`` is a JSON value (usually a dict; it must require an object,
        ``"type": "object"``), JSON text (str/bytes), or ``None`` for
        ``{"type": "object"}``. ``handler`` is a function or coroutine function
        called with the validated arguments as keyword arguments.

        Raises :class:`InvalidNameError` (name policy), :class:`DuplicateToolError`
        (already registered and ``override`` not set), :class:`SchemaError`
        (anything outside the core profile: ``oneOf``, ``$ref``, ``allOf``,
        ``format``, ...), :class:`NotObjectSchemaError`. All are ``ValueError``s
        carrying the library's message. With ``override=True`` the tool is replaced
        and keeps its place in :meth:`names`. Returns the new record.
        """
        if not callable(handler):
            raise TypeError(f"handler must be callable, not {type(handler).__name__}")
        name_b = _native.encode_text(name, "name")
        desc_b = _native.encode_text(description, "description")
        if timeout_ms is None:
            timeout = 0
        elif isinstance(timeout_ms, bool) or not isinstance(timeout_ms, int) or timeout_ms < 0:
            raise InvalidArgumentError(f"timeout_ms must be None or an int >= 0, got {timeout_ms!r}")
        else:
            timeout = timeout_ms
        params = schema_bytes(schema)
        tool_def = _native.ToolDef(
            name_b,
            len(name_b),
            desc_b,
            len(desc_b),
            params,
            len(params) if params is not None else 0,
            bool(idempotent),
            timeout,
        )
        if schema is None:
            value: Any = dict(DEFAULT_SCHEMA)
        elif isinstance(schema, (str, bytes, bytearray, memoryview)):
            try:
                value = json.loads(params)  # type: ignore[arg-type]
            except ValueError:
                value = None  # the library refuses it below, with its own message
        else:
            value = schema
        record = ToolRecord(name, description, value, handler, bool(idempotent), timeout_ms)
        flags = _native.TG_REGISTER_OVERRIDE if override else 0
        err = c_void_p()
        ptr = self._enter()
        try:
            with self._write_lock:
                token = next(_tokens)
                tool = _Tool(record, self._tools)
                self._tools[token] = tool
                _LIVE[token] = weakref.ref(tool)
                # On failure the library has already called _DESTROY(token), which
                # dropped both entries.
                status = _lib.tg_registry_register(
                    ptr, byref(tool_def), _HANDLER, token, _DESTROY, flags, byref(err)
                )
                if status != 0:
                    raise error_for(*_native.take_error(status, err))
                self._records[name] = record  # an existing key keeps its position
        finally:
            self._exit()
        return record

    def unregister(self, name: str) -> None:
        """Removes the tool; ``KeyError`` (:class:`ToolNotFoundError`) when absent.
        Calls already running on it finish first."""
        name_b = _native.encode_text(name, "name")
        err = c_void_p()
        ptr = self._enter()
        try:
            with self._write_lock:
                status = _lib.tg_registry_unregister(ptr, name_b, len(name_b), byref(err))
                if status != 0:
                    raise error_for(*_native.take_error(status, err))
                self._records.pop(name, None)
        finally:
            self._exit()

    # -- reading --------------------------------------------------------------

    def get(self, name: str) -> ToolRecord:
        """The tool's record; ``KeyError`` (:class:`ToolNotFoundError`) when absent."""
        try:
            return self._records[name]
        except (KeyError, TypeError):
            shown = _quote(name) if isinstance(name, str) else repr(name)
            raise ToolNotFoundError(f"unknown tool {shown}", Status.ERR_NOT_FOUND) from None

    def names(self) -> List[str]:
        """The tool names in registration order (an override keeps its place)."""
        with self._write_lock:
            return list(self._records)

    def __contains__(self, name: object) -> bool:
        return name in self._records

    def __len__(self) -> int:
        return len(self._records)

    def __iter__(self) -> Iterator[str]:
        return iter(self.names())

    def definitions(self) -> List[Dict[str, Any]]:
        """The tool definitions for the model: ``[{"name", "description",
        "parameters"}, ...]`` sorted by name (see :meth:`definitions_json`)."""
        return json.loads(self.definitions_json())

    def definitions_json(self) -> str:
        """The library's definitions text: compact JSON sorted by name, the same
        bytes on every run for the same registrations."""
        return self._text_call(_lib.tg_registry_definitions)

    def _library_names(self) -> List[str]:
        """The names as the library has them (sorted): for consistency checks."""
        text = self._text_call(_lib.tg_registry_names)
        return text.split("\n") if text else []

    def _text_call(self, fn) -> str:
        out = c_void_p()
        err = c_void_p()
        ptr = self._enter()
        try:
            status = fn(ptr, byref(out), byref(err))
        finally:
            self._exit()
        if status != 0:
            raise error_for(*_native.take_error(status, err))
        return _native.text_handle(out.value).decode("utf-8")

    # -- validation and calls -------------------------------------------------

    def validate(self, name: str, args: Any) -> Union[Ok, List[ValidationError]]:
        """Validates ``args`` against the tool's schema without running it.

        Returns :data:`OK`, or a non-empty list of :class:`ValidationError` whose
        ``path`` is a JSON pointer (seed 003: ``/id``, ``/fields/1``). ``args`` is
        raw JSON text (str/bytes, validated exactly as given) or a dict/list.
        ``KeyError`` (:class:`ToolNotFoundError`) for an unknown tool.
        """
        name_b = _native.encode_text(name, "name")
        data = args_bytes(args)
        out = c_void_p()
        err = c_void_p()
        ptr = self._enter()
        try:
            fn = _glib_validate if len(data) <= _native.GIL_HELD_MAX_BYTES else _lib.tg_registry_validate
            status = fn(ptr, name_b, len(name_b), data, len(data), byref(out), byref(err))
        finally:
            self._exit()
        if status != 0:
            raise error_for(*_native.take_error(status, err))
        return take_errors(out.value)

    def _call(self, call_id: str, name: str, args: Any, state: _CallState) -> CallResult:
        id_b = _native.encode_text(call_id, "call_id")
        name_b = _native.encode_text(name, "name")
        data = args_bytes(args)
        out = c_void_p()
        err = c_void_p()
        ctx = next(_tokens)
        _CALLS[ctx] = state
        try:
            ptr = self._enter()
            try:
                status = _registry_call(
                    ptr,
                    id_b,
                    len(id_b),
                    name_b,
                    len(name_b),
                    data,
                    len(data),
                    ctx,
                    byref(out),
                    byref(err),
                )
            finally:
                self._exit()
        finally:
            _CALLS.pop(ctx, None)
        if status != 0:
            raise error_for(*_native.take_error(status, err))
        result = _take_result(out.value, call_id, name)
        if state.interrupt is not None:
            interrupt, state.interrupt = state.interrupt, None
            raise interrupt
        return result

    def call(self, call_id: str, name: str, args: Any) -> CallResult:
        """Runs one tool call and returns its result; a model's mistake never raises.

        The library validates ``args`` (raw JSON text as received, or a dict/list)
        against the tool's schema: an unknown tool, malformed JSON or a schema
        violation gives an ``is_error`` result with the library's text and the
        handler does not run. Otherwise the handler runs once with the arguments
        as keyword arguments; a non-str return value is JSON-encoded; an exception
        becomes ``error: <str(exc)>`` (``error: tool NAME failed`` when the
        exception has no message). An async handler is run to completion on a
        fresh event loop (prefer :meth:`acall` in async code).

        Raises only for the caller's own mistakes (a closed registry, a non-str
        ``call_id``/``name``, unserializable ``args``); ``KeyboardInterrupt`` and
        ``SystemExit`` raised by a handler are re-raised here.
        """
        return self._call(call_id, name, args, _CallState(False))

    async def acall(self, call_id: str, name: str, args: Any) -> CallResult:
        """``call`` for async code: awaits async handlers (sync ones run inline).

        The library does everything but run the handler: it looks the tool up,
        validates the arguments and produces every refusal text (unknown tool,
        malformed JSON, schema violations), exactly as for :meth:`call`. For valid
        arguments its handler trampoline only records which tool it chose and the
        exact argument bytes (the C call cannot await); the handler is then called
        here and awaited, and its outcome turned into the same texts ``call``
        produces (``error: <str(exc)>`` / ``error: tool NAME failed``).
        ``asyncio.CancelledError`` propagates.
        """
        state = _CallState(True)
        result = self._call(call_id, name, args, state)
        tool = state.tool
        if tool is None:  # refused by the library (or the tool vanished)
            return result
        state.tool = None
        try:
            value = tool.start(state.args)
            if inspect.isawaitable(value):
                value = await value
            content = _lossy(_content_bytes(value))
        except Exception as exc:
            message = _exception_text(exc)
            if message:
                content = "error: " + _lossy(message.encode("utf-8", "surrogatepass"))
            else:
                content = f"error: tool {name} failed"
            return CallResult(call_id, name, content, True)
        return CallResult(call_id, name, content, False)

    def __repr__(self) -> str:
        state = "closed" if self.closed else f"{len(self._records)} tools"
        return f"<toolgate.ToolRegistry names={self.policy!r} {state}>"

