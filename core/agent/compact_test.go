package agent

import (
	"context"
	"strings"
	"testing"

	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/provider"
	"github.com/goose-acp/goose-acp/core/toolinfo"
)

func TestAutoCompaction(t *testing.T) {
	h := newHarness(t, nil, say("answer"))
	h.prov.limit = 1000
	h.prov.complete = func(req provider.Request) (conversation.Message, error) {
		if !strings.Contains(req.System, "[user]: earlier question") || req.Messages[0].AsText() != SummarizeRequestText {
			t.Errorf("summary request = %+v", req)
		}
		return conversation.AssistantText(0, "SUMMARY"), nil
	}
	h.start(StartOptions{})
	// A previous turn that reported 900 of 1000 tokens.
	ctx := context.Background()
	_ = h.store.AppendMessage(ctx, h.id, conversation.UserText(1, "earlier question"))
	_ = h.store.AppendMessage(ctx, h.id, conversation.AssistantText(1, "earlier answer"))
	total := 900
	h.a.sessions[h.id].tokens.Total = &total
	h.store.sessions[h.id].TotalTokens = &total

	out, evs := h.reply(ctx, "next", nil)
	if out.StopReason != EndTurn {
		t.Fatalf("stop = %v", out.StopReason)
	}
	var kinds []string
	var replaced []conversation.Message
	for _, e := range evs {
		switch e := e.(type) {
		case MessageEvent:
			if n := e.Message.Content[0].SystemNotification; n != nil {
				kinds = append(kinds, n.Msg)
			}
		case HistoryReplacedEvent:
			replaced = e.Conversation
		}
	}
	want := []string{"Exceeded auto-compact threshold of 80%. Performing auto-compaction...", CompactionThinkingText, CompactionCompleteText}
	if strings.Join(kinds, "|") != strings.Join(want, "|") {
		t.Fatalf("notifications = %q", kinds)
	}
	if replaced == nil {
		t.Fatal("no HistoryReplaced")
	}
	// The provider saw only the summary, the continuation and the replayed
	// question (plus the MOIM).
	req := h.prov.request(0)
	var seen []string
	for _, m := range req.Messages {
		seen = append(seen, m.AsText())
	}
	joined := strings.Join(seen, "|")
	if strings.Contains(joined, "earlier answer") || !strings.Contains(joined, "SUMMARY") || !strings.Contains(joined, AutoContinuation) || !strings.HasSuffix(joined, "next") {
		t.Fatalf("provider saw %q", seen)
	}
	conv := h.store.conversationOf(h.id)
	// Old messages kept for the user, hidden from the agent.
	if conv[0].Metadata.AgentVisible || !conv[0].Metadata.UserVisible || conv[3].AsText() != "SUMMARY" || conv[3].Metadata.UserVisible || conv[3].Role != conversation.RoleUser {
		t.Fatalf("stored = %s", toJSON(t, conv))
	}
	s, _ := h.store.Get(ctx, h.id, false)
	if s.AccumulatedTotalTokens == nil || *s.AccumulatedTotalTokens != 15 {
		t.Fatalf("accumulated = %v", s.AccumulatedTotalTokens)
	}
}

func TestContextLengthRecovery(t *testing.T) {
	h := newHarness(t, nil,
		step{err: &provider.Error{Kind: provider.KindContextLength, Provider: "fake", Message: "too long"}},
		say("recovered"))
	h.prov.complete = func(req provider.Request) (conversation.Message, error) {
		return conversation.AssistantText(0, "SUMMARY"), nil
	}
	h.start(StartOptions{})
	out, evs := h.reply(context.Background(), "hello", nil)
	if out.StopReason != EndTurn {
		t.Fatalf("stop = %v", out.StopReason)
	}
	var notes []string
	replaced := false
	for _, e := range evs {
		switch e := e.(type) {
		case MessageEvent:
			if n := e.Message.Content[0].SystemNotification; n != nil {
				notes = append(notes, n.Msg)
			}
		case HistoryReplacedEvent:
			replaced = true
		}
	}
	if !replaced || len(notes) < 1 || notes[0] != ContextLimitText {
		t.Fatalf("notes=%q replaced=%v", notes, replaced)
	}
	conv := h.store.conversationOf(h.id)
	if last := conv[len(conv)-1]; last.AsText() != "recovered" {
		t.Fatalf("last = %s", toJSON(t, last))
	}
}

func TestContextLengthRecoveryGivesUp(t *testing.T) {
	overflow := step{err: &provider.Error{Kind: provider.KindContextLength, Provider: "fake", Message: "too long"}}
	h := newHarness(t, nil, overflow, overflow, overflow, overflow)
	h.start(StartOptions{})
	out, _ := h.reply(context.Background(), "hello", nil)
	if out.StopReason != Error {
		t.Fatalf("stop = %v", out.StopReason)
	}
	if n := h.prov.numRequests(); n != maxRecoveries+1 {
		t.Fatalf("provider called %d times", n)
	}
}

