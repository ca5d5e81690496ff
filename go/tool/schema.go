package tool

/*
#include "tg_go.h"
*/
import "C"

import (
	"encoding/json"
	"runtime"
	"unsafe"
)

// Schema is a compiled JSON Schema (the core profile from Compile, the profile its
// options chose from CompileWith). It is immutable and safe for concurrent use. Close releases its native memory; a finalizer does it
// for a Schema that is dropped without Close.
type Schema struct {
	ptr     *C.tg_schema
	g       guard
	streams streams // the open Streams, freed before the schema
}

// ValidationError is one violation: Path in the registry's form ("$", "$.days",
// `$["a.b"]`, "$.tags[1]"), Msg the terse message ("expected integer, got string"),
// Pointer the RFC 6901 pointer to where the fix goes ("/city" for a missing required
// city), Keyword the schema keyword that failed ("json" for malformed input) and
// SchemaLocation where that rule is written in the schema, as a URI fragment
// ("#/properties/days/type", "#/required"; "#/$defs/x/minimum" for a rule reached
// through $ref; a resource's URI before the "#" for a rule in a resource; "#" for
// malformed input and the size limit, which no keyword states).
type ValidationError struct {
	Path, Msg        string
	Pointer, Keyword string
	SchemaLocation   string
}

// Error is "Path: Msg".
func (e ValidationError) Error() string { return e.Path + ": " + e.Msg }

// Compile compiles a schema. Any keyword outside the core profile (format, oneOf,
// $ref, ...), an unknown type, a pattern that does not compile, an empty enum or a
// schema that is not a JSON object is refused with an *Error wrapping
// ErrInvalidSchema, whose Pointer and Keyword locate the problem. Annotations (title,
// description, default, examples, $schema, $comment) are accepted. CompileWith
// chooses the full profile (JSON Schema draft 2020-12 and draft-07) and the other
// options.
func Compile(raw json.RawMessage) (*Schema, error) {
	p, n := cbytes(raw)
	o := C.tg_go_compile(p, n)
	if o.status != C.TG_OK {
		return nil, takeError(o.status, o.error, o.view)
	}
	s := &Schema{ptr: o.schema, g: newGuard()}
	runtime.SetFinalizer(s, (*Schema).Close)
	return s, nil
}

// Close releases the native schema. It is idempotent and safe to call while other
// goroutines validate: it waits for them, and later validations report the schema
// as closed. Its open Streams are released with it (their Write and Finish then say
// the schema is closed).
func (s *Schema) Close() error {
	if s == nil {
		return nil
	}
	s.g.close(func() {
		s.streams.freeAll()
		C.tg_schema_free(s.ptr)
		s.ptr = nil
	})
	runtime.SetFinalizer(s, nil)
	return nil
}

var closedSchema = []ValidationError{{Path: "$", Msg: "schema is closed", Keyword: "closed"}}

// ValidateJSON validates the JSON text raw and returns every violation, sorted by
// path then message; nil means raw is valid. Malformed JSON (RFC 8259 strictly,
// duplicate keys refused) is one violation at "$" with keyword "json" and its line and
// column. Empty input (no bytes or only whitespace) is malformed JSON too; for
// tool-call arguments, where empty means {}, use ValidateArguments.
//
// A valid instance costs one cgo call and no allocation.
func (s *Schema) ValidateJSON(raw []byte) []ValidationError {
	return s.check(raw, 0, allViolations)
}

// ValidateArguments validates tool-call arguments as the registry's Call does: as
// ValidateJSON, except that empty arguments (no bytes or only whitespace) mean {},
// because some providers send "" for a call without parameters.
func (s *Schema) ValidateArguments(raw []byte) []ValidationError {
	return s.check(raw, 1, allViolations)
}

// ListedViolations is the most violations a Registry lists in a refusal, and a good
// max for ValidateJSONAtMost when the list goes back to a model.
const ListedViolations = C.TG_LISTED_VIOLATIONS

// ValidateJSONAtMost is ValidateJSON listing at most max violations (a max below 0
// counts as 0), for a list that goes back to a model or into a log: the first max met
// in raw, sorted by path then message, then, when there were more, one last
// violation at "$" (Keyword "violations", SchemaLocation "#") that says so.
// Validation stops there, so raw that breaks a rule a million times costs about what
// valid raw does; ValidateJSON's whole list grows with raw's length times its nesting.
// Malformed JSON is still the one violation, wherever it is.
func (s *Schema) ValidateJSONAtMost(raw []byte, max int) []ValidationError {
	return s.check(raw, 0, listLimit(max))
}

// ValidateArgumentsAtMost is ValidateJSONAtMost for tool-call arguments: empty
// arguments mean {}, as in ValidateArguments.
func (s *Schema) ValidateArgumentsAtMost(raw []byte, max int) []ValidationError {
	return s.check(raw, 1, listLimit(max))
}

// allViolations is the list limit that lists every violation (SIZE_MAX).
const allViolations = ^C.size_t(0)

func listLimit(max int) C.size_t {
	if max < 0 {
		return 0
	}
	return C.size_t(max)
}

func (s *Schema) check(raw []byte, arguments C.int, max C.size_t) []ValidationError {
	if s == nil || !s.g.acquire() {
		return append([]ValidationError(nil), closedSchema...)
	}
	p, n := cbytes(raw)
	o := C.tg_go_check(s.ptr, p, n, arguments, max)
	s.g.release()
	runtime.KeepAlive(s)
	if o.status != C.TG_OK {
		// Only a library bug gets here (TG_ERR_PANIC); fail closed.
		C.tg_go_errors_release(o.errors, o.views)
		return []ValidationError{{Path: "$", Msg: C.GoString(C.tg_status_str(o.status)), Keyword: "internal"}}
	}
	if o.valid {
		return nil
	}
	return takeErrors(o)
}

// takeErrors copies the violations of an invalid instance into Go and frees them: one
// more cgo call.
func takeErrors(o C.tg_go_check_out) []ValidationError {
	defer C.tg_go_errors_release(o.errors, o.views)
	if o.count == 0 || o.views == nil {
		// A library bug (invalid with no violation) or malloc failure; fail closed.
		return []ValidationError{{Path: "$", Msg: "invalid (the violations could not be listed)", Keyword: "internal"}}
	}
	return copyViolations(o.views, int(o.count))
}

// copyViolations copies count violations from their views (TG_GO_VIOLATION_TEXTS per
// violation, in C memory that stays alive meanwhile): one allocation for every text,
// one for the slice.
func copyViolations(v *C.tg_go_str, count int) []ValidationError {
	const per = C.TG_GO_VIOLATION_TEXTS
	views := unsafe.Slice(v, per*count)
	total := 0
	for _, v := range views {
		total += int(v.len)
	}
	buf := make([]byte, 0, total)
	for _, v := range views {
		if v.len > 0 {
			buf = append(buf, unsafe.Slice((*byte)(unsafe.Pointer(v.ptr)), int(v.len))...)
		}
	}
	var text string
	if total > 0 {
		text = unsafe.String(&buf[0], total)
	}
	out := make([]ValidationError, count)
	at := 0
	for i := range out {
		var f [per]string
		for k := range f {
			n := int(views[per*i+k].len)
			f[k] = text[at : at+n]
			at += n
		}
		out[i] = ValidationError{Path: f[0], Pointer: f[1], Keyword: f[2], Msg: f[3], SchemaLocation: f[4]}
	}
	return out
}
