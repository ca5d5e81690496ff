package tool

// The binding's own promises: the shared conformance vectors, contexts, re-entrancy,
// handle lifetimes, Close and concurrency.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"toolgate/types"
)

// TestConformanceVectors runs ../../tests/vectors.json, the file the Rust, C and Python
// tests run too: every violation in order, with its path, pointer, keyword, message
// and schema location.
func TestConformanceVectors(t *testing.T) {
	path := filepath.Join("..", "..", "tests", "vectors.json")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("the shared vectors: %v", err)
	}
	var vectors []struct {
		Name     string          `json:"name"`
		Schema   json.RawMessage `json:"schema"`
		Instance string          `json:"instance"`
		As       string          `json:"as"`
		Valid    bool            `json:"valid"`
		Errors   []struct {
			Path, Pointer, Keyword, Message string
			SchemaLocation                  string `json:"schemaLocation"`
		} `json:"errors"`
	}
	if err := json.Unmarshal(data, &vectors); err != nil {
		t.Fatal(err)
	}
	if len(vectors) < 40 {
		t.Fatalf("only %d vectors", len(vectors))
	}
	for _, v := range vectors {
		s, err := Compile(v.Schema)
		if err != nil {
			t.Errorf("%s: schema refused: %v", v.Name, err)
			continue
		}
		got := s.ValidateJSON([]byte(v.Instance))
		if v.As == "arguments" {
			got = s.ValidateArguments([]byte(v.Instance))
		}
		want := []ValidationError{}
		for _, e := range v.Errors {
			if e.SchemaLocation == "" {
				t.Fatalf("%s: a violation without its schemaLocation", v.Name)
			}
			want = append(want, ValidationError{Path: e.Path, Msg: e.Message, Pointer: e.Pointer,
				Keyword: e.Keyword, SchemaLocation: e.SchemaLocation})
		}
		if (got == nil) != v.Valid || v.Valid != (len(want) == 0) {
			t.Errorf("%s: valid %v, got %d errors, want %d", v.Name, v.Valid, len(got), len(want))
		}
		if len(want) == 0 {
			want = nil
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s:\n got %#v\nwant %#v", v.Name, got, want)
		}
		s.Close()
	}
}

type ctxKey struct{}

