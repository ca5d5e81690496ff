"""``ToolRegistry``: the native registry (``toolgate._native.Registry``) plus ``acall``.

Everything a call needs is native: the core looks the tool up, validates the
arguments and words every refusal; the module then builds the kwargs dict from the
argument bytes and calls the handler itself, and the core words the handler's
failures. What is here is Python by nature: awaiting an async handler, running one
to completion for a synchronous ``call``, and reading a handler's signature.
"""

from __future__ import annotations

import asyncio
import inspect
import threading
from typing import Any, Dict, Optional

from . import _native
from ._types import CallResult

_PARAMETER = inspect.Parameter
_NAMED = (_PARAMETER.POSITIONAL_OR_KEYWORD, _PARAMETER.KEYWORD_ONLY)
_isawaitable = inspect.isawaitable


class ToolRegistry(_native.Registry):
    """Tools by name: schema, handler, and validated calls.

    ``ToolRegistry(names="dotted", *, max_argument_bytes=4 MiB, max_depth=0)``.

    ``names`` is the name policy: ``"dotted"`` (default: lowercase ``[a-z0-9_]``
    segments separated by dots, at most 64 characters, e.g. ``db.get_user``),
    ``"default"`` (``^[A-Za-z0-9_-]{1,64}$``, what OpenAI and Anthropic accept) or
    ``"mcp"`` (``^[A-Za-z0-9_.-]{1,128}$``). ``max_argument_bytes`` is the largest
    argument text a call or a validation reads (default 4 MiB, ``None`` for no limit):
    longer arguments are refused unread (``N bytes is more than the limit of M``).
    ``max_depth`` bounds the nesting of the tools' schemas and of the arguments (0:
    the default, 128). ``profile="full"`` compiles the tools' schemas as JSON Schema
    draft 2020-12 (or draft-07), with ``$ref``/``$defs``, ``oneOf``, ``format`` and the
    rest, as pydantic's ``model_json_schema()`` writes them; ``draft``, ``resources``
    (``{uri: schema}``) and ``annotation_formats`` go with it.
    ``masked_values=True`` keeps every value of a call's arguments and of a tool's
    answer out of refusals and violations (``value is not one of ["c","f"]``).

    ``register(name, schema, handler, *, output_schema=None, ...)``: with an output
    schema (a JSON value, or JSON text, as ``schema``; any root, not only objects),
    every answer of the handler is checked as JSON text (a ``str`` as it is, any
    other value written as JSON): a conforming answer is passed on unchanged with
    ``structured=True``; any other gives ``outcome=CallOutcome.INVALID_RESULT``, the
    content ``error: tool NAME returned an invalid result:`` and one line per
    violation, the answer kept in ``invalid_result``. A handler that raises is never
    checked. An output schema that does not compile raises ``SchemaError``, as a
    parameters schema does, and the registry is unchanged.

    Thread-safe: any method may be called from any thread, and from inside a
    handler. :meth:`close` (or leaving a ``with`` block) frees the registry; the
    garbage collector is the backstop, reference cycles through handlers included.
    """

    async def acall(self, call_id: str, name: str, args: Any) -> CallResult:
        """``call`` for async code: awaits async handlers (sync ones run inline).

        The core does everything but run the handler: it looks the tool up,
        validates the arguments and words every refusal, exactly as for
        :meth:`call`; it also words the handler's failures
        (``error: <str(exc)>``, ``error: tool NAME failed``). The handler is the one
        registered when the call was accepted, even if it is replaced meanwhile.
        ``asyncio.CancelledError`` propagates.
        """
        step = self._prepare(call_id, name, args)
        if step.__class__ is CallResult:  # refused: the core's text
            return step
        try:
            value = step.start()
            if _isawaitable(value):
                value = await value
        except Exception as exc:
            return step.failed(exc)
        return step.finish(value)


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


def _unaccepted_property(handler: Any, schema: Any) -> Optional[str]:
    """The first property ``schema`` declares that ``handler`` cannot take as a
    keyword argument, or None.

    A handler receives the arguments as keyword arguments, so every declared
    property needs a parameter of its name or a ``**kwargs``; a property named like
    a Python keyword (``class``, ``from``) or that is no identifier can only arrive
    through ``**kwargs`` (or with ``register(..., arguments="dict")``). A handler
    whose signature cannot be read (some builtins) is not checked.
    """
    properties = schema.get("properties") if isinstance(schema, dict) else None
    if not isinstance(properties, dict) or not properties:
        return None
    try:
        signature = inspect.signature(handler)
    except (TypeError, ValueError):
        return None
    names = set()
    for parameter in signature.parameters.values():
        if parameter.kind is _PARAMETER.VAR_KEYWORD:
            return None
        if parameter.kind in _NAMED:
            names.add(parameter.name)
    for name in properties:
        if name not in names:
            return name
    return None
