package sqlite

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/ncruces/go-sqlite3"
	"github.com/ncruces/go-sqlite3/driver"

	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/session"
)

// snapshotGet reads a session (and its messages) from one WAL snapshot: a
// read transaction on a dedicated connection. Messages are read with the
// SQLite statement API directly, skipping database/sql's per-column copies;
// a long conversation loads markedly faster.
func (s *Store) snapshotGet(ctx context.Context, id string, withMessages bool) (session.Session, error) {
	if !withMessages {
		return s.get(ctx, s.reader(ctx), id, false)
	}
	s.awaitWriter(ctx)
	conn, err := s.db.Conn(ctx)
	if err != nil {
		return session.Session{}, err
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, `BEGIN DEFERRED`); err != nil {
		return session.Session{}, fmt.Errorf("begin read: %w", err)
	}
	// A read transaction has nothing to keep; ending it releases the snapshot.
	defer conn.ExecContext(context.WithoutCancel(ctx), `ROLLBACK`)
	out, err := s.getRow(ctx, conn, id, false)
	if err != nil {
		return session.Session{}, err
	}
	conv, err := s.rawConversation(ctx, conn, id)
	if err != nil {
		return session.Session{}, err
	}
	out.Conversation = conv
	out.MessageCount, out.LastMessageAt = session.ConversationStats(conv)
	return out, nil
}

// rawConversation reads and decodes the session's messages. Role and
// metadata_json are compared in SQLite's buffer, so the usual values
// ("user", "assistant", the four metadata texts goose and EncodeMessage
// write) cost no allocation per row; rows are decoded while later ones
// are still being read (rowDecoder).
func (s *Store) rawConversation(ctx context.Context, conn *sql.Conn, id string) ([]conversation.Message, error) {
	return s.rawMessages(ctx, conn, id, conversationSQL)
}

// rawMessages runs query (conversationSQL's columns; id is its first
// parameter, more follow) and decodes its rows as rawConversation does.
func (s *Store) rawMessages(ctx context.Context, conn *sql.Conn, id, query string, more ...int64) ([]conversation.Message, error) {
	d := newRowDecoder()
	err := conn.Raw(func(dc any) error {
		c := dc.(driver.Conn).Raw()
		defer c.SetInterrupt(c.SetInterrupt(ctx))
		stmt, _, err := c.Prepare(query)
		if err != nil {
			return err
		}
		defer stmt.Close()
		if err := stmt.BindText(1, id); err != nil {
			return err
		}
		for i, v := range more {
			if err := stmt.BindInt64(i+2, v); err != nil {
				return err
			}
		}
		for stmt.Step() {
			row := session.StoredMessage{
				MessageID:   stmt.ColumnText(1),
				Role:        internRole(stmt.ColumnRawText(2)),
				ContentJSON: stmt.ColumnText(3),
				Created:     stmt.ColumnInt64(4),
			}
			if stmt.ColumnType(5) != sqlite3.NULL {
				row.MetadataJSON = internMetadata(stmt.ColumnRawText(5))
			}
			d.add(stmt.ColumnInt64(0), row)
		}
		return stmt.Err()
	})
	msgs := d.finish(s.log, id)
	if err != nil {
		return nil, fmt.Errorf("load messages of %s: %w", id, err)
	}
	return msgs, nil
}

func internRole(b []byte) string {
	switch {
	case string(b) == string(conversation.RoleUser):
		return string(conversation.RoleUser)
	case string(b) == string(conversation.RoleAssistant):
		return string(conversation.RoleAssistant)
	}
	return string(b)
}

// knownMetadata are the metadata_json texts goose and EncodeMessage write;
// rows share these strings (Decode only reads them).
var knownMetadata = []*string{
	ptr(`{"userVisible":true,"agentVisible":true}`),
	ptr(`{"userVisible":true,"agentVisible":false}`),
	ptr(`{"userVisible":false,"agentVisible":true}`),
	ptr(`{"userVisible":false,"agentVisible":false}`),
}

func ptr(s string) *string { return &s }

func internMetadata(b []byte) *string {
	for _, k := range knownMetadata {
		if string(b) == *k {
			return k
		}
	}
	md := string(b)
	return &md
}
