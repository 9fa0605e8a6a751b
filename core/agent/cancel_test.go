package agent

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/provider"
)

func TestCancelMidStream(t *testing.T) {
	h := newHarness(t, nil, step{text: []string{"partial "}, hang: true})
	h.start(StartOptions{})
	ctx, cancel := context.WithCancel(context.Background())
	out, _ := h.reply(ctx, "go", func(e Event) {
		if m, ok := e.(MessageEvent); ok && m.Message.AsText() == "partial " {
			cancel()
		}
	})
	if out.StopReason != Cancelled {
		t.Fatalf("stop = %v", out.StopReason)
	}
	conv := h.store.conversationOf(h.id)
	if len(conv) != 2 || conv[1].AsText() != "partial " {
		t.Fatalf("stored = %s", toJSON(t, conv))
	}
}

func TestCancelMidTool(t *testing.T) {
	h := newHarness(t, nil, calls(call("b", "tt__block", nil), call("e", "tt__echo", nil)))
	h.start(StartOptions{})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		for {
			h.ts.mu.Lock()
			started := len(h.ts.calls) >= 2
			h.ts.mu.Unlock()
			if started {
				cancel()
				return
			}
			time.Sleep(5 * time.Millisecond)
		}
	}()
	start := time.Now()
	out, _ := h.reply(ctx, "go", nil)
	if out.StopReason != Cancelled {
		t.Fatalf("stop = %v", out.StopReason)
	}
	// The blocking tool never returns by itself: this bound only turns a
	// hang into a failure, far above a loaded machine's delays.
	if d := time.Since(start); d > 20*time.Second {
		t.Fatalf("cancel took %v", d)
	}
	conv := h.store.conversationOf(h.id)
	resp := conv[len(conv)-1].ToolResponses()
	if len(resp) != 2 || resp[0].ToolResult.Error != CancelledToolText {
		t.Fatalf("responses = %s", toJSON(t, conv[len(conv)-1]))
	}
	// No orphaned request: the stored history needs no repair.
	if _, issues := conversation.Fix(conv); len(issues) != 0 {
		t.Fatalf("stored history needs repair: %v", issues)
	}
}

func TestCancelWhileAwaitingApproval(t *testing.T) {
	h := newHarness(t, mapConfig{"GOOSE_MODE": "approve"}, calls(call("c", "tt__echo", nil)))
	h.start(StartOptions{})
	ctx, cancel := context.WithCancel(context.Background())
	out, _ := h.reply(ctx, "go", func(e Event) {
		if m, ok := e.(MessageEvent); ok && confirmation(m.Message) != nil {
			cancel()
		}
	})
	if out.StopReason != Cancelled {
		t.Fatalf("stop = %v", out.StopReason)
	}
	if err := h.a.Confirm(h.id, "c", "allow_once"); !errors.Is(err, ErrNoPendingRequest) {
		t.Fatalf("late confirm: %v", err)
	}
	if len(h.ts.calls) != 0 {
		t.Fatal("tool ran after cancellation")
	}
}

func TestProviderError(t *testing.T) {
	h := newHarness(t, nil, step{text: []string{"so far"}, err: &provider.Error{Kind: provider.KindServer, Provider: "fake", Message: "boom"}})
	h.start(StartOptions{})
	out, evs := h.reply(context.Background(), "go", nil)
	msgs := messages(evs)
	want := "Ran into this error: fake: server error: boom.\n\nPlease retry if you think this is a transient or recoverable error."
	if out.StopReason != Error || msgs[len(msgs)-1].AsText() != want {
		t.Fatalf("stop=%v last=%q", out.StopReason, msgs[len(msgs)-1].AsText())
	}
	conv := h.store.conversationOf(h.id)
	if len(conv) != 2 || conv[1].AsText() != "so far" {
		t.Fatalf("stored = %s", toJSON(t, conv))
	}
}

func TestBusySession(t *testing.T) {
	h := newHarness(t, nil, step{hang: true})
	h.start(StartOptions{})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		_, _ = h.a.Reply(ctx, h.id, conversation.UserText(1, "a"), nil)
	}()
	for h.prov.numRequests() == 0 {
		time.Sleep(time.Millisecond)
	}
	_, err := h.a.Reply(context.Background(), h.id, conversation.UserText(1, "b"), nil)
	cancel()
	<-done
	if !errors.Is(err, ErrSessionBusy) {
		t.Fatalf("err = %v", err)
	}
}

func TestRefusalStopReason(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want StopReason
	}{
		{&provider.Error{Kind: provider.KindRefusal, Provider: "anthropic", Message: "the model refused to respond: policy"}, Refusal},
		{fmt.Errorf("wrapped: %w", &provider.Error{Kind: provider.KindRefusal, Provider: "anthropic"}), Refusal},
		// The words alone are not a refusal; the kind is.
		{&provider.Error{Kind: provider.KindRequest, Provider: "openai", Message: "the model refused to respond: x"}, Error},
	} {
		h := newHarness(t, nil, step{err: tc.err})
		h.start(StartOptions{})
		out, _ := h.reply(context.Background(), "go", nil)
		if out.StopReason != tc.want {
			t.Fatalf("%v: stop = %v, want %v", tc.err, out.StopReason, tc.want)
		}
	}
}
