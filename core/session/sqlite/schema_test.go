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
// internal tables and without goose-acp's own id-floor table (goose's
// schema is compared here; TestIDFloorTable checks ours).
func schemaOf(t *testing.T, db *sql.DB) string {
	t.Helper()
	rows, err := db.Query(`SELECT sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'goose_acp_%'`)
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

// ddlFile reads a testdata DDL file without its INSERT statements.
func ddlFile(t *testing.T, name string) []string {
	t.Helper()
	b, err := os.ReadFile("../testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return slices.DeleteFunc(normalizeDDL(string(b)), func(s string) bool { return strings.HasPrefix(s, "INSERT ") })
}

// TestFreshSchemaIsGooseV17 compares what a new sessions.db holds with
// goose 1.54's create_schema (testdata/schema_v17.sql, copied from
// sessions-db-v17.md): statements, creation order, column order, counts.
func TestFreshSchemaIsGooseV17(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sessions.db")
	openStore(t, path, nil).Close()
	db := rawDB(t, path)
	if got, w := normalizeDDL(schemaOf(t, db)), ddlFile(t, "schema_v17.sql"); !slices.Equal(got, w) {
		t.Errorf("schema differs from goose v17:\n got %q\nwant %q", got, w)
	}
	b, _ := os.ReadFile("../testdata/schema_v17.sql")
	var wantOrder []string
	for _, m := range regexp.MustCompile(`CREATE (?:TABLE|INDEX) IF NOT EXISTS (\w+)`).FindAllStringSubmatch(string(b), -1) {
		wantOrder = append(wantOrder, m[1])
	}
	if got := queryStrings(t, db, `SELECT name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' AND name NOT LIKE 'goose_acp_%' ORDER BY rowid`); !slices.Equal(got, wantOrder) {
		t.Errorf("creation order %q, want goose's %q", got, wantOrder)
	}
	if got := queryStrings(t, db, `SELECT name FROM pragma_table_info('sessions')`); !slices.Equal(got, v17SessionColumns) {
		t.Errorf("sessions columns %q, want %q", got, v17SessionColumns)
	}
	tables := queryStrings(t, db, `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'goose_acp_%'`)
	indexes := queryStrings(t, db, `SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL`)
	if len(tables) != 7 || !slices.Contains(tables, "sqlite_sequence") || len(indexes) != 9 {
		t.Errorf("tables %q, named indexes %q: want 6 tables + sqlite_sequence and 9 indexes", tables, indexes)
	}
	if v := queryStrings(t, db, `SELECT version FROM schema_version ORDER BY version`); !slices.Equal(v, []string{"17"}) {
		t.Errorf("schema_version rows %v, want [17] as goose writes for a new file", v)
	}
	var mode string
	if err := db.QueryRow(`PRAGMA journal_mode`).Scan(&mode); err != nil || mode != "wal" {
		t.Errorf("journal_mode %q (%v), want wal", mode, err)
	}
}

// v17SessionColumns is the sessions column order of goose's v17 DDL.
var v17SessionColumns = strings.Fields(`id name description user_set_name session_type working_dir
	created_at updated_at extension_data total_tokens input_tokens output_tokens cache_read_tokens
	cache_write_tokens accumulated_total_tokens accumulated_input_tokens accumulated_output_tokens
	accumulated_cache_read_tokens accumulated_cache_write_tokens accumulated_cost schedule_id recipe_json
	user_recipe_values_json provider_name model_config_json goose_mode archived_at project_id
	parent_session_id parent_delegation`)

func queryStrings(t *testing.T, db *sql.DB, q string) []string {
	t.Helper()
	rows, err := db.Query(q)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			t.Fatal(err)
		}
		out = append(out, s)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
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

// TestIDFloorTable: goose-acp's one table of its own is there, with the
// DDL it is created with, and only it is beside goose's schema.
func TestIDFloorTable(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sessions.db")
	openStore(t, path, nil).Close()
	db := rawDB(t, path)
	got := queryStrings(t, db, `SELECT sql FROM sqlite_master WHERE name LIKE 'goose_acp_%'`)
	want := []string{"CREATE TABLE goose_acp_session_id_floor(day TEXT PRIMARY KEY,last INTEGER NOT NULL)"}
	if len(got) != 1 || !slices.Equal(normalizeDDL(got[0]), want) {
		t.Errorf("goose-acp's tables %q, want %q", got, want)
	}
}
