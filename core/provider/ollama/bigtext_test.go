package ollama

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/goose-acp/goose-acp/core/model"
	"github.com/goose-acp/goose-acp/core/provider/jsonbody"
	"github.com/goose-acp/goose-acp/core/provider/providertest"
)

// TestHugeTextBodyIsJSONMarshal: a request with huge message contents
// (escapes, HTML characters, a line separator, invalid UTF-8) is sent as
// the bytes json.Marshal writes for it, with its Content-Length, and its
// texts are not copied into the body while it is built and read.
func TestHugeTextBodyIsJSONMarshal(t *testing.T) {
	req := providertest.HugeRequest()
	cfg := model.Config{ModelName: "qwen3"}
	srv := start(t, providertest.Turn{Text: []string{"ok"}})
	p := newProvider(t, srv, cfg, nil)
	r := p.chatRequest(cfg, req)
	want, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	providertest.AssertStreamedBody(t, want, func() (*jsonbody.Body, error) { return marshalRequest(r) })
	if again, _ := json.Marshal(r); !bytes.Equal(again, want) {
		t.Error("marshalRequest changed the request's messages")
	}
	if _, err := providertest.Drain(p, req); err != nil {
		t.Fatal(err)
	}
	providertest.AssertSentBody(t, srv.Requests()[0], want)
}
