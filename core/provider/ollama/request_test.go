package ollama

import (
	"encoding/json"
	"testing"

	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/model"
	"github.com/goose-acp/goose-acp/core/provider"
	"github.com/goose-acp/goose-acp/core/provider/providertest"
)

func TestRequestBodyGolden(t *testing.T) {
	u, a := conversation.RoleUser, conversation.RoleAssistant
	userOnly := conversation.ToolContent{Type: "text", Text: "for the user", Annotations: &conversation.Annotations{Audience: []conversation.Role{u}}}
	msgs := []conversation.Message{
		conversation.NewMessage(u, 1).WithText("What is in this picture?").With(conversation.Image("iVBORw0KGgo=", "image/png")),
		conversation.NewMessage(a, 2).With(
			conversation.Thinking("look first", ""),
			conversation.Text("Let me check."),
			conversation.ToolRequestContent("call_1", "developer__shell", map[string]any{"command": "ls"}),
			conversation.ToolRequestContent("call_2", "developer__screen_capture", nil),
			conversation.ToolRequestError("call_3", "bad"),
		),
		conversation.NewMessage(u, 3).With(
			conversation.ToolResponseContent("call_1", conversation.Ok(conversation.CallToolResult{Content: []conversation.ToolContent{
				conversation.TextBlock("a.go"), conversation.TextBlock("b.go"), userOnly}})),
			conversation.ToolResponseContent("call_2", conversation.Ok(conversation.CallToolResult{Content: []conversation.ToolContent{
				conversation.ImageBlock("AAAA", "image/png")}})),
			conversation.ToolResponseContent("call_3", conversation.Err[conversation.CallToolResult]("invalid arguments")),
		),
		conversation.NewMessage(a, 4).With(conversation.SystemNotification(conversation.NotificationInline, "ui")),
		conversation.NewMessage(a, 5).WithText("Done."),
	}
	temp, maxTok, limit := 0.2, 2048, 32_768
	cfg := model.Config{ModelName: "qwen3-coder:30b", Temperature: &temp, MaxTokens: &maxTok, ContextLimit: &limit}
	tools := []provider.Tool{
		{Name: "developer__shell", Description: "Run", InputSchema: json.RawMessage(`{"type":"object","properties":{"command":{"type":"string","minLength":1}},"required":["command"],"additionalProperties":false}`)},
		{Name: "todo__list", Description: "List", InputSchema: json.RawMessage(`{}`)},
	}
	srv := start(t, providertest.Turn{Text: []string{"ok"}})
	if _, err := providertest.Drain(newProvider(t, srv, cfg, nil), provider.Request{System: "You are goose.", Messages: msgs, Tools: tools}); err != nil {
		t.Fatal(err)
	}
	providertest.AssertGolden(t, *update, "request_full.json", srv.Requests()[0].Body)
}
