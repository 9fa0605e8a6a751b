package sqlite

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// Opening an existing store starts its write-ahead log (the log's new
// header, which SQLite syncs, is written then, beside the editor's
// initialize, not by the first session's commit) and leaves user_version
// as it was.
func TestOpenStartsTheWAL(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "sessions.db")
	s, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.db.ExecContext(ctx, "PRAGMA user_version = 7"); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(path + "-wal"); err == nil && fi.Size() != 0 {
		t.Fatalf("WAL left at %d bytes by close", fi.Size())
	}
	s, err = Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	fi, err := os.Stat(path + "-wal")
	if err != nil || fi.Size() < 32 {
		t.Fatalf("WAL after open: %v, %v", fi, err)
	}
	var v int
	if err := s.db.QueryRowContext(ctx, "PRAGMA user_version").Scan(&v); err != nil || v != 7 {
		t.Fatalf("user_version %d, %v", v, err)
	}
}
