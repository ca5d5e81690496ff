package tool

// What the binding shows that the core decides: registration refusals (the shared
// file ../../tests/registration_refusals.json, which the Rust tests check against the
// core), the registry options, and the library version.

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"toolgate/types"
)

// TestRegistrationRefusalsAreTheCoresTexts registers every case of the shared file
// that uses the default name policy (the one NewRegistry has) and compares the
// refusal's kind, message and schema location with the file's, which are the core's.
func TestRegistrationRefusalsAreTheCoresTexts(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "tests", "registration_refusals.json"))
	if err != nil {
		t.Fatalf("the shared refusals: %v", err)
	}
	var cases []struct {
		Policy, Tool     string
		Parameters       *string
		Duplicate        bool
		Kind, Message    string
		Pointer, Keyword string
	}
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatal(err)
	}
	kinds := map[string]error{
		"name":       ErrInvalidName,
		"duplicate":  ErrDuplicate,
		"schema":     ErrInvalidSchema,
		"not_object": ErrNotObject,
	}
	seen := map[string]bool{}
	noop := func(context.Context, json.RawMessage) (string, error) { return "ran", nil }
	for _, c := range cases {
		if c.Policy != "default" {
			continue
		}
		r := newRegistry(t)
		if c.Duplicate {
			if err := r.Register(New(c.Tool, "", "", noop)); err != nil {
				t.Fatalf("%q: first registration: %v", c.Tool, err)
			}
		}
		params := ""
		if c.Parameters != nil {
			params = *c.Parameters
		}
		err := r.Register(New(c.Tool, "", params, noop))
		var e *Error
		if !errors.As(err, &e) {
			t.Errorf("%q: Register = %v, want an *Error", c.Tool, err)
			continue
		}
		if !errors.Is(err, kinds[c.Kind]) || e.Msg != c.Message || e.Pointer != c.Pointer || e.Keyword != c.Keyword {
			t.Errorf("%q:\n got  %v %q %q %q\n want %v %q %q %q", c.Tool, e.Kind, e.Msg, e.Pointer, e.Keyword,
				kinds[c.Kind], c.Message, c.Pointer, c.Keyword)
		}
		if err.Error() != c.Message {
			t.Errorf("%q: Error() = %q", c.Tool, err.Error())
		}
		seen[c.Kind] = true
	}
	for kind := range kinds {
		if !seen[kind] {
			t.Errorf("no default-policy case of kind %q", kind)
		}
	}
}

// A name that is not UTF-8 reaches the library with U+FFFD in place of the bad bytes
// and is refused by its name policy, with its text.
func TestRegisterNameNotUTF8(t *testing.T) {
	r := newRegistry(t)
	err := r.Register(New("a\xffb", "", "", func(context.Context, json.RawMessage) (string, error) { return "", nil }))
	if !errors.Is(err, ErrInvalidName) || err.Error() != "invalid tool name \"a\uFFFDb\": must match ^[A-Za-z0-9_-]{1,64}$" {
		t.Errorf("Register(a\\xffb) = %v", err)
	}
}

func textArguments(n int) string {
	return `{"text":"` + strings.Repeat("x", n-11) + `"}`
}

func echoRegistry(t *testing.T, opts ...Option) *Registry {
	t.Helper()
	r := NewRegistry(opts...)
	t.Cleanup(func() { r.Close() })
	r.MustRegister(New("echo", "", "", func(_ context.Context, args json.RawMessage) (string, error) {
		return string(args), nil
	}))
	return r
}

func call(r *Registry, args string) Result {
	return r.Call(context.Background(), types.ToolCall{ID: "c", Name: "echo", Arguments: args})
}

func TestDefaultArgumentLimit(t *testing.T) {
	r := echoRegistry(t)
	if res := call(r, textArguments(4<<20)); res.IsError || len(res.Content) != 4<<20 {
		t.Errorf("4 MiB: %v %.80q", res.IsError, res.Content)
	}
	res := call(r, textArguments(4<<20+1))
	if want := "error: invalid arguments for echo: 4194305 bytes is more than the limit of 4194304"; !res.IsError || res.Content != want {
		t.Errorf("4 MiB + 1: %v %q", res.IsError, res.Content)
	}
}

func TestWithMaxArgumentBytes(t *testing.T) {
	r := echoRegistry(t, WithMaxArgumentBytes(10))
	if res := call(r, `{"a":"12"}`); res.IsError || res.Content != `{"a":"12"}` {
		t.Errorf("10 bytes: %#v", res)
	}
	for _, args := range []string{`{"a":"123"}`, `{{{{{{{{{{{`} {
		res := call(r, args)
		if want := "error: invalid arguments for echo: 11 bytes is more than the limit of 10"; !res.IsError || res.Content != want {
			t.Errorf("%s: %#v", args, res)
		}
	}

	none := echoRegistry(t, WithMaxArgumentBytes(NoArgumentLimit))
	big := textArguments(5 << 20)
	if res := call(none, big); res.IsError || res.Content != big {
		t.Errorf("no limit, 5 MiB: %v %.80q", res.IsError, res.Content)
	}
	// 0 is the default.
	zero := echoRegistry(t, WithMaxArgumentBytes(0))
	if res := call(zero, big); !res.IsError || !strings.HasSuffix(res.Content, "is more than the limit of 4194304") {
		t.Errorf("WithMaxArgumentBytes(0), 5 MiB: %v %.80q", res.IsError, res.Content)
	}
}

func TestWithMaxDepth(t *testing.T) {
	r := echoRegistry(t, WithMaxDepth(3))
	if res := call(r, `{"a":{"b":[]}}`); res.IsError {
		t.Errorf("3 levels: %#v", res)
	}
	res := call(r, `{"a":{"b":[[]]}}`)
	if want := "error: invalid arguments for echo: malformed JSON at line 1 column 12: nesting deeper than 3 levels"; res.Content != want {
		t.Errorf("4 levels: %q", res.Content)
	}
	// The tools' schemas are held to the same limit.
	err := r.Register(New("deep", "", `{"type":"object","properties":{"a":{"properties":{"b":{"items":{}}}}}}`,
		func(context.Context, json.RawMessage) (string, error) { return "", nil }))
	if !errors.Is(err, ErrInvalidSchema) || !strings.Contains(err.Error(), "nesting deeper than 3 levels") {
		t.Errorf("deep schema: %v", err)
	}
	// Both options together, and the default depth (128) without them.
	both := echoRegistry(t, WithMaxDepth(0), WithMaxArgumentBytes(1<<20))
	deep := `{"a":` + strings.Repeat("[", 127) + strings.Repeat("]", 127) + `}`
	if res := call(both, deep); res.IsError {
		t.Errorf("128 levels: %.120q", res.Content)
	}
	if res := call(both, `{"a":`+strings.Repeat("[", 128)+strings.Repeat("]", 128)+`}`); !strings.HasSuffix(res.Content, "nesting deeper than 128 levels") {
		t.Errorf("129 levels: %.120q", res.Content)
	}
}

// Version is the library's tg_version(), which is the crate's version.
func TestVersion(t *testing.T) {
	cargo, err := os.ReadFile(filepath.Join("..", "..", "Cargo.toml"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^version = "([^"]+)"`).FindSubmatch(cargo)
	if m == nil {
		t.Fatal("no version in Cargo.toml")
	}
	if got := Version(); got != string(m[1]) {
		t.Errorf("Version() = %q, Cargo.toml says %q", got, m[1])
	}
}
