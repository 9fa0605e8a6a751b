package acp

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sourcegraph/jsonrpc2"

	"github.com/goose-acp/goose-acp/acp/handshake"
	"github.com/goose-acp/goose-acp/acp/jsonrpc"
	"github.com/goose-acp/goose-acp/core/agent"
	"github.com/goose-acp/goose-acp/core/provider"
	"github.com/goose-acp/goose-acp/core/recipe"
	"github.com/goose-acp/goose-acp/core/schedule"
	"github.com/goose-acp/goose-acp/developer"

	"github.com/goose-acp/goose-acp/internal/deepstack"
)

// Options configure the ACP server.
type Options struct {
	Agent *agent.Agent
	// Store is read-only: every change goes through Agent.
	Store agent.SessionReader
	// Settings backs the _goose/unstable config, extension, provider,
	// defaults, preference and prompt methods (acp/unstable_*.go).
	Settings Settings
	// Recipes is the saved-recipe library of _goose/unstable/recipes/*
	// (default: <config>/recipes of Settings.Config).
	Recipes *recipe.Library
	// Scheduler backs _goose/unstable/schedules/*; nil (no
	// --enable-scheduler) makes them answer a clear error.
	Scheduler *schedule.Scheduler
	// Providers lists the providers for the provider config option.
	Providers func() []provider.Metadata
	// Builtins are the builtin extensions every new session gets on top of
	// config.yaml's, as goose-acp-server's --builtin list. nil means
	// ["developer"] (goose-acp-server's default); an empty slice means none.
	Builtins []string
	// ExtensionsFirst makes session/new and session/load answer once the
	// session's extensions have connected, with each one's outcome in
	// _meta.extensionResults, as goose does (goose serve for Goose
	// Desktop, which shows a failed extension's toast from it). Otherwise
	// they connect in the background and the list is empty.
	ExtensionsFirst bool
	// SessionAnswered, when set, is called each time a session/new,
	// session/load or session/resume answer has been written: the moment
	// the editor reads it and sends its prompt, when work the prompt needs
	// (cmd/goose-acp's warming of the session database) runs beside it
	// instead of delaying that answer.
	SessionAnswered func()
	// LocalFiles is the fallback FileIO when the editor offers no fs
	// (default developer.LocalFileIO).
	LocalFiles developer.FileIO
	Version    string
	Logger     *slog.Logger
	// Auth connects initialize's authMethods, authenticate and the
	// provider check before session/new to core/setup (auth.go).
	Auth AuthOptions
	// Open, when set, builds the rest of these options (Agent, Store, …)
	// in the background while Serve already answers initialize and
	// authenticate, so an editor's handshake never waits for the session
	// database. Every other request waits for Open; if it failed, they are
	// answered with its error. Version and Logger stay the outer ones.
	Open func(ctx context.Context) (Options, error)
	// Initialized is the client's v1 initialize request when the caller
	// has answered it already (cmd/goose-acp answers an editor's first
	// frame with handshake.Answer while the binary is still starting):
	// the server takes its capabilities and starts Open, as answering it
	// would have.
	Initialized *InitializeRequest
}

// Server is one ACP connection's agent side.
type Server struct {
	// opts is complete once ready is closed (Options.Open); before that only
	// the handshake runs, and it reads auth, log and version, never opts.
	opts    Options
	auth    AuthOptions
	log     *slog.Logger
	version string
	peer    Peer
	// ready is closed once opts is complete (see Options.Open); openErr is
	// why it is not usable. Both are written before ready closes.
	ready   chan struct{}
	openErr error
	// openOnce starts open once: when initialize arrives, or at the first
	// request that needs the options (startOpen).
	openOnce sync.Once
	openCtx  context.Context
	// frames carries session/update notifications, encoded by us rather
	// than through the Conn (see notify).
	frames frameWriter

	// caps is the first initialize's client capabilities; atomic because a
	// client may send session/new before initialize has been answered.
	caps atomic.Pointer[ClientCapabilities]
	// proto is the negotiated protocol version (0 before initialize: v1);
	// loggedOut is set by v2's auth/logout until auth/login.
	proto     atomic.Int32
	loggedOut atomic.Bool
	// v2 answers and frames what a v2 client gets (v2_prompt.go).
	v2 *v2API

	// loaded are the sessions this connection has open.
	loaded *loadedSessions
	// areas answer the methods beside sessions and prompts (areas.go).
	areas *areas
	// notes sends the updates a client opted in to (notices.go); set by
	// bind, with the areas.
	notes *notifier
}

