package google

import (
	"bytes"
	"slices"
	"testing"

	"github.com/goose-acp/goose-acp/core/provider/providertest"
)

// BenchmarkStreamParse parses a recorded 2,000-chunk Gemini stream (text
// chunks, a function-call chunk and the final chunk), from bytes in memory.
func BenchmarkStreamParse(b *testing.B) {
	const chunks = 2000
	turn := providertest.Turn{Text: slices.Repeat([]string{"word "}, chunks-2), Usage: &providertest.Usage{Input: 100, Output: 2000},
		ToolCalls: []providertest.ToolCall{{Name: "developer__shell", Arguments: `{"command":"go test ./..."}`}}}
	body := providertest.Record(b, providertest.Google, turn, "/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse", `{}`)
	if n := bytes.Count(body, []byte("data: ")); n != chunks {
		b.Fatalf("recorded %d chunks", n)
	}
	p, err := New(Options{APIKey: "k", BaseURL: "http://recorded", HTTPClient: providertest.ReplayClient("text/event-stream", body)})
	if err != nil {
		b.Fatal(err)
	}
	providertest.StreamBench{Messages: chunks - 1, Units: chunks, Unit: "chunk"}.Run(b, p, providertest.UserRequest("go"))
}
