// Package bench compares toolgate's Go binding with the pure-Go JSON Schema
// validators an agent developer would pick instead, on the same bytes.
//
//	cd go/bench && go test -run '^$' -bench . -benchmem -count 6 | tee new.txt
//	benchstat new.txt
//
// Every contender starts from the same []byte a model sent: the pure-Go validators
// include their json.Unmarshal (they validate decoded values), toolgate validates the
// bytes. Schemas are compiled once, outside the timed loop.
package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	google "github.com/google/jsonschema-go/jsonschema"
	santhosh "github.com/santhosh-tekuri/jsonschema/v6"

	"toolgate/tool"
	"toolgate/types"
)

// The get_weather example tool.
const weatherSchema = `{"type": "object",
 "properties": {"city": {"type": "string", "minLength": 1},
                "days": {"type": "integer", "minimum": 1, "maximum": 7},
                "unit": {"enum": ["c", "f"]}},
 "required": ["city"], "additionalProperties": false}`

// A realistic tool: nested object, array of objects, enum, patterns, integer and
// number bounds, required, additionalProperties false.
const calendarSchema = `{
  "type": "object",
  "properties": {
    "title": {"type": "string", "minLength": 1, "maxLength": 200},
    "start": {"type": "string", "pattern": "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}(:[0-9]{2})?(Z|[+-][0-9]{2}:[0-9]{2})$"},
    "duration_minutes": {"type": "integer", "minimum": 5, "maximum": 1440},
    "timezone": {"type": "string", "minLength": 1},
    "location": {
      "type": "object",
      "properties": {
        "name": {"type": "string", "minLength": 1},
        "address": {"type": "string"},
        "room": {"type": ["string", "null"]}
      },
      "required": ["name"],
      "additionalProperties": false
    },
    "attendees": {
      "type": "array",
      "minItems": 1,
      "maxItems": 50,
      "items": {
        "type": "object",
        "properties": {
          "email": {"type": "string", "pattern": "^[^@ ]+@[^@ ]+\\.[a-z]{2,}$"},
          "name": {"type": "string"},
          "optional": {"type": "boolean"}
        },
        "required": ["email"],
        "additionalProperties": false
      }
    },
    "reminders": {"type": "array", "maxItems": 5, "items": {"type": "integer", "minimum": 0, "maximum": 10080}},
    "visibility": {"enum": ["default", "public", "private"]},
    "priority": {"type": "number", "minimum": 0, "maximum": 1}
  },
  "required": ["title", "start", "duration_minutes", "attendees"],
  "additionalProperties": false
}`

type input struct {
	name, tool, schema string
	args               []byte
	valid              bool
}

var inputs = []input{
	{"get_weather_valid", "get_weather", weatherSchema, []byte(`{"city":"Paris","days":3}`), true},
	{"get_weather_invalid", "get_weather", weatherSchema, []byte(`{"days": "3", "unit": "kelvin", "country": "FR"}`), false},
	{"calendar_valid", "create_calendar_event", calendarSchema, []byte(`{"title":"Q3 planning review","start":"2025-07-14T09:30:00+02:00","duration_minutes":45,"timezone":"Europe/Paris","location":{"name":"Room Ada","address":"12 rue de la Paix, Paris","room":"4B"},"attendees":[{"email":"ana@example.com","name":"Ana"},{"email":"bo@example.org","name":"Bo","optional":true},{"email":"chen@example.net"}],"reminders":[10,60],"visibility":"private","priority":0.8}`), true},
	{"calendar_invalid", "create_calendar_event", calendarSchema, []byte(`{"title":"Q3 planning review","start":"2025-07-14 09:30","duration_minutes":"45","timezone":"Europe/Paris","location":{"name":"Room Ada","floor":4},"attendees":[{"email":"ana@example.com","name":"Ana"},{"email":"bo at example.org","name":"Bo","optional":"yes"},{"name":"Chen"}],"reminders":[10,-5],"visibility":"secret","priority":1.5}`), false},
}

// A validator from the same bytes: nil error means valid.
type validator interface {
	validate(b []byte) error
}

type toolgateV struct{ s *tool.Schema }

// lastErrs keeps ValidateJSON's result observable; errInvalid avoids boxing a
// ValidationError into an error, which would add an allocation that is the
// benchmark's, not ValidateJSON's.
var (
	lastErrs   []tool.ValidationError
	errInvalid = errors.New("invalid")
)

func (v toolgateV) validate(b []byte) error {
	lastErrs = v.s.ValidateJSON(b)
	if lastErrs != nil {
		return errInvalid
	}
	return nil
}

// santhosh-tekuri/jsonschema v6, decoding with encoding/json's Unmarshal (float64
// numbers; the fastest way to feed it).
type santhoshUnmarshal struct{ s *santhosh.Schema }

func (v santhoshUnmarshal) validate(b []byte) error {
	var x any
	if err := json.Unmarshal(b, &x); err != nil {
		return err
	}
	return v.s.Validate(x)
}

// santhosh-tekuri/jsonschema v6 with its own jsonschema.UnmarshalJSON (json.Number,
// exact numbers: what its documentation recommends).
type santhoshDecoder struct{ s *santhosh.Schema }

func (v santhoshDecoder) validate(b []byte) error {
	x, err := santhosh.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		return err
	}
	return v.s.Validate(x)
}

// google/jsonschema-go: Unmarshal the schema and Resolve once; per call,
// json.Unmarshal and Validate.
type googleV struct{ r *google.Resolved }

func (v googleV) validate(b []byte) error {
	var x any
	if err := json.Unmarshal(b, &x); err != nil {
		return err
	}
	return v.r.Validate(x)
}

