package acphttp

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"github.com/sourcegraph/jsonrpc2"
)

// echoServe is a stand-in ACP server: every request is answered with
// {"method":…, "sessionId":…}; a "tell" request first sends a session/update
// notification for its session; a message that is not JSON is answered
// with -32700.
func echoServe(ctx context.Context, st jsonrpc2.ObjectStream) error {
	var mu sync.Mutex
	write := func(v any) {
		b, _ := json.Marshal(v)
		mu.Lock()
		defer mu.Unlock()
		_ = st.WriteObject(json.RawMessage(b))
	}
	stop := context.AfterFunc(ctx, func() { _ = st.Close() })
	defer stop()
	for {
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				SessionID string `json:"sessionId"`
			} `json:"params"`
		}
		if err := st.ReadObject(&m); err != nil {
			var se *json.SyntaxError
			if errors.As(err, &se) {
				write(map[string]any{"jsonrpc": "2.0", "id": nil, "error": map[string]any{"code": -32700, "message": "Parse error"}})
				continue
			}
			return err
		}
		if m.Method == "tell" {
			write(map[string]any{"jsonrpc": "2.0", "method": "session/update", "params": map[string]any{"sessionId": m.Params.SessionID}})
		}
		if len(m.ID) > 0 {
			write(map[string]any{"jsonrpc": "2.0", "id": m.ID, "result": map[string]any{"method": m.Method, "sessionId": m.Params.SessionID}})
		}
	}
}

func newTestHandler(t *testing.T) (*Handler, *httptest.Server) {
	t.Helper()
	h := New(Options{Serve: echoServe, PingInterval: time.Hour})
	srv := httptest.NewServer(h)
	t.Cleanup(func() { srv.Close(); h.Close() })
	return h, srv
}

func post(t *testing.T, url, conn, session, body string) *http.Response {
	t.Helper()
	return send(t, "POST", url, "application/json", "", conn, session, body)
}

// send is one request; empty header values are left out.
func send(t *testing.T, method, url, ctype, accept, conn, session, body string) *http.Response {
	t.Helper()
	req, _ := http.NewRequest(method, url, strings.NewReader(body))
	for k, v := range map[string]string{"Content-Type": ctype, "Accept": accept, HeaderConnectionID: conn, HeaderSessionID: session} {
		if v != "" {
			req.Header.Set(k, v)
		}
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

// sse opens a GET stream and returns its data lines.
func sse(t *testing.T, url, conn, session string) <-chan string {
	t.Helper()
	req, _ := http.NewRequest("GET", url, nil)
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set(HeaderConnectionID, conn)
	if session != "" {
		req.Header.Set(HeaderSessionID, session)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("GET stream: %d %v", resp.StatusCode, resp.Header)
	}
	t.Cleanup(func() { resp.Body.Close() })
	out := make(chan string, 64)
	go func() {
		defer close(out)
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
			if data, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
				out <- data
			}
		}
	}()
	return out
}

func next(t *testing.T, ch <-chan string) string {
	t.Helper()
	select {
	case s, ok := <-ch:
		if !ok {
			t.Fatal("stream ended")
		}
		return s
	case <-time.After(5 * time.Second):
		t.Fatal("no event within 5s")
	}
	return ""
}

