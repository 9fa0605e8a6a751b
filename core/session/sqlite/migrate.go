package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
)

// migrations[v] brings a database from version v-1 to v, with goose's own
// SQL (session_manager.rs apply_migration). Index 0 is unused.
var migrations = [SchemaVersion + 1][]string{
	1: {`CREATE TABLE IF NOT EXISTS schema_version (
    version INTEGER PRIMARY KEY,
    applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP
)`},
	2: {`ALTER TABLE sessions ADD COLUMN user_recipe_values_json TEXT`},
	3: {`ALTER TABLE messages ADD COLUMN metadata_json TEXT`},
	4: {
		`ALTER TABLE sessions ADD COLUMN name TEXT DEFAULT ''`,
		`ALTER TABLE sessions ADD COLUMN user_set_name BOOLEAN DEFAULT FALSE`,
	},
	5: {
		`ALTER TABLE sessions ADD COLUMN session_type TEXT NOT NULL DEFAULT 'user'`,
		`CREATE INDEX idx_sessions_type ON sessions(session_type)`,
	},
	6: {
		`ALTER TABLE sessions ADD COLUMN provider_name TEXT`,
		`ALTER TABLE sessions ADD COLUMN model_config_json TEXT`,
	},
	7: {
		`ALTER TABLE messages ADD COLUMN message_id TEXT`,
		`UPDATE messages SET message_id = 'msg_' || session_id || '_' || id`,
		`CREATE INDEX idx_messages_message_id ON messages(message_id)`,
	},
	8: {`ALTER TABLE sessions ADD COLUMN goose_mode TEXT NOT NULL DEFAULT 'auto'`},
	9: {`UPDATE sessions SET session_type = 'acp'
WHERE session_type = 'user' AND name = 'ACP Session' AND user_set_name = FALSE`},
	10: {
		// The ALTER for thread_id is added by migrate only when the column
		// is missing, as goose checks pragma_table_info first.
		`CREATE INDEX IF NOT EXISTS idx_sessions_thread ON sessions(thread_id)`,
		ifNotExists(threadsDDL),
		ifNotExists(threadMessagesDDL),
		`CREATE INDEX IF NOT EXISTS idx_thread_messages_thread ON thread_messages(thread_id)`,
		`CREATE INDEX IF NOT EXISTS idx_thread_messages_message_id ON thread_messages(message_id)`,
	},
	11: {
		ifNotExists(inventoryEntriesDDL),
		ifNotExists(inventoryModelsDDL),
		ifNotExists(inventoryIndexDDL),
	},
}

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

func createFresh(ctx context.Context, tx *sql.Tx, now string) error {
	for _, stmt := range freshSchema {
		if _, err := tx.ExecContext(ctx, stmt); err != nil {
			return fmt.Errorf("create schema: %w", err)
		}
	}
	return recordVersion(ctx, tx, SchemaVersion, now)
}

func migrateFrom(ctx context.Context, tx *sql.Tx, current int, now string) error {
	for v := current + 1; v <= SchemaVersion; v++ {
		if v == 10 {
			if err := addThreadIDColumn(ctx, tx); err != nil {
				return err
			}
		}
		for _, stmt := range migrations[v] {
			if _, err := tx.ExecContext(ctx, stmt); err != nil {
				return fmt.Errorf("migration v%d: %w", v, err)
			}
		}
		if err := recordVersion(ctx, tx, v, now); err != nil {
			return err
		}
	}
	return nil
}

func addThreadIDColumn(ctx context.Context, tx *sql.Tx) error {
	var n int
	err := tx.QueryRowContext(ctx,
		`SELECT COUNT(*) FROM pragma_table_info('sessions') WHERE name = 'thread_id'`).Scan(&n)
	if err != nil {
		return fmt.Errorf("migration v10: %w", err)
	}
	if n > 0 {
		return nil
	}
	if _, err := tx.ExecContext(ctx, `ALTER TABLE sessions ADD COLUMN thread_id TEXT`); err != nil {
		return fmt.Errorf("migration v10: %w", err)
	}
	return nil
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
