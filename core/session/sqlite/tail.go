package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/goose-acp/goose-acp/core/session"
)

var _ session.TailReader = (*Store)(nil)

// tailRowSQL finds a tail's first message; tailBeforeSQL counts what comes
// before it in goose's order (created_timestamp, then id) from the
// covering index on (session_id, created_timestamp, id), without reading
// a message row; tailSQL reads the tail through that index, in order.
const (
	tailRowSQL    = `SELECT id, created_timestamp FROM messages WHERE session_id = ? AND message_id = ?`
	tailBeforeSQL = `SELECT COUNT(*), COALESCE(MAX(id), 0) FROM messages
	WHERE session_id = ? AND (created_timestamp, id) < (?, ?)`
	tailSQL = `SELECT id, COALESCE(message_id, ''), role, content_json, created_timestamp, metadata_json
	FROM messages WHERE session_id = ? AND (created_timestamp, id) >= (?, ?) ORDER BY created_timestamp, id`
)

// MarkTail records where the tail starting at messageID begins
// (session.TailReader).
func (s *Store) MarkTail(ctx context.Context, id, messageID string) (session.TailMark, error) {
	m := session.TailMark{MessageID: messageID}
	q := s.reader(ctx)
	rows, err := q.QueryContext(ctx, tailRowSQL, id, messageID)
	if err != nil {
		return m, fmt.Errorf("mark tail of %s: %w", id, err)
	}
	n := 0
	for rows.Next() {
		if err := rows.Scan(&m.Row, &m.Created); err != nil {
			rows.Close()
			return m, fmt.Errorf("mark tail of %s: %w", id, err)
		}
		n++
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return m, fmt.Errorf("mark tail of %s: %w", id, err)
	}
	if n != 1 {
		return m, fmt.Errorf("mark tail of %s: %w: %d messages with id %s", id, session.ErrNotFound, n, messageID)
	}
	if err := q.QueryRowContext(ctx, tailBeforeSQL, id, m.Created, m.Row).Scan(&m.Before, &m.BeforeMax); err != nil {
		return m, fmt.Errorf("mark tail of %s: %w", id, err)
	}
	return m, nil
}

// GetTail reads the session row and the messages from m on, from one WAL
// snapshot, when the rows before m are still the marked ones
// (session.TailReader).
func (s *Store) GetTail(ctx context.Context, id string, m session.TailMark) (session.Session, bool, error) {
	s.awaitWriter(ctx)
	conn, err := s.db.Conn(ctx)
	if err != nil {
		return session.Session{}, false, err
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, `BEGIN DEFERRED`); err != nil {
		return session.Session{}, false, fmt.Errorf("begin read: %w", err)
	}
	defer conn.ExecContext(context.WithoutCancel(ctx), `ROLLBACK`)
	var created int64
	switch err := conn.QueryRowContext(ctx, `SELECT created_timestamp FROM messages WHERE id = ? AND session_id = ? AND message_id = ?`,
		m.Row, id, m.MessageID).Scan(&created); {
	case errors.Is(err, sql.ErrNoRows):
		return session.Session{}, false, nil
	case err != nil:
		return session.Session{}, false, fmt.Errorf("get session tail: %w", err)
	case created != m.Created:
		return session.Session{}, false, nil
	}
	var before int
	var beforeMax int64
	if err := conn.QueryRowContext(ctx, tailBeforeSQL, id, m.Created, m.Row).Scan(&before, &beforeMax); err != nil {
		return session.Session{}, false, fmt.Errorf("get session tail: %w", err)
	}
	if before != m.Before || beforeMax != m.BeforeMax {
		return session.Session{}, false, nil
	}
	out, err := s.getRow(ctx, conn, id, false)
	if err != nil {
		return session.Session{}, false, fmt.Errorf("get session: %w", err)
	}
	out.Conversation, err = s.rawMessages(ctx, conn, id, tailSQL, m.Created, m.Row)
	if err != nil {
		return session.Session{}, false, err
	}
	return out, true, nil
}
