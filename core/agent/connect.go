package agent

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/goose-acp/goose-acp/core/config"
	"github.com/goose-acp/goose-acp/core/extension"

	"github.com/goose-acp/goose-acp/internal/deepstack"
)

// ExtensionWaitNote is how long a turn waits for its session's extensions
// before telling the user what it is waiting for.
const ExtensionWaitNote = time.Second

// ExtensionWaitFormat is that note; %s lists the extensions still starting.
const ExtensionWaitFormat = "Waiting for extensions to start: %s"

// connecting is a session's extension connect: ready closes when every
// extension has connected or failed. A background connect starts (run) at
// the first wait for it, or when the session closes.
type connecting struct {
	ready  chan struct{}
	cancel context.CancelFunc
	run    func()
	start  sync.Once

	mu      sync.Mutex
	pending []string // names still connecting, in config order
	results []extension.Result
}

func newConnecting() *connecting {
	return &connecting{ready: make(chan struct{}), cancel: func() {}}
}

// begin starts a background connect that has not started yet.
func (c *connecting) begin() {
	c.start.Do(func() {
		if c.run != nil {
			c.run()
		}
	})
}

// abandon ends a connect that never started (the session closes before
// anything waited for it): nothing connects, ready closes.
func (c *connecting) abandon() {
	c.start.Do(func() { close(c.ready) })
}

// wait starts the connect if need be and blocks until the extensions are
// connected or ctx ends.
func (c *connecting) wait(ctx context.Context) error {
	c.begin()
	select {
	case <-c.ready:
		return nil
	default:
	}
	select {
	case <-c.ready:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// isReady reports whether the connect has finished.
func (c *connecting) isReady() bool {
	select {
	case <-c.ready:
		return true
	default:
		return false
	}
}

func (c *connecting) done(name string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if i := slices.Index(c.pending, name); i >= 0 {
		c.pending = slices.Delete(c.pending, i, i+1)
	}
}

func (c *connecting) stillPending() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.pending)
}

func (c *connecting) outcome() []extension.Result {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.results
}

// connectExtensions connects a session's extensions. In the foreground it
// returns their results once all are connected and the session's state is
// saved. In the background it returns at once: the extensions connect
// while the caller answers, the first turn (and whatever lists the
// session's tools, prompts or extensions) waits for them, and the session
// state is saved when they are done — unless the session was closed
// meanwhile, so a closed manager's empty list never overwrites it.
func (a *Agent) connectExtensions(ctx context.Context, s *sessionState, cfgs []config.ExtensionConfig, background bool) ([]extension.Result, error) {
	c := s.connect
	if !background {
		c.start.Do(func() {}) // under way here
		defer close(c.ready)
		results := s.mgr.AddAll(ctx, cfgs)
		c.results = results
		return results, a.saveState(ctx, s, true)
	}
	cctx, cancel := context.WithCancel(a.bgCtx)
	c.cancel = cancel
	for _, cfg := range cfgs {
		c.pending = append(c.pending, cfg.Name)
	}
	// Started by the first wait for it: the ACP face's, right after the
	// session's answer is written (its commands and notices wait for the
	// extensions), so the connect does not compete with that answer for
	// the CPU; a turn, a tools list or the session's close start it too.
	connect := func() {
		deepstack.Reserve() // saveState ends in SQLite
		defer a.bg.Done()
		defer cancel()
		results := s.mgr.AddEach(cctx, cfgs, func(r extension.Result) { c.done(r.Name) })
		c.mu.Lock()
		c.results = results
		c.mu.Unlock()
		if cctx.Err() == nil {
			if err := a.saveState(cctx, s, true); err != nil {
				a.log.Warn("saving the session's extensions failed", "session", s.id, "error", err)
			}
		}
		close(c.ready)
	}
	c.run = func() { a.bg.Add(1); go connect() }
	return nil, nil
}

// Results waits until the session's extensions have connected
// (or ctx ends) and returns each one's load outcome.
func (svc Extensions) Results(ctx context.Context, sessionID string) ([]extension.Result, error) {
	s, err := svc.a.session(sessionID)
	if err != nil {
		return nil, err
	}
	if err := s.connect.wait(ctx); err != nil {
		return nil, err
	}
	return s.connect.outcome(), nil
}

// awaitExtensions holds a turn until its session's extensions are
// connected, telling the user what it waits for once the wait passes
// ExtensionWaitNote.
func (t *turn) awaitExtensions() error {
	c := t.s.connect
	c.begin()
	select {
	case <-c.ready:
		return nil
	default:
	}
	note := time.NewTimer(ExtensionWaitNote)
	defer note.Stop()
	for {
		select {
		case <-c.ready:
			return nil
		case <-t.ctx.Done():
			return t.ctx.Err()
		case <-note.C:
			if names := c.stillPending(); len(names) > 0 {
				t.emit(ProgressEvent{Text: fmt.Sprintf(ExtensionWaitFormat, strings.Join(names, ", "))})
			}
		}
	}
}

// readySession is a loaded session whose extensions have connected: the
// operations that list or use its tools, prompts, resources or extensions
// wait for a background connect instead of seeing a partial set.
func (a *Agent) readySession(ctx context.Context, id string) (*sessionState, error) {
	s, err := a.session(id)
	if err != nil {
		return nil, err
	}
	if err := s.connect.wait(ctx); err != nil {
		return nil, err
	}
	return s, nil
}
