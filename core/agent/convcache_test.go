package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/session"
	"github.com/goose-acp/goose-acp/core/session/sqlite"
)

// TestConversationCache: a loaded session's turns reuse the decoded
// conversation (no full read while only the agent writes), the messages
// are exactly what sessions.db holds, and any other write is seen.
func TestConversationCache(t *testing.T) {
	ctx := context.Background()
	db, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "sessions.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	h := newHarnessWith(t, nil, func(o *Options) { o.Store = db })
	h.start(StartOptions{})
	c := h.a.convCache()
	if c == nil {
		t.Fatal("a sqlite store is not cached")
	}
	turn := func(n int, steps ...step) { t.Helper(); h.numberedTurn(n, steps...) }
	turn(1, say("hello  "))
	turn(2, say("fine"))
	c.mu.Lock()
	e := c.cached[h.id]
	valid := e != nil && e.rev == db.Revision(h.id)
	c.mu.Unlock()
	if !valid {
		t.Fatal("the agent's own writes invalidated the cache")
	}
	same := func(when string) {
		t.Helper()
		for _, withMessages := range []bool{true, false} {
			cached, err := h.a.opts.Store.Get(ctx, h.id, withMessages)
			if err != nil {
				t.Fatal(err)
			}
			stored, err := db.Get(ctx, h.id, withMessages)
			if err != nil {
				t.Fatal(err)
			}
			got, _ := json.Marshal(cached)
			want, _ := json.Marshal(stored)
			if string(got) != string(want) {
				t.Fatalf("%s (messages %v): cached session\n%s\nsessions.db\n%s", when, withMessages, got, want)
			}
		}
	}
	same("after two turns")
	if got := h.prov.requests[1].Messages; len(got) != 3 {
		t.Fatalf("second call saw %d messages, want 3: %+v", len(got), got)
	}
	// The tool response is created now, the fake's next reply at 0: goose
	// sorts that reply before the response, and so must the next read.
	turn(3, calls(call("c1", "tt__echo", map[string]any{"text": "x"})), say("done"))
	same("after a tool turn")
	// A write the cache did not make (goose's fork truncation) is seen.
	if err := db.Truncate(ctx, h.id, 1); err != nil {
		t.Fatal(err)
	}
	same("after truncate")
	turn(4, say("again"))
	same("after a turn following the truncate")
	for _, m := range h.prov.requests[len(h.prov.requests)-1].Messages {
		if m.Role == conversation.RoleUser && len(m.Content) > 0 && m.Content[0].ToolResponse != nil {
			t.Fatalf("the truncated tool response reached the model: %+v", m)
		}
	}
	// A closed session's conversation is no longer held.
	if err := h.a.CloseSession(h.id); err != nil {
		t.Fatal(err)
	}
	c.mu.Lock()
	_, held := c.cached[h.id]
	c.mu.Unlock()
	if held {
		t.Fatal("closed session still cached")
	}
}

// TestCloseReleasesLongConversation: closing a session whose cached
// conversation holds at least releaseMin bytes hands the freed memory back
// to the OS (once); closing a short one does not.
func TestCloseReleasesLongConversation(t *testing.T) {
	ctx := context.Background()
	released := 0
	defer func(f func()) { releaseMemory = f }(releaseMemory)
	releaseMemory = func() { released++ }
	for _, tc := range []struct {
		name  string
		texts int // bytes of stored text
		want  int
	}{
		{"short", 1 << 10, 0},
		{"long", releaseMin, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			released = 0
			db, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "sessions.db"), sqlite.Options{})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { db.Close() })
			h := newHarnessWith(t, nil, func(o *Options) { o.Store = db }, say("ok"))
			h.prov.limit = 100_000_000 // no compaction: the turn keeps the conversation cached
			h.start(StartOptions{})
			var msgs []conversation.Message
			for i := 0; i < 16; i++ {
				msgs = append(msgs, conversation.UserText(0, strings.Repeat("x", tc.texts/16)).WithID(fmt.Sprintf("m%d", i)))
			}
			if err := db.ReplaceConversation(ctx, h.id, msgs); err != nil {
				t.Fatal(err)
			}
			if out, err := h.a.Reply(ctx, h.id, conversation.UserText(0, "go on").WithID("u1"), nil); err != nil || out.StopReason != EndTurn {
				t.Fatalf("turn: %v %v", out, err)
			}
			if released != 0 {
				t.Fatalf("released %d times before the close", released)
			}

			if err := h.a.CloseSession(h.id); err != nil {
				t.Fatal(err)
			}
			if released != tc.want {
				t.Errorf("released %d times on close, want %d", released, tc.want)
			}
		})
	}
}

// numberedTurn runs turn n: the user's "turn n" (id un), answered by
// steps. Created 0: the fake provider's replies are created 0 too, so the
// messages are in goose's order as they are appended.
func (h *harness) numberedTurn(n int, steps ...step) {
	h.t.Helper()
	h.prov.steps = steps
	msg := conversation.UserText(0, fmt.Sprintf("turn %d", n)).WithID(fmt.Sprintf("u%d", n))
	if out, err := h.a.Reply(context.Background(), h.id, msg, nil); err != nil || out.StopReason != EndTurn {
		h.t.Fatalf("turn %d: %v %v", n, out, err)
	}
}

// readCounter counts full reads (with messages) of the store it wraps,
// and reads of its statistics (which pass every message row).
type readCounter struct {
	*sqlite.Store
	full, stats int
}

func (r *readCounter) Get(ctx context.Context, id string, withMessages bool) (session.Session, error) {
	if withMessages {
		r.full++
	} else {
		r.stats++
	}
	return r.Store.Get(ctx, id, withMessages)
}

// TestNewSessionFirstTurnReadsNoMessages: a session created by the agent
// starts with a valid, empty cached conversation, so its first turn does
// not read back from sessions.db the prompt it has just stored (a 31 MB
// prompt was read and decoded again, twice its size in memory), and what
// the turn saw is what sessions.db holds.
func TestNewSessionFirstTurnReadsNoMessages(t *testing.T) {
	ctx := context.Background()
	db, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "sessions.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	rc := &readCounter{Store: db}
	h := newHarnessWith(t, nil, func(o *Options) { o.Store = rc })
	h.start(StartOptions{})
	h.prov.steps = []step{say("hello")}
	if out, err := h.a.Reply(ctx, h.id, conversation.UserText(0, "hi").WithID("u1"), nil); err != nil || out.StopReason != EndTurn {
		t.Fatalf("turn: %v %v", out, err)
	}
	if rc.full != 0 {
		t.Errorf("a new session's first turn read its conversation %d times", rc.full)
	}
	if got := h.prov.requests[0].Messages; len(got) == 0 || got[0].Content[0].Text == nil || got[0].Content[0].Text.Text != "hi" {
		t.Fatalf("the model saw %+v", got)
	}
	cached, _ := h.a.opts.Store.Get(ctx, h.id, true)
	stored, _ := db.Get(ctx, h.id, true)
	got, _ := json.Marshal(cached)
	want, _ := json.Marshal(stored)
	if string(got) != string(want) {
		t.Fatalf("cached session\n%s\nsessions.db\n%s", got, want)
	}
}
