package anthropic

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/model"
	"github.com/goose-acp/goose-acp/core/provider"
	"github.com/goose-acp/goose-acp/core/provider/providertest"
)

// fullConversation exercises every content kind the formatter handles.
func fullConversation() provider.Request {
	u := conversation.RoleUser
	a := conversation.RoleAssistant
	img := conversation.Image("iVBORw0KGgo=", "image/png")
	resource := "file body"
	toolOK := conversation.Ok(conversation.CallToolResult{Content: []conversation.ToolContent{
		conversation.TextBlock("line 1"),
		conversation.ImageBlock("AAAA", "image/png"),
		{Type: "resource", Resource: &conversation.ResourceContents{URI: "file:///a", Text: &resource}},
	}})
	msgs := []conversation.Message{
		conversation.NewMessage(u, 1).WithText("Look at this").With(img),
		conversation.NewMessage(a, 2).With(
			conversation.Thinking("signed reasoning", "sig-1"),
			conversation.Thinking("unsigned reasoning", ""),
			conversation.RedactedThinking("REDACTED=="),
			conversation.Text("   "),
			conversation.Text("I'll read it."),
			conversation.ToolRequestContent("toolu_1", "developer__text_editor", map[string]any{"command": "view", "path": "/a"}),
			conversation.ToolRequestContent("toolu_2", "todo__list", nil),
			conversation.ToolRequestError("toolu_3", "Could not parse tool arguments: {"),
		),
		conversation.NewMessage(u, 3).With(
			conversation.ToolResponseContent("toolu_1", toolOK),
			conversation.ToolResponseContent("toolu_2", conversation.Err[conversation.CallToolResult]("boom")),
			conversation.ToolResponseContent("toolu_3", conversation.ErrorResult("bad args")),
		),
		conversation.NewMessage(a, 4).With(conversation.SystemNotification(conversation.NotificationInline, "ui only")),
		conversation.NewMessage(a, 5).WithText("Done."),
		conversation.NewMessage(u, 6).WithText("Thanks").With(conversation.ToolConfirmation("c1", "x", nil, nil)),
	}
	tools := []provider.Tool{
		{Name: "developer__shell", Description: "Run a command", InputSchema: json.RawMessage(`{"type":"object","properties":{"command":{"type":"string"}},"required":["command"]}`)},
		{Name: "developer__shell", Description: "duplicate", InputSchema: json.RawMessage(`{}`)},
		{Name: "todo__list", Description: "List todos", InputSchema: json.RawMessage(`{}`)},
	}
	return provider.Request{System: "You are goose.", Messages: msgs, Tools: tools}
}

func TestRequestBodyGolden(t *testing.T) {
	temp := 0.5
	tests := []struct {
		name   string
		cfg    model.Config
		params map[string]string
		req    provider.Request
	}{
		{"request_full.json", model.Config{ModelName: "claude-sonnet-4-5", Temperature: &temp, MaxTokens: new(8192)},
			map[string]string{"CLAUDE_THINKING_BUDGET": "4000"}, fullConversation()},
		{"request_minimal.json", model.Config{ModelName: "claude-haiku-4-5"}, nil,
			provider.Request{Messages: []conversation.Message{conversation.NewMessage(conversation.RoleUser, 1).WithText("  ")}}},
		{"request_adaptive.json", model.Config{ModelName: "claude-opus-4-6", RequestParams: map[string]any{"thinking_effort": "medium"}}, nil,
			providertest.UserRequest("hi")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := start(t, providertest.Turn{Text: []string{"ok"}})
			if _, err := providertest.Drain(newProvider(t, srv, tt.cfg, tt.params), tt.req); err != nil {
				t.Fatal(err)
			}
			providertest.AssertGolden(t, *update, tt.name, srv.Requests()[0].Body)
		})
	}
}

func TestCacheControlOnLastTwoUserMessages(t *testing.T) {
	var msgs []conversation.Message
	for i := range 4 {
		msgs = append(msgs, conversation.UserText(int64(i), fmt.Sprintf("u%d", i)), conversation.AssistantText(int64(i), fmt.Sprintf("a%d", i)))
	}
	out := formatMessages(msgs, formatOptions{})
	var marked []string
	for _, m := range out {
		for _, b := range m.Content {
			if b.CacheControl != nil {
				marked = append(marked, *b.Text)
			}
		}
	}
	if strings.Join(marked, ",") != "u2,u3" {
		t.Errorf("cache_control on %v, want the last two user messages u2,u3", marked)
	}
}

func TestThinkingHistoryDroppedWhenThinkingOff(t *testing.T) {
	off := false
	msgs := []conversation.Message{conversation.NewMessage(conversation.RoleAssistant, 1).With(
		conversation.Thinking("t", "sig"), conversation.RedactedThinking("r"), conversation.Text("answer"))}
	th := resolveThinking(model.Config{ModelName: "claude-sonnet-4-5", Reasoning: &off}, noParams)
	out := formatMessages(msgs, formatOptions{thinkingDisabled: th.historyDisabled})
	if got := providertest.MustJSON(t, out); got != `[{"role":"assistant","content":[{"type":"text","text":"answer"}]}]` {
		t.Errorf("formatted %s, want only the text", got)
	}
}

func TestUnsignedThinkingPreservedOnRequest(t *testing.T) {
	msgs := []conversation.Message{conversation.NewMessage(conversation.RoleAssistant, 1).With(conversation.Thinking("internal", ""))}
	th := resolveThinking(model.Config{ModelName: "glm-4.7", RequestParams: map[string]any{"preserve_unsigned_thinking": true}}, noParams)
	out := formatMessages(msgs, formatOptions{preserveUnsigned: th.preserveUnsigned})
	if got := providertest.MustJSON(t, out); got != `[{"role":"assistant","content":[{"type":"thinking","thinking":"internal"}]}]` {
		t.Errorf("formatted %s, want the unsigned thinking kept", got)
	}
}

func noParams(string) (string, bool) { return "", false }
