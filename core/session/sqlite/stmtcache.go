package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"sync"
	"time"

	"github.com/goose-acp/goose-acp/internal/deepstack"
)

// maxCachedStmts bounds the statement cache: the store's statements are a
// fixed set plus a few shapes of UPDATE, so a query past the bound (a
// caller building SQL we did not foresee) simply runs unprepared.
const maxCachedStmts = 128

// stmtCache keeps the store's statements prepared. database/sql would
// otherwise have SQLite parse and plan every statement again on every
// call: that was about a tenth of the agent's CPU for a new session and
// its first turn. A cached *sql.Stmt is prepared once per pooled
// connection and reused.
//
// A statement is prepared in the background after its second (unprepared)
// run: preparing on the pool needs a free connection, and a caller inside
// a write transaction that waited for one could wait on writers that
// wait for its own transaction. Not after its first: most statements of a
// process's start (schema checks, a new session, its first turn) run once
// there, and preparing them all again, each on a connection the pool
// opens for it while the first is busy, was about a third of the agent's
// CPU for an editor's first session and prompt.
//
// The background preparation waits for an idle connection (the one its
// caller's transaction releases) instead of letting the pool open one,
// and holds the store's write slot while it prepares, so a write (or a
// read awaitWriter holds back) that comes meanwhile waits the 0.1-0.3 ms
// instead of opening a connection: each connection is a whole sandboxed
// SQLite, its memory (~0.3 MiB) and its own read of the schema, and an
// editor's first turn then ran on three of them.
type stmtCache struct {
	db *sql.DB

	mu        sync.Mutex
	stmts     map[string]*sql.Stmt
	preparing map[string]bool // being prepared, or failed to (not tried again)
	ran       map[string]bool // run once, unprepared
	pending   []string        // to prepare once a connection is idle
	draining  bool            // a goroutine prepares pending
	closed    bool
	wg        sync.WaitGroup
	// released wakes the preparing goroutine when a write transaction
	// has given its connection back to the pool.
	released chan struct{}
	// borrowing is held while a preparation holds a pooled connection,
	// so closing the idle connections (releaseMemory) waits for it.
	borrowing sync.Mutex
	// writing is the store's write slot (writeslot.go).
	writing chan struct{}
	// waiters are closed once drain has dealt with their query (queue).
	waiters map[string][]chan struct{}
}

func newStmtCache(db *sql.DB, writing chan struct{}) *stmtCache {
	return &stmtCache{db: db, stmts: map[string]*sql.Stmt{}, preparing: map[string]bool{}, ran: map[string]bool{},
		released: make(chan struct{}, 1), writing: writing, waiters: map[string][]chan struct{}{}}
}

// queue has the queries prepared in the background as any statement due
// for it is (drain: on an idle connection, holding the write slot, one
// at a time), and returns a channel closed once they have been (or the
// cache closed).
func (c *stmtCache) queue(queries []string) <-chan struct{} {
	c.mu.Lock()
	defer c.mu.Unlock()
	last := ""
	for _, q := range queries {
		if c.closed || len(c.stmts)+len(c.preparing) >= maxCachedStmts {
			break
		}
		if _, ok := c.stmts[q]; ok || c.preparing[q] {
			continue
		}
		c.preparing[q] = true
		c.pending = append(c.pending, q)
		last = q
	}
	done := make(chan struct{})
	if last == "" {
		close(done)
		return done
	}
	c.waiters[last] = append(c.waiters[last], done)
	if !c.draining {
		c.draining = true
		c.wg.Go(func() { deepstack.Reserve(); c.drain() })
	}
	return done
}

// wake closes query's waiters (c.mu held); all of them for "".
func (c *stmtCache) wake(query string) {
	for q, chs := range c.waiters {
		if query == "" || q == query {
			for _, ch := range chs {
				close(ch)
			}
			delete(c.waiters, q)
		}
	}
}

// get returns query's prepared statement, or nil (run it unprepared) when
// it is not prepared yet — its preparation starts on its second run — or
// the cache is full or closed.
func (c *stmtCache) get(query string) *sql.Stmt {
	c.mu.Lock()
	defer c.mu.Unlock()
	if st, ok := c.stmts[query]; ok {
		return st
	}
	if c.closed || c.preparing[query] || len(c.stmts)+len(c.preparing) >= maxCachedStmts {
		return nil
	}
	if !c.ran[query] {
		if len(c.ran) < 2*maxCachedStmts {
			c.ran[query] = true
		}
		return nil
	}
	delete(c.ran, query)
	c.preparing[query] = true
	c.pending = append(c.pending, query)
	if !c.draining {
		c.draining = true
		c.wg.Go(func() { deepstack.Reserve(); c.drain() }) // SQLite's parser goes deep
	}
	return nil
}

