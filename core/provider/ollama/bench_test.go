package ollama

import (
	"bytes"
	"slices"
	"testing"

	"github.com/goose-acp/goose-acp/core/provider/providertest"
)

// BenchmarkStreamParse parses a recorded 2,000-line stream (text lines, a
// tool-call line and the done line) into chunks, from bytes in memory.
func BenchmarkStreamParse(b *testing.B) {
	const lines = 2000
	turn := providertest.Turn{Text: slices.Repeat([]string{"word "}, lines-2), Usage: &providertest.Usage{Input: 100, Output: 2000},
		ToolCalls: []providertest.ToolCall{{ID: "call_1", Name: "developer__shell", Arguments: `{"command":"go test ./..."}`}}}
	body := providertest.Record(b, providertest.Ollama, turn, "/api/chat", `{"model":"qwen3"}`)
	if n := bytes.Count(body, []byte("\n")); n != lines {
		b.Fatalf("recorded %d lines", n)
	}
	p, err := New(Options{BaseURL: "http://recorded", HTTPClient: providertest.ReplayClient("application/x-ndjson", body)})
	if err != nil {
		b.Fatal(err)
	}
	providertest.StreamBench{Messages: lines - 1, Units: lines, Unit: "line"}.Run(b, p, providertest.UserRequest("go"))
}
