package tool

/*
#include "tg_go.h"
*/
import "C"

import (
	"bytes"
	"context"
	"encoding/json"
	"runtime"
	"runtime/cgo"
	"sort"
	"strings"
	"sync"
	"time"
	"unsafe"

	"toolgate/types"
)

// Registry holds tools by name and runs the model's calls. It is safe for concurrent
// use: calls run in parallel, no lock is held while a tool runs, and a tool may call
// into the registry (but not Close it). Close releases the native registry; a
// finalizer does it for a Registry dropped without Close.
type Registry struct {
	ptr *C.tg_registry
	g   guard

	mu    sync.RWMutex
	tools map[string]Tool // updated only after the native registration succeeded

	// The cancellers of the running dispatches, which Close cancels; closing once it
	// began.
	dmu        sync.Mutex
	dispatches map[*C.tg_canceller]struct{}
	closing    bool

	observer cgo.Handle // of the WithObserver func, or 0
	masked   bool

	streams streams // the open StreamCall streams, freed before the registry
}

// NewRegistry returns an empty registry whose tool names must match NamePattern.
// Options change its limits (WithMaxArgumentBytes, WithMaxDepth), how its tools'
// schemas are compiled (WithProfile, WithDefaultDraft, WithResource,
// WithAnnotationFormats, WithCompileOptions) and whether its messages quote values
// (WithMaskedValues); without any, a call reads at most 4 MiB
// of arguments nested at most 128 levels deep, and schemas use the core profile.
//
// It panics, with the *Error NewRegistryOrError would return, when the options are
// invalid: a resource that is not JSON, a resource URI or a format name that is not
// UTF-8, a Profile or Draft that is none of the constants. No other option can fail.
func NewRegistry(opts ...Option) *Registry {
	r, err := NewRegistryOrError(opts...)
	if err != nil {
		panic(err)
	}
	return r
}

// NewRegistryOrError is NewRegistry for options that may be invalid (resources read
// from files, say): the error is an *Error wrapping ErrInvalidSchema (a resource that
// is not JSON) or ErrInvalidOption, with the library's message.
func NewRegistryOrError(opts ...Option) (*Registry, error) {
	var o registryOptions
	for _, opt := range opts {
		if opt != nil {
			opt(&o)
		}
	}
	c := newCOptions(&o.compile)
	defer c.release()
	var masked C.uint32_t
	if o.maskedValues {
		masked = 1
	}
	var observer cgo.Handle
	if o.observer != nil {
		observer = cgo.NewHandle(o.observer)
	}
	out := C.tg_go_registry_new(o.maxArgumentBytes, &c.c, o.targets, masked,
		C.uint64_t(millis(o.defaultTimeout)), C.size_t(o.rememberCallIDs), C.uintptr_t(observer))
	runtime.KeepAlive(c)
	if out.status != C.TG_OK {
		if observer != 0 {
			observer.Delete()
		}
		return nil, takeError(out.status, out.error, out.view)
	}
	r := &Registry{ptr: out.registry, g: newGuard(), tools: make(map[string]Tool),
		observer: observer, masked: o.maskedValues || o.compile.MaskedValues}
	runtime.SetFinalizer(r, (*Registry).Close)
	return r, nil
}

// Option sets up a Registry made by NewRegistry.
type Option func(*registryOptions)

// registryOptions holds what the options set: 0 means the library's default.
type registryOptions struct {
	maxArgumentBytes C.size_t
	compile          CompileOptions
	targets          C.uint32_t
	maskedValues     bool
	defaultTimeout   time.Duration
	rememberCallIDs  int
	observer         func(CallEvent)
}

// WithDefaultTimeout sets the deadline of a dispatched call whose tool has no
// RunOptions.Timeout (see Dispatch): a call still running d after its start gets
// `error: tool NAME timed out after N ms` (OutcomeTimedOut). 0 or less, the default,
// means none; it is rounded up to whole milliseconds. Call has no deadline.
func WithDefaultTimeout(d time.Duration) Option {
	return func(o *registryOptions) { o.defaultTimeout = d }
}