func TestStreamableHTTPRoundTrip(t *testing.T) {
	h, srv := newTestHandler(t)
	url := srv.URL
	resp := post(t, url, "", "", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1}}`)
	body, _ := io.ReadAll(resp.Body)
	conn := resp.Header.Get(HeaderConnectionID)
	if resp.StatusCode != 200 || conn == "" || resp.Header.Get("Content-Type") != "application/json" ||
		string(body) != `{"id":1,"jsonrpc":"2.0","result":{"method":"initialize","sessionId":""}}` {
		t.Fatalf("initialize: %d %q %s", resp.StatusCode, conn, body)
	}
	// Output written before a stream opens waits for it.
	if r := post(t, url, conn, "", `{"jsonrpc":"2.0","id":2,"method":"session/new","params":{}}`); r.StatusCode != 202 {
		t.Fatalf("session/new: %d", r.StatusCode)
	}
	all := sse(t, url, conn, "")
	if got := next(t, all); got != `{"id":2,"jsonrpc":"2.0","result":{"method":"session/new","sessionId":""}}` {
		t.Fatalf("queued response: %s", got)
	}
	// A session stream takes its session's messages (responses routed by
	// the request's Acp-Session-Id); the connection stream the rest.
	s1 := sse(t, url, conn, "s1")
	if r := post(t, url, conn, "s1", `{"jsonrpc":"2.0","id":3,"method":"tell","params":{"sessionId":"s1"}}`); r.StatusCode != 202 {
		t.Fatalf("tell: %d", r.StatusCode)
	}
	if got := next(t, s1); got != `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1"}}` {
		t.Fatalf("session stream notification: %s", got)
	}
	if got := next(t, s1); !strings.Contains(got, `"id":3`) {
		t.Fatalf("session stream response: %s", got)
	}
	if r := post(t, url, conn, "", `{"jsonrpc":"2.0","id":4,"method":"tell","params":{"sessionId":"s2"}}`); r.StatusCode != 202 {
		t.Fatalf("tell s2: %d", r.StatusCode)
	}
	if got := next(t, all); !strings.Contains(got, `"sessionId":"s2"`) || !strings.Contains(got, "session/update") {
		t.Fatalf("connection stream: %s", got)
	}
	if got := next(t, all); !strings.Contains(got, `"id":4`) {
		t.Fatalf("connection stream response: %s", got)
	}
	// Notifications are 202 too.
	if r := post(t, url, conn, "s1", `{"jsonrpc":"2.0","method":"session/cancel","params":{"sessionId":"s1"}}`); r.StatusCode != 202 {
		t.Fatalf("notification: %d", r.StatusCode)
	}
	// DELETE ends the connection and its streams.
	req, _ := http.NewRequest("DELETE", url, nil)
	req.Header.Set(HeaderConnectionID, conn)
	dr, err := http.DefaultClient.Do(req)
	if err != nil || dr.StatusCode != 202 {
		t.Fatalf("DELETE: %v %v", dr, err)
	}
	dr.Body.Close()
	select {
	case _, ok := <-all:
		for ok {
			_, ok = <-all
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the GET stream stayed open after DELETE")
	}
	if r := post(t, url, conn, "", `{"jsonrpc":"2.0","id":5,"method":"x"}`); r.StatusCode != 404 {
		t.Fatalf("POST after DELETE: %d", r.StatusCode)
	}
	if h.Connections() != 0 {
		t.Fatalf("connections left: %d", h.Connections())
	}
}

