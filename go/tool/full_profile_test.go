package tool

// ProfileFull through CompileWith and NewRegistry(WithProfile(ProfileFull)): the core
// profile refuses what the full profile accepts ($defs/$ref, oneOf, format,
// exclusiveMinimum); the default draft decides a schema without $schema; resources
// reach $ref; a declared annotation format is accepted.
//
// Every test here needs the core's full profile. A schema it must accept and refuses
// fails with "waits for the core's full profile" and the core's refusal, so a missing
// keyword reads as such and not as a bug of the binding.

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync/atomic"
	"testing"

	"toolgate/types"
)

var full = CompileOptions{Profile: ProfileFull}

func mustCompileFull(t *testing.T, schema string, opts CompileOptions) *Schema {
	t.Helper()
	s, err := CompileWith(json.RawMessage(schema), opts)
	if err != nil {
		t.Errorf("waits for the core's full profile: it refuses a schema it must accept\n schema:  %s\n refused: %v", schema, err)
		return nil
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func mustRefuse(t *testing.T, schema string, opts CompileOptions, want string) {
	t.Helper()
	_, err := CompileWith(json.RawMessage(schema), opts)
	if !errors.Is(err, ErrInvalidSchema) || !strings.Contains(err.Error(), want) {
		waits := ""
		if opts.Profile == ProfileFull && err != nil && strings.Contains(err.Error(), "unsupported keyword") {
			waits = "waits for the core's full profile: "
		}
		t.Errorf("%sschema %s: got %v, want an ErrInvalidSchema with %q", waits, schema, err, want)
	}
}

// verdict: ValidateJSON is empty exactly when wantValid; when invalid, its one
// violation has keyword.
func verdict(t *testing.T, s *Schema, instance string, wantValid bool, keyword string) {
	t.Helper()
	if s == nil {
		return // mustCompileFull said why
	}
	got := s.ValidateJSON([]byte(instance))
	switch {
	case wantValid && got != nil:
		t.Errorf("%s: want valid, got %v", instance, got)
	case !wantValid && (len(got) != 1 || got[0].Keyword != keyword):
		t.Errorf("%s: want one %q violation, got %v", instance, keyword, got)
	}
}

const refSchema = `{"type":"object","$defs":{"City":{"type":"string","minLength":1}},` +
	`"properties":{"city":{"$ref":"#/$defs/City"}},"required":["city"]}`

func TestFullProfileIsChosen(t *testing.T) {
	core := CompileOptions{}
	mustRefuse(t, refSchema, core, `unsupported keyword "$defs"`)
	s := mustCompileFull(t, refSchema, full)
	verdict(t, s, `{"city":"Paris"}`, true, "")
	verdict(t, s, `{"city":""}`, false, "minLength")
	if s != nil {
		if got := violations(s.ValidateJSON([]byte(`{"city":3}`))); got != "$.city: expected string, got integer" {
			t.Errorf("city 3: %q", got)
		}
	}

	oneOf := `{"type":"object","properties":{"n":{"oneOf":[{"type":"integer"},{"minimum":0}]}}}`
	mustRefuse(t, oneOf, core, `unsupported keyword "oneOf"`)
	s = mustCompileFull(t, oneOf, full)
	verdict(t, s, `{"n":-1}`, true, "")
	verdict(t, s, `{"n":0.5}`, true, "")
	verdict(t, s, `{"n":5}`, false, "oneOf")

	exclusive := `{"type":"object","properties":{"n":{"exclusiveMinimum":0}}}`
	mustRefuse(t, exclusive, core, `unsupported keyword "exclusiveMinimum"`)
	s = mustCompileFull(t, exclusive, full)
	verdict(t, s, `{"n":0.5}`, true, "")
	verdict(t, s, `{"n":0}`, false, "exclusiveMinimum")

	email := `{"type":"object","properties":{"e":{"type":"string","format":"email"}}}`
	mustRefuse(t, email, core, `unsupported keyword "format"`)
	s = mustCompileFull(t, email, full)
	verdict(t, s, `{"e":"ada@example.com"}`, true, "")
	verdict(t, s, `{"e":"not an email"}`, false, "format")

	mustRefuse(t, `{"type":"object","typo":1}`, full, `"typo"`)
}

// In draft-07 a $ref's siblings are ignored; in draft 2020-12 they apply too.
func TestFullProfileDefaultDraft(t *testing.T) {
	siblings := `{"type":"object","definitions":{"s":{"type":"string"}},` +
		`"properties":{"a":{"$ref":"#/definitions/s","maxLength":1}}}`
	siblings07 := `{"$schema":"http://json-schema.org/draft-07/schema#",` + siblings[1:]
	for _, d := range []Draft{DraftDefault, Draft2020_12} {
		opts := CompileOptions{Profile: ProfileFull, DefaultDraft: d}
		s := mustCompileFull(t, siblings, opts)
		verdict(t, s, `{"a":"x"}`, true, "")
		verdict(t, s, `{"a":"xyz"}`, false, "maxLength")
		verdict(t, mustCompileFull(t, siblings07, opts), `{"a":"xyz"}`, true, "")
	}
	s := mustCompileFull(t, siblings, CompileOptions{Profile: ProfileFull, DefaultDraft: Draft7})
	verdict(t, s, `{"a":"xyz"}`, true, "")
	verdict(t, s, `{"a":1}`, false, "type")
}

const cityURI = "https://example.com/schemas/city.json"

const cityResource = `{"$defs":{"name":{"type":"string","minLength":1}},"type":"object",` +
	`"properties":{"name":{"$ref":"#/$defs/name"}},"required":["name"]}`

const usesCity = `{"type":"object","properties":{"city":{"$ref":"` + cityURI + `"},` +
	`"name":{"$ref":"` + cityURI + `#/$defs/name"}}}`

func TestFullProfileResourcesReachRef(t *testing.T) {
	mustRefuse(t, usesCity, full, cityURI)
	doc := []byte(cityResource)
	s := mustCompileFull(t, usesCity, CompileOptions{Profile: ProfileFull, Resources: []Resource{{URI: cityURI, Schema: doc}}})
	for i := range doc {
		doc[i] = ' ' // the schema holds its own copy
	}
	verdict(t, s, `{"city":{"name":"Paris"},"name":"Ada"}`, true, "")
	verdict(t, s, `{"city":{}}`, false, "required")
	verdict(t, s, `{"name":""}`, false, "minLength")
}

func TestFullProfileAnnotationFormats(t *testing.T) {
	schema := `{"type":"object","properties":{"pw":{"type":"string","format":"password"},` +
		`"e":{"type":"string","format":"email"}}}`
	mustRefuse(t, schema, full, `"password"`)
	s := mustCompileFull(t, schema, CompileOptions{Profile: ProfileFull, AnnotationFormats: []string{"binary", "password"}})
	verdict(t, s, `{"pw":"hunter2"}`, true, "")
	verdict(t, s, `{"pw":7}`, false, "type")
	verdict(t, s, `{"e":"not an email"}`, false, "format")
}

// NewRegistry(WithProfile(ProfileFull)) registers what the core profile refuses and
// checks its calls; the other compile options reach the tools' schemas too.
func TestFullProfileRegistry(t *testing.T) {
	var runs atomic.Int32
	echo := func(_ context.Context, args json.RawMessage) (string, error) {
		runs.Add(1)
		return string(args), nil
	}
	err := newRegistry(t).Register(New("weather", "", refSchema, echo))
	if !errors.Is(err, ErrInvalidSchema) || !strings.HasPrefix(err.Error(), `invalid parameters for "weather": #/$defs: unsupported keyword "$defs"`) {
		t.Errorf("core registry: %v", err)
	}

	r := NewRegistry(WithProfile(ProfileFull), WithResource(cityURI, json.RawMessage(cityResource)),
		WithAnnotationFormats("password"))
	defer r.Close()
	// $defs is no draft-07 keyword: a draft-07 registry reads definitions.
	r7 := NewRegistry(WithProfile(ProfileFull), WithDefaultDraft(Draft7))
	defer r7.Close()
	tools := []struct {
		r                                  *Registry
		name, schema, valid, invalid, want string
	}{
		{r, "weather", refSchema, `{"city":"Paris"}`, `{"city":3}`,
			"error: invalid arguments for weather:\n$.city: expected string, got integer"},
		{r, "visit", usesCity, `{"city":{"name":"Paris"}}`, `{"city":{}}`,
			"error: invalid arguments for visit:\n$.city: missing required property \"name\""},
		{r, "login", `{"type":"object","properties":{"pw":{"type":"string","format":"password"}}}`,
			`{"pw":"hunter2"}`, `{"pw":7}`, "error: invalid arguments for login:\n$.pw: expected string, got integer"},
		{r7, "draft7", `{"type":"object","definitions":{"s":{"type":"string"}},"properties":{"a":{"$ref":"#/definitions/s","maxLength":1}}}`,
			`{"a":"xyz"}`, `{"a":1}`, "error: invalid arguments for draft7:\n$.a: expected string, got integer"},
	}
	for _, tc := range tools {
		r := tc.r
		if err := r.Register(New(tc.name, "", tc.schema, echo)); err != nil {
			t.Errorf("waits for the core's full profile: registering %s: %v", tc.schema, err)
			continue
		}
		before := runs.Load()
		if res := r.Call(context.Background(), types.ToolCall{ID: "c", Name: tc.name, Arguments: tc.valid}); res.IsError || res.Content != tc.valid {
			t.Errorf("%s %s: %#v", tc.name, tc.valid, res)
		}
		if res := r.Call(context.Background(), types.ToolCall{ID: "c", Name: tc.name, Arguments: tc.invalid}); !res.IsError || res.Content != tc.want {
			t.Errorf("%s %s: %q, want %q", tc.name, tc.invalid, res.Content, tc.want)
		}
		if got := runs.Load() - before; got != 1 {
			t.Errorf("%s: the tool ran %d times, want 1", tc.name, got)
		}
	}
}
