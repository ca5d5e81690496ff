// Package otel traces toolgate's dispatched tool calls with OpenTelemetry: one GenAI
// execute_tool span per call of a Registry.Dispatch, refused calls included.
//
// It is a module of its own (toolgate/otel), so that a program that does not trace
// does not depend on OpenTelemetry.
//
// Each span is named "execute_tool NAME" (the tool name the call asked for, even an
// unknown one), of kind internal, and has the attributes
//
//	gen_ai.operation.name   "execute_tool"
//	gen_ai.tool.name        the tool name
//	gen_ai.tool.call.id     the call's id
//	error.type              the failure's short name (tool.CallEvent.ErrorType:
//	                        invalid_arguments, timeout, ...), only for a failed call,
//	                        whose span status is Error with the outcome's name
//	toolgate.outcome        the outcome's name (answered, invalid_arguments, ...)
//	toolgate.attempts       how many times the tool ran in this dispatch
//	toolgate.argument_bytes the length of the call's arguments
//	toolgate.replayed       the result was the one recorded for the call id
//
// and, only when asked for (WithArguments, WithResults), gen_ai.tool.call.arguments
// (the argument text as the model wrote it) and gen_ai.tool.call.result (the content
// the model reads). A registry that masks values (tool.WithMaskedValues) keeps them
// out of its messages, and this package keeps them out of spans as well: neither
// attribute is recorded, whatever was asked, and a span that would have had one has
// toolgate.values_masked = true instead.
//
// A span starts at the call's start and ends at its result (its duration is the
// library's measure of the call), as a child of the span in the Dispatch's ctx.
package otel // import "toolgate/otel"

import (
	"context"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"

	"toolgate/tool"
	"toolgate/types"
)

// Option changes what a Tracer records.
type Option func(*Tracer)

// WithArguments records each call's argument text (gen_ai.tool.call.arguments),
// unless the registry masks values. The arguments are what the model sent: they may
// hold what a user typed.
func WithArguments() Option { return func(t *Tracer) { t.arguments = true } }

// WithResults records each call's content (gen_ai.tool.call.result), unless the
// registry masks values.
func WithResults() Option { return func(t *Tracer) { t.results = true } }

// Tracer makes the spans of dispatched calls with an OpenTelemetry tracer.
type Tracer struct {
	tracer             trace.Tracer
	arguments, results bool
}

// New returns a Tracer that makes its spans with tracer.
func New(tracer trace.Tracer, opts ...Option) *Tracer {
	t := &Tracer{tracer: tracer}
	for _, opt := range opts {
		if opt != nil {
			opt(t)
		}
	}
	return t
}

// Dispatch is New(tracer).Dispatch(ctx, reg, calls, opts...): spans without
// arguments or results.
func Dispatch(ctx context.Context, tracer trace.Tracer, reg *tool.Registry, calls []types.ToolCall, opts ...tool.DispatchOption) []tool.Result {
	return New(tracer).Dispatch(ctx, reg, calls, opts...)
}

// Dispatch runs reg.Dispatch(ctx, calls, opts...) and makes one span per call, in the
// calls' order, once the dispatch has returned. Other observers among opts are told
// as well. A dispatch that ran nothing because the registry is closed has no spans.
func (t *Tracer) Dispatch(ctx context.Context, reg *tool.Registry, calls []types.ToolCall, opts ...tool.DispatchOption) []tool.Result {
	if ctx == nil {
		ctx = context.Background()
	}
	type seen struct {
		event tool.CallEvent
		at    time.Time
	}
	events := make([]seen, 0, len(calls))
	opts = append(opts[:len(opts):len(opts)], tool.WithDispatchObserver(func(e tool.CallEvent) {
		events = append(events, seen{event: e, at: time.Now()})
	}))
	results := reg.Dispatch(ctx, calls, opts...)
	masked := reg.MasksValues()
	for i, s := range events {
		if i >= len(calls) {
			break
		}
		t.span(ctx, s.event, s.at, calls[i], results[i], masked)
	}
	return results
}

// span makes the span of one call, which ended at end.
func (t *Tracer) span(ctx context.Context, e tool.CallEvent, end time.Time, call types.ToolCall, res tool.Result, masked bool) {
	attrs := []attribute.KeyValue{
		attribute.String("gen_ai.operation.name", "execute_tool"),
		attribute.String("gen_ai.tool.name", e.Tool),
		attribute.String("gen_ai.tool.call.id", e.CallID),
	}
	if e.ErrorType != "" {
		attrs = append(attrs, attribute.String("error.type", e.ErrorType))
	}
	attrs = append(attrs,
		attribute.String("toolgate.outcome", e.Outcome.String()),
		attribute.Int("toolgate.attempts", e.Attempts),
		attribute.Int("toolgate.argument_bytes", e.ArgumentBytes),
		attribute.Bool("toolgate.replayed", e.Replayed),
	)
	switch {
	case masked && (t.arguments || t.results):
		attrs = append(attrs, attribute.Bool("toolgate.values_masked", true))
	case !masked:
		if t.arguments {
			attrs = append(attrs, attribute.String("gen_ai.tool.call.arguments", call.Arguments))
		}
		if t.results {
			attrs = append(attrs, attribute.String("gen_ai.tool.call.result", res.Content))
		}
	}
	_, span := t.tracer.Start(ctx, "execute_tool "+e.Tool,
		trace.WithSpanKind(trace.SpanKindInternal),
		trace.WithTimestamp(end.Add(-e.Duration)),
		trace.WithAttributes(attrs...))
	if e.ErrorType != "" {
		span.SetStatus(codes.Error, e.Outcome.String())
	}
	span.End(trace.WithTimestamp(end))
}
