package tool

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"toolgate/types"
)

// The dispatch cases of tests/registry_texts.json: each handler behaviour, the batch,
// and the exact contents, outcomes and attempts every host must give.
type dispatchVector struct {
	What     string `json:"what"`
	Case     string `json:"case"`
	Handlers []struct {
		Name       string          `json:"name"`
		Behaviour  string          `json:"behaviour"`
		Parameters json.RawMessage `json:"parameters"`
		TimeoutMs  int64           `json:"timeout_ms"`
		Idempotent bool            `json:"idempotent"`
	} `json:"handlers"`
	Options struct {
		Policy      string `json:"policy"`
		MaxBatch    int    `json:"max_batch"`
		TimeoutMs   int64  `json:"timeout_ms"`
		MaxAttempts int    `json:"max_attempts"`
		BackoffMs   *int64 `json:"backoff_ms"`
	} `json:"dispatch_options"`
	RememberCallIDs int         `json:"remember_call_ids"`
	Earlier         [][3]string `json:"earlier"`
	Batch           [][3]string `json:"batch"`
	Contents        []string    `json:"contents"`
	Outcomes        []string    `json:"outcomes"`
	Attempts        []int       `json:"attempts"`
}

func dispatchVectors(t *testing.T) []dispatchVector {
	t.Helper()
	var all []json.RawMessage
	data := registryTextsBytes(t)
	if err := json.Unmarshal(data, &all); err != nil {
		t.Fatal(err)
	}
	var out []dispatchVector
	for _, raw := range all {
		var v dispatchVector
		if err := json.Unmarshal(raw, &v); err != nil {
			t.Fatal(err)
		}
		if v.What == "dispatch" {
			out = append(out, v)
		}
	}
	return out
}

// behaviour is a vector handler's Execute.
func behaviour(name string) func(context.Context, json.RawMessage) (string, error) {
	switch name {
	case "echo":
		return func(_ context.Context, args json.RawMessage) (string, error) { return string(args), nil }
	case "block":
		return func(ctx context.Context, _ json.RawMessage) (string, error) {
			<-ctx.Done()
			return "late", nil
		}
	case "fail_retryable":
		return func(context.Context, json.RawMessage) (string, error) {
			return "", Retryable(errors.New("busy"))
		}
	case "panic":
		return func(context.Context, json.RawMessage) (string, error) { panic("boom") }
	}
	panic("unknown behaviour " + name)
}

func toolCalls(batch [][3]string) []types.ToolCall {
	calls := make([]types.ToolCall, len(batch))
	for i, c := range batch {
		calls[i] = types.ToolCall{ID: c[0], Name: c[1], Arguments: c[2]}
	}
	return calls
}

// eventLog collects a dispatch's events.
type eventLog struct {
	mu     sync.Mutex
	events []CallEvent
}

func (l *eventLog) add(e CallEvent) {
	l.mu.Lock()
	l.events = append(l.events, e)
	l.mu.Unlock()
}

func (l *eventLog) take() []CallEvent {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := l.events
	l.events = nil
	return out
}

