package extension

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"maps"
	"net/http"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/goose-acp/goose-acp/core/config"
)

// Shared is a process-wide registry of extension connections. Managers
// given the same Shared (Options.Shared) use one connection — one stdio
// child, one streamable HTTP or SSE client session — for every stdio,
// streamable_http or sse extension whose fully resolved connection is the
// same: command, arguments, environment (envs, env_keys secrets), uri,
// resolved headers, timeout, working dir and what we announce in
// initialize. The extension name is not part of it.
//
// Each manager's Add takes a reference and its Remove or Close releases
// it; the last release closes the connection (killing the child's process
// group). A connect in progress is shared too; a failed one is forgotten,
// and so is a connection whose server went away, so the next Add
// reconnects. Tool names, available_tools, the tool list cache and the
// calls running stay per manager. Safe for concurrent use.
type Shared struct {
	ctx    context.Context // cancelled by Close: ends connects in progress
	cancel context.CancelFunc
	wg     sync.WaitGroup // connects and session watchers

	mu     sync.Mutex
	conns  map[string]*conn   // by connection key: the one Add joins
	all    map[*conn]struct{} // every connection not yet shut down
	closed bool
}

// NewShared returns an empty registry.
func NewShared() *Shared {
	ctx, cancel := context.WithCancel(context.Background())
	return &Shared{ctx: ctx, cancel: cancel, conns: map[string]*conn{}, all: map[*conn]struct{}{}}
}

// Close shuts every connection down (killing stdio process groups), stops
// connects in progress and waits for them. Managers using it should be
// closed first; their extensions stop working. Later Adds fail with
// ErrClosed.
func (s *Shared) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		s.wg.Wait()
		return nil
	}
	s.closed = true
	s.cancel()
	var done []*conn
	for c := range s.all {
		if c.done {
			done = append(done, c)
		}
	}
	s.conns = map[string]*conn{}
	s.mu.Unlock()
	var wg sync.WaitGroup
	for _, c := range done {
		wg.Go(c.shutdown)
	}
	wg.Wait()
	s.wg.Wait()
	return nil
}

// Len reports how many connections are open or connecting.
func (s *Shared) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.all)
}

// dialFunc connects and returns the connection's own extension value,
// which holds the session, what initialize reported and the closers.
type dialFunc func(ctx context.Context, c *conn) (*extension, error)

// conn is one shared connection.
type conn struct {
	s      *Shared
	key    string
	ready  chan struct{} // closed when the connect finished
	cancel context.CancelFunc
	dead   atomic.Bool // the session ended on its own
	once   sync.Once

	// Guarded by s.mu; base and err are set before ready closes.
	base *extension
	err  error
	refs int
	done bool

	mu       sync.Mutex
	attached []*extension
	calls    map[string]callRef // running calls by progress token
	recent   []tokenRef         // ended calls, oldest first
}

type callRef struct {
	id string // the tool call id
	e  *extension
}

type tokenRef struct {
	token string
	ref   callRef
}

// recentCalls is how many ended calls a connection remembers, so that a
// notification handled just after its call's result still finds the call.
const recentCalls = 64

// ErrSamplingUnavailable is returned to a shared server's
// sampling/createMessage when no session's tool call can be told.
var ErrSamplingUnavailable = errors.New("sampling is not available: no session's tool call can be told")

// shareable reports the extension types whose connections are shared.
func shareable(t config.ExtensionType) bool {
	return t == config.ExtensionStdio || t == config.ExtensionStreamableHTTP || t == config.ExtensionSSE
}

// connKey is everything that makes two connections differ.
type connKey struct {
	Type      config.ExtensionType
	Path      string      `json:",omitempty"`
	Args      []string    `json:",omitempty"`
	Env       []string    `json:",omitempty"`
	Dir       string      `json:",omitempty"`
	URI       string      `json:",omitempty"`
	Headers   [][2]string `json:",omitempty"`
	Socket    string      `json:",omitempty"`
	Timeout   int64
	Roots     string
	Client    [3]string // name, version, protocol version
	Sampling  bool
	ElicitURL bool
}

