package sqlite

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/ncruces/go-sqlite3"
	"github.com/ncruces/go-sqlite3/vfs/readervfs"

	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/session"
)

// A huge message's row is copied into messages from a staging database
// instead of being inserted with its values. SQLite builds an inserted
// row's record in memory from the values it is given, and a TEXT value
// cannot be given without being in its memory too: a 31 MB content_json
// took 62 MB of SQLite's (WebAssembly) memory, on top of the prompt Go
// holds. The staging database is made on the fly by stageFile: one table
// shaped as messages, with its indexes, whose one row is the record
// SQLite would have built, read page by page as SQLite asks for it, the
// content streamed from the message. With foreign keys off for the copy,
// INSERT INTO messages SELECT * FROM it is SQLite's transfer optimization:
// the record is read once and inserted as it is (its index entries too),
// never built. The row is the one an INSERT of the same values makes:
// the id AUTOINCREMENT would give, timestamp's CURRENT_TIMESTAMP, NULL
// tokens (stage_internal_test.go compares the two and checks integrity).
// Compaction's new metadata for a kept huge row is staged the same way
// (rewrite: the row deleted and copied back under its id, its other
// columns as stored), where UPDATE would read the record whole and build
// it again. A messages table of another shape is written in place
// (inplace.go).

const stageSchema = "goose_acp_stage"

// maxStaged bounds how many huge messages of one write are staged; any
// further one is written in place.
const maxStaged = 8

var stageSeq atomic.Int64

// stager is a staging database attached to one held connection, with a
// table for each of the write's first huge messages (by their index in
// the write).
type stager struct {
	name     string
	attached bool
	file     *stageFile
	shape    *stageShape
	byMsg    map[int]*stageTable
	sessID   string
}

// attachStage attaches a staging database for msgs' huge messages to
// conn, with foreign keys off (SQLite's transfer needs them off: the
// write checks the session itself), before its transaction begins. It
// returns nil when msgs has none or messages' shape is not one staging
// makes; detach undoes it.
func attachStage(ctx context.Context, conn *sql.Conn, sessionID string, msgs []conversation.Message) (*stager, error) {
	st := &stager{sessID: sessionID, byMsg: map[int]*stageTable{}}
	f := &stageFile{}
	for i, m := range msgs {
		if textBytes(m) < hugeRow || len(f.tables) == maxStaged {
			continue
		}
		head, size, err := session.EncodeMessageHead(sessionID, m)
		if err != nil {
			return nil, err // refused as the insert would
		}
		t := &stageTable{name: fmt.Sprintf("m%d", len(f.tables)), estSize: size, head: head, msg: m}
		st.byMsg[i] = t
		f.tables = append(f.tables, t)
	}
	if len(f.tables) == 0 {
		return nil, nil
	}
	sh, err := readShape(ctx, conn)
	if err != nil {
		// Not a shape staging makes (or unreadable: the write in place
		// meets the same error): written in place.
		return nil, nil
	}
	var rows []schemaRow
	for _, t := range f.tables {
		t.estSize = makeRecord(sh.values(sessionID, t.head, strings.Repeat("0", stampLen)), t.estSize).size()
	}
	f.layout(len(sh.idxCols))
	for _, t := range f.tables {
		table, idx := sh.ddl(t.name)
		rows = append(rows, schemaRow{typ: "table", name: t.name, table: t.name, root: t.root, sql: table})
		for i, x := range idx {
			rows = append(rows, schemaRow{typ: "index", name: fmt.Sprintf("%s_i%d", t.name, i), table: t.name, root: t.idxPages[i], sql: x})
		}
	}
	if err := f.buildPage1(rows); err != nil {
		return nil, nil // too many columns or indexes for one schema page: written in place
	}
	st.file, st.shape = f, sh
	st.name = fmt.Sprintf("goose-acp-stage-%d", stageSeq.Add(1))
	readervfs.Create(st.name, f)
	_, err = conn.ExecContext(ctx, `PRAGMA foreign_keys = OFF`)
	if err == nil {
		_, err = conn.ExecContext(ctx, `ATTACH DATABASE ? AS `+stageSchema, "file:"+st.name+"?vfs=reader")
		st.attached = err == nil
	}
	if err != nil {
		// Not staged: written in place, on this connection restored (or
		// on none, when it cannot be: the write then fails).
		return nil, st.detach(ctx, conn)
	}
	return st, nil
}

