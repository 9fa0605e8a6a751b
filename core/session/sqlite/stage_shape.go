package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"github.com/goose-acp/goose-acp/core/session"
)

// messages' shape as a staging table copies it: the columns and indexes
// a staging table repeats, and the values an INSERT gives a row.

// stageCol is one column of messages as SQLite declares it.
type stageCol struct {
	name, decl string
	notNull    bool
	dflt       sql.NullString
	ipk        bool
}

// stageShape is messages' columns and indexes, when staging supports
// them: an INTEGER PRIMARY KEY, defaults that are NULL or
// CURRENT_TIMESTAMP, plain ascending BINARY indexes on columns.
type stageShape struct {
	cols    []stageCol
	idxCols [][]int // each index's columns
	autoinc bool
}

func readShape(ctx context.Context, conn *sql.Conn) (*stageShape, error) {
	sh := &stageShape{}
	rows, err := conn.QueryContext(ctx, `SELECT name, type, "notnull", dflt_value, pk FROM pragma_table_info('messages')`)
	if err != nil {
		return nil, err
	}
	var pks int
	for rows.Next() {
		var c stageCol
		var pk int
		if err := rows.Scan(&c.name, &c.decl, &c.notNull, &c.dflt, &pk); err != nil {
			rows.Close()
			return nil, err
		}
		c.ipk = pk == 1 && strings.EqualFold(c.decl, "INTEGER")
		pks += pk
		sh.cols = append(sh.cols, c)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	var ddl string
	if err := conn.QueryRowContext(ctx, `SELECT sql FROM sqlite_schema WHERE type = 'table' AND name = 'messages'`).Scan(&ddl); err != nil {
		return nil, err
	}
	sh.autoinc = strings.Contains(strings.ToUpper(ddl), "AUTOINCREMENT")
	var triggers int
	if err := conn.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_schema WHERE type = 'trigger' AND tbl_name = 'messages'`).Scan(&triggers); err != nil {
		return nil, err
	}
	if triggers > 0 {
		return nil, errors.New("messages has triggers")
	}
	if err := sh.check(pks); err != nil {
		return nil, err
	}
	names, err := stageIndexes(ctx, conn)
	if err != nil {
		return nil, err
	}
	for _, name := range names {
		cols, err := indexColumns(ctx, conn, name)
		if err != nil {
			return nil, err
		}
		for _, c := range cols {
			if c >= len(sh.cols) || sh.cols[c].name == "content_json" {
				return nil, fmt.Errorf("index %s is on content_json", name)
			}
		}
		sh.idxCols = append(sh.idxCols, cols)
	}
	return sh, nil
}

func (sh *stageShape) check(pks int) error {
	ipk := 0
	for _, c := range sh.cols {
		if c.ipk {
			ipk++
		}
		if c.dflt.Valid && !strings.EqualFold(c.dflt.String, "CURRENT_TIMESTAMP") {
			return fmt.Errorf("column %s defaults to %s", c.name, c.dflt.String)
		}
	}
	if ipk != 1 || pks != 1 {
		return errors.New("no INTEGER PRIMARY KEY")
	}
	return nil
}

// stageIndexes lists messages' indexes: CREATE INDEX ones, neither
// unique nor partial.
func stageIndexes(ctx context.Context, conn *sql.Conn) ([]string, error) {
	rows, err := conn.QueryContext(ctx, `SELECT name, "unique", origin, partial FROM pragma_index_list('messages') ORDER BY seq`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var names []string
	for rows.Next() {
		var name, origin string
		var unique, partial bool
		if err := rows.Scan(&name, &unique, &origin, &partial); err != nil {
			return nil, err
		}
		if unique || partial || origin != "c" {
			return nil, fmt.Errorf("index %s is unique, partial or implicit", name)
		}
		names = append(names, name)
	}
	return names, rows.Err()
}

func indexColumns(ctx context.Context, conn *sql.Conn, name string) ([]int, error) {
	rows, err := conn.QueryContext(ctx, `SELECT cid, "desc", coll FROM pragma_index_xinfo(?) WHERE key ORDER BY seqno`, name)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var cols []int
	for rows.Next() {
		var cid int
		var desc bool
		var coll string
		if err := rows.Scan(&cid, &desc, &coll); err != nil {
			return nil, err
		}
		if cid < 0 || desc || !strings.EqualFold(coll, "BINARY") {
			return nil, fmt.Errorf("index %s is on an expression, descending or collated", name)
		}
		cols = append(cols, cid)
	}
	return cols, rows.Err()
}

func quoteIdent(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }

// ddl is the staging table's CREATE TABLE and its indexes' CREATE INDEX.
func (sh *stageShape) ddl(table string) (string, []string) {
	var b strings.Builder
	b.WriteString("CREATE TABLE " + quoteIdent(table) + " (")
	for i, c := range sh.cols {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(quoteIdent(c.name) + " " + c.decl)
		if c.ipk {
			b.WriteString(" PRIMARY KEY")
		}
		if c.notNull {
			b.WriteString(" NOT NULL")
		}
		if c.dflt.Valid {
			b.WriteString(" DEFAULT " + c.dflt.String)
		}
	}
	b.WriteString(")")
	idx := make([]string, len(sh.idxCols))
	for i, cols := range sh.idxCols {
		names := make([]string, len(cols))
		for j, c := range cols {
			names[j] = quoteIdent(sh.cols[c].name)
		}
		idx[i] = fmt.Sprintf("CREATE INDEX %s ON %s (%s)", quoteIdent(fmt.Sprintf("%s_i%d", table, i)), quoteIdent(table), strings.Join(names, ", "))
	}
	return b.String(), idx
}

// stampLen is the length of CURRENT_TIMESTAMP ("YYYY-MM-DD HH:MM:SS"),
// which a staged record holds for a column defaulting to it.
const stampLen = 19

// values is the row an INSERT of head's columns makes (the rowid alias
// is NULL in the record); stamp is CURRENT_TIMESTAMP.
func (sh *stageShape) values(sessionID string, head session.StoredMessage, stamp string) []recVal {
	vals := make([]recVal, len(sh.cols))
	for i, c := range sh.cols {
		switch {
		case c.ipk:
		case c.name == "message_id":
			vals[i] = recVal{kind: valText, s: head.MessageID}
		case c.name == "session_id":
			vals[i] = recVal{kind: valText, s: sessionID}
		case c.name == "role":
			vals[i] = recVal{kind: valText, s: head.Role}
		case c.name == "content_json":
			vals[i] = recVal{kind: valContent}
		case c.name == "created_timestamp":
			vals[i] = recVal{kind: valInt, i: head.Created}
		case c.name == "metadata_json":
			if head.MetadataJSON != nil {
				vals[i] = recVal{kind: valText, s: *head.MetadataJSON}
			}
		case c.dflt.Valid: // CURRENT_TIMESTAMP
			vals[i] = recVal{kind: valText, s: stamp}
		}
	}
	return vals
}
