// A small Go host for toolgate: registers two tools, prints the definitions a model
// would see, then answers three model calls (a valid one, one the model got wrong, and
// one whose tool fails), printing the tool message of each.
//
// Run: bash examples/run.sh go (or, with toolgate installed, go run . here).
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"

	"toolgate/tool"
	"toolgate/types"
)

const weatherSchema = `{"type": "object", "properties": {"city": {"type": "string", "minLength": 1}, "days": {"type": "integer", "minimum": 1, "maximum": 7}, "unit": {"enum": ["c", "f"]}}, "required": ["city"], "additionalProperties": false}`

const timeSchema = `{"type": "object", "properties": {"timezone": {"type": "string", "pattern": "^[A-Za-z_]+/[A-Za-z_]+$"}}, "required": ["timezone"], "additionalProperties": false}`

// getWeather gets the argument bytes exactly as the model sent them, after they passed
// the schema, so decoding them cannot fail on anything the schema rules out.
func getWeather(_ context.Context, raw json.RawMessage) (string, error) {
	var args struct {
		City string `json:"city"`
		Days int    `json:"days"`
	}
	if err := json.Unmarshal(raw, &args); err != nil {
		return "", err
	}
	if args.Days == 0 {
		args.Days = 1
	}
	return fmt.Sprintf("forecast for %s, %d days: sunny, 21 C", args.City, args.Days), nil
}

// getTime fails: its error reaches the model as "error: ...".
func getTime(context.Context, json.RawMessage) (string, error) {
	return "", errors.New("the clock service is not configured")
}

func call(r *tool.Registry, id, name, args string) {
	res := r.Call(context.Background(), types.ToolCall{ID: id, Name: name, Arguments: args})
	msg, err := json.Marshal(res.Message())
	if err != nil {
		panic(err)
	}
	fmt.Printf("\nmodel calls %s(%s)\ntool message: %s\ncontent:\n%s\n", name, args, msg, res.Content)
}

func main() {
	fmt.Printf("toolgate %s\n", tool.Version())
	// A host's limits: arguments over 64 KiB are refused before they are read.
	r := tool.NewRegistry(tool.WithMaxArgumentBytes(64 << 10))
	defer r.Close()
	for _, t := range []tool.Tool{
		tool.New("get_weather", "Weather forecast for a city, 1 to 7 days ahead.", weatherSchema, getWeather),
		tool.New("get_time", "Current time in an IANA time zone.", timeSchema, getTime),
	} {
		if err := r.Register(t); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
	defs, err := json.Marshal(r.Definitions())
	if err != nil {
		panic(err)
	}
	fmt.Printf("definitions (sorted by name):\n%s\n", defs)

	call(r, "call_1", "get_weather", `{"city":"Paris","days":3}`)
	call(r, "call_2", "get_weather", `{"days": "3", "unit": "kelvin", "country": "FR"}`)
	call(r, "call_3", "get_time", `{"timezone":"Europe/Paris"}`)
}