// drain prepares the pending statements, each on a connection the pool
// has idle, until none is left or the cache closes.
func (c *stmtCache) drain() {
	var wait *time.Timer
	defer func() {
		if wait != nil {
			wait.Stop()
		}
	}()
	backoff := time.Millisecond
	for {
		c.mu.Lock()
		if c.closed || len(c.pending) == 0 {
			c.draining = false
			if c.closed {
				c.wake("")
			}
			c.mu.Unlock()
			return
		}
		query := c.pending[0]
		c.mu.Unlock()
		c.borrowing.Lock()
		slot := false
		select {
		case c.writing <- struct{}{}:
			slot = true
		default:
		}
		if !slot || c.db.Stats().Idle == 0 {
			if slot {
				<-c.writing
			}
			c.borrowing.Unlock()
			// A write transaction runs, or every connection is busy:
			// wait for a write to end, or look again a little later (a
			// read's).
			if wait == nil {
				wait = time.NewTimer(backoff)
			} else {
				wait.Reset(backoff)
			}
			select {
			case <-c.released:
			case <-wait.C:
				backoff = min(2*backoff, 64*time.Millisecond)
			}
			continue
		}
		backoff = time.Millisecond
		c.prepare(query) // holding the write slot: a writer waits for it, not for a new connection
		<-c.writing
		c.borrowing.Unlock()
		c.mu.Lock()
		c.pending = c.pending[1:]
		c.wake(query)
		c.mu.Unlock()
	}
}

// release tells a waiting preparation that a write transaction has given
// its connection back.
func (c *stmtCache) release() {
	select {
	case c.released <- struct{}{}:
	default:
	}
}

// prepareNow prepares query at once (the store's open prepares the
// statement a new session runs, so that an editor's first session/new
// does not parse it).
func (c *stmtCache) prepareNow(ctx context.Context, query string) error {
	st, err := c.db.PrepareContext(ctx, query)
	if err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.stmts[query]; ok || c.closed {
		return st.Close()
	}
	c.stmts[query] = st
	return nil
}

func (c *stmtCache) prepare(query string) {
	st, err := c.db.PrepareContext(context.Background(), query)
	c.mu.Lock()
	defer c.mu.Unlock()
	if err != nil {
		return // stays marked: it runs unprepared, and reports its error there
	}
	delete(c.preparing, query)
	if c.closed {
		_ = st.Close()
		return
	}
	c.stmts[query] = st
}

// close waits for preparations under way and closes every statement; the
// database is closed after it.
func (c *stmtCache) close() error {
	c.mu.Lock()
	c.closed = true
	c.mu.Unlock()
	c.release()
	c.wg.Wait()
	c.mu.Lock()
	defer c.mu.Unlock()
	c.wake("")
	var errs []error
	for q, st := range c.stmts {
		errs = append(errs, st.Close())
		delete(c.stmts, q)
	}
	return errors.Join(errs...)
}

// dbq runs the store's statements through the cache, on the database or,
// when tx is set, inside that transaction. It is a querier.
type dbq struct {
	c  *stmtCache
	tx *sql.Tx
}

// raw is what runs a statement that is not cached.
func (q dbq) raw() querier {
	if q.tx != nil {
		return q.tx
	}
	return q.c.db
}

func (q dbq) stmt(ctx context.Context, query string) *sql.Stmt {
	st := q.c.get(query)
	if st == nil || q.tx == nil {
		return st
	}
	// Bound to the transaction, closed with it.
	return q.tx.StmtContext(ctx, st)
}

func (q dbq) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	if st := q.stmt(ctx, query); st != nil {
		return st.ExecContext(ctx, args...)
	}
	return q.raw().ExecContext(ctx, query, args...)
}

func (q dbq) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	if st := q.stmt(ctx, query); st != nil {
		return st.QueryContext(ctx, args...)
	}
	return q.raw().QueryContext(ctx, query, args...)
}

func (q dbq) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	if st := q.stmt(ctx, query); st != nil {
		return st.QueryRowContext(ctx, args...)
	}
	return q.raw().QueryRowContext(ctx, query, args...)
}

// PrepareContext prepares a statement for a loop inside the transaction
// (not cached: it lives as long as the transaction).
func (q dbq) PrepareContext(ctx context.Context, query string) (*sql.Stmt, error) {
	if q.tx != nil {
		return q.tx.PrepareContext(ctx, query)
	}
	return q.c.db.PrepareContext(ctx, query)
}