// WithRememberCallIDs keeps the results of the last n dispatched call ids (0 or less,
// the default, keeps none): a call whose id was run before, with the same tool name
// and arguments, gets the recorded result and the tool does not run again (at most
// once per call id, for a host that may send a model turn twice); with another name
// or other arguments it is refused (`error: call id "X" was already used with other
// arguments`), and while the first is still running in another dispatch
// (`error: call id "X" is still running in another dispatch`). Only calls whose tool
// ran are recorded: a refused call may be sent again. Calls without an id are never
// remembered, and Call neither reads nor records them.
func WithRememberCallIDs(n int) Option {
	return func(o *registryOptions) { o.rememberCallIDs = max(n, 0) }
}

// WithObserver has f told about every call of every Dispatch, refused ones included
// (never about Call): on the goroutine that called Dispatch, before Dispatch returns,
// once every result of the batch is known, in the batch's order. Dispatches on
// several goroutines call it at once, so f must be safe for concurrent use; a panic
// in f is recovered and ignored. f must not Close the registry.
func WithObserver(f func(CallEvent)) Option {
	return func(o *registryOptions) { o.observer = f }
}

// MasksValues reports whether the registry keeps values out of its messages
// (WithMaskedValues, CompileOptions.MaskedValues).
func (r *Registry) MasksValues() bool { return r != nil && r.masked }

// NoArgumentLimit, given to WithMaxArgumentBytes, lets calls read arguments of any size.
const NoArgumentLimit = -1

// WithMaxArgumentBytes sets the largest argument text a call reads, in bytes. Longer
// arguments are refused before they are parsed, and the tool does not run:
//
//	error: invalid arguments for NAME: N bytes is more than the limit of M
//
// 0 means the default (4 MiB); a negative n (NoArgumentLimit) means no limit.
func WithMaxArgumentBytes(n int) Option {
	return func(o *registryOptions) {
		switch {
		case n < 0:
			o.maxArgumentBytes = ^C.size_t(0) // SIZE_MAX: none
		default:
			o.maxArgumentBytes = C.size_t(n)
		}
	}
}

// WithMaxDepth sets the nesting limit, for the tools' parameters schemas and for the
// arguments of calls: deeper arguments are refused as malformed JSON
// ("nesting deeper than D levels"). 0 or less means the default (128); values above
// 1024 are taken as 1024.
func WithMaxDepth(d int) Option {
	return func(o *registryOptions) { o.compile.MaxDepth = d }
}

// Close releases the native registry and the tools in it. It is idempotent and safe
// to call while other goroutines use the registry: it cancels running dispatches
// (their calls not yet answered get "error: call cancelled", OutcomeCancelled, and
// their tools' ctx is cancelled), waits for them and for running calls, and later
// calls return an error Result ("error: registry is closed"), Register returns
// ErrClosed; its unfinished streams (StreamCall) are released and run nothing (a
// stream's Finish gives that same error Result). A dispatched tool still running past its deadline or cancellation, that
// ignores its ctx, is waited for up to 5 seconds, then left to finish on its own.
// Close must not be called from inside a tool or an observer of the same registry
// (it would wait for itself).
func (r *Registry) Close() error {
	if r == nil {
		return nil
	}
	r.dmu.Lock()
	r.closing = true
	for c := range r.dispatches {
		C.tg_canceller_cancel(c)
	}
	r.dmu.Unlock()
	r.g.close(func() {
		r.streams.freeAll()
		C.tg_registry_free(r.ptr) // runs toolgateGoDestroy once per tool
		r.ptr = nil
		if r.observer != 0 {
			r.observer.Delete()
		}
		r.mu.Lock()
		r.tools = nil
		r.mu.Unlock()
	})
	runtime.SetFinalizer(r, nil)
	return nil
}

