package acphttp

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"

	"github.com/sourcegraph/jsonrpc2"
)

// ServeFunc serves one ACP connection on its message stream until the
// stream's input ends or ctx is cancelled (acp.ServeStream in goose-acp).
// ReadObject hands it one client message per call (json.Unmarshal of the
// frame, which it may keep); WriteObject takes one server message, a
// json.RawMessage the stream may keep.
type ServeFunc func(ctx context.Context, stream jsonrpc2.ObjectStream) error

// MaxMessageBytes is the largest message accepted from a client: the ACP
// stdio limit (the TypeScript SDK's DEFAULT_MAX_MESSAGE_BYTES, 32 MiB)
// plus room for framing.
const MaxMessageBytes = 32<<20 + 4096

// conn is one running ACP connection.
type conn struct {
	cancel context.CancelFunc
	done   chan struct{}
}

// startConn runs serve on stream until it returns or ctx ends.
func startConn(ctx context.Context, serve ServeFunc, stream jsonrpc2.ObjectStream, log *slog.Logger) *conn {
	ctx, cancel := context.WithCancel(ctx)
	c := &conn{cancel: cancel, done: make(chan struct{})}
	go func() {
		defer close(c.done)
		defer cancel()
		if err := serve(ctx, stream); err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, context.Canceled) {
			log.Warn("ACP connection ended", "error", err)
		}
	}()
	return c
}

// stop cancels the connection and waits for its server to return.
func (c *conn) stop() {
	c.cancel()
	<-c.done
}

// frame is what a server hands WriteObject: the encoded message itself,
// or (for a server that does not encode) a value to encode.
func frame(obj any) ([]byte, error) {
	if b, ok := obj.(json.RawMessage); ok {
		return b, nil
	}
	return json.Marshal(obj)
}

var errConnClosed = errors.New("acphttp: connection closed")
