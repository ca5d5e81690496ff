package tool

/*
#include "tg_go.h"
*/
import "C"

import (
	"context"
	"errors"
	"runtime"
	"runtime/cgo"
	"strings"
	"time"
	"unsafe"

	"toolgate/types"
)

// Policy says what a refused call of a Dispatch does to the rest of its batch.
type Policy int

const (
	// Isolate runs every valid call; each refused one (unknown tool, invalid
	// arguments, a call id used twice) gets its refusal. The default.
	Isolate Policy = C.TG_DISPATCH_ISOLATE
	// AllOrNothing runs no call when one is refused: the refused calls get their
	// refusals, the others
	// `error: not run: call "ID" to tool "NAME" in the same batch was refused`
	// (OutcomeNotRun), naming the first refused call.
	AllOrNothing Policy = C.TG_DISPATCH_ALL_OR_NOTHING
)

// DispatchOption changes how one Dispatch runs its calls.
type DispatchOption func(*dispatchOptions)

type dispatchOptions struct {
	policy         Policy
	maxConcurrency int
	maxBatch       int
	timeout        time.Duration
	maxAttempts    int
	backoff        time.Duration
	observer       func(CallEvent)
}

// WithPolicy sets what a refused call does to the rest of the batch (Isolate, the
// default, or AllOrNothing).
func WithPolicy(p Policy) DispatchOption {
	return func(o *dispatchOptions) { o.policy = p }
}

// WithMaxConcurrency sets how many calls run at once; the others wait their turn in
// the batch's order. 0 or less means the default, 8.
func WithMaxConcurrency(n int) DispatchOption {
	return func(o *dispatchOptions) { o.maxConcurrency = n }
}

// WithMaxBatch sets the most calls one batch may hold: a longer batch runs none, and
// every call gets `error: the batch holds N calls, more than the limit of M`
// (OutcomeNotRun). 0 or less means the default, 128.
func WithMaxBatch(n int) DispatchOption {
	return func(o *dispatchOptions) { o.maxBatch = n }
}

// WithDispatchTimeout sets a deadline for the whole dispatch, from its start: a call
// still running then, or not yet started, gets `error: tool NAME timed out after N
// ms` (OutcomeTimedOut). The earliest of it, the ctx's deadline, the tool's Timeout
// and the registry's WithDefaultTimeout applies. 0 or less means none; it is rounded
// up to whole milliseconds.
func WithDispatchTimeout(d time.Duration) DispatchOption {
	return func(o *dispatchOptions) { o.timeout = d }
}

// WithMaxAttempts sets how many times a call may run, the first included. Only a tool
// whose RunOptions say Idempotent runs again, and only after it failed with an error
// marked Retryable. 0 or less means the default, 3.
func WithMaxAttempts(n int) DispatchOption {
	return func(o *dispatchOptions) { o.maxAttempts = n }
}

// WithBackoff sets the pause before the first retry, doubled before each next one; a
// pause ends early when the call's deadline passes. 0 or less means the default,
// 100 ms; it is rounded up to whole milliseconds.
func WithBackoff(d time.Duration) DispatchOption {
	return func(o *dispatchOptions) { o.backoff = d }
}

// WithDispatchObserver has f told about every call of this dispatch, as WithObserver
// tells a registry's observer (after it, when the registry has one): on the goroutine
// that called Dispatch, before Dispatch returns, in the batch's order. Several are
// each told, in the order given; a panic in one is recovered and ends the telling of
// that event.
func WithDispatchObserver(f func(CallEvent)) DispatchOption {
	return func(o *dispatchOptions) {
		if f == nil {
			return
		}
		if prev := o.observer; prev != nil {
			o.observer = func(e CallEvent) { prev(e); f(e) }
			return
		}
		o.observer = f
	}
}

// millis is d in whole milliseconds, rounded up; 0 for none.
func millis(d time.Duration) uint64 {
	if d <= 0 {
		return 0
	}
	return uint64((d + time.Millisecond - 1) / time.Millisecond)
}

// CallEvent is what became of one dispatched call, as an observer (WithObserver,
// WithDispatchObserver) is told: the attributes of a trace span for it
// (OpenTelemetry's execute_tool; the toolgate/otel module makes those spans).
type CallEvent struct {
	// CallID is the call's id, Tool the tool name it asked for (even when unknown).
	CallID, Tool string
	// Outcome is what became of the call.
	Outcome Outcome
	// ErrorType is "" for an answer, else a short fixed name of the failure:
	// unknown_tool, invalid_arguments, tool_error, panic, invalid_result, timeout,
	// internal, not_run, batch_too_large, duplicate_call_id, call_id_reused,
	// call_id_running, cancelled.
	ErrorType string
	// Attempts is how many times the tool ran (0 when it did not run in this
	// dispatch, a replayed result included).
	Attempts int
	// Duration is how long the call took: from its start to its result (for a
	// refused call, its validation).
	Duration time.Duration
	// ArgumentBytes is the length of the call's arguments.
	ArgumentBytes int
	// Replayed: the result is the one recorded for this call id
	// (WithRememberCallIDs) and the tool did not run again.
	Replayed bool
}

