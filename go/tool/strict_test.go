package tool

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"toolgate/types"
)

// registryText is one case of ../../tests/registry_texts.json, the texts every host
// checks: a cancelled call, refused definitions, a strict conversion and its refusal,
// an answer its output schema refuses and an output schema that does not compile.
type registryText struct {
	What      string          `json:"what"`
	Content   string          `json:"content"`
	Dialect   string          `json:"dialect"`
	Policy    string          `json:"policy"`
	Tools     []registryTool  `json:"tools"`
	Kind      string          `json:"kind"`
	Pointer   string          `json:"pointer"`
	Keyword   string          `json:"keyword"`
	Message   string          `json:"message"`
	Target    string          `json:"target"`
	Schema    json.RawMessage `json:"schema"`
	Converted string          `json:"converted"`
	Nullable  []string        `json:"nullable"`
	Closed    []string        `json:"closed"`
	// The output-schema cases.
	Tool            string          `json:"tool"`
	OutputSchema    json.RawMessage `json:"output_schema"`
	Answer          string          `json:"answer"`
	Masked          bool            `json:"masked"`
	SchemaLocations []string        `json:"schema_locations"`
}

type registryTool struct {
	Name       string          `json:"name"`
	Parameters json.RawMessage `json:"parameters"`
}

func registryTextsBytes(t *testing.T) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "tests", "registry_texts.json"))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func registryTexts(t *testing.T) []registryText {
	t.Helper()
	var cases []registryText
	if err := json.Unmarshal(registryTextsBytes(t), &cases); err != nil {
		t.Fatal(err)
	}
	return cases
}

var dialectNames = map[string]Dialect{
	"openai-chat": OpenAIChat, "openai-responses": OpenAIResponses, "anthropic": Anthropic,
	"mcp": MCP, "gemini": Gemini,
}

var targetNames = map[string]LintTarget{
	"openai-strict": OpenAIStrict, "anthropic-strict": AnthropicStrict, "gemini": GeminiParameters,
}

// TestRegistryTexts checks the shared texts this binding can reach (its registries
// take default-policy names only, so the dotted cases are the other hosts').
func TestRegistryTexts(t *testing.T) {
	checked := 0
	for _, c := range registryTexts(t) {
		switch {
		case c.What == "call_cancelled":
			ran := false
			r := NewRegistry()
			defer r.Close()
			r.MustRegister(New("ping", "", "", func(context.Context, json.RawMessage) (string, error) {
				ran = true
				return "pong", nil
			}))
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			res := r.Call(ctx, types.ToolCall{ID: "c1", Name: "ping", Arguments: "{}"})
			if res.Content != c.Content || !res.IsError || ran {
				t.Errorf("cancelled call: %+v (ran %v), want %q", res, ran, c.Content)
			}
			checked++
		case c.What == "definitions_refused" && c.Policy == "default":
			r := NewRegistry()
			defer r.Close()
			for _, tool := range c.Tools {
				if err := r.Register(New(tool.Name, "", string(tool.Parameters), nil)); err != nil {
					t.Fatal(err)
				}
			}
			_, _, err := r.DialectDefinitions(dialectNames[c.Dialect])
			var e *Error
			if !errors.As(err, &e) || e.Msg != c.Message || e.Pointer != c.Pointer || e.Keyword != c.Keyword {
				t.Errorf("%s definitions: %#v, want %q", c.Dialect, err, c.Message)
			}
			want := ErrInvalidSchema
			if c.Kind == "name" {
				want = ErrInvalidName
			}
			if !errors.Is(err, want) {
				t.Errorf("%s definitions: %v is not %v", c.Dialect, err, want)
			}
			checked++
		case c.What == "strict_refused":
			_, err := StrictSchema(targetNames[c.Target], c.Schema)
			var e *Error
			if !errors.As(err, &e) || e.Msg != c.Message || e.Pointer != c.Pointer || e.Keyword != c.Keyword {
				t.Errorf("strict refusal: %#v, want %q", err, c.Message)
			}
			checked++
		case c.What == "strict_converted":
			got, err := StrictSchema(targetNames[c.Target], c.Schema)
			if err != nil {
				t.Fatal(err)
			}
			if got.Schema != c.Converted || strings.Join(got.Nullable, ",") != strings.Join(c.Nullable, ",") ||
				strings.Join(got.Closed, ",") != strings.Join(c.Closed, ",") {
				t.Errorf("strict conversion: %+v, want %s %v %v", got, c.Converted, c.Nullable, c.Closed)
			}
			checked++
		case c.What == "invalid_result":
			r := NewRegistry(WithMaskedValues(c.Masked))
			defer r.Close()
			r.MustRegister(Func{
				Def: types.ToolDef{Name: c.Tool, OutputSchema: c.OutputSchema},
				Fn:  func(context.Context, json.RawMessage) (string, error) { return c.Answer, nil },
			})
			res := r.Call(context.Background(), types.ToolCall{ID: "c1", Name: c.Tool, Arguments: "{}"})
			if res.Content != c.Content || res.Outcome != OutcomeInvalidResult || !res.IsError || res.InvalidResult != c.Answer {
				t.Errorf("invalid result %q: %#v\nwant %q", c.Answer, res, c.Content)
			}
			var locations []string
			for _, v := range res.Violations() {
				locations = append(locations, v.SchemaLocation)
			}
			if len(c.SchemaLocations) == 0 || !reflect.DeepEqual(locations, c.SchemaLocations) {
				t.Errorf("invalid result %q: schema locations %q, want %q", c.Answer, locations, c.SchemaLocations)
			}
			checked++
		case c.What == "output_schema_refused":
			r := NewRegistry()
			defer r.Close()
			err := r.Register(Func{Def: types.ToolDef{Name: c.Tool, OutputSchema: c.OutputSchema}})
			var e *Error
			if !errors.As(err, &e) || e.Msg != c.Message || e.Pointer != c.Pointer || e.Keyword != c.Keyword {
				t.Errorf("output schema refused: %#v, want %q", err, c.Message)
			}
			if c.Kind != "schema" || !errors.Is(err, ErrInvalidSchema) {
				t.Errorf("output schema refused: kind %q, %v", c.Kind, err)
			}
			if names := r.Names(); len(names) != 0 {
				t.Errorf("output schema refused, yet registered: %q", names)
			}
			checked++
		}
	}
	// Every case but the dotted names' (other hosts') and the dispatcher's
	// (TestDispatchVectors checks those), and at least one of each kind.
	want := 0
	kinds := map[string]bool{}
	for _, c := range registryTexts(t) {
		if c.What == "dispatch" {
			continue
		}
		if c.Policy == "" || c.Policy == "default" {
			want++
			kinds[c.What] = true
		}
	}
	if checked != want || len(kinds) != 6 {
		t.Errorf("checked %d cases of %d kinds, want %d of 6", checked, len(kinds), want)
	}
}