func TestDispatchVectors(t *testing.T) {
	vectors := dispatchVectors(t)
	if len(vectors) < 9 {
		t.Fatalf("%d dispatch cases", len(vectors))
	}
	for _, v := range vectors {
		t.Run(v.Case, func(t *testing.T) {
			r := NewRegistry(WithRememberCallIDs(v.RememberCallIDs))
			defer r.Close()
			for _, h := range v.Handlers {
				r.MustRegister(Func{
					Def: types.ToolDef{Name: h.Name, Parameters: h.Parameters},
					Fn:  behaviour(h.Behaviour),
					Run: RunOptions{Timeout: time.Duration(h.TimeoutMs) * time.Millisecond, Idempotent: h.Idempotent},
				})
			}
			var opts []DispatchOption
			if v.Options.Policy == "all-or-nothing" {
				opts = append(opts, WithPolicy(AllOrNothing))
			}
			opts = append(opts, WithMaxBatch(v.Options.MaxBatch),
				WithDispatchTimeout(time.Duration(v.Options.TimeoutMs)*time.Millisecond),
				WithMaxAttempts(v.Options.MaxAttempts))
			if b := v.Options.BackoffMs; b != nil {
				// 0 is the default (100 ms) here; the vector means no pause to speak of.
				opts = append(opts, WithBackoff(max(time.Duration(*b)*time.Millisecond, time.Millisecond)))
			}
			var log eventLog
			opts = append(opts, WithDispatchObserver(log.add))
			if len(v.Earlier) > 0 {
				r.Dispatch(context.Background(), toolCalls(v.Earlier), opts...)
				log.take()
			}
			results := r.Dispatch(context.Background(), toolCalls(v.Batch), opts...)
			events := log.take()
			if len(results) != len(v.Contents) || len(events) != len(v.Contents) {
				t.Fatalf("%d results, %d events, want %d", len(results), len(events), len(v.Contents))
			}
			for i, res := range results {
				// A replayed call's result keeps the attempts recorded for its id; its
				// event counts the runs of this dispatch (none).
				attempts := res.Attempts
				want := attempts
				if events[i].Replayed {
					want = 0
				}
				if events[i].Attempts != want {
					t.Errorf("call %d: event attempts %d, result attempts %d", i, events[i].Attempts, attempts)
				}
				if res.Content != v.Contents[i] || res.Outcome.String() != v.Outcomes[i] ||
					res.IsError != (v.Outcomes[i] != "answered") || attempts != v.Attempts[i] ||
					res.CallID != v.Batch[i][0] || res.Name != v.Batch[i][1] {
					t.Errorf("call %d: %q %v attempts %d, want %q %s attempts %d",
						i, res.Content, res.Outcome, attempts, v.Contents[i], v.Outcomes[i], v.Attempts[i])
				}
				if events[i].CallID != v.Batch[i][0] || events[i].Tool != v.Batch[i][1] ||
					events[i].Outcome != res.Outcome || events[i].ArgumentBytes != len(v.Batch[i][2]) {
					t.Errorf("call %d: event %+v", i, events[i])
				}
			}
		})
	}
}

// Eight calls wait for each other at a barrier: they can only all pass it if they run
// at the same time. (A dispatch that ran them one by one would time out.)
func TestDispatchRunsCallsConcurrently(t *testing.T) {
	const n = 8
	var arrived atomic.Int32
	all := make(chan struct{})
	r := NewRegistry()
	defer r.Close()
	r.MustRegister(New("meet", "", "", func(ctx context.Context, args json.RawMessage) (string, error) {
		if arrived.Add(1) == n {
			close(all)
		}
		select {
		case <-all:
			return string(args), nil
		case <-ctx.Done():
			return "", errors.New("alone")
		}
	}))
	calls := make([]types.ToolCall, n)
	for i := range calls {
		calls[i] = types.ToolCall{ID: fmt.Sprint("c", i), Name: "meet", Arguments: fmt.Sprintf(`{"i":%d}`, i)}
	}
	results := r.Dispatch(context.Background(), calls, WithMaxConcurrency(n), WithDispatchTimeout(20*time.Second))
	for i, res := range results {
		if res.Content != fmt.Sprintf(`{"i":%d}`, i) || res.Outcome != OutcomeAnswered || res.CallID != calls[i].ID {
			t.Errorf("call %d: %+v", i, res)
		}
	}
}

