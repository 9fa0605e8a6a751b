package extension

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"path/filepath"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/goose-acp/goose-acp/core/config"
)

// ErrUnsupported is returned for extension configs that cannot be connected.
var ErrUnsupported = errors.New("unsupported extension")

func (m *Manager) connect(ctx context.Context, cfg config.ExtensionConfig, key string) (*extension, error) {
	if m.opts.Shared != nil && shareable(cfg.Type) {
		return m.connectShared(ctx, cfg, key)
	}
	e := &extension{cfg: cfg, key: key}
	timeout := time.Duration(cfg.TimeoutSeconds()) * time.Second
	cctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	var (
		t   mcp.Transport
		err error
	)
	switch cfg.Type {
	case config.ExtensionFrontend:
		e.instructions = cfg.Instructions
		if e.instructions == "" {
			e.instructions = FrontendInstructions
		}
		return e, nil
	case config.ExtensionPlatform:
		t, err = m.platformTransport(cctx, e)
	case config.ExtensionBuiltin:
		t, err = m.builtinTransport(cctx, e)
	case config.ExtensionStdio:
		t, err = m.stdioTransport(e, cfg.Cmd, cfg.Args)
	case config.ExtensionInlinePython:
		t, err = m.inlinePythonTransport(e)
	case config.ExtensionStreamableHTTP:
		t, err = m.httpTransport(cfg, false)
	case config.ExtensionSSE:
		t, err = m.httpTransport(cfg, true)
	default:
		err = fmt.Errorf("%w type %q", ErrUnsupported, cfg.Type)
	}
	if err != nil {
		e.close()
		return nil, err
	}
	if e.direct != nil {
		return e, nil // called directly: no MCP session to initialize
	}
	if err := m.initialize(cctx, e, t, m.newClient(e)); err != nil {
		e.close()
		return nil, err
	}
	return e, nil
}

// initialize connects client over t and records the server's
// instructions and capabilities on e (setting the log level of servers
// that log).
func (m *Manager) initialize(ctx context.Context, e *extension, t mcp.Transport, client *mcp.Client) error {
	cs, err := client.Connect(ctx, t, &mcp.ClientSessionOptions{ProtocolVersion: m.opts.ProtocolVersion})
	if err != nil {
		if et, ok := t.(*exitTransport); ok && et.stderr.Tail() != "" {
			return fmt.Errorf("process quit before initialization: stderr = %s: %w", et.stderr.Tail(), err)
		}
		return fmt.Errorf("connecting: %w", err)
	}
	e.session = cs
	if r := cs.InitializeResult(); r != nil {
		if e.instructions == "" {
			e.instructions = r.Instructions
		}
		if c := r.Capabilities; c != nil {
			e.hasResources = c.Resources != nil
			e.hasPrompts = c.Prompts != nil
			if c.Logging != nil {
				m.enableLogging(ctx, e, cs)
			}
		}
	}
	return nil
}

// LogLevel is the level we ask logging servers for. go-sdk servers (our
// developer extension among them) send no notifications/message until a
// level is set; the developer's live shell output travels that way.
const LogLevel = "info"

func (m *Manager) enableLogging(ctx context.Context, e *extension, cs *mcp.ClientSession) {
	if err := cs.SetLoggingLevel(ctx, &mcp.SetLoggingLevelParams{Level: LogLevel}); err != nil {
		m.log.Debug("setting the log level failed", "extension", e.cfg.Name, "error", err)
	}
}

// FrontendInstructions is goose's text for frontend extensions without
// instructions of their own.
const FrontendInstructions = "The following tools are provided directly by the frontend and will be executed by the frontend when called."

func (m *Manager) env(withManager bool) Env {
	env := Env{SessionID: m.opts.SessionID, WorkingDir: m.opts.WorkingDir, Logger: m.log, Config: m.opts.Config,
		Checkpoints: m.opts.Checkpoints, Progress: m.progress}
	if withManager {
		env.Manager = m
	}
	return env
}