func (k connKey) String() string {
	b, _ := json.Marshal(k)
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// connectShared joins (or opens) the shared connection for cfg and
// returns this manager's extension on it.
func (m *Manager) connectShared(ctx context.Context, cfg config.ExtensionConfig, key string) (*extension, error) {
	k := connKey{
		Type: cfg.Type, Socket: cfg.Socket, Timeout: cfg.TimeoutSeconds(), Roots: m.opts.WorkingDir,
		Client:   [3]string{m.opts.ClientName, m.opts.ClientVersion, m.opts.ProtocolVersion},
		Sampling: m.opts.Hooks.Sample != nil, ElicitURL: m.opts.ElicitURL,
	}
	var dial dialFunc
	switch cfg.Type {
	case config.ExtensionStdio:
		cmd, err := m.stdioCommand(cfg, cfg.Cmd, cfg.Args)
		if err != nil {
			return nil, err
		}
		k.Path, k.Args, k.Env, k.Dir = cmd.Path, cmd.Args, cmd.Env, cmd.Dir
		dial = func(ctx context.Context, c *conn) (*extension, error) {
			base := &extension{cfg: cfg, key: key}
			return base, m.initialize(ctx, base, m.commandTransport(base, cmd), m.sharedClient(c))
		}
	default:
		headers, err := m.httpHeaders(cfg)
		if err != nil {
			return nil, err
		}
		k.URI = cfg.URI
		for _, h := range slices.Sorted(maps.Keys(headers)) {
			k.Headers = append(k.Headers, [2]string{http.CanonicalHeaderKey(h), headers[h]})
		}
		sse := cfg.Type == config.ExtensionSSE
		dial = func(ctx context.Context, c *conn) (*extension, error) {
			base := &extension{cfg: cfg, key: key}
			return base, m.initialize(ctx, base, httpClientTransport(cfg.URI, headers, sse), m.sharedClient(c))
		}
	}
	c, err := m.opts.Shared.acquire(ctx, k.String(), time.Duration(cfg.TimeoutSeconds())*time.Second, dial)
	if err != nil {
		return nil, err
	}
	b := c.base
	e := &extension{cfg: cfg, key: key, conn: c, mgr: m, session: b.session,
		instructions: b.instructions, hasResources: b.hasResources, hasPrompts: b.hasPrompts}
	c.mu.Lock()
	c.attached = append(c.attached, e)
	c.mu.Unlock()
	return e, nil
}

// acquire takes a reference on the connection for key, connecting when
// there is none (or only a dead one) and waiting for a connect in
// progress.
func (s *Shared) acquire(ctx context.Context, key string, timeout time.Duration, dial dialFunc) (*conn, error) {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil, ErrClosed
	}
	c := s.conns[key]
	if c != nil && c.dead.Load() {
		delete(s.conns, key)
		c = nil
	}
	if c == nil {
		c = &conn{s: s, key: key, ready: make(chan struct{})}
		// The connect belongs to every session waiting for it, so it runs
		// under the registry's context, not the first caller's.
		dctx, cancel := context.WithTimeout(s.ctx, timeout)
		c.cancel = cancel
		s.conns[key] = c
		s.all[c] = struct{}{}
		s.wg.Go(func() { c.connect(dctx, dial) })
	}
	c.refs++
	s.mu.Unlock()
	select {
	case <-c.ready:
	case <-ctx.Done():
		s.release(c)
		return nil, ctx.Err()
	}
	if c.err != nil {
		s.release(c)
		return nil, c.err
	}
	return c, nil
}

func (c *conn) connect(ctx context.Context, dial dialFunc) {
	base, err := dial(ctx, c)
	c.cancel()
	if err != nil && base != nil {
		base.close()
	}
	if err != nil {
		base = nil
	}
	s := c.s
	s.mu.Lock()
	c.base, c.err, c.done = base, err, true
	if err != nil && s.conns[c.key] == c {
		delete(s.conns, c.key)
	}
	if err != nil {
		delete(s.all, c)
	}
	abandoned := err == nil && (c.refs == 0 || s.closed)
	if err == nil {
		s.wg.Go(func() {
			_ = base.session.Wait()
			c.dead.Store(true)
		})
	}
	s.mu.Unlock()
	close(c.ready)
	if abandoned {
		c.shutdown()
	}
}

// release drops a reference; the last one closes the connection (or stops
// its connect).
func (s *Shared) release(c *conn) {
	s.mu.Lock()
	c.refs--
	last := c.refs == 0
	if last && s.conns[c.key] == c {
		delete(s.conns, c.key)
	}
	shut := last && c.done
	if last && !c.done {
		c.cancel()
	}
	s.mu.Unlock()
	if shut {
		c.shutdown()
	}
}

