package acphttp

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"sync"
	"time"

	"github.com/gorilla/websocket"
	"github.com/sourcegraph/jsonrpc2"
)

// serveWebSocket runs one ACP connection over a WebSocket: each text frame
// is one JSON-RPC message both ways; binary frames are ignored (RFD). The
// connection ends with the socket, the request (server shutdown) or Close;
// the sessions it opened stay with the core agent.
func (h *Handler) serveWebSocket(w http.ResponseWriter, r *http.Request) {
	// Origin was decided by Guard (or the caller's policy) already.
	up := websocket.Upgrader{CheckOrigin: func(*http.Request) bool { return true }}
	id := newConnectionID()
	ws, err := up.Upgrade(w, r, http.Header{HeaderConnectionID: {id}})
	if err != nil {
		return // Upgrade answered the client
	}
	defer ws.Close()
	ws.SetReadLimit(MaxMessageBytes)
	st := &wsStream{ws: ws}
	c := startConn(r.Context(), h.opts.Serve, st, h.log)
	// Handler.Close ends the connection.
	stop := context.AfterFunc(h.ctx, c.cancel)
	defer stop()
	h.log.Debug("ACP WebSocket connection opened", "connection", id)
	go h.pingLoop(c, st)
	<-c.done
	// The server may have ended first (Close, shutdown): release a read
	// still waiting on the socket.
	_ = ws.SetReadDeadline(time.Now())
	_ = st.write(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.CloseNormalClosure, ""))
	h.log.Debug("ACP WebSocket connection closed", "connection", id)
}

// wsStream is one WebSocket as a message stream: a text frame is one
// message.
type wsStream struct {
	ws  *websocket.Conn
	wmu sync.Mutex
}

var _ jsonrpc2.ObjectStream = (*wsStream)(nil)

// ReadObject reads the next text frame into v; binary and blank frames
// are skipped. A frame that is not JSON comes back as json.Unmarshal's
// error, which the ACP connection answers (-32700) before reading on.
func (s *wsStream) ReadObject(v any) error {
	for {
		mt, msg, err := s.ws.ReadMessage()
		if err != nil {
			return err
		}
		if mt != websocket.TextMessage || len(bytes.TrimSpace(msg)) == 0 {
			continue
		}
		return json.Unmarshal(msg, v)
	}
}

// WriteObject writes one message as one text frame.
func (s *wsStream) WriteObject(obj any) error {
	b, err := frame(obj)
	if err != nil {
		return err
	}
	return s.write(websocket.TextMessage, b)
}

func (s *wsStream) write(mt int, b []byte) error {
	s.wmu.Lock()
	defer s.wmu.Unlock()
	_ = s.ws.SetWriteDeadline(time.Now().Add(time.Minute))
	return s.ws.WriteMessage(mt, b)
}

// Close releases a read waiting on the socket; serveWebSocket closes it.
func (s *wsStream) Close() error { return s.ws.SetReadDeadline(time.Now()) }

// pingLoop pings the client until the connection ends, so a dead peer is
// noticed (the write fails) and proxies keep the socket open.
func (h *Handler) pingLoop(c *conn, st *wsStream) {
	t := time.NewTicker(h.opts.PingInterval)
	defer t.Stop()
	for {
		select {
		case <-c.done:
			return
		case <-t.C:
			if err := st.write(websocket.PingMessage, nil); err != nil {
				c.cancel()
				return
			}
		}
	}
}
