package tool

// The get_weather worked example's six behaviours, by name, each with every check it
// promises: registration rules, sorted definitions, calls that never panic, the
// hand-worked invalid call, the validate table and the compile refusals.

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"sync"
	"testing"

	"toolgate/types"
)

const weatherSchema = `{"type": "object",
 "properties": {"city": {"type": "string", "minLength": 1},
                "days": {"type": "integer", "minimum": 1, "maximum": 7},
                "unit": {"enum": ["c", "f"]}},
 "required": ["city"], "additionalProperties": false}`

const handWorkedText = "error: invalid arguments for get_weather:\n" +
	"$: missing required property \"city\"\n" +
	"$: unexpected property \"country\"\n" +
	"$.days: expected integer, got string\n" +
	"$.unit: \"kelvin\" is not one of [\"c\",\"f\"]"

// recorder is a tool that records the exact argument bytes of every run.
type recorder struct {
	mu   sync.Mutex
	runs []string
}

func (rec *recorder) fn(answer string) func(context.Context, json.RawMessage) (string, error) {
	return func(_ context.Context, args json.RawMessage) (string, error) {
		rec.mu.Lock()
		rec.runs = append(rec.runs, string(args))
		rec.mu.Unlock()
		return answer, nil
	}
}

func (rec *recorder) got() []string {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	return append([]string(nil), rec.runs...)
}

func newRegistry(t testing.TB) *Registry {
	t.Helper()
	r := NewRegistry()
	t.Cleanup(func() { r.Close() })
	return r
}

