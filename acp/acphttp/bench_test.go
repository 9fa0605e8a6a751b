package acphttp

import (
	"bufio"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

// BenchmarkWebSocketRoundTrip is one request → response over an open /acp
// WebSocket through the line-stream adapter (echoServe answers at once):
// the transport's own cost per message.
func BenchmarkWebSocketRoundTrip(b *testing.B) {
	h := New(Options{Serve: echoServe, PingInterval: time.Hour})
	srv := httptest.NewServer(h)
	defer func() { srv.Close(); h.Close() }()
	ws, _, err := websocket.DefaultDialer.Dial("ws"+strings.TrimPrefix(srv.URL, "http"), nil)
	if err != nil {
		b.Fatal(err)
	}
	defer ws.Close()
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if err := ws.WriteMessage(websocket.TextMessage, fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%d,"method":"x","params":{}}`, i)); err != nil {
			b.Fatal(err)
		}
		if _, _, err := ws.ReadMessage(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkStreamableHTTPRoundTrip is one POST (202) whose response arrives
// on the connection's open SSE stream.
func BenchmarkStreamableHTTPRoundTrip(b *testing.B) {
	h := New(Options{Serve: echoServe, PingInterval: time.Hour})
	srv := httptest.NewServer(h)
	defer func() { srv.Close(); h.Close() }()
	req, _ := http.NewRequest("POST", srv.URL, strings.NewReader(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}}`))
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	resp.Body.Close()
	conn := resp.Header.Get(HeaderConnectionID)
	get, _ := http.NewRequest("GET", srv.URL, nil)
	get.Header.Set("Accept", "text/event-stream")
	get.Header.Set(HeaderConnectionID, conn)
	stream, err := http.DefaultClient.Do(get)
	if err != nil {
		b.Fatal(err)
	}
	defer stream.Body.Close()
	sc := bufio.NewScanner(stream.Body)
	b.ReportAllocs()
	for i := 1; b.Loop(); i++ {
		p, _ := http.NewRequest("POST", srv.URL, strings.NewReader(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"x","params":{}}`, i)))
		p.Header.Set("Content-Type", "application/json")
		p.Header.Set(HeaderConnectionID, conn)
		r, err := http.DefaultClient.Do(p)
		if err != nil || r.StatusCode != 202 {
			b.Fatal(r, err)
		}
		r.Body.Close()
		for sc.Scan() && !strings.HasPrefix(sc.Text(), "data: ") {
		}
	}
}
