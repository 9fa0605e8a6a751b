package acphttp

import (
	"context"
	"net/http"
	"sync"
	"time"

	"github.com/gorilla/websocket"
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
	var wmu sync.Mutex
	write := func(mt int, b []byte) error {
		wmu.Lock()
		defer wmu.Unlock()
		_ = ws.SetWriteDeadline(time.Now().Add(time.Minute))
		return ws.WriteMessage(mt, b)
	}
	c := startConn(r.Context(), h.opts.Serve, func(b []byte) error { return write(websocket.TextMessage, b) }, h.log)
	// Handler.Close ends the connection; when the server side ends first
	// (Close, shutdown), the blocked read is released too.
	stop := context.AfterFunc(h.ctx, c.cancel)
	defer stop()
	go func() {
		<-c.done
		_ = ws.SetReadDeadline(time.Now())
	}()
	h.log.Debug("ACP WebSocket connection opened", "connection", id)
	go h.pingLoop(c, write)
	for {
		mt, msg, err := ws.ReadMessage()
		if err != nil {
			break
		}
		if mt != websocket.TextMessage {
			continue
		}
		if err := c.send(msg); err != nil {
			break
		}
	}
	c.closeInput()
	<-c.done
	_ = write(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.CloseNormalClosure, ""))
	h.log.Debug("ACP WebSocket connection closed", "connection", id)
}

// pingLoop pings the client until the connection ends, so a dead peer is
// noticed (the write fails) and proxies keep the socket open.
func (h *Handler) pingLoop(c *msgConn, write func(int, []byte) error) {
	t := time.NewTicker(h.opts.PingInterval)
	defer t.Stop()
	for {
		select {
		case <-c.done:
			return
		case <-t.C:
			if err := write(websocket.PingMessage, nil); err != nil {
				c.cancel()
				return
			}
		}
	}
}
