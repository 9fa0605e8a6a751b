package anthropic

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/model"
	"github.com/goose-acp/goose-acp/core/provider"
	"github.com/goose-acp/goose-acp/core/provider/jsonbody"
	"github.com/goose-acp/goose-acp/core/provider/providertest"
)

// hugeRequest: a huge prompt (with escapes, HTML characters, a line
// separator and invalid UTF-8) merged with the turn context, and a huge
// tool output, beside small messages.
func hugeRequest() provider.Request {
	big := providertest.HugeText()
	user := func() conversation.Message { return conversation.NewMessage(conversation.RoleUser, 1) }
	asst := conversation.NewMessage(conversation.RoleAssistant, 2).
		With(conversation.ToolRequestContent("call_1", "shell", map[string]any{"command": "cat x"}))
	out := conversation.ToolResponseContent("call_1", conversation.Ok(conversation.CallToolResult{
		Content: []conversation.ToolContent{conversation.TextBlock(big + "tail")}}))
	return provider.Request{System: "sys", Messages: []conversation.Message{
		user().WithText(big).WithText("<turn-context>now</turn-context>"), asst, user().With(out), user().WithText("small")}}
}

// TestHugeTextBodyIsJSONMarshal: a request with huge texts is sent as the
// bytes json.Marshal writes for it, with its Content-Length, and its
// texts are not copied into the body while it is built and read.
func TestHugeTextBodyIsJSONMarshal(t *testing.T) {
	p := &Provider{opts: Options{Param: noParams}}
	w := p.requestBody(model.Config{ModelName: "claude-sonnet-4-5"}, hugeRequest())
	want, err := json.Marshal(w)
	if err != nil {
		t.Fatal(err)
	}
	providertest.AssertStreamedBody(t, want, func() (*jsonbody.Body, error) { return marshalRequest(w) })
	if again, _ := json.Marshal(w); !bytes.Equal(again, want) {
		t.Error("marshalRequest changed the request's blocks")
	}

	srv := start(t, providertest.Turn{Text: []string{"ok"}})
	if _, err := providertest.Drain(newProvider(t, srv, model.Config{ModelName: "claude-sonnet-4-5"}, nil), hugeRequest()); err != nil {
		t.Fatal(err)
	}
	providertest.AssertSentBody(t, srv.Requests()[0], want)
}
