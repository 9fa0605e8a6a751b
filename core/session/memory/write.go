package memory

import (
	"context"
	"fmt"

	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/session"
)

// AppendMessage stores one message and touches updated_at.
func (s *Store) AppendMessage(_ context.Context, id string, m conversation.Message) error {
	r, err := session.EncodeMessage(id, m)
	if err != nil {
		return fmt.Errorf("append message: %w", err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	rec, ok := s.sessions[id]
	if !ok {
		return fmt.Errorf("append message: %w", notFound(id))
	}
	rec.meta.UpdatedAt = s.stamp()
	s.seq++
	rec.messages = append(rec.messages, row{seq: s.seq, StoredMessage: r})
	return nil
}

// ReplaceConversation swaps in msgs; updated_at is left alone, as goose does.
func (s *Store) ReplaceConversation(_ context.Context, id string, msgs []conversation.Message) error {
	pool := session.ContentPool{}
	s.mu.Lock()
	if rec, ok := s.sessions[id]; ok {
		for _, r := range rec.messages {
			pool.Add(r.ContentJSON)
		}
	}
	s.mu.Unlock()
	rows, err := encodeAll(id, msgs, pool)
	if err != nil {
		return fmt.Errorf("replace conversation: %w", err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	rec, ok := s.sessions[id]
	if !ok {
		return fmt.Errorf("replace conversation: %w", notFound(id))
	}
	rec.messages = s.number(rows)
	return nil
}

// encodeAll encodes msgs; large contents equal to one already in pool (the
// session's rows before a compaction) share its string.
func encodeAll(id string, msgs []conversation.Message, pool session.ContentPool) ([]session.StoredMessage, error) {
	if pool == nil {
		pool = session.ContentPool{}
	}
	out := make([]session.StoredMessage, len(msgs))
	for i, m := range msgs {
		r, err := session.EncodeMessagePooled(id, m, pool)
		if err != nil {
			return nil, fmt.Errorf("message %d: %w", i, err)
		}
		out[i] = r
	}
	return out, nil
}

// number gives stored messages fresh row ids; callers hold mu.
func (s *Store) number(msgs []session.StoredMessage) []row {
	out := make([]row, len(msgs))
	for i, m := range msgs {
		s.seq++
		out[i] = row{seq: s.seq, StoredMessage: m}
	}
	return out
}

// Update applies u's non-nil fields and touches updated_at.
func (s *Store) Update(_ context.Context, id string, u session.Update) error {
	cols, err := session.UpdateColumns(u)
	if err != nil {
		return fmt.Errorf("update session %s: %w", id, err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	rec, ok := s.sessions[id]
	if !ok {
		return fmt.Errorf("update session: %w", notFound(id))
	}
	meta := cloneMeta(rec.meta)
	if err := session.ApplyColumns(&meta, cols); err != nil {
		return fmt.Errorf("update session %s: %w", id, err)
	}
	if u.Usage != nil { // against the counters as they were
		rec.recordUsage(s.now().Unix(), *u.Usage)
	}
	if len(cols) > 0 {
		meta.UpdatedAt = s.stamp()
		rec.meta = meta
	}
	return nil
}

// Delete removes a session and its messages.
func (s *Store) Delete(_ context.Context, id string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.sessions[id]; !ok {
		return fmt.Errorf("delete session: %w", notFound(id))
	}
	delete(s.sessions, id)
	s.deleted[id] = struct{}{}
	return nil
}

// Truncate deletes messages created at or after fromCreated.
func (s *Store) Truncate(_ context.Context, id string, fromCreated int64) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	rec, ok := s.sessions[id]
	if !ok {
		return fmt.Errorf("truncate session: %w", notFound(id))
	}
	kept := rec.messages[:0:0]
	for _, m := range rec.messages {
		if m.Created < fromCreated {
			kept = append(kept, m)
		}
	}
	rec.messages = kept
	return nil
}

// Close does nothing; the store lives as long as its value.
func (s *Store) Close() error { return nil }

// SetMessageMetadata rewrites one message's metadata
// (session.MetadataSetter).
func (s *Store) SetMessageMetadata(_ context.Context, id, messageID string, md conversation.Metadata) error {
	js, err := session.EncodeMetadata(md)
	if err != nil {
		return fmt.Errorf("set message metadata: %w", err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	rec, ok := s.sessions[id]
	if !ok {
		return fmt.Errorf("set message metadata: %w", notFound(id))
	}
	for i := range rec.messages {
		if rec.messages[i].MessageID == messageID {
			rec.messages[i].MetadataJSON = &js
			return nil
		}
	}
	return fmt.Errorf("set message metadata: %w: message %s of session %s", session.ErrNotFound, messageID, id)
}
