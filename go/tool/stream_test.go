package tool

// Streams: Finish gives what ValidateJSON and Call give for every byte written, a
// refusal comes at the byte docs/streaming.md names and is final, and a call's tool
// runs only in Finish.

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"toolgate/types"
)

type streamVector struct {
	Name     string          `json:"name"`
	Schema   json.RawMessage `json:"schema"`
	Instance string          `json:"instance"`
	Valid    bool            `json:"valid"`
}

// readStreamVectors reads ../../tests/vectors.json, the vectors every host runs.
func readStreamVectors(tb testing.TB) []streamVector {
	data, err := os.ReadFile(filepath.Join("..", "..", "tests", "vectors.json"))
	if err != nil {
		tb.Fatalf("the shared vectors: %v", err)
	}
	var vs []streamVector
	if err := json.Unmarshal(data, &vs); err != nil {
		tb.Fatal(err)
	}
	return vs
}

// streamSplit writes b to a new stream of s in chunks of the sizes given (cycled) and
// checks what every split must give: a refusal is final and never taken back, every
// byte is counted, Finish is ValidateJSON's answer or the refusal. It returns whether
// the stream was refused.
func streamSplit(t *testing.T, s *Schema, b []byte, sizes []int, what string) bool {
	t.Helper()
	whole := s.ValidateJSON(b)
	st := s.Stream()
	defer st.Close()
	var refusal *RefusedError
	for at, k := 0, 0; at < len(b); k++ {
		n := min(max(sizes[k%len(sizes)], 1), len(b)-at)
		got, err := st.Write(b[at : at+n])
		if got != n {
			t.Fatalf("%s: wrote %d of %d bytes", what, got, n)
		}
		var r *RefusedError
		switch {
		case err == nil:
			if refusal != nil {
				t.Fatalf("%s: a refusal was taken back at byte %d", what, at)
			}
		case errors.As(err, &r):
			if refusal != nil && r != refusal {
				t.Fatalf("%s: a refusal changed: %v then %v", what, refusal, r)
			}
			refusal = r
		default:
			t.Fatalf("%s: %v", what, err)
		}
		if st.Refused() != (refusal != nil) {
			t.Fatalf("%s: Refused() is %v", what, st.Refused())
		}
		at += n
	}
	if st.BytesRead() != len(b) {
		t.Fatalf("%s: BytesRead %d, want %d", what, st.BytesRead(), len(b))
	}
	finished := st.Finish()
	if refusal == nil {
		if !reflect.DeepEqual(finished, whole) {
			t.Fatalf("%s: Finish\n %#v\nValidateJSON\n %#v", what, finished, whole)
		}
		return false
	}
	if !reflect.DeepEqual(finished, refusal.Errors) || len(finished) == 0 {
		t.Fatalf("%s: Finish %v, refused with %v", what, finished, refusal.Errors)
	}
	if whole == nil {
		t.Fatalf("%s: a valid instance was refused: %v", what, refusal)
	}
	if finished[0].Keyword == "json" && !reflect.DeepEqual(finished, whole) {
		t.Fatalf("%s: malformed JSON refused as %v, ValidateJSON says %v", what, finished, whole)
	}
	return true
}

// Every shared vector, byte by byte (so every prefix of a valid instance is written
// without a refusal), in chunks and whole: Finish equals ValidateJSON, errors
// included, and whether a refusal comes depends on the bytes, not the chunks.
func TestStreamVectors(t *testing.T) {
	vs := readStreamVectors(t)
	early := 0
	for _, v := range vs {
		s, err := Compile(v.Schema)
		if err != nil {
			t.Fatalf("%s: %v", v.Name, err)
		}
		b := []byte(v.Instance)
		one := streamSplit(t, s, b, []int{1}, v.Name+" (byte by byte)")
		some := streamSplit(t, s, b, []int{3, 7, 2, 16}, v.Name+" (in chunks)")
		whole := streamSplit(t, s, b, []int{len(b)}, v.Name+" (whole)")
		if one != some || one != whole {
			t.Errorf("%s: refused byte by byte %v, in chunks %v, whole %v", v.Name, one, some, whole)
		}
		if one {
			early++
		}
		s.Close()
	}
	if early == 0 {
		t.Error("no vector was refused before Finish")
	}
}

