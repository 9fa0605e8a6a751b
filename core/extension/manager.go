package extension

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"slices"
	"sort"
	"sync"
	"sync/atomic"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/goose-acp/goose-acp/core/checkpoint"
	"github.com/goose-acp/goose-acp/core/config"
	"github.com/goose-acp/goose-acp/core/errkind"
	"github.com/goose-acp/goose-acp/core/extension/inproc"
	"github.com/goose-acp/goose-acp/core/provider"
	"github.com/goose-acp/goose-acp/core/toolinfo"

	"github.com/goose-acp/goose-acp/internal/deepstack"
)

// Sentinel errors callers branch on.
var (
	ErrToolNotFound      = errkind.New(errkind.NotFound, "tool not found")
	ErrExtensionNotFound = errkind.New(errkind.NotFound, "extension not found")
	ErrFrontendTool      = errors.New("Frontend tool execution required")
	ErrClosed            = errkind.New(errkind.Unavailable, "extension manager closed")
)

// Tool is one tool as the agent sees it.
type Tool struct {
	// Name is the name the model sees: "<extension>__<tool>", or the
	// tool's own name for goose's first-class extensions (Unprefixed).
	Name string
	// Extension is the owning extension's key and Local the tool's name
	// on that extension's server.
	Extension   string
	Local       string
	Description string
	InputSchema json.RawMessage
	Annotations *provider.ToolAnnotations
	// Info is the kind and argument roles the tool declares in its _meta
	// (toolinfo.Guess of its name when it declares none).
	Info toolinfo.Info
	// Frontend tools are executed by the client, never by Call.
	Frontend bool
	// AppURI is an MCP App tool's ui:// resource (its _meta.ui.resourceUri),
	// which a client renders with the tool's result.
	AppURI string
}

// ProviderTool returns the schema offered to the model.
func (t Tool) ProviderTool() provider.Tool {
	return provider.Tool{Name: t.Name, Description: t.Description, InputSchema: t.InputSchema, Annotations: t.Annotations}
}

// PrefixedName is "<extension>__<tool>": the name the model saw for this
// tool before goose 1.54 made the first-class extensions' tools bare, and
// the name permission.yaml entries of that time carry. It equals Name for
// every other tool.
func (t Tool) PrefixedName() string { return ToolName(t.Extension, t.Local) }

// ReadOnly reports the readOnlyHint annotation.
func (t Tool) ReadOnly() bool {
	return t.Annotations != nil && t.Annotations.ReadOnlyHint != nil && *t.Annotations.ReadOnlyHint
}

// Info describes a connected extension for the system prompt and the API.
type Info struct {
	Key          string
	Config       config.ExtensionConfig
	Instructions string
	HasResources bool
	HasPrompts   bool
}

// Result reports one extension's load outcome.
type Result struct {
	Name    string `json:"name"`
	Success bool   `json:"success"`
	Error   string `json:"error,omitempty"`
}

// Notification is an MCP server notification seen during a tool call.
type Notification struct {
	Extension string
	Method    string
	Params    json.RawMessage
}

// ElicitRequest is a server's elicitation/create, for the user.
type ElicitRequest struct {
	Extension string
	// CallID is the tool call it belongs to, when it can be told.
	CallID  string
	Message string
	// Schema is the requested schema of a form-mode request.
	Schema json.RawMessage
	// Mode is "form" or "url"; a URL-mode request sends the user to URL
	// (ElicitationID names the flow; the server reports its end with
	// notifications/elicitation/complete, Hooks.ElicitComplete).
	Mode, URL, ElicitationID string
}

// ElicitResponse is the user's answer.
type ElicitResponse struct {
	Action  string
	Content map[string]any
}

// Hooks connect server-initiated traffic to the agent. Any may be nil.
type Hooks struct {
	Notify func(callID string, n Notification)
	Elicit func(ctx context.Context, req ElicitRequest) (ElicitResponse, error)
	Sample func(ctx context.Context, extension string, p *mcp.CreateMessageParams) (*mcp.CreateMessageResult, error)
	// Progress receives what in-process tools report while they run
	// (Env.Progress).
	Progress func(p ToolProgress)
	// ElicitComplete reports a server's notifications/elicitation/complete:
	// the URL-mode flow elicitationID ended.
	ElicitComplete func(extension, elicitationID string)
}

