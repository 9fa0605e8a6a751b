package sqlite_test

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/session"
	"github.com/goose-acp/goose-acp/core/session/sqlite"
)

// column is one column of goose's fresh-create DDL and the schema version
// whose create_schema first had it.
type column struct {
	since int
	def   string
}

var fixtureSessions = []column{
	{1, "id TEXT PRIMARY KEY"},
	{4, "name TEXT NOT NULL DEFAULT ''"},
	{1, "description TEXT NOT NULL DEFAULT ''"},
	{4, "user_set_name BOOLEAN DEFAULT FALSE"},
	{5, "session_type TEXT NOT NULL DEFAULT 'user'"},
	{1, "working_dir TEXT NOT NULL"},
	{1, "created_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP"},
	{1, "updated_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP"},
	{1, "extension_data TEXT DEFAULT '{}'"},
	{1, "total_tokens INTEGER"},
	{1, "input_tokens INTEGER"},
	{1, "output_tokens INTEGER"},
	{1, "accumulated_total_tokens INTEGER"},
	{1, "accumulated_input_tokens INTEGER"},
	{1, "accumulated_output_tokens INTEGER"},
	{1, "schedule_id TEXT"},
	{1, "recipe_json TEXT"},
	{2, "user_recipe_values_json TEXT"},
	{6, "provider_name TEXT"},
	{6, "model_config_json TEXT"},
	{8, "goose_mode TEXT NOT NULL DEFAULT 'auto'"},
	{10, "thread_id TEXT"},
	// Files created at v10/v11 and migrated on: ALTER appends these.
	{12, "archived_at TIMESTAMP"},
	{12, "project_id TEXT"},
	{13, "accumulated_cost REAL"},
	{14, "cache_read_tokens INTEGER"},
	{14, "cache_write_tokens INTEGER"},
	{14, "accumulated_cache_read_tokens INTEGER"},
	{14, "accumulated_cache_write_tokens INTEGER"},
	{15, "parent_session_id TEXT"},
}

var fixtureMessages = []column{
	{1, "id INTEGER PRIMARY KEY AUTOINCREMENT"},
	{7, "message_id TEXT"},
	{1, "session_id TEXT NOT NULL REFERENCES sessions(id)"},
	{1, "role TEXT NOT NULL"},
	{1, "content_json TEXT NOT NULL"},
	{1, "created_timestamp INTEGER NOT NULL"},
	{1, "timestamp TIMESTAMP DEFAULT CURRENT_TIMESTAMP"},
	{1, "tokens INTEGER"},
	{3, "metadata_json TEXT"},
}

var fixtureExtra = []column{
	{1, "CREATE INDEX idx_messages_session ON messages(session_id)"},
	{1, "CREATE INDEX idx_messages_timestamp ON messages(timestamp)"},
	{7, "CREATE INDEX idx_messages_message_id ON messages(message_id)"},
	{1, "CREATE INDEX idx_sessions_updated ON sessions(updated_at DESC)"},
	{5, "CREATE INDEX idx_sessions_type ON sessions(session_type)"},
	{10, "CREATE INDEX idx_sessions_thread ON sessions(thread_id)"},
	{10, `CREATE TABLE threads (id TEXT PRIMARY KEY, name TEXT NOT NULL DEFAULT 'New Chat',
		user_set_name BOOLEAN DEFAULT FALSE, working_dir TEXT, created_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP,
		updated_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP, archived_at TIMESTAMP, metadata_json TEXT DEFAULT '{}')`},
	{10, `CREATE TABLE thread_messages (id INTEGER PRIMARY KEY AUTOINCREMENT,
		thread_id TEXT NOT NULL REFERENCES threads(id), session_id TEXT, message_id TEXT, role TEXT NOT NULL,
		content_json TEXT NOT NULL, created_timestamp INTEGER NOT NULL, metadata_json TEXT DEFAULT '{}')`},
	{10, "CREATE INDEX idx_thread_messages_thread ON thread_messages(thread_id)"},
	{10, "CREATE INDEX idx_thread_messages_message_id ON thread_messages(message_id)"},
	{11, `CREATE TABLE provider_inventory_entries (inventory_key TEXT PRIMARY KEY, provider_id TEXT NOT NULL,
		provider_family TEXT NOT NULL, last_updated_at TEXT, last_refresh_attempt_at TEXT, last_refresh_error TEXT,
		created_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP, updated_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP)`},
	{11, `CREATE TABLE provider_inventory_models (inventory_key TEXT NOT NULL
		REFERENCES provider_inventory_entries(inventory_key) ON DELETE CASCADE, ordinal INTEGER NOT NULL,
		model_id TEXT NOT NULL, name TEXT NOT NULL, family TEXT, context_limit INTEGER, reasoning BOOLEAN,
		recommended BOOLEAN, PRIMARY KEY (inventory_key, ordinal))`},
	{11, "CREATE INDEX idx_provider_inventory_provider_id ON provider_inventory_entries(provider_id)"},
	{15, "CREATE INDEX idx_sessions_parent ON sessions(parent_session_id)"},
	{15, `CREATE TABLE usage_ledger (id INTEGER PRIMARY KEY AUTOINCREMENT,
		session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE, created_timestamp INTEGER NOT NULL,
		model TEXT, input_tokens INTEGER, output_tokens INTEGER, total_tokens INTEGER, cache_read_tokens INTEGER,
		cache_write_tokens INTEGER, cost REAL, cost_source TEXT, is_compaction INTEGER DEFAULT 0)`},
	{15, "CREATE INDEX idx_usage_ledger_session ON usage_ledger(session_id)"},
	{16, "CREATE INDEX idx_messages_session_created ON messages(session_id, created_timestamp, id)"},
}

