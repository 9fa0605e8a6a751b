package agent

import (
	"context"
	"strings"
	"testing"

	"github.com/goose-acp/goose-acp/core/conversation"
)

func TestPlainText(t *testing.T) {
	h := newHarness(t, nil, say("Hel", "lo"))
	h.start(StartOptions{})
	out, evs := h.reply(context.Background(), "hi", nil)
	if out.StopReason != EndTurn {
		t.Fatalf("stop = %v", out.StopReason)
	}
	msgs := messages(evs)
	if len(msgs) != 2 || msgs[0].AsText() != "Hel" || msgs[1].AsText() != "lo" || msgs[0].IDOrEmpty() != "resp" {
		t.Fatalf("streamed chunks = %s", toJSON(t, msgs))
	}
	conv := h.store.conversationOf(h.id)
	if len(conv) != 2 || conv[0].AsText() != "hi" || conv[1].AsText() != "Hello" || conv[1].Role != conversation.RoleAssistant {
		t.Fatalf("stored = %s", toJSON(t, conv))
	}
	req := h.prov.request(0)
	if !strings.Contains(req.System, "## tt") || !strings.Contains(req.System, "Test tools.") {
		t.Errorf("system prompt lacks the extension:\n%s", req.System)
	}
	var names []string
	for _, tool := range req.Tools {
		names = append(names, tool.Name)
	}
	if !strings.Contains(strings.Join(names, ","), "tt__echo") {
		t.Errorf("tools = %v", names)
	}
	// The turn context follows the prompt (turncontext_test.go has the rest).
	if first := req.Messages[0].AsText(); !strings.HasPrefix(first, "hi\n<turn-context>\n<current-time>2026-01-02 03:04:00 +00:00</current-time>\n") {
		t.Errorf("turn context missing from request: %q", first)
	}
}

func TestOneTool(t *testing.T) {
	h := newHarness(t, nil, calls(call("c1", "tt__echo", map[string]any{"x": 1})), say("done"))
	h.start(StartOptions{})
	out, evs := h.reply(context.Background(), "go", nil)
	if out.StopReason != EndTurn {
		t.Fatalf("stop = %v", out.StopReason)
	}
	conv := h.store.conversationOf(h.id)
	if len(conv) != 4 {
		t.Fatalf("stored %d messages: %s", len(conv), toJSON(t, conv))
	}
	resp := conv[2].ToolResponses()
	if len(resp) != 1 || resp[0].ID != "c1" || !resp[0].ToolResult.IsOK() || resp[0].ToolResult.Value.Content[0].Text != `echo:{"x":1}` {
		t.Fatalf("tool response = %s", toJSON(t, conv[2]))
	}
	if conv[3].AsText() != "done" {
		t.Fatalf("final = %s", toJSON(t, conv[3]))
	}
	// The second request carries the tool exchange.
	second := h.prov.request(1).Messages
	last := second[len(second)-1]
	if len(last.ToolResponses()) != 1 {
		t.Fatalf("second request ends with %s", toJSON(t, last))
	}
	if got := messages(evs); len(got) != 3 || got[1].ToolResponses() == nil {
		t.Fatalf("events = %s", toJSON(t, got))
	}
}

func TestParallelTools(t *testing.T) {
	h := newHarness(t, nil, calls(call("a", "tt__barrier", nil), call("b", "tt__barrier", nil), call("c", "tt__barrier", nil)), say("ok"))
	h.ts.need, h.ts.barrier = 3, make(chan struct{})
	h.start(StartOptions{})
	h.reply(context.Background(), "go", nil)
	conv := h.store.conversationOf(h.id)
	resp := conv[2].ToolResponses()
	if len(resp) != 3 {
		t.Fatalf("responses = %s", toJSON(t, conv[2]))
	}
	for i, id := range []string{"a", "b", "c"} {
		r := resp[i]
		if r.ID != id || r.ToolResult.Value.Content[0].Text != "together" {
			t.Fatalf("response %d = %s (calls did not run in parallel)", i, toJSON(t, r))
		}
	}
}
