package openai

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/model"
	"github.com/goose-acp/goose-acp/core/provider"
)

func body(t *testing.T, cfg model.Config, req provider.Request) string {
	t.Helper()
	w, err := buildRequest(cfg, req, requestOptions{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := marshalRequest(w, cfg.RequestParams)
	if err != nil {
		t.Fatal(err)
	}
	return string(b.Bytes())
}

func asst() conversation.Message { return conversation.NewMessage(conversation.RoleAssistant, 0) }
func user() conversation.Message { return conversation.NewMessage(conversation.RoleUser, 0) }

func TestFormatMessages(t *testing.T) {
	temp := 0.5
	cfg := model.Config{ModelName: "gpt-4o", Temperature: &temp}
	img := conversation.ImageBlock("QUJD", "image/png")
	for _, tc := range []struct {
		name string
		msgs []conversation.Message
		want string // the messages after the system message
	}{
		{"texts joined", []conversation.Message{user().WithText("a").WithText("").WithText("b")},
			`{"role":"user","content":"a\nb"}`},
		{"tool call and result", []conversation.Message{
			asst().With(conversation.ToolRequestContent("c1", "developer__shell", map[string]any{"command": "ls"})),
			user().With(conversation.ToolResponseContent("c1", conversation.TextResult("a.go"))),
		}, `{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"developer__shell","arguments":"{\"command\":\"ls\"}"}}]},` +
			`{"role":"tool","content":"a.go","tool_call_id":"c1"}`},
		{"tool error result", []conversation.Message{
			user().With(conversation.ToolResponseContent("c1", conversation.Err[conversation.CallToolResult]("boom"))),
		}, `{"role":"tool","content":"The tool call returned the following error:\nboom","tool_call_id":"c1"}`},
		{"errored tool request", []conversation.Message{asst().With(conversation.ToolRequestError("c2", "bad json"))},
			`{"role":"tool","content":"Error: bad json","tool_call_id":"c2"}`},
		{"image tool result", []conversation.Message{
			user().With(conversation.ToolResponseContent("c1", conversation.Ok(conversation.CallToolResult{
				Content: []conversation.ToolContent{conversation.TextBlock("shot:"), img}}))),
		}, `{"role":"tool","content":"shot: This tool result included an image that is uploaded in the next message.","tool_call_id":"c1"},` +
			`{"role":"user","content":[{"type":"image_url","image_url":{"url":"data:image/png;base64,QUJD"}}]}`},
		{"user image", []conversation.Message{user().WithText("look").With(conversation.Image("QUJD", "image/jpeg"))},
			`{"role":"user","content":[{"type":"text","text":"look"},{"type":"image_url","image_url":{"url":"data:image/jpeg;base64,QUJD"}}]}`},
		{"assistant image", []conversation.Message{asst().With(conversation.Image("QUJD", "image/png"))},
			`{"role":"assistant","content":[{"type":"text","text":"[Image content removed - not supported in assistant messages]"}]}`},
		{"reasoning echoed", []conversation.Message{asst().With(conversation.Thinking("hmm", "")).WithText("ok")},
			`{"role":"assistant","content":"ok","reasoning_content":"hmm"}`},
		{"ui-only content dropped", []conversation.Message{asst().With(
			conversation.SystemNotification(conversation.NotificationInline, "note"), conversation.RedactedThinking("x"))}, ``},
		{"split pairs merged", []conversation.Message{
			asst().With(conversation.ToolRequestContent("a", "t", nil)),
			user().With(conversation.ToolResponseContent("a", conversation.TextResult("ra"))),
			asst().With(conversation.ToolRequestContent("b", "t", nil)),
			user().With(conversation.ToolResponseContent("b", conversation.TextResult("rb"))),
		}, `{"role":"assistant","content":null,"tool_calls":[{"id":"a","type":"function","function":{"name":"t","arguments":"{}"}},` +
			`{"id":"b","type":"function","function":{"name":"t","arguments":"{}"}}]},` +
			`{"role":"tool","content":"ra","tool_call_id":"a"},{"role":"tool","content":"rb","tool_call_id":"b"}`},
		{"names sanitized", []conversation.Message{asst().With(conversation.ToolRequestContent("a", "ext.tool name", map[string]any{}))},
			`{"role":"assistant","content":null,"tool_calls":[{"id":"a","type":"function","function":{"name":"ext_tool_name","arguments":"{}"}}]}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := body(t, cfg, provider.Request{System: "sys", Messages: tc.msgs})
			sep := ""
			if tc.want != "" {
				sep = ","
			}
			want := `{"model":"gpt-4o","messages":[{"role":"system","content":"sys"}` + sep + tc.want + `],"temperature":0.5,"max_tokens":4096}`
			if got != want {
				t.Fatalf("\n got %s\nwant %s", got, want)
			}
		})
	}
}

func TestReasoningModelRequest(t *testing.T) {
	temp, max := 0.2, 1000
	got := body(t, model.Config{ModelName: "o3-high", Temperature: &temp, MaxTokens: &max}, provider.Request{System: "sys"})
	want := `{"model":"o3","messages":[{"role":"developer","content":"sys"}],"reasoning_effort":"high","max_completion_tokens":1000}`
	if got != want {
		t.Fatalf("\n got %s\nwant %s", got, want)
	}
	w, _ := buildRequest(model.Config{ModelName: "gpt-5"}, provider.Request{}, requestOptions{maxTokensOnly: true})
	if w.MaxTokens == nil || w.MaxCompletionTokens != nil || w.ReasoningEffort != "medium" {
		t.Fatalf("remap to max_tokens: %+v", w)
	}
	if _, err := buildRequest(model.Config{ModelName: "o1-mini"}, provider.Request{}, requestOptions{}); err != ErrO1Mini {
		t.Fatalf("o1-mini: %v", err)
	}
}

func TestReasoningEffort(t *testing.T) {
	for in, want := range map[string][2]string{
		"gpt-4o": {"gpt-4o", ""}, "o3": {"o3", "medium"}, "o4-mini-low": {"o4-mini", "low"},
		"gpt-5-high": {"gpt-5", "high"}, "o1": {"o1", "medium"},
	} {
		if b, e := ReasoningEffort(in); b != want[0] || e != want[1] {
			t.Errorf("%s: got %s %s", in, b, e)
		}
	}
}

func TestToolsAndRequestParams(t *testing.T) {
	tools := []provider.Tool{
		{Name: "a", Description: "A", InputSchema: json.RawMessage(`{"type":"object"}`)},
		{Name: "b", Description: "B", InputSchema: json.RawMessage(`{"properties":{"o":{"type":"object"}}}`)},
	}
	cfg := model.Config{ModelName: "gpt-4o", RequestParams: map[string]any{"top_p": 0.9}}
	got := body(t, cfg, provider.Request{System: "s", Tools: tools})
	want := `{"max_tokens":4096,"messages":[{"role":"system","content":"s"}],"model":"gpt-4o",` +
		`"tools":[{"type":"function","function":{"name":"a","description":"A","parameters":{"properties":{},"required":[],"type":"object"}}},` +
		`{"type":"function","function":{"name":"b","description":"B","parameters":{"properties":{"o":{"properties":{},"required":[],"type":"object"}},"required":[],"type":"object"}}}],"top_p":0.9}`
	if got != want {
		t.Fatalf("\n got %s\nwant %s", got, want)
	}
	_, err := buildRequest(cfg, provider.Request{Tools: []provider.Tool{tools[0], tools[0]}}, requestOptions{})
	if err == nil || err.Error() != "Duplicate tool name: a" {
		t.Fatalf("duplicate: %v", err)
	}
}

func TestImagePathInUserText(t *testing.T) {
	dir := t.TempDir()
	png := filepath.Join(dir, "shot.png")
	if err := os.WriteFile(png, []byte{0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A}, 0o644); err != nil {
		t.Fatal(err)
	}
	fake := filepath.Join(dir, "fake.png")
	_ = os.WriteFile(fake, []byte("not a png"), 0o644)
	got := body(t, model.Config{ModelName: "gpt-4o"}, provider.Request{Messages: []conversation.Message{
		conversation.UserText(0, "see "+png), conversation.UserText(0, "and "+fake),
		conversation.AssistantText(0, "saved "+png)}})
	if !strings.Contains(got, `{"role":"user","content":[{"type":"text","text":"see `+png+`"},{"type":"image_url","image_url":{"url":"data:image/png;base64,iVBORw0KGgo="}}]}`) {
		t.Fatalf("image not attached: %s", got)
	}
	if !strings.Contains(got, `{"role":"user","content":"and `+fake+`"}`) || !strings.Contains(got, `{"role":"assistant","content":"saved `+png+`"}`) {
		t.Fatalf("fake image or assistant path must stay text: %s", got)
	}
}