func closedError() *Error { return &Error{Kind: ErrClosed, Msg: "registry is closed"} }

// Register adds a tool. Its name must match NamePattern and be new; its parameters
// must be a schema that compiles and requires an object ("type": "object"); no
// parameters (nil, empty or JSON null) mean {"type":"object"}. Its OutputSchema, when
// set (not nil, empty or JSON null), must compile with the registry's schema options
// (its root may be any type); every answer of the tool is then checked against it.
// The error is an *Error wrapping ErrInvalidName, ErrDuplicate, ErrInvalidSchema (for
// the output schema: `invalid output schema for "NAME": ...`, Pointer and Keyword in
// the output schema), ErrNotObject or ErrClosed; a refused tool changes nothing.
func (r *Registry) Register(t Tool) error {
	if t == nil {
		return &Error{Kind: ErrNative, Msg: "tool is nil"}
	}
	def := t.Definition()
	if r == nil || !r.g.acquire() {
		return closedError()
	}
	defer r.g.release()
	params, hasParams := schemaArg(def.Parameters)
	output, hasOutput := schemaArg(def.OutputSchema)
	// The library checks the name (and refuses it with its own message); it takes UTF-8
	// only, so bytes that are not become U+FFFD, which no name policy allows.
	name, nameLen := cstring(strings.ToValidUTF8(def.Name, "\uFFFD"))
	desc, descLen := cstring(def.Description)
	par, parLen := cbytes(params)
	h := cgo.NewHandle(&toolEntry{tool: t, name: def.Name})
	liveTools.Add(1)
	// From here the handle belongs to the registration: the library deletes it
	// (toolgateGoDestroy) when the registry is freed, or before returning a failure.
	out, outLen := cbytes(output)
	timeout, idempotent, exclusive := runOptionsOf(t)
	o := C.tg_go_register(r.ptr, name, nameLen, desc, descLen, par, parLen, C.int(hasParams),
		out, outLen, C.int(hasOutput), C.uint64_t(timeout), C.uint32_t(idempotent),
		C.uint32_t(exclusive), C.uintptr_t(h), 0)
	runtime.KeepAlive(r)
	if o.status != C.TG_OK {
		return takeError(o.status, o.error, o.view)
	}
	r.mu.Lock()
	r.tools[def.Name] = t
	r.mu.Unlock()
	return nil
}

// RegisterAll registers every tool of ts, or none of them: each is checked as Register
// checks one (output schema included), and a name listed twice is refused
// (ErrDuplicate). The error names the
// first tool refused, in the order given. The registry copies its set of tools once
// for the whole batch instead of once per tool, so a host loading a large tool list
// should use it; a concurrent call sees all of the batch or none of it.
func (r *Registry) RegisterAll(ts ...Tool) error {
	defs := make([]types.ToolDef, len(ts))
	for i, t := range ts {
		if t == nil {
			return &Error{Kind: ErrNative, Msg: "tool is nil"}
		}
		defs[i] = t.Definition()
	}
	if r == nil || !r.g.acquire() {
		return closedError()
	}
	defer r.g.release()
	if len(ts) == 0 {
		return nil
	}
	// Every text in one buffer and TG_GO_BATCH_NUMBERS numbers per tool (see
	// tg_go_register_batch): neither holds a Go pointer, so both may be handed to C as
	// they are.
	var texts []byte
	lens := make([]C.size_t, 0, C.TG_GO_BATCH_NUMBERS*len(ts))
	for i, def := range defs {
		params, hasParams := schemaArg(def.Parameters)
		timeout, idempotent, exclusive := runOptionsOf(ts[i])
		output, hasOutput := schemaArg(def.OutputSchema)
		name := strings.ToValidUTF8(def.Name, "\uFFFD")
		texts = append(texts, name...)
		texts = append(texts, def.Description...)
		texts = append(texts, params...)
		texts = append(texts, output...)
		lens = append(lens, C.size_t(len(name)), C.size_t(len(def.Description)),
			C.size_t(len(params)), C.size_t(len(output)), C.size_t(hasParams), C.size_t(hasOutput),
			C.size_t(timeout), C.size_t(idempotent), C.size_t(exclusive))
	}
	handles := make([]C.uintptr_t, len(ts))
	for i, t := range ts {
		handles[i] = C.uintptr_t(cgo.NewHandle(&toolEntry{tool: t, name: defs[i].Name}))
	}
	liveTools.Add(int64(len(ts)))
	// From here the handles belong to the registration: the library deletes them
	// (toolgateGoDestroy) when the registry is freed, or before returning a failure.
	var textPtr *C.char
	if len(texts) > 0 {
		textPtr = (*C.char)(unsafe.Pointer(unsafe.SliceData(texts)))
	}
	o := C.tg_go_register_batch(r.ptr, textPtr, unsafe.SliceData(lens),
		unsafe.SliceData(handles), C.size_t(len(ts)), 0)
	runtime.KeepAlive(r)
	runtime.KeepAlive(texts)
	if o.status != C.TG_OK {
		return takeError(o.status, o.error, o.view)
	}
	r.mu.Lock()
	for i, t := range ts {
		r.tools[defs[i].Name] = t
	}
	r.mu.Unlock()
	return nil
}

