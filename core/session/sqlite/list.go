package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/goose-acp/goose-acp/core/session"
)

// sortKeySQL is List's sort key: updated_at normalised by datetime(), so
// goose's "YYYY-MM-DD HH:MM:SS" rows and RFC 3339 rows imported through sqlx
// sort together by time (goose itself orders the raw text, which mixes the
// two forms up). An unreadable value sorts last.
const sortKeySQL = `COALESCE(datetime(s.updated_at), '')`

// queryTermSQL matches one query word in the session's name or in the
// text of one of its messages (goose's message keyword clause).
const queryTermSQL = `instr(LOWER(s.name), ?) > 0 OR EXISTS (SELECT 1 FROM messages mq, json_each(mq.content_json) j
	WHERE mq.session_id = s.id AND json_extract(j.value, '$.type') = 'text'
	AND instr(LOWER(json_extract(j.value, '$.text')), ?) > 0)`

// List pages through sessions newest first: updated_at DESC, then id DESC.
func (s *Store) List(ctx context.Context, opts session.ListOptions) (session.Page, error) {
	page, err := s.list(ctx, opts, nil)
	if err != nil {
		return session.Page{}, fmt.Errorf("list sessions: %w", err)
	}
	return page, nil
}

// list runs List; ids, when not nil, further keeps only those sessions.
func (s *Store) list(ctx context.Context, opts session.ListOptions, ids []string) (session.Page, error) {
	where, args, err := listFilter(opts, ids)
	if err != nil {
		return session.Page{}, err
	}
	limit := ""
	if opts.Limit > 0 {
		limit = "LIMIT ?"
		args = append(args, opts.Limit+1) // one extra tells whether a next page exists
	}
	// The inner query picks the page carrying only ids and keys through the
	// sort; the session rows and their message stats are read for the rows
	// on it.
	query := `SELECT ` + strings.ReplaceAll(s.cols, "s.", "p.") + `, ` + statsSQL("p") + `, k.sort_key
	FROM (SELECT s.id, ` + sortKeySQL + ` AS sort_key FROM sessions s
		WHERE ` + where + `
		ORDER BY sort_key DESC, s.id DESC ` + limit + `) k
	JOIN sessions p ON p.id = k.id
	ORDER BY k.sort_key DESC, k.id DESC`
	rows, err := s.db.QueryContext(ctx, query, args...)
	if err != nil {
		return session.Page{}, err
	}
	defer rows.Close()
	var out session.Page
	var keys []string
	for rows.Next() {
		var r sessionRow
		var count int
		var last sql.NullInt64
		var key string
		if err := rows.Scan(append(r.dest(), &count, &last, &key)...); err != nil {
			return session.Page{}, err
		}
		sess := r.session(s.log)
		sess.MessageCount, sess.LastMessageAt = count, lastMessageAt(last)
		out.Sessions = append(out.Sessions, sess)
		keys = append(keys, key)
	}
	if err := rows.Err(); err != nil {
		return session.Page{}, err
	}
	if opts.Limit > 0 && len(out.Sessions) > opts.Limit {
		out.Sessions = out.Sessions[:opts.Limit]
		last := out.Sessions[opts.Limit-1]
		out.NextCursor = session.Cursor{Key: keys[opts.Limit-1], ID: last.ID}.Encode()
	}
	if opts.Snippets {
		if err := s.snippets(ctx, out.Sessions); err != nil {
			return session.Page{}, err
		}
	}
	return out, nil
}

func listFilter(opts session.ListOptions, ids []string) (string, []any, error) {
	types := opts.Types
	if len(types) == 0 {
		types = session.DefaultListTypes
	}
	marks := make([]string, len(types))
	args := make([]any, 0, len(types)+4)
	for i, t := range types {
		marks[i] = "?"
		args = append(args, string(t))
	}
	conds := []string{"s.session_type IN (" + strings.Join(marks, ", ") + ")"}
	if opts.WorkingDir != "" {
		conds = append(conds, "s.working_dir = ?")
		args = append(args, opts.WorkingDir)
	}
	if ids != nil {
		conds = append(conds, "s.id IN (SELECT value FROM json_each(?))")
		b, err := json.Marshal(ids)
		if err != nil {
			return "", nil, err
		}
		args = append(args, string(b))
	}
	switch opts.Archived {
	case session.ArchivedHidden:
		conds = append(conds, "s.archived_at IS NULL")
	case session.ArchivedOnly:
		conds = append(conds, "s.archived_at IS NOT NULL")
	}
	if terms := strings.Fields(strings.ToLower(opts.Query)); len(terms) > 0 {
		var either []string
		for _, t := range terms {
			either = append(either, queryTermSQL)
			args = append(args, t, t)
		}
		conds = append(conds, "("+strings.Join(either, " OR ")+")")
	}
	if opts.Cursor != "" {
		c, err := session.DecodeCursor(opts.Cursor)
		if err != nil {
			return "", nil, err
		}
		conds = append(conds, "("+sortKeySQL+" < ? OR ("+sortKeySQL+" = ? AND s.id < ?))")
		args = append(args, c.Key, c.Key, c.ID)
	}
	return strings.Join(conds, " AND "), args, nil
}
