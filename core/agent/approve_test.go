package agent

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goose-acp/goose-acp/core/config"
	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/permission"
)

func confirmation(m conversation.Message) *conversation.ActionData {
	for _, c := range m.Content {
		if c.ActionRequired != nil && c.ActionRequired.Data.ActionType == conversation.ActionToolConfirmation {
			return &c.ActionRequired.Data
		}
	}
	return nil
}

func TestApprovals(t *testing.T) {
	tests := []struct {
		name     string
		decision permission.Decision
		ran      bool
		yaml     string // expected permission.yaml ("" = no file)
	}{
		{"allow once", permission.AllowOnce, true, ""},
		{"always allow", permission.AlwaysAllow, true, "user:\n  always_allow:\n    - tt__echo\n  ask_before: []\n  never_allow: []\n"},
		{"deny once", permission.DenyOnce, false, ""},
		{"always deny", permission.AlwaysDeny, false, "user:\n  always_allow: []\n  ask_before: []\n  never_allow:\n    - tt__echo\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			perms, err := config.OpenPermissions(filepath.Join(dir, "permission.yaml"))
			if err != nil {
				t.Fatal(err)
			}
			h := newHarnessWith(t, mapConfig{"GOOSE_MODE": "approve"}, func(o *Options) { o.Permissions = permission.FromConfig(perms) },
				calls(call("c1", "tt__echo", map[string]any{"q": "x"})), say("after"))
			h.start(StartOptions{})
			asked := 0
			h.reply(context.Background(), "go", func(e Event) {
				m, ok := e.(MessageEvent)
				if !ok {
					return
				}
				if d := confirmation(m.Message); d != nil {
					asked++
					if d.ID != "c1" || d.ToolName != "tt__echo" || d.Arguments["q"] != "x" || d.Prompt != nil {
						t.Errorf("confirmation = %s", toJSON(t, m.Message))
					}
					if m.Message.Metadata.AgentVisible || !m.Message.Metadata.UserVisible {
						t.Errorf("confirmation metadata = %+v", m.Message.Metadata)
					}
					if err := h.a.Confirm(h.id, d.ID, tc.decision); err != nil {
						t.Error(err)
					}
				}
			})
			if asked != 1 {
				t.Fatalf("asked %d times", asked)
			}
			conv := h.store.conversationOf(h.id)
			resp := conv[2].ToolResponses()[0].ToolResult.Value.Content[0].Text
			if tc.ran != strings.HasPrefix(resp, "echo:") {
				t.Fatalf("tool response = %q", resp)
			}
			if !tc.ran && resp != DeclinedResponse {
				t.Fatalf("declined text = %q", resp)
			}
			if res := conv[2].ToolResponses()[0].ToolResult.Value; Declined(res) == tc.ran {
				t.Fatalf("declined mark = %v for a call that ran = %v: %s", Declined(res), tc.ran, toJSON(t, res))
			}
			got, err := os.ReadFile(filepath.Join(dir, "permission.yaml"))
			if tc.yaml == "" {
				if err == nil {
					t.Fatalf("permission.yaml written: %s", got)
				}
				return
			}
			if string(got) != tc.yaml {
				t.Fatalf("permission.yaml =\n%s\nwant\n%s", got, tc.yaml)
			}
		})
	}
}

// TestCancelAtApprovalEndsTurn: a Cancel answer (ACP's "cancelled"
// outcome, goose CLI's cancel) ends the turn cancelled: the call does not
// run, it is answered as cancelled, and the model is not asked again.
func TestCancelAtApprovalEndsTurn(t *testing.T) {
	h := newHarnessWith(t, mapConfig{"GOOSE_MODE": "approve"}, nil,
		calls(call("c1", "tt__echo", map[string]any{"q": "x"})), say("must not be asked"))
	h.start(StartOptions{})
	out, _ := h.reply(context.Background(), "go", func(e Event) {
		if m, ok := e.(MessageEvent); ok {
			if d := confirmation(m.Message); d != nil {
				if err := h.a.Confirm(h.id, d.ID, permission.Cancel); err != nil {
					t.Error(err)
				}
			}
		}
	})
	if out.StopReason != Cancelled {
		t.Fatalf("stop reason = %v, want Cancelled", out.StopReason)
	}
	if n := h.prov.numRequests(); n != 1 {
		t.Fatalf("%d model calls, want 1", n)
	}
	conv := h.store.conversationOf(h.id)
	if len(conv) != 3 {
		t.Fatalf("history = %s", toJSON(t, conv))
	}
	if r := conv[2].ToolResponses()[0].ToolResult; r.IsOK() || r.Error != CancelledToolText {
		t.Fatalf("cancelled call's result = %s", toJSON(t, r))
	}
}

