package sqlite

import (
	"context"
	"fmt"

	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/session"
)

const insertMessageSQL = `INSERT INTO messages
	(message_id, session_id, role, content_json, created_timestamp, metadata_json)
VALUES (?, ?, ?, ?, ?, ?)`

// AppendMessage stores one message and touches the session's updated_at.
// A huge message's content is written in place (inplace.go).
func (s *Store) AppendMessage(ctx context.Context, id string, m conversation.Message) error {
	defer s.revs.Bump(id)
	if textBytes(m) >= hugeRow {
		return s.appendInPlace(ctx, id, m)
	}
	row, err := session.EncodeMessage(id, m)
	if err != nil {
		return fmt.Errorf("append message: %w", err)
	}
	err = s.write(ctx, func(tx dbq) error {
		if err := touchSession(ctx, tx, s.stamp(), id); err != nil {
			return err
		}
		return insertMessage(ctx, tx, id, row)
	})
	s.releaseMemory(len(row.ContentJSON))
	if err != nil {
		return fmt.Errorf("append message: %w", err)
	}
	return nil
}

func (s *Store) appendInPlace(ctx context.Context, id string, m conversation.Message) error {
	size := 0
	err := s.writeHeld(ctx, id, []conversation.Message{m}, func(tx dbq, raw rawConn, st *stager) error {
		if err := touchSession(ctx, tx, s.stamp(), id); err != nil {
			return err
		}
		var err error
		size, err = insertHuge(ctx, tx, raw, st, 0, id, m)
		return err
	})
	s.releaseMemory(size)
	if err != nil {
		return fmt.Errorf("append message: %w", err)
	}
	return nil
}

const touchSQL = `UPDATE sessions SET updated_at = ? WHERE id = ?`

// touchSession sets the session's updated_at, or reports it missing.
func touchSession(ctx context.Context, tx dbq, stamp, id string) error {
	res, err := tx.ExecContext(ctx, touchSQL, stamp, id)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return notFound(id)
	}
	return nil
}

func insertMessage(ctx context.Context, q querier, id string, row session.StoredMessage) error {
	_, err := q.ExecContext(ctx, insertMessageSQL,
		row.MessageID, id, row.Role, row.ContentJSON, row.Created, row.MetadataJSON)
	return err
}

// encodeAndInsert encodes each message just before its insert, so only
// one encoded row is alive at a time; with raw, a huge one is written in
// place instead (inplace.go). An encoding error rolls the whole write
// back. It returns the largest row's size. msgs[i] is the write's
// first+i-th message (its staging table's index, with st).
func encodeAndInsert(ctx context.Context, tx dbq, raw rawConn, st *stager, first int, id string, msgs []conversation.Message) (int, error) {
	stmt, err := tx.PrepareContext(ctx, insertMessageSQL)
	if err != nil {
		return 0, err
	}
	defer stmt.Close()
	largest := 0
	for i, m := range msgs {
		if writtenInPlace(raw, m) {
			size, err := insertHuge(ctx, tx, raw, st, first+i, id, m)
			largest = max(largest, size)
			if err != nil {
				return largest, fmt.Errorf("message %d: %w", i, err)
			}
			continue
		}
		row, err := session.EncodeMessage(id, m)
		if err != nil {
			return largest, fmt.Errorf("message %d: %w", i, err)
		}
		largest = max(largest, len(row.ContentJSON))
		_, err = stmt.ExecContext(ctx, row.MessageID, id, row.Role, row.ContentJSON, row.Created, row.MetadataJSON)
		if err != nil {
			return largest, err
		}
	}
	return largest, nil
}

// Truncate deletes the messages created at or after fromCreated (Unix
// seconds), goose's fork truncation.
func (s *Store) Truncate(ctx context.Context, id string, fromCreated int64) error {
	defer s.revs.Bump(id)
	err := s.write(ctx, func(tx dbq) error {
		if err := requireSession(ctx, tx, id); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx,
			`DELETE FROM messages WHERE session_id = ? AND created_timestamp >= ?`, id, fromCreated)
		return err
	})
	if err != nil {
		return fmt.Errorf("truncate session: %w", err)
	}
	return nil
}

const conversationSQL = `SELECT id, COALESCE(message_id, ''), role, content_json, created_timestamp, metadata_json
	FROM messages WHERE session_id = ?`

// conversation loads the session's messages in goose's order through
// database/sql (used inside write transactions).
func (s *Store) conversation(ctx context.Context, q querier, id string) ([]conversation.Message, error) {
	rows, err := q.QueryContext(ctx, conversationSQL, id)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	d := newRowDecoder()
	for rows.Next() {
		var row session.StoredMessage
		var rowID int64
		if err := rows.Scan(&rowID, &row.MessageID, &row.Role, &row.ContentJSON, &row.Created, &row.MetadataJSON); err != nil {
			d.finish(s.log, id)
			return nil, err
		}
		d.add(rowID, row)
	}
	msgs := d.finish(s.log, id)
	if err := rows.Err(); err != nil {
		return nil, err
	}
	return msgs, nil
}

// SetMessageMetadata rewrites one message's metadata_json
// (session.MetadataSetter).
func (s *Store) SetMessageMetadata(ctx context.Context, id, messageID string, md conversation.Metadata) error {
	defer s.revs.Bump(id)
	js, err := session.EncodeMetadata(md)
	if err != nil {
		return fmt.Errorf("set message metadata: %w", err)
	}
	err = s.write(ctx, func(tx dbq) error {
		res, err := tx.ExecContext(ctx, `UPDATE messages SET metadata_json = ? WHERE session_id = ? AND message_id = ?`, js, id, messageID)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return fmt.Errorf("%w: message %s of session %s", session.ErrNotFound, messageID, id)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("set message metadata: %w", err)
	}
	return nil
}
