package tool

// CompileOptions through CompileWith and the registry's compile options: each field's
// default, the nesting limit, bad options refused with the library's text, and the
// order of registry options. What needs the full profile's keywords is in
// full_profile_test.go.

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"
)

const coreSchema = `{"type":"object","properties":{"city":{"type":"string","minLength":1}},"required":["city"]}`

func nested(depth int) []byte {
	return []byte(strings.Repeat("[", depth) + strings.Repeat("]", depth))
}

func violations(errs []ValidationError) string {
	lines := make([]string, len(errs))
	for i, e := range errs {
		lines[i] = e.Error()
	}
	return strings.Join(lines, "\n")
}

// The zero CompileOptions is Compile: the same verdicts, the same refusal, nesting 128.
func TestCompileWithZeroOptionsIsCompile(t *testing.T) {
	s, err := CompileWith(json.RawMessage(coreSchema), CompileOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if got := s.ValidateJSON([]byte(`{"city":"Paris"}`)); got != nil {
		t.Errorf("valid: %v", got)
	}
	if got := violations(s.ValidateJSON([]byte(`{"city":""}`))); got != "$.city: expected at least 1 character, got 0" {
		t.Errorf("invalid: %q", got)
	}
	anything, err := CompileWith(json.RawMessage(`{}`), CompileOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer anything.Close()
	if got := anything.ValidateJSON(nested(128)); got != nil {
		t.Errorf("128 levels: %v", got)
	}
	if got := violations(anything.ValidateJSON(nested(129))); !strings.HasSuffix(got, "nesting deeper than 128 levels") {
		t.Errorf("129 levels: %q", got)
	}

	refused := json.RawMessage(`{"type":"object","properties":{"e":{"format":"email"}}}`)
	_, withErr := CompileWith(refused, CompileOptions{})
	_, plainErr := Compile(refused)
	var e *Error
	if !errors.As(withErr, &e) || !errors.Is(withErr, ErrInvalidSchema) {
		t.Fatalf("CompileWith(format) = %v", withErr)
	}
	if e.Msg != `#/properties/e/format: unsupported keyword "format"` || e.Pointer != "/properties/e/format" || e.Keyword != "format" {
		t.Errorf("refusal %q %q %q", e.Msg, e.Pointer, e.Keyword)
	}
	if plainErr == nil || withErr.Error() != plainErr.Error() {
		t.Errorf("CompileWith refused with %v, Compile with %v", withErr, plainErr)
	}
}

// Every Profile and Draft constant is accepted; a core schema means the same in each.
func TestCompileWithEveryProfileAndDraft(t *testing.T) {
	for _, p := range []Profile{ProfileCore, ProfileFull} {
		for _, d := range []Draft{DraftDefault, Draft7, Draft2020_12} {
			s, err := CompileWith(json.RawMessage(coreSchema), CompileOptions{Profile: p, DefaultDraft: d})
			if err != nil {
				t.Errorf("profile %d, draft %d: %v", p, d, err)
				continue
			}
			if s.ValidateJSON([]byte(`{"city":"Paris"}`)) != nil || s.ValidateJSON([]byte(`{"city":3}`)) == nil {
				t.Errorf("profile %d, draft %d: wrong verdicts", p, d)
			}
			s.Close()
		}
	}
}

func TestCompileWithMaxDepth(t *testing.T) {
	s, err := CompileWith(json.RawMessage(`{"items":{"items":{}}}`), CompileOptions{MaxDepth: 3})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if got := s.ValidateJSON([]byte(`[[[]]]`)); got != nil {
		t.Errorf("3 levels: %v", got)
	}
	if got := violations(s.ValidateJSON([]byte(`[[[[]]]]`))); got != "$: malformed JSON at line 1 column 4: nesting deeper than 3 levels" {
		t.Errorf("4 levels: %q", got)
	}
	_, err = CompileWith(json.RawMessage(`{"items":{"items":{"items":{}}}}`), CompileOptions{MaxDepth: 3})
	if !errors.Is(err, ErrInvalidSchema) || !strings.Contains(err.Error(), "nesting deeper than 3 levels") {
		t.Errorf("4-level schema: %v", err)
	}
	// Negative is the default; above 1024 is 1024.
	for _, d := range []int{-1, 0} {
		s, err := CompileWith(json.RawMessage(`{}`), CompileOptions{MaxDepth: d})
		if err != nil || s.ValidateJSON(nested(128)) != nil || s.ValidateJSON(nested(129)) == nil {
			t.Errorf("MaxDepth %d is not the default: %v", d, err)
		}
	}
	s2, err := CompileWith(json.RawMessage(`{}`), CompileOptions{MaxDepth: 1 << 40})
	if err != nil || s2.ValidateJSON(nested(1024)) != nil || s2.ValidateJSON(nested(1025)) == nil {
		t.Errorf("MaxDepth 1<<40 is not 1024: %v", err)
	}
}

func TestCompileWithBadOptions(t *testing.T) {
	cases := []struct {
		name string
		opts CompileOptions
		kind error
		msg  string
	}{
		{"profile", CompileOptions{Profile: 7}, ErrInvalidOption,
			"tg_schema_compile_with: argument `options->profile` is 7, not a tg_profile value"},
		{"draft", CompileOptions{DefaultDraft: -2}, ErrInvalidOption,
			"tg_schema_compile_with: argument `options->default_draft` is -2, not a tg_draft value"},
		{"resource JSON", CompileOptions{Resources: []Resource{{URI: "https://example.com/a.json", Schema: json.RawMessage(`{"a":1,"a":2}`)}}},
			ErrInvalidSchema, `#: resource "https://example.com/a.json" is not valid JSON: malformed JSON at line 1 column 8: duplicate property "a"`},
		{"empty resource", CompileOptions{Resources: []Resource{{URI: "https://example.com/a.json"}}},
			ErrInvalidSchema, `#: resource "https://example.com/a.json" is not valid JSON: malformed JSON at line 1 column 1: unexpected end of input`},
		{"resource URI", CompileOptions{Resources: []Resource{{URI: "https://example.com/\xff", Schema: json.RawMessage(`{}`)}}},
			ErrInvalidOption, "tg_schema_compile_with: argument `options->resources[0].uri` is not valid UTF-8"},
		{"format name", CompileOptions{AnnotationFormats: []string{"binary", "pass\xffword"}},
			ErrInvalidOption, "tg_schema_compile_with: argument `options->annotation_formats[1]` is not valid UTF-8"},
	}
	for _, c := range cases {
		s, err := CompileWith(json.RawMessage(coreSchema), c.opts)
		if s != nil || !errors.Is(err, c.kind) || err.Error() != c.msg {
			t.Errorf("%s: %v, %v\n want %v %q", c.name, s, err, c.kind, c.msg)
		}
	}
}

// Schemas compile at once from many goroutines, each with its own resources and format
// names (what the pinning of CompileWith's C view must allow; run with -race and
// cgocheck2).
func TestCompileWithConcurrently(t *testing.T) {
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < 50; i++ {
				opts := CompileOptions{
					MaxDepth:          2 + g,
					Resources:         []Resource{{URI: "https://example.com/" + strings.Repeat("r", g+1), Schema: json.RawMessage(`{"type":"string"}`)}},
					AnnotationFormats: []string{strings.Repeat("f", i+1)},
				}
				s, err := CompileWith(json.RawMessage(`{}`), opts)
				if err != nil {
					t.Errorf("goroutine %d: %v", g, err)
					return
				}
				if s.ValidateJSON(nested(2+g)) != nil || s.ValidateJSON(nested(3+g)) == nil {
					t.Errorf("goroutine %d: nesting limit %d not applied", g, 2+g)
				}
				s.Close()
			}
		}(g)
	}
	wg.Wait()
}

