package acphttp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"sync"
)

// ServeFunc serves one ACP connection on a newline-delimited JSON-RPC 2.0
// stream until in ends or ctx is cancelled (acp.Serve in goose-acp).
type ServeFunc func(ctx context.Context, in io.Reader, out io.Writer) error

// MaxMessageBytes is the largest message accepted from a client: the ACP
// stream's own line limit (acp.MaxMessageBytes, the TypeScript SDK's
// default) plus room for framing.
const MaxMessageBytes = 32<<20 + 4096

// msgConn adapts one message-framed ACP connection (WebSocket frames, HTTP
// POST bodies) to a ServeFunc's line stream: each client message becomes one
// line of in, and each line the server writes is handed to emit as one
// message. This is the only place a transport meets the ACP server.
type msgConn struct {
	in     *io.PipeWriter
	cancel context.CancelFunc
	done   chan struct{}
	inMu   sync.Mutex
}

// startConn runs serve on a new connection; emit receives each outgoing
// message (without its newline), one call at a time.
func startConn(ctx context.Context, serve ServeFunc, emit func([]byte) error, log *slog.Logger) *msgConn {
	ctx, cancel := context.WithCancel(ctx)
	pr, pw := io.Pipe()
	c := &msgConn{in: pw, cancel: cancel, done: make(chan struct{})}
	go func() {
		defer close(c.done)
		defer cancel()
		err := serve(ctx, pr, &lineWriter{emit: emit})
		_ = pr.CloseWithError(io.EOF)
		if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, context.Canceled) {
			log.Warn("ACP connection ended", "error", err)
		}
	}()
	// Cancelling the connection ends the server's reads too.
	context.AfterFunc(ctx, func() { _ = pw.CloseWithError(io.EOF) })
	return c
}

// send hands one client message to the server. A message that is valid
// JSON is compacted onto one line; anything else keeps its bytes (newlines
// turned into spaces) so the ACP stream answers it with a parse error.
func (c *msgConn) send(msg []byte) error {
	msg = bytes.TrimSpace(msg)
	if len(msg) == 0 {
		return nil
	}
	var buf bytes.Buffer
	buf.Grow(len(msg) + 1)
	if err := json.Compact(&buf, msg); err != nil {
		buf.Reset()
		buf.Write(bytes.Map(func(r rune) rune {
			if r == '\n' || r == '\r' {
				return ' '
			}
			return r
		}, msg))
	}
	buf.WriteByte('\n')
	c.inMu.Lock()
	defer c.inMu.Unlock()
	_, err := c.in.Write(buf.Bytes())
	return err
}

// closeInput ends the client's side: the server answers what it already
// read, then returns (acp.Serve's end-of-input handling).
func (c *msgConn) closeInput() { _ = c.in.CloseWithError(io.EOF) }

// stop cancels the connection and waits for its server to return.
func (c *msgConn) stop() {
	c.cancel()
	<-c.done
}

// lineWriter turns the server's newline-terminated output into messages.
type lineWriter struct {
	emit func([]byte) error
	buf  []byte
}

func (w *lineWriter) Write(p []byte) (int, error) {
	w.buf = append(w.buf, p...)
	start := 0
	for {
		i := bytes.IndexByte(w.buf[start:], '\n')
		if i < 0 {
			break
		}
		line := w.buf[start : start+i]
		start += i + 1
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		if err := w.emit(line); err != nil {
			w.buf = w.buf[:0]
			return 0, err
		}
	}
	w.buf = append(w.buf[:0], w.buf[start:]...)
	return len(p), nil
}