// callEvent copies the library's event (borrowed for the observer's call).
func callEvent(e *C.tg_call_event) CallEvent {
	ev := CallEvent{
		CallID:        gostring(e.call_id, e.call_id_len),
		Tool:          gostring(e.tool, e.tool_len),
		Outcome:       Outcome(e.outcome),
		Attempts:      int(e.attempts),
		Duration:      time.Duration(e.duration_ns),
		ArgumentBytes: int(e.argument_bytes),
		Replayed:      e.replayed != 0,
	}
	if e.error_type != nil {
		ev.ErrorType = C.GoString(e.error_type)
	}
	return ev
}

// Retryable marks err as transient (a dropped connection, a busy service): when a
// tool's Execute returns an error wrapping it (errors.As finds it) during a Dispatch,
// the call runs again after a backoff if the tool is Idempotent and attempts are left
// (WithMaxAttempts). The content of a failure that is not retried is err's text.
// Retryable(nil) is nil.
func Retryable(err error) error {
	if err == nil {
		return nil
	}
	return &retryableError{err: err}
}

// IsRetryable reports whether err wraps an error marked by Retryable.
func IsRetryable(err error) bool {
	var r *retryableError
	return errors.As(err, &r)
}

type retryableError struct{ err error }

func (e *retryableError) Error() string { return e.err.Error() }
func (e *retryableError) Unwrap() error { return e.err }

// RunOptions tell Dispatch how to run a tool's calls; a Tool gives them by
// implementing RunOptionsTool (Func has them as its Run field). Registry.Call ignores
// them.
type RunOptions struct {
	// Timeout is the deadline of each of the tool's calls in a Dispatch, from the
	// call's start: a call still running then gets
	// `error: tool NAME timed out after N ms` (OutcomeTimedOut) and its tool's ctx is
	// cancelled. 0 means the registry's WithDefaultTimeout (or none). Rounded up to
	// whole milliseconds.
	Timeout time.Duration
	// Idempotent: running the call twice does no harm, so a failure marked
	// Retryable runs it again (WithMaxAttempts).
	Idempotent bool
	// Exclusive: the tool runs alone in a Dispatch: the calls before it finish
	// first, and the calls after it wait for it.
	Exclusive bool
}

// RunOptionsTool is a Tool that tells Dispatch how to run its calls.
type RunOptionsTool interface {
	Tool
	RunOptions() RunOptions
}

// RunOptions returns f.Run.
func (f Func) RunOptions() RunOptions { return f.Run }

// runOptionsOf returns t's RunOptions as the library takes them: timeout in ms,
// idempotent, exclusive.
func runOptionsOf(t Tool) (uint64, uint32, uint32) {
	rt, ok := t.(RunOptionsTool)
	if !ok {
		return 0, 0, 0
	}
	o := rt.RunOptions()
	var idem, excl uint32
	if o.Idempotent {
		idem = 1
	}
	if o.Exclusive {
		excl = 1
	}
	return millis(o.Timeout), idem, excl
}

