package tool

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"testing"
)

const searchSchema = `{"type":"object","properties":{"q":{"type":"string"}}}`

func searchRegistry(t *testing.T) *Registry {
	t.Helper()
	r := NewRegistry()
	t.Cleanup(func() { r.Close() })
	if err := r.Register(New("search", "Search", searchSchema, nil)); err != nil {
		t.Fatal(err)
	}
	return r
}

func TestDialectDefinitionsExactBytes(t *testing.T) {
	r := searchRegistry(t)
	want := map[Dialect]string{
		OpenAIChat:      `[{"type":"function","function":{"name":"search","description":"Search","parameters":` + searchSchema + `}}]`,
		OpenAIResponses: `[{"type":"function","name":"search","description":"Search","parameters":` + searchSchema + `}]`,
		Anthropic:       `[{"name":"search","description":"Search","input_schema":` + searchSchema + `}]`,
		MCP:             `[{"name":"search","description":"Search","inputSchema":` + searchSchema + `,"annotations":{"idempotentHint":false}}]`,
		Gemini:          `{"functionDeclarations":[{"name":"search","description":"Search","parametersJsonSchema":` + searchSchema + `}]}`,
	}
	for d, w := range want {
		defs, fp, err := r.DialectDefinitions(d)
		if err != nil {
			t.Fatalf("dialect %d: %v", d, err)
		}
		if defs != w {
			t.Errorf("dialect %d:\n got %s\nwant %s", d, defs, w)
		}
		sum := sha256.Sum256([]byte(defs))
		if fp != hex.EncodeToString(sum[:]) {
			t.Errorf("dialect %d: fingerprint %s is not the SHA-256 of the bytes", d, fp)
		}
	}
}

func TestLint(t *testing.T) {
	r := searchRegistry(t)
	problems, err := r.Lint(OpenAIStrict)
	if err != nil {
		t.Fatal(err)
	}
	want := []LintProblem{
		{Tool: "search", Pointer: "", Rule: "additional-properties", Message: `an object must set "additionalProperties": false`},
		{Tool: "search", Pointer: "/properties/q", Rule: "required-all", Message: `property "q" must be listed in "required" (to keep it optional, make it nullable)`},
	}
	if len(problems) != len(want) {
		t.Fatalf("got %+v", problems)
	}
	for i := range want {
		if problems[i] != want[i] {
			t.Errorf("problem %d: got %+v want %+v", i, problems[i], want[i])
		}
	}
	if p, err := r.Lint(GeminiParameters); err != nil || len(p) != 0 {
		t.Errorf("gemini: %v %+v", err, p)
	}
	if _, err := r.Lint(LintTarget(7)); err == nil {
		t.Error("an unknown target is refused")
	}
	r.Close()
	if _, _, err := r.DialectDefinitions(MCP); !errors.Is(err, ErrClosed) {
		t.Errorf("closed registry: %v", err)
	}
}