func compile(t testing.TB, schema string) *Schema {
	t.Helper()
	s, err := Compile(json.RawMessage(schema))
	if err != nil {
		t.Fatalf("Compile(%s): %v", schema, err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func lines(errs []ValidationError) []string {
	out := []string{}
	for _, e := range errs {
		out = append(out, e.Error())
	}
	return out
}

func TestHandWorkedExample(t *testing.T) {
	// The validator: the four errors in order, with their paths and messages.
	s := compile(t, weatherSchema)
	errs := s.ValidateJSON([]byte(`{"days": "3", "unit": "kelvin", "country": "FR"}`))
	want := []ValidationError{
		{Path: "$", Msg: `missing required property "city"`, Pointer: "/city", Keyword: "required", SchemaLocation: "#/required"},
		{Path: "$", Msg: `unexpected property "country"`, Pointer: "/country", Keyword: "additionalProperties", SchemaLocation: "#/additionalProperties"},
		{Path: "$.days", Msg: "expected integer, got string", Pointer: "/days", Keyword: "type", SchemaLocation: "#/properties/days/type"},
		{Path: "$.unit", Msg: `"kelvin" is not one of ["c","f"]`, Pointer: "/unit", Keyword: "enum", SchemaLocation: "#/properties/unit/enum"},
	}
	if !reflect.DeepEqual(errs, want) {
		t.Fatalf("ValidateJSON:\n got %#v\nwant %#v", errs, want)
	}
	if got := strings.Join(lines(errs), "\n"); "error: invalid arguments for get_weather:\n"+got != handWorkedText {
		t.Fatalf("Error() lines:\n%s", got)
	}

	// The registry: the exact tool message, and the tool does not run.
	rec := &recorder{}
	r := newRegistry(t)
	r.MustRegister(New("get_weather", "Current weather for a city", weatherSchema, rec.fn("sunny")))
	res := r.Call(context.Background(), types.ToolCall{ID: "call_1", Name: "get_weather",
		Arguments: `{"days": "3", "unit": "kelvin", "country": "FR"}`})
	wantRes := Result{CallID: "call_1", Name: "get_weather", Content: handWorkedText, IsError: true,
		Outcome: OutcomeInvalidArguments}
	if fields(res) != wantRes {
		t.Fatalf("Call:\n got %#v\nwant %#v", res, wantRes)
	}
	if v := res.Violations(); !reflect.DeepEqual(v, want) {
		t.Fatalf("Call's violations:\n got %#v\nwant %#v", v, want)
	}
	if m := res.Message(); m != (types.Message{Role: "tool", Content: handWorkedText, ToolCallID: "call_1"}) {
		t.Fatalf("Message() = %#v", m)
	}
	b, _ := json.Marshal(res.Message())
	if want := `{"role":"tool","content":` + mustJSON(handWorkedText) + `,"tool_call_id":"call_1"}`; string(b) != want {
		t.Fatalf("Message JSON %s, want %s", b, want)
	}
	if runs := rec.got(); len(runs) != 0 {
		t.Fatalf("the tool ran on invalid arguments: %q", runs)
	}

	// The corrected call passes every rule and runs once, with its bytes unchanged.
	const corrected = `{"city":"Paris","days":3}`
	if errs := s.ValidateJSON([]byte(corrected)); errs != nil {
		t.Fatalf("corrected call refused: %v", errs)
	}
	res = r.Call(context.Background(), types.ToolCall{ID: "call_2", Name: "get_weather", Arguments: corrected})
	if fields(res) != (Result{CallID: "call_2", Name: "get_weather", Content: "sunny", Attempts: 1}) {
		t.Fatalf("corrected Call = %#v", res)
	}
	if runs := rec.got(); !reflect.DeepEqual(runs, []string{corrected}) {
		t.Fatalf("runs = %q, want exactly one with %q", runs, corrected)
	}
	// Whitespace and key order are the model's: still passed unchanged.
	const spaced = "{ \"days\" : 7 ,\n \"city\":\"Paris\" }"
	r.Call(context.Background(), types.ToolCall{ID: "call_3", Name: "get_weather", Arguments: spaced})
	if runs := rec.got(); len(runs) != 2 || runs[1] != spaced {
		t.Fatalf("runs = %q", runs)
	}
}

func mustJSON(s string) string {
	b, err := json.Marshal(s)
	if err != nil {
		panic(err)
	}
	return string(b)
}

func TestValidateTable(t *testing.T) {
	rows := []struct {
		schema, instance string
		want             []string
	}{
		// integer and number
		{`{"type":"integer"}`, `3`, nil},
		{`{"type":"integer"}`, `3.0`, nil},
		{`{"type":"integer"}`, `1e2`, nil},
		{`{"type":"integer"}`, `3.5`, []string{"$: expected integer, got number"}},
		{`{"type":"integer"}`, `true`, []string{"$: expected integer, got boolean"}},
		{`{"type":"number"}`, `3`, nil},
		{`{"type":"number"}`, `false`, []string{"$: expected number, got boolean"}},
		{`{"type":"number"}`, `"3"`, []string{"$: expected number, got string"}},
		// unions
		{`{"type":["string","null"]}`, `null`, nil},
		{`{"type":["string","null"]}`, `1`, []string{"$: expected string or null, got integer"}},
		{`{"type":["string","number","null"]}`, `[]`, []string{"$: expected string, number or null, got array"}},
		// inclusive bounds
		{`{"minimum":1,"maximum":7}`, `1`, nil},
		{`{"minimum":1,"maximum":7}`, `7`, nil},
		{`{"minimum":1,"maximum":7}`, `0`, []string{"$: 0 is less than the minimum 1"}},
		{`{"minimum":1,"maximum":7}`, `7.5`, []string{"$: 7.5 is greater than the maximum 7"}},
		{`{"type":"object","properties":{"days":{"type":"integer","minimum":1,"maximum":7}}}`, `{"days":1}`, nil},
		// length in characters
		{`{"maxLength":5}`, `"héllo"`, nil},
		{`{"maxLength":4}`, `"héllo"`, []string{"$: expected at most 4 characters, got 5"}},
		{`{"minLength":1}`, `""`, []string{"$: expected at least 1 character, got 0"}},
		{`{"maxLength":1}`, `"\ud83d\ude00"`, nil},
		// unanchored patterns
		{`{"pattern":"[0-9]{3}"}`, `"ab123cd"`, nil},
		{`{"pattern":"^[0-9]{3}$"}`, `"ab123cd"`, []string{`$: "ab123cd" does not match pattern "^[0-9]{3}$"`}},
		{`{"pattern":"\\d"}`, `"٣"`, []string{`$: "٣" does not match pattern "\\d"`}},
		// enum by value
		{`{"enum":[1]}`, `1.0`, nil},
		{`{"enum":[1, "a"]}`, `true`, []string{`$: true is not one of [1,"a"]`}},
		{`{"const":{"a":1,"b":[1,2]}}`, `{"b":[1,2.0],"a":1}`, nil},
		{`{"const":"c"}`, `"d"`, []string{`$: "d" is not equal to "c"`}},
		// error paths with indexes
		{`{"type":"object","properties":{"tags":{"type":"array","items":{"type":"string"}}}}`,
			`{"tags":["a",2,"c",null]}`,
			[]string{"$.tags[1]: expected string, got integer", "$.tags[3]: expected string, got null"}},
		{`{"properties":{"a.b":{"type":"string"}}}`, `{"a.b":1}`, []string{`$["a.b"]: expected string, got integer`}},
		// additionalProperties as a schema
		{`{"type":"object","properties":{"a":{}},"additionalProperties":{"type":"integer"}}`,
			`{"a":"x","b":1,"c":"no"}`, []string{"$.c: expected integer, got string"}},
		// items bounds
		{`{"minItems":2}`, `[1]`, []string{"$: expected at least 2 items, got 1"}},
		{`{"maxItems":1}`, `[1,2]`, []string{"$: expected at most 1 item, got 2"}},
		// anyOf
		{`{"anyOf":[{"type":"string"},{"type":"integer"}]}`, `3`, nil},
		{`{"anyOf":[{"type":"string"},{"type":"integer"}]}`, `true`,
			[]string{"$: does not match any schema in anyOf: [0] expected string, got boolean; [1] expected integer, got boolean"}},
		// malformed JSON
		{`{"type":"object"}`, `{"x": "unterminated`, []string{"$: malformed JSON at line 1 column 20: unexpected end of input"}},
		{`{"type":"object"}`, `{"a":1,}`, []string{"$: malformed JSON at line 1 column 8: trailing comma"}},
		{`{"type":"object"}`, "{\"a\":1,\n\"a\":2}", []string{`$: malformed JSON at line 2 column 1: duplicate property "a"`}},
		// a JSON document is never empty (tool-call arguments are: see below)
		{`{"type":"object"}`, ``, []string{`$: malformed JSON at line 1 column 1: unexpected end of input`}},
	}
	// Empty tool-call arguments mean {}: ValidateArguments, as the registry's Call.
	arguments := []struct {
		schema, instance string
		want             []string
	}{
		{`{"type":"object","required":["a"]}`, ``, []string{`$: missing required property "a"`}},
		{`{"type":"object"}`, " \n\t", nil},
		{`{"type":"object"}`, `{"a":1,}`, []string{"$: malformed JSON at line 1 column 8: trailing comma"}},
	}
	for _, row := range arguments {
		s := compile(t, row.schema)
		want := append([]string{}, row.want...)
		if got := lines(s.ValidateArguments([]byte(row.instance))); !reflect.DeepEqual(got, want) {
			t.Errorf("arguments: schema %s instance %q:\n got %q\nwant %q", row.schema, row.instance, got, want)
		}
	}
	for _, row := range rows {
		s := compile(t, row.schema)
		errs := s.ValidateJSON([]byte(row.instance))
		if row.want == nil {
			if errs != nil {
				t.Errorf("schema %s instance %s: want valid, got %q", row.schema, row.instance, lines(errs))
			}
			continue
		}
		if got := lines(errs); !reflect.DeepEqual(got, row.want) {
			t.Errorf("schema %s instance %s:\n got %q\nwant %q", row.schema, row.instance, got, row.want)
		}
	}
	// Malformed JSON is keyword "json" at the root.
	errs := compile(t, `{"type":"object"}`).ValidateJSON([]byte(`{"a":1,}`))
	if len(errs) != 1 || errs[0].Keyword != "json" || errs[0].Pointer != "" {
		t.Errorf("malformed: %#v", errs)
	}
}

func TestCompileRejectsUnsupported(t *testing.T) {
	refused := []struct{ schema, pointer, keyword string }{
		{`{"type":"string","format":"email"}`, "/format", "format"},
		{`{"oneOf":[{"type":"string"}]}`, "/oneOf", "oneOf"},
		{`{"$ref":"#/x"}`, "/$ref", "$ref"},
		{`{"type":"strin"}`, "/type", "type"},
		{`{"pattern":"("}`, "/pattern", "pattern"},
		{`{"enum":[]}`, "/enum", "enum"},
		{`"string"`, "", ""},
		{`[]`, "", ""},
		{`42`, "", ""},
		{`{"minLength":-1}`, "/minLength", "minLength"},
		{`{"maxItems":1.5}`, "/maxItems", "maxItems"},
		{`{"properties":{"a":{"properties":{"b":{"format":"x"}}}}}`, "/properties/a/properties/b/format", "format"},
		{`{"type":"object"`, "", ""},
		{``, "", ""},
	}
	for _, c := range refused {
		s, err := Compile(json.RawMessage(c.schema))
		if err == nil {
			s.Close()
			t.Errorf("%s: compiled, want refused", c.schema)
			continue
		}
		var e *Error
		if !errors.As(err, &e) || !errors.Is(err, ErrInvalidSchema) {
			t.Errorf("%s: error %T %v does not wrap ErrInvalidSchema", c.schema, err, err)
			continue
		}
		if e.Pointer != c.pointer || e.Keyword != c.keyword || e.Msg == "" {
			t.Errorf("%s: pointer %q keyword %q (%s), want %q %q", c.schema, e.Pointer, e.Keyword, e.Msg, c.pointer, c.keyword)
		}
	}
	_, err := Compile(json.RawMessage(`{"type":"string","format":"email"}`))
	if err == nil || err.Error() != `#/format: unsupported keyword "format"` {
		t.Errorf("format: %v", err)
	}
	accepted := `{"title":"t","description":"d","default":{},"examples":[{}],
		"$schema":"https://json-schema.org/draft/2020-12/schema","$comment":"c","type":"object"}`
	s := compile(t, accepted)
	if errs := s.ValidateJSON([]byte(`{}`)); errs != nil {
		t.Errorf("annotations: %v", errs)
	}
	// Boolean subschemas are allowed.
	s = compile(t, `{"type":"object","properties":{"a":true,"b":false}}`)
	if got := lines(s.ValidateJSON([]byte(`{"a":1,"b":2}`))); len(got) != 1 || !strings.HasPrefix(got[0], "$.b: ") {
		t.Errorf("boolean subschemas: %q", got)
	}
}

func TestRegisterRules(t *testing.T) {
	noop := func(context.Context, json.RawMessage) (string, error) { return "ok", nil }
	r := newRegistry(t)

	// The name pattern.
	if !NamePattern.MatchString("get_weather-2") || NamePattern.MatchString("get weather") {
		t.Fatal("NamePattern")
	}
	for _, bad := range []string{"", "get weather", "db.get_user", "héllo", "a/b", "tool\n", strings.Repeat("a", 65)} {
		err := r.Register(New(bad, "", "", noop))
		if !errors.Is(err, ErrInvalidName) {
			t.Errorf("Register(%q) = %v, want ErrInvalidName", bad, err)
		}
	}
	// The 64-character limit is inclusive.
	long := strings.Repeat("a", 64)
	if err := r.Register(New(long, "", "", noop)); err != nil {
		t.Errorf("64 characters: %v", err)
	}

	// Duplicates are refused and keep the first tool.
	first := New("dup", "first", `{"type":"object"}`, func(context.Context, json.RawMessage) (string, error) { return "first", nil })
	if err := r.Register(first); err != nil {
		t.Fatal(err)
	}
	err := r.Register(New("dup", "second", "", func(context.Context, json.RawMessage) (string, error) { return "second", nil }))
	if !errors.Is(err, ErrDuplicate) {
		t.Fatalf("duplicate: %v", err)
	}
	if got, ok := r.Get("dup"); !ok || got.Definition().Description != "first" {
		t.Errorf("Get(dup) = %v %v", got, ok)
	}
	if res := r.Call(context.Background(), types.ToolCall{ID: "1", Name: "dup", Arguments: "{}"}); res.Content != "first" {
		t.Errorf("dup call: %#v", res)
	}
	func() {
		defer func() {
			if recover() == nil {
				t.Error("MustRegister of a duplicate did not panic")
			}
		}()
		r.MustRegister(New("dup", "", "", noop))
	}()

	// Non-object parameters and schemas that do not compile are refused.
	for _, schema := range []string{`{"type":"string"}`, `{"type":"array"}`, `{"type":["object","null"]}`, `{}`, `{"properties":{}}`} {
		if err := r.Register(New("bad_params", "", schema, noop)); !errors.Is(err, ErrNotObject) {
			t.Errorf("parameters %s: %v, want ErrNotObject", schema, err)
		}
	}
	if err := r.Register(New("bad_schema", "", `{"type":"object","properties":{"e":{"format":"email"}}}`, noop)); !errors.Is(err, ErrInvalidSchema) {
		t.Errorf("format: %v, want ErrInvalidSchema", err)
	} else if e := err.(*Error); e.Pointer != "/properties/e/format" || e.Keyword != "format" {
		t.Errorf("format error located at %q %q", e.Pointer, e.Keyword)
	}
	if err := r.Register(New("bad_json", "", `{"type":`, noop)); !errors.Is(err, ErrInvalidSchema) {
		t.Errorf("not JSON: %v", err)
	}

	// A missing schema means {"type":"object"}.
	if err := r.Register(New("no_schema", "takes anything", "", noop)); err != nil {
		t.Fatal(err)
	}
	if err := r.Register(Func{Def: types.ToolDef{Name: "null_schema", Parameters: json.RawMessage("null")}, Fn: noop}); err != nil {
		t.Fatal(err)
	}
	for _, d := range r.Definitions() {
		if (d.Name == "no_schema" || d.Name == "null_schema") && string(d.Parameters) != `{"type":"object"}` {
			t.Errorf("%s parameters = %s", d.Name, d.Parameters)
		}
	}
	if res := r.Call(context.Background(), types.ToolCall{ID: "1", Name: "no_schema", Arguments: `{"anything":[1]}`}); res.IsError {
		t.Errorf("no_schema with an object: %#v", res)
	}
	if res := r.Call(context.Background(), types.ToolCall{ID: "1", Name: "no_schema", Arguments: `[1]`}); res.Content != "error: invalid arguments for no_schema:\n$: expected object, got array" {
		t.Errorf("no_schema with an array: %#v", res)
	}

	// Only successful registrations are visible.
	want := []string{long, "dup", "no_schema", "null_schema"}
	if got := r.Names(); !reflect.DeepEqual(got, sortedCopy(want)) {
		t.Errorf("Names() = %q", got)
	}
	for _, n := range []string{"bad_params", "bad_schema", "get weather"} {
		if _, ok := r.Get(n); ok {
			t.Errorf("Get(%q) found a refused tool", n)
		}
	}
	if got, ok := r.Get("no_schema"); !ok || got.Definition().Description != "takes anything" {
		t.Errorf("Get(no_schema) = %v %v", got, ok)
	}
	if err := r.Register(nil); err == nil {
		t.Error("Register(nil) succeeded")
	}
}

func sortedCopy(s []string) []string {
	out := append([]string(nil), s...)
	for i := range out {
		for j := i + 1; j < len(out); j++ {
			if out[j] < out[i] {
				out[i], out[j] = out[j], out[i]
			}
		}
	}
	return out
}

func TestDefinitionsSorted(t *testing.T) {
	noop := func(context.Context, json.RawMessage) (string, error) { return "", nil }
	tools := []Tool{
		New("search_docs", "Search the documentation", `{"type":"object","properties":{"q":{"type":"string"}, "k":{"type":"integer"}},"required":["q"]}`, noop),
		New("Zeta", "Capital Z sorts before lowercase", `{"type": "object"}`, noop),
		New("get_weather", "Current weather for a city", weatherSchema, noop),
		New("add", "Add two numbers", "", noop),
		New("query_usage", "Usage by day", `{"type":"object","properties":{"day":{"type":"string","pattern":"^\\d{4}-\\d{2}-\\d{2}$"}}}`, noop),
	}
	r1 := newRegistry(t).MustRegister(tools...)
	defs := r1.Definitions()
	var names []string
	for _, d := range defs {
		names = append(names, d.Name)
	}
	wantNames := []string{"Zeta", "add", "get_weather", "query_usage", "search_docs"}
	if !reflect.DeepEqual(names, wantNames) {
		t.Fatalf("definition order %q, want %q", names, wantNames)
	}
	if !reflect.DeepEqual(r1.Names(), wantNames) {
		t.Fatalf("Names() = %q", r1.Names())
	}
	descs := map[string]string{}
	for _, tl := range tools {
		descs[tl.Definition().Name] = tl.Definition().Description
	}
	for _, d := range defs {
		if d.Description != descs[d.Name] {
			t.Errorf("%s: description %q, want %q", d.Name, d.Description, descs[d.Name])
		}
	}
	// Parameters: the compact schema, keys in the author's order.
	if got := string(defs[2].Parameters); got != `{"type":"object","properties":{"city":{"type":"string","minLength":1},"days":{"type":"integer","minimum":1,"maximum":7},"unit":{"enum":["c","f"]}},"required":["city"],"additionalProperties":false}` {
		t.Errorf("get_weather parameters %s", got)
	}
	if got := string(defs[4].Parameters); got != `{"type":"object","properties":{"q":{"type":"string"},"k":{"type":"integer"}},"required":["q"]}` {
		t.Errorf("search_docs parameters %s", got)
	}
	// The same bytes on every call, and whatever the registration order.
	b1, _ := json.Marshal(defs)
	b2, _ := json.Marshal(r1.Definitions())
	rev := make([]Tool, len(tools))
	for i, tl := range tools {
		rev[len(tools)-1-i] = tl
	}
	b3, _ := json.Marshal(newRegistry(t).MustRegister(rev...).Definitions())
	if string(b1) != string(b2) || string(b1) != string(b3) {
		t.Errorf("definitions differ:\n%s\n%s\n%s", b1, b2, b3)
	}
	// An empty registry has no definitions (and marshals as []).
	if d := newRegistry(t).Definitions(); d == nil || len(d) != 0 {
		t.Errorf("empty registry: %#v", d)
	}
}

func TestCallNeverPanics(t *testing.T) {
	ctx := context.Background()
	rec := &recorder{}
	r := newRegistry(t)
	r.MustRegister(
		New("get_weather", "", weatherSchema, rec.fn("sunny")),
		New("list_files", "", `{"type":"object","properties":{"dir":{"type":"string"}}}`, rec.fn("a.txt")),
		New("fails", "", "", func(context.Context, json.RawMessage) (string, error) {
			return "partial output", errors.New("disk full")
		}),
		New("panics", "", "", func(context.Context, json.RawMessage) (string, error) {
			panic("secret stack detail")
		}),
		New("panics_nil", "", "", func(context.Context, json.RawMessage) (string, error) {
			panic(nil)
		}),
		New("panics_err", "", "", func(context.Context, json.RawMessage) (string, error) {
			var m map[string]int
			m["x"] = 1 // a runtime error
			return "", nil
		}),
	)
	cases := []struct {
		name, call, args string
		want             string
		isErr            bool
	}{
		{"unknown tool", "delete_everything", `{}`,
			`error: unknown tool "delete_everything"; available tools: fails, get_weather, list_files, panics, panics_err, panics_nil`, true},
		{"malformed JSON", "get_weather", `{"x": "unterminated`,
			"error: invalid arguments for get_weather: malformed JSON at line 1 column 20: unexpected end of input", true},
		{"schema violation", "get_weather", `{"days": "3", "unit": "kelvin", "country": "FR"}`, handWorkedText, true},
		{"empty arguments on a tool that needs some", "get_weather", ``,
			"error: invalid arguments for get_weather:\n$: missing required property \"city\"", true},
		{"empty arguments", "list_files", ``, "a.txt", false},
		{"whitespace arguments", "list_files", " \n", "a.txt", false},
		{"an error", "fails", `{}`, "error: disk full", true},
		{"a panic", "panics", `{}`, "error: tool panics panicked", true},
		{"panic(nil)", "panics_nil", `{}`, "error: tool panics_nil panicked", true},
		{"a runtime error", "panics_err", `{}`, "error: tool panics_err panicked", true},
		{"not UTF-8", "get_weather", "{\"city\":\"\xff\"}", "", true},
		{"a name that is not UTF-8", "get\xffweather", `{}`, "", true},
		{"arguments that are not an object", "list_files", `"dir"`,
			"error: invalid arguments for list_files:\n$: expected object, got string", true},
	}
	for _, c := range cases {
		res := r.Call(ctx, types.ToolCall{ID: "call_" + c.name, Name: c.call, Arguments: c.args})
		if res.IsError != c.isErr || (c.want != "" && res.Content != c.want) {
			t.Errorf("%s: got %#v, want content %q is_error %v", c.name, res, c.want, c.isErr)
		}
		if res.IsError != strings.HasPrefix(res.Content, "error: ") {
			t.Errorf("%s: is_error %v with content %q", c.name, res.IsError, res.Content)
		}
		if strings.Contains(res.Content, "secret") || strings.Contains(res.Content, "goroutine") {
			t.Errorf("%s: the panic's value or stack reached the model: %q", c.name, res.Content)
		}
		if res.CallID != "call_"+c.name || res.Name != c.call {
			t.Errorf("%s: ids %q %q", c.name, res.CallID, res.Name)
		}
		if m := res.Message(); m.Role != "tool" || m.ToolCallID != res.CallID || m.Content != res.Content {
			t.Errorf("%s: Message() = %#v", c.name, m)
		}
	}
	// Empty arguments reached the tool as {}; nothing invalid reached a tool.
	if got := rec.got(); !reflect.DeepEqual(got, []string{"{}", "{}"}) {
		t.Errorf("runs = %q", got)
	}
	// The registry still works after all that, with a nil context too.
	if res := r.Call(nil, types.ToolCall{ID: "x", Name: "get_weather", Arguments: `{"city":"Oslo"}`}); res.Content != "sunny" || res.IsError {
		t.Errorf("after the faults: %#v", res)
	}
	// A closed registry refuses calls, still without panicking.
	r.Close()
	r.Close()
	if res := r.Call(ctx, types.ToolCall{ID: "y", Name: "get_weather", Arguments: `{"city":"Oslo"}`}); !res.IsError || res.Content != "error: registry is closed" {
		t.Errorf("closed registry: %#v", res)
	}
	var nilReg *Registry
	if res := nilReg.Call(ctx, types.ToolCall{Name: "x"}); !res.IsError {
		t.Errorf("nil registry: %#v", res)
	}
	if len(rec.got()) != 3 {
		t.Errorf("runs = %q", rec.got())
	}
}