func compileAll(tb testing.TB, schema string) map[string]validator {
	tb.Helper()
	ts, err := tool.Compile(json.RawMessage(schema))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { ts.Close() })

	doc, err := santhosh.UnmarshalJSON(strings.NewReader(schema))
	if err != nil {
		tb.Fatal(err)
	}
	c := santhosh.NewCompiler()
	if err := c.AddResource("schema.json", doc); err != nil {
		tb.Fatal(err)
	}
	ss, err := c.Compile("schema.json")
	if err != nil {
		tb.Fatal(err)
	}

	var gs google.Schema
	if err := json.Unmarshal([]byte(schema), &gs); err != nil {
		tb.Fatal(err)
	}
	gr, err := gs.Resolve(nil)
	if err != nil {
		tb.Fatal(err)
	}
	return map[string]validator{
		"toolgate":           toolgateV{ts},
		"santhosh_unmarshal": santhoshUnmarshal{ss},
		"santhosh_decoder":   santhoshDecoder{ss},
		"google":             googleV{gr},
	}
}

var contenders = []string{"toolgate", "santhosh_unmarshal", "santhosh_decoder", "google"}

// Every contender agrees on which inputs are valid (so the benchmark compares the
// same work).
func TestContendersAgree(t *testing.T) {
	for _, in := range inputs {
		vs := compileAll(t, in.schema)
		for _, name := range contenders {
			if err := vs[name].validate(in.args); (err == nil) != in.valid {
				t.Errorf("%s on %s: %v, want valid=%v", name, in.name, err, in.valid)
			}
		}
	}
	if n := len(inputs[2].args); n < 200 || n > 500 {
		t.Errorf("the realistic valid call is %d bytes, want 200-500", n)
	}
	if n := len(inputs[3].args); n < 200 || n > 500 {
		t.Errorf("the realistic invalid call is %d bytes, want 200-500", n)
	}
}

var sink error

func BenchmarkValidate(b *testing.B) {
	for _, in := range inputs {
		vs := compileAll(b, in.schema)
		for _, name := range contenders {
			v := vs[name]
			b.Run(in.name+"/"+name, func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(int64(len(in.args)))
				var err error
				for i := 0; i < b.N; i++ {
					err = v.validate(in.args)
				}
				sink = err
				if (err == nil) != in.valid {
					b.Fatalf("valid=%v: %v", in.valid, err)
				}
			})
		}
	}
}

// mapRegistry is what an agent without toolgate writes: a Go map of tools, each with
// a compiled pure-Go schema, validating before running.
type mapRegistry struct {
	tools map[string]mapTool
}

type mapTool struct {
	v  validator
	fn func(context.Context, json.RawMessage) (string, error)
}

func (m *mapRegistry) call(ctx context.Context, c types.ToolCall) tool.Result {
	res := tool.Result{CallID: c.ID, Name: c.Name}
	t, ok := m.tools[c.Name]
	if !ok {
		res.Content, res.IsError = fmt.Sprintf("error: unknown tool %q", c.Name), true
		return res
	}
	args := []byte(c.Arguments)
	if len(bytes.TrimSpace(args)) == 0 {
		args = []byte("{}")
	}
	if err := t.v.validate(args); err != nil {
		res.Content, res.IsError = "error: invalid arguments for "+c.Name+":\n"+err.Error(), true
		return res
	}
	out, err := t.fn(ctx, args)
	if err != nil {
		res.Content, res.IsError = "error: "+err.Error(), true
		return res
	}
	res.Content = out
	return res
}

var resultSink tool.Result

// BenchmarkCall: Registry.Call end to end (validation, dispatch into the Go tool
// through the C ABI and back, the Result) against a Go map dispatch validating with
// the pure-Go peers.
func BenchmarkCall(b *testing.B) {
	fn := func(_ context.Context, args json.RawMessage) (string, error) { return "ok", nil }
	reg := tool.NewRegistry()
	b.Cleanup(func() { reg.Close() })
	maps := map[string]*mapRegistry{"map_santhosh_unmarshal": {map[string]mapTool{}}, "map_google": {map[string]mapTool{}}}
	seen := map[string]bool{}
	for _, in := range inputs {
		if seen[in.tool] {
			continue
		}
		seen[in.tool] = true
		reg.MustRegister(tool.New(in.tool, "", in.schema, fn))
		vs := compileAll(b, in.schema)
		maps["map_santhosh_unmarshal"].tools[in.tool] = mapTool{vs["santhosh_unmarshal"], fn}
		maps["map_google"].tools[in.tool] = mapTool{vs["google"], fn}
	}
	ctx := context.Background()
	for _, in := range inputs {
		call := types.ToolCall{ID: "call_1", Name: in.tool, Arguments: string(in.args)}
		b.Run(in.name+"/toolgate_registry", func(b *testing.B) {
			b.ReportAllocs()
			var r tool.Result
			for i := 0; i < b.N; i++ {
				r = reg.Call(ctx, call)
			}
			resultSink = r
			if r.IsError == in.valid {
				b.Fatalf("%#v", r)
			}
		})
		for _, name := range []string{"map_santhosh_unmarshal", "map_google"} {
			m := maps[name]
			b.Run(in.name+"/"+name, func(b *testing.B) {
				b.ReportAllocs()
				var r tool.Result
				for i := 0; i < b.N; i++ {
					r = m.call(ctx, call)
				}
				resultSink = r
				if r.IsError == in.valid {
					b.Fatalf("%#v", r)
				}
			})
		}
	}
}
