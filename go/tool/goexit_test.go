package tool

import (
	"context"
	"encoding/json"
	"runtime"
	"testing"
	"time"

	"toolgate/types"
)

// fatal ends the calling goroutine as testing.T's Fatal does: runtime.Goexit, one
// function below the tool.
func fatal() { runtime.Goexit() }

// A tool that calls runtime.Goexit (directly, or from a function it calls, as t.Fatal
// does) ends only its own Execute: the call returns the library's text, the tool's
// deferred functions run, the registry serves the next call, and Close returns.
func TestGoexitInAToolEndsOnlyThatCall(t *testing.T) {
	deferred := make(chan string, 4)
	r := NewRegistry()
	r.MustRegister(
		New("exits", "", "", func(context.Context, json.RawMessage) (string, error) {
			defer func() { deferred <- "exits" }()
			runtime.Goexit()
			return "unreachable", nil
		}),
		New("fatal", "", "", func(context.Context, json.RawMessage) (string, error) {
			defer func() { deferred <- "fatal" }()
			fatal()
			return "unreachable", nil
		}),
		New("answers", "", "", func(context.Context, json.RawMessage) (string, error) {
			return "ok", nil
		}),
	)
	for _, name := range []string{"exits", "fatal", "exits"} {
		res := r.Call(context.Background(), types.ToolCall{ID: "c", Name: name})
		want := "error: tool " + name + " exited without an answer"
		if res.Content != want || !res.IsError {
			t.Errorf("%s: got %#v, want content %q, an error", name, res, want)
		}
		if got := <-deferred; got != name {
			t.Errorf("%s: deferred function of %s ran", name, got)
		}
	}
	if res := r.Call(context.Background(), types.ToolCall{Name: "answers"}); res.Content != "ok" {
		t.Errorf("after the exits: %#v", res)
	}
	closed := make(chan error, 1)
	go func() { closed <- r.Close() }()
	// Not a timing assertion: a Close that waits for a call that never returns would
	// hang the test binary; the bound turns that hang into a failure.
	select {
	case err := <-closed:
		if err != nil {
			t.Errorf("Close: %v", err)
		}
	case <-time.After(time.Minute):
		t.Fatal("Close did not return after tools called runtime.Goexit")
	}
}
