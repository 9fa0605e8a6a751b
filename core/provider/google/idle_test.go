package google

import (
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/goose-acp/goose-acp/core/model"
	"github.com/goose-acp/goose-acp/core/provider"
	"github.com/goose-acp/goose-acp/core/provider/providertest"
)

// Keep-alive comments every 40 ms keep a 100 ms idle watchdog quiet while
// the model takes 360 ms to send its answer. The stream is paced in
// synctest's virtual time, so machine load cannot change the answer.
func TestIdleWatchdogSeesKeepAliveComments(t *testing.T) {
	body := []byte(strings.Repeat(": keep-alive\n\n", 8) + "data: " + finalChunk + "\n\n")
	synctest.Test(t, func(t *testing.T) {
		p, err := New(Options{BaseURL: "http://recorded", APIKey: testKey, Model: model.Config{ModelName: "gemini-2.5-flash"},
			HTTPClient: providertest.PacedClient("text/event-stream", body, 40*time.Millisecond)})
		if err != nil {
			t.Fatal(err)
		}
		chunks, err := providertest.Drain(provider.IdleTimeout(p, 100*time.Millisecond), providertest.UserRequest("x"))
		if err != nil {
			t.Fatalf("stream failed: %v", err)
		}
		if msgs := providertest.Merge(chunks); len(msgs) != 1 || msgs[0].AsText() != "ok" {
			t.Fatalf("got %+v", msgs)
		}
	})
}
