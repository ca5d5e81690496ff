// Package types holds the values an agent exchanges with a model provider about
// tools: a tool's definition, the model's call, and the message that answers it.
package types // import "toolgate/types"

import "encoding/json"

// ToolDef is a tool as the model sees it: its name, what it does, and the JSON Schema
// of its arguments (top-level type object); and, for a tool whose answers have a
// shape, the JSON Schema of its answer.
type ToolDef struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Parameters  json.RawMessage `json:"parameters"`
	// OutputSchema is the JSON Schema every answer of the tool must satisfy (any JSON
	// value may be its root, not only objects), or nil (empty, or JSON null) for a
	// tool whose answer is free text. A registry checks each answer against it: a
	// conforming answer is passed on unchanged, any other is refused.
	OutputSchema json.RawMessage `json:"output_schema,omitempty"`
}

// ToolCall is a model's request to run a tool: the call's id, the tool's name and the
// argument bytes exactly as the model wrote them (a JSON object, or "" for none).
type ToolCall struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

// Message is one chat message. A tool's answer has Role "tool" and the ToolCallID of
// the call it answers.
type Message struct {
	Role       string `json:"role"`
	Content    string `json:"content"`
	ToolCallID string `json:"tool_call_id,omitempty"`
	Name       string `json:"name,omitempty"`
}
