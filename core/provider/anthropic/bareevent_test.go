package anthropic

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/goose-acp/goose-acp/core/provider/providertest"
)

// A proxy's keep-alive event without data is skipped, not a failed turn.
func TestBareEventWithoutDataIsSkipped(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		for _, e := range []string{
			"event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"m1\",\"model\":\"claude-sonnet-4-5\",\"usage\":{\"input_tokens\":3,\"output_tokens\":0}}}\n\n",
			"event: ping\n\n",
			"event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n",
			"event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"hi\"}}\n\n",
			"event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\n",
			"event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\"},\"usage\":{\"output_tokens\":1}}\n\n",
			"event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n",
		} {
			fmt.Fprint(w, e)
		}
	}))
	defer srv.Close()
	p, err := New(Options{BaseURL: srv.URL, APIKey: testKey, Model: sonnet, HTTPClient: srv.Client()})
	if err != nil {
		t.Fatal(err)
	}
	chunks, err := providertest.Drain(p, providertest.UserRequest("hi"))
	if err != nil {
		t.Fatalf("stream failed: %v", err)
	}
	if msgs := providertest.Merge(chunks); len(msgs) != 1 || msgs[0].AsText() != "hi" {
		t.Fatalf("got %+v", msgs)
	}
}