func TestManualCompactAndClear(t *testing.T) {
	h := newHarness(t, nil, say("first"))
	h.prov.complete = func(req provider.Request) (conversation.Message, error) {
		return conversation.AssistantText(0, "SUMMARY"), nil
	}
	h.start(StartOptions{})
	h.reply(context.Background(), "hello", nil)
	out, evs := h.reply(context.Background(), "/compact", nil)
	if out.StopReason != EndTurn || h.prov.numRequests() != 1 {
		t.Fatalf("stop=%v requests=%d", out.StopReason, h.prov.numRequests())
	}
	var replaced []conversation.Message
	for _, e := range evs {
		if r, ok := e.(HistoryReplacedEvent); ok {
			replaced = r.Conversation
		}
	}
	if replaced = withoutTurnContext(replaced); len(replaced) != 4 || replaced[3].AsText() != ManualContinuation {
		t.Fatalf("replaced = %s", toJSON(t, replaced))
	}
	_, evs = h.reply(context.Background(), "/clear", nil)
	// goose's answer is shown, and the command and answer stay in the
	// history for the user only.
	var shown []string
	for _, e := range evs {
		if m, ok := e.(MessageEvent); ok {
			shown = append(shown, m.Message.AsText())
		}
	}
	if len(shown) != 1 || shown[0] != ClearedText {
		t.Fatalf("messages shown = %q", shown)
	}
	r, ok := evs[len(evs)-1].(HistoryReplacedEvent)
	if !ok || len(r.Conversation) != 2 || r.Conversation[0].AsText() != "/clear" || r.Conversation[1].AsText() != ClearedText {
		t.Fatalf("events = %#v", evs)
	}
	stored := h.store.conversationOf(h.id)
	if len(stored) != 2 || stored[0].Metadata.AgentVisible || stored[1].Metadata.AgentVisible || !stored[1].Metadata.UserVisible {
		t.Fatalf("history after /clear = %s", toJSON(t, stored))
	}
	// The model starts from nothing.
	h.prov.mu.Lock()
	h.prov.steps = append(h.prov.steps, say("fresh"))
	h.prov.mu.Unlock()
	h.reply(context.Background(), "again", nil)
	if msgs := h.prov.request(h.prov.numRequests() - 1).Messages; len(msgs) != 1 || !strings.HasPrefix(msgs[0].AsText(), "again\n<turn-context>") {
		t.Fatalf("the model saw %s", toJSON(t, msgs))
	}
}

func TestByteBoundCoversTokenEstimate(t *testing.T) {
	msgs := []conversation.Message{
		conversation.UserText(1, "héllo wörld, this is a test of the estimate 🚀"),
		conversation.NewMessage(conversation.RoleAssistant, 1).WithText("calling").With(call("c1", "dev__shell", map[string]any{"command": "ls -la /tmp"})),
		conversation.NewMessage(conversation.RoleUser, 1).With(conversation.ToolResponseContent("c1", conversation.TextResult("a\nb\nc"))),
	}
	if b, tok := byteBound(msgs), provider.CountChatTokens("", msgs, nil); b < tok {
		t.Fatalf("bound %d < estimate %d", b, tok)
	}
}

// The compaction input lists the files read and modified (goose's
// extract_file_history): from what the tools declare, and by goose's name
// lists for calls of tools the session no longer has.
func TestFileHistory(t *testing.T) {
	declared := map[string]toolinfo.Info{
		"read":        {Kind: toolinfo.Read, Path: "path", TextFile: true, Line: "line"},
		"edit":        {Kind: toolinfo.Edit, Path: "path", TextFile: true, Before: "before", After: "after"},
		"text_editor": {Kind: toolinfo.Edit, Path: "path", TextFile: true, Before: "old_str", After: "new_str", Content: "file_text"},
		"tree":        {Kind: toolinfo.Read, Path: "path"},
	}
	info := func(name string) toolinfo.Info {
		if i, ok := declared[name]; ok {
			return i
		}
		return toolinfo.Guess(name)
	}
	msgs := []conversation.Message{conversation.NewMessage(conversation.RoleAssistant, 1).With(
		call("1", "read", map[string]any{"path": "/a.go"}),
		call("2", "tree", map[string]any{"path": "/src"}),
		call("3", "edit", map[string]any{"path": "/a.go", "before": "x", "after": "y"}),
		call("4", "text_editor", map[string]any{"command": "view", "path": "/b.go"}),
		call("5", "text_editor", map[string]any{"command": "write", "path": "/c.go", "file_text": "package c"}),
		call("6", "developer__write", map[string]any{"path": "/d.go", "content": "x"}),
		call("7", "read", map[string]any{"path": "/a.go"}),
		call("8", "shell", map[string]any{"command": "cat /e.go"}),
	)}
	read, modified := fileHistory(msgs, info)
	if strings.Join(read, ",") != "/a.go,/b.go" || strings.Join(modified, ",") != "/a.go,/c.go,/d.go" {
		t.Fatalf("read %v, modified %v", read, modified)
	}
}
