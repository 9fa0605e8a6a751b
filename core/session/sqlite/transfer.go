package sqlite

import (
	"context"
	"fmt"
	"strings"

	"github.com/goose-acp/goose-acp/core/session"
)

// Fork copies a session's metadata and conversation to a new id.
func (s *Store) Fork(ctx context.Context, id string) (session.Session, error) {
	var out session.Session
	err := s.write(ctx, func(tx dbq) error {
		src, err := s.get(ctx, tx, id, true)
		if err != nil {
			return err
		}
		out, err = s.insertCopy(ctx, tx, src)
		return err
	})
	s.releaseMemory(largestMessage(out.Conversation))
	if err != nil {
		return session.Session{}, fmt.Errorf("fork session: %w", err)
	}
	return out, nil
}

// Export returns the session with its conversation in goose's export JSON.
func (s *Store) Export(ctx context.Context, id string) ([]byte, error) {
	sess, err := s.snapshotGet(ctx, id, true)
	if err != nil {
		return nil, fmt.Errorf("export session: %w", err)
	}
	return session.MarshalExport(sess)
}

// Import stores an exported session under a new id, keeping its messages.
func (s *Store) Import(ctx context.Context, data []byte) (session.Session, error) {
	src, err := session.UnmarshalExport(data)
	if err != nil {
		return session.Session{}, fmt.Errorf("import session: %w", err)
	}
	var out session.Session
	err = s.write(ctx, func(tx dbq) error {
		out, err = s.insertCopy(ctx, tx, src)
		return err
	})
	s.releaseMemory(largestMessage(src.Conversation))
	if err != nil {
		return session.Session{}, fmt.Errorf("import session: %w", err)
	}
	return out, nil
}

// insertCopy creates a session holding src's metadata and conversation.
func (s *Store) insertCopy(ctx context.Context, tx dbq, src session.Session) (session.Session, error) {
	now := s.now()
	row, err := s.insertSession(ctx, tx, now, session.NewSession{
		WorkingDir: src.WorkingDir, Name: src.Name, SessionType: src.SessionType,
	})
	if err != nil {
		return session.Session{}, err
	}
	if err := fillCopy(ctx, tx, row.ID, src); err != nil {
		return session.Session{}, err
	}
	return s.get(ctx, tx, row.ID, true)
}

// fillCopy gives the session row id src's metadata (session.CopyUpdate) and
// conversation.
func fillCopy(ctx context.Context, tx dbq, id string, src session.Session) error {
	cols, err := session.UpdateColumns(session.CopyUpdate(src))
	if err != nil {
		return err
	}
	set := make([]string, len(cols))
	args := make([]any, 0, len(cols)+1)
	for i, c := range cols {
		set[i] = c.Name + " = ?"
		args = append(args, c.Value)
	}
	if _, err := tx.ExecContext(ctx, `UPDATE sessions SET `+strings.Join(set, ", ")+` WHERE id = ?`,
		append(args, id)...); err != nil {
		return err
	}
	_, err = encodeAndInsert(ctx, tx, nil, nil, 0, id, src.Conversation)
	return err
}
