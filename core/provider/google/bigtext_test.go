package google

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/model"
	"github.com/goose-acp/goose-acp/core/provider"
	"github.com/goose-acp/goose-acp/core/provider/jsonbody"
	"github.com/goose-acp/goose-acp/core/provider/providertest"
)

// TestHugeTextBodyIsJSONEncoder: a request with huge text parts (escapes,
// HTML characters, a line separator, invalid UTF-8) is sent as the bytes
// json.Encoder writes for it, with its Content-Length, and its texts are
// not copied into the body while it is built and read.
func TestHugeTextBodyIsJSONEncoder(t *testing.T) {
	big := strings.Repeat("log line <ok> & \"quoted\" \u2028 é \xff\n", (2<<20)/36)
	req := provider.Request{System: "sys", Messages: []conversation.Message{
		conversation.NewMessage(conversation.RoleUser, 1).WithText(big).WithText("<turn-context>now</turn-context>"),
		conversation.NewMessage(conversation.RoleAssistant, 2).WithText("ok"),
		conversation.NewMessage(conversation.RoleUser, 3).WithText(big + "again")}}
	cfg := model.Config{ModelName: "gemini-2.5-pro"}
	w, err := buildRequest(cfg, req)
	if err != nil {
		t.Fatal(err)
	}
	var want bytes.Buffer
	if err := json.NewEncoder(&want).Encode(w); err != nil {
		t.Fatal(err)
	}
	providertest.AssertStreamedBody(t, want.Bytes(), func() (*jsonbody.Body, error) { return encodeRequest(w) })

	srv := start(t, providertest.Turn{Text: []string{"ok"}})
	if _, err := providertest.Drain(newProvider(t, srv, cfg), req); err != nil {
		t.Fatal(err)
	}
	r := srv.Requests()[0]
	if !bytes.Equal(r.Body, want.Bytes()) || r.Header.Get("Content-Length") != strconv.Itoa(want.Len()) {
		t.Errorf("the server got %d bytes (Content-Length %q), want json.Encoder's %d", len(r.Body), r.Header.Get("Content-Length"), want.Len())
	}
}
