package main

import (
	"log/slog"
	"os"
	"sync"

	"github.com/goose-acp/goose-acp/core/session/sqlite"
)

// earlyStore is an existing sessions.db opening in the background from
// the start of an ACP process. The open (a sandboxed SQLite's first
// connection, the schema check, the write-ahead log's first frame and its
// sync) takes 2-3 ms of a fresh process; started when the editor's
// initialize arrived, an editor's first session/new, sent as soon as
// initialize is answered, waited for most of it. Started while the
// process reads its configuration, it is done before the editor asks.
// A database that does not exist yet is still created only when the
// editor's initialize arrives: an editor that connects and leaves creates
// nothing.
type earlyStore struct {
	path string
	done chan struct{}

	store *sqlite.Store
	err   error

	mu    sync.Mutex
	taken bool
}

// openStoreEarly starts opening env's sessions.db when it already exists;
// nil otherwise.
func openStoreEarly(env *environment, log *slog.Logger) *earlyStore {
	_, paths, err := resolvePaths(env)
	if err != nil {
		return nil // openConfig reports it
	}
	path := paths.SessionsDB()
	if fi, err := os.Stat(path); err != nil || !fi.Mode().IsRegular() {
		return nil
	}
	e := &earlyStore{path: path, done: make(chan struct{})}
	go func() {
		defer close(e.done)
		e.store, e.err = sqlite.Open(env.ctx, path, sqlite.Options{Logger: log})
	}()
	return e
}

// take waits for the early open of path and hands over its store (or its
// error); nil, nil when there is none for path.
func (e *earlyStore) take(path string) (*sqlite.Store, error) {
	if e == nil || e.path != path {
		return nil, nil
	}
	<-e.done
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.taken {
		return nil, nil
	}
	e.taken = true
	return e.store, e.err
}

// closeUnused waits for the early open and closes its store if nobody
// took it (the editor left before asking for a session).
func (e *earlyStore) closeUnused() {
	if e == nil {
		return
	}
	<-e.done
	e.mu.Lock()
	defer e.mu.Unlock()
	if !e.taken && e.store != nil {
		_ = e.store.Close()
	}
	e.taken = true
}