// refusedAt writes b byte by byte and returns the index of the byte the stream was
// refused at (-1: none) and the refusal.
func refusedAt(t *testing.T, s *Schema, b string) (int, *RefusedError) {
	t.Helper()
	st := s.Stream()
	defer st.Close()
	for i := range len(b) {
		if _, err := st.Write([]byte{b[i]}); err != nil {
			var r *RefusedError
			if !errors.As(err, &r) {
				t.Fatalf("%q: %v", b, err)
			}
			return i, r
		}
	}
	return -1, nil
}

// The byte docs/streaming.md's table names: a string where an integer goes at its
// opening quote, an unexpected property at its name's closing quote.
func TestStreamRefusesAtTheByteTheRuleDecides(t *testing.T) {
	s := compile(t, `{"type":"object","properties":{"a":{"type":"integer"}},"additionalProperties":false}`)
	for _, c := range []struct {
		text string
		at   int
		want ValidationError
	}{
		{`{"a":"x"}`, 5, ValidationError{Path: "$.a", Msg: "expected integer, got string", Pointer: "/a",
			Keyword: "type", SchemaLocation: "#/properties/a/type"}},
		{`{"b":1}`, 3, ValidationError{Path: "$", Msg: `unexpected property "b"; did you mean "a"?`, Pointer: "/b",
			Keyword: "additionalProperties", SchemaLocation: "#/additionalProperties"}},
		{`{"a":1,}`, 7, ValidationError{}},
	} {
		at, r := refusedAt(t, s, c.text)
		if at != c.at || r == nil {
			t.Errorf("%s: refused at byte %d (%v), want %d", c.text, at, r, c.at)
			continue
		}
		if c.want.Msg == "" {
			if r.Errors[0].Keyword != "json" {
				t.Errorf("%s: %v", c.text, r.Errors)
			}
			continue
		}
		if !reflect.DeepEqual(r.Errors, []ValidationError{c.want}) {
			t.Errorf("%s: %#v", c.text, r.Errors)
		}
		if r.Error() != "stream refused: "+c.want.Error() {
			t.Errorf("%s: Error() %q", c.text, r.Error())
		}
	}

	// The same split by hand: nothing decided after `{"a":`, the quote decides.
	st := s.Stream()
	defer st.Close()
	if _, err := st.Write([]byte(`{"a":`)); err != nil || st.Refused() {
		t.Fatalf("prefix: %v", err)
	}
	n, err := st.Write([]byte(`"x"`))
	var r *RefusedError
	if n != 3 || !errors.As(err, &r) || r.Result != nil {
		t.Fatalf("refusal: %d %#v", n, err)
	}
	// Final: later writes, even of bytes that would mend nothing, say the same.
	if _, again := st.Write([]byte(`}`)); again != err {
		t.Errorf("a later write: %v", again)
	}
	if st.BytesRead() != 9 {
		t.Errorf("BytesRead %d", st.BytesRead())
	}
	if got := st.Finish(); !reflect.DeepEqual(got, r.Errors) {
		t.Errorf("Finish %v", got)
	}
}

func TestSchemaStreamAsWriter(t *testing.T) {
	s := compile(t, `{"type":"object","properties":{"tags":{"type":"array","maxItems":2}}}`)
	st := s.Stream()
	defer st.Close()
	_, err := io.Copy(st, strings.NewReader(`{"tags":[1,2,3,4,5]}`))
	var r *RefusedError
	if !errors.As(err, &r) || r.Errors[0].Keyword != "maxItems" {
		t.Fatalf("io.Copy: %v", err)
	}
	ok := s.Stream()
	defer ok.Close()
	if _, err := io.Copy(ok, strings.NewReader(`{"tags":[1,2]}`)); err != nil {
		t.Fatal(err)
	}
	if errs := ok.Finish(); errs != nil {
		t.Fatal(errs)
	}
	// Finished: Finish again says the same, Write no more.
	if errs := ok.Finish(); errs != nil {
		t.Fatal(errs)
	}
	if _, err := ok.Write([]byte(" ")); !errors.Is(err, ErrClosed) {
		t.Errorf("write after Finish: %v", err)
	}
}

