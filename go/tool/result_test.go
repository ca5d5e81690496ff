package tool

// Output schemas, outcomes, violations with their schema locations, masked values,
// and the shared vectors of results (../../tests/results.json) and calls
// (../../tests/calls.json) that every host's tests read.

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"toolgate/types"
)

// fields is r without its link to the library's record, for comparing with ==.
func fields(r Result) Result {
	r.native = nil
	return r
}

// replying is a tool that answers with text, or fails with err when it is not nil.
func replying(name, params, output, text string, err error) Tool {
	return Func{
		Def: types.ToolDef{Name: name, Parameters: json.RawMessage(params), OutputSchema: json.RawMessage(output)},
		Fn: func(context.Context, json.RawMessage) (string, error) {
			return text, err
		},
	}
}

const forecastOutput = `{"type":"object","properties":{"high":{"type":"integer"},"sky":{"enum":["sun","rain"]}},"required":["high"],"additionalProperties":false}`

func TestOutputSchemaConformingAnswerIsStructured(t *testing.T) {
	r := newRegistry(t)
	const answer = `{"high": 21, "sky": "sun"}`
	r.MustRegister(replying("forecast", "", forecastOutput, answer, nil))
	res := r.Call(context.Background(), types.ToolCall{ID: "c1", Name: "forecast", Arguments: "{}"})
	want := Result{CallID: "c1", Name: "forecast", Content: answer, Outcome: OutcomeAnswered, Structured: true, Attempts: 1}
	if fields(res) != want {
		t.Fatalf("got %#v\nwant %#v", res, want)
	}
	if v := res.Violations(); v != nil {
		t.Errorf("violations of an answer: %#v", v)
	}
	// A tool without an output schema answers free text, not structured.
	r.MustRegister(replying("plain", "", "", "sunny", nil))
	res = r.Call(context.Background(), types.ToolCall{ID: "c2", Name: "plain"})
	if fields(res) != (Result{CallID: "c2", Name: "plain", Content: "sunny", Attempts: 1}) {
		t.Errorf("plain: %#v", res)
	}
	// Get reports the output schema the tool was registered with.
	got, ok := r.Get("forecast")
	if !ok || string(got.Definition().OutputSchema) != forecastOutput {
		t.Errorf("Get: %v %v", got, ok)
	}
}

// A Go tool's answer that its output schema refuses is not the content: the content
// is the library's refusal, InvalidResult holds the answer, Violations say why.
func TestOutputSchemaRefusesANonConformingGoAnswer(t *testing.T) {
	r := newRegistry(t)
	const answer = `{"high": "warm", "sky": "snow", "wnd": 3}`
	r.MustRegister(replying("forecast", "", forecastOutput, answer, nil))
	res := r.Call(context.Background(), types.ToolCall{ID: "c1", Name: "forecast"})
	const content = "error: tool forecast returned an invalid result:\n" +
		"$: unexpected property \"wnd\"\n$.high: expected integer, got string\n" +
		"$.sky: \"snow\" is not one of [\"sun\",\"rain\"]"
	want := Result{CallID: "c1", Name: "forecast", Content: content, IsError: true,
		Outcome: OutcomeInvalidResult, InvalidResult: answer, Attempts: 1}
	if fields(res) != want {
		t.Fatalf("got %#v\nwant %#v", res, want)
	}
	wantV := []ValidationError{
		{Path: "$", Msg: `unexpected property "wnd"`, Pointer: "/wnd", Keyword: "additionalProperties", SchemaLocation: "#/additionalProperties"},
		{Path: "$.high", Msg: "expected integer, got string", Pointer: "/high", Keyword: "type", SchemaLocation: "#/properties/high/type"},
		{Path: "$.sky", Msg: `"snow" is not one of ["sun","rain"]`, Pointer: "/sky", Keyword: "enum", SchemaLocation: "#/properties/sky/enum"},
	}
	if v := res.Violations(); !reflect.DeepEqual(v, wantV) {
		t.Errorf("violations:\n got %#v\nwant %#v", v, wantV)
	}
}

