package acp

import (
	"bufio"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"github.com/sourcegraph/jsonrpc2"

	"github.com/goose-acp/goose-acp/acp/acphttp"
)

// benchServe is the ACP server the /acp benchmarks reach.
func benchServe(ctx context.Context, st jsonrpc2.ObjectStream) error {
	return ServeStream(ctx, st, Options{Version: "bench"})
}

// BenchmarkACPWebSocketRoundTrip is one initialize request → response
// through the real ACP server over an open /acp WebSocket: transport,
// connection and handler per message.
//
//	go test ./acp -run XXX -bench 'ACP.*RoundTrip' -count 8
func BenchmarkACPWebSocketRoundTrip(b *testing.B) {
	h := acphttp.New(acphttp.Options{Serve: benchServe, PingInterval: time.Hour})
	srv := httptest.NewServer(h)
	defer func() { srv.Close(); h.Close() }()
	ws, _, err := websocket.DefaultDialer.Dial("ws"+strings.TrimPrefix(srv.URL, "http"), nil)
	if err != nil {
		b.Fatal(err)
	}
	defer ws.Close()
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		msg := fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%d,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{}}}`, i)
		if err := ws.WriteMessage(websocket.TextMessage, msg); err != nil {
			b.Fatal(err)
		}
		if _, _, err := ws.ReadMessage(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkACPStreamableHTTPRoundTrip is one POST (202) whose response
// arrives on the connection's open SSE stream, through the real server.
func BenchmarkACPStreamableHTTPRoundTrip(b *testing.B) {
	h := acphttp.New(acphttp.Options{Serve: benchServe, PingInterval: time.Hour})
	srv := httptest.NewServer(h)
	defer func() { srv.Close(); h.Close() }()
	init := `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{}}}`
	req, _ := http.NewRequest("POST", srv.URL, strings.NewReader(init))
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	resp.Body.Close()
	conn := resp.Header.Get(acphttp.HeaderConnectionID)
	get, _ := http.NewRequest("GET", srv.URL, nil)
	get.Header.Set("Accept", "text/event-stream")
	get.Header.Set(acphttp.HeaderConnectionID, conn)
	stream, err := http.DefaultClient.Do(get)
	if err != nil {
		b.Fatal(err)
	}
	defer stream.Body.Close()
	sc := bufio.NewScanner(stream.Body)
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	b.ReportAllocs()
	for i := 1; b.Loop(); i++ {
		body := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{}}}`, i)
		p, _ := http.NewRequest("POST", srv.URL, strings.NewReader(body))
		p.Header.Set("Content-Type", "application/json")
		p.Header.Set(acphttp.HeaderConnectionID, conn)
		r, err := http.DefaultClient.Do(p)
		if err != nil || r.StatusCode != 202 {
			b.Fatal(r, err)
		}
		r.Body.Close()
		for sc.Scan() && !strings.HasPrefix(sc.Text(), "data: ") {
		}
	}
}