// TestSchemaStreamAtMost: a refusal lists the first max violations and the line that
// says there were more; an unrefused stream finishes as ValidateJSONAtMost.
func TestSchemaStreamAtMost(t *testing.T) {
	s := compile(t, `{"type":"object","required":["a","b","c"]}`)
	st := s.StreamAtMost(2)
	defer st.Close()
	_, err := io.Copy(st, strings.NewReader(`{}`))
	var r *RefusedError
	if !errors.As(err, &r) {
		t.Fatalf("io.Copy: %v", err)
	}
	var lines []string
	for _, e := range st.Finish() {
		lines = append(lines, e.Error())
	}
	want := []string{
		`$: missing required property "a"`,
		`$: missing required property "b"`,
		"$: more violations not listed (the first 2 are)",
	}
	if !reflect.DeepEqual(lines, want) {
		t.Errorf("refusal: %q", lines)
	}
	truncated := s.StreamAtMost(1)
	defer truncated.Close()
	if _, err := truncated.Write([]byte(`{"a":1`)); err != nil {
		t.Fatal(err)
	}
	if got, want := truncated.Finish(), s.ValidateJSONAtMost([]byte(`{"a":1`), 1); !reflect.DeepEqual(got, want) {
		t.Errorf("finish %v, ValidateJSONAtMost %v", got, want)
	}
}

// Close twice, Close after Finish, Finish and Write after Close, a stream of a closed
// schema, and a schema closed under an open stream.
func TestSchemaStreamClose(t *testing.T) {
	s := compile(t, `{"type":"object"}`)
	st := s.Stream()
	st.Write([]byte(`{"a"`))
	st.Close()
	st.Close()
	if _, err := st.Write([]byte(`:1}`)); !errors.Is(err, ErrClosed) {
		t.Errorf("write after Close: %v", err)
	}
	if errs := st.Finish(); len(errs) != 1 || errs[0].Keyword != "closed" {
		t.Errorf("Finish after Close: %v", errs)
	}

	done := s.Stream()
	done.Write([]byte(`{}`))
	if errs := done.Finish(); errs != nil {
		t.Fatal(errs)
	}
	done.Close()
	done.Close()
	if errs := done.Finish(); errs != nil {
		t.Errorf("Finish after Close keeps the answer: %v", errs)
	}

	s2, _ := Compile(json.RawMessage(`{"type":"object"}`))
	open := s2.Stream()
	if _, err := open.Write([]byte(`{"a":`)); err != nil {
		t.Fatal(err)
	}
	s2.Close() // frees the open stream with the schema
	if _, err := open.Write([]byte(`1}`)); !errors.Is(err, ErrClosed) {
		t.Errorf("write after the schema closed: %v", err)
	}
	if errs := open.Finish(); !reflect.DeepEqual(errs, s2.ValidateJSON([]byte(`{"a":1}`))) {
		t.Errorf("Finish after the schema closed: %v", errs)
	}
	open.Close()
	late := s2.Stream()
	defer late.Close()
	if _, err := late.Write([]byte(`{}`)); !errors.Is(err, ErrClosed) {
		t.Errorf("a stream of a closed schema: %v", err)
	}
	if errs := late.Finish(); errs[0].Keyword != "closed" {
		t.Errorf("%v", errs)
	}
}

// streamRecorder is a tool that records the arguments of each run and answers with
// them (or with the ctx value of ctxKey).
type streamRecorder struct {
	mu   sync.Mutex
	runs []string
}

func (rec *streamRecorder) fn(ctx context.Context, args json.RawMessage) (string, error) {
	rec.mu.Lock()
	rec.runs = append(rec.runs, string(args))
	rec.mu.Unlock()
	if v, ok := ctx.Value(ctxKey{}).(string); ok {
		return "ctx " + v, nil
	}
	return "ran " + string(args), nil
}

