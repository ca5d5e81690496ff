package tool

// The trampolines through which the native registry runs Go tools. This file has
// //export functions, so its preamble holds declarations only.

/*
#cgo nocallback tg_reply_ok
#cgo nocallback tg_reply_error
#cgo nocallback tg_reply_exited
#include "tg_go.h"
*/
import "C"

import (
	"context"
	"encoding/json"
	"runtime/cgo"
	"sync/atomic"
	"unsafe"
)

// liveTools counts the tool handles not yet released by the library (for tests: every
// registration, failed ones included, must be destroyed exactly once).
var liveTools atomic.Int64

// toolEntry is what a registered tool's cgo.Handle holds.
type toolEntry struct {
	tool Tool
	name string
}

// toolgateGoHandler runs a Go tool for the native registry (through tg_go_handler,
// which turns user_data and call_ctx into integers). userData is the tool's
// cgo.Handle; callCtx is a per-call cgo.Handle of the context.Context, or 0 for
// context.Background(). The arguments already passed the tool's schema.
//
// It never lets a panic unwind into C or Rust frames: a panic becomes the error
// "tool NAME panicked" (the content "error: tool NAME panicked"), without the value or
// the stack trace, which are for logs and not for the model. A tool that ends its
// goroutine with runtime.Goexit (as t.Fatal does) gets the library's text, the content
// "error: tool NAME exited without an answer" (see execute).
//
// call is the dispatched call the tool runs for (NULL for Registry.Call), owned by
// tg_go_handler, which frees it when this returns: the tool's ctx is cancelled when
// the call is (its deadline passed, the dispatch was cancelled), and a failure the
// tool marked Retryable is marked transient on it.
//
//export toolgateGoHandler
func toolgateGoHandler(userData C.uintptr_t, callCtx C.uintptr_t, args *C.char, argsLen C.size_t, reply *C.tg_reply, call *C.tg_running_call) (status C.tg_status) {
	name := ""
	defer func() {
		if p := recover(); p != nil {
			replyText(reply, "tool "+name+" panicked", false)
			status = C.TG_ERR_HANDLER
		}
	}()
	e := cgo.Handle(userData).Value().(*toolEntry)
	name = e.name
	ctx := handleContext(callCtx)
	if call != nil {
		// The dispatch's ctx gives its values; its cancellation and deadline reach the
		// tool through the call (the library cancels it, then this ctx), so that the
		// call's result is settled before the tool learns of it.
		var cancel context.CancelFunc
		ctx, cancel = context.WithCancel(context.WithoutCancel(ctx))
		h := cgo.NewHandle(cancel)
		defer func() {
			// A cancellation that comes after this finds the handle deleted
			// (toolgateGoCancel ignores it); the ctx is done for the tool either way.
			h.Delete()
			cancel()
		}()
		C.tg_go_on_cancel(call, C.uintptr_t(h))
	}
	// The argument bytes are the library's, borrowed for this call: copy them, so
	// the tool may keep or change its json.RawMessage.
	raw := make(json.RawMessage, int(argsLen))
	if argsLen > 0 {
		copy(raw, unsafe.Slice((*byte)(unsafe.Pointer(args)), int(argsLen)))
	}
	o := execute(e.tool, ctx, raw)
	switch {
	case o.panicked:
		replyText(reply, "tool "+name+" panicked", false)
		return C.TG_ERR_HANDLER
	case o.exited:
		C.tg_reply_exited(reply)
		return C.TG_ERR_HANDLER
	case o.err != nil:
		if call != nil && IsRetryable(o.err) {
			C.tg_running_call_retry_later(call)
		}
		replyText(reply, o.err.Error(), false)
		return C.TG_ERR_HANDLER
	}
	replyText(reply, o.out, true)
	return C.TG_OK
}

// handleContext is the context.Context of a call's cgo.Handle: context.Background()
// for 0, and for a handle already deleted (a dispatched tool that starts after its
// dispatch has returned, whose answer nobody waits for).
func handleContext(h C.uintptr_t) (ctx context.Context) {
	ctx = context.Background()
	if h == 0 {
		return ctx
	}
	defer func() { _ = recover() }()
	if c, ok := cgo.Handle(h).Value().(context.Context); ok {
		ctx = c
	}
	return ctx
}

// toolgateGoCancel cancels the ctx of a dispatched tool whose call was cancelled (its
// tg_running_call_on_cancel callback): data is a cgo.Handle of the ctx's
// CancelFunc, already deleted when the tool has returned.
//
//export toolgateGoCancel
func toolgateGoCancel(data C.uintptr_t) {
	defer func() { _ = recover() }()
	if cancel, ok := cgo.Handle(data).Value().(context.CancelFunc); ok {
		cancel()
	}
}

// toolgateGoObserve hands one dispatched call's event to the registry's observer
// (reg, a cgo.Handle of a func(CallEvent), or 0) and to the dispatch's (sink,
// likewise). It runs on the goroutine that called Dispatch, before Dispatch returns.
// A panic in an observer is recovered (and the other observer still runs).
//
//export toolgateGoObserve
func toolgateGoObserve(reg C.uintptr_t, sink C.uintptr_t, event *C.tg_call_event) {
	e := callEvent(event)
	for _, h := range [2]C.uintptr_t{reg, sink} {
		if h != 0 {
			observeSafely(h, e)
		}
	}
}

func observeSafely(h C.uintptr_t, e CallEvent) {
	defer func() { _ = recover() }()
	if f, ok := cgo.Handle(h).Value().(func(CallEvent)); ok {
		f(e)
	}
}

// outcome is how a tool's Execute ended.
type outcome struct {
	out      string
	err      error
	panicked bool
	// exited: Execute neither returned nor panicked (runtime.Goexit).
	exited bool
}

// execute runs t.Execute on a goroutine of its own and waits for it. runtime.Goexit
// cannot be recovered: on the goroutine that called into the library it would end that
// goroutine with the library's frames still on its stack, so the call would never
// return, its registry would count it in flight for ever, and Close would wait for it
// for ever. On a goroutine of its own, Goexit ends only that goroutine; its deferred
// function reports it, and the call returns.
func execute(t Tool, ctx context.Context, raw json.RawMessage) outcome {
	done := make(chan outcome, 1)
	go func() {
		var o outcome
		returned := false
		defer func() {
			// Since Go 1.21 panic(nil) recovers a *runtime.PanicNilError, so only
			// Goexit leaves recover() nil without Execute having returned.
			if p := recover(); p != nil {
				o.panicked = true
			} else if !returned {
				o.exited = true
			}
			done <- o
		}()
		o.out, o.err = t.Execute(ctx, raw)
		returned = true
	}()
	return <-done
}

// replyText hands the tool's answer (ok) or error message to the library, which
// copies it.
func replyText(reply *C.tg_reply, text string, ok bool) {
	p, n := cstring(text)
	if ok {
		C.tg_reply_ok(reply, p, n)
	} else {
		C.tg_reply_error(reply, p, n)
	}
}

// toolgateGoDestroy releases a registered tool's cgo.Handle. The library calls it
// exactly once per registration: when the registry is freed, or when the
// registration fails.
//
//export toolgateGoDestroy
func toolgateGoDestroy(userData C.uintptr_t) {
	defer func() { _ = recover() }()
	cgo.Handle(userData).Delete()
	liveTools.Add(-1)
}
