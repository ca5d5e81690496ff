package tool

// RegisterAll: every tool or none, the refused tool named, handles released exactly
// once (those of a refused batch at once), and the tools of an accepted batch callable.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"testing"

	"toolgate/types"
)

const cityParams = `{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}`

func answering(name string) Tool {
	return New(name, "the "+name+" tool", cityParams, func(context.Context, json.RawMessage) (string, error) {
		return name + " ran", nil
	})
}

func TestRegisterAllAccepts(t *testing.T) {
	base := liveTools.Load()
	r := NewRegistry()
	defer r.Close()
	if err := r.RegisterAll(answering("b"), answering("a"), New("c", "", "", nil)); err != nil {
		t.Fatal(err)
	}
	if got := r.Names(); !reflect.DeepEqual(got, []string{"a", "b", "c"}) {
		t.Fatalf("Names() = %q", got)
	}
	if got := liveTools.Load(); got != base+3 {
		t.Fatalf("live handles %d, want %d", got, base+3)
	}
	res := r.Call(context.Background(), types.ToolCall{ID: "1", Name: "b", Arguments: `{"city":"Oslo"}`})
	if res.IsError || res.Content != "b ran" {
		t.Fatalf("call b: %#v", res)
	}
	if res := r.Call(context.Background(), types.ToolCall{ID: "2", Name: "a", Arguments: `{}`}); !res.IsError {
		t.Fatalf("call a without city: %#v", res)
	}
	if _, ok := r.Get("a"); !ok {
		t.Fatal("Get(a) after RegisterAll")
	}
	if err := r.RegisterAll(); err != nil {
		t.Fatalf("empty batch: %v", err)
	}
}

func TestRegisterAllRefusesWhole(t *testing.T) {
	noop := func(context.Context, json.RawMessage) (string, error) { return "", nil }
	cases := []struct {
		bad  Tool
		kind error
		msg  string
	}{
		{New("bad name", "", "", noop), ErrInvalidName, `invalid tool name "bad name": must match ^[A-Za-z0-9_-]{1,64}$`},
		{New("s", "", `{"type":"string"}`, noop), ErrNotObject, `parameters for "s" must declare "type": "object"`},
		{New("o", "", `{"type":"object","oneOf":[]}`, noop), ErrInvalidSchema, `invalid parameters for "o": `},
		{New("taken", "", "", noop), ErrDuplicate, `tool "taken" is already registered`},
		{New("t1", "", "", noop), ErrDuplicate, `tool "t1" is listed twice in the batch`},
	}
	for _, c := range cases {
		for at := 0; at < 3; at++ {
			t.Run(fmt.Sprintf("%s/%d", c.bad.Definition().Name, at), func(t *testing.T) {
				r := NewRegistry()
				defer r.Close()
				r.MustRegister(answering("taken"))
				base := liveTools.Load()
				batch := []Tool{answering("t0"), answering("t1"), answering("t2")}
				batch = append(batch[:at], append([]Tool{c.bad}, batch[at:]...)...)
				err := r.RegisterAll(batch...)
				var e *Error
				if !errors.As(err, &e) || !errors.Is(err, c.kind) {
					t.Fatalf("RegisterAll = %v, want %v", err, c.kind)
				}
				if len(e.Msg) < len(c.msg) || e.Msg[:len(c.msg)] != c.msg {
					t.Fatalf("message %q, want it to start with %q", e.Msg, c.msg)
				}
				if got := r.Names(); !reflect.DeepEqual(got, []string{"taken"}) {
					t.Fatalf("Names() = %q after a refused batch", got)
				}
				if got := liveTools.Load(); got != base {
					t.Fatalf("live handles %d, want %d: a refused batch releases every handle", got, base)
				}
				if _, ok := r.Get("t0"); ok {
					t.Fatal("Get(t0) after a refused batch")
				}
			})
		}
	}
}

func TestRegisterAllNilToolAndClosed(t *testing.T) {
	r := NewRegistry()
	if err := r.RegisterAll(answering("a"), nil); err == nil || len(r.Names()) != 0 {
		t.Fatalf("nil tool: %v, names %q", err, r.Names())
	}
	r.Close()
	if err := r.RegisterAll(answering("a")); !errors.Is(err, ErrClosed) {
		t.Fatalf("closed: %v", err)
	}
}
