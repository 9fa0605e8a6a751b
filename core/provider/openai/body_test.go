package openai

import (
	"bytes"
	"context"
	"encoding/json"
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

// TestBodyQuotedAcrossPieces: a text quoted a piece at a time as the body
// is read is json.Marshal of the texts' join wherever a piece ends —
// inside a multi-byte rune, a U+2028, an invalid sequence — in reads of
// any size.
func TestBodyQuotedAcrossPieces(t *testing.T) {
	tricky := "\xe2\x80\xa8é\xe2\x80\xff😀<&>\"\\\n\x01"
	for k := quotePiece - 4; k <= quotePiece+2; k++ {
		s := strings.Repeat("x", k) + tricky + strings.Repeat("y", quotePiece)
		texts := []string{s, tricky + s[:k+3], ""}
		q, _ := json.Marshal(strings.Join(texts, "\n"))
		want := append(append([]byte(`{"content":`), q...), '}')
		b := &reqBody{parts: [][]byte{[]byte(`{"content":`), []byte(`}`)}, texts: []bigText{{texts: texts}},
			size: int64(len(`{"content":}`) + joinedQuotedLen(texts))}
		if b.Len() != int64(len(want)) {
			t.Errorf("k=%d: length %d, want %d", k, b.Len(), len(want))
		}
		for _, size := range []int{1 << 20, 5, 4096} {
			got, err := readIn(b.Reader(), size)
			if err != nil || !bytes.Equal(got, want) {
				t.Fatalf("k=%d reads of %d: body differs from json.Marshal's (%d vs %d bytes) %v", k, size, len(got), len(want), err)
			}
		}
	}
}

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
	want := b.bytes()
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
