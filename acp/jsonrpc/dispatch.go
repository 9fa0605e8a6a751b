package jsonrpc

import (
	"context"
	"encoding/json"
	"sync"

	"github.com/sourcegraph/jsonrpc2"

	"github.com/goose-acp/goose-acp/acp/jsonrpc/wire"
	"github.com/goose-acp/goose-acp/internal/deepstack"
)

// CancelRequestMethod is the notification that cancels a running request.
const CancelRequestMethod = "$/cancel_request"

// inflightKey names one running request. A client may (wrongly, or after
// wrapping its counter) send two requests with the same id; each keeps its
// own cancel function under its own seq, both are answered, and
// $/cancel_request with that id cancels both.
type inflightKey struct {
	id  string
	seq uint64
}

// request starts a request's handler in its own goroutine. The handler is
// handed the params and nothing else of the message, so a large frame is
// released as soon as the handler has decoded it.
func (c *Conn) request(ctx context.Context, m *Message) {
	h, ok := c.opts.Requests[m.Method]
	if !ok {
		e := &jsonrpc2.Error{Code: jsonrpc2.CodeMethodNotFound, Message: "Method not found"}
		e.SetError(m.Method)
		_ = c.WriteFrame(errorFrame(m.ID, e), true)
		return
	}
	reqCtx, cancel := context.WithCancel(ctx)
	if !c.begin() {
		cancel()
		return
	}
	key := c.track(m.ID, cancel)
	prev, proceed := c.ordered(m.Method)
	if proceed != nil {
		reqCtx = context.WithValue(reqCtx, proceedKey{}, proceed)
	}
	go c.serve(ctx, reqCtx, key, h, m.ID, m.Method, m.Params, prev, proceed)
}

type proceedKey struct{}

// Proceed lets the next ordered request start before this one's handler
// returns: an ordered handler calls it once the part that must keep
// arrival order is done (an ACP v2 prompt has taken its place in its
// session's queue and now waits for its turn). For any other request it
// does nothing.
func Proceed(ctx context.Context) {
	if f, ok := ctx.Value(proceedKey{}).(func()); ok {
		f()
	}
}

// begin counts a new handler unless the connection is shutting down.
func (c *Conn) begin() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closing {
		return false
	}
	c.handlers.Add(1)
	return true
}

func (c *Conn) serve(connCtx, ctx context.Context, key inflightKey, h RequestHandler, id json.RawMessage,
	method string, params json.RawMessage, prev <-chan struct{}, proceed func()) {
	deepstack.Reserve() // handlers go deep (JSON, the store's SQLite, a turn): one stack copy, not four
	defer c.handlers.Done()
	defer c.untrack(key)
	if proceed != nil {
		defer proceed()
		<-prev
	}
	result, err := h(ctx, params)
	// A handler that gave up because its request was cancelled answers
	// -32800, not an empty success.
	if err == nil && ctx.Err() != nil && connCtx.Err() == nil && result == nil {
		err = ctx.Err()
	}
	if err != nil {
		c.log.Debug("request failed", "method", method, "err", err)
		_ = c.WriteFrame(errorFrame(id, c.opts.ErrorOf(err)), true)
		return
	}
	var then func()
	if f, ok := result.(FollowUp); ok {
		result, then = f.Response()
	}
	frame, err := wire.ResponseFrame(id, result)
	if err != nil {
		c.log.Error("response not encodable", "method", method, "err", err)
		frame = errorFrame(id, internalError(err))
	}
	_ = c.WriteFrame(frame, true)
	if then != nil {
		then()
	}
}

func (c *Conn) notification(ctx context.Context, method string, params json.RawMessage) {
	if method == CancelRequestMethod {
		c.cancelRequest(params)
		return
	}
	h, ok := c.opts.Notifications[method]
	if !ok {
		c.log.Debug("ignoring unknown notification", "method", method)
		return
	}
	h(ctx, params)
}

func (c *Conn) cancelRequest(params json.RawMessage) {
	var p struct {
		RequestID json.RawMessage `json:"requestId"`
	}
	if err := json.Unmarshal(params, &p); err != nil || wire.ValidID(p.RequestID) == nil {
		c.log.Warn("bad $/cancel_request", "params", string(params))
		return
	}
	want := idKey(p.RequestID)
	c.mu.Lock()
	var cancels []context.CancelFunc
	for key, cancel := range c.inflight {
		if key.id == want {
			cancels = append(cancels, cancel)
		}
	}
	c.mu.Unlock()
	for _, cancel := range cancels {
		cancel()
	}
}

// idKey compares ids by value: a string by its decoded text, a number by
// its literal.
func idKey(id json.RawMessage) string {
	if len(id) > 0 && id[0] == '"' {
		var s string
		if json.Unmarshal(id, &s) == nil {
			return "s" + s
		}
	}
	return "n" + string(id)
}

func (c *Conn) track(id json.RawMessage, cancel context.CancelFunc) inflightKey {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.seq++
	key := inflightKey{id: idKey(id), seq: c.seq}
	c.inflight[key] = cancel
	return key
}

func (c *Conn) untrack(key inflightKey) {
	c.mu.Lock()
	cancel := c.inflight[key]
	delete(c.inflight, key)
	c.mu.Unlock()
	if cancel != nil {
		cancel()
	}
}

// ordered queues a request of an ordered method behind the previous one,
// in arrival order: prev is closed when that one has finished (or called
// Proceed); this one's proceed (idempotent) lets the next one start. Both
// are nil for other methods.
func (c *Conn) ordered(method string) (prev <-chan struct{}, proceed func()) {
	if c.opts.Ordered == nil || !c.opts.Ordered(method) {
		return nil, nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	tail := c.orderedTail
	if tail == nil {
		tail = make(chan struct{})
		close(tail)
	}
	done := make(chan struct{})
	c.orderedTail = done
	return tail, sync.OnceFunc(func() { close(done) })
}
