package anthropic

import (
	"testing"
	"testing/synctest"
	"time"

	"github.com/goose-acp/goose-acp/core/provider"
	"github.com/goose-acp/goose-acp/core/provider/providertest"
)

// Tool-call arguments arrive as input_json_delta events that yield nothing
// until the block ends. Events come every 40 ms, the call takes far longer
// than the 100 ms watchdog, and the watchdog must not fire. The stream is
// paced in synctest's virtual time, so machine load cannot change the
// answer.
func TestIdleWatchdogSeesToolArgumentDeltas(t *testing.T) {
	call := providertest.ToolCall{ID: "toolu_1", Name: "developer__shell", Arguments: `{"command":"ls -la /tmp && du -sh /var/log"}`}
	body := providertest.Record(t, providertest.Anthropic, providertest.Turn{ToolCalls: []providertest.ToolCall{call}},
		"/v1/messages", `{"model":"claude-sonnet-4-5","stream":true}`)
	const gap, watchdog = 40 * time.Millisecond, 100 * time.Millisecond
	if n := providertest.Units("text/event-stream", body); time.Duration(n)*gap < 2*watchdog {
		t.Fatalf("the recorded stream has %d events: too short to outlast the watchdog", n)
	}
	synctest.Test(t, func(t *testing.T) {
		p, err := New(Options{BaseURL: "http://recorded", APIKey: testKey, Model: sonnet,
			HTTPClient: providertest.PacedClient("text/event-stream", body, gap)})
		if err != nil {
			t.Fatal(err)
		}
		chunks, err := providertest.Drain(provider.IdleTimeout(p, watchdog), providertest.UserRequest("list files"))
		if err != nil {
			t.Fatalf("stream failed: %v", err)
		}
		msgs := providertest.Merge(chunks)
		if len(msgs) != 1 || len(msgs[0].Content) != 1 || msgs[0].Content[0].ToolRequest == nil {
			t.Fatalf("want one tool request, got %+v", msgs)
		}
	})
}