func (c *conn) shutdown() {
	c.once.Do(func() {
		c.s.mu.Lock()
		delete(c.s.all, c)
		base := c.base
		c.s.mu.Unlock()
		if base != nil {
			base.close()
		}
	})
}

// detach removes a manager's extension and releases its reference.
func (c *conn) detach(e *extension) {
	c.mu.Lock()
	c.attached = slices.DeleteFunc(c.attached, func(x *extension) bool { return x == e })
	c.recent = slices.DeleteFunc(c.recent, func(t tokenRef) bool { return t.ref.e == e })
	c.mu.Unlock()
	c.s.release(c)
}

func (c *conn) extensions() []*extension {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.attached)
}

// begin registers a call and returns its progress token: the call id,
// made unique on the connection when another session runs a call of the
// same id.
func (c *conn) begin(e *extension, id string) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.calls == nil {
		c.calls = map[string]callRef{}
	}
	token := uniqueKey(id, func(t string) bool { _, ok := c.calls[t]; return ok })
	c.calls[token] = callRef{id: id, e: e}
	return token
}

func (c *conn) end(token string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	ref, ok := c.calls[token]
	if !ok {
		return
	}
	delete(c.calls, token)
	c.recent = append(c.recent, tokenRef{token, ref})
	if len(c.recent) > recentCalls {
		c.recent = slices.Delete(c.recent, 0, len(c.recent)-recentCalls)
	}
}

// byToken finds the call a progress token belongs to, running or recently
// ended.
func (c *conn) byToken(token string) (callRef, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if ref, ok := c.calls[token]; ok {
		return ref, true
	}
	for i := len(c.recent) - 1; i >= 0; i-- {
		if c.recent[i].token == token {
			return c.recent[i].ref, true
		}
	}
	if len(c.attached) == 1 && token != "" {
		return callRef{id: token, e: c.attached[0]}, true
	}
	return callRef{}, false
}

// route picks the extension a server request belongs to: the one running
// the call named by _meta's tool call id, else the one running the only
// call on the connection, else the only one attached.
func (c *conn) route(meta mcp.Meta) *extension {
	c.mu.Lock()
	defer c.mu.Unlock()
	if id, ok := meta[MetaToolCallID].(string); ok {
		var found *extension
		n := 0
		for _, ref := range c.calls {
			if ref.id == id {
				found = ref.e
				n++
			}
		}
		if n == 1 {
			return found
		}
	}
	if len(c.calls) == 1 {
		for _, ref := range c.calls {
			return ref.e
		}
	}
	if len(c.attached) == 1 {
		return c.attached[0]
	}
	return nil
}

// sharedClient is the MCP client of a shared connection: its handlers
// route server traffic to the attached managers.
func (m *Manager) sharedClient(c *conn) *mcp.Client {
	opts := &mcp.ClientOptions{
		Logger: m.log,
		ProgressNotificationHandler: func(_ context.Context, r *mcp.ProgressNotificationClientRequest) {
			token, _ := r.Params.ProgressToken.(string)
			if ref, ok := c.byToken(token); ok {
				ref.e.mgr.forward(ref.e, ref.id, "notifications/progress", r.Params)
			}
		},
		LoggingMessageHandler: func(_ context.Context, r *mcp.LoggingMessageRequest) {
			for _, e := range c.extensions() {
				e.mgr.forward(e, "", "notifications/message", r.Params)
			}
		},
		ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) {
			for _, e := range c.extensions() {
				e.markToolsChanged()
				e.mgr.version.Add(1)
			}
		},
		ElicitationHandler: func(ctx context.Context, r *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			e := c.route(r.Params.Meta)
			if e == nil {
				return nil, ErrElicitationUnavailable
			}
			return e.mgr.elicit(ctx, e, r.Params)
		},
		// The flow's end goes to every session on the connection: only
		// the one that opened it shows it.
		ElicitationCompleteHandler: func(_ context.Context, r *mcp.ElicitationCompleteNotificationRequest) {
			for _, e := range c.extensions() {
				e.mgr.elicitComplete(e, r.Params)
			}
		},
	}
	if m.opts.Hooks.Sample != nil {
		opts.CreateMessageHandler = func(ctx context.Context, r *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
			e := c.route(r.Params.Meta)
			if e == nil || e.mgr.opts.Hooks.Sample == nil {
				return nil, ErrSamplingUnavailable
			}
			return e.mgr.opts.Hooks.Sample(ctx, e.getKey(), r.Params)
		}
	}
	return m.mcpClient(opts)
}