// schemaArg is a tool's schema as registration passes it: none (0) when raw is nil,
// empty or JSON null, else the bytes without surrounding white space (1).
func schemaArg(raw json.RawMessage) ([]byte, int) {
	b := bytes.TrimSpace(raw)
	if len(b) == 0 || string(b) == "null" {
		return nil, 0
	}
	return b, 1
}

// MustRegister registers every tool and returns r; it panics on the first error.
func (r *Registry) MustRegister(ts ...Tool) *Registry {
	for _, t := range ts {
		if err := r.Register(t); err != nil {
			panic("tool: MustRegister: " + err.Error())
		}
	}
	return r
}

// Get returns the registered tool of that name (its Definition holds the parameters
// and output schema it was registered with).
func (r *Registry) Get(name string) (Tool, bool) {
	if r == nil {
		return nil, false
	}
	r.mu.RLock()
	t, ok := r.tools[name]
	r.mu.RUnlock()
	return t, ok
}

// text copies the registry's names (which 0) or definitions (which 1).
func (r *Registry) text(which int) (string, bool) {
	if r == nil || !r.g.acquire() {
		return "", false
	}
	o := C.tg_go_text(r.ptr, C.int(which))
	r.g.release()
	runtime.KeepAlive(r)
	if o.status != C.TG_OK {
		_ = takeError(o.status, o.error, o.view)
		return "", false
	}
	s := gostring(o.data, o.len)
	C.tg_text_free(o.text)
	return s, true
}

// Names returns the registered tool names, sorted.
func (r *Registry) Names() []string {
	s, ok := r.text(0)
	if !ok || s == "" {
		return []string{}
	}
	names := strings.Split(s, "\n")
	sort.Strings(names) // already in byte order; this keeps the promise locally visible
	return names
}

// Definitions returns the tool definitions to send to the model, sorted by name: the
// same bytes on every run for the same registrations. Parameters is the schema as
// compact JSON, keys in the author's order ({"type":"object"} for a tool registered
// without one). OutputSchema is not among them (the model is given the parameters
// only); Get returns the tool, whose Definition has it.
func (r *Registry) Definitions() []types.ToolDef {
	s, ok := r.text(1)
	if !ok {
		return []types.ToolDef{}
	}
	defs := []types.ToolDef{}
	if err := json.Unmarshal([]byte(s), &defs); err != nil {
		return []types.ToolDef{}
	}
	return defs
}

