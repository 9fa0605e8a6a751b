package agent

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/provider"
)

func elicitation(m conversation.Message) *conversation.ActionData {
	for _, c := range m.Content {
		if c.ActionRequired != nil && c.ActionRequired.Data.ActionType == conversation.ActionElicitation {
			return &c.ActionRequired.Data
		}
	}
	return nil
}

func TestProgressNotificationForwarded(t *testing.T) {
	h := newHarness(t, nil, calls(call("p1", "tt__progress", nil)), say("ok"))
	h.start(StartOptions{})
	_, evs := h.reply(context.Background(), "go", nil)
	var got []NotificationEvent
	for _, e := range evs {
		if n, ok := e.(NotificationEvent); ok {
			got = append(got, n)
		}
	}
	if len(got) != 1 || got[0].RequestID != "p1" || got[0].Method != "notifications/progress" || got[0].Extension != "tt" {
		t.Fatalf("notifications = %+v", got)
	}
	var p map[string]any
	_ = json.Unmarshal(got[0].Params, &p)
	if p["progressToken"] != "p1" || p["message"] != "half" {
		t.Fatalf("params = %s", got[0].Params)
	}
	resp := h.store.conversationOf(h.id)[2].ToolResponses()[0]
	if resp.ToolResult.Value.Content[0].Text != "meta:p1" {
		t.Fatalf("tool did not see goose-tool-call-id: %s", toJSON(t, resp))
	}
}

func TestElicitationSubmit(t *testing.T) {
	h := newHarness(t, nil, calls(call("q", "tt__ask", nil)), say("ok"))
	h.start(StartOptions{})
	h.reply(context.Background(), "go", func(e Event) {
		if m, ok := e.(MessageEvent); ok {
			if d := elicitation(m.Message); d != nil {
				if d.Message != "Your name?" || !strings.Contains(string(d.RequestedSchema), `"name"`) {
					t.Errorf("elicitation = %s", toJSON(t, m.Message))
				}
				if err := h.a.SubmitElicitation(h.id, d.ID, ElicitAccept, json.RawMessage(`{"name":"Ada"}`)); err != nil {
					t.Error(err)
				}
			}
		}
	})
	resp := h.store.conversationOf(h.id)[2].ToolResponses()[0]
	if got := resp.ToolResult.Value.Content[0].Text; got != "accept:Ada" {
		t.Fatalf("tool saw %q", got)
	}
}

func TestElicitationResponseMessage(t *testing.T) {
	h := newHarness(t, nil, calls(call("q", "tt__ask", nil)), say("ok"))
	h.start(StartOptions{})
	errs := make(chan error, 1)
	h.reply(context.Background(), "go", func(e Event) {
		if m, ok := e.(MessageEvent); ok {
			if d := elicitation(m.Message); d != nil {
				answer := conversation.NewMessage(conversation.RoleUser, 2).With(conversation.ElicitationResponse(d.ID, json.RawMessage(`{"name":"Bob"}`)))
				go func() {
					out, err := h.a.Reply(context.Background(), h.id, answer, nil)
					if err == nil && out.StopReason != EndTurn {
						err = context.Canceled
					}
					errs <- err
				}()
			}
		}
	})
	if err := <-errs; err != nil {
		t.Fatal(err)
	}
	conv := h.store.conversationOf(h.id)
	var texts []string
	for _, m := range conv {
		for _, r := range m.ToolResponses() {
			texts = append(texts, r.ToolResult.Value.Content[0].Text)
		}
	}
	if len(texts) != 1 || texts[0] != "accept:Bob" {
		t.Fatalf("tool saw %v", texts)
	}
	if h.prov.numRequests() != 2 {
		t.Fatalf("the elicitation answer started an LLM turn (%d requests)", h.prov.numRequests())
	}
	// The tool pair is intact (a finished history ends with the
	// assistant, which repair trims for a request; nothing else changes).
	if _, issues := conversation.Fix(conv); len(issues) != 1 || issues[0] != "Removed trailing assistant message" {
		t.Fatalf("stored history needs repair: %v", issues)
	}
}

func TestElicitationTimeout(t *testing.T) {
	h := newHarnessWith(t, nil, func(o *Options) { o.ElicitationTimeout = 50 * time.Millisecond }, calls(call("q", "tt__ask", nil)), say("ok"))
	h.start(StartOptions{})
	h.reply(context.Background(), "go", nil)
	resp := h.store.conversationOf(h.id)[2].ToolResponses()[0]
	if got := resp.ToolResult.Value.Content[0].Text; !strings.Contains(got, "Timeout waiting for user response") {
		t.Fatalf("tool saw %q", got)
	}
}

func TestSampling(t *testing.T) {
	h := newHarness(t, nil, calls(call("s", "tt__sample", nil)), say("ok"))
	h.prov.complete = func(req provider.Request) (conversation.Message, error) {
		if req.System != SamplingSystemPrompt || req.Messages[0].AsText() != "say hi" {
			t.Errorf("sampling request = %+v", req)
		}
		return conversation.AssistantText(0, "hi!"), nil
	}
	h.start(StartOptions{})
	h.reply(context.Background(), "go", nil)
	resp := h.store.conversationOf(h.id)[2].ToolResponses()[0]
	if got := resp.ToolResult.Value.Content[0].Text; got != "sampled:hi!:fake-model" {
		t.Fatalf("tool saw %q", got)
	}
}

// TestParallelElicitations answers two concurrent elicitations in reverse
// order: waits correlate by id, not by arrival.
func TestParallelElicitations(t *testing.T) {
	h := newHarness(t, nil, calls(call("q1", "tt__ask", nil), call("q2", "tt__ask", nil)), say("ok"))
	h.start(StartOptions{})
	var ids []string
	h.reply(context.Background(), "go", func(e Event) {
		m, ok := e.(MessageEvent)
		if !ok {
			return
		}
		if d := elicitation(m.Message); d != nil {
			ids = append(ids, d.ID)
			if len(ids) == 2 {
				for i, id := range []string{ids[1], ids[0]} {
					name := []string{"second", "first"}[i]
					if err := h.a.SubmitElicitation(h.id, id, ElicitAccept, json.RawMessage(`{"name":"`+name+`"}`)); err != nil {
						t.Error(err)
					}
				}
			}
		}
	})
	if len(ids) != 2 {
		t.Fatalf("elicitations = %v", ids)
	}
	resp := h.store.conversationOf(h.id)[2].ToolResponses()
	got := resp[0].ToolResult.Value.Content[0].Text + "," + resp[1].ToolResult.Value.Content[0].Text
	if got != "accept:first,accept:second" && got != "accept:second,accept:first" {
		t.Fatalf("results = %s", got)
	}
	if resp[0].ToolResult.Value.Content[0].Text == resp[1].ToolResult.Value.Content[0].Text {
		t.Fatal("both calls got the same answer")
	}
}
