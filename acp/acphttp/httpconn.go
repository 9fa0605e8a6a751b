package acphttp

import (
	"bytes"
	"encoding/json"
	"io"
	"sync"
	"time"

	"github.com/sourcegraph/jsonrpc2"
)

// maxPending bounds the messages a streamable-HTTP connection keeps while
// no GET stream can take them; past it the connection is ended rather than
// growing without limit.
const maxPending = 64 << 20

// httpConn is one streamable-HTTP ACP connection. It is its server's
// message stream: POST bodies are read from in, each message written is
// routed to a GET stream.
type httpConn struct {
	id       string
	h        *Handler
	run      *conn
	in       chan []byte
	initID   json.RawMessage
	initResp chan []byte
	// closed ends ReadObject (the server's input).
	closed     chan struct{}
	closedOnce sync.Once

	mu         sync.Mutex
	streams    map[*sseStream]struct{}
	pending    [][]byte
	pendingLen int
	// reqSession routes the response to a client request to its session's
	// stream (key: the request's raw JSON id).
	reqSession map[string]string
	lastActive time.Time
	closeOnce  sync.Once
}

// sseStream is one open GET stream; session "" takes every message no
// session stream takes.
type sseStream struct {
	session string
	ch      chan []byte
	done    chan struct{}
}

func newHTTPConn(h *Handler, id string, initID json.RawMessage) *httpConn {
	c := &httpConn{id: id, h: h, in: make(chan []byte), closed: make(chan struct{}), initID: initID,
		initResp: make(chan []byte, 1), streams: map[*sseStream]struct{}{}, reqSession: map[string]string{},
		lastActive: time.Now()}
	c.run = startConn(h.ctx, h.opts.Serve, c, h.log)
	return c
}

var _ jsonrpc2.ObjectStream = (*httpConn)(nil)

// send hands one POSTed message to the server; it waits until the server
// reads it (back-pressure, as on a socket).
func (c *httpConn) send(body []byte) error {
	select {
	case c.in <- body:
		return nil
	case <-c.closed:
		return errConnClosed
	case <-c.run.done:
		return errConnClosed
	}
}

// ReadObject reads the next POSTed message into v (its body, which v may
// keep); io.EOF once the connection is closed.
func (c *httpConn) ReadObject(v any) error {
	select {
	case body := <-c.in:
		return json.Unmarshal(body, v)
	case <-c.closed:
		return io.EOF
	}
}

// WriteObject delivers one message from the server to a stream.
func (c *httpConn) WriteObject(obj any) error {
	msg, err := frame(obj)
	if err != nil {
		return err
	}
	return c.route(msg)
}

// Close ends the server's input.
func (c *httpConn) Close() error {
	c.closedOnce.Do(func() { close(c.closed) })
	return nil
}

// route delivers one message from the server. It runs on the server's
// writer, one message at a time, and may block on a slow stream (the
// WebSocket has the same back-pressure).
func (c *httpConn) route(msg []byte) error {
	var env envelope
	_ = json.Unmarshal(msg, &env)
	isResponse := env.Method == "" && len(env.ID) > 0
	if isResponse && c.initID != nil && bytes.Equal(env.ID, c.initID) {
		c.initID = nil
		c.initResp <- msg
		return nil
	}
	session := env.Params.SessionID
	if isResponse {
		c.mu.Lock()
		session = c.reqSession[string(env.ID)]
		delete(c.reqSession, string(env.ID))
		c.mu.Unlock()
	}
	for {
		targets := c.targets(session, msg)
		if targets == nil {
			return nil // queued
		}
		for _, st := range targets {
			select {
			case st.ch <- msg:
				return nil
			case <-st.done:
			case <-c.run.done:
				return errConnClosed
			}
		}
		// Every target closed meanwhile: route again.
	}
}

// targets picks the stream for a message: one of its session's streams,
// else a connection-wide one; with none open the message is queued and
// targets returns nil.
func (c *httpConn) targets(session string, msg []byte) []*sseStream {
	c.mu.Lock()
	defer c.mu.Unlock()
	var sessionStreams, connStreams []*sseStream
	for st := range c.streams {
		switch {
		case session != "" && st.session == session:
			sessionStreams = append(sessionStreams, st)
		case st.session == "":
			connStreams = append(connStreams, st)
		}
	}
	if len(sessionStreams) > 0 {
		return sessionStreams
	}
	if len(connStreams) > 0 {
		return connStreams
	}
	c.pending = append(c.pending, msg)
	c.pendingLen += len(msg)
	if c.pendingLen > maxPending {
		c.h.log.Warn("ACP connection has no stream and too much waiting output; closing", "connection", c.id)
		go func() { c.h.remove(c.id); c.close() }()
	}
	return nil
}

// attach opens a stream; backlog are the queued messages it takes, to be
// written before anything else.
func (c *httpConn) attach(session string) (st *sseStream, backlog [][]byte) {
	st = &sseStream{session: session, ch: make(chan []byte, 256), done: make(chan struct{})}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.streams[st] = struct{}{}
	c.lastActive = time.Now()
	keep := c.pending[:0]
	for _, msg := range c.pending {
		if session == "" || messageSession(msg) == session {
			backlog = append(backlog, msg)
			c.pendingLen -= len(msg)
			continue
		}
		keep = append(keep, msg)
	}
	c.pending = keep
	return st, backlog
}

func (c *httpConn) detach(st *sseStream) {
	c.mu.Lock()
	delete(c.streams, st)
	c.lastActive = time.Now()
	c.mu.Unlock()
	close(st.done)
}

func messageSession(msg []byte) string {
	var env envelope
	_ = json.Unmarshal(msg, &env)
	return env.Params.SessionID
}

func (c *httpConn) trackRequest(id json.RawMessage, session string) {
	c.mu.Lock()
	c.reqSession[string(id)] = session
	c.mu.Unlock()
}

func (c *httpConn) touch() {
	c.mu.Lock()
	c.lastActive = time.Now()
	c.mu.Unlock()
}

// idleSince is how long the connection has had no stream and no POST.
func (c *httpConn) idleSince(now time.Time) time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.streams) > 0 {
		return 0
	}
	return now.Sub(c.lastActive)
}

// close ends the connection's server and its streams.
func (c *httpConn) close() {
	c.closeOnce.Do(c.run.stop)
}