// Registry options: the compile options default to the core profile; an invalid one
// makes NewRegistryOrError fail and NewRegistry panic with the same *Error.
func TestRegistryCompileOptions(t *testing.T) {
	r := NewRegistry()
	defer r.Close()
	noop := func(context.Context, json.RawMessage) (string, error) { return "", nil }
	err := r.Register(New("mail", "", `{"type":"object","properties":{"e":{"format":"email"}}}`, noop))
	if !errors.Is(err, ErrInvalidSchema) || err.Error() != `invalid parameters for "mail": #/properties/e/format: unsupported keyword "format"` {
		t.Errorf("core registry, format: %v", err)
	}

	bad := WithResource("https://example.com/a.json", json.RawMessage(`[1,]`))
	r2, err := NewRegistryOrError(WithProfile(ProfileFull), bad)
	want := `#: resource "https://example.com/a.json" is not valid JSON: malformed JSON at line 1 column 4: `
	if r2 != nil || !errors.Is(err, ErrInvalidSchema) || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("NewRegistryOrError(bad resource) = %v, %v; want %q...", r2, err, want)
	}
	func() {
		defer func() {
			p := recover()
			e, ok := p.(*Error)
			if !ok || err == nil || e.Error() != err.Error() {
				t.Errorf("NewRegistry(bad resource) panicked with %v, want %v", p, err)
			}
		}()
		NewRegistry(bad)
	}()

	_, err = NewRegistryOrError(WithProfile(9))
	if !errors.Is(err, ErrInvalidOption) || err.Error() != "tg_registry_new_with: argument `options->schema->profile` is 9, not a tg_profile value" {
		t.Errorf("WithProfile(9): %v", err)
	}
	_, err = NewRegistryOrError(WithAnnotationFormats("\xff"))
	if !errors.Is(err, ErrInvalidOption) || !strings.Contains(err.Error(), "`options->schema->annotation_formats[0]` is not valid UTF-8") {
		t.Errorf("WithAnnotationFormats(\\xff): %v", err)
	}
}

// Options apply in order: WithCompileOptions replaces the compile options before it
// (the nesting limit included), later options change them.
func TestRegistryOptionsOrder(t *testing.T) {
	depth := func(opts ...Option) string {
		r := echoRegistry(t, opts...)
		return call(r, `{"a":[[[]]]}`).Content
	}
	over3 := "error: invalid arguments for echo: malformed JSON at line 1 column 8: nesting deeper than 3 levels"
	if got := depth(WithMaxDepth(3)); got != over3 {
		t.Errorf("WithMaxDepth(3): %q", got)
	}
	if got := depth(WithCompileOptions(CompileOptions{MaxDepth: 3})); got != over3 {
		t.Errorf("WithCompileOptions(MaxDepth 3): %q", got)
	}
	if got := depth(WithMaxDepth(3), WithCompileOptions(CompileOptions{})); got != `{"a":[[[]]]}` {
		t.Errorf("WithMaxDepth(3), WithCompileOptions({}): %q", got)
	}
	if got := depth(WithCompileOptions(CompileOptions{}), WithMaxDepth(3)); got != over3 {
		t.Errorf("WithCompileOptions({}), WithMaxDepth(3): %q", got)
	}
	// WithCompileOptions keeps its own copy of the slices.
	shared := CompileOptions{AnnotationFormats: []string{"password"}}
	opt := WithCompileOptions(shared)
	shared.AnnotationFormats[0] = "\xff"
	if _, err := NewRegistryOrError(opt); err != nil {
		t.Errorf("the registry read the caller's later change: %v", err)
	}
}