// A tool that never returns on its own: its call times out with the library's text,
// Dispatch returns, and the tool's ctx is cancelled.
func TestDispatchTimeoutCancelsTheToolsContext(t *testing.T) {
	cancelled := make(chan error, 1)
	r := NewRegistry()
	defer r.Close()
	r.MustRegister(Func{
		Def: types.ToolDef{Name: "stuck"},
		Fn: func(ctx context.Context, _ json.RawMessage) (string, error) {
			<-ctx.Done()
			cancelled <- ctx.Err()
			return "late", nil
		},
		Run: RunOptions{Timeout: 30 * time.Millisecond},
	})
	res := r.Dispatch(context.Background(), []types.ToolCall{{ID: "c1", Name: "stuck"}})
	if len(res) != 1 || res[0].Content != "error: tool stuck timed out after 30 ms" ||
		res[0].Outcome != OutcomeTimedOut || !res[0].IsError {
		t.Fatalf("%+v", res)
	}
	select {
	case err := <-cancelled:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("the tool's ctx ended with %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the tool's ctx was never cancelled")
	}
}

// The registry's default timeout applies to a tool without its own; a ctx deadline
// bounds the dispatch.
func TestDispatchDefaultTimeoutAndContextDeadline(t *testing.T) {
	r := NewRegistry(WithDefaultTimeout(25 * time.Millisecond))
	defer r.Close()
	r.MustRegister(New("stuck", "", "", behaviour("block")))
	res := r.Dispatch(context.Background(), []types.ToolCall{{ID: "c1", Name: "stuck"}})
	if res[0].Content != "error: tool stuck timed out after 25 ms" || res[0].Outcome != OutcomeTimedOut {
		t.Errorf("default timeout: %+v", res[0])
	}

	plain := NewRegistry()
	defer plain.Close()
	plain.MustRegister(New("stuck", "", "", behaviour("block")))
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Millisecond)
	defer cancel()
	res = plain.Dispatch(ctx, []types.ToolCall{{ID: "c1", Name: "stuck"}})
	// The deadline is the ctx's, counted in whole milliseconds from the dispatch's start
	// (so at most 30, less by the time between WithTimeout and Dispatch).
	var n int
	if _, err := fmt.Sscanf(res[0].Content, "error: tool stuck timed out after %d ms", &n); err != nil ||
		n < 1 || n > 30 || res[0].Outcome != OutcomeTimedOut || !res[0].IsError {
		t.Errorf("ctx deadline: %+v", res[0])
	}
}

// An idempotent tool whose failure is Retryable runs again; one that is not
// idempotent, or whose failure is not Retryable, runs once.
func TestDispatchRetriesIdempotentTools(t *testing.T) {
	var flaky, once, plain atomic.Int32
	r := NewRegistry()
	defer r.Close()
	r.MustRegister(
		Func{Def: types.ToolDef{Name: "flaky"}, Run: RunOptions{Idempotent: true},
			Fn: func(context.Context, json.RawMessage) (string, error) {
				if flaky.Add(1) < 3 {
					return "", fmt.Errorf("connection reset: %w", Retryable(errors.New("busy")))
				}
				return "ok", nil
			}},
		Func{Def: types.ToolDef{Name: "once"},
			Fn: func(context.Context, json.RawMessage) (string, error) {
				once.Add(1)
				return "", Retryable(errors.New("busy"))
			}},
		Func{Def: types.ToolDef{Name: "plain"}, Run: RunOptions{Idempotent: true},
			Fn: func(context.Context, json.RawMessage) (string, error) {
				plain.Add(1)
				return "", errors.New("bad input")
			}},
	)
	var log eventLog
	res := r.Dispatch(context.Background(), []types.ToolCall{
		{ID: "c1", Name: "flaky"}, {ID: "c2", Name: "once"}, {ID: "c3", Name: "plain"},
	}, WithMaxAttempts(4), WithBackoff(time.Millisecond), WithDispatchObserver(log.add))
	want := []struct {
		content  string
		outcome  Outcome
		attempts int
	}{{"ok", OutcomeAnswered, 3}, {"error: busy", OutcomeHandlerFailed, 1}, {"error: bad input", OutcomeHandlerFailed, 1}}
	events := log.take()
	for i, w := range want {
		if res[i].Content != w.content || res[i].Outcome != w.outcome || events[i].Attempts != w.attempts {
			t.Errorf("call %d: %+v attempts %d", i, res[i], events[i].Attempts)
		}
	}
	if flaky.Load() != 3 || once.Load() != 1 || plain.Load() != 1 {
		t.Errorf("runs: %d %d %d", flaky.Load(), once.Load(), plain.Load())
	}
	if !IsRetryable(fmt.Errorf("x: %w", Retryable(errors.New("y")))) || IsRetryable(errors.New("y")) || Retryable(nil) != nil {
		t.Error("IsRetryable")
	}
}

