package earlystore

import (
	"bytes"
	"context"
	"log/slog"
	"path/filepath"
	"testing"
	"time"

	"github.com/goose-acp/goose-acp/core/session"
	"github.com/goose-acp/goose-acp/core/session/sqlite"
)

// What the early open logs before the process has its logger reaches that
// logger when the store is handed over.
func TestEarlyOpenLogsReachTheLogger(t *testing.T) {
	h := newHeldLogs()
	slog.New(h).With("dir", "/d").Warn("could not make the sessions directory owner-only", "err", "denied")
	var buf bytes.Buffer
	log := slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{
		ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
			if a.Key == slog.TimeKey {
				return slog.Attr{}
			}
			return a
		}}))
	e := newStore("/x")
	e.logs = h
	close(e.done)
	e.LogTo(log)
	if st, err := e.Take("/x"); st != nil || err != nil {
		t.Fatalf("take: %v %v", st, err)
	}
	want := "level=WARN msg=\"could not make the sessions directory owner-only\" err=denied dir=/d\n"
	if got := buf.String(); got != want {
		t.Fatalf("logged %q, want %q", got, want)
	}
	h.replay(log) // once
	if got := buf.String(); got != want {
		t.Fatalf("replayed twice: %q", got)
	}
}

// The open init started is handed over for its path only; another path
// closes it.
func TestAtStartIsForItsPathOnly(t *testing.T) {
	e := newStore("/a")
	close(e.done)
	atStart = e
	if got := AtStart("/b"); got != nil || atStart != nil || !e.taken {
		t.Fatalf("AtStart for another path: %v, left %v, closed %v", got, atStart, e.taken)
	}
	e2 := newStore("/a")
	atStart = e2
	if got := AtStart("/a"); got != e2 || atStart != nil {
		t.Fatalf("AtStart for its path: %v", got)
	}
}

// An existing sessions.db opens in the background and is handed over
// working; it warms once the first session is answered — not before,
// whatever it writes — and Done closes when that is over. No open: Done
// is closed.
func TestStartOpensAndWarms(t *testing.T) {
	path := existingDB(t)
	e := Start(context.Background(), path)
	got, err := e.Take(path)
	if err != nil || got == nil {
		t.Fatalf("take: %v, %v", got, err)
	}
	defer got.Close()
	if _, err := got.Create(context.Background(), session.NewSession{WorkingDir: "/w"}); err != nil {
		t.Fatal(err)
	}
	select {
	case <-e.Done():
		t.Fatal("warmed before the session's answer")
	case <-time.After(50 * time.Millisecond):
	}
	e.SessionAnswered()
	e.SessionAnswered() // once
	<-e.Done()
	var none *Store
	select {
	case <-none.Done():
	default:
		t.Fatal("Done of no open is not closed")
	}
}

// existingDB is the path of a sessions.db that exists.
func existingDB(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "sessions.db")
	st, err := sqlite.Open(context.Background(), path, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// A store nobody took is closed unwarmed, and Done closes.
func TestCloseUnusedEndsTheWait(t *testing.T) {
	path := existingDB(t)
	e := Start(context.Background(), path)
	e.CloseUnused()
	<-e.Done()
}
