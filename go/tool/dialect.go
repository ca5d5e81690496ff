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
//
// Never what the provider would refuse: a dotted name (db.get_user) is written with
// each "." as "_" (db_get_user) for OpenAI, Anthropic and Gemini, and a Call by that
// spelling reaches the registered tool. Anything else the provider's rules find (a
// name no rewrite fixes, two tools under one spelling, for a strict registry a
// keyword outside the strict subset) is an *Error (ErrInvalidName or
// ErrInvalidSchema) whose message names each tool and rule:
//
//	definitions for gemini refused:
//	1st_read#: tool name "1st_read" must start with a letter or an underscore, then letters, digits, _ . : or -, at most 64 characters [tool-name]
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

// WithTargets makes every tool pass the lint of each target: Register refuses a tool
// one of them would reject (ErrInvalidSchema, every problem in the message), and
// DialectDefinitions of OpenAI (Anthropic) say "strict": true when OpenAIStrict
// (AnthropicStrict) is among them. A value that is none of the LintTarget constants
// makes NewRegistryOrError fail with ErrInvalidOption.
func WithTargets(targets ...LintTarget) Option {
	return func(o *registryOptions) {
		for _, t := range targets {
			if t < 0 || t >= 32 {
				// No such bit: the library refuses the highest one, naming the option.
				o.targets |= 1 << 31
				continue
			}
			o.targets |= C.uint32_t(1) << C.uint32_t(t)
		}
	}
}

// StrictConversion is a parameters schema converted to the form a target accepts.
type StrictConversion struct {
	// Schema is the converted schema, compact JSON.
	Schema string
	// Nullable lists the optional properties made required and nullable (pointers into
	// the original schema): the tool receives null for each when the model leaves it
	// out (OpenAI strict requires every property).
	Nullable []string `json:"nullable"`
	// Closed lists the objects closed with "additionalProperties": false.
	Closed []string `json:"closed"`
}

// StrictSchema converts one parameters schema (JSON) to the form target accepts,
// keeping what it means except for what StrictConversion reports. When no such form
// exists the error is an *Error (ErrInvalidSchema) whose message has one line per
// reason ("#POINTER: MESSAGE [RULE]") and whose Pointer and Keyword are the first
// reason's pointer and rule.
func StrictSchema(target LintTarget, schema []byte) (StrictConversion, error) {
	p, n := cbytes(schema)
	o := C.tg_go_strict_schema(C.int32_t(target), p, n)
	runtime.KeepAlive(schema)
	if o.status != C.TG_OK {
		return StrictConversion{}, takeError(o.status, o.error, o.view)
	}
	out := StrictConversion{Schema: gostring(o.schema_data, o.schema_len)}
	report := gostring(o.report_data, o.report_len)
	C.tg_text_free(o.schema)
	C.tg_text_free(o.report)
	if err := json.Unmarshal([]byte(report), &out); err != nil {
		return StrictConversion{}, err
	}
	return out, nil
}

// LintSchema returns every problem target finds in one parameters schema (JSON) on
// its own, before it is any tool's (no tool name to check; each problem's Tool is
// ""); empty when the provider accepts it. Text that is not JSON is one problem (rule
// "json").
func LintSchema(target LintTarget, schema []byte) ([]LintProblem, error) {
	p, n := cbytes(schema)
	o := C.tg_go_schema_lint(C.int32_t(target), p, n)
	runtime.KeepAlive(schema)
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
