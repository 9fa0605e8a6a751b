package sqlite

import (
	"context"
	"fmt"

	"github.com/goose-acp/goose-acp/core/session"
)

var _ session.Revisioner = (*Store)(nil)

// Revision counts the writes this Store made to the session's messages
// (append, replace, truncate, delete) since it was opened.
func (s *Store) Revision(id string) uint64 { return s.revs.Revision(id) }

// Row reads the session row alone (see session.Revisioner).
func (s *Store) Row(ctx context.Context, id string) (session.Session, error) {
	out, err := s.getRow(ctx, s.reader(ctx), id, false)
	if err != nil {
		return session.Session{}, fmt.Errorf("get session: %w", err)
	}
	return out, nil
}
