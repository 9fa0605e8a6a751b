package agent

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/provider"
)

func TestToolCallCutoff(t *testing.T) {
	// goose's compute_tool_call_cutoff figures.
	for _, c := range []struct {
		limit int
		th    float64
		want  int
	}{
		{128_000, 0.8, 15}, {200_000, 0.8, 24}, {1_000_000, 0.8, 120}, {50_000, 0.8, 10}, {10_000, 0.8, 10},
		{10_000_000, 0.8, 500}, {200_000, 0.3, 10}, {1_000_000, 0.5, 75}, {200_000, 0, 24}, {200_000, -1, 24},
	} {
		if got := toolCallCutoff(c.limit, c.th); got != c.want {
			t.Errorf("cutoff(%d, %v) = %d, want %d", c.limit, c.th, got, c.want)
		}
	}
}

func pairConversation(n int) []conversation.Message {
	msgs := []conversation.Message{conversation.UserText(1, "hello").WithID("u")}
	for i := range n {
		id := fmt.Sprintf("call%d", i)
		msgs = append(msgs,
			conversation.NewMessage(conversation.RoleAssistant, 1).WithID("req"+id).With(call(id, "tt__echo", map[string]any{"i": i})),
			conversation.NewMessage(conversation.RoleUser, 1).WithID("resp"+id).With(conversation.ToolResponseContent(id, conversation.TextResult("content"))))
	}
	return msgs
}

func TestToolIDsToSummarize(t *testing.T) {
	if got := toolIDsToSummarize(pairConversation(15), 5, 0); len(got) != 0 {
		t.Fatalf("cutoff+batch calls summarized: %v", got)
	}
	got := toolIDsToSummarize(pairConversation(16), 5, 0)
	if len(got) != toolPairBatch || got[0] != "call0" || got[9] != "call9" {
		t.Fatalf("batch = %v", got)
	}
	// The current turn's calls are never counted as eligible.
	if got := toolIDsToSummarize(pairConversation(20), 2, 8); len(got) != 0 {
		t.Fatalf("protected calls summarized: %v", got)
	}
	// Agent-invisible (already summarized) calls do not count.
	msgs := pairConversation(16)
	for i := 1; i <= 4; i++ {
		msgs[i].Metadata.AgentVisible = false
	}
	if got := toolIDsToSummarize(msgs, 5, 0); len(got) != 0 {
		t.Fatalf("hidden calls counted: %v", got)
	}
}

// A session past the cutoff gets its oldest tool calls summarized at the
// next turn: the pairs stay for the user, hidden from the model, and the
// model's one-line summaries take their place from the following request.
func TestToolPairSummarization(t *testing.T) {
	var steps []step
	for i := range 12 {
		steps = append(steps, calls(call(fmt.Sprintf("c%d", i), "tt__echo", map[string]any{"i": i})))
	}
	steps = append(steps, say("done"), say("second"), say("third"))
	h := newHarness(t, mapConfig{"GOOSE_TOOL_CALL_CUTOFF": "1"}, steps...)
	h.prov.uniqueIDs = true
	n := 0
	h.prov.complete = func(req provider.Request) (conversation.Message, error) {
		n++
		return conversation.AssistantText(0, fmt.Sprintf("summary %d", n)), nil
	}
	h.start(StartOptions{})
	h.reply(context.Background(), "work", nil)
	if len(h.prov.completes) != 0 {
		t.Fatalf("the turn's own calls were summarized: %d requests", len(h.prov.completes))
	}
	h.reply(context.Background(), "next", nil)
	if len(h.prov.completes) != toolPairBatch {
		t.Fatalf("%d summary requests, want %d", len(h.prov.completes), toolPairBatch)
	}
	first := h.prov.completes[0]
	if first.System != ToolPairSummaryPrompt || len(first.Messages) != 1 ||
		first.Messages[0].AsText() != "[assistant]: tool_request(tt__echo): {\"i\":0}\n[user]: tool_response: echo:{\"i\":0}" {
		t.Fatalf("summary request = %s", toJSON(t, first))
	}
	stored := h.store.conversationOf(h.id)
	hidden, summaries := 0, 0
	for _, m := range stored {
		if m.Metadata.UserVisible && !m.Metadata.AgentVisible && (m.HasToolRequests() || m.HasToolResponses()) {
			hidden++
		}
		if strings.HasPrefix(m.AsText(), "summary ") {
			summaries++
			if m.Role != conversation.RoleUser || m.Metadata != (conversation.Metadata{AgentVisible: true}) {
				t.Errorf("summary message %s", toJSON(t, m))
			}
		}
	}
	if hidden != 2*toolPairBatch || summaries != toolPairBatch {
		t.Fatalf("hidden %d messages, %d summaries: %s", hidden, summaries, toJSON(t, stored))
	}
	// The third turn's request has the summaries, not the pairs.
	h.reply(context.Background(), "third", nil)
	req := h.prov.request(h.prov.numRequests() - 1)
	text := toJSON(t, req.Messages)
	if !strings.Contains(text, `"text":"summary 1"`) || strings.Contains(text, `echo:{\"i\":0}`) || !strings.Contains(text, `echo:{\"i\":11}`) {
		t.Fatalf("third request: %s", text)
	}
	if len(h.prov.completes) != toolPairBatch {
		t.Fatalf("summarized again: %d", len(h.prov.completes))
	}
}

func TestToolPairSummarizationOff(t *testing.T) {
	var steps []step
	for i := range 12 {
		steps = append(steps, calls(call(fmt.Sprintf("c%d", i), "tt__echo", map[string]any{"i": i})))
	}
	steps = append(steps, say("done"), say("second"))
	h := newHarness(t, mapConfig{"GOOSE_TOOL_CALL_CUTOFF": "1", "GOOSE_TOOL_PAIR_SUMMARIZATION": "false"}, steps...)
	h.start(StartOptions{})
	h.reply(context.Background(), "work", nil)
	h.reply(context.Background(), "next", nil)
	if len(h.prov.completes) != 0 {
		t.Fatalf("%d summary requests with summarization off", len(h.prov.completes))
	}
}
