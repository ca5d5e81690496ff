"""OpenTelemetry spans for dispatched tool calls, one GenAI ``execute_tool`` span per
call (refused ones included), from the registry's observer::

    from toolgate.otel import OpenTelemetryObserver

    registry = toolgate.ToolRegistry(observer=OpenTelemetryObserver())
    registry.dispatch(calls)   # one span per call, children of the current span

Needs ``opentelemetry-api`` (and an SDK to export the spans); ``import toolgate``
never imports it, only this module does, when an observer is made.

Each span is named ``execute_tool TOOL`` (kind ``INTERNAL``) and has the attributes

* ``gen_ai.operation.name``: ``"execute_tool"``; ``gen_ai.tool.name``: the tool the
  call asked for; ``gen_ai.tool.call.id``: the call's id (left out when empty);
* ``error.type``: the failure's short name (``invalid_arguments``, ``timeout``,
  ``tool_error``, ... see :class:`toolgate.CallEvent`), only for a failure, whose
  span status is ``ERROR``;
* ``toolgate.outcome`` (the :class:`toolgate.CallOutcome` value),
  ``toolgate.attempts``, ``toolgate.argument_bytes``, ``toolgate.replayed``;
* with ``record_arguments=True``: ``gen_ai.tool.call.arguments``, the argument text
  as the model sent it; with ``record_results=True``: ``gen_ai.tool.call.result``,
  the result's content (the answer, or the ``error: ...`` text the model reads).
  Both hold the call's values, so neither is recorded by default; and when the
  registry keeps values out of its texts (``masked_values=True``) neither is
  recorded even when asked for: the span says ``toolgate.values_masked=True``
  instead.

A span starts when the batch started and lasts the call's duration (the dispatcher
reports each call once the batch is done; a call held back by ``max_concurrency``
shows as starting with the batch). The spans are children of the span current where
``dispatch`` was called (for ``adispatch``, in the awaiting task).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Dict, Optional

from ._types import CallEvent

if TYPE_CHECKING:
    from opentelemetry.trace import TracerProvider

__all__ = ["OpenTelemetryObserver"]


class OpenTelemetryObserver:
    """A registry observer (``ToolRegistry(observer=...)``) that records one
    ``execute_tool`` span per dispatched call with ``tracer_provider`` (None: the
    global one). ``record_arguments`` / ``record_results`` add the call's argument
    text and result content, unless the registry masks values (see the module)."""

    def __init__(
        self,
        tracer_provider: Optional["TracerProvider"] = None,
        *,
        record_arguments: bool = False,
        record_results: bool = False,
    ) -> None:
        from opentelemetry import trace

        from . import __version__

        self._kind = trace.SpanKind.INTERNAL
        self._error = trace.Status(trace.StatusCode.ERROR)
        self._tracer = trace.get_tracer("toolgate", __version__, tracer_provider=tracer_provider)
        self.record_arguments = record_arguments
        self.record_results = record_results

    def attributes(self, event: CallEvent) -> Dict[str, Any]:
        """The span attributes of ``event``."""
        attributes: Dict[str, Any] = {
            "gen_ai.operation.name": "execute_tool",
            "gen_ai.tool.name": event.tool,
        }
        if event.call_id:
            attributes["gen_ai.tool.call.id"] = event.call_id
        if event.error_type is not None:
            attributes["error.type"] = event.error_type
        attributes["toolgate.outcome"] = event.outcome.value
        attributes["toolgate.attempts"] = event.attempts
        attributes["toolgate.argument_bytes"] = event.argument_bytes
        attributes["toolgate.replayed"] = event.replayed
        if self.record_arguments or self.record_results:
            if event.masked_values:
                attributes["toolgate.values_masked"] = True
            else:
                if self.record_arguments:
                    attributes["gen_ai.tool.call.arguments"] = event.arguments
                if self.record_results:
                    attributes["gen_ai.tool.call.result"] = event.result.content
        return attributes

    def __call__(self, event: CallEvent) -> None:
        """Records the span of one call."""
        start = event.start_time_ns
        end = start + int(event.duration * 1_000_000_000)
        span = self._tracer.start_span(
            f"execute_tool {event.tool}",
            kind=self._kind,
            attributes=self.attributes(event),
            start_time=start,
        )
        if event.error_type is not None:
            span.set_status(self._error)
        span.end(end_time=end)