func TestOutputSchemaMalformedAnswer(t *testing.T) {
	for _, answer := range []string{"sunny", ""} {
		r2 := NewRegistry()
		r2.MustRegister(replying("forecast", "", forecastOutput, answer, nil))
		res := r2.Call(context.Background(), types.ToolCall{ID: "c", Name: "forecast"})
		r2.Close()
		if res.Outcome != OutcomeInvalidResult || !res.IsError || res.Structured || res.InvalidResult != answer ||
			!strings.HasPrefix(res.Content, "error: tool forecast returned an invalid result: malformed JSON at line 1 column 1: ") {
			t.Errorf("answer %q: %#v", answer, res)
		}
		v := res.Violations()
		if len(v) != 1 || v[0].Keyword != "json" || v[0].SchemaLocation != "#" || v[0].Path != "$" {
			t.Errorf("answer %q: violations %#v", answer, v)
		}
	}
}

// A tool's error is the handler's failure even when the tool has an output schema:
// nothing is checked, there is no invalid result.
func TestOutputSchemaHandlerError(t *testing.T) {
	r := newRegistry(t)
	r.MustRegister(replying("forecast", "", forecastOutput, "", errors.New("weather service unavailable")))
	res := r.Call(context.Background(), types.ToolCall{ID: "c1", Name: "forecast"})
	want := Result{CallID: "c1", Name: "forecast", Content: "error: weather service unavailable",
		IsError: true, Outcome: OutcomeHandlerFailed, Attempts: 1}
	if fields(res) != want || res.Violations() != nil {
		t.Fatalf("got %#v\nwant %#v", res, want)
	}
}

// An output schema that does not compile refuses the registration with the
// library's message, and nothing registered is lost: not the other tools, not a tool
// of the same name, not one tool of a batch.
func TestOutputSchemaThatDoesNotCompile(t *testing.T) {
	live := liveTools.Load()
	r := newRegistry(t)
	r.MustRegister(replying("forecast", "", `{"type":"integer"}`, "1", nil), replying("other", "", "", "x", nil))
	cases := []struct{ output, msg, pointer, keyword string }{
		{`{"type":"object","properties":{"high":{"type":"integr"}}}`,
			`invalid output schema for "forecast": #/properties/high/type: unknown type "integr" (expected null, boolean, object, array, number, string or integer)`,
			"/properties/high/type", "type"},
		{`{"format":"date"}`, `invalid output schema for "forecast": #/format: unsupported keyword "format"`, "/format", "format"},
		{`{"type":`, "", "", ""},
	}
	for _, c := range cases {
		for _, batch := range []bool{false, true} {
			bad := replying("forecast", "", c.output, "1", nil)
			var err error
			if batch {
				err = r.RegisterAll(replying("fresh", "", "", "x", nil), bad)
			} else {
				err = r.Register(bad)
			}
			var e *Error
			if !errors.As(err, &e) || !errors.Is(err, ErrInvalidSchema) {
				t.Fatalf("%s (batch %v): %#v", c.output, batch, err)
			}
			if c.msg != "" && (e.Msg != c.msg || e.Pointer != c.pointer || e.Keyword != c.keyword) {
				t.Errorf("%s (batch %v): %#v\nwant %q %q %q", c.output, batch, e, c.msg, c.pointer, c.keyword)
			}
			if !strings.HasPrefix(e.Msg, `invalid output schema for "forecast": `) {
				t.Errorf("%s (batch %v): %q", c.output, batch, e.Msg)
			}
		}
	}
	// A tool of the same name is refused as a duplicate before its output schema matters.
	if err := r.Register(replying("forecast", "", "", "x", nil)); !errors.Is(err, ErrDuplicate) {
		t.Errorf("duplicate: %v", err)
	}
	if got := r.Names(); !reflect.DeepEqual(got, []string{"forecast", "other"}) {
		t.Errorf("names after the refusals: %q", got)
	}
	if res := r.Call(context.Background(), types.ToolCall{Name: "forecast"}); res.Content != "1" || !res.Structured {
		t.Errorf("the registered tool changed: %#v", res)
	}
	if got, _ := r.Get("forecast"); string(got.Definition().OutputSchema) != `{"type":"integer"}` {
		t.Errorf("Get: %s", got.Definition().OutputSchema)
	}
	r.Close()
	if n := liveTools.Load(); n != live {
		t.Errorf("%d tool handles not released", n-live)
	}
}