// Env is what in-process server factories get.
type Env struct {
	SessionID  string
	WorkingDir string
	Logger     *slog.Logger
	// Manager is set for platform extensions, which may inspect or change
	// the session's extensions.
	Manager *Manager
	// Config looks a goose setting up (environment variable, else
	// config.yaml); nil when the host gave none. The developer extension
	// reads GOOSE_DEVELOPER_MODE through it.
	Config func(key string) (any, bool)
	// Checkpoints is the session's checkpoint book: a builtin that writes
	// files wraps its FileIO with Checkpoints.Wrap (nil-safe) so /rewind can
	// restore them.
	Checkpoints *checkpoint.Book
	// Progress reports a running tool's progress to the agent (see
	// ToolProgress); a builtin's own progress reporting calls it.
	Progress func(ctx context.Context, p ToolProgress)
}

// BuiltinFactory builds an in-process builtin extension (e.g. "developer"):
// Direct for one the manager calls directly, MCP for a go-sdk server it
// connects to.
type BuiltinFactory func(ctx context.Context, env Env) (Server, error)

// Platform is an in-process platform extension.
type Platform struct {
	// Server is the extension's tools, called directly. Its definitions
	// may be built once per process and bound to this session
	// (inproc.Server.With).
	Server *inproc.Server
	// Instructions, when not empty, are the extension's instructions for
	// this session instead of the server's (a shared server's are the same
	// for every session).
	Instructions string
	// MOIM, when set, contributes to the per-turn info message.
	MOIM func(ctx context.Context) string
	// Offer, when set, decides whether the session sees a tool of Server
	// (by its name on the server); it is asked again whenever the
	// session's set of extensions changes.
	Offer func(tool string) bool
	// Close, when set, runs when the extension is removed.
	Close func()
}

// PlatformFactory builds a platform extension.
type PlatformFactory func(ctx context.Context, env Env) (Platform, error)

// Options configure a Manager.
type Options struct {
	SessionID  string
	WorkingDir string
	Builtins   map[string]BuiltinFactory
	Platforms  map[string]PlatformFactory
	// Getenv and Secret resolve ${VAR} substitutions and env_keys.
	Getenv func(string) string
	Secret func(key string) (string, bool)
	// Config is handed to builtins and platform extensions as Env.Config.
	Config func(key string) (any, bool)
	Hooks  Hooks
	Logger *slog.Logger
	// ClientName/Version identify us to servers (default "goose").
	ClientName, ClientVersion string
	// TempDir holds inline_python scripts (default os.TempDir()).
	TempDir string
	// ProtocolVersion is the MCP version we ask for (default
	// DefaultProtocolVersion). 2026-07-28 drops server-sent elicitation
	// and logging inside tool calls, which goose-era servers rely on.
	ProtocolVersion string
	// Checkpoints is handed to builtins as Env.Checkpoints.
	Checkpoints *checkpoint.Book
	// Shared, when set, lets managers share one connection per identical
	// stdio, streamable_http and sse extension (see Shared); nil gives
	// every manager connections of its own.
	Shared *Shared
	// ElicitURL: the session's user can be sent to a URL (the client that
	// opened it handles URL-mode elicitation). Only then do servers hear
	// that we take elicitation mode "url"; a URL-mode request without it
	// is declined.
	ElicitURL bool
}

// DefaultProtocolVersion is the MCP protocol version requested by default.
const DefaultProtocolVersion = "2025-11-25"

// Manager is one session's set of extensions. Safe for concurrent use.
type Manager struct {
	opts    Options
	log     *slog.Logger
	version atomic.Int64

	wd atomic.Value // string: the working dir sent in _meta

	mu     sync.RWMutex
	exts   map[string]*extension // by key
	order  []string
	closed bool
}

// New returns an empty manager.
func New(opts Options) *Manager {
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if opts.ClientName == "" {
		opts.ClientName = "goose"
	}
	if opts.ProtocolVersion == "" {
		opts.ProtocolVersion = DefaultProtocolVersion
	}
	if opts.ClientVersion == "" {
		opts.ClientVersion = "1.0.0"
	}
	m := &Manager{opts: opts, log: opts.Logger, exts: map[string]*extension{}}
	m.wd.Store(opts.WorkingDir)
	return m
}

