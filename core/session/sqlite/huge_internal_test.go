package sqlite

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/session"
)

// TestHugeRowGivesSQLiteMemoryBack: after a write of a huge row (a 31 MB
// prompt) the pool keeps no idle connection, whose SQLite memory grew to
// twice the row and would stay; small writes keep theirs, and the store
// goes on working (a new connection opens).
func TestHugeRowGivesSQLiteMemoryBack(t *testing.T) {
	ctx := context.Background()
	st, err := Open(ctx, filepath.Join(t.TempDir(), "sessions.db"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	s, err := st.Create(ctx, session.NewSession{WorkingDir: "/w"})
	if err != nil {
		t.Fatal(err)
	}
	if err := st.AppendMessage(ctx, s.ID, conversation.UserText(1, "small")); err != nil {
		t.Fatal(err)
	}
	if idle := st.db.Stats().Idle; idle == 0 {
		t.Fatal("a small write closed the idle connections")
	}
	huge := strings.Repeat("x", hugeRow)
	if err := st.AppendMessage(ctx, s.ID, conversation.UserText(2, huge)); err != nil {
		t.Fatal(err)
	}
	if idle := st.db.Stats().Idle; idle != 0 {
		t.Fatalf("%d idle connections kept after a huge row", idle)
	}
	got, err := st.Get(ctx, s.ID, true)
	if err != nil || len(got.Conversation) != 2 || got.Conversation[1].AsText() != huge {
		t.Fatalf("after the release: %d messages, %v", len(got.Conversation), err)
	}
	replay := conversation.UserText(3, huge).WithID("replay")
	for name, write := range map[string]func() error{
		"replace": func() error {
			return st.ReplaceConversation(ctx, s.ID, append(got.Conversation, replay))
		},
		"fork": func() error { _, err := st.Fork(ctx, s.ID); return err },
	} {
		if err := write(); err != nil {
			t.Fatal(name, err)
		}
		if idle := st.db.Stats().Idle; idle != 0 {
			t.Fatalf("%s: %d idle connections kept", name, idle)
		}
	}
}
