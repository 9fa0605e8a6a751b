package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"path/filepath"
	"testing"

	"github.com/ncruces/go-sqlite3"

	"github.com/goose-acp/goose-acp/core/session"
)

// A write transaction begins, commits and rolls back with the statements
// its connection prepared when it opened (SQLite parses no transaction
// text); read-only transactions are go-sqlite3's, and work.
func TestTransactionsRunPreparedStatements(t *testing.T) {
	ctx := context.Background()
	s, err := Open(ctx, filepath.Join(t.TempDir(), "sessions.db"), Options{MaxOpenConns: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	runs := func() (begin, commit, rollback int) {
		t.Helper()
		conn, err := s.db.Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		err = conn.Raw(func(dc any) error {
			c, ok := dc.(*txConn)
			if !ok {
				return errors.New("not a txConn")
			}
			begin = c.begin.Status(sqlite3.STMTSTATUS_RUN, false)
			commit = c.commit.Status(sqlite3.STMTSTATUS_RUN, false)
			rollback = c.rollback.Status(sqlite3.STMTSTATUS_RUN, false)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		return
	}
	b0, c0, r0 := runs()
	sess, err := s.Create(ctx, session.NewSession{WorkingDir: "/w", Name: "n"})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Update(ctx, "missing", session.Update{Name: &sess.Name}); !errors.Is(err, session.ErrNotFound) {
		t.Fatalf("update of a missing session: %v", err)
	}
	b, c, r := runs()
	if b-b0 != 2 || c-c0 != 1 || r-r0 != 1 {
		t.Fatalf("prepared BEGIN/COMMIT/ROLLBACK ran %d/%d/%d times, want 2/1/1", b-b0, c-c0, r-r0)
	}
	tx, err := s.db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM sessions`).Scan(&n); err != nil || n != 1 {
		t.Fatalf("read-only transaction: %d sessions, %v", n, err)
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM sessions`); err == nil {
		t.Fatal("a read-only transaction wrote")
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	if got, err := s.Get(ctx, sess.ID, false); err != nil || got.Name != "n" {
		t.Fatalf("after the read-only transaction: %+v, %v", got, err)
	}
}
