package tool

/*
#cgo noescape tg_go_stream_feed
#cgo nocallback tg_go_stream_feed
#cgo nocallback tg_go_schema_stream
#cgo nocallback tg_go_stream_finish
#include "tg_go.h"
*/
import "C"

import (
	"context"
	"runtime"
	"runtime/cgo"
	"strings"
	"sync"
)

// Streams: a JSON instance, or a tool call's arguments, validated as the chunks arrive
// (a provider streaming a call's arguments). Write refuses as soon as no continuation
// of the bytes written can be valid; Finish gives the verdict on every byte written.
// docs/streaming.md says which rule refuses at which byte.
//
// A stream's native handle borrows its Schema's or Registry's: each use of it holds
// the parent's guard (as ValidateJSON and Call do), and the parent's Close frees the
// streams still open before itself, so that no stream outlives what it borrows. A
// refused stream is finished at once (the refusal is final: its errors or result are
// kept), and a finished one freed at once.

// RefusedError is what a stream's Write returns once no continuation of the bytes
// written can be valid, and again on every later Write. The stream's Finish returns
// the same refusal.
type RefusedError struct {
	// Errors are the refusal's violations, with the texts, paths, pointers and schema
	// locations ValidateJSON gives them (a rule decided on a value still open says
	// what had been read: see docs/streaming.md). For a call stream, the Result's
	// Violations: none for an unknown tool.
	Errors []ValidationError
	// Result is, for a call stream, the refused call's result (Outcome
	// OutcomeUnknownTool or OutcomeInvalidArguments; the tool did not run), which its
	// Finish returns; nil for a schema stream.
	Result *Result
}

// Error is a call stream's result content ("error: invalid arguments for NAME: ..."),
// or "stream refused: " and the violations ("Path: Msg"), separated by "; ".
func (e *RefusedError) Error() string {
	if e.Result != nil {
		return e.Result.Content
	}
	parts := make([]string, len(e.Errors))
	for i, v := range e.Errors {
		parts[i] = v.Error()
	}
	return "stream refused: " + strings.Join(parts, "; ")
}

// streams is the set of a Schema's or Registry's streams whose native handle is
// still open.
type streams struct {
	mu   sync.Mutex
	live map[*streamHandle]struct{}
}

func (s *streams) add(h *streamHandle) {
	s.mu.Lock()
	if s.live == nil {
		s.live = make(map[*streamHandle]struct{})
	}
	s.live[h] = struct{}{}
	s.mu.Unlock()
}

func (s *streams) remove(h *streamHandle) {
	s.mu.Lock()
	delete(s.live, h)
	s.mu.Unlock()
}

// freeAll frees every open stream; the parent's guard is closed and drained, so no
// stream is using its handle.
func (s *streams) freeAll() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for h := range s.live {
		h.mu.Lock()
		if h.ptr != nil {
			C.tg_stream_free(h.ptr)
			h.ptr = nil
		}
		h.mu.Unlock()
	}
	s.live = nil
}

// streamHandle is a stream's native handle and the state of the stream, in an
// allocation of its own: the parent's set points to it, not to the SchemaStream or
// CallStream, whose finalizer may then run.
type streamHandle struct {
	mu     sync.Mutex // one use of the stream at a time; freeAll takes it too
	ptr    *C.tg_stream
	g      *guard   // the parent's
	set    *streams // the parent's
	read   int      // bytes written, refused ones included
	closed bool     // Close ran
}

// newStreamHandle registers a new native stream with its parent; the parent's guard
// is held.
func newStreamHandle(ptr *C.tg_stream, g *guard, set *streams) *streamHandle {
	h := &streamHandle{ptr: ptr, g: g, set: set}
	set.add(h)
	return h
}

// take hands the native stream to a finishing call: from here the caller frees it (the
// tg_go_stream_finish helpers do). h.mu and the parent's guard are held.
func (h *streamHandle) take() *C.tg_stream {
	p := h.ptr
	h.ptr = nil
	h.set.remove(h)
	return p
}

// feed writes p to the native stream; h.mu is held, h is not closed. It returns
// whether the stream is refused now; gone is true, and nothing read, when the parent
// is closed.
func (h *streamHandle) feed(p []byte) (refused, gone bool, err error) {
	if !h.g.acquire() {
		return false, true, nil
	}
	defer h.g.release()
	if h.ptr == nil {
		return false, true, nil
	}
	h.read += len(p)
	b, n := cbytes(p)
	o := C.tg_go_stream_feed(h.ptr, b, n)
	if o.status != C.TG_OK {
		// Only a library bug gets here (TG_ERR_PANIC); fail closed.
		return false, false, takeError(o.status, o.error, o.view)
	}
	return bool(o.refused), false, nil
}

