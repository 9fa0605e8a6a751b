package acphttp

import (
	"context"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/google/uuid"
)

// Options configure a Handler.
type Options struct {
	// Serve runs one ACP connection (required).
	Serve  ServeFunc
	Logger *slog.Logger
	// IdleTimeout ends a streamable-HTTP connection that has had no GET
	// stream open and no POST for this long (default 30 minutes). WebSocket
	// connections end with their socket.
	IdleTimeout time.Duration
	// PingInterval is the WebSocket ping and SSE keep-alive period
	// (default 20 s).
	PingInterval time.Duration
}

// Handler serves /acp: a GET with Upgrade: websocket opens a WebSocket
// connection; POST, GET (SSE) and DELETE are the streamable-HTTP form.
// Authentication, Origin and CORS are the caller's (RequireSecret, Guard).
type Handler struct {
	opts   Options
	log    *slog.Logger
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu    sync.Mutex
	conns map[string]*httpConn
}

// New returns a Handler; Close ends its connections.
func New(opts Options) *Handler {
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if opts.IdleTimeout <= 0 {
		opts.IdleTimeout = 30 * time.Minute
	}
	if opts.PingInterval <= 0 {
		opts.PingInterval = 20 * time.Second
	}
	h := &Handler{opts: opts, log: opts.Logger, conns: map[string]*httpConn{}}
	h.ctx, h.cancel = context.WithCancel(context.Background())
	h.wg.Add(1)
	go h.reapIdle()
	return h
}

// ServeHTTP implements http.Handler.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch {
	case isWebSocketUpgrade(r):
		h.serveWebSocket(w, r)
	case r.Method == http.MethodPost:
		h.post(w, r)
	case r.Method == http.MethodGet:
		h.stream(w, r)
	case r.Method == http.MethodDelete:
		h.delete(w, r)
	default:
		w.Header().Set("Allow", "GET, POST, DELETE")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
	}
}

// Close ends every connection (their servers stop every running turn; the
// sessions stay in the core's store) and waits for them.
func (h *Handler) Close() error {
	h.cancel()
	h.mu.Lock()
	conns := make([]*httpConn, 0, len(h.conns))
	for id, c := range h.conns {
		conns = append(conns, c)
		delete(h.conns, id)
	}
	h.mu.Unlock()
	for _, c := range conns {
		c.close()
	}
	h.wg.Wait()
	return nil
}

// Connections is the number of open streamable-HTTP connections.
func (h *Handler) Connections() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.conns)
}

func newConnectionID() string { return uuid.NewString() }

// reapIdle ends streamable-HTTP connections nobody uses any more: a client
// that vanished without DELETE would otherwise keep its server forever.
func (h *Handler) reapIdle() {
	defer h.wg.Done()
	t := time.NewTicker(min(h.opts.IdleTimeout/4, time.Minute))
	defer t.Stop()
	for {
		select {
		case <-h.ctx.Done():
			return
		case now := <-t.C:
			for _, c := range h.idle(now) {
				h.log.Info("ACP connection idle; closing", "connection", c.id)
				c.close()
			}
		}
	}
}

func (h *Handler) idle(now time.Time) []*httpConn {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []*httpConn
	for id, c := range h.conns {
		if c.idleSince(now) > h.opts.IdleTimeout {
			delete(h.conns, id)
			out = append(out, c)
		}
	}
	return out
}

func (h *Handler) lookup(id string) *httpConn {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.conns[id]
}

func (h *Handler) remove(id string) *httpConn {
	h.mu.Lock()
	defer h.mu.Unlock()
	c := h.conns[id]
	delete(h.conns, id)
	return c
}
