package sqlite

import (
	"bytes"
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/ncruces/go-sqlite3/driver"

	"github.com/goose-acp/goose-acp/core/session"
)

// oneFrameWAL is the size of a write-ahead log holding one 4 KiB page.
const oneFrameWAL = 32 + 24 + 4096

// Close leaves a one-frame write-ahead log, and the next process's first
// write appends to it: the log's header is not written again, so SQLite
// has no header to sync on that process's start-up path (without the kept
// log, opening an existing store wrote a new one, which SQLite syncs). The
// open of that up-to-date file writes nothing at all (openCurrent), the
// new session's write appends; user_version is as it was, and the data is
// all there.
func TestCloseKeepsAOneFrameWAL(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "sessions.db")
	s, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.db.ExecContext(ctx, "PRAGMA user_version = 7"); err != nil {
		t.Fatal(err)
	}
	sess, err := s.Create(ctx, session.NewSession{WorkingDir: "/w", Name: "kept"})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path + "-wal")
	if err != nil || fi.Size() != oneFrameWAL {
		t.Fatalf("WAL after close: %v, %v; want %d bytes", fi, err, oneFrameWAL)
	}
	header, err := readHeader(path + "-wal")
	if err != nil {
		t.Fatal(err)
	}
	before := fileBytes(t, path, path+"-wal")
	s, err = Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if after := fileBytes(t, path, path+"-wal"); !bytes.Equal(after, before) {
		t.Fatal("the open of an up-to-date file wrote to it")
	}
	if _, err := s.Create(ctx, session.NewSession{WorkingDir: "/w", Name: "next"}); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(path + "-wal"); err != nil || fi.Size() <= oneFrameWAL {
		t.Fatalf("WAL after the first write: %v, %v; want its frame appended", fi, err)
	}
	if again, err := readHeader(path + "-wal"); err != nil || !bytes.Equal(again, header) {
		t.Fatalf("the first write started the WAL over (header %x -> %x, %v)", header, again, err)
	}
	var v int
	if err := s.db.QueryRowContext(ctx, "PRAGMA user_version").Scan(&v); err != nil || v != 7 {
		t.Fatalf("user_version %d, %v", v, err)
	}
	if got, err := s.Get(ctx, sess.ID, false); err != nil || got.Name != "kept" {
		t.Fatalf("session after reopen: %+v, %v", got, err)
	}
}

// A store that is the first to open the file (no log kept) starts the log
// in its open, as before.
func TestOpenStartsTheWAL(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "sessions.db")
	s, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	fi, err := os.Stat(path + "-wal")
	if err != nil || fi.Size() < 32 {
		t.Fatalf("WAL after open: %v, %v", fi, err)
	}
}

// Close waits for nobody: with another process's reader in the log (a
// goose holding a read transaction), it closes at once and leaves the log
// as it is.
func TestCloseWithAReaderElsewhereDoesNotWait(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "sessions.db")
	s, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for range 3 {
		if _, err := s.Create(ctx, session.NewSession{WorkingDir: "/w", Name: "n"}); err != nil {
			t.Fatal(err)
		}
	}
	other, err := driver.Open(dsn(path))
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	tx, err := other.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	var n int
	if err := tx.QueryRowContext(ctx, "SELECT COUNT(*) FROM sessions").Scan(&n); err != nil || n != 3 {
		t.Fatalf("reader: %d, %v", n, err)
	}
	done := make(chan error, 1)
	go func() { done <- s.Close() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(20 * time.Second): // the store's busy timeout is 30 s
		t.Fatal("Close waited for the other connection's reader")
	}
}

func readHeader(path string) ([]byte, error) {
	b, err := os.ReadFile(path)
	if err != nil || len(b) < 32 {
		return nil, err
	}
	return b[:32], nil
}

// fileBytes is the content of the files, one after the other.
func fileBytes(t *testing.T, paths ...string) []byte {
	t.Helper()
	var out []byte
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, b...)
	}
	return out
}

// An open writes (the schema check's transaction) when the file is not up
// to date for goose-acp: without the id floor table (a file goose made),
// at an older version, or without a write-ahead log to append to.
func TestOpenWritesWhatIsMissing(t *testing.T) {
	ctx := context.Background()
	for name, change := range map[string]string{
		"no id floor table": `DROP TABLE ` + idFloorTable,
		"older version":     `UPDATE schema_version SET version = 16`,
	} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "sessions.db")
			s, err := Open(ctx, path, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := s.db.ExecContext(ctx, change); err != nil {
				t.Fatal(err)
			}
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			s, err = Open(ctx, path, Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			var floor, v int
			err = s.db.QueryRowContext(ctx, `SELECT
				(SELECT COUNT(*) FROM sqlite_master WHERE name = '`+idFloorTable+`'),
				(SELECT MAX(version) FROM schema_version)`).Scan(&floor, &v)
			if err != nil || floor != 1 || v != SchemaVersion {
				t.Fatalf("after open: id floor tables %d, version %d, %v", floor, v, err)
			}
		})
	}
	t.Run("no log", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "sessions.db")
		s, err := Open(ctx, path, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if err := s.db.Close(); err != nil { // the last close without keepShortWAL deletes the log
			t.Fatal(err)
		}
		if _, err := os.Stat(path + "-wal"); !os.IsNotExist(err) {
			t.Fatalf("log after a plain close: %v", err)
		}
		s, err = Open(ctx, path, Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		if fi, err := os.Stat(path + "-wal"); err != nil || fi.Size() <= walHeaderSize {
			t.Fatalf("WAL after open: %v, %v; want the open's frame", fi, err)
		}
	})
}