// A remembered call id: the same call again gets its recorded result without running
// the tool; other arguments under that id are refused.
func TestDispatchRemembersCallIDs(t *testing.T) {
	var runs atomic.Int32
	var log eventLog
	r := NewRegistry(WithRememberCallIDs(4), WithObserver(log.add))
	defer r.Close()
	r.MustRegister(New("count", "", "", func(_ context.Context, args json.RawMessage) (string, error) {
		return fmt.Sprint(runs.Add(1)), nil
	}))
	first := r.Dispatch(context.Background(), []types.ToolCall{{ID: "c1", Name: "count", Arguments: `{}`}})
	again := r.Dispatch(context.Background(), []types.ToolCall{
		{ID: "c1", Name: "count", Arguments: `{}`},
		{ID: "c2", Name: "count", Arguments: `{}`},
		{ID: "c1x", Name: "count"},
	}, WithMaxConcurrency(1)) // one at a time, in order: the counts are known
	other := r.Dispatch(context.Background(), []types.ToolCall{{ID: "c1", Name: "count", Arguments: `{"a":1}`}})
	if first[0].Content != "1" || again[0].Content != "1" || again[1].Content != "2" || again[2].Content != "3" {
		t.Errorf("first %q, again %q %q %q", first[0].Content, again[0].Content, again[1].Content, again[2].Content)
	}
	if other[0].Content != `error: call id "c1" was already used with other arguments` || other[0].Outcome != OutcomeNotRun {
		t.Errorf("other arguments: %+v", other[0])
	}
	events := log.take()
	if len(events) != 5 || !events[1].Replayed || events[1].Attempts != 0 || events[2].Replayed ||
		events[4].ErrorType != "call_id_reused" || events[0].ErrorType != "" {
		t.Errorf("events: %+v", events)
	}
	if runs.Load() != 3 {
		t.Errorf("the tool ran %d times", runs.Load())
	}
	// Call neither reads nor records them.
	if res := r.Call(context.Background(), types.ToolCall{ID: "c1", Name: "count", Arguments: `{}`}); res.Content != "4" {
		t.Errorf("Call: %+v", res)
	}
}

// A call id used twice in one batch is refused both times; calls without an id are
// never duplicates.
func TestDispatchDuplicateIDs(t *testing.T) {
	r := NewRegistry()
	defer r.Close()
	r.MustRegister(New("echo", "", "", behaviour("echo")))
	res := r.Dispatch(context.Background(), []types.ToolCall{
		{ID: "a", Name: "echo", Arguments: `{"n":1}`},
		{ID: "a", Name: "echo", Arguments: `{"n":2}`},
		{ID: "", Name: "echo", Arguments: `{"n":3}`},
		{ID: "", Name: "echo", Arguments: `{"n":4}`},
	})
	dup := `error: call id "a" is used by more than one call of the batch`
	want := []string{dup, dup, `{"n":3}`, `{"n":4}`}
	for i, w := range want {
		if res[i].Content != w {
			t.Errorf("call %d: %q, want %q", i, res[i].Content, w)
		}
	}
	if res[0].Outcome != OutcomeNotRun || res[2].Outcome != OutcomeAnswered {
		t.Errorf("outcomes %v %v", res[0].Outcome, res[2].Outcome)
	}
}

