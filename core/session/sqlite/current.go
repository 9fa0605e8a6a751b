package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"os"
)

// currentSQL reads, in one statement, what an open of an up-to-date file
// checks: the schema version, goose-acp's id floor table and whether
// sessions' DDL mentions thread_id at all. It fails on a file without
// schema_version (new, or from before goose recorded versions).
//
// The DDL text, not pragma_table_info: that table-valued function sets up
// SQLite's pragma virtual table for this one question, and was 0.25-0.3
// ms of a fresh process's open, where the editor's first session/new
// waits for it (tl probe, 45 opens each way). A DDL that never mentions
// thread_id has no such column; one that does is checked exactly
// (hasThreadID).
const currentSQL = `SELECT
    (SELECT MAX(version) FROM schema_version),
    EXISTS (SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '` + idFloorTable + `'),
    EXISTS (SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'sessions' AND instr(lower(sql), 'thread_id') > 0)`

// threadIDSQL compiles only where sessions has a thread_id column.
const threadIDSQL = `SELECT thread_id FROM sessions LIMIT 0`

// openCurrent opens a file that needs nothing written: its schema is at
// SchemaVersion, the id floor table exists, and its write-ahead log holds
// frames, so the first write appends to the log and syncs no new header
// (startWAL). That is every open after the first of a goose-acp that
// closed cleanly (keepShortWAL), an editor's usual start: one read
// instead of a write transaction's five statements and its commit
// (0.3-0.8 ms of a fresh process, where session/new waits for the
// open). It reports false, having changed nothing, for any other file
// (the write path decides, and reports errors).
func (s *Store) openCurrent(ctx context.Context, abs string) bool {
	if fi, err := os.Stat(abs + "-wal"); err != nil || fi.Size() <= walHeaderSize {
		return false
	}
	var version sql.NullInt64
	var floor, mentioned bool
	if err := s.db.QueryRowContext(ctx, currentSQL).Scan(&version, &floor, &mentioned); err != nil {
		return false
	}
	if !version.Valid || version.Int64 != SchemaVersion || !floor {
		return false
	}
	thread := false
	if mentioned {
		// A migrated file (goose's migration 10 added the column), or a
		// DDL naming thread_id some other way: the column is there when a
		// query reading it compiles. Anything else goes the write path,
		// which asks pragma_table_info.
		if err := s.db.QueryRowContext(ctx, threadIDSQL).Scan(new(any)); !errors.Is(err, sql.ErrNoRows) {
			return false
		}
		thread = true
	}
	s.setColumns(thread)
	return true
}

// walHeaderSize is the size of a write-ahead log's header; a log that
// holds a frame is longer.
const walHeaderSize = 32