// An output schema is compiled with the registry's options: the full profile's
// keywords are refused by a core registry and accepted by a full one; any root type.
func TestOutputSchemaUsesTheRegistryOptions(t *testing.T) {
	const output = `{"oneOf":[{"type":"integer"},{"type":"string"}]}`
	core := newRegistry(t)
	if err := core.Register(replying("a", "", output, "1", nil)); !errors.Is(err, ErrInvalidSchema) {
		t.Errorf("core profile: %v", err)
	}
	full := NewRegistry(WithProfile(ProfileFull))
	defer full.Close()
	full.MustRegister(replying("a", "", output, "1", nil), replying("b", "", output, "[1]", nil))
	if res := full.Call(context.Background(), types.ToolCall{Name: "a"}); res.Outcome != OutcomeAnswered || !res.Structured {
		t.Errorf("a: %#v", res)
	}
	res := full.Call(context.Background(), types.ToolCall{Name: "b"})
	if res.Outcome != OutcomeInvalidResult || len(res.Violations()) != 1 || res.Violations()[0].SchemaLocation != "#/oneOf" {
		t.Errorf("b: %#v %#v", res, res.Violations())
	}
	// JSON null, empty and white space are no output schema.
	for _, none := range []string{"null", "", "  "} {
		r := NewRegistry()
		r.MustRegister(replying("t", "", none, "free text", nil))
		if res := r.Call(context.Background(), types.ToolCall{Name: "t"}); res.Outcome != OutcomeAnswered || res.Structured {
			t.Errorf("output %q: %#v", none, res)
		}
		r.Close()
	}
}

func TestOutcomes(t *testing.T) {
	r := newRegistry(t)
	r.MustRegister(
		replying("ok", "", "", "fine", nil),
		replying("fails", "", "", "", errors.New("boom")),
		New("panics", "", "", func(context.Context, json.RawMessage) (string, error) { panic("x") }),
		replying("typed", `{"type":"object","properties":{"n":{"type":"integer"}}}`, `{"type":"integer"}`, `"one"`, nil),
	)
	ctx := context.Background()
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	cases := []struct {
		ctx     context.Context
		call    types.ToolCall
		outcome Outcome
		text    string
	}{
		{ctx, types.ToolCall{Name: "ok"}, OutcomeAnswered, "answered"},
		{ctx, types.ToolCall{Name: "nope"}, OutcomeUnknownTool, "unknown_tool"},
		{ctx, types.ToolCall{Name: "typed", Arguments: `{"n":"1"}`}, OutcomeInvalidArguments, "invalid_arguments"},
		{ctx, types.ToolCall{Name: "typed", Arguments: `{"n":`}, OutcomeInvalidArguments, "invalid_arguments"},
		{ctx, types.ToolCall{Name: "fails"}, OutcomeHandlerFailed, "handler_failed"},
		{ctx, types.ToolCall{Name: "panics"}, OutcomeHandlerFailed, "handler_failed"},
		{cancelled, types.ToolCall{Name: "ok"}, OutcomeHandlerFailed, "handler_failed"},
		{ctx, types.ToolCall{Name: "typed", Arguments: `{"n":1}`}, OutcomeInvalidResult, "invalid_result"},
	}
	for _, c := range cases {
		res := r.Call(c.ctx, c.call)
		if res.Outcome != c.outcome || res.IsError != (c.outcome != OutcomeAnswered) || res.Outcome.String() != c.text {
			t.Errorf("%s %s: %#v (%v)", c.call.Name, c.call.Arguments, res, res.Outcome)
		}
		if (c.outcome == OutcomeInvalidArguments || c.outcome == OutcomeInvalidResult) != (len(res.Violations()) > 0) {
			t.Errorf("%s %s: violations %#v", c.call.Name, c.call.Arguments, res.Violations())
		}
	}
	closed := NewRegistry()
	closed.Close()
	if res := closed.Call(ctx, types.ToolCall{Name: "ok"}); res.Outcome != OutcomeInternal || !res.IsError {
		t.Errorf("closed: %#v", res)
	}
	if OutcomeInternal.String() != "internal" || Outcome(99).String() != "Outcome(99)" {
		t.Errorf("String: %q %q", OutcomeInternal, Outcome(99))
	}
	// The constants are the library's numbers, in its order.
	if OutcomeAnswered != 0 || OutcomeInternal != 5 {
		t.Errorf("outcome numbers %d %d", OutcomeAnswered, OutcomeInternal)
	}
}