// Serve speaks ACP over newline-delimited JSON-RPC on in/out (stdio) until
// in ends or ctx is cancelled.
func Serve(ctx context.Context, in io.Reader, out io.Writer, opts Options) error {
	return ServeStream(ctx, jsonrpc.NewStream(in, out, nil), opts)
}

// ServeStream speaks ACP on one connection's message stream (NDJSON on
// stdio, a WebSocket or streamable-HTTP connection from acp/acphttp) until
// its input ends or ctx is cancelled. On the way out every running turn is
// cancelled and every session's extensions (and their child processes)
// are stopped.
func ServeStream(ctx context.Context, stream jsonrpc2.ObjectStream, opts Options) error {
	opts = withDefaults(opts)
	s := &Server{opts: opts, auth: opts.Auth, log: opts.Logger, version: opts.Version, ready: make(chan struct{}),
		loaded: newLoadedSessions(), areas: newAreas()}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	s.v2 = &v2API{log: s.log, ctx: ctx, loaded: s.loaded, prompt: s.areas.prompt, requireProvider: s.requireProvider}
	conn := jsonrpc.NewConn(stream, jsonrpc.Options{
		Requests: s.requestTable(), Notifications: s.notificationTable(), Ordered: s.orderedMethod,
		ErrorOf: toRPCError, Logger: s.log, Grace: shutdownGrace,
		// When the editor closes stdin, running turns are cancelled, but
		// every request already read still gets its answer (and a v2
		// turn its idle state).
		OnEOF: func() {
			s.cancelAllTurns()
			waitTimeout(&s.v2.wg, shutdownGrace)
		},
	})
	s.openCtx = ctx
	s.peer, s.frames, s.v2.frames = versionedPeer{s, rpcPeer{conn}}, conn, conn
	if req := opts.Initialized; req != nil {
		s.log.Debug("initialize was answered while the process started", "client", req.ClientInfo)
		s.proto.Store(ProtocolVersion)
		s.acceptV1(*req)
	}
	err := conn.Run(ctx)
	cancel()
	s.v2.wg.Wait()
	// The caller closes what Open built, so Open must have finished (or
	// never start: an editor that left before asking for anything).
	s.openOnce.Do(func() { close(s.ready) })
	<-s.ready
	s.closeAll()
	if err != nil {
		s.log.Debug("ACP connection ended", "err", err)
	}
	return nil
}

func withDefaults(opts Options) Options {
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if opts.Builtins == nil {
		opts.Builtins = []string{"developer"}
	}
	if opts.LocalFiles == nil {
		opts.LocalFiles = developer.LocalFileIO{}
	}
	opts.Settings = opts.Settings.withDefaults(opts.Logger)
	return opts
}

