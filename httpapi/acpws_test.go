package httpapi

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/goose-acp/goose-acp/acp"
)

func wsURL(e *testEnv, query string) string {
	return "ws" + strings.TrimPrefix(e.http.URL, "http") + "/acp" + query
}

func TestACPOverWebSocket(t *testing.T) {
	e := newTestEnvWith(t, "auto", func(o *Options) {
		o.ACP = func(ctx context.Context, in io.Reader, out io.Writer) error {
			return acp.Serve(ctx, in, out, acp.Options{Agent: o.Agent, Store: o.Store, Version: "test"})
		}
	})
	// Without the secret the handshake is refused with 401.
	if _, resp, err := websocket.DefaultDialer.Dial(wsURL(e, ""), nil); err == nil || resp == nil || resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("dial without secret: %v %v", err, resp)
	}
	for _, c := range []struct {
		name, query string
		header      http.Header
	}{
		{"query secret", "?secret=" + testSecret, nil},
		{"header secret", "", http.Header{"X-Secret-Key": {testSecret}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			conn, _, err := websocket.DefaultDialer.Dial(wsURL(e, c.query), c.header)
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			req := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{}}}`
			if err := conn.WriteMessage(websocket.TextMessage, []byte(req)); err != nil {
				t.Fatal(err)
			}
			_ = conn.SetReadDeadline(time.Now().Add(10 * time.Second))
			_, msg, err := conn.ReadMessage()
			if err != nil {
				t.Fatal(err)
			}
			var resp struct {
				ID     int `json:"id"`
				Result struct {
					ProtocolVersion int `json:"protocolVersion"`
				} `json:"result"`
			}
			if err := json.Unmarshal(msg, &resp); err != nil || resp.ID != 1 || resp.Result.ProtocolVersion != acp.ProtocolVersion {
				t.Fatalf("initialize answer %s (%v)", msg, err)
			}
			if strings.Contains(string(msg), "\n") {
				t.Fatalf("one message per frame, got %q", msg)
			}
			_ = conn.WriteMessage(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.CloseNormalClosure, ""))
		})
	}
}

func TestACPWebSocketDisabled(t *testing.T) {
	e := newTestEnv(t, "auto")
	code, body := e.call("GET", "/acp", nil)
	if code != 404 || body != `{"message":"ACP over WebSocket is not enabled on this server"}` {
		t.Fatalf("%d %s", code, body)
	}
}
