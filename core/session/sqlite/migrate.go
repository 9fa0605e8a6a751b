package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"github.com/goose-acp/goose-acp/core/errkind"
)

// step is part of a migration: its statements run in order, but only when
// the sessions table lacks the column named in unless (when set). goose
// guards v10's and v12..v15's ALTERs this way, so a file that already has
// the column (a fresh schema demoted to an older version) migrates cleanly.
type step struct {
	unless string
	stmts  []string
}

func always(stmts ...string) step { return step{stmts: stmts} }

// addColumn is a guarded ALTER TABLE sessions ADD COLUMN (plus whatever
// else goose runs only together with it).
func addColumn(col, typ string, with ...string) step {
	return step{unless: col, stmts: append([]string{`ALTER TABLE sessions ADD COLUMN ` + col + ` ` + typ}, with...)}
}

// migrations[v] brings a database from version v-1 to v, with goose's own
// SQL (session_manager.rs apply_migration). Index 0 is unused.
var migrations = [SchemaVersion + 1][]step{
	1: {always(`CREATE TABLE IF NOT EXISTS schema_version (
    version INTEGER PRIMARY KEY,
    applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP
)`)},
	2: {always(`ALTER TABLE sessions ADD COLUMN user_recipe_values_json TEXT`)},
	3: {always(`ALTER TABLE messages ADD COLUMN metadata_json TEXT`)},
	4: {always(
		`ALTER TABLE sessions ADD COLUMN name TEXT DEFAULT ''`,
		`ALTER TABLE sessions ADD COLUMN user_set_name BOOLEAN DEFAULT FALSE`,
	)},
	5: {always(
		`ALTER TABLE sessions ADD COLUMN session_type TEXT NOT NULL DEFAULT 'user'`,
		`CREATE INDEX idx_sessions_type ON sessions(session_type)`,
	)},
	6: {always(
		`ALTER TABLE sessions ADD COLUMN provider_name TEXT`,
		`ALTER TABLE sessions ADD COLUMN model_config_json TEXT`,
	)},
	7: {always(
		`ALTER TABLE messages ADD COLUMN message_id TEXT`,
		`UPDATE messages SET message_id = 'msg_' || session_id || '_' || id`,
		`CREATE INDEX idx_messages_message_id ON messages(message_id)`,
	)},
	8: {always(`ALTER TABLE sessions ADD COLUMN goose_mode TEXT NOT NULL DEFAULT 'auto'`)},
	9: {always(`UPDATE sessions SET session_type = 'acp'
WHERE session_type = 'user' AND name = 'ACP Session' AND user_set_name = FALSE`)},
	10: {
		addColumn("thread_id", "TEXT"),
		always(
			`CREATE INDEX IF NOT EXISTS idx_sessions_thread ON sessions(thread_id)`,
			ifNotExists(threadsDDL),
			ifNotExists(threadMessagesDDL),
			`CREATE INDEX IF NOT EXISTS idx_thread_messages_thread ON thread_messages(thread_id)`,
			`CREATE INDEX IF NOT EXISTS idx_thread_messages_message_id ON thread_messages(message_id)`,
		),
	},
	11: {always(
		ifNotExists(inventoryEntriesDDL),
		ifNotExists(inventoryModelsDDL),
		ifNotExists(inventoryIndexDDL),
	)},
	12: {addColumn("archived_at", "TIMESTAMP"), addColumn("project_id", "TEXT")},
	13: {addColumn("accumulated_cost", "REAL")},
	14: {
		addColumn("cache_read_tokens", "INTEGER"),
		addColumn("cache_write_tokens", "INTEGER"),
		addColumn("accumulated_cache_read_tokens", "INTEGER"),
		addColumn("accumulated_cache_write_tokens", "INTEGER"),
	},
	15: {
		addColumn("parent_session_id", "TEXT", sessionsParentIndex),
		always(usageLedgerDDL, usageLedgerIndex),
	},
	16: {always(messagesSessionCreatedIndex)},
	// goose's v17 ALTER has no guard: a file that already has
	// parent_delegation below v17 (goose's own tests demote a fresh schema
	// so) would fail there with "duplicate column". Guarding it changes
	// nothing for any other file.
	17: {addColumn("parent_delegation", "TEXT")},
}

// ErrSchemaTooNew: the sessions.db was written by a newer goose or
// goose-acp, whose schema this build does not know; it is left untouched.
var ErrSchemaTooNew = errkind.New(errkind.TooNew, "sessions.db schema is newer than this goose-acp supports")

