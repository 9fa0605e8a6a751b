package acp

import (
	"context"
	"sync"
	"time"

	"github.com/goose-acp/goose-acp/core/agent"
)

// timeNow is the adapter's clock (message timestamps).
var timeNow = time.Now

// acpSession is what the adapter keeps per loaded session: the translator
// and the running turn's cancel. The working dir, mode, provider and model
// are the agent's (Sessions().WorkingDir, Mode, Model), never copied here:
// with --http another face may change them.
type acpSession struct {
	id string

	mu sync.Mutex
	// roots are the additionalDirectories the session was opened with
	// (the path policy's allowed roots).
	roots      []string
	translator *Translator
	// turns are the prompts in flight; the agent runs one turn at a time
	// and refuses the others (agent.ErrSessionBusy), so a cancel reaches
	// the running one whichever prompt registered first.
	turns map[*turnCancel]struct{}
	// pending permission requests of the running turn, cancelled with it
	permissions map[string]context.CancelFunc
	// previews are what each pending permission request showed
	previews map[string][]ToolCallContent
	// terminals are tool calls whose Zed terminal display has started
	terminals map[string]bool
	// shown maps a tool call to the terminal its content shows (a
	// delegated terminal, or Zed's display terminal named after the call)
	shown map[string]string
	// shellOut is what running commands printed, for clients that show
	// it nowhere while they run (shell_tail.go)
	shellOut map[string]*shellTail
	// inProgress are tool calls already reported in_progress
	inProgress map[string]bool
	// term holds delegated terminal releases until the final update
	term terminalReleases
	// usage is the last usage_update sent
	usage usageState
	// subagents are the running turn's subagents as the client sees them
	// (subagents.go)
	subagents subagentViews
}

// loadedSessions are the sessions this connection has open. The agent's
// sessions belong to the agent, not to a connection: the connection holds
// the ones it opened (agent.Holder) and lets go of them when it closes
// them or ends, and the agent unloads a session when no face holds it.
type loadedSessions struct {
	// agent is set when the server's options are complete (bind).
	agent *agent.Agent
	// onEvent gets the events a held session reports outside a turn (a
	// title generated after the turn ended).
	onEvent func(sessionID string, ev agent.Event)

	mu sync.Mutex
	m  map[string]*acpSession
}

var _ agent.Holder = (*loadedSessions)(nil)

// SessionEvent is the connection's side of its holds.
func (l *loadedSessions) SessionEvent(sessionID string, ev agent.Event) {
	if l.onEvent != nil {
		l.onEvent(sessionID, ev)
	}
}

func newLoadedSessions() *loadedSessions { return &loadedSessions{m: map[string]*acpSession{}} }

func (l *loadedSessions) lookup(id string) (*acpSession, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if as, ok := l.m[id]; ok {
		return as, nil
	}
	return nil, notFound("Session not found: %s", id)
}

func (l *loadedSessions) register(as *acpSession) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.m[as.id] = as
}

// drop cancels the session's turn and lets go of the connection's hold:
// unless another face holds the session, its extensions stop.
func (l *loadedSessions) drop(id string) {
	l.mu.Lock()
	as := l.m[id]
	delete(l.m, id)
	l.mu.Unlock()
	if as != nil {
		as.cancelAll()
	}
	if l.agent == nil {
		return
	}
	_, _ = l.agent.Sessions().Release(id, l)
}

// ids are the loaded sessions' ids.
func (l *loadedSessions) ids() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := make([]string, 0, len(l.m))
	for id := range l.m {
		out = append(out, id)
	}
	return out
}

// get is the loaded session, nil when it is not loaded here.
func (l *loadedSessions) get(id string) *acpSession {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.m[id]
}

func (s *Server) lookup(id string) (*acpSession, error) { return s.loaded.lookup(id) }

// cancelTurn cancels the running prompt of a session, if any, and every
// permission request it is waiting on.
func (s *Server) cancelTurn(id string) {
	as := s.loaded.get(id)
	if as == nil {
		s.log.Warn("session/cancel for an unknown session", "session", id)
		return
	}
	as.cancelAll()
}

// cancelAll cancels the session's running prompt and the permission
// requests it waits on.
func (as *acpSession) cancelAll() {
	as.mu.Lock()
	defer as.mu.Unlock()
	for tc := range as.turns {
		tc.cancelled = true
		tc.cancel()
	}
	for _, c := range as.permissions {
		c()
	}
}
