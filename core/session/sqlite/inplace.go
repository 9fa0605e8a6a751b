package sqlite

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/ncruces/go-sqlite3"
	"github.com/ncruces/go-sqlite3/driver"

	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/session"
)

// A huge message that cannot be staged (stage.go: a messages table of
// another shape, or more huge messages in one write than are staged) is
// written into SQLite's memory in place instead of being encoded in Go
// and bound:
// the row is inserted with a content_json of zero bytes of the encoding's
// exact length — still a TEXT value, as goose reads it — and the encoding
// is then streamed into that value piece by piece through SQLite's blob
// I/O (conversation.WriteContents). Go never holds the row's encoding;
// SQLite holds the value and the record it builds from it while it
// inserts, as for any bound text: twice the row, where staging reads the
// record once.

// rawConn runs f on the SQLite connection of the transaction it was
// made for.
type rawConn func(f func(*sqlite3.Conn) error) error

// writeHeld is write on a connection held for the whole transaction, so
// fn can also reach SQLite's own API on it (raw), with a staging database
// attached for msgs' huge messages (stage.go; st is nil without one).
func (s *Store) writeHeld(ctx context.Context, id string, msgs []conversation.Message, fn func(tx dbq, raw rawConn, st *stager) error) (err error) {
	if err := s.lockWrite(ctx); err != nil {
		return err
	}
	defer s.unlockWrite()
	conn, err := s.db.Conn(ctx)
	if err != nil {
		return fmt.Errorf("begin: %w", err)
	}
	defer conn.Close()
	st, err := attachStage(ctx, conn, id, msgs)
	if err != nil {
		return err
	}
	if st != nil {
		defer func() { err = errors.Join(err, st.detach(context.WithoutCancel(ctx), conn)) }()
	}
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("begin: %w", err)
	}
	raw := func(f func(*sqlite3.Conn) error) error {
		return conn.Raw(func(dc any) error {
			c, ok := dc.(driver.Conn)
			if !ok {
				return fmt.Errorf("sessions db: connection %T has no SQLite handle", dc)
			}
			return f(c.Raw())
		})
	}
	if err := fn(dbq{c: s.stmts, tx: tx}, raw, st); err != nil {
		return errors.Join(err, ignoreDone(tx.Rollback()))
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("commit: %w", err)
	}
	return nil
}

// textBytes is the size of m's bare texts, a lower bound of its
// content_json's size, computed without encoding anything.
func textBytes(m conversation.Message) int {
	n := 0
	for _, c := range m.Content {
		if c.Text != nil {
			n += len(c.Text.Text)
		}
	}
	return n
}

// writtenInPlace reports whether m's row is written in place (raw is
// available and its texts alone make it huge).
func writtenInPlace(raw rawConn, m conversation.Message) bool {
	return raw != nil && textBytes(m) >= hugeRow
}

const insertPlaceholderSQL = `INSERT INTO messages
	(message_id, session_id, role, content_json, created_timestamp, metadata_json)
VALUES (?, ?, ?, CAST(? AS TEXT), ?, ?)`

// insertHuge stores m, the write's i-th message and a huge one: copied
// from its staging table when it has one, else written in place. It
// returns the content's size.
func insertHuge(ctx context.Context, tx dbq, raw rawConn, st *stager, i int, id string, m conversation.Message) (int, error) {
	if t := st.table(i); t != nil {
		return st.insert(ctx, tx, raw, t)
	}
	return insertInPlace(ctx, tx, raw, id, m)
}

// insertInPlace stores m with its content written in place and returns
// the content's size.
func insertInPlace(ctx context.Context, tx dbq, raw rawConn, id string, m conversation.Message) (int, error) {
	row, size, err := session.EncodeMessageHead(id, m)
	if err != nil {
		return 0, err
	}
	res, err := tx.ExecContext(ctx, insertPlaceholderSQL,
		row.MessageID, id, row.Role, sqlite3.ZeroBlob(size), row.Created, row.MetadataJSON)
	if err != nil {
		return size, err
	}
	rowID, err := res.LastInsertId()
	if err != nil {
		return size, err
	}
	return size, raw(func(c *sqlite3.Conn) error {
		b, err := c.OpenBlob("main", "messages", "content_json", rowID, true)
		if err != nil {
			return fmt.Errorf("open content_json of row %d: %w", rowID, err)
		}
		w := &countingWriter{w: b}
		err = conversation.WriteContents(w, m.Content)
		if err == nil && w.n != size {
			err = fmt.Errorf("content_json of row %d: wrote %d bytes of %d", rowID, w.n, size)
		}
		return errors.Join(err, b.Close())
	})
}

// countingWriter counts what reaches w.
type countingWriter struct {
	w io.Writer
	n int
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += n
	return n, err
}
