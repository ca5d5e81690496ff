package tool

/*
#include "tg_go.h"
*/
import "C"

import (
	"runtime"
	"strconv"
	"unsafe"

	"toolgate/types"
)

// Outcome is what became of a call (the library's tg_outcome). Every value but
// OutcomeAnswered is an error result.
type Outcome int32

const (
	// OutcomeAnswered: the tool answered (and its answer passed its output schema, if
	// it has one).
	OutcomeAnswered Outcome = C.TG_OUTCOME_ANSWERED
	// OutcomeUnknownTool: no tool of that name is registered.
	OutcomeUnknownTool Outcome = C.TG_OUTCOME_UNKNOWN_TOOL
	// OutcomeInvalidArguments: the arguments were over the size limit, malformed or
	// invalid; the tool did not run. Result.Violations lists why.
	OutcomeInvalidArguments Outcome = C.TG_OUTCOME_INVALID_ARGUMENTS
	// OutcomeHandlerFailed: the tool returned an error, panicked or ended without an
	// answer (runtime.Goexit); also a call whose ctx was done before it ran.
	OutcomeHandlerFailed Outcome = C.TG_OUTCOME_HANDLER_FAILED
	// OutcomeInvalidResult: the tool answered with text its output schema refuses
	// (malformed JSON, over the size limit, or invalid). Result.Violations lists why
	// and Result.InvalidResult holds the answer, which the content does not.
	OutcomeInvalidResult Outcome = C.TG_OUTCOME_INVALID_RESULT
	// OutcomeInternal: a failure of the registry itself (a panic inside the library
	// was caught), or a call on a closed registry.
	OutcomeInternal Outcome = C.TG_OUTCOME_INTERNAL
	// OutcomeTimedOut: a dispatched call whose deadline passed before its tool
	// answered (`error: tool NAME timed out after N ms`); its answer, if it comes, is
	// dropped.
	OutcomeTimedOut Outcome = C.TG_OUTCOME_TIMED_OUT
	// OutcomeNotRun: a dispatched call that was not run though nothing is wrong with
	// it alone: the batch over its size limit, a call id used twice, or another call
	// of an AllOrNothing batch refused.
	OutcomeNotRun Outcome = C.TG_OUTCOME_NOT_RUN
	// OutcomeCancelled: a dispatched call cancelled (its Dispatch's ctx, or Close)
	// before it answered (`error: call cancelled`).
	OutcomeCancelled Outcome = C.TG_OUTCOME_CANCELLED
)

// String returns the outcome's name as every host spells it (the library's
// tg_outcome_name): "answered", "unknown_tool", "invalid_arguments",
// "handler_failed", "invalid_result", "internal", "timed_out", "not_run",
// "cancelled"; "Outcome(N)" for a value that is none of the constants.
func (o Outcome) String() string {
	if o >= 0 && int(o) < len(outcomeNames) && outcomeNames[o] != "" {
		return outcomeNames[o]
	}
	return "Outcome(" + strconv.Itoa(int(o)) + ")"
}

// outcomeNames holds the library's name of every outcome, by value ("" for a value
// that names none).
var outcomeNames = func() []string {
	// Values are small, explicit and never reused; 64 leaves room for many more.
	names := make([]string, 64)
	for i := range names {
		if p := C.tg_outcome_name(C.tg_outcome(i)); p != nil {
			names[i] = C.GoString(p)
		}
	}
	return names
}()

// nativeResult is the library's record of one call (a tg_result), shared by the
// copies of its Result and freed once none of them is reachable. It is immutable.
type nativeResult struct {
	ptr        *C.tg_result
	violations int
}

func newNativeResult(p *C.tg_result, violations int) *nativeResult {
	n := &nativeResult{ptr: p, violations: violations}
	runtime.AddCleanup(n, func(p *C.tg_result) { C.tg_result_free(p) }, p)
	return n
}

// notFromLibrary is the error of writing a Result the library did not make.
func notFromLibrary() *Error {
	return &Error{Kind: ErrNative, Msg: "the result was not made by the library (a Result from Registry.Call that ran, or was refused, there)"}
}

// Violations lists why the call was refused: for OutcomeInvalidArguments the
// violations of its arguments against the tool's parameters, for
// OutcomeInvalidResult those of the tool's answer against its output schema, each
// with its SchemaLocation, in the order the content lists them. nil for every other
// outcome, and for a Result that Registry.Call did not get from the library. Each
// call returns a new slice.
func (r Result) Violations() []ValidationError {
	n := r.native
	if n == nil || n.violations == 0 {
		return nil
	}
	o := C.tg_go_result_views(n.ptr)
	defer C.tg_go_views_free(o.views)
	if o.views == nil || int(o.count) != n.violations {
		// malloc failed; fail closed.
		return []ValidationError{{Path: "$", Msg: "invalid (the violations could not be listed)", Keyword: "internal"}}
	}
	out := copyViolations(o.views, int(o.count))
	runtime.KeepAlive(n) // the views point into the result
	return out
}

