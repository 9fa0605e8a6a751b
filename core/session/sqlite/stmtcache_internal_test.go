package sqlite

import (
	"context"
	"errors"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/session"
)

// Appends from several goroutines on a one-connection pool never wait on
// each other for a statement's preparation (a preparation that needed a
// second connection inside a write transaction would hang until the busy
// timeout), and the append's statements end up prepared.
func TestStatementsPreparedWithoutBlockingWriters(t *testing.T) {
	ctx := context.Background()
	s, err := Open(ctx, filepath.Join(t.TempDir(), "sessions.db"), Options{MaxOpenConns: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	sess, err := s.Create(ctx, session.NewSession{WorkingDir: "/w", Name: "n"})
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for i := range 10 {
				m := conversation.UserText(int64(g*100+i), "hello")
				if err := s.AppendMessage(ctx, sess.ID, m); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	got, err := s.Get(ctx, sess.ID, true)
	if err != nil || len(got.Conversation) != 40 {
		t.Fatalf("%d messages, err %v", len(got.Conversation), err)
	}
	s.stmts.wg.Wait()
	s.stmts.mu.Lock()
	_, prepared := s.stmts.stmts[insertMessageSQL]
	s.stmts.mu.Unlock()
	if !prepared {
		t.Fatal("the message insert was never prepared")
	}
}

// A statement is prepared after its second run, not its first: a short
// process (an editor's first session and prompt) runs most statements
// once and would only pay for preparing them again.
func TestStatementPreparedOnSecondRun(t *testing.T) {
	ctx := context.Background()
	s, sess := storeWithSession(t)
	prepared := func() bool {
		s.stmts.wg.Wait()
		s.stmts.mu.Lock()
		defer s.stmts.mu.Unlock()
		_, ok := s.stmts.stmts[insertMessageSQL]
		return ok
	}
	for i, want := range []bool{false, true, true} {
		if err := s.AppendMessage(ctx, sess.ID, conversation.UserText(int64(i), "hello")); err != nil {
			t.Fatal(err)
		}
		if got := prepared(); got != want {
			t.Fatalf("after %d appends prepared = %v, want %v", i+1, got, want)
		}
	}
}

// The open prepares the new session's INSERT, and Create runs it: the
// first session/new of a process parses nothing.
func TestOpenPreparesTheNewSessionInsert(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "sessions.db")
	for range 2 { // a new file, then an existing one
		s, err := Open(ctx, path, Options{})
		if err != nil {
			t.Fatal(err)
		}
		s.stmts.mu.Lock()
		_, ok := s.stmts.stmts[insertSessionSQL]
		ran := s.stmts.ran[insertSessionSQL]
		s.stmts.mu.Unlock()
		if !ok {
			t.Fatal("the new session's INSERT is not prepared after Open")
		}
		if _, err := s.Create(ctx, session.NewSession{WorkingDir: "/w", Name: "n"}); err != nil {
			t.Fatal(err)
		}
		s.stmts.mu.Lock()
		ranAfter := s.stmts.ran[insertSessionSQL]
		s.stmts.mu.Unlock()
		if ran || ranAfter {
			t.Error("Create ran the INSERT unprepared")
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

// A statement due for preparation while its caller's transaction holds the
// pool's only connection is prepared on that connection once the
// transaction has released it: the pool opens no second connection (a
// whole sandboxed SQLite) for it.
func TestPreparationWaitsForTheCallersConnection(t *testing.T) {
	ctx := context.Background()
	s, err := Open(ctx, filepath.Join(t.TempDir(), "sessions.db"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	const q = `SELECT COUNT(*) FROM sessions WHERE working_dir = ?`
	err = s.write(ctx, func(tx dbq) error {
		for range 2 { // the second run makes it due
			var n int
			if err := tx.QueryRowContext(ctx, q, "/w").Scan(&n); err != nil {
				return err
			}
		}
		time.Sleep(50 * time.Millisecond) // a preparation that did not wait would run now
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	s.stmts.wg.Wait()
	s.stmts.mu.Lock()
	_, prepared := s.stmts.stmts[q]
	s.stmts.mu.Unlock()
	if !prepared {
		t.Fatal("the statement was never prepared")
	}
	if n := s.db.Stats().OpenConnections; n != 1 {
		t.Fatalf("%d connections open, want 1", n)
	}
}

// A second writer of the process waits for the first's transaction instead
// of taking a second connection to wait in SQLite's busy handler.
func TestWritersShareOneConnection(t *testing.T) {
	ctx := context.Background()
	s, sess := storeWithSession(t)
	inside, leave := make(chan struct{}), make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		err := s.write(ctx, func(dbq) error {
			close(inside)
			<-leave
			return nil
		})
		if err != nil {
			t.Error(err)
		}
	})
	<-inside
	wg.Go(func() {
		if err := s.AppendMessage(ctx, sess.ID, conversation.UserText(1, "hello")); err != nil {
			t.Error(err)
		}
	})
	time.Sleep(50 * time.Millisecond) // the second writer is waiting by now
	close(leave)
	wg.Wait()
	if n := s.db.Stats().OpenConnections; n != 1 {
		t.Fatalf("%d connections open, want 1", n)
	}
	got, err := s.Get(ctx, sess.ID, true)
	if err != nil || len(got.Conversation) != 1 {
		t.Fatalf("%d messages, err %v", len(got.Conversation), err)
	}
}

// A writer waiting for the process's other writer gives up with its
// context.
func TestWaitingWriterHonoursItsContext(t *testing.T) {
	ctx := context.Background()
	s, err := Open(ctx, filepath.Join(t.TempDir(), "sessions.db"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	inside, leave := make(chan struct{}), make(chan struct{})
	done := make(chan error)
	go func() {
		done <- s.write(ctx, func(dbq) error {
			close(inside)
			<-leave
			return nil
		})
	}()
	<-inside
	cctx, cancel := context.WithTimeout(ctx, 20*time.Millisecond)
	defer cancel()
	_, err = s.Create(cctx, session.NewSession{WorkingDir: "/w", Name: "n"})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("create while another write holds the store: %v, want the context's deadline", err)
	}
	close(leave)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

// A read of a session row while the process's write transaction holds the
// pool's only connection waits for it instead of opening a second one; a
// read beside another read still runs at once.
func TestReadBesideAWriteSharesTheConnection(t *testing.T) {
	ctx := context.Background()
	s, sess := storeWithSession(t)
	inside, leave := make(chan struct{}), make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		err := s.write(ctx, func(tx dbq) error {
			close(inside)
			<-leave
			_, err := tx.ExecContext(ctx, `UPDATE sessions SET name = 'renamed' WHERE id = ?`, sess.ID)
			return err
		})
		if err != nil {
			t.Error(err)
		}
	})
	<-inside
	var got session.Session
	wg.Go(func() {
		var err error
		if got, err = s.Row(ctx, sess.ID); err != nil {
			t.Error(err)
		}
	})
	time.Sleep(50 * time.Millisecond) // the read is waiting by now
	close(leave)
	wg.Wait()
	if n := s.db.Stats().OpenConnections; n != 1 {
		t.Fatalf("%d connections open, want 1", n)
	}
	if got.Name != "renamed" {
		t.Fatalf("read %q, want the committed name", got.Name)
	}

	// A read holding the connection does not make the next read wait.
	rows, err := s.db.QueryContext(ctx, `SELECT id FROM sessions`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	if _, err := s.Row(ctx, sess.ID); err != nil {
		t.Fatal(err)
	}
	if n := s.db.Stats().OpenConnections; n != 2 {
		t.Fatalf("%d connections open beside a read, want 2", n)
	}
}

// storeWithSession is a store in a temporary sessions.db, closed when the
// test ends, holding one session.
func storeWithSession(t *testing.T) (*Store, session.Session) {
	t.Helper()
	s, err := Open(context.Background(), filepath.Join(t.TempDir(), "sessions.db"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	sess, err := s.Create(context.Background(), session.NewSession{WorkingDir: "/w", Name: "n"})
	if err != nil {
		t.Fatal(err)
	}
	return s, sess
}
