// Package tool is a tool registry for LLM agents backed by toolgate's Rust core.
//
// A Tool has a definition (name, description, JSON Schema of its arguments) and an
// Execute method. A Registry validates every call's argument bytes against the tool's
// schema before the tool runs, and turns every failure (unknown tool, malformed JSON,
// schema violations, an error or a panic inside the tool) into a Result whose content
// starts with "error: ", so the model can correct itself. Call never panics.
//
// Validation, the registry's bookkeeping and every message are the Rust library's
// (linked statically through cgo), so a Go agent sees the same bytes as a C, C++ or
// Python host. See README.md for the build step.
package tool // import "toolgate/tool"

/*
#include "tg_go.h"
*/
import "C"

import (
	"context"
	"encoding/json"
	"errors"
	"regexp"

	"toolgate/types"
)

// Tool is something the model can call.
//
// Execute receives the call's argument bytes, unchanged, after they passed the
// schema of Definition().Parameters ("{}" when the model sent empty arguments). Its
// string is the tool's answer; an error becomes the content "error: " + err.Error().
// A panic in Execute is recovered and becomes "error: tool NAME panicked"; a call of
// runtime.Goexit in Execute (t.FailNow, t.Fatal) ends only Execute, and the call's
// content is "error: tool NAME exited without an answer".
//
// When Definition().OutputSchema is set, the string must be JSON text that schema
// accepts: the registry checks it, passes a conforming answer on unchanged (the
// Result is Structured) and refuses any other (Outcome OutcomeInvalidResult; the
// content says why, Result.InvalidResult keeps the answer).
//
// Execute runs on a goroutine of its own, started for the call, while the goroutine
// that called Registry.Call waits for it; it gets that call's ctx. It may call into
// registries (even its own, except Close).
type Tool interface {
	Definition() types.ToolDef
	Execute(ctx context.Context, args json.RawMessage) (string, error)
}

// Func is a Tool made of a definition and a function.
type Func struct {
	Def types.ToolDef
	Fn  func(context.Context, json.RawMessage) (string, error)
	// Run tells Dispatch how to run the tool's calls (its timeout, whether it is
	// idempotent or exclusive); the zero value: the registry's defaults.
	Run RunOptions
}

// Definition returns f.Def.
func (f Func) Definition() types.ToolDef { return f.Def }

// Execute calls f.Fn.
func (f Func) Execute(ctx context.Context, args json.RawMessage) (string, error) {
	if f.Fn == nil {
		return "", errors.New("tool " + f.Def.Name + " has no function")
	}
	return f.Fn(ctx, args)
}

// New returns a Func tool. An empty schema means {"type":"object"} (any object). A
// tool with an output schema is a Func whose Def sets OutputSchema:
//
//	tool.Func{Def: types.ToolDef{Name: "forecast", Parameters: params, OutputSchema: output}, Fn: fn}
func New(name, description, schema string, fn func(context.Context, json.RawMessage) (string, error)) Tool {
	var params json.RawMessage
	if schema != "" {
		params = json.RawMessage(schema)
	}
	return Func{Def: types.ToolDef{Name: name, Description: description, Parameters: params}, Fn: fn}
}

// Version is the version of the toolgate library the program is linked with (its
// tg_version()), such as "0.1.0".
func Version() string { return C.GoString(C.tg_version()) }

// Result is the outcome of one call: the call's id, the tool's name, the content the
// model reads, and whether the call failed (the content then starts with "error: ").
// Outcome says what became of the call, Structured whether the content is an answer
// that passed the tool's output schema, InvalidResult the answer the output schema
// refused; Violations lists why a call was refused, and JSON writes the item that
// answers the call in a provider's shape.
//
// A Result from Registry.Call refers to the library's record of the call (freed when
// the Result is no longer reachable), which Violations, JSON and ResultsMessage read.
// Compare Results by their fields: == also tells two calls apart.
type Result struct {
	CallID, Name, Content string
	IsError               bool
	// Outcome is what became of the call; every value but OutcomeAnswered comes with
	// IsError.
	Outcome Outcome
	// Structured: the content is the tool's answer checked against its output schema,
	// so JSON text of that shape (false for a tool without one, and for every error).
	Structured bool
	// InvalidResult is, for OutcomeInvalidResult, the tool's answer that its output
	// schema refused (the content holds the refusal instead); "" otherwise.
	InvalidResult string
	// Attempts is how many times the tool ran for this call: 0 when it did not run,
	// 1 for Registry.Call when it ran, up to WithMaxAttempts for a dispatched call
	// that was retried (a remembered call id given its recorded result keeps its
	// recorded count).
	Attempts int

	native *nativeResult
}

// Message is the tool message that answers the call: role "tool", the call's id and
// the content.
func (r Result) Message() types.Message {
	return types.Message{Role: "tool", Content: r.Content, ToolCallID: r.CallID}
}

// NamePattern is what a tool name must match (the names OpenAI and Anthropic accept),
// as the library states it (tg_name_policy_pattern). The native registry enforces it:
// Register refuses another name with the library's message, e.g.
// `invalid tool name "has space": must match ^[A-Za-z0-9_-]{1,64}$`.
var NamePattern = regexp.MustCompile(C.GoString(C.tg_name_policy_pattern(C.TG_NAMES_DEFAULT)))

// Errors that Register and Compile wrap; test with errors.Is.
var (
	// ErrInvalidName: the tool name does not match NamePattern.
	ErrInvalidName = errors.New("invalid tool name")
	// ErrDuplicate: a tool of that name is already registered.
	ErrDuplicate = errors.New("duplicate tool name")
	// ErrNotObject: the parameters schema does not require an object.
	ErrNotObject = errors.New("parameters do not require an object")
	// ErrInvalidSchema: the schema does not compile (an unsupported keyword such as
	// format, an unknown type, a bad pattern, an empty enum, not JSON, ...); for a
	// tool's output schema the message starts `invalid output schema for "NAME": `.
	ErrInvalidSchema = errors.New("invalid schema")
	// ErrInvalidOption: CompileWith, NewRegistryOrError or a function taking a
	// Dialect was given a value the library refuses (a Profile, Draft or Dialect that
	// is none of the constants, a resource URI or a format name that is not UTF-8).
	ErrInvalidOption = errors.New("invalid option")
	// ErrResponse: ReadCalls was given a provider response that is not JSON, not in
	// its dialect's shape, or holds a malformed tool call (the message names it).
	ErrResponse = errors.New("invalid response")
	// ErrClosed: the Registry or Schema was closed.
	ErrClosed = errors.New("toolgate: use after Close")
	// ErrNative: any other failure reported by the native library.
	ErrNative = errors.New("toolgate native error")
)

// Error is a failure of Register, RegisterAll, Compile, CompileWith,
// NewRegistryOrError, DialectDefinitions, ReadCalls or of writing a Result in a
// provider's shape. Msg is the library's message, e.g.
// `#/format: unsupported keyword "format"`; for schema errors Pointer (RFC 6901,
// into the schema) and Keyword say where. Kind is one of the Err* values above.
type Error struct {
	Kind    error
	Msg     string
	Pointer string
	Keyword string
}

func (e *Error) Error() string { return e.Msg }

// Unwrap returns e.Kind, so errors.Is(err, ErrDuplicate) works.
func (e *Error) Unwrap() error { return e.Kind }
