package agent

import (
	"context"
	"fmt"
)

// A session stays loaded while some face holds it: each ACP connection
// that opened it, the goosed REST face once it loaded it. Holds are the
// one count of who has a session open, for every face: a face that lets
// go (Release) unloads the session only when no other holder is left.
// CloseSession unloads a session whatever holds it (delete, archive,
// reload).

// Holder is one face's hold on the sessions it opened (its identity is the
// value itself: use a pointer per connection). It receives the events a
// held session reports outside a turn — a title generated after the turn
// ended — from a background goroutine, and must not block for long.
type Holder interface {
	SessionEvent(sessionID string, ev Event)
}

// Hold loads the session if it is not loaded (with its saved or the
// configured extensions, as EnsureLoaded does) and records h as holding
// it. Holding twice is holding once.
func (svc Sessions) Hold(ctx context.Context, id string, h Holder) error {
	_, _, err := svc.a.ResumeSession(ctx, id, StartOptions{UseConfiguredExtensions: true, Holder: h})
	return err
}

// Release lets go of h's hold. When no holder is left the session is
// unloaded (its extensions stop) and Release reports true; a session
// nobody holds is unloaded by any Release (goosed's /agent/stop after a
// route loaded it). ErrSessionNotLoaded when it is not loaded.
func (svc Sessions) Release(id string, h Holder) (bool, error) {
	a := svc.a
	a.mu.Lock()
	s, ok := a.sessions[id]
	if !ok {
		a.mu.Unlock()
		return false, fmt.Errorf("%w: %s", ErrSessionNotLoaded, id)
	}
	delete(s.holders, h)
	if len(s.holders) > 0 {
		a.mu.Unlock()
		return false, nil
	}
	delete(a.sessions, id)
	a.mu.Unlock()
	s.unload()
	return true, nil
}

// Held reports whether any face holds the loaded session.
func (svc Sessions) Held(id string) bool {
	a := svc.a
	a.mu.Lock()
	defer a.mu.Unlock()
	s, ok := a.sessions[id]
	return ok && len(s.holders) > 0
}

// holdLoaded records h on the session if it is loaded and returns it (nil
// when it is not); a nil h only looks the session up.
func (svc Sessions) holdLoaded(id string, h Holder) *sessionState {
	a := svc.a
	a.mu.Lock()
	defer a.mu.Unlock()
	s := a.sessions[id]
	if s != nil && h != nil {
		s.holders[h] = struct{}{}
	}
	return s
}

// holders are the session's holders now (none when it is not loaded).
func (svc Sessions) holders(id string) []Holder {
	a := svc.a
	a.mu.Lock()
	defer a.mu.Unlock()
	s := a.sessions[id]
	if s == nil {
		return nil
	}
	out := make([]Holder, 0, len(s.holders))
	for h := range s.holders {
		out = append(out, h)
	}
	return out
}

// rehold gives a reloaded session back the holders it had.
func (svc Sessions) rehold(id string, hs []Holder) {
	a := svc.a
	a.mu.Lock()
	defer a.mu.Unlock()
	if s := a.sessions[id]; s != nil {
		for _, h := range hs {
			s.holders[h] = struct{}{}
		}
	}
}

// toHolders sends ev to every holder of the session.
func (s *sessionState) toHolders(ev Event) {
	for _, h := range s.a.Sessions().holders(s.id) {
		h.SessionEvent(s.id, ev)
	}
}

// unload stops a session already taken out of the agent's map.
func (s *sessionState) unload() {
	if c := s.a.convCache(); c != nil {
		c.forget(s.id)
	}
	s.plugins.end(s.a, s)
	s.close()
}
