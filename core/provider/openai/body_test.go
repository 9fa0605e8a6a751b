package openai

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/model"
	"github.com/goose-acp/goose-acp/core/provider"
)

// TestHugeBodySentWithItsLength: a request carrying a huge text goes out
// with its Content-Length (not chunked) and exactly json.Marshal's bytes,
// and is sent again whole when the server redirects it.
func TestHugeBodySentWithItsLength(t *testing.T) {
	big := strings.Repeat("0123456789abcdef é <x>\n", (4<<20)/24)
	req := provider.Request{System: "sys", Messages: []conversation.Message{user().WithText(big).WithText("<turn-context>now</turn-context>")}}
	w, err := buildRequest(model.Config{ModelName: "gpt-4o"}, req, requestOptions{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := marshalRequest(w, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := b.Bytes()
	type seen struct {
		length  int64
		chunked bool
		body    []byte
	}
	var mu sync.Mutex
	var got []seen
	srv := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		data, _ := io.ReadAll(r.Body)
		mu.Lock()
		got = append(got, seen{r.ContentLength, len(r.TransferEncoding) > 0, data})
		mu.Unlock()
		if !strings.HasPrefix(r.URL.Path, "/again/") {
			http.Redirect(rw, r, "/again"+r.URL.Path, http.StatusTemporaryRedirect)
			return
		}
		rw.Write([]byte("{}"))
	}))
	defer srv.Close()
	p, err := New(Options{Host: srv.URL, APIKey: testKey, Model: model.Config{ModelName: "gpt-4o"}, HTTPClient: srv.Client()})
	if err != nil {
		t.Fatal(err)
	}
	resp, err := p.post(context.Background(), b, "application/json")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if len(got) != 2 {
		t.Fatalf("%d requests, want the first and the redirected one", len(got))
	}
	for i, s := range got {
		if s.length != int64(len(want)) || s.chunked || !bytes.Equal(s.body, want) {
			t.Errorf("request %d: Content-Length %d chunked %v, %d bytes; want %d bytes as json.Marshal writes them", i, s.length, s.chunked, len(s.body), len(want))
		}
	}
}