// Masked values keep what a model or a tool sent out of every message; paths,
// pointers, keywords, schema locations and the schema's own values stay.
func TestMaskedValues(t *testing.T) {
	const params = `{"type":"object","properties":{"unit":{"enum":["c","f"]}}}`
	for _, masked := range []bool{false, true} {
		r := NewRegistry(WithMaskedValues(masked))
		r.MustRegister(replying("forecast", params, forecastOutput, `{"high": 21, "sky": "snow"}`, nil))
		args := r.Call(context.Background(), types.ToolCall{Name: "forecast", Arguments: `{"unit":"kelvin"}`})
		answer := r.Call(context.Background(), types.ToolCall{Name: "forecast", Arguments: `{"unit":"c"}`})
		r.Close()
		quoted, word := `"kelvin"`, `"snow"`
		if masked {
			quoted, word = "value", "value"
		}
		if want := "error: invalid arguments for forecast:\n$.unit: " + quoted + ` is not one of ["c","f"]`; args.Content != want {
			t.Errorf("masked %v: arguments %q, want %q", masked, args.Content, want)
		}
		if want := "error: tool forecast returned an invalid result:\n$.sky: " + word + ` is not one of ["sun","rain"]`; answer.Content != want {
			t.Errorf("masked %v: answer %q, want %q", masked, answer.Content, want)
		}
		if v := answer.Violations(); len(v) != 1 || v[0].SchemaLocation != "#/properties/sky/enum" || v[0].Pointer != "/sky" {
			t.Errorf("masked %v: %#v", masked, v)
		}
		if answer.InvalidResult != `{"high": 21, "sky": "snow"}` {
			t.Errorf("masked %v: the refused answer is the host's to see: %q", masked, answer.InvalidResult)
		}
	}
	// The compile option masks too, in a registry (either one is enough) and in
	// CompileWith.
	r := NewRegistry(WithCompileOptions(CompileOptions{MaskedValues: true}))
	defer r.Close()
	r.MustRegister(replying("forecast", params, "", "", nil))
	if res := r.Call(context.Background(), types.ToolCall{Name: "forecast", Arguments: `{"unit":"kelvin"}`}); !strings.HasSuffix(res.Content, `$.unit: value is not one of ["c","f"]`) {
		t.Errorf("compile option in a registry: %q", res.Content)
	}
	s, err := CompileWith(json.RawMessage(params), CompileOptions{MaskedValues: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	want := []ValidationError{{Path: "$.unit", Msg: `value is not one of ["c","f"]`, Pointer: "/unit", Keyword: "enum", SchemaLocation: "#/properties/unit/enum"}}
	if got := s.ValidateJSON([]byte(`{"unit":"kelvin"}`)); !reflect.DeepEqual(got, want) {
		t.Errorf("CompileWith masked:\n got %#v\nwant %#v", got, want)
	}
}

// A Result the library did not make has no provider item; a Dialect that is none of
// the constants is an invalid option.
func TestResultJSONErrors(t *testing.T) {
	for _, res := range []Result{{}, {CallID: "1", Name: "x", Content: "hi"}} {
		if _, err := res.JSON(OpenAIChat); !errors.Is(err, ErrNative) {
			t.Errorf("JSON of %#v: %v", res, err)
		}
		if _, err := ResultsMessage(Anthropic, res); !errors.Is(err, ErrNative) || !strings.HasPrefix(err.Error(), "results[0]: ") {
			t.Errorf("ResultsMessage of %#v: %v", res, err)
		}
	}
	r := newRegistry(t)
	r.MustRegister(replying("ok", "", "", "fine", nil))
	res := r.Call(context.Background(), types.ToolCall{ID: "1", Name: "ok"})
	var e *Error
	if _, err := res.JSON(Dialect(99)); !errors.As(err, &e) || !errors.Is(err, ErrInvalidOption) || e.Msg == "" {
		t.Errorf("JSON in dialect 99: %#v", err)
	}
	if _, err := ResultsMessage(Dialect(-1), res); !errors.Is(err, ErrInvalidOption) {
		t.Errorf("ResultsMessage in dialect -1: %v", err)
	}
	if _, err := ReadCalls(Dialect(99), []byte(`{}`)); !errors.Is(err, ErrInvalidOption) {
		t.Errorf("ReadCalls in dialect 99: %v", err)
	}
	// A copy of a Result writes the same item, after the registry is gone.
	cp := res
	r.Close()
	if got, err := cp.JSON(OpenAIChat); err != nil || got != `{"role":"tool","tool_call_id":"1","content":"fine"}` {
		t.Errorf("copy after Close: %s %v", got, err)
	}
	if _, err := ReadCalls(OpenAIChat, nil); !errors.Is(err, ErrResponse) {
		t.Errorf("ReadCalls of nothing: %v", err)
	}
}

func readShared(t *testing.T, name string, v any) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "tests", name))
	if err != nil {
		t.Fatalf("the shared vectors: %v", err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
}

// sharedResult is a result of ../../tests/results.json.
type sharedResult struct {
	CallID     string `json:"call_id"`
	Name       string `json:"name"`
	Content    string `json:"content"`
	IsError    bool   `json:"is_error"`
	Structured bool   `json:"structured"`
	Violations []struct {
		Pointer        string `json:"pointer"`
		Keyword        string `json:"keyword"`
		Message        string `json:"message"`
		SchemaLocation string `json:"schema_location"`
	} `json:"violations"`
}

// The schemas and texts that reproduce the vectors' refusals.
const (
	refusingParameters = `{"type":"object","properties":{"city":{"type":"string"},"days":{"type":"integer"}},"required":["city"]}`
	refusingArguments  = `{"days":"3"}`
	tempOutput         = `{"type":"object","properties":{"temp":{"type":"number"}}}`
	tempAnswer         = `{"temp":"21"}`
)

// makeResult makes, by a real registry call, the result that v describes.
func makeResult(t *testing.T, v sharedResult) Result {
	t.Helper()
	r := newRegistry(t)
	args := "{}"
	switch {
	case strings.HasPrefix(v.Content, `error: unknown tool "`):
		// Register the tools the content lists as available.
		_, list, ok := strings.Cut(v.Content, "available tools: ")
		if !ok {
			t.Fatalf("unknown-tool vector without its list: %q", v.Content)
		}
		list, _, _ = strings.Cut(list, ";")
		for _, name := range strings.Split(list, ", ") {
			r.MustRegister(replying(name, "", "", "", nil))
		}
	case strings.HasPrefix(v.Content, "error: invalid arguments for "):
		r.MustRegister(replying(v.Name, refusingParameters, "", "", nil))
		args = refusingArguments
	case strings.Contains(v.Content, "returned an invalid result:"):
		r.MustRegister(replying(v.Name, "", tempOutput, tempAnswer, nil))
	case v.IsError:
		// A tool's error: the content is "error: " and its message.
		r.MustRegister(replying(v.Name, "", "", "", errors.New(strings.TrimPrefix(v.Content, "error: "))))
	case v.Structured:
		r.MustRegister(replying(v.Name, "", "{}", v.Content, nil))
	default:
		r.MustRegister(replying(v.Name, "", "", v.Content, nil))
	}
	return r.Call(context.Background(), types.ToolCall{ID: v.CallID, Name: v.Name, Arguments: args})
}

// checkResult checks every field of res against the vector's.
func checkResult(t *testing.T, what string, res Result, v sharedResult) {
	t.Helper()
	if res.CallID != v.CallID || res.Name != v.Name || res.Content != v.Content || res.IsError != v.IsError ||
		res.Structured != v.Structured || (res.Outcome != OutcomeAnswered) != v.IsError {
		t.Errorf("%s: %#v\nwant %+v", what, res, v)
	}
	got := res.Violations()
	if len(got) != len(v.Violations) {
		t.Errorf("%s: %d violations, want %d", what, len(got), len(v.Violations))
		return
	}
	for i, w := range v.Violations {
		g := got[i]
		if g.Pointer != w.Pointer || g.Keyword != w.Keyword || g.Msg != w.Message || g.SchemaLocation != w.SchemaLocation {
			t.Errorf("%s: violation %d %#v, want %+v", what, i, g, w)
		}
	}
}

// TestSharedResults runs ../../tests/results.json: each result made by a real call,
// its fields, its item in every dialect, and what answers each turn, byte for byte.
func TestSharedResults(t *testing.T) {
	var file struct {
		Results []struct {
			Case     string            `json:"case"`
			Result   sharedResult      `json:"result"`
			Expected map[string]string `json:"expected"`
		} `json:"results"`
		Messages []struct {
			Case     string            `json:"case"`
			Results  []sharedResult    `json:"results"`
			Expected map[string]string `json:"expected"`
		} `json:"messages"`
	}
	readShared(t, "results.json", &file)
	if len(file.Results) == 0 || len(file.Messages) == 0 {
		t.Fatalf("results.json: %d results, %d turns", len(file.Results), len(file.Messages))
	}
	for _, c := range file.Results {
		res := makeResult(t, c.Result)
		checkResult(t, c.Case, res, c.Result)
		if len(c.Expected) != len(dialectNames) {
			t.Errorf("%s: %d dialects expected, want every one", c.Case, len(c.Expected))
		}
		for name, want := range c.Expected {
			d, ok := dialectNames[name]
			if !ok {
				t.Fatalf("%s: unknown dialect %q", c.Case, name)
			}
			got, err := res.JSON(d)
			if err != nil || got != want {
				t.Errorf("%s, %s:\n got %s (%v)\nwant %s", c.Case, name, got, err, want)
			}
		}
	}
	for _, turn := range file.Messages {
		results := []Result{}
		for _, v := range turn.Results {
			res := makeResult(t, v)
			checkResult(t, turn.Case, res, v)
			results = append(results, res)
		}
		for name, want := range turn.Expected {
			got, err := ResultsMessage(dialectNames[name], results...)
			if err != nil || got != want {
				t.Errorf("%s, %s:\n got %s (%v)\nwant %s", turn.Case, name, got, err, want)
			}
		}
	}
}

// TestSharedCalls runs ../../tests/calls.json: each response's calls, with their id,
// name and argument bytes, or ErrResponse and the library's message.
func TestSharedCalls(t *testing.T) {
	var file struct {
		Cases []struct {
			Case     string           `json:"case"`
			Dialect  string           `json:"dialect"`
			Response string           `json:"response"`
			Calls    []types.ToolCall `json:"calls"`
			Error    *struct {
				Message string `json:"message"`
			} `json:"error"`
		} `json:"cases"`
	}
	readShared(t, "calls.json", &file)
	if len(file.Cases) == 0 {
		t.Fatal("calls.json has no cases")
	}
	for _, c := range file.Cases {
		d, ok := dialectNames[c.Dialect]
		if !ok {
			t.Fatalf("%s: unknown dialect %q", c.Case, c.Dialect)
		}
		got, err := ReadCalls(d, []byte(c.Response))
		if c.Error != nil {
			var e *Error
			if !errors.As(err, &e) || !errors.Is(err, ErrResponse) || e.Msg != c.Error.Message || got != nil {
				t.Errorf("%s: %#v %v\nwant %q", c.Case, got, err, c.Error.Message)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", c.Case, err)
			continue
		}
		if c.Calls == nil {
			t.Fatalf("%s: neither calls nor error", c.Case)
		}
		if !reflect.DeepEqual(got, c.Calls) {
			t.Errorf("%s:\n got %#v\nwant %#v", c.Case, got, c.Calls)
		}
	}
}

// The loop a host runs: read the calls of a response, call each, answer them all.
func TestReadCallsThenAnswer(t *testing.T) {
	r := newRegistry(t)
	r.MustRegister(replying("get_weather", refusingParameters, tempOutput, `{"temp":21}`, nil))
	response := []byte(`{"role":"assistant","content":[{"type":"tool_use","id":"toolu_1","name":"get_weather","input":{"city":"Paris"}},` +
		`{"type":"tool_use","id":"toolu_2","name":"get_weather","input":{"days":"3"}}]}`)
	calls, err := ReadCalls(Anthropic, response)
	if err != nil {
		t.Fatal(err)
	}
	results := make([]Result, len(calls))
	for i, c := range calls {
		results[i] = r.Call(context.Background(), c)
	}
	got, err := ResultsMessage(Anthropic, results...)
	want := `{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":"{\"temp\":21}"},` +
		`{"type":"tool_result","tool_use_id":"toolu_2","content":"error: invalid arguments for get_weather:\n$: missing required property \"city\"\n$.days: expected integer, got string","is_error":true}]}`
	if err != nil || got != want {
		t.Errorf("turn:\n got %s (%v)\nwant %s", got, err, want)
	}
	if !results[0].Structured || results[1].Outcome != OutcomeInvalidArguments {
		t.Errorf("results %#v", results)
	}
}