// A ctx past its deadline is as done as a cancelled one; a live ctx runs the tool.
func TestCallWithExpiredContextDoesNotRun(t *testing.T) {
	runs := 0
	r := NewRegistry()
	defer r.Close()
	r.MustRegister(New("ping", "", "", func(context.Context, json.RawMessage) (string, error) {
		runs++
		return "pong", nil
	}))
	ctx, cancel := context.WithDeadline(context.Background(), time.Unix(1, 0))
	defer cancel()
	res := r.Call(ctx, types.ToolCall{ID: "c1", Name: "ping"})
	if res.Content != "error: call cancelled" || !res.IsError || runs != 0 {
		t.Errorf("expired ctx: %+v, runs %d", res, runs)
	}
	live, stop := context.WithCancel(context.Background())
	defer stop()
	res = r.Call(live, types.ToolCall{ID: "c2", Name: "ping"})
	if res.Content != "pong" || runs != 1 {
		t.Errorf("live ctx: %+v, runs %d", res, runs)
	}
}

func TestLintSchemaNamesNoTool(t *testing.T) {
	problems, err := LintSchema(OpenAIStrict, []byte(`{"type":"object","properties":{"q":{"type":"string"}},"required":["q"]}`))
	if err != nil {
		t.Fatal(err)
	}
	want := LintProblem{Tool: "", Pointer: "", Rule: "additional-properties", Message: `an object must set "additionalProperties": false`}
	if len(problems) != 1 || problems[0] != want {
		t.Errorf("got %+v", problems)
	}
	problems, err = LintSchema(AnthropicStrict, []byte(`{"type":`))
	if err != nil || len(problems) != 1 || problems[0].Rule != "json" {
		t.Errorf("not JSON: %v %+v", err, problems)
	}
	if _, err := LintSchema(LintTarget(9), []byte(`{}`)); !errors.Is(err, ErrInvalidOption) {
		t.Errorf("unknown target: %v", err)
	}
}

func TestWithTargetsRefusesAndMarksStrict(t *testing.T) {
	r := NewRegistry(WithTargets(OpenAIStrict))
	defer r.Close()
	err := r.Register(New("open", "", `{"type":"object"}`, nil))
	var e *Error
	if !errors.As(err, &e) || !errors.Is(err, ErrInvalidSchema) ||
		e.Msg != "tool \"open\" is refused by openai-strict:\nopen#: an object must set \"additionalProperties\": false [additional-properties]" {
		t.Fatalf("open schema under openai-strict: %#v", err)
	}
	if err := r.Register(New("closed", "", `{"type":"object","properties":{},"additionalProperties":false}`, nil)); err != nil {
		t.Fatal(err)
	}
	defs, _, err := r.DialectDefinitions(OpenAIChat)
	if err != nil || !strings.HasSuffix(defs, `"strict":true}}]`) {
		t.Errorf("definitions: %v %s", err, defs)
	}
	if _, err := NewRegistryOrError(WithTargets(LintTarget(40))); !errors.Is(err, ErrInvalidOption) {
		t.Errorf("unknown target: %v", err)
	}
}
