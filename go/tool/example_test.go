package tool_test

import (
	"context"
	"encoding/json"
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