// close frees the native stream unless the parent has (or will, in its Close).
func (h *streamHandle) close() {
	h.mu.Lock()
	h.closed = true
	if h.ptr == nil || !h.g.acquire() {
		h.mu.Unlock()
		return
	}
	C.tg_stream_free(h.ptr)
	h.ptr = nil
	h.mu.Unlock()
	h.set.remove(h)
	h.g.release()
}

func streamClosed() *Error   { return &Error{Kind: ErrClosed, Msg: "stream is closed"} }
func streamFinished() *Error { return &Error{Kind: ErrClosed, Msg: "stream is finished"} }
func schemaClosed() *Error   { return &Error{Kind: ErrClosed, Msg: "schema is closed"} }

// closedStream is the violation a stream closed before it finished gives.
var closedStream = []ValidationError{{Path: "$", Msg: "stream is closed", Keyword: "closed"}}

// SchemaStream is an instance of a Schema written in chunks (Schema.Stream). It is an
// io.Writer; one goroutine at a time may use it. Close releases its native memory; a
// finalizer does it for a stream dropped without Close.
type SchemaStream struct {
	schema  *Schema // kept alive with the stream
	h       *streamHandle
	refusal *RefusedError
	stop    *Error // why Write takes no more bytes (finished, schema closed)
	done    bool   // errs is the answer
	errs    []ValidationError
}

// Stream starts a stream of an instance of s: Write the instance's bytes as they
// arrive, then Finish.
//
//	st := schema.Stream()
//	defer st.Close()
//	for chunk := range chunks {
//		if _, err := st.Write(chunk); err != nil {
//			return err // a *RefusedError: no continuation can be valid
//		}
//	}
//	errs := st.Finish() // what ValidateJSON gives for every byte written
//
// On a closed Schema, Write returns an *Error wrapping ErrClosed and Finish what
// ValidateJSON gives on a closed Schema.
func (s *Schema) Stream() *SchemaStream {
	return s.stream(allViolations)
}

// StreamAtMost is Stream listing at most max violations (a max below 0 counts as 0),
// as ValidateJSONAtMost: a refusal lists the first max and the line that says there
// were more, and Finish returns what ValidateJSONAtMost returns for every byte
// written. For untrusted bytes whose violations go back to a model or into a log.
func (s *Schema) StreamAtMost(max int) *SchemaStream {
	return s.stream(listLimit(max))
}

func (s *Schema) stream(max C.size_t) *SchemaStream {
	st := &SchemaStream{schema: s}
	if s != nil && s.g.acquire() {
		o := C.tg_go_schema_stream(s.ptr, max)
		if o.status == C.TG_OK {
			st.h = newStreamHandle(o.stream, &s.g, &s.streams)
		} else {
			// Only a library bug gets here; the stream behaves as on a closed schema.
			_ = takeError(o.status, o.error, o.view)
		}
		s.g.release()
		runtime.KeepAlive(s)
	}
	if st.h == nil {
		st.h = &streamHandle{g: new(guard), set: new(streams)}
		st.gone()
	}
	runtime.SetFinalizer(st, (*SchemaStream).Close)
	return st
}

// gone settles a stream whose schema is closed: ValidateJSON's answer there.
func (st *SchemaStream) gone() {
	st.stop, st.done = schemaClosed(), true
	st.errs = append([]ValidationError(nil), closedSchema...)
}

// Write validates p, the next bytes of the instance, and returns len(p) and nil while
// some continuation can still be valid. Once none can, it returns a *RefusedError
// (with len(p): the stream read the bytes, and BytesRead counts them), and the same
// error on every later Write. A stream closed or finished, or whose Schema is closed,
// returns 0 and an *Error wrapping ErrClosed.
func (st *SchemaStream) Write(p []byte) (int, error) {
	h := st.h
	h.mu.Lock()
	defer h.mu.Unlock()
	switch {
	case st.refusal != nil:
		h.read += len(p)
		return len(p), st.refusal
	case h.closed:
		return 0, streamClosed()
	case st.stop != nil:
		return 0, st.stop
	}
	refused, gone, err := h.feed(p)
	switch {
	case err != nil:
		return 0, err
	case gone:
		st.gone()
		return 0, st.stop
	case !refused:
		return len(p), nil
	}
	// The refusal is final: its errors are the finished stream's, read now.
	st.finish()
	st.refusal = &RefusedError{Errors: st.errs}
	return len(p), st.refusal
}

