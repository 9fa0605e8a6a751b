package agent

import (
	"context"
	"testing"

	"github.com/goose-acp/goose-acp/core/conversation"
)

func benchTurn(b *testing.B, instantTools bool) { benchTurnWith(b, instantTools, nil, "") }

// benchTurnWith is benchTurn on an agent edit changes, in a session
// working in wd ("" for a new temp dir).
func benchTurnWith(b *testing.B, instantTools bool, edit func(*Options), wd string) {
	t := &testing.T{}
	h := newHarnessWith(t, nil, edit)
	h.start(StartOptions{WorkingDir: wd})
	defer h.a.Close()
	if instantTools {
		result := conversation.CallToolResult{Content: []conversation.ToolContent{conversation.TextBlock("ok")}}
		h.a.sessions[h.id].callTool = func(context.Context, string, string, map[string]any) (conversation.CallToolResult, error) {
			return result, nil
		}
	}
	turn := calls(call("a", "tt__echo", nil), call("b", "tt__echo", nil), call("c", "tt__echo", nil))
	msg := conversation.UserText(1, "go")
	sink := func(Event) {}
	// Warm up once (first-use costs are not the loop's).
	h.prov.steps = []step{say("warm")}
	if _, err := h.a.Reply(context.Background(), h.id, msg, sink); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		h.prov.steps = []step{turn, say("done")}
		h.prov.requests = nil
		_ = h.store.ReplaceConversation(context.Background(), h.id, nil)
		b.StartTimer()
		out, err := h.a.Reply(context.Background(), h.id, msg, sink)
		if err != nil || out.StopReason != EndTurn {
			b.Fatal(out, err)
		}
	}
}

// BenchmarkThreeToolTurn is the loop's own overhead for one Reply with a
// 3-tool turn: an instant scripted provider and instant tools, so what is
// measured is persistence, repair, MOIM, inspection, parallel dispatch and
// event delivery.
func BenchmarkThreeToolTurn(b *testing.B) { benchTurn(b, true) }

// BenchmarkThreeToolTurnMCP is the same turn with the tools served by an
// in-process MCP server (adds go-sdk's JSON-RPC round trips).
func BenchmarkThreeToolTurnMCP(b *testing.B) { benchTurn(b, false) }
