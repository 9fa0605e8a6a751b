package memory

import (
	"context"
	"fmt"
	"strings"

	"github.com/goose-acp/goose-acp/core/session"
)

// Fork copies a session's metadata and conversation to a new id.
func (s *Store) Fork(_ context.Context, id string) (session.Session, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	rec, ok := s.sessions[id]
	if !ok {
		return session.Session{}, fmt.Errorf("fork session: %w", notFound(id))
	}
	out, err := s.insertCopy(s.view(rec, true))
	if err != nil {
		return session.Session{}, fmt.Errorf("fork session: %w", err)
	}
	return out, nil
}

// Export returns the session with its conversation in goose's export JSON.
func (s *Store) Export(_ context.Context, id string) ([]byte, error) {
	s.mu.Lock()
	rec, ok := s.sessions[id]
	var sess session.Session
	if ok {
		sess = s.view(rec, true)
	}
	s.mu.Unlock()
	if !ok {
		return nil, fmt.Errorf("export session: %w", notFound(id))
	}
	return session.MarshalExport(sess)
}

// Import stores an exported session under a new id.
func (s *Store) Import(_ context.Context, data []byte) (session.Session, error) {
	src, err := session.UnmarshalExport(data)
	if err != nil {
		return session.Session{}, fmt.Errorf("import session: %w", err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	out, err := s.insertCopy(src)
	if err != nil {
		return session.Session{}, fmt.Errorf("import session: %w", err)
	}
	return out, nil
}

// insertCopy creates a session with src's metadata and messages; callers
// hold mu. Nothing is stored unless every part is valid.
func (s *Store) insertCopy(src session.Session) (session.Session, error) {
	cols, err := session.UpdateColumns(session.CopyUpdate(src))
	if err != nil {
		return session.Session{}, err
	}
	rec := s.create(session.NewSession{WorkingDir: src.WorkingDir, Name: src.Name, SessionType: src.SessionType})
	rows, err := encodeAll(rec.meta.ID, src.Conversation, nil)
	if err == nil {
		err = session.ApplyColumns(&rec.meta, cols)
	}
	if err != nil {
		delete(s.sessions, rec.meta.ID)
		return session.Session{}, err
	}
	rec.messages = s.number(rows)
	return s.view(rec, true), nil
}

// Search finds sessions of the default list types whose user-visible
// messages contain query, case-insensitively, in List order.
func (s *Store) Search(_ context.Context, query string, limit int) ([]session.SearchHit, error) {
	folded := session.FoldText(query)
	if strings.TrimSpace(folded) == "" {
		return nil, nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	var hits []session.SearchHit
	for _, rec := range s.sorted(nil) {
		var snips []string
		for _, m := range decodeAll(rec.messages) {
			snips = append(snips, session.MessageSnippets(m, folded)...)
		}
		if len(snips) > 0 {
			hits = append(hits, session.SearchHit{Session: s.view(rec, false), Snippets: session.SortSnippets(snips)})
		}
		if limit > 0 && len(hits) == limit {
			break
		}
	}
	return hits, nil
}

// Insights counts all sessions and sums accumulated (else current) tokens.
func (s *Store) Insights(_ context.Context) (session.Insights, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var in session.Insights
	for _, rec := range s.sessions {
		in.TotalSessions++
		switch m := rec.meta; {
		case m.AccumulatedTotalTokens != nil:
			in.TotalTokens += *m.AccumulatedTotalTokens
		case m.TotalTokens != nil:
			in.TotalTokens += *m.TotalTokens
		}
	}
	return in, nil
}
