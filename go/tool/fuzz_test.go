package tool

// Fuzz targets: go test -fuzz=FuzzValidateJSON (or FuzzCall, FuzzStream) -fuzztime=30s ./tool
// (see ../fuzz.sh). A crasher is saved under testdata/fuzz/ and then runs as a
// regression case of plain `go test`.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"toolgate/types"
)

var fuzzSchemas = []string{
	weatherSchema,
	`{"type":"object","properties":{"tags":{"type":"array","items":{"type":"string","maxLength":3},"maxItems":3}},"additionalProperties":{"type":"integer","minimum":-5}}`,
	`{"anyOf":[{"type":"string","pattern":"^[a-z]+\\d?$"},{"type":"number","maximum":1e3},{"const":{"a":[1,2.0]}}]}`,
	`{"type":["integer","null","boolean"],"enum":[1,null,true,12345678901234567890123]}`,
	`{}`,
	`true`,
}

// FuzzValidateJSON: compiling any schema text and validating any bytes never crash,
// and the answer is consistent: deterministic, sorted, well-formed locations, and
// "malformed JSON" exactly when the bytes are not JSON that Go accepts either (the
// library is stricter: duplicate keys, lone surrogates, invalid UTF-8, depth).
func FuzzValidateJSON(f *testing.F) {
	seeds := []string{
		`{"days": "3", "unit": "kelvin", "country": "FR"}`,
		`{"city":"Paris","days":3}`,
		``, ` `, `{}`, `[]`, `null`, `3.0`, `1e2`, `-0`, `1e400`, `"héllo"`, `"\ud83d\ude00"`,
		`"\ud800"`, "\"\xff\"", `{"a":1,"a":2}`, `{"a":1,}`, `[1,2,]`, `01`, `NaN`, `/*c*/{}`,
		`{"tags":["abcd",1,null],"x":-6,"y":"no"}`, `{"a":[1,2]}`, `12345678901234567890123`,
		strings.Repeat("[", 200) + strings.Repeat("]", 200),
		strings.Repeat(`{"a":`, 130) + "1" + strings.Repeat("}", 130),
		"{\"\\u0000\":1}", `{"a.b":1,"~/":2}`,
	}
	for i, inst := range seeds {
		f.Add(uint8(i), "", []byte(inst))
	}
	f.Add(uint8(0), `{"type":"object","properties":{"x":{"format":"email"}}}`, []byte(`{}`))
	f.Add(uint8(0), `{"type":"string","minLength":2,"maxLength":3,"pattern":"b"}`, []byte(`"abc"`))
	f.Add(uint8(0), `{"items":{"items":{"items":{}}},"minItems":1}`, []byte(`[[[[]]]]`))
	f.Add(uint8(0), `{"type":"object","required":["a~b","c/d"]}`, []byte(`{}`))
	f.Fuzz(func(t *testing.T, pick uint8, schemaText string, instance []byte) {
		text := schemaText
		if text == "" {
			text = fuzzSchemas[int(pick)%len(fuzzSchemas)]
		}
		s, err := Compile(json.RawMessage(text))
		if err != nil {
			if e, ok := err.(*Error); !ok || e.Msg == "" {
				t.Fatalf("compile error %T %v", err, err)
			}
			return
		}
		defer s.Close()
		errs := s.ValidateJSON(instance)
		again := s.ValidateJSON(bytes.Clone(instance))
		if len(errs) != len(again) {
			t.Fatalf("not deterministic: %v vs %v", errs, again)
		}
		malformed := false
		for i, e := range errs {
			if e != again[i] {
				t.Fatalf("not deterministic: %v vs %v", errs, again)
			}
			if !strings.HasPrefix(e.Path, "$") || (e.Pointer != "" && e.Pointer[0] != '/') || e.Msg == "" || e.Keyword == "" ||
				!strings.HasPrefix(e.SchemaLocation, "#") {
				t.Fatalf("bad violation %#v", e)
			}
			if !utf8.ValidString(e.Path) || !utf8.ValidString(e.Msg) || !utf8.ValidString(e.Pointer) {
				t.Fatalf("violation is not UTF-8: %#v", e)
			}
			if i > 0 && (errs[i-1].Path > e.Path || (errs[i-1].Path == e.Path && errs[i-1].Msg > e.Msg)) {
				t.Fatalf("not sorted by path then message: %v", errs)
			}
			if e.Keyword == "json" {
				malformed = true
				if len(errs) != 1 || e.Path != "$" || e.SchemaLocation != "#" || !strings.HasPrefix(e.Msg, "malformed JSON at line ") {
					t.Fatalf("malformed JSON reported as %v", errs)
				}
			}
		}
		empty := len(bytes.TrimLeft(instance, " \t\r\n")) == 0
		if !empty && !json.Valid(instance) && !malformed {
			t.Fatalf("%q is not JSON, but got %v", instance, errs)
		}
	})
}