func TestDispatchEmptyBatchAndClosedRegistry(t *testing.T) {
	var log eventLog
	r := NewRegistry(WithObserver(log.add))
	if res := r.Dispatch(context.Background(), nil); res == nil || len(res) != 0 {
		t.Errorf("empty batch: %#v", res)
	}
	if events := log.take(); len(events) != 0 {
		t.Errorf("events of an empty batch: %+v", events)
	}
	r.Close()
	res := r.Dispatch(context.Background(), []types.ToolCall{{ID: "c1", Name: "x"}})
	if len(res) != 1 || res[0].Content != "error: registry is closed" || res[0].Outcome != OutcomeInternal || res[0].CallID != "c1" {
		t.Errorf("closed: %+v", res)
	}
	var nilReg *Registry
	if res := nilReg.Dispatch(context.Background(), []types.ToolCall{{Name: "x"}}); res[0].Content != "error: registry is closed" {
		t.Errorf("nil registry: %+v", res)
	}
}

// A panic in a dispatched tool is its call's error; the other calls are answered.
func TestDispatchPanickingTool(t *testing.T) {
	r := NewRegistry()
	defer r.Close()
	r.MustRegister(New("boom", "", "", behaviour("panic")), New("echo", "", "", behaviour("echo")))
	var log eventLog
	res := r.Dispatch(context.Background(), []types.ToolCall{{ID: "c1", Name: "boom"}, {ID: "c2", Name: "echo", Arguments: `{"a":1}`}},
		WithDispatchObserver(log.add))
	if res[0].Content != "error: tool boom panicked" || res[0].Outcome != OutcomeHandlerFailed || res[1].Content != `{"a":1}` {
		t.Errorf("%+v", res)
	}
	if events := log.take(); events[0].ErrorType != "tool_error" && events[0].ErrorType != "panic" {
		t.Errorf("event %+v", events[0])
	}
}

// The library refuses an unknown policy: nothing runs, every Result says why.
func TestDispatchRefusedOptions(t *testing.T) {
	r := NewRegistry()
	defer r.Close()
	r.MustRegister(New("echo", "", "", behaviour("echo")))
	res := r.Dispatch(context.Background(), []types.ToolCall{{ID: "c1", Name: "echo"}}, WithPolicy(Policy(7)))
	if res[0].Content != "error: tg_registry_dispatch: argument `options->policy` is 7, not a TG_DISPATCH_* value" ||
		res[0].Outcome != OutcomeInternal {
		t.Errorf("%+v", res[0])
	}
}

// startedTool blocks until its ctx is done and reports both events.
type startedTool struct {
	started, ended chan struct{}
}

func newStartedTool() *startedTool {
	return &startedTool{started: make(chan struct{}, 16), ended: make(chan struct{}, 16)}
}

func (s *startedTool) fn(ctx context.Context, _ json.RawMessage) (string, error) {
	s.started <- struct{}{}
	<-ctx.Done()
	s.ended <- struct{}{}
	return "late", nil
}

func waitFor(t *testing.T, ch chan struct{}, what string) {
	t.Helper()
	select {
	case <-ch:
	case <-time.After(10 * time.Second):
		t.Fatalf("%s never happened", what)
	}
}

