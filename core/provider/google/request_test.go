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

// The goldens below were recorded from google.golang.org/genai v1.77.0
// before it was replaced, so they pin its exact serialisation: key order,
// HTML escaping, float32 temperatures, dropped schema keywords, the
// always-present generationConfig and the "user" role on the system
// instruction.
func TestRequestBodyGoldenEdges(t *testing.T) {
	u, a := conversation.RoleUser, conversation.RoleAssistant
	callOld := conversation.ToolRequestContent("c1", "ext.tool name", map[string]any{})
	callOld.ToolRequest.Metadata = map[string]any{thoughtSignatureKey: "b2xk"}
	callBadSig := conversation.ToolRequestContent("c2", "t2", map[string]any{"a": []any{1, "x"}, "h": "<&>"})
	callBadSig.ToolRequest.Metadata = map[string]any{thoughtSignatureKey: "!!notbase64"}
	res := "resource text"
	msgs := []conversation.Message{
		conversation.NewMessage(u, 1).WithText(""),
		conversation.NewMessage(a, 2).With(conversation.Thinking("old thought", "c2ln"), callOld),
		conversation.NewMessage(u, 3).With(conversation.ToolResponseContent("c1", conversation.Ok(conversation.CallToolResult{Content: []conversation.ToolContent{
			{Type: "resource", Resource: &conversation.ResourceContents{URI: "file:///r", Text: &res}},
			conversation.ImageBlock("!!bad", "image/png"),
			conversation.TextBlock("a<b>&c \u2028 é"),
		}}))),
		conversation.NewMessage(a, 4).With(conversation.Thinking("new thought", "not base64!"), conversation.Thinking("", ""), callBadSig),
		conversation.NewMessage(u, 5).With(conversation.ToolResponseContent("c2", conversation.Ok(conversation.CallToolResult{}))),
		conversation.NewMessage(u, 6).With(conversation.ToolResponseContent("unknown", conversation.Ok(conversation.CallToolResult{
			Content: []conversation.ToolContent{conversation.TextBlock("z")}}))),
	}
	tools := []provider.Tool{
		{Name: "edge", InputSchema: json.RawMessage(`{"type":"object","properties":{
			"n":{"enum":[1,2.5,true,null,"s"],"type":"number"},
			"nf":{"type":"string","nullable":false,"format":"date-time"},
			"on":{"type":["null"]},
			"d":{"description":5,"type":"string"},
			"arr":{"type":"array","items":{"type":"object","properties":{"x":{"type":"integer","minimum":1}},"required":["x",3]},"minItems":1,"maxItems":"3"},
			"obj":{"type":"object","properties":{}},
			"none":{},
			"list":{"type":"array","items":[{"type":"string"}]},
			"deep":{"type":"object","properties":{"inner":{"type":"object","properties":{"leaf":{"type":"boolean","title":"t"}}}}}
		},"required":["n"]}`)},
		{Name: "noprops", InputSchema: json.RawMessage(`{"type":"object"}`)},
		{Name: "badschema", InputSchema: json.RawMessage(`not json`)},
	}
	odd, zero, no, huge := 1.23456789, 0, false, 1<<40
	tests := []struct {
		golden string
		cfg    model.Config
		req    provider.Request
	}{
		{"request_minimal.json", model.Config{ModelName: "gemini-2.5-flash"},
			provider.Request{Messages: []conversation.Message{conversation.UserText(1, "hi")}}},
		{"request_empty.json", model.Config{ModelName: "gemini-2.5-flash", MaxTokens: &zero, Reasoning: &no}, provider.Request{}},
		{"request_edge.json", model.Config{ModelName: "gemini-2.5-flash", Temperature: &odd, MaxTokens: &huge},
			provider.Request{System: "<sys & co>", Messages: msgs, Tools: tools}},
	}
	for _, tt := range tests {
		t.Run(tt.golden, func(t *testing.T) {
			srv := start(t, providertest.Turn{Text: []string{"ok"}})
			if _, err := providertest.Drain(newProvider(t, srv, tt.cfg), tt.req); err != nil {
				t.Fatal(err)
			}
			providertest.AssertGolden(t, *update, tt.golden, srv.Requests()[0].Body)
		})
	}
}
