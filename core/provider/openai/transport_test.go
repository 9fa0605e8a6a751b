package openai

import (
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/goose-acp/goose-acp/core/model"
	"github.com/goose-acp/goose-acp/core/provider"
)

// The timeout bounds the whole exchange: a server that sends headers and
// one chunk, then stalls, fails the stream instead of hanging it.
func TestTimeoutCutsAStalledStream(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, `data: {"id":"c1","model":"gpt-4o","choices":[{"index":0,"delta":{"content":"par"}}]}`+"\n\n")
		w.(http.Flusher).Flush()
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer srv.Close()
	defer close(release)
	p, err := New(Options{Host: srv.URL, APIKey: testKey, Model: model.Config{ModelName: "gpt-4o"},
		Timeout: 200 * time.Millisecond, HTTPClient: srv.Client(), Now: fixedNow})
	if err != nil {
		t.Fatal(err)
	}
	_, chunks, err := run(p, userHi)
	var pe *provider.Error
	if !errors.As(err, &pe) {
		t.Fatalf("want a provider error after the timeout, got %v (%d chunks)", err, len(chunks))
	}
	if len(chunks) == 0 {
		t.Fatal("the chunk sent before the stall was lost")
	}
}

func TestURLKeepsHostPrefixAndAddsQuery(t *testing.T) {
	o := Options{Host: "https://example.test/proxy/", Query: map[string]string{"api-version": "2024-10-21", "b": "x y"}}
	tr, err := newTransport(&o)
	if err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]string{
		"v1/chat/completions":   "https://example.test/proxy/v1/chat/completions?api-version=2024-10-21&b=x+y",
		"/openai/deployments/d": "https://example.test/proxy/openai/deployments/d?api-version=2024-10-21&b=x+y",
	} {
		got, err := tr.url(path)
		if err != nil || got != want {
			t.Errorf("url(%q) = %q, %v; want %q", path, got, err, want)
		}
	}
}