func (m *Manager) platformTransport(ctx context.Context, e *extension) (mcp.Transport, error) {
	f, ok := m.opts.Platforms[e.key]
	if !ok {
		// goose ≥ 1.2x writes "developer" as a platform extension; ours is
		// an in-process builtin server, so a platform entry naming a
		// builtin connects to that builtin.
		if _, isBuiltin := m.opts.Builtins[e.key]; isBuiltin {
			return m.builtinTransport(ctx, e)
		}
		return nil, fmt.Errorf("%w: unknown platform extension %q", ErrUnsupported, e.cfg.Name)
	}
	p, err := f(ctx, m.env(true))
	if err != nil {
		return nil, err
	}
	if p.Server == nil {
		return nil, fmt.Errorf("platform extension %q has no server", e.cfg.Name)
	}
	e.moim = p.MOIM
	e.offer = p.Offer
	e.instructions = p.Instructions
	if p.Close != nil {
		e.closers = append(e.closers, p.Close)
	}
	e.connectDirect(p.Server)
	return nil, nil
}

func (m *Manager) builtinTransport(ctx context.Context, e *extension) (mcp.Transport, error) {
	f, ok := m.opts.Builtins[e.key]
	if !ok {
		// goose's --with-builtin takes platform extensions' names too
		// (builtin_to_extension_config): such an entry is that platform
		// extension.
		if _, isPlatform := m.opts.Platforms[e.key]; isPlatform {
			return m.platformTransport(ctx, e)
		}
		return nil, fmt.Errorf("%w: unknown builtin extension %q", ErrUnsupported, e.cfg.Name)
	}
	s, err := f(ctx, m.env(false))
	if err != nil {
		return nil, err
	}
	switch {
	case s.direct != nil:
		e.connectDirect(s.direct)
		return nil, nil
	case s.mcp != nil:
		return m.inMemory(ctx, e, s.mcp)
	}
	return nil, fmt.Errorf("builtin extension %q has no server", e.cfg.Name)
}

// inMemory connects a server session of s over the channel transport and
// returns the client's end.
func (m *Manager) inMemory(ctx context.Context, e *extension, s *mcp.Server) (mcp.Transport, error) {
	ct, st := newInProcessTransports()
	ss, err := s.Connect(ctx, st, nil)
	if err != nil {
		return nil, fmt.Errorf("starting in-process server: %w", err)
	}
	e.closers = append(e.closers, func() {
		_ = ss.Close()
		_ = ss.Wait()
	})
	return ct, nil
}

func (m *Manager) httpTransport(cfg config.ExtensionConfig, sse bool) (mcp.Transport, error) {
	headers, err := m.httpHeaders(cfg)
	if err != nil {
		return nil, err
	}
	return httpClientTransport(cfg.URI, headers, sse), nil
}

// httpHeaders checks the uri and resolves the headers (${VAR} from the
// extension's envs and secrets, then the environment).
func (m *Manager) httpHeaders(cfg config.ExtensionConfig) (map[string]string, error) {
	if _, err := url.Parse(cfg.URI); err != nil || cfg.URI == "" {
		return nil, fmt.Errorf("invalid uri %q", cfg.URI)
	}
	vars, err := m.extensionEnv(cfg)
	if err != nil {
		return nil, err
	}
	headers := map[string]string{}
	for k, v := range cfg.Headers {
		headers[k] = substitute(v, vars, m.getenv)
	}
	return headers, nil
}

func httpClientTransport(uri string, headers map[string]string, sse bool) mcp.Transport {
	client := &http.Client{Transport: &headerTransport{base: http.DefaultTransport, headers: headers}}
	if sse {
		return detached{&mcp.SSEClientTransport{Endpoint: uri, HTTPClient: client}}
	}
	return &mcp.StreamableClientTransport{Endpoint: uri, HTTPClient: client, MaxRetries: 1}
}

// detached connects with a context that outlives the connect timeout:
// the SSE transport ties its long-lived GET stream to the Connect context.
type detached struct{ mcp.Transport }

func (d detached) Connect(ctx context.Context) (mcp.Connection, error) {
	return d.Transport.Connect(context.WithoutCancel(ctx))
}

type headerTransport struct {
	base    http.RoundTripper
	headers map[string]string
}

func (h *headerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if len(h.headers) > 0 {
		r = r.Clone(r.Context())
		for k, v := range h.headers {
			r.Header.Set(k, v)
		}
	}
	return h.base.RoundTrip(r)
}

func (m *Manager) getenv(k string) string {
	if m.opts.Getenv == nil {
		return ""
	}
	return m.opts.Getenv(k)
}

