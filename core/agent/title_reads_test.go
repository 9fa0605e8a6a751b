package agent

import (
	"context"
	"testing"
)

// A turn reads its session's row once, when it loads the conversation:
// titling the session from its first message uses that read instead of a
// second one (a whole session row, the costliest read of a turn).
func TestTurnReadsTheSessionOnce(t *testing.T) {
	h := newHarness(t, nil, say("Hello there."))
	h.start(StartOptions{})
	h.store.mu.Lock()
	before := h.store.gets
	h.store.mu.Unlock()
	if out, _ := h.reply(context.Background(), "say hello", nil); out.StopReason != EndTurn {
		t.Fatalf("outcome %+v", out)
	}
	h.store.mu.Lock()
	defer h.store.mu.Unlock()
	if got := h.store.gets - before; got != 1 {
		t.Errorf("the turn read the session %d times, want 1", got)
	}
	if s := h.store.sessions[h.id]; s.Name != "say hello" {
		t.Errorf("title %q, want the first message", s.Name)
	}
}
