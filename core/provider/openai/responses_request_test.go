package openai

import (
	"encoding/json"
	"testing"

	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/model"
	"github.com/goose-acp/goose-acp/core/provider"
	"github.com/goose-acp/goose-acp/core/provider/providertest"
)

func fptr(f float64) *float64 { return &f }

// historyRequest is a turn after two rounds of tool use: texts around tool
// calls, a text result, an image result, a failed call and its error.
func historyRequest() provider.Request {
	text := "a.go contents"
	return provider.Request{
		System: "You are goose.",
		Messages: []conversation.Message{
			conversation.UserText(1, "look at a.go").With(conversation.Image("iVBOR", "image/png")),
			conversation.AssistantText(2, "I'll read it.").With(
				conversation.Thinking("plan", ""),
				conversation.ToolRequestContent("call_1", "developer__text_editor", map[string]any{"command": "view", "path": "a.go"}),
				conversation.Text("And list the dir."),
				conversation.ToolRequestContent("call_2", "developer__shell", nil),
				conversation.ToolRequestError("call_bad", "Could not interpret tool use parameters for id call_bad: EOF")),
			conversation.NewMessage(conversation.RoleUser, 3).With(
				conversation.ToolResponseContent("call_1", conversation.Ok(conversation.CallToolResult{Content: []conversation.ToolContent{
					conversation.TextBlock("package a"),
					{Type: "resource", Resource: &conversation.ResourceContents{URI: "file:///a.go", Text: &text}},
					{Type: "audio", Data: "AAA", MimeType: "audio/wav"},
					{Type: "resource_link", URI: "file:///b.go", Name: "b.go"}}})),
				conversation.ToolResponseContent("call_2", conversation.Ok(conversation.CallToolResult{Content: []conversation.ToolContent{
					conversation.TextBlock("shot:"), conversation.ImageBlock("R0lG", "image/gif")}})),
				conversation.ToolResponseContent("call_bad", conversation.Err[conversation.CallToolResult]("-32602: bad params"))),
			conversation.UserText(4, "thanks").WithText("now fix it"),
		},
		Tools: []provider.Tool{
			{Name: "developer__shell", Description: "Run a command", InputSchema: json.RawMessage(`{"type":"object","properties":{"command":{"type":"string"}},"required":["command"]}`)},
			{Name: "todo__read", Description: "", InputSchema: json.RawMessage(`{}`)},
		},
	}
}

func TestResponsesRequestGolden(t *testing.T) {
	cfg := model.Config{ModelName: "gpt-5-codex", Temperature: fptr(0.2), MaxTokens: new(int)}
	*cfg.MaxTokens = 16384
	body, err := json.Marshal(buildResponsesRequest(cfg, historyRequest(), true))
	if err != nil {
		t.Fatal(err)
	}
	providertest.AssertGolden(t, *update, "responses_request.json", body)
}

func TestResponsesRequestReasoningAndDefaults(t *testing.T) {
	for _, tc := range []struct {
		model, want string
	}{
		{"gpt-5-codex-high", `{"model":"gpt-5-codex","input":[{"role":"user","content":[{"type":"input_text","text":"hi"}]}],"store":false,` +
			`"reasoning":{"effort":"high","summary":"auto"},"max_output_tokens":4096,"stream":true}`},
		{"gpt-5.4-XHIGH", `{"model":"gpt-5.4","input":[{"role":"user","content":[{"type":"input_text","text":"hi"}]}],"store":false,` +
			`"reasoning":{"effort":"xhigh","summary":"auto"},"max_output_tokens":4096,"stream":true}`},
		{"gpt-5-codex", `{"model":"gpt-5-codex","input":[{"role":"user","content":[{"type":"input_text","text":"hi"}]}],"store":false,` +
			`"temperature":0.5,"max_output_tokens":4096,"stream":true}`},
	} {
		req := provider.Request{Messages: []conversation.Message{conversation.UserText(1, "hi")}}
		body, _ := json.Marshal(buildResponsesRequest(model.Config{ModelName: tc.model, Temperature: fptr(0.5)}, req, true))
		if string(body) != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.model, body, tc.want)
		}
	}
	body, _ := json.Marshal(buildResponsesRequest(model.Config{ModelName: "gpt-5-codex"}, provider.Request{}, false))
	if want := `{"model":"gpt-5-codex","input":[],"store":false,"max_output_tokens":4096,"stream":false}`; string(body) != want {
		t.Errorf("empty request:\n got %s\nwant %s", body, want)
	}
}

