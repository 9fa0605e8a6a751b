package agent

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/google/uuid"

	"github.com/goose-acp/goose-acp/core/errkind"
	"github.com/goose-acp/goose-acp/core/extension"
	"github.com/goose-acp/goose-acp/core/model"
	"github.com/goose-acp/goose-acp/core/permission"
	"github.com/goose-acp/goose-acp/core/plugins"
	"github.com/goose-acp/goose-acp/core/provider"
	"github.com/goose-acp/goose-acp/core/session"
)

// Sentinel errors adapters branch on.
var (
	ErrSessionBusy       = errkind.New(errkind.Busy, "session is busy with another turn")
	ErrSessionNotLoaded  = errkind.New(errkind.NotReady, "session not loaded")
	ErrNoPendingRequest  = errkind.New(errkind.NotFound, "no pending request with this id")
	ErrNoProvider        = errkind.New(errkind.AuthRequired, "no provider configured")
	ErrAgentClosed       = errkind.New(errkind.Unavailable, "agent closed")
	ErrUnknownExtension  = errkind.New(errkind.NotFound, "unknown extension")
	ErrNoFrontendResult  = errors.New("frontend tool result not delivered")
	ErrElicitationFailed = errors.New("elicitation failed")
)

// ProviderFactory builds a provider by name with a model config. An empty
// name means the configured default (GOOSE_PROVIDER).
type ProviderFactory func(ctx context.Context, name string, cfg model.Config) (provider.Provider, error)

// ConfigReader reads goose config keys (config.yaml with uppercase env
// overrides) and secrets.
type ConfigReader interface {
	Get(key string) (any, bool)
	Secret(key string) (string, bool)
}

// Options configure an Agent. Store and Providers are required.
type Options struct {
	Store       session.Store
	Providers   ProviderFactory
	Config      ConfigReader
	Permissions permission.Store
	// Builtins are the in-process MCP servers builtin extensions name
	// ("developer" → developer.NewServer).
	Builtins map[string]extension.BuiltinFactory
	// Platforms override or extend the platform extensions (todo,
	// extensionmanager, chatrecall are provided by default).
	Platforms map[string]extension.PlatformFactory
	// Clock and NewID are injected for stable tests; both must be safe
	// for concurrent use (tool calls and elicitations run in parallel).
	Clock  func() time.Time
	NewID  func() string
	Logger *slog.Logger
	// ConfigDir is goose's config directory (global hints live there).
	// DataDir is goose's data directory (kept for adapters; the store owns
	// the sessions).
	DataDir, ConfigDir string
	// TempDir receives large tool outputs (default os.TempDir()).
	TempDir string
	// Getenv reads the process environment (default os.Getenv); used for
	// ${VAR} substitution in extension headers.
	Getenv func(string) string
	// ClientVersion is sent to MCP servers.
	ClientVersion string
	// ElicitationTimeout bounds each elicitation wait (default 300 s).
	ElicitationTimeout time.Duration
	// Plugins finds the user's and each session's project plugins (their
	// hooks, MCP servers and skills); nil runs no plugins.
	Plugins *plugins.Env
}

// Agent runs goose's reply loop for any number of sessions.
type Agent struct {
	opts Options
	log  *slog.Logger
	cfg  settings
	exts extensionConfigs
	// sub runs the sessions a session starts itself (delegate, sub-recipes).
	sub subagents

	// bgCtx bounds background work (session naming); Close cancels it
	// and waits for bg.
	bgCtx    context.Context
	bgCancel context.CancelFunc
	bg       sync.WaitGroup
	// ending holds the SessionEnd hooks still running; Close waits for
	// them (they are not cancelled with bgCtx).
	ending sync.WaitGroup

	// shared holds the stdio/HTTP extension connections that sessions
	// with identical configs share (each keeps its own permissions).
	shared *extension.Shared

	mu       sync.Mutex
	sessions map[string]*sessionState
	closed   bool
}

// New returns an Agent.
func New(opts Options) *Agent {
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if opts.Clock == nil {
		opts.Clock = time.Now
	}
	if opts.NewID == nil {
		opts.NewID = uuid.NewString
	}
	if opts.Config == nil {
		opts.Config = noConfig{}
	}
	if opts.ElicitationTimeout <= 0 {
		opts.ElicitationTimeout = DefaultElicitationTimeout
	}
	if opts.Getenv == nil {
		opts.Getenv = func(string) string { return "" }
	}
	if opts.Store != nil {
		opts.Store = newConvStore(opts.Store)
	}
	a := &Agent{opts: opts, log: opts.Logger, cfg: settings{opts.Config, opts.Getenv},
		exts: extensionConfigs{opts.Config, opts.Builtins, opts.Logger}, sessions: map[string]*sessionState{}, shared: extension.NewShared()}
	a.sub = subagents{a}
	a.bgCtx, a.bgCancel = context.WithCancel(context.Background())
	return a
}

// Close closes every session's extensions.
func (a *Agent) Close() error {
	a.mu.Lock()
	a.closed = true
	ss := make([]*sessionState, 0, len(a.sessions))
	for _, s := range a.sessions {
		ss = append(ss, s)
	}
	a.sessions = map[string]*sessionState{}
	a.mu.Unlock()
	for _, s := range ss {
		s.plugins.end(a, s)
		s.close()
	}
	a.bgCancel()
	a.bg.Wait()
	a.ending.Wait()
	return a.shared.Close()
}

// Wait blocks until background work (session naming) has finished.
func (a *Agent) Wait() { a.bg.Wait() }

func (a *Agent) session(id string) (*sessionState, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	s, ok := a.sessions[id]
	if !ok {
		return nil, fmt.Errorf("%w: %s", ErrSessionNotLoaded, id)
	}
	return s, nil
}

func (a *Agent) now() time.Time { return a.opts.Clock() }

func (a *Agent) msgID() string { return "msg_" + a.opts.NewID() }

type noConfig struct{}

func (noConfig) Get(string) (any, bool)       { return nil, false }
func (noConfig) Secret(string) (string, bool) { return "", false }
