package agent

import (
	"context"
	"errors"
	"testing"

	"github.com/goose-acp/goose-acp/core/conversation"
)

// Input injected while a turn runs reaches that turn's next model
// request, is shown (SteerEvent) and stored, and the turn answers it
// before it ends; with no turn running Inject is refused.
func TestInjectReachesTheNextRequestOfTheRunningTurn(t *testing.T) {
	ctx := context.Background()
	h := newHarness(t, nil, say("working on it"), say("done, and checked the tests"))
	h.start(StartOptions{})
	if _, _, err := h.a.Inject(h.id, []conversation.Content{conversation.Text("too early")}); !errors.Is(err, ErrNoActiveRun) {
		t.Fatalf("inject before the turn: %v", err)
	}
	var injectedID string
	out, evs := h.reply(ctx, "fix it", func(e Event) {
		if m, ok := e.(MessageEvent); ok && injectedID == "" && m.Message.AsText() == "working on it" {
			_, id, err := h.a.Inject(h.id, []conversation.Content{conversation.Text("also check the tests")})
			if err != nil {
				t.Errorf("inject during the turn: %v", err)
			}
			injectedID = id
		}
	})
	if out.StopReason != EndTurn || h.prov.numRequests() != 2 {
		t.Fatalf("outcome %+v after %d requests", out, h.prov.numRequests())
	}
	msgs := h.prov.request(1).Messages
	if last := msgs[len(msgs)-1]; last.Role != conversation.RoleUser || last.AsText() != "also check the tests" {
		t.Fatalf("second request ends with %s %q", last.Role, last.AsText())
	}
	var shown bool
	for _, e := range evs {
		if s, ok := e.(SteerEvent); ok && s.Message.IDOrEmpty() == injectedID && s.Message.AsText() == "also check the tests" {
			shown = true
		}
	}
	if !shown || injectedID == "" {
		t.Errorf("no SteerEvent for %q", injectedID)
	}
	stored, err := h.a.Sessions().Get(ctx, h.id, true)
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	for _, m := range conversation.Conversation(stored.Conversation).WithoutTurnContext() {
		texts = append(texts, string(m.Role)+":"+m.AsText())
	}
	want := []string{"user:fix it", "assistant:working on it", "user:also check the tests", "assistant:done, and checked the tests"}
	if len(texts) != len(want) {
		t.Fatalf("stored %q", texts)
	}
	for i := range want {
		if texts[i] != want[i] {
			t.Fatalf("stored %q", texts)
		}
	}
	if _, _, err := h.a.Inject(h.id, []conversation.Content{conversation.Text("too late")}); !errors.Is(err, ErrNoActiveRun) {
		t.Fatalf("inject after the turn: %v", err)
	}
}

// A turn about to end closes its run only when nothing was steered into
// it since it last looked: input that comes after is refused, not kept
// for a turn that never answers it.
func TestRunClosesOnlyWhenNothingWasSteered(t *testing.T) {
	var q steerQueue
	q.begin("run_1")
	q.pending = append(q.pending, conversation.UserText(1, "late"))
	if q.closeIfIdle() {
		t.Fatal("closed with steered input pending")
	}
	q.take()
	if !q.closeIfIdle() || q.runID != "" {
		t.Fatal("an idle run stays open")
	}
}
