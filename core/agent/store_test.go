package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/session"
)

// memStore is a minimal in-memory session.Store for the loop tests.
type memStore struct {
	mu       sync.Mutex
	next     int
	sessions map[string]*session.Session
	usage    []session.UsageRecord // Update's usage_ledger rows, in order
	gets     int                   // Get calls
}

func newMemStore() *memStore { return &memStore{sessions: map[string]*session.Session{}} }

func (m *memStore) Create(_ context.Context, n session.NewSession) (session.Session, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.next++
	s := &session.Session{ID: fmt.Sprintf("20260101_%d", m.next), WorkingDir: n.WorkingDir, Name: n.Name, SessionType: n.SessionType,
		ExtensionData: session.ExtensionData{}, Conversation: []conversation.Message{},
		GooseMode: n.GooseMode, ProviderName: n.ProviderName, ModelConfig: n.ModelConfig}
	m.sessions[s.ID] = s
	return m.copyOf(s, false), nil
}

func (m *memStore) copyOf(s *session.Session, withMessages bool) session.Session {
	out := *s
	out.ExtensionData = session.ExtensionData{}
	for k, v := range s.ExtensionData {
		out.ExtensionData[k] = v
	}
	out.MessageCount = len(s.Conversation)
	if withMessages {
		b, _ := json.Marshal(s.Conversation)
		out.Conversation = nil
		_ = json.Unmarshal(b, &out.Conversation)
	} else {
		out.Conversation = nil
	}
	return out
}

func (m *memStore) get(id string) (*session.Session, error) {
	s, ok := m.sessions[id]
	if !ok {
		return nil, fmt.Errorf("%w: %s", session.ErrNotFound, id)
	}
	return s, nil
}

func (m *memStore) Get(_ context.Context, id string, withMessages bool) (session.Session, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.gets++
	s, err := m.get(id)
	if err != nil {
		return session.Session{}, err
	}
	return m.copyOf(s, withMessages), nil
}

func (m *memStore) List(context.Context, session.ListOptions) (session.Page, error) {
	return session.Page{}, nil
}

func (m *memStore) AppendMessage(_ context.Context, id string, msg conversation.Message) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	s, err := m.get(id)
	if err != nil {
		return err
	}
	s.Conversation = append(s.Conversation, msg.Clone())
	return nil
}

func (m *memStore) ReplaceConversation(_ context.Context, id string, msgs []conversation.Message) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	s, err := m.get(id)
	if err != nil {
		return err
	}
	s.Conversation = slices.Clone(msgs)
	return nil
}

func (m *memStore) Update(_ context.Context, id string, u session.Update) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	s, err := m.get(id)
	if err != nil {
		return err
	}
	if u.Name != nil {
		s.Name = *u.Name
	}
	if u.UserSetName != nil {
		s.UserSetName = *u.UserSetName
	}
	if u.WorkingDir != nil {
		s.WorkingDir = *u.WorkingDir
	}
	if u.ProviderName != nil {
		s.ProviderName = u.ProviderName
	}
	if u.ModelConfig != nil {
		s.ModelConfig = u.ModelConfig
	}
	if u.GooseMode != nil {
		s.GooseMode = *u.GooseMode
	}
	if u.ExtensionData != nil {
		s.ExtensionData = u.ExtensionData
	}
	if u.ParentSessionID != nil {
		s.ParentSessionID = u.ParentSessionID
	}
	if u.Usage != nil {
		m.usage = append(m.usage, *u.Usage)
	}
	if t := u.Tokens; t != nil {
		s.TotalTokens, s.InputTokens, s.OutputTokens = t.Total, t.Input, t.Output
		s.AccumulatedTotalTokens, s.AccumulatedInputTokens, s.AccumulatedOutputTokens = t.AccumulatedTotal, t.AccumulatedInput, t.AccumulatedOutput
	}
	s.UpdatedAt = time.Unix(0, 0)
	return nil
}

func (m *memStore) Delete(_ context.Context, id string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.sessions, id)
	return nil
}

func (m *memStore) Search(_ context.Context, q string, limit int) ([]session.SearchHit, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var hits []session.SearchHit
	for _, s := range m.sessions {
		for _, msg := range s.Conversation {
			if strings.Contains(msg.AsText(), q) {
				hits = append(hits, session.SearchHit{Session: m.copyOf(s, false), Snippets: []string{msg.AsText()}})
				break
			}
		}
	}
	return hits, nil
}

func (m *memStore) Fork(context.Context, string) (session.Session, error) {
	return session.Session{}, fmt.Errorf("not supported")
}
func (m *memStore) Truncate(context.Context, string, int64) error { return fmt.Errorf("not supported") }
func (m *memStore) Export(context.Context, string) ([]byte, error) {
	return nil, fmt.Errorf("not supported")
}
func (m *memStore) Import(context.Context, []byte) (session.Session, error) {
	return session.Session{}, fmt.Errorf("not supported")
}
func (m *memStore) Insights(context.Context) (session.Insights, error) {
	return session.Insights{}, nil
}
func (m *memStore) Close() error { return nil }

// conversationOf returns the stored conversation.
// conversationOf is the stored conversation without the agent's
// <turn-context> messages, which tests of other behaviour do not count
// (rawConversationOf keeps them).
func (m *memStore) conversationOf(id string) []conversation.Message {
	var out []conversation.Message
	for _, msg := range m.rawConversationOf(id) {
		if !msg.Metadata.TurnContext {
			out = append(out, msg)
		}
	}
	return out
}

// rawConversationOf is the stored conversation as it is.
func (m *memStore) rawConversationOf(id string) []conversation.Message {
	s, _ := m.Get(context.Background(), id, true)
	return s.Conversation
}