func TestApproveModeReadOnlyAndStoredLevels(t *testing.T) {
	dir := t.TempDir()
	perms, err := config.OpenPermissions(filepath.Join(dir, "permission.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if err := perms.SetUser("tt__echo", config.NeverAllow); err != nil {
		t.Fatal(err)
	}
	h := newHarnessWith(t, mapConfig{"GOOSE_MODE": "approve"}, func(o *Options) { o.Permissions = permission.FromConfig(perms) },
		calls(call("r", "tt__read", nil), call("e", "tt__echo", nil)), say("ok"))
	h.start(StartOptions{})
	_, evs := h.reply(context.Background(), "go", nil)
	for _, m := range messages(evs) {
		if confirmation(m) != nil {
			t.Fatal("asked for a read-only or never-allowed tool")
		}
	}
	resp := h.store.conversationOf(h.id)[2].ToolResponses()
	if resp[0].ToolResult.Value.Content[0].Text != "contents" || resp[1].ToolResult.Value.Content[0].Text != DeclinedResponse {
		t.Fatalf("responses = %s", toJSON(t, resp))
	}
}

func TestSecurityFindingPromptsInAutoMode(t *testing.T) {
	h := newHarness(t, mapConfig{"SECURITY_PROMPT_ENABLED": "true"},
		calls(call("s", "shell", map[string]any{"command": "rm -rf /"})), say("ok"))
	h.start(StartOptions{})
	var prompt *string
	h.reply(context.Background(), "go", func(e Event) {
		if m, ok := e.(MessageEvent); ok {
			if d := confirmation(m.Message); d != nil {
				prompt = d.Prompt
				_ = h.a.Confirm(h.id, d.ID, permission.DenyOnce)
			}
		}
	})
	if prompt == nil || !strings.HasPrefix(*prompt, "🔒 Security Alert: Pattern-based Detection\n\nPattern-based detection: Recursive deletion of root filesystem (Risk: Critical)") {
		t.Fatalf("prompt = %v", prompt)
	}
}

func TestChatModeSkipsTools(t *testing.T) {
	h := newHarness(t, mapConfig{"GOOSE_MODE": "chat"}, calls(call("c", "tt__echo", nil)), say("plan"))
	h.start(StartOptions{})
	h.reply(context.Background(), "go", nil)
	resp := h.store.conversationOf(h.id)[2].ToolResponses()[0]
	if resp.ToolResult.Value.Content[0].Text != ChatModeSkipped {
		t.Fatalf("response = %s", toJSON(t, resp))
	}
	if len(h.ts.calls) != 0 {
		t.Fatalf("tool ran in chat mode: %v", h.ts.calls)
	}
	if !strings.Contains(h.prov.request(0).System, ChatModePromptText) {
		t.Error("chat-mode sentence missing from the system prompt")
	}
}

func TestFrontendTool(t *testing.T) {
	fe := config.ExtensionConfig{Type: config.ExtensionFrontend, Name: "ui", Tools: []json.RawMessage{json.RawMessage(`{"name":"pick","inputSchema":{"type":"object"}}`)}}
	h := newHarness(t, nil, calls(call("f1", "ui__pick", map[string]any{"a": 1}), call("e1", "tt__echo", nil)), say("ok"))
	h.start(StartOptions{Extensions: []config.ExtensionConfig{fe}})
	var order []string
	_, evs := h.reply(context.Background(), "go", func(e Event) {
		m, ok := e.(MessageEvent)
		if !ok {
			return
		}
		for _, c := range m.Message.Content {
			if c.FrontendToolRequest != nil {
				order = append(order, "frontend")
				_ = h.a.SubmitFrontendToolResult(h.id, c.FrontendToolRequest.ID, conversation.TextResult("picked"))
			}
			if c.ToolRequest != nil && c.ToolRequest.ToolCall.Value.Name == "ui__pick" {
				t.Error("frontend tool request leaked into the streamed message")
			}
		}
	})
	_ = evs
	if len(order) != 1 {
		t.Fatalf("frontend requests = %d", len(order))
	}
	resp := h.store.conversationOf(h.id)[2].ToolResponses()
	if resp[0].ID != "f1" || resp[0].ToolResult.Value.Content[0].Text != "picked" || !strings.HasPrefix(resp[1].ToolResult.Value.Content[0].Text, "echo:") {
		t.Fatalf("responses = %s", toJSON(t, resp))
	}
	// The stored assistant message keeps the frontend request.
	if len(h.store.conversationOf(h.id)[1].ToolRequests()) != 2 {
		t.Fatal("stored assistant message lost a tool request")
	}
}

func TestMaxTurns(t *testing.T) {
	h := newHarness(t, nil, calls(call("a", "tt__echo", nil)), calls(call("b", "tt__echo", nil)))
	h.start(StartOptions{MaxTurns: 1})
	out, evs := h.reply(context.Background(), "go", nil)
	msgs := messages(evs)
	if out.StopReason != MaxTurns || msgs[len(msgs)-1].AsText() != MaxTurnsText {
		t.Fatalf("stop = %v, last = %s", out.StopReason, toJSON(t, msgs[len(msgs)-1]))
	}
	if h.prov.numRequests() != 1 {
		t.Fatalf("provider called %d times", h.prov.numRequests())
	}
}

func TestRepetitionLimit(t *testing.T) {
	same := map[string]any{"q": "x"}
	h := newHarness(t, nil, calls(call("a", "tt__echo", same)), calls(call("b", "tt__echo", same)), say("stop"))
	h.start(StartOptions{MaxToolRepetitions: 1})
	h.reply(context.Background(), "go", nil)
	conv := h.store.conversationOf(h.id)
	first := conv[2].ToolResponses()[0].ToolResult.Value.Content[0].Text
	second := conv[4].ToolResponses()[0].ToolResult.Value.Content[0].Text
	if !strings.HasPrefix(first, "echo:") || second != DeclinedResponse {
		t.Fatalf("first=%q second=%q", first, second)
	}
}