// finish ends the native stream and keeps its errors; h.mu is held, h not closed.
func (st *SchemaStream) finish() {
	h := st.h
	if !h.g.acquire() {
		st.gone()
		return
	}
	defer h.g.release()
	if h.ptr == nil {
		st.gone()
		return
	}
	st.stop, st.done = streamFinished(), true
	o := C.tg_go_stream_finish(h.take())
	runtime.KeepAlive(st.schema)
	switch {
	case o.status != C.TG_OK:
		// Only a library bug gets here (TG_ERR_PANIC); fail closed.
		C.tg_go_errors_release(o.errors, o.views)
		st.errs = []ValidationError{{Path: "$", Msg: C.GoString(C.tg_status_str(o.status)), Keyword: "internal"}}
	case bool(o.valid):
		C.tg_go_errors_release(o.errors, o.views)
		st.errs = nil
	default:
		st.errs = takeErrors(o)
	}
}

// Refused reports whether the stream is refused: no continuation of the bytes written
// can be valid.
func (st *SchemaStream) Refused() bool {
	st.h.mu.Lock()
	defer st.h.mu.Unlock()
	return st.refusal != nil
}

// Finish returns the violations of every byte written: exactly what ValidateJSON
// returns for them (nil when valid; ValidateJSONAtMost's, for a stream from
// StreamAtMost), or the refusal's errors when the stream was
// refused. Calling it again returns the same; Write after it returns an error. A
// stream closed before it finished gives one violation with keyword "closed".
func (st *SchemaStream) Finish() []ValidationError {
	h := st.h
	h.mu.Lock()
	defer h.mu.Unlock()
	if !st.done {
		if h.closed {
			st.stop, st.done = streamClosed(), true
			st.errs = append([]ValidationError(nil), closedStream...)
		} else {
			st.finish()
		}
	}
	return append([]ValidationError(nil), st.errs...)
}

// BytesRead returns how many bytes were written to the stream, refused ones included.
func (st *SchemaStream) BytesRead() int {
	st.h.mu.Lock()
	defer st.h.mu.Unlock()
	return st.h.read
}

// Close releases the stream's native memory. It is idempotent; a finished stream
// needs no Close, but Close after Finish is harmless. Close is the way to drop a
// stream that will not be finished.
func (st *SchemaStream) Close() error {
	if st == nil {
		return nil
	}
	st.h.close()
	runtime.SetFinalizer(st, nil)
	return nil
}

// CallStream is a tool call whose arguments are written in chunks
// (Registry.StreamCall). It is an io.Writer; one goroutine at a time may use it. The
// tool runs only in Finish: a stream closed (or dropped) unfinished runs nothing.
// Close releases its native memory; a finalizer does it for a stream dropped without
// Close.
type CallStream struct {
	r        *Registry // kept alive with the stream
	id, name string
	h        *streamHandle
	refusal  *RefusedError
	stop     *Error // why Write takes no more bytes (finished, registry closed)
	done     bool   // result is the answer
	result   Result
}

// StreamCall starts the call id of the tool name, whose arguments will be written as
// they arrive; Finish runs it. An unknown tool is refused at once: the first Write
// returns the *RefusedError whose Result is what Call gives. On a closed registry,
// Write returns an *Error wrapping ErrClosed and Finish the result Call gives there.
func (r *Registry) StreamCall(id, name string) *CallStream {
	cs := &CallStream{r: r, id: id, name: name}
	refused := false
	if r != nil && r.g.acquire() {
		// The library takes UTF-8 texts only; as Call does, the Result keeps the
		// caller's bytes.
		idp, idn := cstring(strings.ToValidUTF8(id, "\uFFFD"))
		np, nn := cstring(strings.ToValidUTF8(name, "\uFFFD"))
		o := C.tg_go_call_stream(r.ptr, idp, idn, np, nn)
		if o.status == C.TG_OK {
			cs.h = newStreamHandle(o.stream, &r.g, &r.streams)
			refused = bool(o.refused)
		} else {
			// Only a library bug gets here; the stream behaves as on a closed registry.
			_ = takeError(o.status, o.error, o.view)
		}
		r.g.release()
		runtime.KeepAlive(r)
	}
	if cs.h == nil {
		cs.h = &streamHandle{g: new(guard), set: new(streams)}
		cs.gone()
	} else if refused {
		cs.refuse()
	}
	runtime.SetFinalizer(cs, (*CallStream).Close)
	return cs
}

// gone settles a stream whose registry is closed: Call's result there.
func (cs *CallStream) gone() {
	cs.stop, cs.done = closedError(), true
	cs.result = cs.failed("error: registry is closed")
}

// failed is a result the library did not make (OutcomeInternal).
func (cs *CallStream) failed(content string) Result {
	return Result{CallID: cs.id, Name: cs.name, Content: content, IsError: true, Outcome: OutcomeInternal}
}