// fixtureDDL is what goose's create_schema at version v wrote; v 0 is the
// first sessions.db, before schema_version existed.
func fixtureDDL(v int) []string {
	cols := func(cs []column) string {
		var out []string
		for _, c := range cs {
			if c.since <= max(v, 1) {
				out = append(out, c.def)
			}
		}
		return strings.Join(out, ",\n  ")
	}
	var ddl []string
	if v > 0 {
		ddl = append(ddl, `CREATE TABLE schema_version (version INTEGER PRIMARY KEY, applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP)`,
			fmt.Sprintf(`INSERT INTO schema_version (version) VALUES (%d)`, v))
	}
	ddl = append(ddl, "CREATE TABLE sessions (\n  "+cols(fixtureSessions)+"\n)",
		"CREATE TABLE messages (\n  "+cols(fixtureMessages)+"\n)")
	for _, c := range fixtureExtra {
		if c.since <= max(v, 1) {
			ddl = append(ddl, c.def)
		}
	}
	return ddl
}

// seedFixture writes goose-shaped rows with only the columns version v had.
func seedFixture(t *testing.T, db *sql.DB, v int) {
	t.Helper()
	exec := func(q string, args ...any) {
		t.Helper()
		if _, err := db.Exec(q, args...); err != nil {
			t.Fatalf("v%d: %s: %v", v, q, err)
		}
	}
	for _, stmt := range fixtureDDL(v) {
		exec(stmt)
	}
	seedRows(t, db, v)
}

// seedRows writes goose-shaped rows with only the columns version v had.
func seedRows(t *testing.T, db *sql.DB, v int) {
	t.Helper()
	exec := func(q string, args ...any) {
		t.Helper()
		if _, err := db.Exec(q, args...); err != nil {
			t.Fatalf("v%d: %s: %v", v, q, err)
		}
	}
	// Session 1: legacy description only, RFC 3339 timestamps (sqlx import).
	exec(`INSERT INTO sessions (id, description, working_dir, created_at, updated_at, total_tokens)
		VALUES ('20240101_1', 'old description', '/proj', '2024-01-01T10:00:00+00:00', '2024-01-01T10:30:00+00:00', 42)`)
	// Session 2: named "ACP Session" by goose's ACP server before v9.
	if v >= 4 {
		exec(`INSERT INTO sessions (id, name, working_dir, created_at, updated_at)
			VALUES ('20240101_2', 'ACP Session', '/proj', '2024-01-01 09:00:00', '2024-01-01 09:00:00')`)
	}
	n := 0
	msg := func(role, content string, created int64, metadata string) {
		cols, vals := "session_id, role, content_json, created_timestamp", "'20240101_1', ?, ?, ?"
		args := []any{role, content, created}
		if v >= 3 {
			cols, vals, args = cols+", metadata_json", vals+", ?", append(args, nullIfEmpty(metadata))
		}
		if n++; v >= 7 {
			cols, vals, args = cols+", message_id", vals+", ?", append(args, fmt.Sprintf("given_%d", n))
		}
		exec(`INSERT INTO messages (`+cols+`) VALUES (`+vals+`)`, args...)
	}
	msg("user", `[{"type":"text","text":"a"}]`, 100, "")
	msg("assistant", `[{"type":"text","text":"b"}]`, 100, `{"userVisible":false,"agentVisible":true}`)
	msg("user", `[{"type":"text","text":"first"}]`, 50, "not json")
	msg("system", `[{"type":"text","text":"never shown"}]`, 60, "")
	msg("assistant", `[{"type":"text","text":"half-writ`, 70, "")
}

func nullIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// TestMigratesEveryVersion builds a sessions.db from goose's DDL at every
// earlier version, opens it, and checks the schema reached v17 with the
// data intact and the same tables, columns and indexes as a goose v11 file
// migrated to v17.
func TestMigratesEveryVersion(t *testing.T) {
	refPath := filepath.Join(t.TempDir(), "v11.db")
	seedDDLFile(t, rawDB(t, refPath), "schema_v11.sql", 11)
	openStore(t, refPath, nil).Close()
	ref := rawDB(t, refPath)
	for v := 0; v < sqlite.SchemaVersion; v++ {
		t.Run(fmt.Sprintf("v%d", v), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "sessions.db")
			seedFixture(t, rawDB(t, path), v)
			st := openStore(t, path, func() time.Time { return time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC) })
			db := rawDB(t, path)
			checkVersions(t, db, v)
			checkSameShape(t, db, ref)
			checkMigratedData(t, st, v)
			st.Close()
			openStore(t, path, nil).Close() // opening again must not migrate again
			checkVersions(t, db, v)
		})
	}
}

// TestMigratesV11ToV17Exactly: a goose v11 file (its create_schema DDL)
// gets exactly the shape sessions-db-v17.md describes: version rows
// 11..17, the nine new sessions columns appended in migration order,
// usage_ledger and the three new indexes, the v11 thread tables kept.
func TestMigratesV11ToV17Exactly(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sessions.db")
	seedDDLFile(t, rawDB(t, path), "schema_v11.sql", 11)
	seedRows(t, rawDB(t, path), 11)
	st := openStore(t, path, func() time.Time { return time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC) })
	defer st.Close()
	db := rawDB(t, path)
	checkVersions(t, db, 11)
	if got, want := normalizeDDL(schemaOf(t, db)), ddlFile(t, "schema_v11_migrated_v17.sql"); !slices.Equal(got, want) {
		t.Errorf("migrated schema:\n got %q\nwant %q", got, want)
	}
	wantCols := strings.Fields(`id name description user_set_name session_type working_dir created_at updated_at
		extension_data total_tokens input_tokens output_tokens accumulated_total_tokens accumulated_input_tokens
		accumulated_output_tokens schedule_id recipe_json user_recipe_values_json provider_name model_config_json
		goose_mode thread_id archived_at project_id accumulated_cost cache_read_tokens cache_write_tokens
		accumulated_cache_read_tokens accumulated_cache_write_tokens parent_session_id parent_delegation`)
	if got := queryStrings(t, db, `SELECT name FROM pragma_table_info('sessions')`); !slices.Equal(got, wantCols) {
		t.Errorf("sessions columns %q, want %q", got, wantCols)
	}
	checkMigratedData(t, st, 11)
}

// TestMigrationV17Guard: a file that already has parent_delegation while
// recording v16 (goose's own tests demote a fresh schema so) migrates;
// goose's unguarded v17 ALTER would fail on it with "duplicate column".
func TestMigrationV17Guard(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sessions.db")
	db := rawDB(t, path)
	seedFixture(t, db, 16)
	if _, err := db.Exec(`ALTER TABLE sessions ADD COLUMN parent_delegation TEXT`); err != nil {
		t.Fatal(err)
	}
	st := openStore(t, path, nil)
	defer st.Close()
	checkVersions(t, db, 16)
	if n := len(queryStrings(t, db, `SELECT name FROM pragma_table_info('sessions') WHERE name = 'parent_delegation'`)); n != 1 {
		t.Errorf("%d parent_delegation columns", n)
	}
}

// seedDDLFile creates a file from a testdata DDL file and records version v.
func seedDDLFile(t *testing.T, db *sql.DB, name string, v int) {
	t.Helper()
	b, err := os.ReadFile("../testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(string(b)); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if _, err := db.Exec(`INSERT OR IGNORE INTO schema_version (version) VALUES (?)`, v); err != nil {
		t.Fatal(err)
	}
}

func checkVersions(t *testing.T, db *sql.DB, v int) {
	t.Helper()
	got := queryStrings(t, db, `SELECT version FROM schema_version ORDER BY version`)
	var want []string
	for n := max(v, 1); n <= sqlite.SchemaVersion; n++ {
		want = append(want, strconv.Itoa(n))
	}
	if !slices.Equal(got, want) {
		t.Errorf("schema_version rows %v, want %v", got, want)
	}
}