func ifNotExists(ddl string) string {
	for _, kind := range []string{"CREATE TABLE ", "CREATE INDEX "} {
		if rest, ok := strings.CutPrefix(ddl, kind); ok {
			return kind + "IF NOT EXISTS " + rest
		}
	}
	return ddl
}

// ensureSchema creates or migrates the schema inside one BEGIN IMMEDIATE
// transaction, so two processes opening a new file at once cannot both
// create it. It returns the version found before any change (0 for a new
// or pre-versioning file) and whether it created the schema from nothing.
func ensureSchema(ctx context.Context, tx *sql.Tx, now string) (found int, created bool, err error) {
	hasVersions, err := tableExists(ctx, tx, "schema_version")
	if err != nil {
		return 0, false, err
	}
	if hasVersions {
		var v sql.NullInt64
		if err := tx.QueryRowContext(ctx, `SELECT MAX(version) FROM schema_version`).Scan(&v); err != nil {
			return 0, false, fmt.Errorf("read schema version: %w", err)
		}
		if found := int(v.Int64); found > SchemaVersion {
			return found, false, fmt.Errorf("%w: the file is at schema v%d, this goose-acp knows up to v%d "+
				"(goose 1.54's); open it with a goose-acp release that supports schema v%d, or with the goose that wrote it",
				ErrSchemaTooNew, found, SchemaVersion, found)
		}
		return int(v.Int64), false, migrateFrom(ctx, tx, int(v.Int64), now)
	}
	hasSessions, err := tableExists(ctx, tx, "sessions")
	if err != nil {
		return 0, false, err
	}
	if hasSessions {
		// A sessions.db from before schema_version existed. goose would
		// create the full schema over it and break; migrating from 1 is
		// what keeps its data.
		return 0, false, migrateFrom(ctx, tx, 0, now)
	}
	return 0, true, createFresh(ctx, tx, now)
}

// createFresh runs goose's create_schema: the version table and its one
// row first, then the tables and indexes.
func createFresh(ctx context.Context, tx *sql.Tx, now string) error {
	if _, err := tx.ExecContext(ctx, schemaVersionDDL); err != nil {
		return fmt.Errorf("create schema: %w", err)
	}
	if err := recordVersion(ctx, tx, SchemaVersion, now); err != nil {
		return err
	}
	for _, stmt := range freshSchema {
		if _, err := tx.ExecContext(ctx, stmt); err != nil {
			return fmt.Errorf("create schema: %w", err)
		}
	}
	return nil
}

func migrateFrom(ctx context.Context, tx *sql.Tx, current int, now string) error {
	for v := current + 1; v <= SchemaVersion; v++ {
		for _, st := range migrations[v] {
			if err := st.run(ctx, tx); err != nil {
				return fmt.Errorf("migration v%d: %w", v, err)
			}
		}
		if err := recordVersion(ctx, tx, v, now); err != nil {
			return err
		}
	}
	return nil
}

func (st step) run(ctx context.Context, tx *sql.Tx) error {
	if st.unless != "" {
		has, err := hasColumn(ctx, tx, "sessions", st.unless)
		if err != nil || has {
			return err
		}
	}
	for _, stmt := range st.stmts {
		if _, err := tx.ExecContext(ctx, stmt); err != nil {
			return err
		}
	}
	return nil
}

// hasColumn is goose's pragma_table_info check.
func hasColumn(ctx context.Context, q querier, table, col string) (bool, error) {
	var n int
	err := q.QueryRowContext(ctx, `SELECT COUNT(*) FROM pragma_table_info(?) WHERE name = ?`, table, col).Scan(&n)
	if err != nil {
		return false, fmt.Errorf("look for column %s.%s: %w", table, col, err)
	}
	return n > 0, nil
}

func recordVersion(ctx context.Context, tx *sql.Tx, v int, now string) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO schema_version (version, applied_at) VALUES (?, ?)`, v, now)
	if err != nil {
		return fmt.Errorf("record schema version %d: %w", v, err)
	}
	return nil
}

func tableExists(ctx context.Context, tx *sql.Tx, name string) (bool, error) {
	var n int
	err := tx.QueryRowContext(ctx,
		`SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = ?`, name).Scan(&n)
	if err != nil {
		return false, fmt.Errorf("look for table %s: %w", name, err)
	}
	return n > 0, nil
}