func (rec *streamRecorder) count() int {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	return len(rec.runs)
}

// sameResult fails unless a and b say the same: every field, the violations and the
// provider-shaped answer.
func sameResult(t *testing.T, what string, a, b Result) {
	t.Helper()
	if a.CallID != b.CallID || a.Name != b.Name || a.Content != b.Content || a.IsError != b.IsError ||
		a.Outcome != b.Outcome || a.Structured != b.Structured || a.InvalidResult != b.InvalidResult ||
		a.Attempts != b.Attempts {
		t.Fatalf("%s:\n stream %#v\n call   %#v", what, a, b)
	}
	if !reflect.DeepEqual(a.Violations(), b.Violations()) {
		t.Fatalf("%s: violations %v, call's %v", what, a.Violations(), b.Violations())
	}
	ja, erra := a.JSON(OpenAIChat)
	jb, errb := b.JSON(OpenAIChat)
	if ja != jb || (erra == nil) != (errb == nil) {
		t.Fatalf("%s: JSON %s, call's %s", what, ja, jb)
	}
}

// streamCall writes args to a new call stream in chunks of n bytes and finishes it.
func streamCall(t *testing.T, r *Registry, ctx context.Context, name, args string, n int) (Result, bool) {
	t.Helper()
	cs := r.StreamCall("c1", name)
	defer cs.Close()
	refused := false
	for at := 0; at < len(args); at += n {
		if _, err := cs.Write([]byte(args[at:min(at+n, len(args))])); err != nil {
			var rf *RefusedError
			if !errors.As(err, &rf) || rf.Result == nil {
				t.Fatalf("%s %q: %v", name, args, err)
			}
			refused = true
		}
	}
	if cs.Refused() != refused {
		t.Fatalf("Refused() %v", cs.Refused())
	}
	return cs.Finish(ctx), refused
}

// A call stream's Finish is Call's result on the same bytes; the tool runs there,
// once, with the bytes unchanged, and never on a refused stream.
func TestCallStreamMatchesCall(t *testing.T) {
	r := newRegistry(t)
	var rec streamRecorder
	r.MustRegister(
		New("weather", "", weatherSchema, rec.fn),
		New("any", "", "", rec.fn),
		Func{Def: types.ToolDef{Name: "typed", OutputSchema: json.RawMessage(`{"type":"integer"}`)},
			Fn: func(_ context.Context, args json.RawMessage) (string, error) { return string(args[:1]), nil }},
		New("fails", "", "", func(context.Context, json.RawMessage) (string, error) { return "", errors.New("no") }),
	)
	calls := []struct{ name, args string }{
		{"weather", `{"city":"Paris","days":3}`},
		{"weather", ` { "city" : "Lyon" } `},
		{"weather", `{"days": "3", "unit": "kelvin", "country": "FR"}`},
		{"weather", `{"city":"Paris","days":9}`},
		{"weather", `{"city":"Paris"`},
		{"weather", `{"city":"a","city":"b"}`},
		{"weather", ``},
		{"any", ``},
		{"any", `  `},
		{"any", `[]`},
		{"typed", `{}`},
		{"fails", `{}`},
		{"nope", `{}`},
	}
	for _, c := range calls {
		for _, n := range []int{1, 4, 1 << 20} {
			before := rec.count()
			want := r.Call(context.Background(), types.ToolCall{ID: "c1", Name: c.name, Arguments: c.args})
			called := rec.count() - before
			before = rec.count()
			got, refused := streamCall(t, r, context.Background(), c.name, c.args, n)
			ran := rec.count() - before
			if refused {
				// The refusal says what was known when it came: of the same kind as
				// Call's result, its violations among Call's, and nothing ran.
				if ran != 0 || got.Outcome != want.Outcome || !got.IsError ||
					!strings.HasPrefix(got.Content, "error: invalid arguments for "+c.name) && got.Content != want.Content {
					t.Fatalf("%s %q: refused as %#v (ran %d), Call gives %#v", c.name, c.args, got, ran, want)
				}
				for _, v := range got.Violations() {
					if !slices.Contains(want.Violations(), v) {
						t.Fatalf("%s %q: %v is not among Call's %v", c.name, c.args, v, want.Violations())
					}
				}
				continue
			}
			sameResult(t, c.name+" "+c.args, got, want)
			if ran != called {
				t.Fatalf("%s %q: the stream ran the tool %d times, Call %d", c.name, c.args, ran, called)
			}
		}
	}
	// The bytes reach the tool unchanged.
	before := rec.count()
	got, _ := streamCall(t, r, context.Background(), "any", "{ \"x\" :\n[1, 2.50] }", 3)
	if got.Content != "ran { \"x\" :\n[1, 2.50] }" || rec.count() != before+1 || got.Attempts != 1 {
		t.Fatalf("%#v", got)
	}
}