// Dispatch runs the calls of one model turn together and returns one Result per call,
// in the calls' order. It never panics.
//
// Every call is first checked as Call checks it (unknown tool, malformed JSON, schema
// violations: the same error results, byte for byte), and a call id used twice in
// the batch is refused (`error: duplicate call id "X" in the batch`, OutcomeNotRun).
// WithPolicy says what a refusal does to the other calls. The valid calls then run on
// the library's worker threads, at most WithMaxConcurrency at once (a tool whose
// RunOptions say Exclusive alone), each tool's Execute on a goroutine of its own, and
// the answered ones have the results Call would give.
//
// Deadlines: a call still running at its deadline (WithDispatchTimeout, ctx's
// deadline, the tool's RunOptions.Timeout, the registry's WithDefaultTimeout: the
// earliest) gets `error: tool NAME timed out after N ms` (OutcomeTimedOut). Dispatch
// returns then; the tool is not stopped, but the ctx its Execute got is cancelled, and
// what it returns later is dropped.
//
// Cancellation: when ctx is cancelled (not past its deadline: that is a timeout), the
// calls not yet answered get `error: call cancelled` (OutcomeCancelled), their
// tools' ctx is cancelled, and Dispatch returns at once; a ctx already done when
// Dispatch starts runs no tool. Close cancels running dispatches the same way.
//
// Each tool's Execute gets a ctx derived from ctx (its values), cancelled when its
// call is (deadline, cancellation), and may return an error wrapping Retryable(err)
// to have an idempotent tool run again (WithMaxAttempts, WithBackoff).
//
// A Dispatch on a closed registry, or one whose options the library refuses (a
// Policy that is none of the constants), runs nothing: every Result is an error with
// OutcomeInternal ("error: registry is closed", or the library's message).
func (r *Registry) Dispatch(ctx context.Context, calls []types.ToolCall, opts ...DispatchOption) []Result {
	results := make([]Result, len(calls))
	for i, c := range calls {
		results[i] = Result{CallID: c.ID, Name: c.Name}
	}
	fail := func(content string) []Result {
		for i := range results {
			results[i].Content, results[i].IsError, results[i].Outcome = content, true, OutcomeInternal
		}
		return results
	}
	if r == nil || !r.g.acquire() {
		return fail("error: registry is closed")
	}
	released := false
	release := func() {
		if !released {
			released = true
			r.g.release()
		}
	}
	defer release()
	if len(calls) == 0 {
		return results
	}
	if ctx == nil {
		ctx = context.Background()
	}
	var o dispatchOptions
	for _, opt := range opts {
		if opt != nil {
			opt(&o)
		}
	}

	// The texts in one buffer, 3 lengths per call: no Go pointer for C to hold.
	size := 0
	for _, c := range calls {
		size += len(c.ID) + len(c.Name) + len(c.Arguments)
	}
	texts := make([]byte, 0, size)
	lens := make([]C.size_t, 0, 3*len(calls))
	for _, c := range calls {
		// The library takes UTF-8 ids and names only; no registered name contains
		// U+FFFD, so a name that was not UTF-8 stays unknown. The Result keeps the
		// caller's bytes.
		id := strings.ToValidUTF8(c.ID, "\uFFFD")
		name := strings.ToValidUTF8(c.Name, "\uFFFD")
		texts = append(texts, id...)
		texts = append(texts, name...)
		texts = append(texts, c.Arguments...)
		lens = append(lens, C.size_t(len(id)), C.size_t(len(name)), C.size_t(len(c.Arguments)))
	}

	canceller := C.tg_canceller_new()
	defer C.tg_canceller_free(canceller)
	var copts C.tg_dispatch_options
	copts.size = C.size_t(unsafe.Sizeof(copts))
	copts.policy = C.uint32_t(o.policy)
	if o.maxConcurrency > 0 {
		copts.max_concurrency = C.uint32_t(min(o.maxConcurrency, 1<<31))
	}
	if o.maxBatch > 0 {
		copts.max_batch = C.uint32_t(min(o.maxBatch, 1<<31))
	}
	if o.maxAttempts > 0 {
		copts.max_attempts = C.uint32_t(min(o.maxAttempts, 1<<31))
	}
	copts.backoff_ms = C.uint64_t(millis(o.backoff))
	timeout := millis(o.timeout)
	if deadline, ok := ctx.Deadline(); ok {
		if t := max(millis(time.Until(deadline)), 1); timeout == 0 || t < timeout {
			timeout = t
		}
	}
	copts.timeout_ms = C.uint64_t(timeout)
	copts.canceller = canceller

	// Close cancels the dispatches it finds here; one that registers after Close
	// began is cancelled at once.
	r.dmu.Lock()
	if r.dispatches == nil {
		r.dispatches = make(map[*C.tg_canceller]struct{})
	}
	r.dispatches[canceller] = struct{}{}
	if r.closing {
		C.tg_canceller_cancel(canceller)
	}
	r.dmu.Unlock()
	defer func() {
		r.dmu.Lock()
		delete(r.dispatches, canceller)
		r.dmu.Unlock()
	}()

	// ctx cancelled: the dispatch is. Past its deadline is the timeout's business
	// (timeout_ms above), so that those calls time out as the deadline says.
	cancelled := make(chan struct{})
	stop := context.AfterFunc(ctx, func() {
		defer close(cancelled)
		if !errors.Is(ctx.Err(), context.DeadlineExceeded) {
			C.tg_canceller_cancel(canceller)
		}
	})
	defer func() {
		if !stop() {
			// The function started: it uses the canceller, freed after it ends.
			<-cancelled
		}
	}()
	if ctx.Err() != nil {
		// Already done: no tool runs.
		C.tg_canceller_cancel(canceller)
	}

	var ch, sink C.uintptr_t
	if ctx != context.Background() && ctx != context.TODO() {
		h := cgo.NewHandle(ctx)
		defer h.Delete()
		ch = C.uintptr_t(h)
	}
	if o.observer != nil {
		h := cgo.NewHandle(o.observer)
		defer h.Delete()
		sink = C.uintptr_t(h)
	}
	outs := make([]C.tg_go_call_out, len(calls))
	st := C.tg_go_dispatch(r.ptr, (*C.char)(unsafe.Pointer(unsafe.SliceData(texts))),
		unsafe.SliceData(lens), C.size_t(len(calls)), &copts, ch, sink, unsafe.SliceData(outs))
	release()
	runtime.KeepAlive(r)
	runtime.KeepAlive(texts)
	if st.status != C.TG_OK {
		return fail("error: " + takeError(st.status, st.error, st.view).Msg)
	}
	for i := range outs {
		results[i].read(&outs[i])
	}
	return results
}
