package acphttp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"
	"time"
)

// sessionScoped are the methods whose POST must name its session in
// Acp-Session-Id (the RFD's "session-scoped operations"; goose's transport
// checks these).
var sessionScoped = map[string]bool{
	"session/prompt": true, "session/cancel": true, "session/load": true,
	"session/set_mode": true, "session/set_model": true,
}

// initializeTimeout bounds how long POST initialize waits for the answer.
const initializeTimeout = 30 * time.Second

// envelope is what routing needs of a JSON-RPC message.
type envelope struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params struct {
		SessionID string `json:"sessionId"`
	} `json:"params"`
	Result json.RawMessage `json:"result"`
	Error  json.RawMessage `json:"error"`
}

// post is a client→server message. Without Acp-Connection-Id only
// initialize is accepted: it creates the connection and is answered here,
// 200 with the JSON-RPC response and the Acp-Connection-Id header. Every
// other message is forwarded and answered 202; its response arrives on the
// connection's GET stream.
func (h *Handler) post(w http.ResponseWriter, r *http.Request) {
	if mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || mt != "application/json" {
		http.Error(w, "Content-Type must be application/json", http.StatusUnsupportedMediaType)
		return
	}
	body, err := readMessage(w, r)
	if err != nil {
		http.Error(w, fmt.Sprintf("reading the message: %v", err), http.StatusRequestEntityTooLarge)
		return
	}
	body = bytes.TrimSpace(body)
	if len(body) > 0 && body[0] == '[' {
		http.Error(w, "batch JSON-RPC requests are not supported", http.StatusNotImplemented)
		return
	}
	var env envelope
	if err := json.Unmarshal(body, &env); err != nil {
		http.Error(w, fmt.Sprintf("not a JSON-RPC message: %v", err), http.StatusBadRequest)
		return
	}
	if r.Header.Get(HeaderConnectionID) == "" && env.Method == "initialize" && len(env.ID) > 0 {
		h.initialize(w, r, body, env.ID)
		return
	}
	c := h.connection(w, r, h.lookup)
	if c == nil {
		return
	}
	sessionID := r.Header.Get(HeaderSessionID)
	if sessionScoped[env.Method] && sessionID == "" {
		http.Error(w, env.Method+" needs the "+HeaderSessionID+" header", http.StatusBadRequest)
		return
	}
	if sessionID == "" {
		sessionID = env.Params.SessionID
	}
	if env.Method != "" && len(env.ID) > 0 && sessionID != "" {
		c.trackRequest(env.ID, sessionID)
	}
	c.touch()
	if err := c.send(body); err != nil {
		http.Error(w, "the connection has ended", http.StatusNotFound)
		return
	}
	w.WriteHeader(http.StatusAccepted)
}

// readMessage reads a POSTed message of at most MaxMessageBytes. One whose
// Content-Length is over the limit is refused before any of it is read;
// one of unknown length is read up to the limit at most.
func readMessage(w http.ResponseWriter, r *http.Request) ([]byte, error) {
	if r.ContentLength > MaxMessageBytes {
		// Unread: the server ends the connection after the answer.
		return nil, &http.MaxBytesError{Limit: MaxMessageBytes}
	}
	var buf bytes.Buffer
	if r.ContentLength > 0 {
		buf.Grow(int(r.ContentLength) + bytes.MinRead) // one allocation of its size
	}
	_, err := buf.ReadFrom(http.MaxBytesReader(w, r.Body, MaxMessageBytes))
	return buf.Bytes(), err
}

