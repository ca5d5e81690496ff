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
//export toolgateGoHandler
func toolgateGoHandler(userData C.uintptr_t, callCtx C.uintptr_t, args *C.char, argsLen C.size_t, reply *C.tg_reply) (status C.tg_status) {
	name := ""
	defer func() {
		if p := recover(); p != nil {
			replyText(reply, "tool "+name+" panicked", false)
			status = C.TG_ERR_HANDLER
		}
	}()
	e := cgo.Handle(userData).Value().(*toolEntry)
	name = e.name
	ctx := context.Background()
	if callCtx != 0 {
		if c, ok := cgo.Handle(callCtx).Value().(context.Context); ok {
			ctx = c
		}
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
		replyText(reply, o.err.Error(), false)
		return C.TG_ERR_HANDLER
	}
	replyText(reply, o.out, true)
	return C.TG_OK
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
