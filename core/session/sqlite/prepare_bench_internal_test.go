package sqlite

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkPrepareNewSessionInsert is what compiling a new session's INSERT
// costs (the last step of the early open a fresh process's first
// session/new waits for): as it is, returning the id, and as it was,
// returning every column a read of the row gets.
//
//	go test -run '^$' -bench PrepareNewSessionInsert -count 5 ./core/session/sqlite/
func BenchmarkPrepareNewSessionInsert(b *testing.B) {
	ctx := context.Background()
	st, err := Open(ctx, filepath.Join(b.TempDir(), "sessions.db"), Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	everyColumn := strings.Replace(insertSessionSQL, "RETURNING id",
		"RETURNING "+fmt.Sprintf(sessionColumns, "NULL"), 1)
	everyColumn = strings.ReplaceAll(everyColumn, "s.", "")
	for _, c := range []struct{ name, sql string }{{"returning-id", insertSessionSQL}, {"returning-every-column", everyColumn}} {
		b.Run(c.name, func(b *testing.B) {
			conn, err := st.db.Conn(ctx)
			if err != nil {
				b.Fatal(err)
			}
			defer conn.Close()
			for b.Loop() {
				stmt, err := conn.PrepareContext(ctx, c.sql)
				if err != nil {
					b.Fatal(err)
				}
				stmt.Close()
			}
		})
	}
}