// JSON returns the item that answers the call in d's shape, compact JSON, the same
// bytes in every host:
//
//   - OpenAIChat: the tool message (role "tool", the call's id, the content);
//   - OpenAIResponses: a function_call_output item;
//   - Anthropic: a tool_result block ("is_error": true for a failure);
//   - MCP: a CallToolResult (structuredContent for a structured answer that is an
//     object; the violations of a refused call under _meta);
//   - Gemini: a functionResponse part (a structured answer as JSON).
//
// The error is an *Error: ErrInvalidOption for a d that is none of the Dialect
// constants, ErrNative for a Result that the library did not make (a zero Result, a
// call whose ctx was done before it ran, a call on a closed registry).
func (r Result) JSON(d Dialect) (string, error) {
	n := r.native
	if n == nil {
		return "", notFromLibrary()
	}
	o := C.tg_go_result_json(n.ptr, C.int32_t(d))
	runtime.KeepAlive(n)
	return takeText(o)
}

// ResultsMessage returns what answers all the calls of one model turn in d's shape,
// in the order of results, compact JSON:
//
//   - OpenAIChat: a JSON array of tool messages (append each to messages);
//   - OpenAIResponses: a JSON array of function_call_output items (append each to
//     input);
//   - Anthropic: one user message, {"role":"user","content":[...]};
//   - Gemini: one Content, {"role":"user","parts":[...]};
//   - MCP: a JSON array of JSON-RPC responses, one per call (send each as its own
//     message).
//
// No results is a turn without calls. Errors as for Result.JSON, naming the first
// result that the library did not make.
func ResultsMessage(d Dialect, results ...Result) (string, error) {
	// C pointers in Go memory: no Go pointer is handed to C.
	ptrs := make([]*C.tg_result, len(results))
	for i, r := range results {
		if r.native == nil {
			e := notFromLibrary()
			e.Msg = "results[" + strconv.Itoa(i) + "]: " + e.Msg
			return "", e
		}
		ptrs[i] = r.native.ptr
	}
	o := C.tg_go_results_message(C.int32_t(d), unsafe.SliceData(ptrs), C.size_t(len(ptrs)))
	runtime.KeepAlive(results) // and so every record it points to
	return takeText(o)
}

// takeText copies a text the library wrote and frees it, or returns its error.
func takeText(o C.tg_go_text_out) (string, error) {
	if o.status != C.TG_OK {
		return "", takeError(o.status, o.error, o.view)
	}
	s := gostring(o.data, o.len)
	C.tg_text_free(o.text)
	return s, nil
}

// ReadCalls returns the tool calls of response, a provider's response in d's shape,
// in the order the provider listed them (none, not nil, for a response without calls):
//
//   - OpenAIChat: a Chat Completions response (choices[0].message) or the assistant
//     message itself;
//   - OpenAIResponses: a response (its function_call output items) or its output
//     array;
//   - Anthropic: a Messages response or the assistant message (its tool_use blocks);
//   - Gemini: a GenerateContentResponse (candidates[0].content) or a Content (its
//     functionCall parts);
//   - MCP: a tools/call request, or a JSON array of JSON-RPC messages.
//
// Each call has the id its result must carry ("" for a Gemini call without one; for
// MCP the JSON-RPC id's JSON text, 7 or "req-1"), the tool's name as the provider
// sent it, and the argument bytes exactly as the provider sent them (the decoded
// arguments string of OpenAI, the bytes of the argument object elsewhere; "" when the
// call sent none, which Call reads as {}). The arguments are not checked here: Call
// validates them, and its Result answers the call.
//
// The response is read strictly (RFC 8259, duplicate keys refused). The error is an
// *Error wrapping ErrResponse, with the library's message naming the call at fault
// (`tool call 1 (openai-chat): missing "id"`), or ErrInvalidOption for a d that is
// none of the Dialect constants.
func ReadCalls(d Dialect, response []byte) ([]types.ToolCall, error) {
	p, n := cbytes(response)
	o := C.tg_go_calls_read(C.int32_t(d), p, n)
	runtime.KeepAlive(response)
	if o.status != C.TG_OK {
		return nil, takeError(o.status, o.error, o.view)
	}
	defer C.tg_go_calls_release(o.calls, o.views)
	count := int(o.count)
	calls := make([]types.ToolCall, count)
	if count == 0 {
		return calls, nil
	}
	if o.views == nil {
		return nil, &Error{Kind: ErrNative, Msg: "the calls could not be listed (out of memory)"}
	}
	views := unsafe.Slice(o.views, 3*count) // C memory, alive until the release
	for i := range calls {
		v := views[3*i : 3*i+3]
		calls[i] = types.ToolCall{
			ID:        gostring(v[0].ptr, v[0].len),
			Name:      gostring(v[1].ptr, v[1].len),
			Arguments: gostring(v[2].ptr, v[2].len),
		}
	}
	return calls, nil
}
