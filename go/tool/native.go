package tool

// The native side: the C helpers of tg_go.c that fold several C calls into one cgo
// call each (a cgo call costs far more than the C work behind these accessors). Where
// the header and the static library come from is link_installed.go (pkg-config, the
// default) or link_checkout.go (build tag toolgate_checkout).
//
// Rules kept here:
//   - No Go pointer is stored in C memory, and no integer is turned into a Go
//     unsafe.Pointer: cgo.Handle values travel as uintptr_t, and only C code casts
//     them to void*.
//   - Helpers return small structs by value, so no Go out-parameter escapes to the
//     heap; lists of texts come back as views into C memory, read in place.
//   - Functions that never call back into Go are marked nocallback, and tg_go_check
//     also noescape (the instance bytes may stay on the caller's stack). The ones that
//     may run a Go tool (register, call, registry free) are not: a callback may move
//     the goroutine's stack.

/*
#cgo noescape tg_go_check
#cgo nocallback tg_go_check
#cgo nocallback tg_go_errors_release
#cgo nocallback tg_go_error_take
#cgo nocallback tg_go_compile
#cgo nocallback tg_go_compile_with
#cgo nocallback tg_go_text
#cgo nocallback tg_text_free
#cgo nocallback tg_go_registry_new
#cgo nocallback tg_version
#cgo nocallback tg_result_free
#cgo nocallback tg_schema_free
#cgo nocallback tg_go_views_free
#cgo nocallback tg_go_result_views
#cgo nocallback tg_go_result_json
#cgo nocallback tg_go_results_message
#cgo noescape tg_go_calls_read
#cgo nocallback tg_go_calls_read
#cgo nocallback tg_go_calls_release

#include "tg_go.h"
*/
import "C"

import (
	"sync"
	"sync/atomic"
	"unsafe"
)

// cbytes returns the C view of b for the duration of a cgo call (cgo pins it).
func cbytes(b []byte) (*C.char, C.size_t) {
	if len(b) == 0 {
		return nil, 0
	}
	return (*C.char)(unsafe.Pointer(unsafe.SliceData(b))), C.size_t(len(b))
}

// cstring returns the C view of s for the duration of a cgo call. C only reads it.
func cstring(s string) (*C.char, C.size_t) {
	if len(s) == 0 {
		return nil, 0
	}
	return (*C.char)(unsafe.Pointer(unsafe.StringData(s))), C.size_t(len(s))
}

// gostring copies n bytes of C memory into a Go string.
func gostring(p *C.char, n C.size_t) string {
	if n == 0 || p == nil {
		return ""
	}
	return string(unsafe.Slice((*byte)(unsafe.Pointer(p)), int(n)))
}

// takeError turns a failed call's tg_error into an *Error (one allocation for its
// three texts) and frees it.
func takeError(status C.tg_status, e *C.tg_error, v C.tg_go_error_view) *Error {
	err := &Error{Kind: kindOf(status)}
	if e == nil {
		err.Msg = C.GoString(C.tg_status_str(status))
		return err
	}
	total := int(v.msg_len + v.ptr_len + v.kw_len)
	if total == 0 {
		C.tg_error_free(e)
		err.Msg = C.GoString(C.tg_status_str(status))
		return err
	}
	buf := make([]byte, total)
	C.tg_go_error_take(e, (*C.char)(unsafe.Pointer(&buf[0])))
	s := unsafe.String(&buf[0], total)
	m, p := int(v.msg_len), int(v.ptr_len)
	err.Msg, err.Pointer, err.Keyword = s[:m], s[m:m+p], s[m+p:]
	return err
}

func kindOf(status C.tg_status) error {
	switch status {
	case C.TG_ERR_NAME:
		return ErrInvalidName
	case C.TG_ERR_DUPLICATE:
		return ErrDuplicate
	case C.TG_ERR_NOT_OBJECT:
		return ErrNotObject
	case C.TG_ERR_SCHEMA:
		return ErrInvalidSchema
	case C.TG_ERR_RESPONSE:
		return ErrResponse
	case C.TG_ERR_ARGUMENT, C.TG_ERR_UTF8:
		// The binding passes its own arguments right; only an option value gets here.
		return ErrInvalidOption
	default:
		return ErrNative
	}
}

// guard counts the calls using a native handle so that Close frees it only once none
// is running, while calls, and Close itself, may come from any goroutine at any time.
// A call never waits on a lock: it increments a counter.
type guard struct {
	state   atomic.Int64 // closedBit | number of calls in progress
	drained chan struct{}
	once    sync.Once
}

const closedBit = int64(1) << 62

func newGuard() guard { return guard{drained: make(chan struct{})} }

// acquire registers a call; false once Close has begun.
func (g *guard) acquire() bool {
	for {
		v := g.state.Load()
		if v&closedBit != 0 {
			return false
		}
		if g.state.CompareAndSwap(v, v+1) {
			return true
		}
	}
}

// release ends a call; the last one to end after Close began wakes Close.
func (g *guard) release() {
	if g.state.Add(-1) == closedBit {
		close(g.drained)
	}
}

// close marks the handle closed, waits for every running call to end and then runs
// free, once; later calls wait for the first to finish.
func (g *guard) close(free func()) {
	g.once.Do(func() {
		for {
			v := g.state.Load()
			if g.state.CompareAndSwap(v, v|closedBit) {
				if v != 0 {
					<-g.drained
				}
				break
			}
		}
		free()
	})
}