func TestResponsesReasoningEffort(t *testing.T) {
	for _, tc := range []struct{ in, base, effort string }{
		{"gpt-5-codex-high", "gpt-5-codex", "high"},
		{"gpt-5.2-pro-low", "gpt-5.2-pro", "low"},
		{"o3-mini-medium", "o3-mini", "medium"},
		{"openai/gpt-5-none", "openai/gpt-5", "none"},
		{"gpt-5-codex", "gpt-5-codex", ""},
		{"gpt-4o-high", "gpt-4o-high", ""},
		{"gpt-50-high", "gpt-50-high", ""},
		{"foo3-high", "foo3-high", ""},
	} {
		if b, e := ResponsesReasoningEffort(tc.in); b != tc.base || e != tc.effort {
			t.Errorf("%s: got (%s, %s) want (%s, %s)", tc.in, b, e, tc.base, tc.effort)
		}
	}
}

func TestUsesResponses(t *testing.T) {
	for _, tc := range []struct {
		model, path string
		want        bool
	}{
		{"gpt-5-codex", DefaultBasePath, true},
		{"gpt-5.1-codex-mini", DefaultBasePath, true},
		{"GPT-5.2-Codex", DefaultBasePath, true},
		{"gpt-5.2-pro-2025-12-11", DefaultBasePath, true},
		{"gpt-5.4", DefaultBasePath, true},
		{"gpt-5.4-2026-03-01", "v1/chat/completions/", true},
		{"gpt-4o", DefaultBasePath, false},
		{"gpt-5", DefaultBasePath, false},
		{"o3", DefaultBasePath, false},
		{"codex-mini", DefaultBasePath, false},
		{"gpt-4o", "v1/responses", true},
		{"gpt-4o", "/openai/v1/responses/", true},
		{"gpt-5.2-codex", "openai/v1/chat/completions", false},
		{"gpt-5.2-codex", "/v1/chat/completions", false},
		{"gpt-5-codex", "custom/path", true},
		{"gpt-4o", "custom/path", false},
	} {
		if got := UsesResponses(tc.model, tc.path); got != tc.want {
			t.Errorf("UsesResponses(%q, %q) = %v", tc.model, tc.path, got)
		}
	}
}

func TestMapBasePath(t *testing.T) {
	for _, tc := range []struct{ in, target, fallback, want string }{
		{"openai/v1/chat/completions", "responses", DefaultResponsesPath, "openai/v1/responses"},
		{"/v1/chat/completions", "responses", DefaultResponsesPath, "/v1/responses"},
		{"v1/responses/", "responses", DefaultResponsesPath, "v1/responses"},
		{"custom/path", "responses", DefaultResponsesPath, "v1/responses"},
		{"/custom/path", "responses", DefaultResponsesPath, "/v1/responses"},
	} {
		if got := mapBasePath(tc.in, tc.target, tc.fallback); got != tc.want {
			t.Errorf("mapBasePath(%q, %q) = %q want %q", tc.in, tc.target, got, tc.want)
		}
	}
	for _, tc := range []struct{ in, want string }{
		{"openai/v1/responses", "openai/v1/models"},
		{"api/v1/chat/completions", "api/v1/models"},
		{"v1/models", "v1/models"},
		{"custom/path", "v1/models"},
		{"/custom/path", "/v1/models"},
	} {
		if got := ModelsPath(tc.in); got != tc.want {
			t.Errorf("ModelsPath(%q) = %q want %q", tc.in, got, tc.want)
		}
	}
}
