package sqlite_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/goose-acp/goose-acp/core/session"
	"github.com/goose-acp/goose-acp/core/session/sessiontest"
	"github.com/goose-acp/goose-acp/core/session/sqlite"
)

func openStore(t *testing.T, path string, now func() time.Time) *sqlite.Store {
	t.Helper()
	st, err := sqlite.Open(context.Background(), path, sqlite.Options{Now: now})
	if err != nil {
		t.Fatalf("Open(%s): %v", path, err)
	}
	return st
}

func TestContract(t *testing.T) {
	sessiontest.Run(t, func(t *testing.T, now func() time.Time) session.Store {
		return openStore(t, filepath.Join(t.TempDir(), "sessions", "sessions.db"), now)
	})
}
