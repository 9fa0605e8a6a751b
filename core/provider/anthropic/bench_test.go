package anthropic

import (
	"bytes"
	"slices"
	"testing"
	"time"

	"github.com/goose-acp/goose-acp/core/provider/providertest"
)

// BenchmarkStreamParse parses a recorded 2,000-delta stream (text deltas
// plus a tool call) into chunks, from bytes in memory.
func BenchmarkStreamParse(b *testing.B) {
	const deltas = 2000
	turn := providertest.Turn{Text: slices.Repeat([]string{"word "}, deltas-5), Usage: &providertest.Usage{Input: 100, Output: 2000},
		ToolCalls: []providertest.ToolCall{{ID: "toolu_1", Name: "developer__shell", Arguments: `{"command":"go test ./..."}`}}}
	body := providertest.Record(b, providertest.Anthropic, turn, "/v1/messages", `{"model":"claude-sonnet-4-5"}`)
	events := bytes.Count(body, []byte("\nevent: ")) + 1
	p, err := New(Options{APIKey: "k", BaseURL: "http://recorded", HTTPClient: providertest.ReplayClient("text/event-stream", body),
		Now: func() time.Time { return time.Unix(0, 0) }})
	if err != nil {
		b.Fatal(err)
	}
	providertest.StreamBench{Messages: deltas - 4, Units: events, Unit: "event"}.Run(b, p, providertest.UserRequest("go"))
}