// Write feeds p, the next bytes of the call's arguments, and returns len(p) and nil
// while some continuation can still be valid. Once none can (an unknown tool, the
// registry's argument size limit, malformed or invalid arguments) it returns a
// *RefusedError holding the refused call's Result (with len(p): BytesRead counts the
// bytes), and the same error on every later Write; the tool will not run. A stream
// closed or finished, or whose registry is closed, returns 0 and an *Error wrapping
// ErrClosed.
func (cs *CallStream) Write(p []byte) (int, error) {
	h := cs.h
	h.mu.Lock()
	defer h.mu.Unlock()
	switch {
	case cs.refusal != nil:
		h.read += len(p)
		return len(p), cs.refusal
	case h.closed:
		return 0, streamClosed()
	case cs.stop != nil:
		return 0, cs.stop
	}
	refused, gone, err := h.feed(p)
	switch {
	case err != nil:
		return 0, err
	case gone:
		cs.gone()
		return 0, cs.stop
	case !refused:
		return len(p), nil
	}
	cs.refuse()
	return len(p), cs.refusal
}

// refuse finishes a refused stream: the refusal is final, and its result the finished
// stream's, read now (no tool runs). h.mu is held, or the stream is new.
func (cs *CallStream) refuse() {
	cs.finish(0)
	if cs.result.Outcome == OutcomeInternal {
		return // the registry closed meanwhile
	}
	res := cs.result
	cs.refusal = &RefusedError{Errors: res.Violations(), Result: &res}
}

// finish runs the call (ctx a cgo.Handle of its context, or 0) and keeps its result;
// h.mu is held, h not closed.
func (cs *CallStream) finish(ctx C.uintptr_t) {
	h := cs.h
	if !h.g.acquire() {
		cs.gone()
		return
	}
	if h.ptr == nil {
		h.g.release()
		cs.gone()
		return
	}
	cs.stop, cs.done = streamFinished(), true
	o := C.tg_go_stream_finish_call(h.take(), ctx)
	h.g.release()
	runtime.KeepAlive(cs.r)
	if o.status != C.TG_OK {
		cs.result = cs.failed("error: " + takeError(o.status, o.error, o.view).Msg)
		return
	}
	res := Result{CallID: cs.id, Name: cs.name}
	res.read(&o)
	cs.result = res
}

// Refused reports whether the call is refused: its tool will not run.
func (cs *CallStream) Refused() bool {
	cs.h.mu.Lock()
	defer cs.h.mu.Unlock()
	return cs.refusal != nil
}

// Finish runs the call with every byte written and returns its result: the Result
// r.Call(ctx, types.ToolCall{ID: id, Name: name, Arguments: the bytes}) gives (the
// tool runs here, once, with those bytes and ctx; a ctx already done runs nothing and
// gives "error: call cancelled"). A refused stream's result is its refusal, whatever
// ctx. Calling it again returns the same result and runs nothing. A stream closed
// before it finished runs nothing: "error: stream is closed", OutcomeInternal.
//
// As in Call, the tool may use the registry, but not Close it, nor this stream.
func (cs *CallStream) Finish(ctx context.Context) Result {
	h := cs.h
	h.mu.Lock()
	defer h.mu.Unlock()
	switch {
	case cs.done:
		return cs.result
	case h.closed:
		cs.stop, cs.done = streamClosed(), true
		cs.result = cs.failed("error: stream is closed")
		return cs.result
	}
	if ctx != nil && ctx.Err() != nil {
		// As Call: nothing runs, and the result is not the library's.
		if !h.g.acquire() {
			cs.gone()
			return cs.result
		}
		if h.ptr != nil {
			C.tg_stream_free(h.take())
		}
		h.g.release()
		cs.stop, cs.done = streamFinished(), true
		cs.result = Result{CallID: cs.id, Name: cs.name, Content: callCancelled, IsError: true, Outcome: OutcomeHandlerFailed}
		return cs.result
	}
	var ch C.uintptr_t
	if ctx != nil && ctx != context.Background() && ctx != context.TODO() {
		hd := cgo.NewHandle(ctx)
		defer hd.Delete()
		ch = C.uintptr_t(hd)
	}
	cs.finish(ch)
	return cs.result
}

// BytesRead returns how many bytes were written to the stream, refused ones included.
func (cs *CallStream) BytesRead() int {
	cs.h.mu.Lock()
	defer cs.h.mu.Unlock()
	return cs.h.read
}

// Close releases the stream's native memory; an unfinished stream's tool never runs.
// It is idempotent, and harmless after Finish.
func (cs *CallStream) Close() error {
	if cs == nil {
		return nil
	}
	cs.h.close()
	runtime.SetFinalizer(cs, nil)
	return nil
}