// checkSameShape compares tables, columns and indexes by name and type with
// a reference file (ALTER TABLE appends columns, so order may differ).
func checkSameShape(t *testing.T, db, fresh *sql.DB) {
	t.Helper()
	shape := func(db *sql.DB) []string {
		rows, err := db.Query(`SELECT m.type || ' ' || m.name || ' ' || COALESCE(p.name, '') || ' ' || COALESCE(p.type, '')
			FROM sqlite_master m LEFT JOIN pragma_table_info(m.name) p ON m.type = 'table'
			WHERE m.name NOT LIKE 'sqlite_%'`)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		var out []string
		for rows.Next() {
			var s string
			rows.Scan(&s)
			out = append(out, s)
		}
		slices.Sort(out)
		return out
	}
	if got, want := shape(db), shape(fresh); !slices.Equal(got, want) {
		t.Errorf("migrated shape differs from a migrated goose v11 file:\n got %q\nwant %q", got, want)
	}
}

func checkMigratedData(t *testing.T, st interface {
	session.Store
}, v int) {
	t.Helper()
	ctx := context.Background()
	s, err := st.Get(ctx, "20240101_1", true)
	if err != nil {
		t.Fatal(err)
	}
	if s.Name != "old description" || s.WorkingDir != "/proj" || *s.TotalTokens != 42 ||
		s.GooseMode != "auto" || s.SessionType != session.TypeUser {
		t.Errorf("session 1: %+v", s)
	}
	if !s.CreatedAt.Equal(time.Date(2024, 1, 1, 10, 0, 0, 0, time.UTC)) {
		t.Errorf("created_at %v from RFC 3339 text", s.CreatedAt)
	}
	var got []string
	for _, m := range s.Conversation {
		got = append(got, fmt.Sprintf("%s:%s:%v", m.IDOrEmpty(), m.AsText(), m.Metadata.UserVisible))
	}
	// Before v3 there was no metadata column, so everything is visible;
	// before v7 migration 7 backfilled message ids from the row ids.
	visibleB := v < 3
	prefix := "msg_20240101_1_"
	if v >= 7 {
		prefix = "given_"
	}
	want := []string{prefix + "3:first:true", prefix + "1:a:true", fmt.Sprintf("%s2:b:%v", prefix, visibleB)}
	if !slices.Equal(got, want) {
		t.Errorf("conversation %q, want %q (system role and unparsable rows skipped)", got, want)
	}
	if v >= 4 {
		acp, err := st.Get(ctx, "20240101_2", false)
		if err != nil {
			t.Fatal(err)
		}
		wantType := session.TypeACP
		if v >= 9 {
			wantType = session.TypeUser // goose created it after v9; migration 9 did not run
		}
		if acp.SessionType != wantType || !acp.CreatedAt.Equal(time.Date(2024, 1, 1, 9, 0, 0, 0, time.UTC)) {
			t.Errorf("session 2: type %s created %v", acp.SessionType, acp.CreatedAt)
		}
	}
	if err := st.AppendMessage(ctx, s.ID, conversation.UserText(200, "after migration")); err != nil {
		t.Fatalf("append to migrated db: %v", err)
	}
	next, err := st.Create(ctx, session.NewSession{WorkingDir: "/proj"})
	if err != nil || next.ID != "20250102_1" {
		t.Errorf("create in migrated db: %v %v", next.ID, err)
	}
}

// A migrated file keeps its thread_id column, and the opens after the
// migration (which only read the file) still read the column.
func TestReopenedMigratedFileReadsThreadID(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sessions.db")
	seedDDLFile(t, rawDB(t, path), "schema_v11.sql", 11)
	seedRows(t, rawDB(t, path), 11)
	openStore(t, path, nil).Close()
	if _, err := rawDB(t, path).Exec(`UPDATE sessions SET thread_id = 'thread-1' WHERE id = '20240101_1'`); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		st := openStore(t, path, nil)
		got, err := st.Get(context.Background(), "20240101_1", true)
		st.Close()
		if err != nil || got.ThreadID == nil || *got.ThreadID != "thread-1" {
			t.Fatalf("thread_id %v, %v", got.ThreadID, err)
		}
	}
}

// A sessions table whose DDL names thread_id only inside another column's
// name has no thread_id column: every open reads and writes its rows
// (the up-to-date open checks the column, not the DDL's text).
func TestThreadIDInTheDDLTextIsNotAColumn(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "sessions.db")
	openStore(t, path, nil).Close()
	if _, err := rawDB(t, path).Exec(`ALTER TABLE sessions ADD COLUMN old_thread_id_note TEXT`); err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		st := openStore(t, path, nil)
		s, err := st.Create(ctx, session.NewSession{WorkingDir: "/proj"})
		if err != nil {
			t.Fatalf("open %d: create: %v", i, err)
		}
		got, err := st.Get(ctx, s.ID, true)
		if err != nil || got.ThreadID != nil {
			t.Fatalf("open %d: get %v, thread_id %v", i, err, got.ThreadID)
		}
		if err := st.Close(); err != nil {
			t.Fatal(err)
		}
	}
}
