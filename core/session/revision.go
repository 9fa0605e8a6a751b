package session

import (
	"context"
	"sync"
)

// Revisioner is a Store that counts, per session, the conversation writes
// it made in this process. A caller holding a decoded conversation keeps
// using it while the count it read with it is unchanged, instead of
// decoding the whole history again (core/agent's per-turn cache).
type Revisioner interface {
	Revision(id string) uint64
	// Row reads the session without MessageCount and LastMessageAt, which
	// need every message row (in sessions.db, past each content_json): a
	// caller holding the conversation computes them with
	// ConversationStats.
	Row(ctx context.Context, id string) (Session, error)
}

// Revisions is a Revisioner's counter table; the zero value is ready.
type Revisions struct {
	mu sync.Mutex
	m  map[string]uint64
}

// Revision is the number of conversation writes made to id so far.
func (r *Revisions) Revision(id string) uint64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.m[id]
}

// Bump counts one more write to id (also a failed one: a caller then
// reloads, which is always correct).
func (r *Revisions) Bump(id string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.m == nil {
		r.m = map[string]uint64{}
	}
	r.m[id]++
}
