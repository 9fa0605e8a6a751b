package sqlite

import (
	"context"
	"database/sql"
	"os"
)

// currentSQL reads, in one statement, what an open of an up-to-date file
// checks: the schema version, goose-acp's id floor table and whether
// sessions has thread_id. It fails on a file without schema_version (new,
// or from before goose recorded versions).
const currentSQL = `SELECT
    (SELECT MAX(version) FROM schema_version),
    EXISTS (SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '` + idFloorTable + `'),
    EXISTS (SELECT 1 FROM pragma_table_info('sessions') WHERE name = 'thread_id')`

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
	var floor, thread bool
	if err := s.db.QueryRowContext(ctx, currentSQL).Scan(&version, &floor, &thread); err != nil {
		return false
	}
	if !version.Valid || version.Int64 != SchemaVersion || !floor {
		return false
	}
	s.setColumns(thread)
	return true
}

// walHeaderSize is the size of a write-ahead log's header; a log that
// holds a frame is longer.
const walHeaderSize = 32