// SetWorkingDir changes the working dir later tool calls carry in _meta.
func (m *Manager) SetWorkingDir(dir string) { m.wd.Store(dir) }

// WorkingDir returns the current working dir.
func (m *Manager) WorkingDir() string { return m.wd.Load().(string) }

// Version increases whenever the set of tools may have changed; the agent
// rebuilds tools and the system prompt when it moves.
func (m *Manager) Version() int64 { return m.version.Load() }

// Add connects an extension. Adding a name that is already connected
// replaces nothing and succeeds (goose treats it as enabled).
func (m *Manager) Add(ctx context.Context, cfg config.ExtensionConfig) error {
	key := Normalize(cfg.Name)
	m.mu.RLock()
	if m.closed {
		m.mu.RUnlock()
		return ErrClosed
	}
	for _, e := range m.exts {
		if e.cfg.Name == cfg.Name {
			m.mu.RUnlock()
			return nil
		}
	}
	m.mu.RUnlock()
	e, err := m.connect(ctx, cfg, key)
	if err != nil {
		return fmt.Errorf("extension %q: %w", cfg.Name, err)
	}
	if !m.insert(e, cfg.Name, key) {
		e.close() // closed manager, or the same name added meanwhile
		if m.isClosed() {
			return ErrClosed
		}
		return nil
	}
	if e.direct != nil {
		// Listing costs no round trip: do it now, while the session's
		// extensions connect (in the background of session/new), rather
		// than in its first turn.
		e.listTools(ctx, m.log)
	}
	m.log.Info("extension connected", "extension", cfg.Name, "type", string(cfg.Type), "session", m.opts.SessionID)
	return nil
}

// insert registers a connected extension under a free key; false when the
// manager is closed or an extension of that name got there first.
func (m *Manager) insert(e *extension, name, key string) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return false
	}
	for _, other := range m.exts {
		if other.cfg.Name == name {
			return false
		}
	}
	e.key = uniqueKey(key, func(k string) bool { _, ok := m.exts[k]; return ok })
	if e.key != key {
		e.retag()
	}
	m.exts[e.key] = e
	m.order = append(m.order, e.key)
	m.extensionsChanged()
	return true
}

// extensionsChanged bumps Version and has the extensions that offer tools
// depending on the others list them again. Callers hold m.mu.
func (m *Manager) extensionsChanged() {
	for _, e := range m.exts {
		if e.offer != nil {
			e.retag()
		}
	}
	m.version.Add(1)
}

// HasResources reports whether some connected extension serves resources
// (goose 1.54 offers its resource tools only then).
func (m *Manager) HasResources() bool {
	m.mu.RLock()
	defer m.mu.RUnlock()
	for _, e := range m.exts {
		if e.hasResources {
			return true
		}
	}
	return false
}

// AddAll connects every config concurrently and reports each outcome in
// input order; failures never stop the others.
func (m *Manager) AddAll(ctx context.Context, cfgs []config.ExtensionConfig) []Result {
	return m.AddEach(ctx, cfgs, nil)
}

// AddEach is AddAll telling done (when set) each outcome as it comes.
func (m *Manager) AddEach(ctx context.Context, cfgs []config.ExtensionConfig, done func(Result)) []Result {
	out := make([]Result, len(cfgs))
	var wg sync.WaitGroup
	for i, c := range cfgs {
		wg.Go(func() {
			deepstack.Reserve() // a connect lists and converts tools: deep JSON
			out[i] = Result{Name: c.Name, Success: true}
			if err := m.Add(ctx, c); err != nil {
				m.log.Warn("extension failed to load", "extension", c.Name, "error", err)
				out[i] = Result{Name: c.Name, Error: err.Error()}
			}
			if done != nil {
				done(out[i])
			}
		})
	}
	wg.Wait()
	return out
}

