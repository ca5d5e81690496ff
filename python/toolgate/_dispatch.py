"""What a dispatched handler sees of its call, and how an async handler runs under
``ToolRegistry.dispatch`` / ``adispatch``.

A sync handler runs on one of the core's worker threads, which holds its call
(``toolgate._native._running_call``); an async handler's coroutine runs as a task on
an event loop, whose context variable holds it. :func:`running_call` reads either.
"""

from __future__ import annotations

import asyncio
import contextvars
from typing import Any, Optional

from . import _native

#: The running call of the async handler whose task this is.
_task_call: "contextvars.ContextVar[Optional[_native.RunningCall]]" = contextvars.ContextVar(
    "toolgate_running_call", default=None
)


def running_call() -> Optional[_native.RunningCall]:
    """The dispatched call the calling handler runs, or None outside of one (a plain
    ``call``/``acall``, or code that is no handler).

    A sync handler run by ``ToolRegistry.dispatch`` (on a worker thread) and an async
    one (in its task) read the call's ``cancelled`` flag, ``deadline``/``time_left()``
    and can ask for a retry (``retry_later()``) or be told of the cancellation
    (``on_cancel(callback)``)::

        def crawl(url: str) -> str:
            call = toolgate.running_call()
            for page in pages(url):
                if call is not None and call.cancelled:
                    break  # timed out or cancelled: the answer is no longer wanted
                ...
    """
    found = _task_call.get()
    if found is not None:
        return found
    return _native._running_call()


def _await_dispatched(awaitable: Any, call: _native.RunningCall, loop: Any) -> Any:
    """Runs a dispatched async handler's awaitable to its value, from the worker
    thread that called the handler: as a task on ``loop`` (``adispatch``'s, which
    keeps running meanwhile), or on a fresh loop in this thread (``dispatch``). The
    task is cancelled when the call is (its deadline passed, the dispatch was
    cancelled, the registry closed), so the handler sees ``CancelledError``."""

    async def run() -> Any:
        _task_call.set(call)
        return await awaitable

    if loop is not None:
        future = asyncio.run_coroutine_threadsafe(run(), loop)
        # Cancelling the concurrent future cancels the task on its loop.
        call.on_cancel(future.cancel)
        return future.result()
    private = asyncio.new_event_loop()
    try:
        task = private.create_task(run())

        def cancel() -> None:
            try:
                private.call_soon_threadsafe(task.cancel)
            except RuntimeError:  # the loop is closed: the task has ended
                pass

        call.on_cancel(cancel)
        return private.run_until_complete(task)
    finally:
        try:
            private.run_until_complete(private.shutdown_asyncgens())
        finally:
            private.close()