func TestStreamableHTTPRejects(t *testing.T) {
	_, srv := newTestHandler(t)
	url := srv.URL
	resp := post(t, url, "", "", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`)
	conn := resp.Header.Get(HeaderConnectionID)
	do := func(method, ctype, accept, conn, session, body string) int {
		return send(t, method, url, ctype, accept, conn, session, body).StatusCode
	}
	msg := `{"jsonrpc":"2.0","id":2,"method":"session/list","params":{}}`
	for _, c := range []struct {
		name                                       string
		method, ctype, accept, conn, session, body string
		want                                       int
	}{
		{"text/plain POST", "POST", "text/plain", "", conn, "", msg, 415},
		{"batch", "POST", "application/json", "", conn, "", "[" + msg + "]", 501},
		{"no connection id", "POST", "application/json", "", "", "", msg, 400},
		{"unknown connection", "POST", "application/json", "", "nope", "", msg, 404},
		{"prompt without session header", "POST", "application/json; charset=utf-8", "", conn, "", `{"jsonrpc":"2.0","id":3,"method":"session/prompt","params":{"sessionId":"s"}}`, 400},
		{"prompt with session header", "POST", "application/json", "", conn, "s", `{"jsonrpc":"2.0","id":3,"method":"session/prompt","params":{"sessionId":"s"}}`, 202},
		{"GET without event-stream", "GET", "", "application/json", conn, "", "", 406},
		{"GET without connection", "GET", "", "text/event-stream", "", "", "", 400},
		{"GET unknown connection", "GET", "", "text/event-stream", "nope", "", "", 404},
		{"DELETE without connection", "DELETE", "", "", "", "", "", 400},
		{"DELETE unknown", "DELETE", "", "", "nope", "", "", 404},
		{"PUT", "PUT", "", "", conn, "", "", 405},
	} {
		if got := do(c.method, c.ctype, c.accept, c.conn, c.session, c.body); got != c.want {
			t.Errorf("%s: %d, want %d", c.name, got, c.want)
		}
	}
}

func TestWebSocketConnections(t *testing.T) {
	h, srv := newTestHandler(t)
	wsURL := "ws" + strings.TrimPrefix(srv.URL, "http")
	// Many connections at once, each with its own answers.
	const n = 8
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ws, resp, err := websocket.DefaultDialer.Dial(wsURL, nil)
			if err != nil {
				errs <- err
				return
			}
			defer ws.Close()
			if resp.Header.Get(HeaderConnectionID) == "" {
				errs <- fmt.Errorf("no %s on the upgrade", HeaderConnectionID)
			}
			_ = ws.WriteMessage(websocket.BinaryMessage, []byte(`{"ignored":true}`))
			// Pretty-printed JSON is one message, not one per line.
			msg := fmt.Sprintf("{\n  \"jsonrpc\": \"2.0\",\n  \"id\": %d,\n  \"method\": \"tell\",\n  \"params\": {\"sessionId\": \"c%d\"}\n}", i, i)
			if err := ws.WriteMessage(websocket.TextMessage, []byte(msg)); err != nil {
				errs <- err
				return
			}
			_ = ws.SetReadDeadline(time.Now().Add(5 * time.Second))
			_, a, err1 := ws.ReadMessage()
			_, b, err2 := ws.ReadMessage()
			if err1 != nil || err2 != nil {
				errs <- fmt.Errorf("read: %v %v", err1, err2)
				return
			}
			wantA := fmt.Sprintf(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"c%d"}}`, i)
			wantB := fmt.Sprintf(`{"id":%d,"jsonrpc":"2.0","result":{"method":"tell","sessionId":"c%d"}}`, i, i)
			if string(a) != wantA || string(b) != wantB {
				errs <- fmt.Errorf("connection %d got %s / %s", i, a, b)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	// Close ends an open socket's connection.
	ws, _, err := websocket.DefaultDialer.Dial(wsURL, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	go h.Close()
	_ = ws.SetReadDeadline(time.Now().Add(5 * time.Second))
	if _, _, err := ws.ReadMessage(); err == nil || !websocket.IsCloseError(err, websocket.CloseNormalClosure) {
		t.Fatalf("after Close: %v", err)
	}
}

// TestIdleConnectionIsClosed: a streamable-HTTP client that vanished
// without DELETE (no stream, no POST) does not keep its server forever;
// one with an open stream stays.
func TestIdleConnectionIsClosed(t *testing.T) {
	h := New(Options{Serve: echoServe, PingInterval: time.Hour, IdleTimeout: 100 * time.Millisecond})
	srv := httptest.NewServer(h)
	t.Cleanup(func() { srv.Close(); h.Close() })
	init := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`
	idle := post(t, srv.URL, "", "", init).Header.Get(HeaderConnectionID)
	busy := post(t, srv.URL, "", "", init).Header.Get(HeaderConnectionID)
	events := sse(t, srv.URL, busy, "")
	deadline := time.Now().Add(5 * time.Second)
	for h.lookup(idle) != nil {
		if time.Now().After(deadline) {
			t.Fatal("the idle connection was never closed")
		}
		time.Sleep(20 * time.Millisecond)
	}
	if r := post(t, srv.URL, idle, "", `{"jsonrpc":"2.0","id":2,"method":"x"}`); r.StatusCode != 404 {
		t.Fatalf("POST to the reaped connection: %d", r.StatusCode)
	}
	if r := post(t, srv.URL, busy, "", `{"jsonrpc":"2.0","id":2,"method":"x"}`); r.StatusCode != 202 {
		t.Fatalf("POST to the streaming connection: %d", r.StatusCode)
	}
	if got := next(t, events); !strings.Contains(got, `"id":2`) {
		t.Fatalf("streaming connection answer: %s", got)
	}
}