// open completes the options (Options.Open) and takes the titles the
// connection's sessions get after a turn ended (agent.Holder); it closes
// s.ready when the server can run sessions, or not.
func (s *Server) open(ctx context.Context) {
	if s.opts.Open != nil {
		// Not cancelled by the editor leaving: a half-opened store helps
		// nobody, and Serve waits for Open before it returns anyway.
		full, err := s.opts.Open(context.WithoutCancel(ctx))
		if err != nil {
			s.openErr = fmt.Errorf("goose-acp could not start: %w", err)
			s.log.Error("runtime failed to open", "err", err)
		} else {
			full.Logger, full.Version, full.Open, full.Auth = s.log, s.version, nil, s.auth
			s.opts = withDefaults(full)
		}
	}
	s.loaded.agent = s.opts.Agent
	s.loaded.onEvent = func(id string, ev agent.Event) {
		switch e := ev.(type) {
		case agent.TitleEvent:
			s.areas.prompt.sendTitle(ctx, id, e.Title)
		case agent.ToolProgressEvent: // a tool called outside a turn
			(&emitter{p: s.areas.prompt, sessionID: id}).progress(ctx, e.ToolProgress)
		}
	}
	s.bind()
	close(s.ready)
}

// startOpen opens the options (Options.Open) in the background, once:
// when initialize arrives (beside its handling and answer), or at the
// first request that needs them. An editor sends session/new as soon as
// initialize is answered, and a fresh process's first session/new
// otherwise waited for the whole open (the session database); started
// once initialize had been answered, it finished no sooner. Measured on
// two cores with the in-process extensions called directly: initialize
// unchanged, the first session/new half as long (spawn → first reply,
// medians of 20). An editor that connects and leaves opens nothing.
func (s *Server) startOpen() {
	s.openOnce.Do(func() {
		go func() { deepstack.Reserve(); s.open(s.openCtx) }() // the store's open runs SQLite
	})
}