func TestCallStreamRunsOnlyInFinish(t *testing.T) {
	r := newRegistry(t)
	var rec streamRecorder
	r.MustRegister(New("t", "", "", rec.fn))

	cs := r.StreamCall("c1", "t")
	if _, err := cs.Write([]byte(`{"a":`)); err != nil {
		t.Fatal(err)
	}
	if _, err := cs.Write([]byte(`1}`)); err != nil {
		t.Fatal(err)
	}
	if rec.count() != 0 {
		t.Fatal("a write ran the tool")
	}
	ctx := context.WithValue(context.Background(), ctxKey{}, "ada")
	res := cs.Finish(ctx)
	if res.Content != "ctx ada" || rec.count() != 1 || res.CallID != "c1" || res.Name != "t" {
		t.Fatalf("%#v, %d runs", res, rec.count())
	}
	// Once: Finish again gives the same result and runs nothing.
	if again := cs.Finish(ctx); again.Content != res.Content || rec.count() != 1 {
		t.Fatalf("%#v", again)
	}
	if _, err := cs.Write([]byte(` `)); !errors.Is(err, ErrClosed) {
		t.Errorf("write after Finish: %v", err)
	}
	cs.Close()
	cs.Close()
	if cs.BytesRead() != 7 {
		t.Errorf("BytesRead %d", cs.BytesRead())
	}

	// Never finished: closed, or dropped, runs nothing.
	unfinished := r.StreamCall("c2", "t")
	unfinished.Write([]byte(`{}`))
	unfinished.Close()
	unfinished.Close()
	if res := unfinished.Finish(context.Background()); res.Content != "error: stream is closed" || res.Outcome != OutcomeInternal {
		t.Errorf("%#v", res)
	}
	dropped := r.StreamCall("c3", "t")
	dropped.Write([]byte(`{}`))
	dropped = nil
	runtime.GC()
	runtime.GC()
	if rec.count() != 1 {
		t.Fatalf("an unfinished stream ran the tool: %v", rec.runs)
	}

	// A ctx already done runs nothing, as Call.
	cctx, cancel := context.WithCancel(context.Background())
	cancel()
	cancelled := r.StreamCall("c4", "t")
	defer cancelled.Close()
	cancelled.Write([]byte(`{}`))
	want := r.Call(cctx, types.ToolCall{ID: "c4", Name: "t", Arguments: `{}`})
	if got := cancelled.Finish(cctx); got.Content != want.Content || got.Outcome != want.Outcome || rec.count() != 1 {
		t.Errorf("%#v, want %#v", got, want)
	}
}

