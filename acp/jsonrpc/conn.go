package jsonrpc

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sourcegraph/jsonrpc2"

	"github.com/goose-acp/goose-acp/internal/deepstack"
)

// RequestHandler answers one request; params is nil when absent.
type RequestHandler func(ctx context.Context, params json.RawMessage) (any, error)

// NotificationHandler handles one notification, in arrival order.
type NotificationHandler func(ctx context.Context, params json.RawMessage)

// FollowUp is a handler result with work to do right after its response
// is written (ACP wants some notifications after a response, e.g. the
// available commands after session/new): Response returns the result to
// send and then, run once it is written (may be nil).
type FollowUp interface {
	Response() (result any, then func())
}

// Options configure a Conn.
type Options struct {
	Requests      map[string]RequestHandler
	Notifications map[string]NotificationHandler
	// Ordered tells the methods that run one at a time, in arrival order
	// (until the handler returns or calls Proceed); nil: none. It is
	// asked as each request arrives.
	Ordered func(method string) bool
	// ErrorOf turns a handler's error into the error sent (default: a
	// *jsonrpc2.Error as it is, anything else -32603 with its text as data).
	ErrorOf func(error) *jsonrpc2.Error
	// OnEOF runs when the input ends, while the connection is still
	// writable: requests already read get their answers (up to Grace).
	OnEOF func()
	// Grace bounds how long the end of input waits for running requests
	// (default 5 s).
	Grace  time.Duration
	Logger *slog.Logger
}

// BufferedStream is a stream that can hold frames back until Flush (the
// NDJSON stream: a session/load replay is one write per 64 KiB, not one
// per frame).
type BufferedStream interface {
	WriteBuffered(frame []byte) error
	Flush() error
}

// Conn is one JSON-RPC 2.0 connection over a jsonrpc2.ObjectStream: it reads
// messages, runs each request in its own goroutine (so a handler may call
// the client and wait), runs notifications inline in arrival order, tracks
// running requests for $/cancel_request and ordering, and writes every
// outgoing frame — responses, notifications, its own requests and frames
// encoded elsewhere — through one writer, in the order they are handed in.
type Conn struct {
	stream jsonrpc2.ObjectStream
	opts   Options
	log    *slog.Logger

	// wmu orders writes; closed refuses them once the connection ended.
	wmu    sync.Mutex
	closed bool

	mu       sync.Mutex
	closing  bool
	inflight map[inflightKey]context.CancelFunc
	seq      uint64
	// orderedTail is done when the last ordered request has finished.
	orderedTail chan struct{}
	pending     map[uint64]chan *Message
	handlers    sync.WaitGroup

	nextID atomic.Uint64
}

// NewConn returns a connection on stream; Run serves it.
func NewConn(stream jsonrpc2.ObjectStream, opts Options) *Conn {
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if opts.Grace <= 0 {
		opts.Grace = 5 * time.Second
	}
	if opts.ErrorOf == nil {
		opts.ErrorOf = internalError
	}
	return &Conn{stream: stream, opts: opts, log: opts.Logger,
		inflight: map[inflightKey]context.CancelFunc{}, pending: map[uint64]chan *Message{}}
}

// Run serves the connection until its input ends or ctx is cancelled, then
// cancels the requests still running, waits for them and closes the
// stream. The end of input is not an error.
func (c *Conn) Run(ctx context.Context) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	readDone := make(chan error, 1)
	go func() {
		deepstack.Reserve() // decoding a frame's nested JSON goes deep
		readDone <- c.read(ctx)
	}()
	var err error
	select {
	case err = <-readDone:
	case <-ctx.Done():
	}
	cancel()
	c.shutdown()
	c.handlers.Wait()
	if err == nil || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return nil
	}
	return err
}

// read handles messages until the stream fails; a message that is not one
// is answered and skipped.
func (c *Conn) read(ctx context.Context) error {
	for {
		m := new(Message)
		err := c.stream.ReadObject(m)
		if err == nil {
			c.dispatch(ctx, m)
			// The next read is a system call that blocks (an editor's stdin
			// is a blocking pipe or socket pair, outside the netpoller), and a goroutine
			// blocked in one keeps its P: the handler just started, or the
			// caller a response woke, sits in that P's queue until the
			// runtime's monitor takes the P back, 20 µs to well over 0.2 ms
			// when the other core is busy (a fresh process's first
			// session/new, BenchmarkRequestOverBlockingPipe). Yielding runs
			// it now; this goroutine reads on when a P is free.
			runtime.Gosched()
			continue
		}
		if me := messageError(err); me != nil {
			c.log.Warn("rejected client message", "code", me.Code, "reason", me.Reason)
			_ = c.WriteFrame(rejectFrame(me), true)
			continue
		}
		if ctx.Err() == nil {
			if c.opts.OnEOF != nil {
				c.opts.OnEOF()
			}
			if !c.waitHandlers(c.opts.Grace) {
				c.log.Warn("requests still running at shutdown", "grace", c.opts.Grace)
			}
		}
		return err
	}
}

// messageError is the error to answer for a message that could not be
// read, or nil when the stream itself failed.
func messageError(err error) *MessageError {
	var me *MessageError
	if errors.As(err, &me) {
		return me
	}
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return &MessageError{Code: jsonrpc2.CodeParseError, Reason: "parse error"}
	}
	return nil
}

func (c *Conn) dispatch(ctx context.Context, m *Message) {
	switch {
	case !m.IsRequest():
		c.response(m)
	case m.ID == nil:
		c.notification(ctx, m.Method, m.Params)
	default:
		c.request(ctx, m)
	}
}

// WriteFrame writes one encoded message. With flush false a buffering
// stream may hold it until the next flushing write or Flush.
func (c *Conn) WriteFrame(frame []byte, flush bool) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if c.closed {
		return jsonrpc2.ErrClosed
	}
	if bs, ok := c.stream.(BufferedStream); ok && !flush {
		return bs.WriteBuffered(frame)
	}
	return c.stream.WriteObject(json.RawMessage(frame))
}

// Flush writes out frames a buffering stream holds.
func (c *Conn) Flush() error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if bs, ok := c.stream.(BufferedStream); ok && !c.closed {
		return bs.Flush()
	}
	return nil
}

// shutdown refuses new requests and writes, fails the calls waiting for
// an answer and closes the stream.
func (c *Conn) shutdown() {
	c.mu.Lock()
	if c.closing {
		c.mu.Unlock()
		return
	}
	c.closing = true
	pending := c.pending
	c.pending = nil
	c.mu.Unlock()
	for _, ch := range pending {
		close(ch)
	}
	c.wmu.Lock()
	c.closed = true
	c.wmu.Unlock()
	_ = c.stream.Close()
}

// waitHandlers waits for the running requests, at most d; it reports
// whether they all returned.
func (c *Conn) waitHandlers(d time.Duration) bool {
	done := make(chan struct{})
	go func() { c.handlers.Wait(); close(done) }()
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-done:
		return true
	case <-t.C:
		return false
	}
}

func internalError(err error) *jsonrpc2.Error {
	var e *jsonrpc2.Error
	if errors.As(err, &e) {
		return e
	}
	e = &jsonrpc2.Error{Code: jsonrpc2.CodeInternalError, Message: "Internal error"}
	e.SetError(err.Error())
	return e
}
