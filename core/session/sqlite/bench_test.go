package sqlite_test

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/session"
	"github.com/goose-acp/goose-acp/core/session/sqlite"
)

// benchMessages returns n alternating user/assistant messages of a
// realistic size (a sentence or two; every fifth one a tool call).
func benchMessages(n int) []conversation.Message {
	msgs := make([]conversation.Message, n)
	for i := range msgs {
		text := fmt.Sprintf("message %d: please look at the build output and tell me what failed in package %d", i, i%40)
		if i%2 == 0 {
			msgs[i] = conversation.UserText(int64(1_700_000_000+i), text)
			continue
		}
		m := conversation.AssistantText(int64(1_700_000_000+i), text)
		if i%5 == 0 {
			m = m.With(conversation.ToolRequestContent(fmt.Sprintf("call_%d", i), "developer__shell",
				map[string]any{"command": "go test ./..."}))
		}
		msgs[i] = m
	}
	return msgs
}

// benchSession opens a store holding one session with n messages.
func benchSession(b *testing.B, n int) (*sqlite.Store, string) {
	b.Helper()
	ctx := context.Background()
	st := openStore(&testing.T{}, filepath.Join(b.TempDir(), "sessions.db"), nil)
	s, err := st.Create(ctx, session.NewSession{WorkingDir: "/bench"})
	if err != nil {
		b.Fatal(err)
	}
	if err := st.ReplaceConversation(ctx, s.ID, benchMessages(n)); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { st.Close() })
	return st, s.ID
}

// BenchmarkAppendMessage10k: goal ≤ 1 ms per append to a 10,000-message
// session.
func BenchmarkAppendMessage10k(b *testing.B) {
	st, id := benchSession(b, 10_000)
	m := conversation.AssistantText(1_800_000_000, "one more reply of ordinary length, with a little detail in it")
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if err := st.AppendMessage(ctx, id, m); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLoadSession10k: goal ≤ 100 ms to load a 10,000-message session.
func BenchmarkLoadSession10k(b *testing.B) {
	st, id := benchSession(b, 10_000)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		s, err := st.Get(ctx, id, true)
		if err != nil || len(s.Conversation) != 10_000 {
			b.Fatalf("%d messages, %v", len(s.Conversation), err)
		}
	}
}

// seedSessions writes n sessions with 5 messages each straight into a new
// sessions.db (one transaction), as a long-used goose install would hold.
func seedSessions(b *testing.B, n int) string {
	b.Helper()
	path := filepath.Join(b.TempDir(), "sessions.db")
	openStore(&testing.T{}, path, nil).Close()
	db := rawDB(&testing.T{}, path)
	defer db.Close()
	tx, err := db.Begin()
	if err != nil {
		b.Fatal(err)
	}
	insSession, err := tx.Prepare(`INSERT INTO sessions (id, name, working_dir, created_at, updated_at, extension_data)
		VALUES (?, ?, '/bench', ?, ?, '{}')`)
	if err != nil {
		b.Fatal(err)
	}
	insMessage, err := tx.Prepare(`INSERT INTO messages (message_id, session_id, role, content_json, created_timestamp, metadata_json)
		VALUES (?, ?, 'user', '[{"type":"text","text":"hello"}]', ?, '{"userVisible":true,"agentVisible":true}')`)
	if err != nil {
		b.Fatal(err)
	}
	for i := range n {
		id := fmt.Sprintf("2025%02d%02d_%d", 1+i/3000%12, 1+i%28, i)
		at := fmt.Sprintf("2025-%02d-%02d %02d:%02d:%02d", 1+i/3000%12, 1+i%28, i%24, i%60, i%60)
		if _, err := insSession.Exec(id, "session "+id, at, at); err != nil {
			b.Fatal(err)
		}
		for j := range 5 {
			if _, err := insMessage.Exec(fmt.Sprintf("m%d_%d", i, j), id, j); err != nil {
				b.Fatal(err)
			}
		}
	}
	if err := tx.Commit(); err != nil {
		b.Fatal(err)
	}
	return path
}

// BenchmarkListFirstPage10k: goal ≤ 50 ms for the first page (50 sessions)
// of 10,000.
func BenchmarkListFirstPage10k(b *testing.B) {
	path := seedSessions(b, 10_000)
	st := openStore(&testing.T{}, path, nil)
	defer st.Close()
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		p, err := st.List(ctx, session.ListOptions{Limit: 50})
		if err != nil || len(p.Sessions) != 50 || p.NextCursor == "" {
			b.Fatalf("%d sessions, %v", len(p.Sessions), err)
		}
	}
}

// BenchmarkOpenExisting: goal ≤ 20 ms to open a store that already exists
// (10,000 sessions) and be ready to serve.
func BenchmarkOpenExisting(b *testing.B) {
	path := seedSessions(b, 10_000)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		st := openStore(&testing.T{}, path, nil)
		if _, err := st.Get(ctx, "20250101_0", false); err != nil {
			b.Fatal(err)
		}
		st.Close()
	}
}
