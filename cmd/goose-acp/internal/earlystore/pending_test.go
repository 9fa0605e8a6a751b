package earlystore

import (
	"context"
	"errors"
	"log/slog"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/goose-acp/goose-acp/core/session"
	"github.com/goose-acp/goose-acp/core/session/sessiontest"
	"github.com/goose-acp/goose-acp/core/session/sqlite"
)

// withOpen has Start open with open for the rest of the test.
func withOpen(t *testing.T, open func(context.Context, string, sqlite.Options) (*sqlite.Store, error)) {
	t.Helper()
	old := openStore
	openStore = open
	t.Cleanup(func() { openStore = old })
}

// The pending store is every session.Store the agent relies on.
func TestPendingIsAStore(t *testing.T) {
	sessiontest.Run(t, func(t *testing.T, now func() time.Time) session.Store {
		path := existingDB(t)
		withOpen(t, func(ctx context.Context, path string, o sqlite.Options) (*sqlite.Store, error) {
			o.Now = now
			return sqlite.Open(ctx, path, o)
		})
		p := Start(context.Background(), path).Pending(path)
		t.Cleanup(func() { _ = p.Close() })
		return p
	})
}

// Pending hands the store over before the open has finished; a call made
// meanwhile waits for it, and one whose context ends first gives up.
func TestPendingWaitsForTheOpen(t *testing.T) {
	path := existingDB(t)
	release := make(chan struct{})
	withOpen(t, func(ctx context.Context, path string, o sqlite.Options) (*sqlite.Store, error) {
		<-release
		return sqlite.Open(ctx, path, o)
	})
	e := Start(context.Background(), path)
	p := e.Pending(path)
	if p == nil || e.Pending(path) != nil {
		t.Fatal("Pending: want the open once, before it finished")
	}
	if n := p.Revision("20250101_1"); n != 0 {
		t.Fatalf("Revision before the open = %d", n)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := p.Create(ctx, session.NewSession{WorkingDir: "/w"}); !errors.Is(err, context.Canceled) {
		t.Fatalf("Create with its context ended: %v", err)
	}
	created := make(chan error, 1)
	go func() {
		_, err := p.Create(context.Background(), session.NewSession{WorkingDir: "/w"})
		created <- err
	}()
	select {
	case err := <-created:
		t.Fatalf("Create returned before the open finished: %v", err)
	case <-time.After(50 * time.Millisecond):
	}
	close(release)
	if err := <-created; err != nil {
		t.Fatalf("Create after the open: %v", err)
	}
	page, err := p.List(context.Background(), session.ListOptions{})
	if err != nil || len(page.Sessions) != 1 {
		t.Fatalf("List: %d sessions, %v", len(page.Sessions), err)
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path + "-wal"); err != nil {
		t.Fatalf("closed store left no write-ahead log: %v", err)
	}
}

// An open that fails is the error of each call that needs the store, and
// there is nothing to close.
func TestPendingGivesTheOpenError(t *testing.T) {
	path := existingDB(t)
	failed := errors.New("open sessions db: file is not a database")
	withOpen(t, func(context.Context, string, sqlite.Options) (*sqlite.Store, error) { return nil, failed })
	p := Start(context.Background(), path).Pending(path)
	if _, err := p.Create(context.Background(), session.NewSession{WorkingDir: "/w"}); err != failed {
		t.Fatalf("Create: %v", err)
	}
	if _, err := p.Get(context.Background(), "20250101_1", false); err != failed {
		t.Fatalf("Get: %v", err)
	}
	if n := p.Revision("20250101_1"); n != 0 {
		t.Fatalf("Revision = %d", n)
	}
	if err := p.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
}

// A failed open is logged once, when a call first needs the store.
func TestPendingLogsTheOpenErrorOnce(t *testing.T) {
	path := existingDB(t)
	withOpen(t, func(context.Context, string, sqlite.Options) (*sqlite.Store, error) {
		return nil, errors.New("file is not a database")
	})
	var buf strings.Builder
	e := Start(context.Background(), path)
	e.LogTo(slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
		if a.Key == slog.TimeKey {
			return slog.Attr{}
		}
		return a
	}})))
	p := e.Pending(path)
	for range 2 {
		_, _ = p.List(context.Background(), session.ListOptions{})
	}
	if want := "level=ERROR msg=\"runtime failed to open\" err=\"file is not a database\"\n"; buf.String() != want {
		t.Fatalf("logged %q, want %q", buf.String(), want)
	}
}
