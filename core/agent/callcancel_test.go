package agent

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestCancelOneToolCall: CancelToolCall stops one running call (its tool
// sees its context end); the call answers goose's cancelled text, the
// other call finishes, and the turn goes on to the model.
func TestCancelOneToolCall(t *testing.T) {
	h := newHarness(t, nil, calls(call("b", "tt__block", nil), call("e", "tt__echo", nil)), say("done"))
	h.start(StartOptions{})
	if err := h.a.CancelToolCall(h.id, "b"); !errors.Is(err, ErrToolCallNotRunning) {
		t.Fatalf("before the call runs: %v", err)
	}
	go func() {
		for {
			h.ts.mu.Lock()
			started := len(h.ts.calls) >= 2
			h.ts.mu.Unlock()
			if started {
				if err := h.a.CancelToolCall(h.id, "b"); err != nil {
					t.Error(err)
				}
				return
			}
			time.Sleep(5 * time.Millisecond)
		}
	}()
	out, _ := h.reply(context.Background(), "go", nil)
	if out.StopReason != EndTurn {
		t.Fatalf("stop = %v, want the turn to go on to end_turn", out.StopReason)
	}
	conv := h.store.conversationOf(h.id)
	var resp []string
	for _, m := range conv {
		for _, r := range m.ToolResponses() {
			text := r.ToolResult.Error
			if text == "" {
				text = "ok"
			}
			resp = append(resp, r.ID+":"+text)
		}
	}
	if len(resp) != 2 || resp[0] != "b:"+CancelledToolText || resp[1] != "e:ok" {
		t.Fatalf("tool responses %q", resp)
	}
	if h.prov.numRequests() != 2 || conv[len(conv)-1].AsText() != "done" {
		t.Fatalf("the turn did not go on: %d model calls, last %s", h.prov.numRequests(), toJSON(t, conv[len(conv)-1]))
	}
	if err := h.a.CancelToolCall(h.id, "b"); !errors.Is(err, ErrToolCallNotRunning) {
		t.Fatalf("after the call ended: %v", err)
	}
}
