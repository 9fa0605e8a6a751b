package acp

import (
	"context"
	"encoding/json"
	"log/slog"
	"sync"
	"time"

	"github.com/sourcegraph/jsonrpc2"
)

// RequestHandler answers one request; params is nil when absent.
type RequestHandler func(ctx context.Context, params json.RawMessage) (any, error)

// NotificationHandler handles one notification, in arrival order.
type NotificationHandler func(ctx context.Context, params json.RawMessage)

// Router is a method table. Requests run each in its own goroutine (so a
// handler may call the client and wait for its answer); notifications run
// inline, in arrival order. $/cancel_request cancels the named request.
type Router struct {
	Requests      map[string]RequestHandler
	Notifications map[string]NotificationHandler
	Logger        *slog.Logger
	// Wired, when set, holds every message until it is closed: the server
	// finishes wiring itself to the Conn (which starts reading at once).
	Wired <-chan struct{}

	mu       sync.Mutex
	inflight map[inflightKey]context.CancelFunc
	seq      uint64
	wg       sync.WaitGroup
	// orderedTail is done when the last ordered request (orderedMethods)
	// has finished; the next one waits for it.
	orderedTail chan struct{}
}

// inflightKey names one running request. A client may (wrongly, or after
// wrapping its counter) send two requests with the same id; each keeps
// its own cancel function under its own seq, both are answered, and
// $/cancel_request with that id cancels both.
type inflightKey struct {
	id  jsonrpc2.ID
	seq uint64
}

var _ jsonrpc2.Handler = (*Router)(nil)

// Handle implements jsonrpc2.Handler.
func (r *Router) Handle(ctx context.Context, conn *jsonrpc2.Conn, req *jsonrpc2.Request) {
	if r.Wired != nil {
		<-r.Wired
	}
	params := rawParams(req)
	if req.Notif {
		r.handleNotification(ctx, req.Method, params)
		return
	}
	h, ok := r.Requests[req.Method]
	if !ok {
		_ = conn.ReplyWithError(ctx, req.ID, methodNotFound(req.Method))
		return
	}
	reqCtx, cancel := context.WithCancel(ctx)
	key := r.track(req.ID, cancel)
	prev, done := r.ordered(req.Method)
	r.wg.Add(1)
	go func() {
		defer r.wg.Done()
		defer r.untrack(key)
		if done != nil {
			defer close(done)
			<-prev
		}
		result, err := h(reqCtx, params)
		if err == nil && reqCtx.Err() != nil && ctx.Err() == nil && result == nil {
			err = reqCtx.Err()
		}
		if err != nil {
			r.logger().Debug("request failed", "method", req.Method, "err", err)
			_ = conn.ReplyWithError(ctx, req.ID, toRPCError(err))
			return
		}
		var then func()
		if f, ok := result.(followUp); ok {
			result, then = f.result, f.then
		}
		if result == nil {
			result = struct{}{}
		}
		_ = conn.Reply(ctx, req.ID, result)
		if then != nil {
			then()
		}
	}()
}

// ordered queues a request of orderedMethods behind the previous one, in
// arrival order: prev is closed when that one has finished, done is closed
// by this one. Both are nil for other methods.
func (r *Router) ordered(method string) (prev <-chan struct{}, done chan struct{}) {
	if !orderedMethods[method] {
		return nil, nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	tail := r.orderedTail
	if tail == nil {
		tail = make(chan struct{})
		close(tail)
	}
	done = make(chan struct{})
	r.orderedTail = done
	return tail, done
}

func (r *Router) handleNotification(ctx context.Context, method string, params json.RawMessage) {
	if method == "$/cancel_request" {
		r.cancelRequest(params)
		return
	}
	h, ok := r.Notifications[method]
	if !ok {
		r.logger().Debug("ignoring unknown notification", "method", method)
		return
	}
	h(ctx, params)
}

func (r *Router) cancelRequest(params json.RawMessage) {
	var p struct {
		RequestID jsonrpc2.ID `json:"requestId"`
	}
	if err := json.Unmarshal(params, &p); err != nil {
		r.logger().Warn("bad $/cancel_request", "err", err)
		return
	}
	r.mu.Lock()
	var cancels []context.CancelFunc
	for key, cancel := range r.inflight {
		if key.id == p.RequestID {
			cancels = append(cancels, cancel)
		}
	}
	r.mu.Unlock()
	for _, cancel := range cancels {
		cancel()
	}
}

func (r *Router) track(id jsonrpc2.ID, cancel context.CancelFunc) inflightKey {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.inflight == nil {
		r.inflight = map[inflightKey]context.CancelFunc{}
	}
	r.seq++
	key := inflightKey{id: id, seq: r.seq}
	r.inflight[key] = cancel
	return key
}

func (r *Router) untrack(key inflightKey) {
	r.mu.Lock()
	cancel := r.inflight[key]
	delete(r.inflight, key)
	r.mu.Unlock()
	if cancel != nil {
		cancel()
	}
}

// Wait blocks until every request handler has returned.
func (r *Router) Wait() { r.wg.Wait() }

func (r *Router) logger() *slog.Logger {
	if r.Logger != nil {
		return r.Logger
	}
	return slog.New(slog.DiscardHandler)
}

func rawParams(req *jsonrpc2.Request) json.RawMessage {
	if req.Params == nil {
		return nil
	}
	return *req.Params
}

// followUp is a handler result whose then runs after the reply is written
// (ACP wants some notifications after a response, e.g. the available
// commands after session/new).
type followUp struct {
	result any
	then   func()
}

// WaitTimeout waits for every request handler to return, at most d; it
// reports whether they all did.
func (r *Router) WaitTimeout(d time.Duration) bool {
	done := make(chan struct{})
	go func() { r.wg.Wait(); close(done) }()
	select {
	case <-done:
		return true
	case <-time.After(d):
		return false
	}
}