// ctx cancelled while a tool runs: its call is cancelled, the tool's ctx too, an
// answered call keeps its answer, and Dispatch returns.
func TestDispatchContextCancelled(t *testing.T) {
	s := newStartedTool()
	r := NewRegistry()
	defer r.Close()
	// echo is exclusive: it has answered before wait starts.
	r.MustRegister(New("wait", "", "", s.fn),
		Func{Def: types.ToolDef{Name: "echo"}, Fn: behaviour("echo"), Run: RunOptions{Exclusive: true}})
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		<-s.started
		cancel()
	}()
	var log eventLog
	res := r.Dispatch(ctx, []types.ToolCall{{ID: "c1", Name: "echo", Arguments: `{}`}, {ID: "c2", Name: "wait"}},
		WithDispatchObserver(log.add))
	if res[0].Content != "{}" || res[0].Outcome != OutcomeAnswered {
		t.Errorf("answered call: %+v", res[0])
	}
	if res[1].Content != "error: call cancelled" || res[1].Outcome != OutcomeCancelled || !res[1].IsError {
		t.Errorf("cancelled call: %+v", res[1])
	}
	if events := log.take(); events[1].ErrorType != "cancelled" || events[1].Outcome != OutcomeCancelled {
		t.Errorf("event %+v", events[1])
	}
	waitFor(t, s.ended, "the tool's ctx cancellation")

	// Already cancelled: no tool runs.
	var runs atomic.Int32
	r.MustRegister(New("count", "", "", func(context.Context, json.RawMessage) (string, error) {
		runs.Add(1)
		return "ran", nil
	}))
	res = r.Dispatch(ctx, []types.ToolCall{{ID: "c3", Name: "count"}})
	if res[0].Content != "error: call cancelled" || res[0].Outcome != OutcomeCancelled || runs.Load() != 0 {
		t.Errorf("cancelled before: %+v, runs %d", res[0], runs.Load())
	}
}

// A tool's ctx carries the values of the dispatch's ctx.
func TestDispatchContextValues(t *testing.T) {
	type key struct{}
	r := NewRegistry()
	defer r.Close()
	r.MustRegister(New("who", "", "", func(ctx context.Context, _ json.RawMessage) (string, error) {
		v, _ := ctx.Value(key{}).(string)
		return v, nil
	}))
	res := r.Dispatch(context.WithValue(context.Background(), key{}, "alice"), []types.ToolCall{{ID: "c1", Name: "who"}})
	if res[0].Content != "alice" {
		t.Errorf("%+v", res[0])
	}
}

// Close while a Dispatch runs: it cancels the dispatch (its unanswered calls get
// "error: call cancelled"), waits for it, then frees the registry.
func TestCloseDuringDispatch(t *testing.T) {
	s := newStartedTool()
	r := NewRegistry()
	r.MustRegister(New("wait", "", "", s.fn))
	done := make(chan []Result)
	go func() {
		done <- r.Dispatch(context.Background(), []types.ToolCall{{ID: "c1", Name: "wait"}, {ID: "c2", Name: "wait"}})
	}()
	waitFor(t, s.started, "the tool's start")
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	var res []Result
	select {
	case res = <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Dispatch did not return after Close")
	}
	for i, x := range res {
		if x.Content != "error: call cancelled" || x.Outcome != OutcomeCancelled || x.CallID != fmt.Sprint("c", i+1) {
			t.Errorf("call %d: %+v", i, x)
		}
	}
	waitFor(t, s.ended, "the tool's ctx cancellation")
	if res := r.Dispatch(context.Background(), []types.ToolCall{{ID: "c3", Name: "wait"}}); res[0].Content != "error: registry is closed" {
		t.Errorf("after Close: %+v", res[0])
	}
}

// Dispatches, cancelled ones, timed-out ones and Close leave no goroutine behind.
func TestDispatchLeavesNoGoroutine(t *testing.T) {
	settle := func(limit int) int {
		n := runtime.NumGoroutine()
		for i := 0; i < 500 && n > limit; i++ {
			time.Sleep(10 * time.Millisecond)
			n = runtime.NumGoroutine()
		}
		return n
	}
	before := runtime.NumGoroutine()
	for round := 0; round < 3; round++ {
		s := newStartedTool()
		r := NewRegistry(WithObserver(func(CallEvent) {}))
		r.MustRegister(New("wait", "", "", s.fn), New("echo", "", "", behaviour("echo")),
			Func{Def: types.ToolDef{Name: "short"}, Fn: behaviour("block"), Run: RunOptions{Timeout: time.Millisecond}})
		ctx, cancel := context.WithCancel(context.Background())
		r.Dispatch(ctx, []types.ToolCall{{ID: "a", Name: "echo"}, {ID: "b", Name: "short"}})
		go func() {
			<-s.started
			cancel()
		}()
		r.Dispatch(ctx, []types.ToolCall{{ID: "c", Name: "wait"}, {ID: "d", Name: "echo"}})
		waitFor(t, s.ended, "the tool's end")
		done := make(chan struct{})
		go func() {
			r.Dispatch(context.Background(), []types.ToolCall{{ID: "e", Name: "wait"}})
			close(done)
		}()
		waitFor(t, s.started, "the tool's start")
		r.Close()
		<-done
		cancel()
	}
	if after := settle(before); after > before {
		t.Errorf("%d goroutines before, %d after", before, after)
	}
}