// Call runs the model's call c and never panics. The result is the tool's answer when
// c.Arguments passed the tool's schema (the tool ran once, with exactly those bytes;
// "" is sent as {}), or an error result the model can read:
//
//	error: unknown tool "x"; available tools: a, b
//	error: invalid arguments for NAME: malformed JSON at line L column C: ...
//	error: invalid arguments for NAME:\n$: missing required property "city"\n...
//	error: TEXT                  (the tool returned an error with that text)
//	error: tool NAME panicked
//	error: call cancelled        (ctx was already cancelled or past its deadline)
//	error: tool NAME exited without an answer   (the tool called runtime.Goexit)
//	error: tool NAME returned an invalid result:\n$.temp: expected number, got string
//
// The last is the refusal of an answer that the tool's output schema does not accept
// (Outcome OutcomeInvalidResult, the answer in InvalidResult); an answer it accepts is
// the content unchanged, and the Result is Structured.
//
// ctx reaches the tool's Execute. A ctx that is already done when Call starts runs
// nothing: the result is the error above, with Outcome OutcomeHandlerFailed. A call
// on a closed registry has Outcome OutcomeInternal. Neither reaches the library, so
// neither can be written in a provider's shape (JSON, ResultsMessage).
func (r *Registry) Call(ctx context.Context, c types.ToolCall) Result {
	res := Result{CallID: c.ID, Name: c.Name}
	if r == nil || !r.g.acquire() {
		res.Content, res.IsError, res.Outcome = "error: registry is closed", true, OutcomeInternal
		return res
	}
	if ctx != nil && ctx.Err() != nil {
		r.g.release()
		res.Content, res.IsError, res.Outcome = callCancelled, true, OutcomeHandlerFailed
		return res
	}
	var ch C.uintptr_t
	if ctx != nil && ctx != context.Background() && ctx != context.TODO() {
		h := cgo.NewHandle(ctx)
		defer h.Delete()
		ch = C.uintptr_t(h)
	}
	o := r.call(c.ID, c.Name, c.Arguments, ch)
	if o.status == C.TG_ERR_UTF8 {
		// The library takes UTF-8 ids and names only (it checks them, so the common
		// case pays nothing here). No registered name contains U+FFFD, so a name that
		// was not UTF-8 stays unknown; the Result keeps the caller's bytes.
		_ = takeError(o.status, o.error, o.view)
		o = r.call(strings.ToValidUTF8(c.ID, "\uFFFD"), strings.ToValidUTF8(c.Name, "\uFFFD"), c.Arguments, ch)
	}
	r.g.release()
	runtime.KeepAlive(r)
	if o.status != C.TG_OK {
		res.Content, res.IsError = "error: "+takeError(o.status, o.error, o.view).Msg, true
		res.Outcome = OutcomeInternal
		return res
	}
	res.read(&o)
	return res
}

// read copies what the library's result of a call says into res, which then owns it.
func (res *Result) read(o *C.tg_go_call_out) {
	res.Content, res.IsError = gostring(o.content, o.content_len), bool(o.is_error)
	res.Outcome, res.Structured = Outcome(o.outcome), bool(o.structured)
	res.Attempts = int(o.attempts)
	if o.invalid != nil {
		res.InvalidResult = gostring(o.invalid, o.invalid_len)
	}
	res.native = newNativeResult(o.result, int(o.violation_count))
}

// callCancelled is the content of a call whose ctx was done before it ran: the
// library's text, so that every host shows the same words.
var callCancelled = C.GoString(C.tg_call_cancelled_content())

// call is one tg_registry_call; r.g must be held.
func (r *Registry) call(id, name, args string, ctx C.uintptr_t) C.tg_go_call_out {
	idp, idn := cstring(id)
	np, nn := cstring(name)
	ap, an := cstring(args)
	return C.tg_go_call(r.ptr, idp, idn, np, nn, ap, an, ctx)
}
