package tool_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"toolgate/tool"
	"toolgate/types"
)

func Example() {
	weather := tool.New("get_weather", "Current weather for a city",
		`{"type":"object","properties":{"city":{"type":"string","minLength":1},
		  "days":{"type":"integer","minimum":1,"maximum":7},"unit":{"enum":["c","f"]}},
		  "required":["city"],"additionalProperties":false}`,
		func(ctx context.Context, args json.RawMessage) (string, error) {
			var a struct{ City string }
			if err := json.Unmarshal(args, &a); err != nil {
				return "", err
			}
			return "sunny in " + a.City, nil
		})
	r := tool.NewRegistry().MustRegister(weather)
	defer r.Close()

	bad := r.Call(context.Background(), types.ToolCall{ID: "call_1", Name: "get_weather",
		Arguments: `{"days": "3", "unit": "kelvin", "country": "FR"}`})
	fmt.Println(bad.Content)
	good := r.Call(context.Background(), types.ToolCall{ID: "call_2", Name: "get_weather",
		Arguments: `{"city":"Paris","days":3}`})
	msg, _ := json.Marshal(good.Message())
	fmt.Println(string(msg))
	// Output:
	// error: invalid arguments for get_weather:
	// $: missing required property "city"
	// $: unexpected property "country"
	// $.days: expected integer, got string
	// $.unit: "kelvin" is not one of ["c","f"]
	// {"role":"tool","content":"sunny in Paris","tool_call_id":"call_2"}
}

func ExampleSchema_ValidateJSON() {
	s, err := tool.Compile(json.RawMessage(`{"type":"object","properties":{"tags":{"type":"array","items":{"type":"string"}}}}`))
	if err != nil {
		panic(err)
	}
	defer s.Close()
	for _, e := range s.ValidateJSON([]byte(`{"tags":["a",2]}`)) {
		fmt.Println(e, "| pointer:", e.Pointer, "| keyword:", e.Keyword)
	}
	_, err = tool.Compile(json.RawMessage(`{"type":"string","format":"email"}`))
	fmt.Println(err)
	// Output:
	// $.tags[1]: expected string, got integer | pointer: /tags/1 | keyword: type
	// #/format: unsupported keyword "format"
}

// A host's turn in a provider's shape: read the calls of the model's response, run
// each, and answer them all. The tool has an output schema, so its answer is checked.
func ExampleReadCalls() {
	forecast := tool.Func{
		Def: types.ToolDef{
			Name:         "forecast",
			Parameters:   json.RawMessage(`{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}`),
			OutputSchema: json.RawMessage(`{"type":"object","properties":{"high":{"type":"integer"}},"required":["high"]}`),
		},
		Fn: func(ctx context.Context, args json.RawMessage) (string, error) {
			return `{"high":21}`, nil
		},
	}
	r := tool.NewRegistry().MustRegister(forecast)
	defer r.Close()

	response := []byte(`{"role":"assistant","content":[
		{"type":"tool_use","id":"toolu_1","name":"forecast","input":{"city":"Paris"}},
		{"type":"tool_use","id":"toolu_2","name":"forecast","input":{}}]}`)
	calls, err := tool.ReadCalls(tool.Anthropic, response)
	if err != nil {
		panic(err)
	}
	results := make([]tool.Result, len(calls))
	for i, c := range calls {
		results[i] = r.Call(context.Background(), c)
		fmt.Println(c.ID, results[i].Outcome, results[i].Structured)
	}
	for _, v := range results[1].Violations() {
		fmt.Println(v, "| schema location:", v.SchemaLocation)
	}
	msg, err := tool.ResultsMessage(tool.Anthropic, results...)
	if err != nil {
		panic(err)
	}
	fmt.Println(msg)
	// Output:
	// toolu_1 answered true
	// toolu_2 invalid_arguments false
	// $: missing required property "city" | schema location: #/required
	// {"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":"{\"high\":21}"},{"type":"tool_result","tool_use_id":"toolu_2","content":"error: invalid arguments for forecast:\n$: missing required property \"city\"","is_error":true}]}
}

// A call whose arguments arrive in pieces, as a provider streams them: the stream
// refuses it at the byte that decides (the quote of a string where an integer goes),
// long before the call's end, and the tool never runs.
func ExampleRegistry_StreamCall() {
	add := tool.New("add", "Adds two integers",
		`{"type":"object","properties":{"a":{"type":"integer"},"b":{"type":"integer"}},"required":["a","b"]}`,
		func(ctx context.Context, args json.RawMessage) (string, error) { return "added", nil })
	r := tool.NewRegistry().MustRegister(add)
	defer r.Close()

	good := r.StreamCall("call_1", "add")
	defer good.Close()
	for _, delta := range []string{`{"a":`, `1,"b"`, `:2}`} {
		if _, err := good.Write([]byte(delta)); err != nil {
			panic(err)
		}
	}
	fmt.Println(good.Finish(context.Background()).Content)

	bad := r.StreamCall("call_2", "add")
	defer bad.Close()
	for _, delta := range []string{`{"a":`, `"1`, `2",`, `"b":2}`} {
		if _, err := bad.Write([]byte(delta)); err != nil {
			var refused *tool.RefusedError
			if errors.As(err, &refused) {
				fmt.Printf("refused after %d bytes: %v\n", bad.BytesRead(), refused.Errors)
			}
			break
		}
	}
	res := bad.Finish(context.Background())
	fmt.Println(res.Outcome, res.Content)
	// Output:
	// added
	// refused after 7 bytes: [$.a: expected integer, got string]
	// invalid_arguments error: invalid arguments for add:
	// $.a: expected integer, got string
}