// FuzzCall: whatever the model sends as a name and arguments, Call returns a Result,
// is_error exactly when the content starts with "error: ", and a tool runs only on
// arguments that pass its schema, with exactly the bytes that were sent.
func FuzzCall(f *testing.F) {
	var mu sync.Mutex
	var ran []string
	record := func(_ context.Context, args json.RawMessage) (string, error) {
		mu.Lock()
		ran = append(ran, string(args))
		mu.Unlock()
		return "ok:" + string(args), nil
	}
	r := NewRegistry()
	f.Cleanup(func() { r.Close() })
	r.MustRegister(
		New("get_weather", "", weatherSchema, record),
		New("any", "", "", record),
		New("fails", "", "", func(_ context.Context, args json.RawMessage) (string, error) {
			return "", &Error{Msg: string(args)}
		}),
		New("panics", "", "", func(context.Context, json.RawMessage) (string, error) { panic("x") }),
	)
	schema, err := Compile(json.RawMessage(weatherSchema))
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { schema.Close() })
	anyObject, _ := Compile(json.RawMessage(`{"type":"object"}`))
	f.Cleanup(func() { anyObject.Close() })

	for _, name := range []string{"get_weather", "any", "fails", "panics", "nope", "", "get\xffweather", "GET_WEATHER"} {
		for _, args := range []string{``, `{}`, `{"city":"Paris","days":3}`, `{"days": "3", "unit": "kelvin", "country": "FR"}`,
			`{"x": "unterminated`, `[]`, "{\"city\":\"\xff\"}", `{"city":"a","city":"b"}`, " \n"} {
			f.Add("call_1", name, args)
		}
	}
	f.Fuzz(func(t *testing.T, id, name, args string) {
		mu.Lock()
		ran = ran[:0]
		mu.Unlock()
		res := r.Call(context.Background(), types.ToolCall{ID: id, Name: name, Arguments: args})
		if res.CallID != id || res.Name != name {
			t.Fatalf("ids changed: %#v", res)
		}
		if res.IsError != strings.HasPrefix(res.Content, "error: ") {
			t.Fatalf("is_error %v with content %q", res.IsError, res.Content)
		}
		mu.Lock()
		got := append([]string(nil), ran...)
		mu.Unlock()
		sent := args
		if strings.TrimLeft(args, " \t\r\n") == "" {
			sent = "{}"
		}
		var s *Schema
		switch name {
		case "get_weather":
			s = schema
		case "any", "fails", "panics":
			s = anyObject
		default:
			if len(got) != 0 || !strings.HasPrefix(res.Content, "error: unknown tool ") {
				t.Fatalf("unknown tool %q: %#v ran %q", name, res, got)
			}
			return
		}
		valid := s.ValidateArguments([]byte(args)) == nil
		switch {
		case !valid:
			if len(got) != 0 || !strings.HasPrefix(res.Content, "error: invalid arguments for "+name+":") {
				t.Fatalf("invalid arguments %q: %#v ran %q", args, res, got)
			}
		case name == "panics":
			if res.Content != "error: tool panics panicked" {
				t.Fatalf("panic: %#v", res)
			}
		case name == "fails":
			if res.Content != "error: "+sent {
				t.Fatalf("error: %#v", res)
			}
		default:
			if len(got) != 1 || got[0] != sent || res.Content != "ok:"+sent || res.IsError {
				t.Fatalf("valid %q: %#v ran %q", args, res, got)
			}
		}
	})
}

// FuzzStream: any bytes, written to a stream in two parts split anywhere, finish as
// ValidateJSON finishes them whole when the stream is not refused; a refusal is
// final, never of a valid instance, and Finish returns it. Seeds: the shared vectors.
func FuzzStream(f *testing.F) {
	vs := readStreamVectors(f)
	schemas := make([]*Schema, 0, len(vs)+len(fuzzSchemas))
	for _, text := range fuzzSchemas {
		if s, err := Compile(json.RawMessage(text)); err == nil {
			schemas = append(schemas, s)
		}
	}
	first := len(schemas)
	for i, v := range vs {
		s, err := Compile(v.Schema)
		if err != nil {
			f.Fatalf("%s: %v", v.Name, err)
		}
		schemas = append(schemas, s)
		f.Add(uint16(first+i), uint16(len(v.Instance)/2), []byte(v.Instance))
	}
	f.Cleanup(func() {
		for _, s := range schemas {
			s.Close()
		}
	})
	f.Add(uint16(1), uint16(9), []byte(`{"tags":["abcd",1,null],"x":-6,"y":"no"}`))
	f.Add(uint16(2), uint16(3), []byte(`"abc1"`))
	f.Fuzz(func(t *testing.T, pick, cut uint16, instance []byte) {
		s := schemas[int(pick)%len(schemas)]
		at := int(cut) % (len(instance) + 1)
		whole := s.ValidateJSON(instance)
		st := s.Stream()
		defer st.Close()
		var refusal error
		for _, part := range [][]byte{instance[:at], instance[at:]} {
			n, err := st.Write(part)
			if n != len(part) {
				t.Fatalf("wrote %d of %d", n, len(part))
			}
			if refusal != nil && err != refusal {
				t.Fatalf("a refusal changed or was taken back: %v then %v", refusal, err)
			}
			refusal = err
		}
		got := st.Finish()
		if refusal == nil {
			if !reflect.DeepEqual(got, whole) {
				t.Fatalf("Finish %v, ValidateJSON %v", got, whole)
			}
			return
		}
		var r *RefusedError
		if !errors.As(refusal, &r) || !reflect.DeepEqual(got, r.Errors) || len(got) == 0 || whole == nil {
			t.Fatalf("refused with %v, Finish %v, ValidateJSON %v", refusal, got, whole)
		}
		if got[0].Keyword == "json" && !reflect.DeepEqual(got, whole) {
			t.Fatalf("malformed JSON refused as %v, ValidateJSON says %v", got, whole)
		}
	})
}
