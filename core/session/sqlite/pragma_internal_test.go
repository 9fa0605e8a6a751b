package sqlite

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ncruces/go-sqlite3/driver"
)

// TestConnectionSettings checks what goose's sqlx pool sets: WAL, a 30 s
// busy timeout, foreign keys on, and write transactions that take the write
// lock at BEGIN (IMMEDIATE), so a second writer waits instead of failing
// mid-transaction; and the page cache bound (512 KiB per connection).
func TestConnectionSettings(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "sessions.db")
	st, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for pragma, want := range map[string]string{"busy_timeout": "30000", "foreign_keys": "1", "journal_mode": "wal", "synchronous": "1", "cache_size": "-512"} {
		var got string
		if err := st.db.QueryRowContext(ctx, "PRAGMA "+pragma).Scan(&got); err != nil || got != want {
			t.Errorf("PRAGMA %s = %q (%v), want %s", pragma, got, err, want)
		}
	}
	tx, err := st.db.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	// No statement has run in tx yet: only BEGIN IMMEDIATE holds the lock.
	other, err := driver.Open("file:" + filepath.ToSlash(path) + "?_pragma=busy_timeout(0)&_txlock=immediate")
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	otherTx, err := other.BeginTx(ctx, nil)
	if err == nil {
		otherTx.Rollback()
		t.Fatal("a second writer began while the first held BEGIN IMMEDIATE")
	}
	if !strings.Contains(err.Error(), "locked") && !strings.Contains(err.Error(), "busy") {
		t.Errorf("second writer failed with %v, want a busy/locked error", err)
	}
}