func TestContextReachesTool(t *testing.T) {
	r := newRegistry(t)
	r.MustRegister(New("whoami", "", "", func(ctx context.Context, _ json.RawMessage) (string, error) {
		if err := ctx.Err(); err != nil {
			return "", err
		}
		v, _ := ctx.Value(ctxKey{}).(string)
		return "user=" + v, nil
	}))
	ctx := context.WithValue(context.Background(), ctxKey{}, "ada")
	if res := r.Call(ctx, types.ToolCall{ID: "1", Name: "whoami"}); res.Content != "user=ada" {
		t.Errorf("value: %#v", res)
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	// An already cancelled ctx runs nothing (TestCallWithExpiredContextDoesNotRun).
	if res := r.Call(cctx, types.ToolCall{ID: "2", Name: "whoami"}); res.Content != "error: call cancelled" || !res.IsError {
		t.Errorf("canceled: %#v", res)
	}
	if res := r.Call(context.TODO(), types.ToolCall{ID: "3", Name: "whoami"}); res.Content != "user=" {
		t.Errorf("TODO: %#v", res)
	}
}

// A tool may call into its own registry: other tools, Register, Definitions.
func TestReentrantTools(t *testing.T) {
	r := newRegistry(t)
	var n atomic.Int64
	r.MustRegister(
		New("echo", "", "", func(_ context.Context, args json.RawMessage) (string, error) { return string(args), nil }),
		New("outer", "", "", func(ctx context.Context, _ json.RawMessage) (string, error) {
			inner := r.Call(ctx, types.ToolCall{ID: "inner", Name: "echo", Arguments: `{"from":"outer"}`})
			name := fmt.Sprintf("dyn_%d", n.Add(1))
			if err := r.Register(New(name, "", "", func(context.Context, json.RawMessage) (string, error) { return "dyn", nil })); err != nil {
				return "", err
			}
			return inner.Content + " " + r.Call(ctx, types.ToolCall{Name: name}).Content + " " + fmt.Sprint(len(r.Definitions())), nil
		}),
	)
	if res := r.Call(context.Background(), types.ToolCall{ID: "1", Name: "outer"}); res.Content != `{"from":"outer"} dyn 3` {
		t.Errorf("%#v", res)
	}
}

// The arguments a tool receives are its own copy.
func TestArgumentsAreACopy(t *testing.T) {
	r := newRegistry(t)
	var kept json.RawMessage
	r.MustRegister(New("keep", "", "", func(_ context.Context, args json.RawMessage) (string, error) {
		kept = args
		for i := range args {
			args[i] = 'x'
		}
		return "", nil
	}))
	call := types.ToolCall{ID: "1", Name: "keep", Arguments: `{"a":1}`}
	r.Call(context.Background(), call)
	if call.Arguments != `{"a":1}` || string(kept) != "xxxxxxx" {
		t.Errorf("arguments %q kept %q", call.Arguments, kept)
	}
}

func TestContentBytes(t *testing.T) {
	r := newRegistry(t)
	r.MustRegister(
		New("nul", "", "", func(context.Context, json.RawMessage) (string, error) { return "a\x00b", nil }),
		New("big", "", "", func(context.Context, json.RawMessage) (string, error) { return strings.Repeat("é", 1<<16), nil }),
		New("empty", "", "", func(context.Context, json.RawMessage) (string, error) { return "", nil }),
		New("empty_err", "", "", func(context.Context, json.RawMessage) (string, error) { return "", errors.New("") }),
	)
	ctx := context.Background()
	if res := r.Call(ctx, types.ToolCall{Name: "nul"}); res.Content != "a\x00b" {
		t.Errorf("nul: %q", res.Content)
	}
	if res := r.Call(ctx, types.ToolCall{Name: "big"}); res.Content != strings.Repeat("é", 1<<16) {
		t.Errorf("big: %d bytes", len(res.Content))
	}
	if res := r.Call(ctx, types.ToolCall{Name: "empty"}); fields(res) != (Result{Name: "empty", Attempts: 1}) {
		t.Errorf("empty: %#v", res)
	}
	if res := r.Call(ctx, types.ToolCall{Name: "empty_err"}); res.Content != "error: " || !res.IsError {
		t.Errorf("empty error: %#v", res)
	}
}

// Every registration's handle is released exactly once: on failure at once, else
// when the registry is closed (or finalized).
func TestHandlesReleased(t *testing.T) {
	waitLive := func(want int64) {
		t.Helper()
		deadline := time.Now().Add(5 * time.Second)
		for liveTools.Load() != want && time.Now().Before(deadline) {
			runtime.GC()
			time.Sleep(10 * time.Millisecond)
		}
		if got := liveTools.Load(); got != want {
			t.Fatalf("live tool handles %d, want %d", got, want)
		}
	}
	base := liveTools.Load()
	noop := func(context.Context, json.RawMessage) (string, error) { return "", nil }
	r := NewRegistry()
	r.MustRegister(New("a", "", "", noop), New("b", "", "", noop))
	_ = r.Register(New("a", "", "", noop))                           // duplicate
	_ = r.Register(New("c", "", `{"type":"string"}`, noop))          // not an object
	_ = r.Register(New("d", "", `{"format":"email"}`, noop))         // bad schema
	_ = r.Register(New("e", "", "{\"description\":\"\xff\"}", noop)) // not UTF-8
	_ = r.Register(New("f", "\xff", "", noop))                       // description not UTF-8
	waitLive(base + 2)
	r.Close()
	waitLive(base)

	// A registry dropped without Close is freed by its finalizer.
	func() {
		r := NewRegistry()
		r.MustRegister(New("a", "", "", noop))
	}()
	waitLive(base)

	// Likewise a schema (nothing observable but the absence of a crash).
	func() {
		s, _ := Compile(json.RawMessage(`{"type":"object"}`))
		_ = s.ValidateJSON([]byte(`{}`))
	}()
	runtime.GC()
}

// TestValidateAtMost: the first max violations sorted, then the line that says there
// were more; malformed JSON past the limit stays the one violation; arguments mean {}
// when empty.
func TestValidateAtMost(t *testing.T) {
	s, err := Compile(json.RawMessage(`{"type":"array","items":{"type":"string"}}`))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	lines := func(errs []ValidationError) []string {
		var out []string
		for _, e := range errs {
			out = append(out, e.Error())
		}
		return out
	}
	got := s.ValidateJSONAtMost([]byte(`[1,2,3]`), 2)
	want := []string{
		"$[0]: expected string, got integer",
		"$[1]: expected string, got integer",
		"$: more violations not listed (the first 2 are)",
	}
	if !reflect.DeepEqual(lines(got), want) {
		t.Errorf("at most 2: %q", lines(got))
	}
	if last := got[len(got)-1]; last.Keyword != "violations" || last.SchemaLocation != "#" {
		t.Errorf("the last line: %#v", last)
	}
	if got := s.ValidateJSONAtMost([]byte(`[1,2,3]`), ListedViolations); !reflect.DeepEqual(got, s.ValidateJSON([]byte(`[1,2,3]`))) {
		t.Errorf("under the limit, the whole list: %q", lines(got))
	}
	if got := s.ValidateJSONAtMost([]byte(`[1,2,3]`), -1); !reflect.DeepEqual(lines(got), []string{"$: more violations not listed (the first 0 are)"}) {
		t.Errorf("max below 0: %q", lines(got))
	}
	if got := s.ValidateJSONAtMost([]byte(`[1,2,3,`), 1); len(got) != 1 || got[0].Keyword != "json" {
		t.Errorf("malformed past the limit: %q", lines(got))
	}
	if got := s.ValidateJSONAtMost([]byte(`["a"]`), 0); got != nil {
		t.Errorf("valid: %q", lines(got))
	}
	r, err := Compile(json.RawMessage(`{"type":"object","required":["x"]}`))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if got := r.ValidateArgumentsAtMost(nil, 1); !reflect.DeepEqual(lines(got), []string{`$: missing required property "x"`}) {
		t.Errorf("empty arguments: %q", lines(got))
	}
	r.Close()
	if got := r.ValidateJSONAtMost([]byte(`{}`), 1); len(got) != 1 || got[0].Keyword != "closed" {
		t.Errorf("closed: %q", lines(got))
	}
}

func TestSchemaClose(t *testing.T) {
	s, err := Compile(json.RawMessage(weatherSchema))
	if err != nil {
		t.Fatal(err)
	}
	if s.ValidateJSON([]byte(`{"city":"x"}`)) != nil {
		t.Fatal("valid")
	}
	s.Close()
	s.Close()
	errs := s.ValidateJSON([]byte(`{"city":"x"}`))
	if len(errs) != 1 || errs[0].Error() != "$: schema is closed" {
		t.Errorf("closed schema: %#v", errs)
	}
	var nilSchema *Schema
	if nilSchema.ValidateJSON([]byte(`{}`)) == nil {
		t.Error("nil schema validated")
	}
	r := NewRegistry()
	r.Close()
	if err := r.Register(New("a", "", "", nil)); !errors.Is(err, ErrClosed) {
		t.Errorf("Register after Close: %v", err)
	}
	if n, d := r.Names(), r.Definitions(); len(n) != 0 || len(d) != 0 {
		t.Errorf("after Close: %q %v", n, d)
	}
	if _, ok := r.Get("a"); ok {
		t.Error("Get after Close")
	}
}

// Goroutines calling (valid, invalid, failing, panicking, re-entrant), registering,
// listing and validating at once, while the registry and the schema are closed under
// them. Run it with -race.
func TestConcurrentCallsRegisterClose(t *testing.T) {
	for round := 0; round < 4; round++ {
		r := NewRegistry()
		var ran atomic.Int64
		r.MustRegister(
			New("get_weather", "", weatherSchema, func(_ context.Context, args json.RawMessage) (string, error) {
				ran.Add(1)
				return string(args), nil
			}),
			New("fails", "", "", func(context.Context, json.RawMessage) (string, error) { return "", errors.New("no") }),
			New("panics", "", "", func(context.Context, json.RawMessage) (string, error) { panic("boom") }),
			New("nested", "", "", func(ctx context.Context, _ json.RawMessage) (string, error) {
				return r.Call(ctx, types.ToolCall{Name: "get_weather", Arguments: `{"city":"Rome"}`}).Content, nil
			}),
		)
		s, err := Compile(json.RawMessage(weatherSchema))
		if err != nil {
			t.Fatal(err)
		}
		closed := "error: registry is closed"
		want := map[string][]string{
			"get_weather": {`{"city":"Oslo","days":2}`, closed},
			"bad":         {handWorkedText, closed},
			"fails":       {"error: no", closed},
			"panics":      {"error: tool panics panicked", closed},
			"nested":      {`{"city":"Rome"}`, closed},
		}
		calls := map[string]types.ToolCall{
			"get_weather": {Name: "get_weather", Arguments: `{"city":"Oslo","days":2}`},
			"bad":         {Name: "get_weather", Arguments: `{"days": "3", "unit": "kelvin", "country": "FR"}`},
			"fails":       {Name: "fails"},
			"panics":      {Name: "panics"},
			"nested":      {Name: "nested"},
		}
		var wg sync.WaitGroup
		var failures sync.Map
		const workers = 8
		ctx, cancel := context.WithCancel(context.Background())
		for w := 0; w < workers; w++ {
			wg.Add(1)
			go func(w int) {
				defer wg.Done()
				for i := 0; i < 200; i++ {
					switch (w + i) % 7 {
					case 0, 1, 2:
						for kind, call := range calls {
							call.ID = fmt.Sprint(w, "-", i)
							res := r.Call(ctx, call)
							ok := false
							for _, c := range want[kind] {
								ok = ok || res.Content == c
							}
							// A nested call may find the registry closing under it.
							if kind == "nested" && res.Content == "error: registry is closed" {
								ok = true
							}
							if !ok || res.CallID != call.ID {
								failures.Store(kind, fmt.Sprintf("%#v", res))
							}
						}
					case 3:
						err := r.Register(New(fmt.Sprintf("t_%d_%d", w, i), "", "", func(context.Context, json.RawMessage) (string, error) { return "", nil }))
						if err != nil && !errors.Is(err, ErrClosed) {
							failures.Store("register", err.Error())
						}
					case 4:
						_ = r.Definitions()
						_ = r.Names()
						_, _ = r.Get("get_weather")
					case 5:
						errs := s.ValidateJSON([]byte(`{"days": "3", "unit": "kelvin", "country": "FR"}`))
						if len(errs) != 4 && !(len(errs) == 1 && errs[0].Msg == "schema is closed") {
							failures.Store("validate", fmt.Sprint(errs))
						}
					case 6:
						if errs := s.ValidateJSON([]byte(`{"city":"x"}`)); errs != nil && errs[0].Msg != "schema is closed" {
							failures.Store("validate ok", fmt.Sprint(errs))
						}
					}
					if w == 0 && i == 100 {
						r.Close()
					}
					if w == 1 && i == 150 {
						s.Close()
					}
				}
			}(w)
		}
		wg.Wait()
		cancel()
		r.Close()
		s.Close()
		failures.Range(func(k, v any) bool {
			t.Errorf("round %d %v: %v", round, k, v)
			return true
		})
		if ran.Load() == 0 {
			t.Errorf("round %d: no call ran", round)
		}
	}
}

// Racing registrations of one name: exactly one wins, and Get returns the winner.
func TestConcurrentDuplicateRegister(t *testing.T) {
	r := newRegistry(t)
	const n = 16
	tools := make([]Tool, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range tools {
		answer := fmt.Sprint(i)
		tools[i] = New("same", answer, "", func(context.Context, json.RawMessage) (string, error) { return answer, nil })
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			errs[i] = r.Register(tools[i])
		}(i)
	}
	wg.Wait()
	winner := -1
	for i, err := range errs {
		switch {
		case err == nil && winner == -1:
			winner = i
		case err == nil:
			t.Fatalf("two registrations of one name succeeded: %d and %d", winner, i)
		case !errors.Is(err, ErrDuplicate):
			t.Fatalf("registration %d: %v", i, err)
		}
	}
	if winner == -1 {
		t.Fatal("no registration succeeded")
	}
	got, ok := r.Get("same")
	if !ok || got.Definition().Description != fmt.Sprint(winner) {
		t.Fatalf("Get = %v %v, winner %d", got, ok, winner)
	}
	if res := r.Call(context.Background(), types.ToolCall{Name: "same"}); res.Content != fmt.Sprint(winner) {
		t.Fatalf("Call = %#v, winner %d", res, winner)
	}
}
