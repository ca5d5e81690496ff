"""toolgate.otel: one GenAI execute_tool span per dispatched call, refused ones
included, recorded with the OpenTelemetry SDK's in-memory exporter. The SDK is
required under CI; elsewhere a test that needs it says SKIPPED."""

import asyncio
import os
import sys
import threading

import pytest

import toolgate
from toolgate import ToolRegistry

PATIENCE = 10.0


def sdk():
    """(TracerProvider, InMemorySpanExporter, SimpleSpanProcessor), or a loud skip; a
    failure when the SDK is required (CI or TOOLGATE_REQUIRE_TESTDATA=1)."""
    try:
        from opentelemetry.sdk.trace import TracerProvider
        from opentelemetry.sdk.trace.export import SimpleSpanProcessor
        from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
    except ImportError:
        pass
    else:
        return TracerProvider, InMemorySpanExporter, SimpleSpanProcessor
    missing = f"the OpenTelemetry SDK (opentelemetry-sdk) is not installed for {sys.executable}"
    if os.environ.get("TOOLGATE_REQUIRE_TESTDATA") == "1" or os.environ.get("CI"):
        pytest.fail(f"{missing}, and it is required here (CI or TOOLGATE_REQUIRE_TESTDATA=1)")
    print(f"SKIPPED: {missing}")
    pytest.skip(f"SKIPPED: {missing}")


@pytest.fixture
def traced():
    """A tracer provider whose spans land in a list, and its exporter."""
    TracerProvider, InMemorySpanExporter, SimpleSpanProcessor = sdk()
    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    return provider, exporter


def until_cancelled(_text):
    told = threading.Event()
    toolgate.running_call().on_cancel(told.set)
    told.wait(PATIENCE)
    return "too late"


def registry(observer, **options):
    reg = ToolRegistry(observer=observer, **options)
    reg.register("echo", {"type": "object", "properties": {"a": {"type": "integer"}}},
                 lambda text: text, arguments="json")
    reg.register("slow", None, until_cancelled, arguments="json", timeout_ms=20)
    return reg


BATCH = [("c1", "echo", '{"a":1}'), ("c2", "echo", '{"a":"x"}'), ("c3", "slow", "")]


def test_one_execute_tool_span_per_call_with_exact_attributes(traced):
    from opentelemetry.trace import SpanKind, StatusCode

    from toolgate.otel import OpenTelemetryObserver

    provider, exporter = traced
    with registry(OpenTelemetryObserver(provider)) as reg:
        results = reg.dispatch(BATCH)
    spans = exporter.get_finished_spans()
    assert [s.name for s in spans] == ["execute_tool echo", "execute_tool echo", "execute_tool slow"]
    answered, refused, timed_out = spans
    assert dict(answered.attributes) == {
        "gen_ai.operation.name": "execute_tool",
        "gen_ai.tool.name": "echo",
        "gen_ai.tool.call.id": "c1",
        "toolgate.outcome": "answered",
        "toolgate.attempts": 1,
        "toolgate.argument_bytes": 7,
        "toolgate.replayed": False,
    }
    assert answered.status.status_code is StatusCode.UNSET
    assert dict(refused.attributes) == {
        "gen_ai.operation.name": "execute_tool",
        "gen_ai.tool.name": "echo",
        "gen_ai.tool.call.id": "c2",
        "error.type": "invalid_arguments",
        "toolgate.outcome": "invalid_arguments",
        "toolgate.attempts": 0,
        "toolgate.argument_bytes": 9,
        "toolgate.replayed": False,
    }
    assert refused.status.status_code is StatusCode.ERROR
    assert dict(timed_out.attributes) == {
        "gen_ai.operation.name": "execute_tool",
        "gen_ai.tool.name": "slow",
        "gen_ai.tool.call.id": "c3",
        "error.type": "timeout",
        "toolgate.outcome": "timed_out",
        "toolgate.attempts": 1,
        "toolgate.argument_bytes": 0,
        "toolgate.replayed": False,
    }
    assert timed_out.status.status_code is StatusCode.ERROR
    assert results[2].content == "error: tool slow timed out after 20 ms"
    for span in spans:
        assert span.kind is SpanKind.INTERNAL
        assert span.start_time <= span.end_time


def test_arguments_and_results_only_when_asked_and_never_when_masked(traced):
    from toolgate.otel import OpenTelemetryObserver

    provider, exporter = traced
    observer = OpenTelemetryObserver(provider, record_arguments=True, record_results=True)
    with registry(observer) as reg:
        reg.dispatch(BATCH[:2])
    answered, refused = exporter.get_finished_spans()
    assert answered.attributes["gen_ai.tool.call.arguments"] == '{"a":1}'
    assert answered.attributes["gen_ai.tool.call.result"] == '{"a":1}'
    assert refused.attributes["gen_ai.tool.call.arguments"] == '{"a":"x"}'
    assert refused.attributes["gen_ai.tool.call.result"] == (
        "error: invalid arguments for echo:\n$.a: expected integer, got string")
    assert "toolgate.values_masked" not in answered.attributes

    exporter.clear()
    with registry(observer, masked_values=True) as reg:
        reg.dispatch(BATCH[:2])
    for span in exporter.get_finished_spans():
        assert span.attributes["toolgate.values_masked"] is True
        assert "gen_ai.tool.call.arguments" not in span.attributes
        assert "gen_ai.tool.call.result" not in span.attributes

    exporter.clear()
    with registry(OpenTelemetryObserver(provider, record_results=True)) as reg:
        reg.dispatch(BATCH[:1])
    (span,) = exporter.get_finished_spans()
    assert "gen_ai.tool.call.arguments" not in span.attributes
    assert span.attributes["gen_ai.tool.call.result"] == '{"a":1}'


def test_spans_are_children_of_the_callers_span_also_under_adispatch(traced):
    from toolgate.otel import OpenTelemetryObserver

    provider, exporter = traced
    tracer = provider.get_tracer("test")
    with registry(OpenTelemetryObserver(provider), remember_call_ids=4) as reg:
        with tracer.start_as_current_span("turn") as turn:
            reg.dispatch(BATCH[:1])

        async def main():
            with tracer.start_as_current_span("async turn") as parent:
                await reg.adispatch(BATCH[:1])
                return parent

        async_turn = asyncio.run(main())
    spans = {s.name: s for s in exporter.get_finished_spans() if s.name.startswith("execute_tool")}
    calls = [s for s in exporter.get_finished_spans() if s.name == "execute_tool echo"]
    assert len(calls) == 2 and spans
    assert calls[0].parent.span_id == turn.get_span_context().span_id
    assert calls[1].parent.span_id == async_turn.get_span_context().span_id
    # The second is the replay of the first call id.
    assert calls[1].attributes["toolgate.replayed"] is True
    assert calls[1].attributes["toolgate.attempts"] == 0


def test_importing_toolgate_does_not_import_opentelemetry():
    import subprocess

    code = "import sys, toolgate; print('opentelemetry' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