func TestCallStreamRefusals(t *testing.T) {
	r := NewRegistry(WithMaxArgumentBytes(8))
	defer r.Close()
	var rec streamRecorder
	r.MustRegister(New("t", "", `{"type":"object","properties":{"a":{"type":"integer"}}}`, rec.fn))

	// An unknown tool is refused at once, with Call's result.
	unknown := r.StreamCall("c1", "nope")
	defer unknown.Close()
	if !unknown.Refused() {
		t.Fatal("an unknown tool is not refused at once")
	}
	n, err := unknown.Write([]byte(`{}`))
	var rf *RefusedError
	if n != 2 || !errors.As(err, &rf) || rf.Result.Outcome != OutcomeUnknownTool || rf.Errors != nil {
		t.Fatalf("%d %#v", n, err)
	}
	want := r.Call(context.Background(), types.ToolCall{ID: "c1", Name: "nope", Arguments: `{}`})
	sameResult(t, "unknown", unknown.Finish(context.Background()), want)
	if err.Error() != want.Content {
		t.Errorf("Error() %q", err.Error())
	}

	// The size limit: refused by the write that goes past it.
	big := r.StreamCall("c2", "t")
	defer big.Close()
	if _, err := big.Write([]byte(`{"a":`)); err != nil {
		t.Fatal(err)
	}
	if _, err := big.Write([]byte(`"bcdef"}`)); !errors.As(err, &rf) {
		t.Fatalf("over the limit: %v", err)
	}
	sameResult(t, "size", big.Finish(context.Background()),
		r.Call(context.Background(), types.ToolCall{ID: "c2", Name: "t", Arguments: `{"a":"bcdef"}`}))

	// Invalid: refused at the quote, with the violation Call lists.
	bad := r.StreamCall("c3", "t")
	defer bad.Close()
	bad.Write([]byte(`{"a":`))
	if _, err := bad.Write([]byte(`"`)); !errors.As(err, &rf) || rf.Result.Outcome != OutcomeInvalidArguments {
		t.Fatalf("%v", err)
	}
	if len(rf.Errors) != 1 || rf.Errors[0].Path != "$.a" || rf.Errors[0].Keyword != "type" {
		t.Errorf("%v", rf.Errors)
	}
	if res := bad.Finish(context.Background()); res.Content != rf.Result.Content {
		t.Errorf("%#v", res)
	}
	if rec.count() != 0 {
		t.Errorf("a refused stream ran the tool")
	}
}

// A registry closed under an open stream frees it: the stream runs nothing and
// finishes as Call does on a closed registry.
func TestCallStreamOnAClosedRegistry(t *testing.T) {
	r := NewRegistry()
	var rec streamRecorder
	r.MustRegister(New("t", "", "", rec.fn))
	open := r.StreamCall("c1", "t")
	defer open.Close()
	open.Write([]byte(`{"a":`))
	r.Close()
	want := r.Call(context.Background(), types.ToolCall{ID: "c1", Name: "t", Arguments: `{"a":1}`})
	if _, err := open.Write([]byte(`1}`)); !errors.Is(err, ErrClosed) {
		t.Errorf("write: %v", err)
	}
	if got := open.Finish(context.Background()); got.Content != want.Content || got.Outcome != want.Outcome || !got.IsError {
		t.Errorf("%#v, want %#v", got, want)
	}
	late := r.StreamCall("c2", "t")
	defer late.Close()
	if got := late.Finish(context.Background()); got.Content != "error: registry is closed" || got.CallID != "c2" {
		t.Errorf("%#v", got)
	}
	if rec.count() != 0 {
		t.Error("a tool ran")
	}
}

// Streams on many goroutines while the registry closes: each finishes with the tool's
// answer or the closed-registry result, and none runs the tool twice.
func TestCallStreamsRaceClose(t *testing.T) {
	for range 20 {
		r := NewRegistry()
		var runs atomic.Int64
		r.MustRegister(New("t", "", "", func(context.Context, json.RawMessage) (string, error) {
			runs.Add(1)
			return "ok", nil
		}))
		var wg sync.WaitGroup
		var answered atomic.Int64
		for range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				cs := r.StreamCall("c", "t")
				defer cs.Close()
				cs.Write([]byte(`{"a"`))
				cs.Write([]byte(`:1}`))
				switch res := cs.Finish(context.Background()); res.Content {
				case "ok":
					answered.Add(1)
				case "error: registry is closed":
				default:
					t.Errorf("%#v", res)
				}
			}()
		}
		r.Close()
		wg.Wait()
		if runs.Load() != answered.Load() {
			t.Fatalf("%d runs, %d answers", runs.Load(), answered.Load())
		}
	}
}