// detach detaches the staging database and turns foreign keys back on;
// a connection it cannot restore is closed rather than pooled.
func (st *stager) detach(ctx context.Context, conn *sql.Conn) error {
	readervfs.Delete(st.name)
	var err error
	if st.attached {
		if _, err = conn.ExecContext(ctx, `DETACH DATABASE `+stageSchema); err != nil {
			err = fmt.Errorf("staging: %w", err)
		}
	}
	if _, ferr := conn.ExecContext(ctx, `PRAGMA foreign_keys = ON`); ferr != nil || err != nil {
		_ = conn.Raw(func(any) error { return driver.ErrBadConn })
		return errors.Join(err, ferr)
	}
	return nil
}

// table is the staging table of the write's i-th message, if it has one.
func (st *stager) table(i int) *stageTable {
	if st == nil {
		return nil
	}
	return st.byMsg[i]
}

const nextRowSQL = `SELECT COALESCE((SELECT max(rowid) FROM messages), 0) + 1, CURRENT_TIMESTAMP`

const nextAutoincRowSQL = `SELECT max(COALESCE((SELECT seq FROM sqlite_sequence WHERE name = 'messages'), 0),
	COALESCE((SELECT max(rowid) FROM messages), 0)) + 1, CURRENT_TIMESTAMP`

// insert copies t's message into messages as the next row (the id
// AUTOINCREMENT gives, timestamp now) and returns its content's size.
func (st *stager) insert(ctx context.Context, tx dbq, raw rawConn, t *stageTable) (int, error) {
	q := nextRowSQL
	if st.shape.autoinc {
		q = nextAutoincRowSQL
	}
	var rowid int64
	var stamp string
	if err := tx.QueryRowContext(ctx, q).Scan(&rowid, &stamp); err != nil {
		return 0, err
	}
	if len(stamp) != stampLen {
		return 0, fmt.Errorf("staging: CURRENT_TIMESTAMP %q", stamp)
	}
	if err := st.bind(t, rowid, st.shape.values(st.sessID, t.head, stamp)); err != nil {
		return 0, err
	}
	defer st.unbind(t)
	return t.src.rec.contentLen, st.copyRow(raw, t)
}

// errStageTooSmall: the row does not fit the pages its table reserved.
var errStageTooSmall = errors.New("staging: row larger than its reserved pages")

// rewrite stores row rowID, which holds t's message, again with
// metadata_json set to md: deleted and copied back under the same id, its
// other columns as stored (what UPDATE ... SET metadata_json makes of it,
// without SQLite reading the huge record whole to build it again). It
// reports false, having changed nothing, when the row cannot be staged
// (a column of another type, a row past its reserved pages).
func (st *stager) rewrite(ctx context.Context, tx dbq, raw rawConn, t *stageTable, rowID int64, md string) (bool, error) {
	vals, ok, err := st.storedValues(ctx, tx, rowID)
	if err != nil || !ok {
		return false, err
	}
	for i, c := range st.shape.cols {
		if c.name == "metadata_json" {
			vals[i] = recVal{kind: valText, s: md}
		}
	}
	if err := st.bind(t, rowID, vals); err != nil {
		if errors.Is(err, errStageTooSmall) {
			return false, nil
		}
		return false, err
	}
	defer st.unbind(t)
	if _, err := tx.ExecContext(ctx, `DELETE FROM messages WHERE rowid = ?`, rowID); err != nil {
		return false, err
	}
	return true, st.copyRow(raw, t)
}

