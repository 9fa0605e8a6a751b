package httpapi

import (
	"context"
	"crypto/subtle"
	"io"
	"log/slog"
	"net/http"
	"path/filepath"
	"sync"
	"time"

	"github.com/goose-acp/goose-acp/core/agent"
	"github.com/goose-acp/goose-acp/core/config"
	"github.com/goose-acp/goose-acp/core/provider/registry"
	"github.com/goose-acp/goose-acp/core/recipe"
	"github.com/goose-acp/goose-acp/core/schedule"
	"github.com/goose-acp/goose-acp/core/setup"
)

// Body limits goosed applies (axum DefaultBodyLimit).
const (
	ReplyBodyLimit   = 50 << 20
	ImportBodyLimit  = 25 << 20
	DefaultBodyLimit = 2 << 20
)

// DefaultPingInterval is goosed's SSE heartbeat period.
const DefaultPingInterval = 500 * time.Millisecond

// Options configure a Server. Agent and Store are required; a nil Config
// makes the /config routes answer 503 JSON errors.
type Options struct {
	Agent *agent.Agent
	// Store is read-only: every change goes through Agent.
	Store  agent.SessionReader
	Config *config.Config
	// Setup is provider set-up (core/setup, the ACP face's too): the
	// provider list, whether each is configured, live model lists and the
	// default provider (default: one over Config, reading no environment;
	// nil Config → those routes answer 503).
	Setup *setup.Setup
	// Scheduler backs /schedule/*; nil → those routes answer 503.
	Scheduler *schedule.Scheduler
	// CustomProviders keeps /config/custom-providers (default: the files
	// of <ConfigDir>/custom_providers, keys in Config's secret store).
	CustomProviders *registry.CustomStore
	// Recipes is the saved-recipe library of /recipes/* (default:
	// <ConfigDir>/recipes with Config's slash commands).
	Recipes *recipe.Library

	SecretKey                    string
	ConfigDir, DataDir, StateDir string
	Version                      string
	Logger                       *slog.Logger
	Clock                        func() time.Time
	// ACP serves /acp (ACP over WebSocket and streamable HTTP, given by
	// cmd: httpapi imports no ACP package); nil → 404. It gets the request
	// after the secret check, with its body unbounded: it bounds its own
	// messages. Its owner closes it.
	ACP http.Handler
	// PingInterval is the SSE heartbeat period (default 500 ms).
	PingInterval time.Duration
}

// Server is goosed's HTTP API. It implements http.Handler.
type Server struct {
	opts    Options
	log     *slog.Logger
	handler http.Handler
	mux     *http.ServeMux

	// ctx is cancelled by Close; every background turn derives from it.
	ctx    context.Context
	cancel context.CancelFunc
	turns  sync.WaitGroup

	buses *buses
}

// New returns a Server with every route mounted.
func New(opts Options) *Server {
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if opts.Clock == nil {
		opts.Clock = time.Now
	}
	if opts.PingInterval <= 0 {
		opts.PingInterval = DefaultPingInterval
	}
	if opts.Version == "" {
		opts.Version = "dev"
	}
	opts = withStores(opts)
	s := &Server{opts: opts, log: opts.Logger, mux: http.NewServeMux(), buses: newBuses()}
	s.ctx, s.cancel = context.WithCancel(context.Background())
	for _, r := range s.routes() {
		s.mux.Handle(r.method+" "+r.path, limitBody(r.limit, r.handler))
	}
	s.handler = cors(s.auth(s.mux))
	return s
}

// Handler returns the server as an http.Handler (middleware included).
func (s *Server) Handler() http.Handler { return s.handler }

// ServeHTTP implements http.Handler.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.handler.ServeHTTP(w, r) }

// Close cancels every in-flight turn started through the events API and
// waits for them to finish.
func (s *Server) Close() error {
	s.cancel()
	s.buses.cancelAll()
	s.turns.Wait()
	return nil
}

// authExempt are the paths goosed's check_token lets through (matched
// exactly); the proxy routes check ?secret= themselves.
var authExempt = map[string]bool{
	"/status": true, "/features": true, "/mcp-ui-proxy": true, "/mcp-app-proxy": true, "/mcp-app-guest": true,
}

// auth is goosed's check_token: X-Secret-Key compared in constant time,
// 401 with an empty body otherwise.
func (s *Server) auth(next http.Handler) http.Handler {
	secret := []byte(s.opts.SecretKey)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if authExempt[r.URL.Path] || (r.URL.Path == "/acp" && s.querySecretOK(r)) {
			next.ServeHTTP(w, r)
			return
		}
		got := []byte(r.Header.Get("X-Secret-Key"))
		if len(secret) == 0 || subtle.ConstantTimeCompare(got, secret) != 1 {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// querySecretOK checks ?secret= (browsers cannot set headers on a
// WebSocket handshake or an iframe URL).
func (s *Server) querySecretOK(r *http.Request) bool {
	got := []byte(r.URL.Query().Get("secret"))
	return len(s.opts.SecretKey) > 0 && subtle.ConstantTimeCompare(got, []byte(s.opts.SecretKey)) == 1
}

// cors is tower-http's CorsLayer with any origin, method and header:
// preflights are answered here (before auth), other responses get
// Access-Control-Allow-Origin: *.
func cors(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		// Canonical keys assigned directly: this runs on every request.
		h["Access-Control-Allow-Origin"] = []string{"*"}
		h["Vary"] = []string{"origin, access-control-request-method, access-control-request-headers"}
		if r.Method == http.MethodOptions && r.Header.Get("Access-Control-Request-Method") != "" {
			h["Access-Control-Allow-Methods"] = []string{"*"}
			h["Access-Control-Allow-Headers"] = []string{"*"}
			w.WriteHeader(http.StatusOK)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// limitBody caps the request body; reading past it fails and decodeJSON
// answers 413. A negative n leaves the body to the handler.
func limitBody(n int64, h http.Handler) http.Handler {
	if n < 0 {
		return h
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Body != nil && r.Body != http.NoBody {
			r = replaceBody(r, &limitedBody{ReadCloser: http.MaxBytesReader(w, r.Body, n), limit: n})
		}
		h.ServeHTTP(w, r)
	})
}

// limitedBody is a body under limitBody's cap.
type limitedBody struct {
	io.ReadCloser
	limit int64
}

// bodyOverLimit is the 413 error for a request whose Content-Length is
// over its route's cap (nil otherwise): such a body is refused before any
// of it is read (a rejected 60 MB upload used to be buffered up to the
// cap first).
func bodyOverLimit(r *http.Request) error {
	if lb, ok := r.Body.(*limitedBody); ok && r.ContentLength > lb.limit {
		return &http.MaxBytesError{Limit: lb.limit}
	}
	return nil
}

// withStores fills the file-backed stores the options leave nil.
func withStores(opts Options) Options {
	if opts.CustomProviders == nil {
		var secrets registry.SecretStore
		if opts.Config != nil {
			secrets = opts.Config.Secrets()
		}
		opts.CustomProviders = registry.NewCustomStore(filepath.Join(opts.ConfigDir, "custom_providers"), secrets)
	}
	if opts.Setup == nil && opts.Config != nil {
		opts.Setup = setup.New(setup.Options{Config: opts.Config, Logger: opts.Logger})
	}
	if opts.Recipes == nil {
		opts.Recipes = &recipe.Library{Dir: filepath.Join(opts.ConfigDir, "recipes"), Logger: opts.Logger}
		if opts.Config != nil {
			opts.Recipes.Config = opts.Config
		}
	}
	return opts
}
