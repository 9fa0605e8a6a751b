package extension

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// memBuffer is how many messages each direction holds before Write waits
// for the peer's read loop (go-sdk reads continuously, so it rarely does).
const memBuffer = 16

// newInProcessTransports returns a connected pair of transports for an
// in-process server: connect the server to one, then a client to the
// other. Unlike mcp.NewInMemoryTransports (a net.Pipe read by a JSON
// decoder per connection), messages travel as jsonrpc values over
// channels; each is copied the way the wire would (fresh Params/Result
// bytes, errors as *jsonrpc.Error, no Extra) so neither side sees the
// other's memory. Closing either end makes the peer's Read return io.EOF
// once the messages already sent are read, and its Writes fail.
func newInProcessTransports() (client, server mcp.Transport) {
	p := &memPipe{closed: make(chan struct{})}
	c2s := make(chan jsonrpc.Message, memBuffer)
	s2c := make(chan jsonrpc.Message, memBuffer)
	return &memTransport{conn: &memConn{pipe: p, in: s2c, out: c2s, self: make(chan struct{})}},
		&memTransport{conn: &memConn{pipe: p, in: c2s, out: s2c, self: make(chan struct{})}}
}

type memPipe struct {
	once   sync.Once
	closed chan struct{} // closed by the first Close of either end
}

// memTransport hands out its connection once (mcp.Transport's contract).
type memTransport struct {
	mu   sync.Mutex
	conn *memConn
}

func (t *memTransport) Connect(context.Context) (mcp.Connection, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.conn == nil {
		return nil, errors.New("in-process transport already connected")
	}
	c := t.conn
	t.conn = nil
	return c, nil
}

// errPipeClosed is what Write returns once either end is closed (as
// net.Pipe's io.ErrClosedPipe did).
var errPipeClosed = io.ErrClosedPipe

type memConn struct {
	pipe     *memPipe
	in, out  chan jsonrpc.Message
	selfOnce sync.Once
	self     chan struct{} // closed by this end's Close
}

func (c *memConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	select {
	case <-c.self:
		return nil, io.EOF
	default:
	}
	select {
	case m := <-c.in:
		return m, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-c.self:
		return nil, io.EOF
	case <-c.pipe.closed:
		// The peer closed: what it sent before still arrives.
		select {
		case m := <-c.in:
			return m, nil
		default:
			return nil, io.EOF
		}
	}
}

func (c *memConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	select {
	case <-c.pipe.closed:
		return errPipeClosed
	default:
	}
	m, err := copyMessage(msg)
	if err != nil {
		return err
	}
	select {
	case c.out <- m:
		return nil
	case <-c.pipe.closed:
		return errPipeClosed
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (c *memConn) Close() error {
	c.selfOnce.Do(func() { close(c.self) })
	c.pipe.once.Do(func() { close(c.pipe.closed) })
	return nil
}

// SessionID is empty, as for go-sdk's stdio and in-memory connections.
func (c *memConn) SessionID() string { return "" }

// copyMessage is msg as the peer would decode it from the wire.
func copyMessage(msg jsonrpc.Message) (jsonrpc.Message, error) {
	switch m := msg.(type) {
	case *jsonrpc.Request:
		return &jsonrpc.Request{ID: m.ID, Method: m.Method, Params: cloneRaw(m.Params)}, nil
	case *jsonrpc.Response:
		if !m.ID.IsValid() {
			return nil, fmt.Errorf("marshaling message: response without an id")
		}
		r := &jsonrpc.Response{ID: m.ID, Result: cloneRaw(m.Result)}
		if m.Error != nil {
			if w := wireError(m.Error); w != nil {
				r.Error = w
			}
		}
		return r, nil
	case nil:
		return nil, errors.New("marshaling message: nil message")
	}
	return nil, fmt.Errorf("marshaling message: unknown message type %T", msg)
}

// cloneRaw copies b; empty stays nil (the wire omits an empty params or
// result, and decoding it yields nil).
func cloneRaw(b []byte) []byte {
	if len(b) == 0 {
		return nil
	}
	return bytes.Clone(b)
}

// wireError is err as a *jsonrpc.Error the way jsonrpc2 encodes it: a
// wire error as is, otherwise the message with the code of a wrapped wire
// error (0 without one).
func wireError(err error) *jsonrpc.Error {
	if w, ok := err.(*jsonrpc.Error); ok {
		if w == nil {
			return nil
		}
		return &jsonrpc.Error{Code: w.Code, Message: w.Message, Data: cloneRaw(w.Data)}
	}
	out := &jsonrpc.Error{Message: err.Error()}
	var w *jsonrpc.Error
	if errors.As(err, &w) {
		out.Code = w.Code
	}
	return out
}