// afterOpen makes h wait until the server's options are complete.
func (s *Server) afterOpen(h RequestHandler) RequestHandler {
	return func(ctx context.Context, raw json.RawMessage) (any, error) {
		s.startOpen()
		select {
		case <-s.ready:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		if s.openErr != nil {
			return nil, s.openErr
		}
		return h(ctx, raw)
	}
}

func (s *Server) requestTable() map[string]RequestHandler {
	if s.areas == nil {
		s.areas = newAreas()
	}
	if s.v2 == nil {
		s.v2 = &v2API{log: s.log, loaded: s.loaded, prompt: s.areas.prompt, requireProvider: s.requireProvider}
	}
	table := s.areas.methods() // a new map, sized for the whole table
	s.versioned(table, s.v2.methods(table))
	for method, h := range table {
		if method == "session/new" {
			table[method] = s.afterOpenChecked(h) // open_check.go
			continue
		}
		table[method] = s.afterOpen(h)
	}
	maps.Copy(table, unstableUnavailableMethods())
	// The handshake needs nothing Open builds.
	handshake := map[string]RequestHandler{"authenticate": typed(s.authenticate)}
	s.versioned(handshake, s.v2Handshake())
	maps.Copy(table, handshake)
	table["initialize"] = s.initialize
	return table
}

func (s *Server) notificationTable() map[string]NotificationHandler {
	return map[string]NotificationHandler{
		"session/cancel": func(_ context.Context, p json.RawMessage) {
			var req SessionIDRequest
			if err := json.Unmarshal(p, &req); err != nil {
				s.log.Warn("bad session/cancel", "err", err)
				return
			}
			if s.isV2() {
				s.v2.turnsOf(req.SessionID).cancelHeld()
			}
			select {
			case <-s.ready: // the areas are bound: a subagent's id stops that child only (subagents.go)
				if s.openErr == nil && s.areas.prompt.cancelSubagent(req.SessionID) {
					return
				}
			default: // nothing runs before the open
			}
			s.cancelTurn(req.SessionID)
		},
	}
}

// typed adapts a handler taking a decoded params struct; bad params are
// -32602 with the decoder's reason. The params are decoded here, once; the
// frame of a huge message (a 31 MB prompt) is handed back to the OS once
// decoded, before the handler's work allocates more.
func typed[P any, R any](h func(context.Context, P) (R, error)) RequestHandler {
	return func(ctx context.Context, raw json.RawMessage) (any, error) {
		var p P
		if len(raw) > 0 && string(raw) != "null" {
			if err := json.Unmarshal(raw, &p); err != nil {
				return nil, invalidParams("%v", err)
			}
		}
		if len(raw) >= jsonrpc.HugeMessage {
			debug.FreeOSMemory()
		}
		return h(ctx, p)
	}
}

// initializeV1 answers a v1 client (v2.go negotiates).
func (s *Server) initializeV1(_ context.Context, req InitializeRequest) (InitializeResponse, error) {
	s.acceptV1(req)
	return handshake.Answer(req, handshake.Agent{Version: s.version, Command: s.auth.Command}), nil
}

// acceptV1 takes req as this connection's v1 initialize, answered here or
// by the caller (Options.Initialized): the client's capabilities, and the
// open started beside the answer (the editor's next request is likely a
// session's).
func (s *Server) acceptV1(req InitializeRequest) {
	s.startOpen()
	caps := req.ClientCapabilities
	s.caps.CompareAndSwap(nil, &caps)
}

// clientCaps is what the client's initialize offered (zero before it).
func (s *Server) clientCaps() ClientCapabilities {
	if c := s.caps.Load(); c != nil {
		return *c
	}
	return ClientCapabilities{}
}

// frameWriter writes encoded JSON-RPC messages (the connection's one
// writer, jsonrpc.Conn).
type frameWriter interface {
	WriteFrame(b []byte, flush bool) error
	Flush() error
}

// notify sends one session/update unless ctx has ended: the update of a
// tool call or request that was cancelled, or of a connection that
// closed, is dropped. Updates that must outlive a turn's cancel are sent
// with a context detached from it (handleEvent). Failures are logged,
// never fatal.
func (s *Server) notify(ctx context.Context, sessionID string, u SessionUpdate) {
	if err := ctx.Err(); err != nil {
		s.log.Debug("session/update dropped", "update", describe(u), "err", err)
		return
	}
	s.sendUpdate(sessionID, u, true)
}

// sendUpdate encodes the notification once and hands the frame to the
// connection's one writer: a handler's updates precede its response, and
// a long session/load replay is written in 64 KiB batches (flush false).
func (s *Server) sendUpdate(sessionID string, u SessionUpdate, flush bool) {
	if s.isV2() {
		// The one unflushed writer is a replay: its tool calls are not
		// running.
		for _, m := range v2Frames(u, flush, s.v2.terminalsOf(sessionID)) {
			s.v2.send(sessionID, m, flush)
		}
		return
	}
	frame, err := updateFrame(sessionID, u)
	if err == nil {
		err = s.frames.WriteFrame(frame, flush)
	}
	if err != nil {
		s.log.Debug("session/update not sent", "update", describe(u), "err", err)
	}
}

var updateFramePrefix = []byte(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":`)

func updateFrame(sessionID string, u SessionUpdate) ([]byte, error) {
	ub, err := u.MarshalJSON()
	if err != nil {
		return nil, err
	}
	id, err := json.Marshal(sessionID)
	if err != nil {
		return nil, err
	}
	frame := make([]byte, 0, len(updateFramePrefix)+len(id)+len(ub)+12)
	frame = append(append(frame, updateFramePrefix...), id...)
	frame = append(append(frame, `,"update":`...), ub...)
	return append(frame, "}}"...), nil
}

func (s *Server) closeAll() {
	for _, id := range s.loaded.ids() {
		s.loaded.drop(id)
	}
}

// shutdownGrace bounds how long stdin EOF waits for in-flight requests.
const shutdownGrace = 5 * time.Second

// cancelAllTurns cancels every running prompt (and its pending asks).
func (s *Server) cancelAllTurns() {
	for _, id := range s.loaded.ids() {
		s.cancelTurn(id)
	}
}

// waitTimeout waits for wg, at most d.
func waitTimeout(wg *sync.WaitGroup, d time.Duration) {
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-done:
	case <-t.C:
	}
}
