package sqlite

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/model"
	"github.com/goose-acp/goose-acp/core/session"
)

// After Warm, a new session's first turn (the store calls goose-acp's
// agent makes for it) runs every statement prepared: none is parsed.
func TestWarmPreparesAFirstTurn(t *testing.T) {
	ctx := context.Background()
	s, err := Open(ctx, filepath.Join(t.TempDir(), "sessions.db"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	<-s.Warm()
	prepared := func() map[string]bool {
		s.stmts.mu.Lock()
		defer s.stmts.mu.Unlock()
		out := map[string]bool{}
		for q := range s.stmts.stmts {
			out[q] = true
		}
		return out
	}
	warmed := prepared()
	s.stmts.mu.Lock()
	before := map[string]bool{}
	for q := range s.stmts.ran {
		before[q] = true // the open's own checks
	}
	s.stmts.mu.Unlock()

	provider, mode := "openai", "auto"
	sess, err := s.Create(ctx, session.NewSession{WorkingDir: "/w", GooseMode: mode, ProviderName: &provider})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Row(ctx, sess.ID); err != nil {
		t.Fatal(err)
	}
	err = s.Update(ctx, sess.ID, session.Update{
		ExtensionData: session.ExtensionData{"enabled_extensions.v0": []byte(`{"extensions":[]}`)},
		ProviderName:  &provider, ModelConfig: &model.Config{ModelName: "gpt-4o"}, GooseMode: &mode,
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.AppendMessage(ctx, sess.ID, conversation.UserText(1, "Say hello.")); err != nil {
		t.Fatal(err)
	}
	name := "Say hello"
	if err := s.Update(ctx, sess.ID, session.Update{Name: &name}); err != nil {
		t.Fatal(err)
	}
	n := func(v int) *int { return &v }
	err = s.Update(ctx, sess.ID, session.Update{
		Usage:  &session.UsageRecord{Model: "gpt-4o", Input: n(10), Output: n(5), Total: n(15)},
		Tokens: &session.TokenCounts{Total: n(15), Input: n(10), Output: n(5), AccumulatedTotal: n(15), AccumulatedInput: n(10), AccumulatedOutput: n(5)},
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.AppendMessage(ctx, sess.ID, conversation.AssistantText(2, "Hello!")); err != nil {
		t.Fatal(err)
	}

	s.stmts.mu.Lock()
	for q := range s.stmts.ran {
		if !before[q] {
			t.Errorf("the first turn parsed %q", q)
		}
	}
	s.stmts.mu.Unlock()
	s.stmts.wg.Wait()
	for q := range prepared() {
		if !warmed[q] {
			t.Errorf("the first turn parsed %q (and prepared it)", q)
		}
	}
	if len(warmed) != len(s.warmSQL())+1 { // and the new session's INSERT
		t.Errorf("%d statements prepared, want %d", len(warmed), len(s.warmSQL())+1)
	}
}

// The store works while it warms, on its one connection: a write waits
// for the statement being prepared, and the warming ends with every
// statement prepared. (A read that starts just before the warming takes
// the connection may still open a second one: not tested here.)
func TestWarmLetsTheStoreWork(t *testing.T) {
	ctx := context.Background()
	s, err := Open(ctx, filepath.Join(t.TempDir(), "sessions.db"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	warmed := s.Warm()
	for range 3 {
		if _, err := s.Create(ctx, session.NewSession{WorkingDir: "/w"}); err != nil {
			t.Fatal(err)
		}
	}
	<-warmed
	assertWarmed(t, s)
	if n := s.db.Stats().OpenConnections; n != 1 {
		t.Fatalf("%d connections open, want 1", n)
	}
	select {
	case <-s.Warm(): // nothing left to prepare
	default:
		t.Fatal("warming a warm store waits")
	}
}

// Closing the store ends the warming.
func TestWarmEndsWithTheStore(t *testing.T) {
	ctx := context.Background()
	s, err := Open(ctx, filepath.Join(t.TempDir(), "sessions.db"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	warmed := s.Warm()
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	<-warmed
}

// assertWarmed fails t for each of a first turn's statements s has not
// prepared.
func assertWarmed(t *testing.T, s *Store) {
	t.Helper()
	s.stmts.mu.Lock()
	defer s.stmts.mu.Unlock()
	for _, q := range s.warmSQL() {
		if s.stmts.stmts[q] == nil {
			t.Errorf("not prepared: %q", q)
		}
	}
}
