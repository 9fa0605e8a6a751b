package sqlite_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/session"
	"github.com/goose-acp/goose-acp/core/session/sqlite"
)

// tailSession stores ten messages m0..m9 created 100..109 and marks the
// tail at m6.
func tailSession(t *testing.T) (*sqlite.Store, string, session.TailMark) {
	t.Helper()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "sessions.db")
	st := openStore(t, path, nil)
	t.Cleanup(func() { st.Close() })
	s, err := st.Create(ctx, session.NewSession{WorkingDir: "/w"})
	if err != nil {
		t.Fatal(err)
	}
	var msgs []conversation.Message
	for i := range 10 {
		msgs = append(msgs, conversation.UserText(int64(100+i), fmt.Sprintf("message %d", i)).WithID(fmt.Sprintf("m%d", i)))
	}
	if err := st.ReplaceConversation(ctx, s.ID, msgs); err != nil {
		t.Fatal(err)
	}
	m, err := st.MarkTail(ctx, s.ID, "m6")
	if err != nil {
		t.Fatal(err)
	}
	if m.MessageID != "m6" || m.Created != 106 || m.Before != 6 || m.BeforeMax == 0 || m.Row <= m.BeforeMax {
		t.Fatalf("mark %+v", m)
	}
	return st, s.ID, m
}

// TestGetTail: the tail is the marked message and everything after it in
// goose's order (what the whole read holds from there), with the session
// row; a message appended later is part of it.
func TestGetTail(t *testing.T) {
	ctx := context.Background()
	st, id, m := tailSession(t)
	if err := st.AppendMessage(ctx, id, conversation.AssistantText(110, "later").WithID("m10")); err != nil {
		t.Fatal(err)
	}
	got, ok, err := st.GetTail(ctx, id, m)
	if err != nil || !ok {
		t.Fatalf("GetTail: %v %v", ok, err)
	}
	whole, err := st.Get(ctx, id, true)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := json.Marshal(whole.Conversation[6:])
	if b, _ := json.Marshal(got.Conversation); string(b) != string(want) {
		t.Fatalf("tail\n%s\nwant\n%s", b, want)
	}
	if got.ID != id || got.WorkingDir != "/w" {
		t.Fatalf("session row %+v", got)
	}
}

// TestGetTailRefusesAChangedPrefix: once the rows before the mark are not
// the marked ones (a message added before it, one removed, the
// conversation rewritten, as another process may do), or the marked
// message is gone, GetTail reads nothing and says so.
func TestGetTailRefusesAChangedPrefix(t *testing.T) {
	ctx := context.Background()
	for name, change := range map[string]func(st *sqlite.Store, id string) error{
		"older message appended": func(st *sqlite.Store, id string) error {
			return st.AppendMessage(ctx, id, conversation.UserText(101, "late but old").WithID("old"))
		},
		"message before it removed": func(st *sqlite.Store, id string) error {
			s, err := st.Get(ctx, id, true)
			if err != nil {
				return err
			}
			return st.ReplaceConversation(ctx, id, append(s.Conversation[:2:2], s.Conversation[3:]...))
		},
		"conversation rewritten": func(st *sqlite.Store, id string) error {
			s, err := st.Get(ctx, id, true)
			if err != nil {
				return err
			}
			s.Conversation[1] = conversation.UserText(101, "edited").WithID("m1")
			return st.ReplaceConversation(ctx, id, s.Conversation)
		},
		"marked message gone": func(st *sqlite.Store, id string) error {
			return st.Truncate(ctx, id, 105)
		},
	} {
		t.Run(name, func(t *testing.T) {
			st, id, m := tailSession(t)
			if err := change(st, id); err != nil {
				t.Fatal(err)
			}
			got, ok, err := st.GetTail(ctx, id, m)
			if err != nil || ok || got.Conversation != nil {
				t.Fatalf("GetTail after the change: ok %v, %d messages, %v", ok, len(got.Conversation), err)
			}
		})
	}
}

// TestMarkTailNeedsOneMessage: a message id the session does not hold is
// not found.
func TestMarkTailNeedsOneMessage(t *testing.T) {
	st, id, _ := tailSession(t)
	if _, err := st.MarkTail(context.Background(), id, "nosuch"); !errors.Is(err, session.ErrNotFound) {
		t.Fatalf("MarkTail(nosuch): %v", err)
	}
}
