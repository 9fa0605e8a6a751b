package agent

import (
	"context"
	"testing"
)

// A new session is "New Chat" (goose's default) and not user-named, so the
// background naming may replace it; a given name is kept and marked
// user-set.
func TestNewSessionNames(t *testing.T) {
	h := newHarness(t, nil)
	h.start(StartOptions{})
	got, err := h.store.Get(context.Background(), h.id, false)
	if err != nil {
		t.Fatal(err)
	}
	if got.Name != DefaultSessionName || got.UserSetName {
		t.Fatalf("unnamed session: name %q, user_set_name %v", got.Name, got.UserSetName)
	}
	h2 := newHarness(t, nil)
	h2.start(StartOptions{Name: "Refactor the parser"})
	got, err = h2.store.Get(context.Background(), h2.id, false)
	if err != nil {
		t.Fatal(err)
	}
	if got.Name != "Refactor the parser" || !got.UserSetName {
		t.Fatalf("named session: name %q, user_set_name %v", got.Name, got.UserSetName)
	}
}