// initialize creates a connection, sends it the initialize request and
// answers with the server's response.
func (h *Handler) initialize(w http.ResponseWriter, r *http.Request, body []byte, id json.RawMessage) {
	c := newHTTPConn(h, newConnectionID(), id)
	h.mu.Lock()
	h.conns[c.id] = c
	h.mu.Unlock()
	if err := c.send(body); err != nil {
		h.remove(c.id)
		c.close()
		http.Error(w, "the connection ended", http.StatusInternalServerError)
		return
	}
	timer := time.NewTimer(initializeTimeout)
	defer timer.Stop()
	select {
	case resp := <-c.initResp:
		w.Header().Set(HeaderConnectionID, c.id)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusOK)
		_, _ = w.Write(resp)
		return
	case <-timer.C:
	case <-r.Context().Done():
	case <-c.run.done:
	}
	h.remove(c.id)
	c.close()
	http.Error(w, "initialize was not answered", http.StatusGatewayTimeout)
}

// stream is the GET SSE stream of a connection (Acp-Connection-Id), or of
// one of its sessions when Acp-Session-Id is given too: messages of that
// session go to the session's streams, every other message to the
// connection's. Messages written while no stream could take them wait for
// the next one.
func (h *Handler) stream(w http.ResponseWriter, r *http.Request) {
	if !acceptsEventStream(r.Header.Values("Accept")) {
		http.Error(w, "Accept must include text/event-stream", http.StatusNotAcceptable)
		return
	}
	c := h.connection(w, r, h.lookup)
	if c == nil {
		return
	}
	flusher, ok := w.(http.Flusher)
	if !ok {
		http.Error(w, "streaming is not supported here", http.StatusInternalServerError)
		return
	}
	st, backlog := c.attach(r.Header.Get(HeaderSessionID))
	defer c.detach(st)
	hd := w.Header()
	hd.Set("Content-Type", "text/event-stream")
	hd.Set("Cache-Control", "no-cache")
	hd.Set(HeaderConnectionID, c.id)
	w.WriteHeader(http.StatusOK)
	for _, msg := range backlog {
		if err := writeEvent(w, msg); err != nil {
			return
		}
	}
	flusher.Flush()
	ping := time.NewTicker(h.opts.PingInterval)
	defer ping.Stop()
	for {
		select {
		case msg := <-st.ch:
			if err := writeEvent(w, msg); err != nil {
				return
			}
			// Drain what is already queued before one flush.
			for n := len(st.ch); n > 0; n-- {
				if err := writeEvent(w, <-st.ch); err != nil {
					return
				}
			}
			flusher.Flush()
		case <-ping.C:
			if _, err := io.WriteString(w, ": ping\n\n"); err != nil {
				return
			}
			flusher.Flush()
		case <-r.Context().Done():
			return
		case <-c.run.done:
			return
		}
	}
}

// writeEvent writes one SSE event; JSON from the server is one line.
func writeEvent(w io.Writer, msg []byte) error {
	_, err := fmt.Fprintf(w, "event: message\ndata: %s\n\n", msg)
	return err
}

func acceptsEventStream(values []string) bool {
	for _, v := range values {
		for _, part := range strings.Split(v, ",") {
			mt, _, err := mime.ParseMediaType(strings.TrimSpace(part))
			if err == nil && mt == "text/event-stream" {
				return true
			}
		}
	}
	return false
}

// delete ends a connection: its server cancels running turns and returns;
// its sessions stay in the core and can be loaded from any connection.
func (h *Handler) delete(w http.ResponseWriter, r *http.Request) {
	if c := h.connection(w, r, h.remove); c != nil {
		c.close()
		w.WriteHeader(http.StatusAccepted)
	}
}

// connection finds (with find: lookup or remove) the request's
// Acp-Connection-Id, answering 400 when it is missing and 404 when unknown.
func (h *Handler) connection(w http.ResponseWriter, r *http.Request, find func(string) *httpConn) *httpConn {
	id := r.Header.Get(HeaderConnectionID)
	if id == "" {
		http.Error(w, "missing "+HeaderConnectionID, http.StatusBadRequest)
		return nil
	}
	c := find(id)
	if c == nil {
		http.Error(w, "unknown "+HeaderConnectionID, http.StatusNotFound)
	}
	return c
}