// Remove disconnects the extension with this name (or key).
func (m *Manager) Remove(name string) error {
	m.mu.Lock()
	e := m.find(name)
	if e == nil {
		m.mu.Unlock()
		return fmt.Errorf("%w: %s", ErrExtensionNotFound, name)
	}
	delete(m.exts, e.key)
	m.order = slices.DeleteFunc(m.order, func(k string) bool { return k == e.key })
	m.extensionsChanged()
	m.mu.Unlock()
	e.close()
	return nil
}

func (m *Manager) find(name string) *extension {
	if e, ok := m.exts[name]; ok {
		return e
	}
	for _, e := range m.exts {
		if e.cfg.Name == name {
			return e
		}
	}
	if e, ok := m.exts[Normalize(name)]; ok {
		return e
	}
	return nil
}

// Has reports whether an extension with this name or key is connected.
func (m *Manager) Has(name string) bool {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return m.find(name) != nil
}

// Configs returns the connected extensions' configs in the order added.
func (m *Manager) Configs() []config.ExtensionConfig {
	m.mu.RLock()
	defer m.mu.RUnlock()
	out := make([]config.ExtensionConfig, 0, len(m.order))
	for _, k := range m.order {
		out = append(out, m.exts[k].cfg)
	}
	return out
}

// Extensions returns every connected extension, sorted by key.
func (m *Manager) Extensions() []Info {
	m.mu.RLock()
	defer m.mu.RUnlock()
	out := make([]Info, 0, len(m.exts))
	for _, e := range m.exts {
		out = append(out, Info{Key: e.key, Config: e.cfg, Instructions: e.instructions, HasResources: e.hasResources, HasPrompts: e.hasPrompts})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Key < out[j].Key })
	return out
}

// Tools returns every tool, extensions sorted by key (goose 1.54's lease
// order: the same tool list, in the same order, for every session with
// the same extensions, which prompt caching needs), refreshing any
// extension whose server announced a changed tool list. When two
// extensions offer one public name, the first keeps it.
func (m *Manager) Tools(ctx context.Context) []Tool {
	m.mu.RLock()
	keys := slices.Sorted(maps.Keys(m.exts))
	exts := make([]*extension, 0, len(keys))
	for _, k := range keys {
		exts = append(exts, m.exts[k])
	}
	m.mu.RUnlock()
	var out []Tool
	seen := map[string]bool{}
	for _, e := range exts {
		for _, t := range e.listTools(ctx, m.log) {
			if seen[t.Name] {
				m.log.Warn("duplicate tool name, keeping the earlier extension's", "tool", t.Name, "extension", t.Extension)
				continue
			}
			seen[t.Name] = true
			out = append(out, t)
		}
	}
	return out
}

// Tool returns the tool a name refers to (see Resolve: the public name,
// else an older prefixed name or a model's mangling of it).
func (m *Manager) Tool(ctx context.Context, name string) (Tool, bool) {
	return Resolve(m.Tools(ctx), name)
}

// MOIM returns the platform extensions' contributions to the info
// message, in key order.
func (m *Manager) MOIM(ctx context.Context) []string {
	m.mu.RLock()
	keys := slices.Sorted(func(yield func(string) bool) {
		for k := range m.exts {
			if !yield(k) {
				return
			}
		}
	})
	var fns []func(context.Context) string
	for _, k := range keys {
		if f := m.exts[k].moim; f != nil {
			fns = append(fns, f)
		}
	}
	m.mu.RUnlock()
	var out []string
	for _, f := range fns {
		if s := f(ctx); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// Close disconnects every extension (stdio children and their process
// groups are killed).
func (m *Manager) Close() error {
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return nil
	}
	m.closed = true
	exts := make([]*extension, 0, len(m.exts))
	for _, e := range m.exts {
		exts = append(exts, e)
	}
	m.exts = map[string]*extension{}
	m.order = nil
	m.mu.Unlock()
	var wg sync.WaitGroup
	for _, e := range exts {
		wg.Go(e.close)
	}
	wg.Wait()
	return nil
}

func (m *Manager) isClosed() bool {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return m.closed
}

func (m *Manager) get(key string) (*extension, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	if m.closed {
		return nil, ErrClosed
	}
	e := m.find(key)
	if e == nil {
		return nil, fmt.Errorf("%w: %s", ErrExtensionNotFound, key)
	}
	return e, nil
}
