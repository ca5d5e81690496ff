package tool

/*
#include "tg_go.h"
*/
import "C"

import (
	"encoding/json"
	"runtime"
)

// Dialect is a provider's shape for a tool list.
type Dialect int32

const (
	// OpenAIChat: [{"type":"function","function":{"name","description","parameters"}}].
	OpenAIChat Dialect = C.TG_DIALECT_OPENAI_CHAT
	// OpenAIResponses: [{"type":"function","name","description","parameters"}].
	OpenAIResponses Dialect = C.TG_DIALECT_OPENAI_RESPONSES
	// Anthropic: [{"name","description","input_schema"}].
	Anthropic Dialect = C.TG_DIALECT_ANTHROPIC
	// MCP: the tools array of a tools/list result.
	MCP Dialect = C.TG_DIALECT_MCP
	// Gemini: {"functionDeclarations":[{"name","description","parametersJsonSchema"}]}.
	Gemini Dialect = C.TG_DIALECT_GEMINI
)

// LintTarget is a provider mode that refuses schemas.
type LintTarget int32

const (
	// OpenAIStrict: OpenAI function calling with "strict": true.
	OpenAIStrict LintTarget = C.TG_LINT_OPENAI_STRICT
	// AnthropicStrict: Anthropic strict tool use.
	AnthropicStrict LintTarget = C.TG_LINT_ANTHROPIC_STRICT
	// GeminiParameters: Gemini's parameters, the OpenAPI 3.0 subset.
	GeminiParameters LintTarget = C.TG_LINT_GEMINI
)

// LintProblem is one problem a provider would refuse a tool for: the tool, where in
// its parameters (RFC 6901, "" for the root or the tool itself), the rule's name and
// what to change.
type LintProblem struct {
	Tool    string `json:"tool"`
	Pointer string `json:"pointer"`
	Rule    string `json:"rule"`
	Message string `json:"message"`
}

// DialectDefinitions returns the tools in the provider's shape, sorted by name and
// byte-stable, and the SHA-256 of those bytes (64 hex digits) to key a prompt cache
// with. Computed once per change of the tool set.
func (r *Registry) DialectDefinitions(d Dialect) (definitions string, fingerprint string, err error) {
	if r == nil || !r.g.acquire() {
		return "", "", closedError()
	}
	o := C.tg_go_dialect_definitions(r.ptr, C.int32_t(d))
	r.g.release()
	runtime.KeepAlive(r)
	if o.status != C.TG_OK {
		return "", "", takeError(o.status, o.error, o.view)
	}
	definitions = gostring(o.data, o.len)
	fingerprint = gostring(o.fingerprint_data, o.fingerprint_len)
	C.tg_text_free(o.text)
	C.tg_text_free(o.fingerprint)
	return definitions, fingerprint, nil
}

// Lint returns every problem the target finds in the registered tools, sorted by
// tool, pointer, rule and message; empty when the provider accepts them all.
func (r *Registry) Lint(t LintTarget) ([]LintProblem, error) {
	if r == nil || !r.g.acquire() {
		return nil, closedError()
	}
	o := C.tg_go_lint(r.ptr, C.int32_t(t))
	r.g.release()
	runtime.KeepAlive(r)
	if o.status != C.TG_OK {
		return nil, takeError(o.status, o.error, o.view)
	}
	text := gostring(o.data, o.len)
	C.tg_text_free(o.text)
	problems := []LintProblem{}
	if err := json.Unmarshal([]byte(text), &problems); err != nil {
		return nil, err
	}
	return problems, nil
}
