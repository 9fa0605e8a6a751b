package anthropic

import (
	"testing"
	"time"

	"github.com/goose-acp/goose-acp/core/provider"
	"github.com/goose-acp/goose-acp/core/provider/providertest"
)

// Tool-call arguments arrive as input_json_delta events that yield nothing
// until the block ends. Events come every 40 ms, the call takes far longer
// than the 100 ms watchdog, and the watchdog must not fire.
func TestIdleWatchdogSeesToolArgumentDeltas(t *testing.T) {
	call := providertest.ToolCall{ID: "toolu_1", Name: "developer__shell", Arguments: `{"command":"ls -la /tmp && du -sh /var/log"}`}
	srv := start(t, providertest.Turn{ToolCalls: []providertest.ToolCall{call}, Delay: 40 * time.Millisecond})
	p := provider.IdleTimeout(newProvider(t, srv, sonnet, nil), 100*time.Millisecond)
	chunks, err := providertest.Drain(p, providertest.UserRequest("list files"))
	if err != nil {
		t.Fatalf("stream failed: %v", err)
	}
	msgs := providertest.Merge(chunks)
	if len(msgs) != 1 || len(msgs[0].Content) != 1 || msgs[0].Content[0].ToolRequest == nil {
		t.Fatalf("want one tool request, got %+v", msgs)
	}
}