// storedValues reads row rowID's columns but content_json (streamed from
// the message) and the rowid alias (NULL in the record); ok is false for
// a column that is neither NULL, integer nor text.
func (st *stager) storedValues(ctx context.Context, tx dbq, rowID int64) ([]recVal, bool, error) {
	var sel []string
	var at []int
	vals := make([]recVal, len(st.shape.cols))
	for i, c := range st.shape.cols {
		switch {
		case c.ipk:
		case c.name == "content_json":
			vals[i] = recVal{kind: valContent}
		default:
			// CAST: the driver would turn a TIMESTAMP column into a time.
			sel = append(sel, "typeof("+quoteIdent(c.name)+")", "CAST("+quoteIdent(c.name)+" AS TEXT)")
			at = append(at, i)
		}
	}
	types := make([]string, len(at))
	raws := make([]sql.RawBytes, len(at))
	dest := make([]any, 0, 2*len(at))
	for i := range at {
		dest = append(dest, &types[i], &raws[i])
	}
	rows, err := tx.QueryContext(ctx, "SELECT "+strings.Join(sel, ", ")+" FROM messages WHERE rowid = ?", rowID)
	if err != nil {
		return nil, false, err
	}
	defer rows.Close()
	if !rows.Next() {
		return nil, false, errors.Join(rows.Err(), fmt.Errorf("staging: no row %d", rowID))
	}
	if err := rows.Scan(dest...); err != nil {
		return nil, false, err
	}
	for k, i := range at {
		switch types[k] {
		case "null":
		case "integer":
			n, err := strconv.ParseInt(string(raws[k]), 10, 64)
			if err != nil {
				return nil, false, fmt.Errorf("staging: row %d: %w", rowID, err)
			}
			vals[i] = recVal{kind: valInt, i: n}
		case "text":
			vals[i] = recVal{kind: valText, s: string(raws[k])}
		default:
			return nil, false, nil
		}
	}
	return vals, true, rows.Err()
}

// copyRow copies t's bound row into messages through SQLite's transfer.
func (st *stager) copyRow(raw rawConn, t *stageTable) error {
	return raw(func(c *sqlite3.Conn) error {
		if err := c.Exec(`INSERT INTO main.messages SELECT * FROM ` + stageSchema + `.` + t.name); err != nil {
			return fmt.Errorf("copy staged row: %w", err)
		}
		if c.Changes() != 1 || c.LastInsertRowID() != t.rowid {
			return fmt.Errorf("copy staged row: %d rows, last id %d, want row %d", c.Changes(), c.LastInsertRowID(), t.rowid)
		}
		return nil
	})
}

// bind makes t's row vals (its content t's message's) as rowid, with its
// index entries.
func (st *stager) bind(t *stageTable, rowid int64, vals []recVal) error {
	size, err := conversation.ContentsJSONLen(t.msg.Content)
	if err != nil {
		return err
	}
	rec := makeRecord(vals, size)
	if overflowPages(rec.size()) > t.ovCap {
		return errStageTooSmall
	}
	idx := make([][]byte, len(st.shape.idxCols))
	for i, cols := range st.shape.idxCols {
		key := make([]recVal, 0, len(cols)+1)
		for _, c := range cols {
			v := vals[c]
			if st.shape.cols[c].ipk {
				v = recVal{kind: valInt, i: rowid}
			}
			key = append(key, v)
		}
		idx[i] = makeRecord(append(key, recVal{kind: valInt, i: rowid}), 0).bytes()
		if len(idx[i]) > payloadLocal(len(idx[i]), stagePageSize, false) {
			return errStageTooSmall
		}
	}
	st.file.mu.Lock()
	defer st.file.mu.Unlock()
	t.rowid, t.idxRec = rowid, idx
	t.recSize = rec.size()
	t.local = payloadLocal(t.recSize, stagePageSize, true)
	t.ovCount = overflowPages(t.recSize)
	t.src = &recordSource{rec: rec, cs: t.msg.Content}
	return nil
}

// unbind stops t's content stream; t is not read again.
func (st *stager) unbind(t *stageTable) {
	st.file.mu.Lock()
	defer st.file.mu.Unlock()
	t.src.close()
}
