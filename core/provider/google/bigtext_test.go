package google

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/goose-acp/goose-acp/core/model"
	"github.com/goose-acp/goose-acp/core/provider/jsonbody"
	"github.com/goose-acp/goose-acp/core/provider/providertest"
)

// TestHugeTextBodyIsJSONEncoder: a request with huge text parts (escapes,
// HTML characters, a line separator, invalid UTF-8) is sent as the bytes
// json.Encoder writes for it, with its Content-Length, and its texts are
// not copied into the body while it is built and read.
func TestHugeTextBodyIsJSONEncoder(t *testing.T) {
	req := providertest.HugeRequest()
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
	providertest.AssertSentBody(t, srv.Requests()[0], want.Bytes())
}
