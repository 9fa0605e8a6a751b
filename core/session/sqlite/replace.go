package sqlite

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"

	"github.com/ncruces/go-sqlite3"

	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/session"
)

// ReplaceConversation stores msgs as the session's conversation: what
// goose's replace_conversation leaves (every message deleted, msgs
// inserted in order; updated_at is left alone, also as goose), except
// that the leading rows that already hold msgs' first messages stay where
// they are, with their metadata_json rewritten when it changed.
// Compaction replaces a conversation with the same messages made
// agent-invisible plus a summary: their rows, a huge prompt's among them,
// are not written again. goose reads rows in created_timestamp, id order,
// which a kept row keeps relative to the rows inserted after it.
func (s *Store) ReplaceConversation(ctx context.Context, id string, msgs []conversation.Message) error {
	defer s.revs.Bump(id)
	for i, m := range msgs { // bad input is refused before the transaction
		if err := session.ValidateMessage(m); err != nil {
			return fmt.Errorf("replace conversation: message %d: %w", i, err)
		}
	}
	largest := 0
	err := s.writeHeld(ctx, id, msgs, func(tx dbq, raw rawConn, st *stager) error {
		if err := requireSession(ctx, tx, id); err != nil {
			return err
		}
		kept, err := keepPrefix(ctx, tx, raw, st, id, msgs)
		if err != nil {
			return err
		}
		largest, err = encodeAndInsert(ctx, tx, raw, st, kept, id, msgs[kept:])
		return err
	})
	s.releaseMemory(largest)
	if err != nil {
		return fmt.Errorf("replace conversation: %w", err)
	}
	return nil
}

// inlineContent is the content_json size up to which a stored row's
// content is read to be compared; larger ones are compared through blob
// I/O, a piece at a time.
const inlineContent = 1 << 20

const storedRowsSQL = `SELECT id, COALESCE(message_id, ''), role, created_timestamp, metadata_json,
	octet_length(content_json), CASE WHEN octet_length(content_json) <= ? THEN content_json END
FROM messages WHERE session_id = ? ORDER BY id`

// storedRow is what keepPrefix reads of a row (octet_length does not
// read the content, so a huge row's content is not loaded).
type storedRow struct {
	rowID     int64
	messageID string
	role      string
	created   int64
	metadata  sql.NullString
	size      int
	content   sql.NullString // only up to inlineContent
}

// keepPrefix keeps the longest run of the session's first rows (in row
// id order) that equal msgs' first messages but for their metadata,
// rewrites those rows' metadata_json where it differs (a huge row through
// its staging table, st), deletes every other row, and returns how many
// messages are kept.
func keepPrefix(ctx context.Context, tx dbq, raw rawConn, st *stager, id string, msgs []conversation.Message) (int, error) {
	rows, err := storedRows(ctx, tx, id)
	if err != nil {
		return 0, err
	}
	kept := 0
	for kept < len(rows) && kept < len(msgs) {
		same, err := sameMessage(raw, rows[kept], msgs[kept])
		if err != nil {
			return 0, err
		}
		if !same {
			break
		}
		kept++
	}
	if kept < len(rows) {
		after := int64(0)
		if kept > 0 {
			after = rows[kept-1].rowID
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM messages WHERE session_id = ? AND id > ?`, id, after); err != nil {
			return 0, err
		}
	}
	for i, r := range rows[:kept] {
		md, err := session.EncodeMetadata(msgs[i].Metadata)
		if err != nil {
			return 0, fmt.Errorf("message %d: %w", i, err)
		}
		if r.metadata.Valid && r.metadata.String == md {
			continue
		}
		if t := st.table(i); t != nil {
			done, err := st.rewrite(ctx, tx, raw, t, r.rowID, md)
			if err != nil {
				return 0, fmt.Errorf("message %d: %w", i, err)
			}
			if done {
				continue
			}
		}
		if _, err := tx.ExecContext(ctx, `UPDATE messages SET metadata_json = ? WHERE id = ?`, md, r.rowID); err != nil {
			return 0, err
		}
	}
	return kept, nil
}

func storedRows(ctx context.Context, tx dbq, id string) ([]storedRow, error) {
	rs, err := tx.QueryContext(ctx, storedRowsSQL, inlineContent, id)
	if err != nil {
		return nil, err
	}
	defer rs.Close()
	var rows []storedRow
	for rs.Next() {
		var r storedRow
		if err := rs.Scan(&r.rowID, &r.messageID, &r.role, &r.created, &r.metadata, &r.size, &r.content); err != nil {
			return nil, err
		}
		rows = append(rows, r)
	}
	return rows, rs.Err()
}

// sameMessage reports whether row r is what EncodeMessage makes of m,
// metadata aside. A message without an id never is (it would get a new
// one).
func sameMessage(raw rawConn, r storedRow, m conversation.Message) (bool, error) {
	if m.ID == nil || *m.ID != r.messageID || string(m.Role) != r.role || m.Created != r.created {
		return false, nil
	}
	n, err := conversation.ContentsJSONLen(m.Content)
	if err != nil || n != r.size {
		return false, nil // an unencodable message fails when it is inserted
	}
	if r.content.Valid {
		return conversation.ContentsMatchJSON(m.Content, r.content.String), nil
	}
	return storedContentIs(raw, r.rowID, m.Content)
}

// storedContentIs compares row rowID's content_json with cs's encoding a
// piece at a time, reading the row through blob I/O.
func storedContentIs(raw rawConn, rowID int64, cs []conversation.Content) (bool, error) {
	var same bool
	err := raw(func(c *sqlite3.Conn) error {
		b, err := c.OpenBlob("main", "messages", "content_json", rowID, false)
		if err != nil {
			return fmt.Errorf("open content_json of row %d: %w", rowID, err)
		}
		m := &readMatcher{r: b}
		same = conversation.WriteContents(m, cs) == nil
		return errors.Join(m.err, b.Close())
	})
	return same, err
}

// errDiffers stops WriteContents at the first piece that differs.
var errDiffers = errors.New("content differs")

// readMatcher is a Writer that accepts only the bytes r reads next; err
// is a read failure (not a difference).
type readMatcher struct {
	r   io.Reader
	buf []byte
	err error
}

func (m *readMatcher) Write(p []byte) (int, error) {
	if cap(m.buf) < len(p) {
		m.buf = make([]byte, len(p))
	}
	got := m.buf[:len(p)]
	if _, err := io.ReadFull(m.r, got); err != nil {
		if !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) {
			m.err = err
		}
		return 0, errDiffers
	}
	if !bytes.Equal(got, p) {
		return 0, errDiffers
	}
	return len(p), nil
}
