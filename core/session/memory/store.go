package memory

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/session"
)

// Store keeps sessions in maps guarded by one mutex; every method is atomic.
type Store struct {
	now func() time.Time

	mu       sync.Mutex
	sessions map[string]*record
	seq      int64 // row ids, like messages.id AUTOINCREMENT
	// deleted are the ids of deleted sessions: their numbers stay used, as
	// in the SQLite store's id floor.
	deleted map[string]struct{}
}

type record struct {
	meta     session.Session // without Conversation and MessageCount
	messages []row
	// ledger is the session's usage_ledger rows.
	ledger []ledgerRow
}

type row struct {
	seq int64
	session.StoredMessage
}

var _ session.Store = (*Store)(nil)

// New returns an empty store; clock may be nil for time.Now.
func New(clock func() time.Time) *Store {
	if clock == nil {
		clock = time.Now
	}
	return &Store{now: clock, sessions: map[string]*record{}, deleted: map[string]struct{}{}}
}

func notFound(id string) error { return fmt.Errorf("%w: %s", session.ErrNotFound, id) }

func (s *Store) stamp() time.Time { return session.Second(s.now()) }

// Create adds a session with the next "YYYYMMDD_N" id of the clock's day.
// Its mode, provider and model are ns's when it has them.
func (s *Store) Create(_ context.Context, ns session.NewSession) (session.Session, error) {
	cols, err := session.UpdateColumns(session.Update{ProviderName: ns.ProviderName, ModelConfig: ns.ModelConfig})
	if err != nil {
		return session.Session{}, fmt.Errorf("create session: %w", err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	rec := s.create(ns)
	if ns.GooseMode != "" {
		rec.meta.GooseMode = ns.GooseMode
	}
	if err := session.ApplyColumns(&rec.meta, cols); err != nil {
		return session.Session{}, fmt.Errorf("create session: %w", err)
	}
	return s.view(rec, false), nil
}

func (s *Store) create(ns session.NewSession) *record {
	now := s.stamp()
	typ := ns.SessionType
	if typ == "" {
		typ = session.TypeUser
	}
	id := session.NextID(now, func(yield func(string) bool) {
		for id := range maps.Keys(s.sessions) {
			if !yield(id) {
				return
			}
		}
		for id := range maps.Keys(s.deleted) {
			if !yield(id) {
				return
			}
		}
	})
	rec := &record{meta: session.Session{
		ID: id, WorkingDir: ns.WorkingDir, Name: ns.Name, SessionType: typ,
		CreatedAt: now, UpdatedAt: now, ExtensionData: session.ExtensionData{}, GooseMode: "auto",
	}}
	s.sessions[id] = rec
	return rec
}

// view copies a record out, reading messages back as the SQLite store does.
func (s *Store) view(rec *record, withMessages bool) session.Session {
	out := cloneMeta(rec.meta)
	if withMessages {
		out.Conversation = decodeAll(rec.messages)
		out.MessageCount, out.LastMessageAt = session.ConversationStats(out.Conversation)
		return out
	}
	// Like sessions.db's count: every stored row, whatever its role, that
	// is user-visible; the newest of all rows.
	for _, r := range rec.messages {
		if r.visible() {
			out.MessageCount++
		}
		if t := session.MessageTime(r.Created); out.LastMessageAt == nil || t.After(*out.LastMessageAt) {
			out.LastMessageAt = &t
		}
	}
	return out
}

// visible reads the row's metadata as goose's user_visible_message_sql
// does: a missing flag or metadata that is not JSON counts as visible.
func (r row) visible() bool {
	if r.MetadataJSON == nil {
		return true
	}
	var md struct {
		UserVisible *bool `json:"userVisible"`
	}
	if err := json.Unmarshal([]byte(*r.MetadataJSON), &md); err != nil || md.UserVisible == nil {
		return true
	}
	return *md.UserVisible
}

// cloneMeta deep-copies a session through JSON, so callers never share maps
// or pointers with the store.
func cloneMeta(in session.Session) session.Session {
	b, err := json.Marshal(in)
	if err != nil {
		panic(fmt.Sprintf("memory store: session %s does not marshal: %v", in.ID, err))
	}
	var out session.Session
	if err := json.Unmarshal(b, &out); err != nil {
		panic(fmt.Sprintf("memory store: session %s does not unmarshal: %v", in.ID, err))
	}
	out.CreatedAt, out.UpdatedAt = in.CreatedAt, in.UpdatedAt
	if string(out.Recipe) == "null" { // a RawMessage decodes null as the text "null"
		out.Recipe = nil
	}
	if out.ExtensionData == nil {
		out.ExtensionData = session.ExtensionData{}
	}
	return out
}

// ordered returns rows in goose's conversation order: created, then row id.
func ordered(rows []row) []row {
	out := slices.Clone(rows)
	slices.SortStableFunc(out, func(a, b row) int {
		return cmp.Or(cmp.Compare(a.Created, b.Created), cmp.Compare(a.seq, b.seq))
	})
	return out
}

func decodeAll(rows []row) []conversation.Message {
	out := []conversation.Message{}
	for _, r := range ordered(rows) {
		if m, ok, err := r.Decode(); err == nil && ok {
			out = append(out, m)
		}
	}
	return out
}

// Get returns a session; withMessages also returns its conversation.
func (s *Store) Get(_ context.Context, id string, withMessages bool) (session.Session, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	rec, ok := s.sessions[id]
	if !ok {
		return session.Session{}, fmt.Errorf("get session: %w", notFound(id))
	}
	return s.view(rec, withMessages), nil
}

// List pages sessions by updated_at DESC, id DESC.
func (s *Store) List(_ context.Context, opts session.ListOptions) (session.Page, error) {
	var after *session.Cursor
	if opts.Cursor != "" {
		c, err := session.DecodeCursor(opts.Cursor)
		if err != nil {
			return session.Page{}, fmt.Errorf("list sessions: %w", err)
		}
		after = &c
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	var out session.Page
	for _, rec := range s.sorted(opts.Types) {
		m := rec.meta
		if opts.WorkingDir != "" && m.WorkingDir != opts.WorkingDir {
			continue
		}
		if !archiveMatch(opts.Archived, m.ArchivedAt) || !queryMatch(opts.Query, rec) {
			continue
		}
		if after != nil && !after.Before(session.SortKey(m.UpdatedAt), m.ID) {
			continue
		}
		if opts.Limit > 0 && len(out.Sessions) == opts.Limit {
			last := out.Sessions[len(out.Sessions)-1]
			out.NextCursor = session.Cursor{Key: session.SortKey(last.UpdatedAt), ID: last.ID}.Encode()
			break
		}
		v := s.view(rec, false)
		if opts.Snippets {
			v.LastMessageSnippet = snippet(rec.messages)
		}
		out.Sessions = append(out.Sessions, v)
	}
	return out, nil
}

func archiveMatch(f session.ArchiveFilter, at *time.Time) bool {
	archived := at != nil && !at.IsZero()
	switch f {
	case session.ArchivedHidden:
		return !archived
	case session.ArchivedOnly:
		return archived
	}
	return true
}

// queryMatch: a word of query is in the session's name or in the text of
// one of its messages.
func queryMatch(query string, rec *record) bool {
	terms := strings.Fields(strings.ToLower(query))
	if len(terms) == 0 {
		return true
	}
	var texts []string
	texts = append(texts, strings.ToLower(rec.meta.Name))
	for _, m := range decodeAll(rec.messages) {
		for _, c := range m.Content {
			if c.Text != nil {
				texts = append(texts, strings.ToLower(c.Text.Text))
			}
		}
	}
	for _, term := range terms {
		for _, t := range texts {
			if strings.Contains(t, term) {
				return true
			}
		}
	}
	return false
}

// snippet is the session's last-message snippet: the newest of its last
// eight messages that shows the user text.
func snippet(rows []row) string {
	o := ordered(rows)
	for i := len(o) - 1; i >= 0 && i >= len(o)-8; i-- {
		if m, ok, err := o[i].Decode(); err == nil && ok {
			if sn := session.Snippet(m); sn != "" {
				return sn
			}
		}
	}
	return ""
}

// sorted returns the records of the given types (default user+scheduled)
// in List order.
func (s *Store) sorted(types []session.Type) []*record {
	if len(types) == 0 {
		types = session.DefaultListTypes
	}
	var recs []*record
	for _, rec := range s.sessions {
		if slices.Contains(types, rec.meta.SessionType) {
			recs = append(recs, rec)
		}
	}
	slices.SortFunc(recs, func(a, b *record) int {
		return cmp.Or(
			-strings.Compare(session.SortKey(a.meta.UpdatedAt), session.SortKey(b.meta.UpdatedAt)),
			-strings.Compare(a.meta.ID, b.meta.ID))
	})
	return recs
}