// The registry's observer and the dispatch's are both told every event, before
// Dispatch returns; a panicking observer changes no result.
func TestDispatchObservers(t *testing.T) {
	var reg, per eventLog
	r := NewRegistry(WithObserver(func(e CallEvent) {
		reg.add(e)
		panic("observer")
	}))
	defer r.Close()
	r.MustRegister(New("echo", "", "", behaviour("echo")))
	res := r.Dispatch(context.Background(), []types.ToolCall{{ID: "c1", Name: "echo", Arguments: `{"a":1}`}, {ID: "c2", Name: "nope"}},
		WithDispatchObserver(per.add), WithDispatchObserver(func(CallEvent) { panic("second") }))
	if res[0].Content != `{"a":1}` || res[1].Outcome != OutcomeUnknownTool {
		t.Errorf("%+v", res)
	}
	want := []CallEvent{
		{CallID: "c1", Tool: "echo", Outcome: OutcomeAnswered, Attempts: 1, ArgumentBytes: 7},
		{CallID: "c2", Tool: "nope", Outcome: OutcomeUnknownTool, ErrorType: "unknown_tool"},
	}
	for name, events := range map[string][]CallEvent{"registry": reg.take(), "dispatch": per.take()} {
		if len(events) != len(want) {
			t.Fatalf("%s: %+v", name, events)
		}
		for i, e := range events {
			e.Duration = 0
			if e != want[i] {
				t.Errorf("%s event %d: %+v, want %+v", name, i, e, want[i])
			}
		}
	}
	// Call is not observed.
	r.Call(context.Background(), types.ToolCall{ID: "c3", Name: "echo"})
	if n := len(reg.take()); n != 0 {
		t.Errorf("Call observed: %d events", n)
	}
}

// BenchmarkDispatchOverhead: one call dispatched against Call, on a tool that does
// nothing; eight calls of a 1 ms tool dispatched together against one after another.
func BenchmarkDispatchOverhead(b *testing.B) {
	r := NewRegistry()
	defer r.Close()
	r.MustRegister(
		New("noop", "", "", func(context.Context, json.RawMessage) (string, error) { return "ok", nil }),
		New("sleep", "", "", func(context.Context, json.RawMessage) (string, error) {
			time.Sleep(time.Millisecond)
			return "ok", nil
		}),
	)
	ctx := context.Background()
	one := []types.ToolCall{{ID: "c1", Name: "noop", Arguments: `{}`}}
	eight := make([]types.ToolCall, 8)
	for i := range eight {
		eight[i] = types.ToolCall{ID: fmt.Sprint("c", i), Name: "sleep", Arguments: `{}`}
	}
	b.Run("call-1-noop", func(b *testing.B) {
		for b.Loop() {
			if r.Call(ctx, one[0]).IsError {
				b.Fatal("error")
			}
		}
	})
	b.Run("dispatch-1-noop", func(b *testing.B) {
		for b.Loop() {
			if r.Dispatch(ctx, one)[0].IsError {
				b.Fatal("error")
			}
		}
	})
	b.Run("call-8x1ms-in-sequence", func(b *testing.B) {
		for b.Loop() {
			for _, c := range eight {
				r.Call(ctx, c)
			}
		}
	})
	b.Run("dispatch-8x1ms-together", func(b *testing.B) {
		for b.Loop() {
			r.Dispatch(ctx, eight)
		}
	})
}