// newClient builds the MCP client for one extension with its handlers.
func (m *Manager) newClient(e *extension) *mcp.Client {
	opts := &mcp.ClientOptions{
		Logger: m.log,
		ProgressNotificationHandler: func(_ context.Context, r *mcp.ProgressNotificationClientRequest) {
			id, _ := r.Params.ProgressToken.(string)
			m.forward(e, id, "notifications/progress", r.Params)
		},
		LoggingMessageHandler: func(_ context.Context, r *mcp.LoggingMessageRequest) {
			m.forward(e, "", "notifications/message", r.Params)
		},
		ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) {
			e.markToolsChanged()
			m.version.Add(1)
		},
		ElicitationHandler: func(ctx context.Context, r *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			return m.elicit(ctx, e, r.Params)
		},
		ElicitationCompleteHandler: func(_ context.Context, r *mcp.ElicitationCompleteNotificationRequest) {
			m.elicitComplete(e, r.Params)
		},
	}
	if m.opts.Hooks.Sample != nil {
		opts.CreateMessageHandler = func(ctx context.Context, r *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
			return m.opts.Hooks.Sample(ctx, e.getKey(), r.Params)
		}
	}
	return m.mcpClient(opts)
}

// mcpClient is our MCP client with opts, announcing the working dir as
// its root, and URL-mode elicitation beside forms when the session's user
// can be sent to a URL (Options.ElicitURL).
func (m *Manager) mcpClient(opts *mcp.ClientOptions) *mcp.Client {
	if m.opts.ElicitURL {
		opts.Capabilities = &mcp.ClientCapabilities{
			RootsV2: &mcp.RootCapabilities{ListChanged: true},
			Elicitation: &mcp.ElicitationCapabilities{
				Form: &mcp.FormElicitationCapabilities{}, URL: &mcp.URLElicitationCapabilities{},
			},
		}
	}
	c := mcp.NewClient(&mcp.Implementation{Name: m.opts.ClientName, Version: m.opts.ClientVersion}, opts)
	if wd := m.opts.WorkingDir; wd != "" {
		u := url.URL{Scheme: "file", Path: filepath.ToSlash(wd)}
		c.AddRoots(&mcp.Root{URI: u.String(), Name: "working_directory"})
	}
	return c
}

// forward sends a notification to the call it belongs to: the progress
// token when there is one, else every call running on the extension.
func (m *Manager) forward(e *extension, callID, method string, params any) {
	if m.opts.Hooks.Notify == nil {
		return
	}
	raw, err := json.Marshal(params)
	if err != nil {
		return
	}
	n := Notification{Extension: e.getKey(), Method: method, Params: raw}
	if callID != "" {
		m.opts.Hooks.Notify(callID, n)
		return
	}
	for _, id := range e.activeCalls() {
		m.opts.Hooks.Notify(id, n)
	}
}

// ErrElicitationUnavailable is returned to servers when nobody can answer.
var ErrElicitationUnavailable = errors.New("elicitation is not available in this session")

func (m *Manager) elicit(ctx context.Context, e *extension, p *mcp.ElicitParams) (*mcp.ElicitResult, error) {
	if m.opts.Hooks.Elicit == nil {
		return nil, ErrElicitationUnavailable
	}
	req := ElicitRequest{Extension: e.getKey(), Message: p.Message, Mode: "form"}
	if p.Mode == "url" || (p.Mode == "" && (p.URL != "" || p.ElicitationID != "")) {
		if !m.opts.ElicitURL {
			// We never said we take URL mode: nobody can open it.
			return &mcp.ElicitResult{Action: "decline"}, nil
		}
		req.Mode, req.URL, req.ElicitationID = "url", p.URL, p.ElicitationID
	} else {
		req.Schema, _ = json.Marshal(p.RequestedSchema)
	}
	if id, ok := p.Meta[MetaToolCallID].(string); ok {
		req.CallID = id
	} else if calls := e.activeCalls(); len(calls) == 1 {
		req.CallID = calls[0]
	}
	resp, err := m.opts.Hooks.Elicit(ctx, req)
	if err != nil {
		return nil, err
	}
	return &mcp.ElicitResult{Action: resp.Action, Content: resp.Content}, nil
}

// elicitComplete passes a server's end of a URL-mode flow on.
func (m *Manager) elicitComplete(e *extension, p *mcp.ElicitationCompleteParams) {
	if m.opts.Hooks.ElicitComplete != nil && p != nil && p.ElicitationID != "" {
		m.opts.Hooks.ElicitComplete(e.getKey(), p.ElicitationID)
	}
}
