package sqlite_test

import (
	"database/sql"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/ncruces/go-sqlite3/driver"
)

// normalizeDDL makes DDL comparable across formatting: comments dropped,
// whitespace collapsed and removed next to punctuation, "IF NOT EXISTS"
// dropped (SQLite does not keep it), one statement per element, sorted.
func normalizeDDL(ddl string) []string {
	ddl = regexp.MustCompile(`--[^\n]*`).ReplaceAllString(ddl, "")
	var out []string
	for _, stmt := range strings.Split(ddl, ";") {
		s := strings.Join(strings.Fields(stmt), " ")
		s = regexp.MustCompile(` ?([(),]) ?`).ReplaceAllString(s, "$1")
		s = strings.Replace(s, " IF NOT EXISTS", "", 1)
		if s != "" {
			out = append(out, s)
		}
	}
	slices.Sort(out)
	return out
}

// schemaOf returns the DDL SQLite keeps for a database, without its own
// internal tables.
func schemaOf(t *testing.T, db *sql.DB) string {
	t.Helper()
	rows, err := db.Query(`SELECT sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%'`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var stmts []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			t.Fatal(err)
		}
		stmts = append(stmts, s)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return strings.Join(stmts, ";\n")
}

func rawDB(t *testing.T, path string) *sql.DB {
	t.Helper()
	db, err := driver.Open("file:" + filepath.ToSlash(path))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// TestFreshSchemaIsGooseV11 compares what a new sessions.db holds with
// goose's v11 DDL from the reference (testdata/schema_v11.sql).
func TestFreshSchemaIsGooseV11(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sessions.db")
	openStore(t, path, nil).Close()
	want, err := os.ReadFile("../testdata/schema_v11.sql")
	if err != nil {
		t.Fatal(err)
	}
	db := rawDB(t, path)
	got := normalizeDDL(schemaOf(t, db))
	if w := normalizeDDL(string(want)); !slices.Equal(got, w) {
		t.Errorf("schema differs from goose v11:\n got %q\nwant %q", got, w)
	}
	var versions []int
	rows, err := db.Query(`SELECT version FROM schema_version ORDER BY version`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var v int
		rows.Scan(&v)
		versions = append(versions, v)
	}
	if !slices.Equal(versions, []int{11}) {
		t.Errorf("schema_version rows %v, want [11] as goose writes for a new file", versions)
	}
	var mode string
	if err := db.QueryRow(`PRAGMA journal_mode`).Scan(&mode); err != nil || mode != "wal" {
		t.Errorf("journal_mode %q (%v), want wal", mode, err)
	}
}

func TestNormalizeDDL(t *testing.T) {
	a := normalizeDDL("CREATE TABLE IF NOT EXISTS t (\n  a INTEGER ,b TEXT -- note\n);")
	b := normalizeDDL("CREATE TABLE t(a INTEGER, b TEXT)")
	if !slices.Equal(a, b) {
		t.Errorf("%q != %q", a, b)
	}
	if c := normalizeDDL("CREATE TABLE t(a INTEGER, b BLOB)"); slices.Equal(a, c) {
		t.Error("different column types compare equal")
	}
}
