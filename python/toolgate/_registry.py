"""``ToolRegistry``: the native registry (``toolgate._native.Registry``) plus ``acall``,
``dispatch`` and ``adispatch``.

Everything a call needs is native: the core looks the tool up, validates the
arguments and words every refusal; the module then builds the kwargs dict from the
argument bytes and calls the handler itself, and the core words the handler's
failures. What is here is Python by nature: awaiting an async handler, running one
to completion for a synchronous ``call``, and reading a handler's signature.
"""

from __future__ import annotations

import asyncio
import inspect
import json
import logging
import threading
import time
from typing import Any, AsyncIterable, Dict, Iterable, List, Optional, Sequence, Union

from . import _native
from ._types import CallEvent, CallResult

_log = logging.getLogger("toolgate")

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

    ``dispatch(calls)`` / ``await adispatch(calls)`` run one model turn's calls
    together, under deadlines, with retries; see :meth:`dispatch`. The constructor's
    ``remember_call_ids=N`` (results of the last N call ids are replayed),
    ``default_timeout`` (seconds, for tools without ``timeout_ms``) and ``observer``
    (a callable given a :class:`~toolgate.CallEvent` per dispatched call, e.g.
    ``toolgate.otel.OpenTelemetryObserver()``) are the dispatcher's.

    Thread-safe: any method may be called from any thread, and from inside a
    handler. :meth:`close` (or leaving a ``with`` block) frees the registry, and
    cancels the dispatches running on it (their unanswered calls get
    ``error: call cancelled``); the garbage collector is the backstop, reference
    cycles through handlers included.
    """

    def dispatch(
        self,
        calls: Iterable[Any],
        *,
        policy: str = "isolate",
        max_concurrency: Optional[int] = None,
        max_batch: Optional[int] = None,
        timeout: Optional[float] = None,
        max_attempts: Optional[int] = None,
        backoff: Optional[float] = None,
        canceller: Optional[_native.Canceller] = None,
    ) -> List[CallResult]:
        """Runs the calls of one model turn together and returns their results in the
        same order, each the ``CallResult`` :meth:`call` would give, byte for byte,
        plus what the dispatcher adds. Each call is a ``(call_id, name, arguments)``
        tuple (arguments as for ``call``: JSON text, bytes, or a value) or a
        :class:`~toolgate.ToolCall`.

        1. Every call is checked before any runs: batch size (``max_batch``), call
           ids (two calls with one id are both refused; with ``remember_call_ids`` a
           known id gets its recorded result), tool, arguments. With
           ``policy="all-or-nothing"`` one refusal and no call runs (``NOT_RUN``).
        2. The valid calls run at once on the core's worker threads, at most
           ``max_concurrency`` together, started in the batch's order. A sync handler
           runs on a worker thread, taking the GIL for its Python code (this method
           releases it while it waits); an async handler runs to completion on a
           private event loop in the worker thread (under :meth:`adispatch`, on the
           caller's loop).
        3. A call's deadline is the earliest of its tool's ``timeout_ms`` (or the
           registry's ``default_timeout``) from its start and ``timeout`` (seconds)
           from the dispatch's start. Past it the result is
           ``error: tool NAME timed out after N ms`` (``TIMED_OUT``) and the handler's
           call is cancelled: ``toolgate.running_call().cancelled`` turns true, its
           ``on_cancel`` callbacks run, an async handler's task is cancelled; an
           answer after it is dropped. A Python thread cannot be stopped: a sync
           handler that ignores the flag keeps its worker until it returns.
        4. A handler that raised ``RetryableError`` (or called
           ``running_call().retry_later()`` before raising) runs again after
           ``backoff`` seconds (doubled each retry) when its tool is ``idempotent``,
           up to ``max_attempts`` runs; ``CallResult.attempts`` counts them.

        ``canceller`` (a :class:`~toolgate.Canceller`): its ``cancel()``, from any
        thread, ends the dispatch at once; calls not answered get
        ``error: call cancelled`` (``CANCELLED``). :meth:`close` does the same to
        every running dispatch. A handler that raises a ``BaseException`` that is no
        ``Exception`` (``KeyboardInterrupt``, ``SystemExit``) fails as a crash does:
        ``error: tool NAME panicked``. An empty batch gives ``[]``. The observer, if
        any, is called once the batch is done, on this thread.

        A limit left ``None`` (``max_concurrency``, ``max_batch``, ``max_attempts``,
        ``backoff``) takes the library's default, the same in every host;
        ``timeout=None`` sets no dispatch deadline.
        """
        observer = self.observer
        if observer is None:
            return self._dispatch(  # type: ignore[no-any-return]
                calls, policy, max_concurrency, max_batch, timeout, max_attempts, backoff, None, canceller
            )[0]
        calls = calls if isinstance(calls, (list, tuple)) else list(calls)
        masked = self.masked_values
        started = time.time_ns()
        results, observer, events = self._dispatch(
            calls, policy, max_concurrency, max_batch, timeout, max_attempts, backoff, None, canceller
        )
        _tell(observer, calls, results, events, started, masked)
        return results  # type: ignore[no-any-return]

    async def adispatch(
        self,
        calls: Iterable[Any],
        *,
        policy: str = "isolate",
        max_concurrency: Optional[int] = None,
        max_batch: Optional[int] = None,
        timeout: Optional[float] = None,
        max_attempts: Optional[int] = None,
        backoff: Optional[float] = None,
    ) -> List[CallResult]:
        """:meth:`dispatch` for async code; the same arguments, checks and results.

        The dispatch runs on a helper thread, so the event loop stays free: async
        handlers run as tasks on this loop (each call's task is cancelled when the
        call times out or is cancelled, so the handler sees ``CancelledError``), sync
        handlers on the core's worker threads. When the awaiting task is cancelled,
        the dispatch is cancelled (its running handlers see it), awaited until it has
        returned (the observer is told of its calls), and ``CancelledError`` is
        raised. The observer is called in the awaiting task once the batch is done.
        """
        calls = calls if isinstance(calls, (list, tuple)) else list(calls)
        if not calls:
            return []
        observer = self.observer
        masked = self.masked_values if observer is not None else False
        loop = asyncio.get_running_loop()
        stop = _native.Canceller()
        done: "asyncio.Future[Any]" = loop.create_future()
        started = time.time_ns()

        def settle(outcome: Any) -> None:
            if not done.done():
                done.set_result(outcome)

        def work() -> None:
            try:
                outcome: Any = (True, self._dispatch(
                    calls, policy, max_concurrency, max_batch, timeout, max_attempts, backoff, loop, stop
                ))
            except BaseException as exc:  # handed to the awaiting task
                outcome = (False, exc)
            try:
                loop.call_soon_threadsafe(settle, outcome)
            except RuntimeError:  # the loop is closed: nobody awaits any more
                pass

        thread = threading.Thread(target=work, name="toolgate-adispatch", daemon=True)
        thread.start()
        try:
            ok, value = await asyncio.shield(done)
        except asyncio.CancelledError as cancelled:
            stop.cancel()
            # The cancelled handlers' tasks need this loop: wait without blocking it.
            while not done.done():
                try:
                    await asyncio.shield(done)
                except asyncio.CancelledError:
                    pass
            thread.join()
            ok, value = done.result()
            if ok and value[1] is not None:  # the observer hears of the calls all the same
                _tell(value[1], calls, value[0], value[2], started, masked)
            raise cancelled
        thread.join()
        if not ok:
            raise value
        results, observer, events = value
        if observer is not None:
            _tell(observer, calls, results, events, started, masked)
        return results  # type: ignore[no-any-return]

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

    def call_deltas(self, call_id: str, name: str, deltas: Iterable[Any]) -> CallResult:
        """:meth:`call` on arguments that arrive in pieces: feeds each delta (``str``
        or ``bytes``) of ``deltas`` to :meth:`stream_call`'s stream, and returns the
        refusal as soon as the bytes fed can no longer be valid (an unknown tool
        before any delta is read), without reading the rest of ``deltas``; else the
        result of :meth:`call` on all the bytes, the handler run once there."""
        stream = self.stream_call(call_id, name)
        if not stream.refused:
            for delta in deltas:
                if stream.feed(delta) is not None:
                    break
        return stream.finish()

    async def acall_deltas(
        self, call_id: str, name: str, deltas: Union[AsyncIterable[Any], Iterable[Any]]
    ) -> CallResult:
        """:meth:`acall` on arguments that arrive in pieces, e.g. a provider's
        argument deltas as an async iterator: feeds each delta (``str`` or ``bytes``)
        to :meth:`stream_call`'s stream as it comes, and returns the refusal as soon
        as the bytes fed can no longer be valid (an unknown tool before any delta is
        awaited), without consuming the rest of ``deltas`` (closing it is the
        caller's); else awaits :meth:`acall` on all the bytes, the handler run once
        there. ``deltas`` may also be a plain iterable."""
        stream = self.stream_call(call_id, name)
        if not stream.refused:
            if hasattr(deltas, "__aiter__"):
                async for delta in deltas:  # type: ignore[union-attr]
                    if stream.feed(delta) is not None:
                        break
            else:
                for delta in deltas:  # type: ignore[union-attr]
                    if stream.feed(delta) is not None:
                        break
        return await stream.afinish()


async def _finish_stream(
    registry: Any, call_id: str, name: str, refusal: Optional[CallResult], args: Optional[bytes]
) -> CallResult:
    """What ``CallStream.afinish()`` awaits: the stream's refusal, or ``acall`` on its
    arguments (``refusal`` is None exactly when ``args`` is given)."""
    if refusal is not None:
        return refusal
    return await registry.acall(call_id, name, args)  # type: ignore[no-any-return]


def _argument_text(call: Any) -> str:
    """A batch call's arguments as text, for its ``CallEvent``."""
    arguments = call[2] if isinstance(call, (tuple, list)) else call.arguments
    if isinstance(arguments, str):
        return arguments
    if isinstance(arguments, (bytes, bytearray, memoryview)):
        return bytes(arguments).decode("utf-8", "replace")
    try:
        return json.dumps(arguments, ensure_ascii=False, separators=(",", ":"))
    except (TypeError, ValueError):
        return ""


def _tell(
    observer: Any,
    calls: Sequence[Any],
    results: Sequence[CallResult],
    events: Sequence[Any],
    started: int,
    masked: bool,
) -> None:
    """Calls ``observer`` with the ``CallEvent`` of each call of a batch, in order: the
    core's event paired with the call and its result. An exception the observer raises
    is logged (logger ``toolgate``) and the next call is told all the same."""
    for call, result, (error_type, attempts, duration, argument_bytes, replayed) in zip(
        calls, results, events
    ):
        event = CallEvent(
            result.call_id,
            result.name,
            result.outcome,
            error_type,
            attempts,
            duration,
            argument_bytes,
            replayed,
            _argument_text(call),
            result,
            started,
            masked,
        )
        try:
            observer(event)
        except Exception:
            _log.exception("the dispatch observer raised on call %r", result.call_id)


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
