package otel

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"toolgate/tool"
	"toolgate/types"
)

func registry(t *testing.T, opts ...tool.Option) *tool.Registry {
	t.Helper()
	r := tool.NewRegistry(opts...)
	t.Cleanup(func() { r.Close() })
	r.MustRegister(
		tool.New("weather", "", `{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}`,
			func(context.Context, json.RawMessage) (string, error) { return `{"temp":21}`, nil }),
		tool.Func{Def: types.ToolDef{Name: "slow"}, Run: tool.RunOptions{Timeout: 20 * time.Millisecond},
			Fn: func(ctx context.Context, _ json.RawMessage) (string, error) {
				<-ctx.Done()
				return "", errors.New("late")
			}},
	)
	return r
}

var batch = []types.ToolCall{
	{ID: "c1", Name: "weather", Arguments: `{"city":"Oslo"}`},
	{ID: "c2", Name: "weather", Arguments: `{"city":1}`},
	{ID: "c3", Name: "slow", Arguments: `{}`},
}

func traced(t *testing.T, reg *tool.Registry, opts ...Option) ([]tool.Result, tracetest.SpanStubs) {
	t.Helper()
	exp := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))
	defer tp.Shutdown(context.Background())
	ctx, parent := tp.Tracer("test").Start(context.Background(), "turn")
	results := New(tp.Tracer("toolgate"), opts...).Dispatch(ctx, reg, batch)
	parent.End()
	spans := exp.GetSpans()
	if len(spans) != len(batch)+1 {
		t.Fatalf("%d spans, want %d", len(spans), len(batch)+1)
	}
	// The calls' spans first (ended before the parent), in the batch's order.
	for _, s := range spans[:len(batch)] {
		if s.Parent.SpanID() != parent.SpanContext().SpanID() || s.SpanKind != trace.SpanKindInternal {
			t.Errorf("%s: parent %v kind %v", s.Name, s.Parent.SpanID(), s.SpanKind)
		}
		if !s.StartTime.Before(s.EndTime) && !s.StartTime.Equal(s.EndTime) {
			t.Errorf("%s: starts after its end", s.Name)
		}
	}
	return results, spans[:len(batch)]
}

func attrs(kv []attribute.KeyValue) map[string]any {
	m := map[string]any{}
	for _, a := range kv {
		m[string(a.Key)] = a.Value.AsInterface()
	}
	return m
}

func check(t *testing.T, s tracetest.SpanStub, name string, want map[string]any, status codes.Code, desc string) {
	t.Helper()
	if s.Name != name {
		t.Errorf("span %q, want %q", s.Name, name)
	}
	got := attrs(s.Attributes)
	if len(got) != len(want) {
		t.Errorf("%s: attributes %v, want %v", name, got, want)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: %s = %#v, want %#v", name, k, got[k], v)
		}
	}
	if s.Status.Code != status || s.Status.Description != desc {
		t.Errorf("%s: status %v %q, want %v %q", name, s.Status.Code, s.Status.Description, status, desc)
	}
}

// An answered, a refused (invalid arguments) and a timed-out call: the exact
// attributes of each span, with the arguments and results asked for.
func TestSpansOfADispatch(t *testing.T) {
	results, spans := traced(t, registry(t), WithArguments(), WithResults())
	if results[0].Content != `{"temp":21}` || results[2].Content != "error: tool slow timed out after 20 ms" {
		t.Fatalf("results %+v", results)
	}
	check(t, spans[0], "execute_tool weather", map[string]any{
		"gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "weather", "gen_ai.tool.call.id": "c1",
		"toolgate.outcome": "answered", "toolgate.attempts": int64(1), "toolgate.argument_bytes": int64(15),
		"toolgate.replayed": false, "gen_ai.tool.call.arguments": `{"city":"Oslo"}`,
		"gen_ai.tool.call.result": `{"temp":21}`,
	}, codes.Unset, "")
	check(t, spans[1], "execute_tool weather", map[string]any{
		"gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "weather", "gen_ai.tool.call.id": "c2",
		"error.type": "invalid_arguments", "toolgate.outcome": "invalid_arguments", "toolgate.attempts": int64(0),
		"toolgate.argument_bytes": int64(10), "toolgate.replayed": false,
		"gen_ai.tool.call.arguments": `{"city":1}`,
		"gen_ai.tool.call.result":    "error: invalid arguments for weather:\n$.city: expected string, got integer",
	}, codes.Error, "invalid_arguments")
	check(t, spans[2], "execute_tool slow", map[string]any{
		"gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "slow", "gen_ai.tool.call.id": "c3",
		"error.type": "timeout", "toolgate.outcome": "timed_out", "toolgate.attempts": int64(1),
		"toolgate.argument_bytes": int64(2), "toolgate.replayed": false,
		"gen_ai.tool.call.arguments": `{}`,
		"gen_ai.tool.call.result":    "error: tool slow timed out after 20 ms",
	}, codes.Error, "timed_out")
	// The timed-out call's span lasts at least its timeout.
	if d := spans[2].EndTime.Sub(spans[2].StartTime); d < 20*time.Millisecond {
		t.Errorf("timed-out span lasts %v", d)
	}
}

// Without WithArguments and WithResults, neither is recorded.
func TestSpansWithoutValues(t *testing.T) {
	_, spans := traced(t, registry(t))
	for _, s := range spans {
		got := attrs(s.Attributes)
		if _, ok := got["gen_ai.tool.call.arguments"]; ok {
			t.Errorf("%s: arguments recorded", s.Name)
		}
		if _, ok := got["gen_ai.tool.call.result"]; ok {
			t.Errorf("%s: result recorded", s.Name)
		}
		if _, ok := got["toolgate.values_masked"]; ok {
			t.Errorf("%s: values_masked recorded", s.Name)
		}
	}
}

// A registry that masks values: asked-for arguments and results are not recorded,
// and the span says why.
func TestSpansOfAMaskingRegistry(t *testing.T) {
	_, spans := traced(t, registry(t, tool.WithMaskedValues(true)), WithArguments(), WithResults())
	check(t, spans[1], "execute_tool weather", map[string]any{
		"gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "weather", "gen_ai.tool.call.id": "c2",
		"error.type": "invalid_arguments", "toolgate.outcome": "invalid_arguments", "toolgate.attempts": int64(0),
		"toolgate.argument_bytes": int64(10), "toolgate.replayed": false, "toolgate.values_masked": true,
	}, codes.Error, "invalid_arguments")
}
