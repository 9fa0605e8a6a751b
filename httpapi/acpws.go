package httpapi

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"sync"

	"github.com/gorilla/websocket"
)

// acpWebSocket serves one ACP connection over a WebSocket (the transport
// newer desktops use): each text message is one JSON-RPC message. The
// secret comes as X-Secret-Key or ?secret= (checked by auth).
func (s *Server) acpWebSocket(w http.ResponseWriter, r *http.Request) {
	if s.opts.ACP == nil {
		writeJSON(w, http.StatusNotFound, map[string]string{"message": "ACP over WebSocket is not enabled on this server"})
		return
	}
	up := websocket.Upgrader{CheckOrigin: func(*http.Request) bool { return true }}
	conn, err := up.Upgrade(w, r, nil)
	if err != nil {
		return // Upgrade already answered
	}
	defer conn.Close()
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	stop := context.AfterFunc(s.ctx, cancel)
	defer stop()
	in, pw := io.Pipe()
	go func() {
		defer cancel()
		for {
			_, msg, err := conn.ReadMessage()
			if err != nil {
				pw.CloseWithError(io.EOF)
				return
			}
			if _, err := pw.Write(append(bytes.TrimSpace(msg), '\n')); err != nil {
				return
			}
		}
	}()
	go func() {
		<-ctx.Done()
		pw.CloseWithError(io.EOF) // ends the ACP server's reads
	}()
	err = s.opts.ACP(ctx, in, &wsLineWriter{conn: conn})
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, context.Canceled) {
		s.log.Warn("ACP over WebSocket ended", "error", err)
	}
	_ = conn.WriteMessage(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.CloseNormalClosure, ""))
}

// wsLineWriter sends each newline-terminated line as one text message.
type wsLineWriter struct {
	mu   sync.Mutex
	conn *websocket.Conn
	buf  []byte
}

func (w *wsLineWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf = append(w.buf, p...)
	for {
		i := bytes.IndexByte(w.buf, '\n')
		if i < 0 {
			return len(p), nil
		}
		line := w.buf[:i]
		if len(bytes.TrimSpace(line)) > 0 {
			if err := w.conn.WriteMessage(websocket.TextMessage, line); err != nil {
				return 0, err
			}
		}
		w.buf = append(w.buf[:0], w.buf[i+1:]...)
	}
}
