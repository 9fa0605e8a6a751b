package google

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
	call1 := conversation.ToolRequestContent("id-a", "developer__shell", map[string]any{"command": "ls"})
	call1.ToolRequest.Metadata = map[string]any{thoughtSignatureKey: "b2xkLXNpZw=="}
	call2 := conversation.ToolRequestContent("id-b", "developer__screen_capture", nil)
	call2.ToolRequest.Metadata = map[string]any{thoughtSignatureKey: "bmV3LXNpZw=="}
	userOnly := conversation.ToolContent{Type: "text", Text: "for the user", Annotations: &conversation.Annotations{Audience: []conversation.Role{u}}}
	msgs := []conversation.Message{
		conversation.NewMessage(u, 1).WithText("Look").With(conversation.Image("iVBORw0KGgo=", "image/png")),
		conversation.NewMessage(a, 2).With(conversation.Text("Listing."), call1),
		conversation.NewMessage(u, 3).With(conversation.ToolResponseContent("id-a", conversation.Ok(conversation.CallToolResult{
			Content: []conversation.ToolContent{conversation.TextBlock("a.go"), conversation.TextBlock("b.go"), userOnly}}))),
		conversation.NewMessage(a, 4).With(conversation.Thinking("need a screenshot", "dGhpbmstc2ln"), call2,
			conversation.ToolRequestError("id-c", "bad args")),
		conversation.NewMessage(u, 5).With(
			conversation.ToolResponseContent("id-b", conversation.Ok(conversation.CallToolResult{Content: []conversation.ToolContent{conversation.ImageBlock("AAAA", "image/png")}})),
			conversation.ToolResponseContent("id-c", conversation.Err[conversation.CallToolResult]("invalid")),
			conversation.ToolConfirmation("x", "y", nil, nil),
		),
	}
	tools := []provider.Tool{
		{Name: "developer__shell", Description: "Run a command", InputSchema: json.RawMessage(`{
			"$schema":"http://json-schema.org/draft-07/schema#","type":"object","additionalProperties":false,
			"properties":{
				"command":{"type":"string","minLength":1,"default":"ls","description":"the command"},
				"timeout":{"type":["integer","null"],"minimum":0},
				"mode":{"enum":["a","b"]},
				"paths":{"type":"array","items":{"type":"string","pattern":"^/"},"maxItems":5},
				"env":{"type":"object","properties":{"HOME":{"type":"string"}},"additionalProperties":{"type":"string"}},
				"choice":{"anyOf":[{"type":"string"},{"type":"number"}]}
			},
			"required":["command"]}`)},
		{Name: "todo__list", Description: "List", InputSchema: json.RawMessage(`{"type":"object","properties":{}}`)},
	}
	temp, maxTok, yes := 0.3, 1024, true
	cfg := model.Config{ModelName: "gemini-2.5-pro", Temperature: &temp, MaxTokens: &maxTok, Reasoning: &yes}
	srv := start(t, providertest.Turn{Text: []string{"ok"}})
	if _, err := providertest.Drain(newProvider(t, srv, cfg), provider.Request{System: "You are goose.", Messages: msgs, Tools: tools}); err != nil {
		t.Fatal(err)
	}
	providertest.AssertGolden(t, *update, "request_full.json", srv.Requests()[0].Body)
}

func TestSanitizeFunctionName(t *testing.T) {
	if got := sanitizeFunctionName("ext 🚀__do.it"); got != "ext____do_it" {
		t.Errorf("sanitizeFunctionName = %q", got)
	}
}
