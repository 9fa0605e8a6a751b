package sqlite

import (
	"context"
	"fmt"
)

// lockWrite waits for this process's other write transaction, if any, to
// end. SQLite lets one writer in at a time; a second writer of this
// process that began its transaction anyway held a second pooled
// connection (a whole sandboxed SQLite, opened for it) and slept in
// SQLite's busy handler until the first committed. Waiting here, it takes
// the connection the first releases and wakes as soon as it does. Writers
// of other processes still meet SQLite's lock and busy timeout.
func (s *Store) lockWrite(ctx context.Context) error {
	select {
	case s.writing <- struct{}{}:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("begin: %w", ctx.Err())
	}
}

// unlockWrite ends lockWrite, the transaction's connection back in the
// pool (a statement waiting to be prepared may take it).
func (s *Store) unlockWrite() {
	<-s.writing
	s.stmts.release()
}

// awaitWriter makes a read that would have the pool open its second
// connection, because the process's write transaction holds the first,
// wait for that transaction to end and take its connection instead. A
// transaction is short (a new session's row, a message), and a
// connection is a whole sandboxed SQLite to open (~1 ms: its memory, the
// schema read): an editor's first turn read its session row beside the
// turn's first write and ran on two of them. (The slot's holder may not
// have taken the connection yet: waiting for it anyway keeps the read
// from racing it for the connection.) A pool that already has more
// connections, or whose connection a read holds, serves the read as
// before.
func (s *Store) awaitWriter(ctx context.Context) {
	if len(s.writing) == 0 {
		return
	}
	if s.db.Stats().OpenConnections > 1 {
		return
	}
	select {
	case s.writing <- struct{}{}:
		<-s.writing
	case <-ctx.Done(): // the read reports it
	}
}
