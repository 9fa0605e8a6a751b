package google

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/goose-acp/goose-acp/core/provider"
	"github.com/goose-acp/goose-acp/core/provider/providertest"
)

// Keep-alive comments every 40 ms keep a 100 ms idle watchdog quiet while
// the model takes 300 ms to send its answer.
func TestIdleWatchdogSeesKeepAliveComments(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		for range 8 {
			fmt.Fprint(w, ": keep-alive\n\n")
			w.(http.Flusher).Flush()
			time.Sleep(40 * time.Millisecond)
		}
		fmt.Fprint(w, "data: "+finalChunk+"\n\n")
	}))
	defer srv.Close()
	p := provider.IdleTimeout(rawProvider(t, srv, "gemini-2.5-flash"), 100*time.Millisecond)
	chunks, err := providertest.Drain(p, providertest.UserRequest("x"))
	if err != nil {
		t.Fatalf("stream failed: %v", err)
	}
	if msgs := providertest.Merge(chunks); len(msgs) != 1 || msgs[0].AsText() != "ok" {
		t.Fatalf("got %+v", msgs)
	}
}
